/*
 * demo.c: the built-in demo profile (demo.h), written once to a cache file
 * by the generator and the writer.  Reads the environment only to find the
 * cache directory; the file's content depends on nothing but the options
 * below.
 */
#include "sv_version.h"
#include "scopeview/demo.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scopeview/load.h"

#define DEMO_LABEL                                                             \
	"scopeview demo: a synthetic 4-rank solver run (scopeview " SV_VERSION \
	", generator r" SV_GEN_REVISION ")"

void sv_demo_opts(struct sv_gen_opts *o)
{
	sv_gen_opts_init(o);
	o->ranks = 4;
	o->threads = 2;
	o->tasks = 1;
	o->events = 40000;
	o->depth = 6;
	o->imbalance = 0.45;
	o->gpu = true;
	o->await = true;
	o->call_ids = true;
	o->seed = 2026;
	o->label = DEMO_LABEL;
}

int sv_demo_write(const char *path, struct sv_error *err)
{
	struct sv_gen_opts o;
	sv_demo_opts(&o);
	return sv_gen_write(path, &o, NULL, NULL, err);
}

/* mkdir -p, mode 0700 for what it creates. */
static int demo_mkdirs(const char *dir)
{
	char *p = sv_xstrdup(dir), *s;
	struct stat st;
	int rc = 0;

	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(p, 0700) != 0 && errno != EEXIST)
			rc = -errno;
		*s = '/';
		if (rc)
			break;
	}
	if (!rc && mkdir(p, 0700) != 0 && errno != EEXIST)
		rc = -errno;
	if (!rc && (stat(p, &st) != 0 || !S_ISDIR(st.st_mode)))
		rc = -ENOTDIR;
	if (!rc && access(p, W_OK | X_OK) != 0)
		rc = -errno;
	free(p);
	return rc;
}

/* Is dir ours alone, as ssh wants of ~/.ssh: not a symbolic link, owned
 * by this user, writable by nobody else (and the file in it a regular
 * file of ours)?  A shared
 * /tmp lets anyone create /tmp/scopeview-<uid> first and put a profile
 * of their choosing in it.  Returns 0 or a negative errno. */
static int demo_trusted(const char *path, bool dir)
{
	struct stat st;

	if (lstat(path, &st) != 0)
		return -errno;
	if (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))
		return dir ? -ENOTDIR : -EINVAL;
	/* Inside a directory only we can write, the file's mode is ours to
	 * choose (the umask may leave it group-writable). */
	if (st.st_uid != getuid() || (dir && (st.st_mode & 022)))
		return -EPERM;
	return 0;
}

/* Whether path holds a readable demo of this version and generator: an
 * HDF5 file (signature at offset 0) whose index the loader reads and whose
 * label is ours. */
static int demo_is_current(const char *path)
{
	static const unsigned char sig[8] = {
		0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
	struct sv_load_opts lo = {.summary_only = true};
	struct sv_profile *p = NULL;
	const struct sv_meta *m;
	unsigned char buf[8];
	int fd = open(path, O_RDONLY | O_CLOEXEC), ok;
	ssize_t got;

	if (fd < 0)
		return 0;
	if (demo_trusted(path, false)) {
		close(fd);
		return 0;
	}
	got = read(fd, buf, sizeof buf);
	close(fd);
	if (got != (ssize_t)sizeof buf || memcmp(buf, sig, sizeof sig))
		return 0;
	if (sv_load(path, &lo, &p, NULL) != 0)
		return 0;
	m = sv_profile_meta(p, "label");
	ok = m && m->text && !strcmp(m->text, DEMO_LABEL);
	sv_profile_free(p);
	return ok;
}

/* Candidate cache directories, best first; returns how many. */
static int demo_dirs(char dirs[3][1024])
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	const char *tmp = getenv("TMPDIR");
	int n = 0;

	if (xdg && xdg[0] == '/')
		snprintf(dirs[n++], 1024, "%s/scopeview", xdg);
	if (home && home[0] == '/')
		snprintf(dirs[n++], 1024, "%s/.cache/scopeview", home);
	snprintf(dirs[n++], 1024, "%s/scopeview-%ld",
		tmp && tmp[0] == '/' ? tmp : "/tmp", (long)getuid());
	return n;
}

int sv_demo_path(char *buf, size_t n, struct sv_error *err)
{
	char dirs[3][1024];
	int ndirs = demo_dirs(dirs), i, rc = -ENOENT;
	struct sv_error last = {0};

	for (i = 0; i < ndirs; i++) {
		char *path;
		rc = demo_mkdirs(dirs[i]);
		if (!rc && demo_trusted(dirs[i], true)) {
			rc = -EPERM;
			sv_error_set(&last, rc,
				"cannot use %s: it is not a directory of "
				"this user's that only this user can write",
				dirs[i]);
			continue;
		}
		if (rc) {
			sv_error_set(&last, rc, "cannot use %s: %s", dirs[i],
				strerror(-rc));
			continue;
		}
		path = sv_xasprintf("%s/demo-%s.h5", dirs[i], SV_VERSION);
		if (!demo_is_current(path)) {
			rc = sv_demo_write(path, &last);
			if (rc) {
				free(path);
				continue;
			}
		}
		if (strlen(path) + 1 > n) {
			free(path);
			return sv_error_set(err, -ENAMETOOLONG,
				"the demo's path is too long");
		}
		memcpy(buf, path, strlen(path) + 1);
		free(path);
		return 0;
	}
	if (err)
		*err = last;
	return rc ? rc : -EIO;
}
