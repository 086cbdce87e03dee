/*
 * test_infile.c: the rule by which a file someone named is opened and
 * read (infile.h): a regular file opens and reads whole or up to the
 * bound (a 2 GB sparse file costs its first bound and says it was cut);
 * /dev/zero, /dev/null, a FIFO without a writer, a directory and a loop
 * of symbolic links (helpers.h's svt_hostile_files) are refused at once with one line, never waited on;
 * a link to a regular file is followed; bytes (escape sequences, NULs,
 * invalid UTF-8) come back as the file holds them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "scopeview/infile.h"

#define INFILE_GB2 ((off_t)2 << 30)

static char *infile_dir;

static char *infile_at(const char *name)
{
	return sv_xasprintf("%s/%s", infile_dir, name);
}

static void infile_put(const char *name, const char *b, size_t n)
{
	char *p = infile_at(name);
	FILE *f = fopen(p, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(b, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
	free(p);
}

static void infile_link(const char *target, const char *name)
{
	char *p = infile_at(name);
	ck_assert_int_eq(symlink(target, p), 0);
	free(p);
}

/* small.txt, empty, dir/, link -> small.txt, dangling -> nowhere; and
 * svt_hostile_files(), which the cases name by their what. */
static void infile_setup(void)
{
	char *p;

	infile_dir = svt_tmp_path("infile");
	mkdir(infile_dir, 0700);
	infile_put("small.txt", "hello\nworld\n", 12);
	infile_put("empty", "", 0);
	p = infile_at("dir");
	ck_assert_int_eq(mkdir(p, 0700), 0);
	free(p);
	infile_link("small.txt", "link");
	infile_link("no/such/file", "dangling");
}

/* The path a case names: a hostile file by its what, an absolute path,
 * or a name in the test's directory. */
static char *infile_path(const char *name)
{
	const struct svt_hostile *h = svt_hostile_files();
	size_t i;

	for (i = 0; i < SVT_NHOSTILE; i++)
		if (!strcmp(h[i].what, name))
			return sv_xstrdup(h[i].path);
	if (name[0] == '/' || !name[0])
		return sv_xstrdup(name);
	return infile_at(name);
}

static void infile_teardown(void)
{
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", infile_dir);
	ck_assert_int_eq(system(cmd), 0);
	free(infile_dir);
	infile_dir = NULL;
}

/* ------------------------------------------------------------------ */
/* What opens and what is refused                                      */

struct open_case {
	const char *name; /* in the test's directory, or an absolute path */
	unsigned flags;
	int rc;           /* 0: opens */
	const char *frag; /* in the message */
};

static const struct open_case open_cases[] = {
	{"small.txt", 0, 0, NULL},
	{"link", 0, 0, NULL},
	{"empty", 0, 0, NULL},
	{"sparse", 0, 0, NULL},
	{"dir", SV_INFILE_DIR, 0, NULL},
	{"dir", 0, -EINVAL, "dir: is a directory, not a regular file"},
	{"fifo", 0, -EINVAL, "hostile-fifo: is a FIFO, not a regular file"},
	{"fifo", SV_INFILE_DIR, -EINVAL, "is a FIFO, not a regular file"},
	{"/dev/zero", 0, -EINVAL,
		"/dev/zero: is a character device, not a regular file"},
	{"/dev/null", SV_INFILE_DIR, -EINVAL, "is a character device"},
	{"loop", 0, -ELOOP,
		"hostile-loop: cannot open: Too many levels of symbolic "
		"links"},
	{"dangling", 0, -ENOENT, "dangling: no such file"},
	{"missing", 0, -ENOENT, "missing: no such file"},
	{"small.txt/x", 0, -ENOTDIR, "cannot open: Not a directory"},
	{"", 0, -EINVAL, "no file named"},
};

START_TEST(test_open)
{
	/* given a name; when it is opened by the rule; then a regular file
	 * (or an accepted directory) opens, and anything else is refused at
	 * once with one line */
	const struct open_case *c = &open_cases[_i];
	char *path = infile_path(c->name);
	struct sv_error err = {0};
	struct stat st;
	int fd;

	alarm(10); /* a blocking open fails the test, not the run */
	fd = sv_infile_open(path, c->flags, &st, &err);
	alarm(0);
	if (c->rc == 0) {
		ck_assert_msg(fd >= 0, "%s: %s", c->name, err.msg);
		ck_assert(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode));
		/* blocking again, close-on-exec */
		ck_assert_int_eq(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
		ck_assert(fcntl(fd, F_GETFD) & FD_CLOEXEC);
		close(fd);
	} else {
		ck_assert_int_eq(fd, c->rc);
		ck_assert_int_eq(err.code, c->rc);
		ck_assert_msg(
			strstr(err.msg, c->frag), "%s: '%s'", c->name, err.msg);
		ck_assert_ptr_null(strchr(err.msg, '\n'));
	}
	free(path);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Reads and their bound                                               */

START_TEST(test_read_whole)
{
	/* given a small file; when read with room to spare; then all of it,
	 * NUL-terminated, not cut */
	char *p = infile_at("small.txt");
	struct sv_infile_text t;
	struct sv_error err = {0};

	ck_assert_int_eq(sv_infile_read(p, 1 << 20, &t, &err), 0);
	ck_assert_uint_eq(t.len, 12);
	ck_assert_uint_eq(t.size, 12);
	ck_assert(!t.cut);
	ck_assert_str_eq(t.data, "hello\nworld\n");
	sv_infile_text_fini(&t);
	ck_assert_ptr_null(t.data);
	/* exactly the bound: whole, not cut */
	ck_assert_int_eq(sv_infile_read(p, 12, &t, &err), 0);
	ck_assert(!t.cut);
	sv_infile_text_fini(&t);
	/* one byte short of it: cut */
	ck_assert_int_eq(sv_infile_read(p, 11, &t, &err), 0);
	ck_assert(t.cut);
	ck_assert_uint_eq(t.len, 11);
	ck_assert_str_eq(t.data, "hello\nworld");
	sv_infile_text_fini(&t);
	free(p);
	/* an empty file: nothing, not cut */
	p = infile_at("empty");
	ck_assert_int_eq(sv_infile_read(p, 100, &t, &err), 0);
	ck_assert_uint_eq(t.len, 0);
	ck_assert_str_eq(t.data, "");
	ck_assert(!t.cut);
	sv_infile_text_fini(&t);
	free(p);
	sv_infile_text_fini(NULL);
}
END_TEST

START_TEST(test_read_big)
{
	/* given a 2 GB sparse file; when read with a bound of 1 MiB; then its
	 * first MiB, cut, its size told, and no more memory than that */
	char *p = infile_path("sparse");
	struct sv_infile_text t;
	struct sv_error err = {0};

	ck_assert_int_eq(sv_infile_read(p, 1 << 20, &t, &err), 0);
	ck_assert_uint_eq(t.len, 1 << 20);
	ck_assert_uint_eq(t.size, (uint64_t)INFILE_GB2);
	ck_assert(t.cut);
	ck_assert(!memcmp(t.data, "head\n", 5));
	ck_assert_int_eq(t.data[1 << 20], '\0');
	sv_infile_text_fini(&t);
	free(p);
}
END_TEST

START_TEST(test_read_bytes_as_held)
{
	/* given a file of escape sequences, a NUL and invalid UTF-8; when
	 * read; then every byte as the file holds it (the showing escapes
	 * them, not the reading) */
	char *p = infile_path("escapes");
	struct sv_infile_text t;
	struct sv_error err = {0};

	ck_assert_int_eq(sv_infile_read(p, 4096, &t, &err), 0);
	ck_assert_uint_eq(t.len, svt_hostile_nbytes);
	ck_assert(!memcmp(t.data, svt_hostile_bytes, svt_hostile_nbytes));
	sv_infile_text_fini(&t);
	free(p);
}
END_TEST

START_TEST(test_read_refused)
{
	/* given what is not a regular file; when read; then refused at once,
	 * and *out untouched */
	static const char *const names[] = {
		"fifo", "dir", "loop", "/dev/zero", "missing"};
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		char *p = infile_path(names[i]);
		struct sv_infile_text t = {.data = (char *)"untouched"};
		struct sv_error err = {0};
		alarm(10);
		ck_assert_int_lt(sv_infile_read(p, 1 << 20, &t, &err), 0);
		alarm(0);
		ck_assert_str_eq(t.data, "untouched");
		ck_assert_ptr_nonnull(strstr(err.msg, p));
		free(p);
	}
}
END_TEST

START_TEST(test_read_proc)
{
	/* given a file that says it holds 0 bytes and holds some (/proc);
	 * when read; then its bytes */
	struct sv_infile_text t;
	struct sv_error err = {0};

	if (access("/proc/self/status", R_OK) != 0)
		SVT_SKIP("no /proc here");
	ck_assert_int_eq(
		sv_infile_read("/proc/self/status", 1 << 16, &t, &err), 0);
	ck_assert_ptr_nonnull(strstr(t.data, "Name:"));
	sv_infile_text_fini(&t);
}
END_TEST

START_TEST(test_kind)
{
	ck_assert_str_eq(sv_infile_kind(S_IFREG), "a regular file");
	ck_assert_str_eq(sv_infile_kind(S_IFDIR), "a directory");
	ck_assert_str_eq(sv_infile_kind(S_IFIFO), "a FIFO");
	ck_assert_str_eq(sv_infile_kind(S_IFCHR), "a character device");
	ck_assert_str_eq(sv_infile_kind(S_IFBLK), "a block device");
	ck_assert_str_eq(sv_infile_kind(S_IFSOCK), "a socket");
	ck_assert_str_eq(sv_infile_kind(S_IFLNK), "a symbolic link");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("infile");
	TCase *t = tcase_create("open");
	tcase_add_checked_fixture(t, infile_setup, infile_teardown);
	tcase_add_loop_test(t, test_open, 0,
		(int)(sizeof open_cases / sizeof open_cases[0]));
	suite_add_tcase(s, t);
	t = tcase_create("read");
	tcase_add_checked_fixture(t, infile_setup, infile_teardown);
	tcase_add_test(t, test_read_whole);
	tcase_add_test(t, test_read_big);
	tcase_add_test(t, test_read_bytes_as_held);
	tcase_add_test(t, test_read_refused);
	tcase_add_test(t, test_read_proc);
	tcase_add_test(t, test_kind);
	suite_add_tcase(s, t);
	return svt_run(s);
}
