/*
 * outfile.c: the output rule of every command that writes (outfile.h):
 * refuse an input or anything but a regular file or a new name, write a
 * temporary beside the target, rename it over the target at the end,
 * remove it on any failure.
 *
 * Inputs are compared by device and inode with links followed, so a
 * symbolic link, a hard link and the same path all match; a directory
 * input is walked (a directory run's files), but only when the target
 * exists, since a new name can be no input.  The live temporaries are
 * kept in fixed slots so a signal handler can remove them without
 * allocating or locking.  Nothing here prints.
 */
#include "scopeview/outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scopeview/infile.h"

/* How deep and how many entries a directory input is searched. */
#define OUTFILE_DIR_DEPTH   16
#define OUTFILE_DIR_ENTRIES 1000000

/* The temporaries being written, for sv_outfile_unlink_temps(): a slot is
 * free (0), being filled (1) or holds a live path (2). */
#define OUTFILE_SLOTS    16
#define OUTFILE_PATH_MAX 4096
static char outfile_live[OUTFILE_SLOTS][OUTFILE_PATH_MAX];
static atomic_int outfile_state[OUTFILE_SLOTS];

static int outfile_slot_take(const char *tmp)
{
	int i;

	if (strlen(tmp) >= OUTFILE_PATH_MAX)
		return -1;
	for (i = 0; i < OUTFILE_SLOTS; i++) {
		int free_state = 0;
		if (atomic_compare_exchange_strong(
			    &outfile_state[i], &free_state, 1)) {
			strcpy(outfile_live[i], tmp);
			atomic_store(&outfile_state[i], 2);
			return i;
		}
	}
	return -1;
}

static void outfile_slot_drop(int slot)
{
	if (slot >= 0)
		atomic_store(&outfile_state[slot], 0);
}

void sv_outfile_unlink_temps(void)
{
	int i;

	for (i = 0; i < OUTFILE_SLOTS; i++)
		if (atomic_load(&outfile_state[i]) == 2)
			unlink(outfile_live[i]);
}

static bool outfile_same(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Does the directory open as dfd hold (at any depth up to depth) a file
 * that is t?  Its name goes to found (a path below the directory).
 * *budget counts the entries still allowed; dfd is closed. */
static bool outfile_dir_holds(int dfd, const struct stat *t, int depth,
	long *budget, char *found, size_t n)
{
	DIR *d = fdopendir(dfd);
	struct dirent *e;
	bool hit = false;

	if (!d) {
		close(dfd);
		return false;
	}
	while (!hit && (e = readdir(d)) && --*budget > 0) {
		struct stat s, ls;
		int sub;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(dirfd(d), e->d_name, &s, 0) != 0)
			continue;
		if (outfile_same(&s, t)) {
			snprintf(found, n, "%s", e->d_name);
			hit = true;
			break;
		}
		/* Into real subdirectories only: a link to a directory could
		 * make a loop. */
		if (!S_ISDIR(s.st_mode) || depth <= 0 ||
			fstatat(dirfd(d), e->d_name, &ls,
				AT_SYMLINK_NOFOLLOW) != 0 ||
			!S_ISDIR(ls.st_mode))
			continue;
		sub = openat(dirfd(d), e->d_name,
			O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0 && outfile_dir_holds(
					sub, t, depth - 1, budget, found, n)) {
			size_t l = strlen(e->d_name);
			size_t have = strlen(found);
			if (l + 1 + have < n) {
				memmove(found + l + 1, found, have + 1);
				memcpy(found, e->d_name, l);
				found[l] = '/';
			}
			hit = true;
		}
	}
	closedir(d);
	return hit;
}

/* Refuse t (the target, path) when input in is it or, for a directory,
 * holds it.  Returns 0 or -EEXIST with err filled. */
static int outfile_check_input(const char *path, const struct stat *t,
	const char *in, struct sv_error *err)
{
	struct stat s;
	char found[OUTFILE_PATH_MAX];
	long budget = OUTFILE_DIR_ENTRIES;
	int dfd;

	if (stat(in, &s) != 0)
		return 0;
	if (outfile_same(&s, t)) {
		if (!strcmp(in, path))
			return sv_error_set(err, -EEXIST,
				"%s is an input of this command; not "
				"overwriting it",
				path);
		return sv_error_set(err, -EEXIST,
			"%s is the same file as %s, an input of this command; "
			"not overwriting it",
			path, in);
	}
	if (!S_ISDIR(s.st_mode))
		return 0;
	dfd = open(in, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || !outfile_dir_holds(dfd, t, OUTFILE_DIR_DEPTH, &budget,
			       found, sizeof found))
		return 0;
	return sv_error_set(err, -EEXIST,
		"%s is %s/%s, a file of the input directory %s; not "
		"overwriting it",
		path, in, found, in);
}

int sv_outfile_check(const char *path, const char *const *inputs,
	size_t ninputs, struct sv_error *err)
{
	struct stat t;
	size_t i;
	int rc;

	if (!path || !*path)
		return sv_error_set(err, -EEXIST, "no output file named");
	/* The inputs first, through any link: "is the input" says more
	 * than "is a symbolic link". */
	if (stat(path, &t) == 0)
		for (i = 0; i < ninputs; i++)
			if (inputs && inputs[i] &&
				(rc = outfile_check_input(
					 path, &t, inputs[i], err)) < 0)
				return rc;
	if (lstat(path, &t) == 0) {
		if (S_ISREG(t.st_mode))
			return 0;
		return sv_error_set(err, -EEXIST,
			"%s is %s, not a regular file; not writing there", path,
			sv_infile_kind(t.st_mode));
	}
	if (errno == ENOENT)
		return 0; /* a new name, or a directory open reports */
	return sv_error_set(
		err, -errno, "cannot write %s: %s", path, strerror(errno));
}

/* "DIR/.NAME.PID.N.tmp" beside path, the name cut so that it stays a
 * valid file name. */
static char *outfile_tmp_name(const char *path)
{
	static atomic_ulong counter;
	unsigned long n = atomic_fetch_add(&counter, 1) + 1;
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	int dirlen = slash ? (int)(slash - path) + 1 : 0;

	return sv_xasprintf("%.*s.%.200s.%ld.%lu.tmp", dirlen, path, base,
		(long)getpid(), n);
}

int sv_outfile_open(struct sv_outfile *o, const char *path,
	const char *const *inputs, size_t ninputs, struct sv_error *err)
{
	struct stat old;
	bool replaces;
	int rc, tries, e = 0;

	memset(o, 0, sizeof *o);
	o->fd = -1;
	o->slot = -1;
	rc = sv_outfile_check(path, inputs, ninputs, err);
	if (rc < 0)
		return rc;
	replaces = lstat(path, &old) == 0 && S_ISREG(old.st_mode);
	for (tries = 0; tries < 100; tries++) {
		o->tmp_path = outfile_tmp_name(path);
		o->fd = open(o->tmp_path,
			O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (o->fd >= 0 || errno != EEXIST)
			break;
		free(o->tmp_path);
		o->tmp_path = NULL;
	}
	if (o->fd < 0) {
		e = o->tmp_path ? errno : EEXIST;
		free(o->tmp_path);
		o->tmp_path = NULL;
		return sv_error_set(
			err, -e, "cannot write %s: %s", path, strerror(e));
	}
	/* The file it replaces keeps its permissions. */
	if (replaces)
		(void)fchmod(o->fd, old.st_mode & 07777);
	o->path = sv_xstrdup(path);
	o->slot = outfile_slot_take(o->tmp_path);
	return 0;
}

/* The stream's write: everything or the first error, recorded. */
static ssize_t outfile_cookie_write(void *cookie, const char *buf, size_t n)
{
	struct sv_outfile *o = cookie;
	size_t done = 0;

	while (done < n) {
		ssize_t w = write(o->fd, buf + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!o->write_errno)
				o->write_errno = w < 0 ? errno : EIO;
			errno = o->write_errno;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)w;
	}
	return (ssize_t)n;
}

FILE *sv_outfile_stream(struct sv_outfile *o)
{
	cookie_io_functions_t io = {NULL, outfile_cookie_write, NULL, NULL};

	if (!o->stream) {
		o->stream = fopencookie(o, "w", io);
		if (!o->stream)
			sv_die("cannot make a stream for %s", o->path);
	}
	return o->stream;
}

/* Close the stream and the file; the first error's errno, or 0. */
static int outfile_close(struct sv_outfile *o)
{
	int e = 0;

	if (o->stream) {
		if (fflush(o->stream) != 0 || ferror(o->stream))
			e = o->write_errno ? o->write_errno : EIO;
		fclose(o->stream);
		o->stream = NULL;
	}
	if (!e && o->write_errno)
		e = o->write_errno;
	if (o->fd >= 0 && close(o->fd) != 0 && !e)
		e = errno;
	o->fd = -1;
	return e;
}

static void outfile_done(struct sv_outfile *o)
{
	outfile_slot_drop(o->slot);
	o->slot = -1;
	free(o->path);
	free(o->tmp_path);
	o->path = o->tmp_path = NULL;
}

int sv_outfile_commit(struct sv_outfile *o, struct sv_error *err)
{
	int e = outfile_close(o), rc = 0;

	if (!e && rename(o->tmp_path, o->path) != 0)
		e = errno;
	if (e) {
		unlink(o->tmp_path);
		rc = sv_error_set(
			err, -e, "cannot write %s: %s", o->path, strerror(e));
	}
	outfile_done(o);
	return rc;
}

void sv_outfile_abort(struct sv_outfile *o)
{
	if (!o->tmp_path)
		return;
	(void)outfile_close(o);
	unlink(o->tmp_path);
	outfile_done(o);
}

int sv_outfile_finish(struct sv_outfile *o, int rc, struct sv_error *err)
{
	if (rc == 0)
		return sv_outfile_commit(o, err);
	if (rc != -ECANCELED && o->write_errno)
		rc = sv_error_set(err, -o->write_errno, "cannot write %s: %s",
			o->path, strerror(o->write_errno));
	sv_outfile_abort(o);
	return rc;
}
