/*
 * test_outfile.c: the output rule of every command that writes
 * (outfile.h): which targets are refused (each input by the same path, a
 * symbolic link, a hard link, a directory run's file; a FIFO, a device,
 * a directory, a symbolic link), and that a write lands whole or not at
 * all: committed, aborted, stopped by a file size limit (EFBIG) and by a
 * full file system (ENOSPC, a tmpfs of 64 KiB mounted in a private mount
 * namespace when the test may), always leaving the old file whole and no
 * temporary behind.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"
#include "scopeview/outfile.h"

/* The test's directory "<tmp>/NAME/", made empty. */
static char *outfile_dir(const char *name)
{
	char *dir = svt_tmp_path(name);
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
	ck_assert_int_eq(system(cmd), 0);
	return dir;
}

static char *outfile_at(const char *dir, const char *name)
{
	return sv_xasprintf("%s/%s", dir, name);
}

static void outfile_put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* Files in dir whose names end in ".tmp". */
static int outfile_temps(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		n += l > 4 && !strcmp(e->d_name + l - 4, ".tmp");
	}
	closedir(d);
	return n;
}

/* ------------------------------------------------------------------ */
/* Which targets are refused                                           */

struct check_case {
	const char *target; /* a name in the test's directory */
	const char *inputs[2];
	int rc;
	const char *frag;
};

/* The directory: run.h5 (the profile), other.h5 (not an input),
 * sym.h5 -> run.h5, hard.h5 = run.h5, dangling -> nowhere, fifo, sub/
 * (a directory), rundir/a/b/m.h5 (a directory run's file) and
 * rundir-link.h5 = that file by a hard link outside the directory. */
static const struct check_case check_cases[] = {
	{"new.csv", {"run.h5", NULL}, 0, NULL},
	{"other.h5", {"run.h5", NULL}, 0, NULL},
	{"run.h5", {"run.h5", NULL}, -EEXIST, "is an input of this command"},
	{"run.h5", {NULL, "run.h5"}, -EEXIST, "is an input"},
	{"sym.h5", {"run.h5", NULL}, -EEXIST, "is the same file as"},
	{"hard.h5", {"run.h5", NULL}, -EEXIST, "is the same file as"},
	{"run.h5", {"sym.h5", NULL}, -EEXIST, "is the same file as"},
	{"run.h5", {"other.h5", "hard.h5"}, -EEXIST, "hard.h5, an input"},
	{"rundir/a/b/m.h5", {"rundir", NULL}, -EEXIST,
		"rundir/a/b/m.h5, a file of the input directory"},
	{"rundir-link.h5", {"rundir", NULL}, -EEXIST,
		"a file of the input directory"},
	{"rundir/new.h5", {"rundir", NULL}, 0, NULL},
	{"rundir", {"rundir", NULL}, -EEXIST, "is an input"},
	{"fifo", {NULL, NULL}, -EEXIST, "is a FIFO, not a regular file"},
	{"sub", {NULL, NULL}, -EEXIST, "is a directory, not a regular file"},
	{"sym.h5", {"other.h5", NULL}, -EEXIST, "is a symbolic link"},
	{"dangling", {NULL, NULL}, -EEXIST, "is a symbolic link"},
	{"run.h5/x", {NULL, NULL}, -ENOTDIR, "Not a directory"},
	{"", {"run.h5", NULL}, -EEXIST, "no output file named"},
};

static char *check_dir;

static void check_setup(void)
{
	char *p, *q;

	check_dir = outfile_dir("check");
	p = outfile_at(check_dir, "run.h5");
	outfile_put(p, "profile");
	q = outfile_at(check_dir, "hard.h5");
	ck_assert_int_eq(link(p, q), 0);
	free(q);
	q = outfile_at(check_dir, "sym.h5");
	ck_assert_int_eq(symlink("run.h5", q), 0);
	free(q);
	free(p);
	p = outfile_at(check_dir, "other.h5");
	outfile_put(p, "other");
	free(p);
	p = outfile_at(check_dir, "dangling");
	ck_assert_int_eq(symlink("no/such/file", p), 0);
	free(p);
	p = outfile_at(check_dir, "fifo");
	ck_assert_int_eq(mkfifo(p, 0600), 0);
	free(p);
	p = outfile_at(check_dir, "sub");
	ck_assert_int_eq(mkdir(p, 0700), 0);
	free(p);
	p = outfile_at(check_dir, "rundir/a/b");
	{
		char cmd[4200];
		snprintf(cmd, sizeof cmd, "mkdir -p '%s'", p);
		ck_assert_int_eq(system(cmd), 0);
	}
	free(p);
	p = outfile_at(check_dir, "rundir/a/b/m.h5");
	outfile_put(p, "member");
	q = outfile_at(check_dir, "rundir-link.h5");
	ck_assert_int_eq(link(p, q), 0);
	free(q);
	free(p);
}

START_TEST(test_check_table)
{
	const struct check_case *c = &check_cases[_i];
	char *target, *in[2];
	const char *inputs[2];
	struct sv_error err = {0};
	int rc, k;

	/* given the directory above, the target and the inputs by path */
	check_setup();
	target = *c->target ? outfile_at(check_dir, c->target) : sv_xstrdup("");
	for (k = 0; k < 2; k++) {
		in[k] = c->inputs[k] ? outfile_at(check_dir, c->inputs[k])
				     : NULL;
		inputs[k] = in[k];
	}

	/* when the target is checked, then the rule says what the table
	 * says, in one line that names it */
	rc = sv_outfile_check(target, inputs, 2, &err);
	ck_assert_msg(rc == c->rc, "%s: %d, expected %d (%s)", c->target, rc,
		c->rc, err.msg);
	if (c->frag)
		ck_assert_msg(strstr(err.msg, c->frag), "%s: '%s' lacks '%s'",
			c->target, err.msg, c->frag);
	ck_assert_ptr_null(strchr(err.msg, '\n'));

	/* and an open refuses the same, creating nothing */
	if (rc < 0 && *c->target) {
		struct sv_outfile o;
		ck_assert_int_eq(
			sv_outfile_open(&o, target, inputs, 2, &err), rc);
		ck_assert_int_eq(outfile_temps(check_dir), 0);
	}
	for (k = 0; k < 2; k++)
		free(in[k]);
	free(target);
	free(check_dir);
}
END_TEST

START_TEST(test_check_device)
{
	struct sv_error err = {0};

	/* a device is never written: /dev/null, /dev/full */
	ck_assert_int_eq(sv_outfile_check("/dev/null", NULL, 0, &err), -EEXIST);
	ck_assert_ptr_nonnull(strstr(err.msg, "a character device"));
	ck_assert_int_eq(sv_outfile_check("/dev/full", NULL, 0, &err), -EEXIST);
	ck_assert_ptr_nonnull(strstr(err.msg, "/dev/full is a character"));
	/* no inputs at all is fine */
	ck_assert_int_eq(sv_outfile_check("/no/such/dir/x", NULL, 0, &err), 0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Whole or not at all                                                 */

START_TEST(test_commit_replaces)
{
	char *dir = outfile_dir("commit");
	char *path = outfile_at(dir, "out.txt"), *text;
	struct sv_outfile o;
	struct sv_error err = {0};
	struct stat st;

	/* given an old file of mode 0640 */
	outfile_put(path, "old");
	ck_assert_int_eq(chmod(path, 0640), 0);

	/* when a new text is written, the old one stays until the commit */
	ck_assert_int_eq(sv_outfile_open(&o, path, NULL, 0, &err), 0);
	ck_assert_int_eq(outfile_temps(dir), 1);
	ck_assert_ptr_nonnull(strstr(o.tmp_path, "/.out.txt."));
	fputs("new text", sv_outfile_stream(&o));
	ck_assert_ptr_eq(sv_outfile_stream(&o), sv_outfile_stream(&o));
	text = svt_read_file(path, NULL);
	ck_assert_str_eq(text, "old");
	free(text);
	ck_assert_int_eq(sv_outfile_finish(&o, 0, &err), 0);

	/* then the file is the new text, with the old mode, and no
	 * temporary is left */
	text = svt_read_file(path, NULL);
	ck_assert_str_eq(text, "new text");
	free(text);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0640);
	ck_assert_int_eq(outfile_temps(dir), 0);

	/* a new name gets 0666 less the umask */
	free(path);
	path = outfile_at(dir, "fresh.txt");
	{
		mode_t um = umask(022);
		ck_assert_int_eq(sv_outfile_open(&o, path, NULL, 0, &err), 0);
		ck_assert_int_eq(sv_outfile_commit(&o, &err), 0);
		umask(um);
	}
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0644);
	ck_assert_int_eq(st.st_size, 0);
	free(path);
	free(dir);
}
END_TEST

START_TEST(test_abort_and_failure_keep_old)
{
	char *dir = outfile_dir("abort");
	char *path = outfile_at(dir, "out.txt"), *text;
	struct sv_outfile o;
	struct sv_error err = {0};

	outfile_put(path, "old");

	/* an abort after writing: old text, no temporary */
	ck_assert_int_eq(sv_outfile_open(&o, path, NULL, 0, &err), 0);
	fputs("half", sv_outfile_stream(&o));
	sv_outfile_abort(&o);
	sv_outfile_abort(&o); /* twice is harmless */
	text = svt_read_file(path, NULL);
	ck_assert_str_eq(text, "old");
	free(text);
	ck_assert_int_eq(outfile_temps(dir), 0);

	/* a writer's own failure and a stop come back as they were */
	ck_assert_int_eq(sv_outfile_open(&o, path, NULL, 0, &err), 0);
	sv_error_set(&err, -EINVAL, "the writer's reason");
	ck_assert_int_eq(sv_outfile_finish(&o, -EINVAL, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "the writer's reason");
	ck_assert_int_eq(sv_outfile_open(&o, path, NULL, 0, &err), 0);
	fputs("half", sv_outfile_stream(&o));
	ck_assert_int_eq(sv_outfile_finish(&o, -ECANCELED, &err), -ECANCELED);
	text = svt_read_file(path, NULL);
	ck_assert_str_eq(text, "old");
	free(text);
	ck_assert_int_eq(outfile_temps(dir), 0);

	/* a directory that does not exist: the system's reason */
	free(path);
	path = outfile_at(dir, "no/such/out.txt");
	ck_assert_int_eq(sv_outfile_open(&o, path, NULL, 0, &err), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err.msg, "No such file or directory"));
	ck_assert_ptr_nonnull(strstr(err.msg, "no/such/out.txt"));
	free(path);
	free(dir);
}
END_TEST

START_TEST(test_signal_cleanup)
{
	char *dir = outfile_dir("signal");
	char *path = outfile_at(dir, "out.txt");
	struct sv_outfile o[20];
	struct sv_error err = {0};
	int i;

	/* more writes at once than the signal list tracks: each works */
	for (i = 0; i < 20; i++) {
		char *p = sv_xasprintf("%s.%d", path, i);
		ck_assert_int_eq(sv_outfile_open(&o[i], p, NULL, 0, &err), 0);
		free(p);
	}
	ck_assert_int_eq(outfile_temps(dir), 20);
	/* what a signal handler does: the tracked temporaries go */
	sv_outfile_unlink_temps();
	ck_assert_int_eq(outfile_temps(dir), 4);
	for (i = 0; i < 20; i++)
		sv_outfile_abort(&o[i]);
	ck_assert_int_eq(outfile_temps(dir), 0);
	/* slots are free again */
	ck_assert_int_eq(sv_outfile_open(&o[0], path, NULL, 0, &err), 0);
	sv_outfile_unlink_temps();
	ck_assert_int_eq(outfile_temps(dir), 0);
	sv_outfile_abort(&o[0]);
	free(path);
	free(dir);
}
END_TEST

/* In a child: write 1 MiB over dir/keep (which holds "old") and expect
 * the write to fail with want.  Exit 0 when it did so with the old file
 * whole and no temporary; another status names what went wrong. */
static int outfile_fill(const char *dir, int want)
{
	char *path = outfile_at(dir, "keep"), *text;
	static char block[4096];
	struct sv_outfile o;
	struct sv_error err = {0};
	FILE *f;
	int i, rc;

	if (sv_outfile_open(&o, path, NULL, 0, &err) < 0)
		return 10;
	f = sv_outfile_stream(&o);
	memset(block, 'x', sizeof block);
	for (i = 0; i < 256; i++)
		fwrite(block, 1, sizeof block, f);
	rc = sv_outfile_finish(&o, 0, &err);
	if (rc != -want) {
		fprintf(stderr, "outfile_fill: %d (%s), expected %d\n", rc,
			err.msg, -want);
		return 11;
	}
	if (!strstr(err.msg, strerror(want)) || !strstr(err.msg, "keep"))
		return 12;
	text = svt_read_file(path, NULL);
	if (!text || strcmp(text, "old"))
		return 13;
	free(text);
	free(path);
	return outfile_temps(dir) == 0 ? 0 : 14;
}

/* Run outfile_fill in a child after setup(dir); its exit status. */
static int outfile_child(const char *dir, int want, int (*setup)(const char *))
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int rc = setup(dir);
		if (rc == 0) {
			char *keep = outfile_at(dir, "keep");
			outfile_put(keep, "old");
			free(keep);
			rc = outfile_fill(dir, want);
		}
		_exit(rc);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 100 + WTERMSIG(st);
}

/* A file size limit of 64 KiB, SIGXFSZ ignored: writes fail EFBIG. */
static int outfile_limit(const char *dir)
{
	struct rlimit rl = {64 << 10, 64 << 10};
	(void)dir;
	signal(SIGXFSZ, SIG_IGN);
	return setrlimit(RLIMIT_FSIZE, &rl) == 0 ? 0 : 20;
}

/* A tmpfs of 64 KiB on dir, in a mount namespace of the child's own. */
static int outfile_tmpfs(const char *dir)
{
	if (unshare(CLONE_NEWNS) != 0 ||
		mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
		mount("scopeview-test", dir, "tmpfs", 0, "size=64k") != 0)
		return 77;
	return 0;
}

START_TEST(test_file_size_limit)
{
	char *dir = outfile_dir("efbig");
	int rc = outfile_child(dir, EFBIG, outfile_limit);
	ck_assert_msg(rc == 0, "EFBIG: child status %d", rc);
	free(dir);
}
END_TEST

START_TEST(test_disk_full)
{
	char *dir = outfile_dir("enospc");
	int rc = outfile_child(dir, ENOSPC, outfile_tmpfs);
	free(dir);
	if (rc == 77)
		SVT_SKIP("no mount namespace here (not root): the full disk "
			 "is tested as a file size limit only");
	ck_assert_msg(rc == 0, "ENOSPC: child status %d", rc);
}
END_TEST

static Suite *outfile_suite(void)
{
	Suite *s = suite_create("outfile");
	TCase *t = tcase_create("refused");
	tcase_add_loop_test(t, test_check_table, 0,
		(int)(sizeof check_cases / sizeof check_cases[0]));
	tcase_add_test(t, test_check_device);
	suite_add_tcase(s, t);
	t = tcase_create("whole");
	tcase_add_test(t, test_commit_replaces);
	tcase_add_test(t, test_abort_and_failure_keep_old);
	tcase_add_test(t, test_signal_cleanup);
	tcase_add_test(t, test_file_size_limit);
	tcase_add_test(t, test_disk_full);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(outfile_suite());
}
