/*
 * helpers.c: temporary paths, fixture lookup and the Check runner shared
 * by every test suite.
 */
#include "helpers.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scopeview/common.h"
#include "scopeview/gen.h"
#include "scopeview/load.h"
#include "scopeview/write.h"

#ifndef SV_TEST_SOURCE_DIR
#define SV_TEST_SOURCE_DIR "."
#endif

static char tmp_dir[256];
static pid_t tmp_owner;

static void helpers_rm_tmp(void)
{
	DIR *d;
	struct dirent *e;

	if (!tmp_dir[0] || getpid() != tmp_owner)
		return;
	d = opendir(tmp_dir);
	if (d) {
		while ((e = readdir(d))) {
			char *p;
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			p = sv_xasprintf("%s/%s", tmp_dir, e->d_name);
			unlink(p);
			free(p);
		}
		closedir(d);
	}
	rmdir(tmp_dir);
}

char *svt_tmp_path(const char *name)
{
	if (!tmp_dir[0]) {
		const char *base = getenv("TMPDIR");
		snprintf(tmp_dir, sizeof tmp_dir, "%s/scopeview-test-XXXXXX",
			base && *base ? base : "/tmp");
		if (!mkdtemp(tmp_dir))
			sv_die("cannot make a temporary directory");
		tmp_owner = getpid();
		atexit(helpers_rm_tmp);
	}
	return sv_xasprintf("%s/%s", tmp_dir, name);
}

const char svt_hostile_bytes[] = "import os\n\x1b]0;pwned\x07\x1b[2J\x1b[31m"
				 "red\xc2\x9b"
				 "1m\x9b"
				 "2J\0after a nul\xff\xfe\n";
const size_t svt_hostile_nbytes = sizeof svt_hostile_bytes - 1;

const struct svt_hostile *svt_hostile_files(void)
{
	static struct svt_hostile files[SVT_NHOSTILE];
	static pid_t made_by;
	char *p;
	int fd;

	if (made_by == getpid())
		return files;
	if (made_by) /* made before a fork: made again in this process */
		for (fd = 1; fd < SVT_NHOSTILE; fd++)
			free((char *)files[fd].path);
	files[0].what = "/dev/zero";
	files[0].path = "/dev/zero";
	p = svt_tmp_path("hostile-fifo");
	unlink(p);
	if (mkfifo(p, 0600) != 0)
		sv_die("cannot make %s", p);
	files[1].what = "fifo";
	files[1].path = p;
	p = svt_tmp_path("hostile-loop");
	unlink(p);
	if (symlink("hostile-loop2", p) != 0)
		sv_die("cannot make %s", p);
	files[2].what = "loop";
	files[2].path = p;
	p = svt_tmp_path("hostile-loop2");
	unlink(p);
	if (symlink("hostile-loop", p) != 0)
		sv_die("cannot make %s", p);
	free(p);
	p = svt_tmp_path("hostile-sparse");
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || pwrite(fd, "head\n", 5, 0) != 5 ||
		ftruncate(fd, (off_t)2 << 30) != 0 || close(fd) != 0)
		sv_die("cannot make %s", p);
	files[3].what = "sparse";
	files[3].path = p;
	p = svt_tmp_path("hostile-escapes");
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 ||
		write(fd, svt_hostile_bytes, svt_hostile_nbytes) !=
			(ssize_t)svt_hostile_nbytes ||
		close(fd) != 0)
		sv_die("cannot make %s", p);
	files[4].what = "escapes";
	files[4].path = p;
	made_by = getpid();
	return files;
}

bool svt_has_raw_control(const char *text, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)text[i];
		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f ||
			c == 0x9b ||
			(c == 0xc2 && i + 1 < n &&
				(unsigned char)text[i + 1] >= 0x80 &&
				(unsigned char)text[i + 1] < 0xa0))
			return true;
	}
	return false;
}

const char *svt_source_root(void)
{
	const char *s = getenv("SCOPEVIEW_SOURCE_ROOT");
	return s && *s ? s : SV_TEST_SOURCE_DIR "/..";
}

const char *svt_fixtures_dir(void)
{
	static char buf[4096];
	const char *env = getenv("SCOPEVIEW_FIXTURES");

	if (env && *env)
		return env;
	snprintf(buf, sizeof buf, "%s/tests/fixtures", svt_source_root());
	return buf;
}

char *svt_fixture(const char *name)
{
	char *path = sv_xasprintf("%s/%s", svt_fixtures_dir(), name);

	if (access(path, R_OK) != 0) {
		/* Part of the repository: a broken checkout, not a skip. */
		char msg[4200];
		snprintf(msg, sizeof msg,
			"fixture %s is missing (tests/fixtures is part of the "
			"repository; see its README.md)",
			path);
		free(path);
		ck_abort_msg("%s", msg);
	}
	return path;
}

char *svt_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		size_t got;
		sv_grow((void **)&buf, &cap, n + 65536, 1);
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

/* Where svt_skip() notes skips: a file, since Check runs each test in a
 * child process. */
static char skip_path[4096];

void svt_skip(const char *fmt, ...)
{
	const char *no_skip = getenv("SCOPEVIEW_NO_SKIP");
	char msg[1024];
	va_list ap;
	int fd;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (no_skip && !strcmp(no_skip, "1"))
		ck_abort_msg(
			"SCOPEVIEW_NO_SKIP=1, but this test would skip: %s",
			msg);
	printf("SKIP: %s\n", msg);
	fflush(stdout);
	fd = skip_path[0] ? open(skip_path, O_WRONLY | O_APPEND) : -1;
	if (fd >= 0) {
		size_t len = strlen(msg);
		msg[len] = '\n';
		if (write(fd, msg, len + 1) < 0)
			perror(skip_path);
		close(fd);
	}
}

int svt_captured(int (*f)(void *), void *ctx, char **out, char **err)
{
	char *po = svt_tmp_path("captured.out");
	char *pe = svt_tmp_path("captured.err");
	int o1, o2, fo, fe, rc;

	fflush(stdout);
	fflush(stderr);
	o1 = dup(1);
	o2 = dup(2);
	fo = open(po, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	fe = open(pe, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert(o1 >= 0 && o2 >= 0 && fo >= 0 && fe >= 0);
	dup2(fo, 1);
	dup2(fe, 2);
	rc = f(ctx);
	fflush(stdout);
	fflush(stderr);
	dup2(o1, 1);
	dup2(o2, 2);
	close(o1);
	close(o2);
	close(fo);
	close(fe);
	*out = svt_read_file(po, NULL);
	*err = svt_read_file(pe, NULL);
	free(po);
	free(pe);
	return rc;
}

int svt_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	const char *base = getenv("TMPDIR");
	struct stat st;
	int failed, fd;
	bool skipped = false;

	snprintf(skip_path, sizeof skip_path, "%s/scopeview-skips-XXXXXX",
		base && *base ? base : "/tmp");
	fd = mkstemp(skip_path);
	if (fd < 0)
		sv_die("cannot make %s", skip_path);
	close(fd);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	if (stat(skip_path, &st) == 0 && st.st_size > 0)
		skipped = true;
	unlink(skip_path);
	skip_path[0] = '\0';
	if (failed)
		return EXIT_FAILURE;
	if (skipped) {
		/* Some test could not run: the suite is a skip (77), not a
		 * pass. */
		printf("some tests were skipped (see SKIP: above): exit 77\n");
		return 77;
	}
	return EXIT_SUCCESS;
}

void svt_write_overlap(const char *path, const char *name)
{
	struct sv_writer_opts o;
	struct sv_writer *w;
	struct sv_error e = {0};
	static const int64_t start[] = {10, 20, 100};
	static const int64_t end[] = {30, 40, 150};
	struct sv_write_row rows[] = {
		{name, 2, NULL, -1, NULL, NULL, 0, 0},
		{"io", 1, NULL, -1, NULL, NULL, 0, 0},
	};
	struct sv_write_rank r = {0};

	sv_writer_opts_init(&o);
	o.exclusive = SV_WRITE_EXCL_UNKNOWN;
	ck_assert_int_eq(sv_writer_open(&w, path, &o, &e), 0);
	r.rows = rows;
	r.nrows = 2;
	r.ncalls = 3;
	r.start_ns = start;
	r.end_ns = end;
	ck_assert_int_eq(sv_writer_add_rank(w, &r, &e), 0);
	ck_assert_msg(sv_writer_close(w, &e) == 0, "%s", e.msg);
}

struct sv_profile *svt_gen_profile(const char *name, uint32_t ranks,
	uint32_t threads, uint32_t tasks, uint64_t events, bool pack)
{
	struct sv_gen_opts o;
	struct sv_load_opts lo;
	struct sv_profile *p = NULL;
	struct sv_error err = {0, ""};
	char *path = svt_tmp_path(name);

	sv_gen_opts_init(&o);
	o.ranks = ranks;
	o.threads = threads;
	o.tasks = tasks;
	o.events = events;
	o.seed = 5;
	ck_assert_msg(sv_gen_write(path, &o, NULL, NULL, &err) == 0, "gen: %s",
		err.msg);
	memset(&lo, 0, sizeof lo);
	lo.pack = pack;
	lo.pack_min_calls = 0;
	ck_assert_msg(sv_load(path, &lo, &p, &err) == 0, "load: %s", err.msg);
	free(path);
	return p;
}
