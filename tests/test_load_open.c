/*
 * test_load_open.c: how sv_load opens a path and runs (load.c, load_h5.c):
 * paths that are no profile at all (a directory without traces, missing,
 * empty, text, a truncated HDF5 file, a FIFO, no permission), progress
 * and cancellation (also in the middle of a column of millions of
 * events), a load on a thread of its own that keeps HDF5's error stack
 * off stderr, and a file another process holds open with HDF5's lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"
#include "load_files.h"
#include "scopeview/common.h"

/* Files that are not profiles at all. */
START_TEST(test_not_profiles)
{
	char *dir = svt_tmp_path("adir");
	char *missing = svt_tmp_path("missing.h5");
	char *empty = svt_tmp_path("empty.h5");
	char *text = svt_tmp_path("text.h5");
	char *sig = svt_tmp_path("sigonly.h5");
	char *trunc = svt_tmp_path("truncated.h5");
	char *good = lf_base_write("good.h5", M_NONE);
	FILE *f;
	size_t len;
	char *buf;

	ck_assert_int_eq(mkdir(dir, 0700), 0);
	/* A directory is a run of per-rank files: an empty one has none. */
	lf_expect_fail(dir, -ENOENT, "no .spt traces and no per-rank .h5");
	lf_expect_fail(missing, -ENOENT, "no such file");
	f = fopen(empty, "w");
	fclose(f);
	lf_expect_fail(empty, -EINVAL, "is empty (0 bytes)");
	f = fopen(text, "w");
	fputs("this is not HDF5\n", f);
	fclose(f);
	lf_expect_fail(text, -EINVAL, "not an HDF5 file");
	f = fopen(sig, "wb");
	fwrite("\x89HDF\r\n\x1a\n", 1, 8, f);
	fwrite("garbage garbage garbage garbage", 1, 31, f);
	fclose(f);
	lf_expect_fail(sig, -EIO, "truncated or damaged");
	/* Half of a real profile: what an interrupted writer leaves. */
	buf = svt_read_file(good, &len);
	ck_assert_ptr_nonnull(buf);
	f = fopen(trunc, "wb");
	fwrite(buf, 1, len / 2, f);
	fclose(f);
	free(buf);
	lf_expect_fail(trunc, -EIO, "truncated or damaged");
	{
		char *fifo = svt_tmp_path("fifo.h5");
		char *under = sv_xasprintf("%s/x.h5", text);
		ck_assert_int_eq(mkfifo(fifo, 0600), 0);
		lf_expect_fail(fifo, -EINVAL, "is a FIFO, not a regular file");
		/* A path through a file: unreadable whoever runs the test. */
		lf_expect_fail(under, -ENOTDIR, "cannot open: Not a directory");
		unlink(fifo);
		free(fifo);
		free(under);
	}
	if (geteuid() != 0) {
		chmod(good, 0);
		lf_expect_fail(good, -EACCES, "Permission denied");
		chmod(good, 0600);
	}
	{
		struct sv_profile *p = NULL;
		ck_assert_int_eq(sv_load(NULL, NULL, &p, NULL), -EINVAL);
		ck_assert_ptr_null(p);
	}
	rmdir(dir);
	free(dir);
	free(missing);
	free(empty);
	free(text);
	free(sig);
	free(trunc);
	free(good);
}
END_TEST

struct progress_log {
	int calls;
	double last;
	bool monotonic;
	int cancel_after;
};

static void on_progress(void *ctx, double f, const char *what)
{
	struct progress_log *l = ctx;
	ck_assert_ptr_nonnull(what);
	if (f < l->last)
		l->monotonic = false;
	l->last = f;
	l->calls++;
}

static int on_cancel(void *ctx)
{
	struct progress_log *l = ctx;
	return l->cancel_after >= 0 && l->calls > l->cancel_after;
}

START_TEST(test_progress_cancel)
{
	char *path = lf_base_write("progress.h5", M_NONE);
	struct progress_log l = {0, 0, true, -1};
	struct sv_load_opts o = {
		.progress = on_progress, .cancelled = on_cancel, .ctx = &l};
	struct sv_profile *p = NULL;
	struct sv_error e = {0};

	ck_assert_int_eq(sv_load(path, &o, &p, &e), 0);
	ck_assert_int_ge(l.calls, 3);
	ck_assert(l.monotonic);
	ck_assert_double_eq(l.last, 1.0);
	sv_profile_free(p);
	p = NULL;
	l = (struct progress_log){0, 0, true, 2};
	ck_assert_int_eq(sv_load(path, &o, &p, &e), -ECANCELED);
	ck_assert_ptr_null(p);
	ck_assert_ptr_nonnull(strstr(e.msg, "cancelled"));
	free(path);
}
END_TEST

/* A column of a few million events reports progress as it goes and can
 * be cancelled in the middle. */
struct block_log {
	int events_steps;
	double cancel_at;
};

static void block_progress(void *ctx, double f, const char *what)
{
	struct block_log *l = ctx;
	if (!strcmp(what, "events") && f > 0.15 && f <= 0.35 + 1e-9)
		l->events_steps++;
}

static int block_cancel(void *ctx)
{
	struct block_log *l = ctx;
	return l->cancel_at > 0 && l->events_steps >= 2;
}

START_TEST(test_progress_blocks)
{
	enum { N = 2500000 };
	char *path = svt_tmp_path("blocks.h5");
	hid_t f = lf_h5_create(path), g;
	const char *names[] = {"tick"};
	int64_t zero[] = {0}, cnt[] = {N};
	int64_t *ones = malloc(N * sizeof *ones);
	struct block_log l = {0, 0};
	struct sv_load_opts o = {.progress = block_progress,
		.cancelled = block_cancel,
		.ctx = &l};
	struct sv_profile *p = NULL;
	struct sv_error e = {0};
	size_t i;

	for (i = 0; i < N; i++)
		ones[i] = 1;
	lf_attr_i64(f, "scope_profiler_schema", 3);
	g = lf_h5_group(f, "region_table");
	lf_ds_strs(g, "names", names, 1, 0);
	H5Gclose(g);
	g = lf_h5_group(f, "rank_region_index");
	lf_ds_ints(g, "region_ids", H5T_STD_U32LE, zero, 1);
	lf_ds_ints(g, "ranks", H5T_STD_U32LE, zero, 1);
	lf_ds_ints(g, "event_offsets", H5T_STD_U64LE, zero, 1);
	lf_ds_ints(g, "event_counts", H5T_STD_U64LE, cnt, 1);
	H5Gclose(g);
	g = lf_h5_group(f, "events");
	lf_ds_ints(g, "start_deltas", H5T_STD_I64LE, ones, N);
	lf_ds_ints(g, "durations", H5T_STD_I64LE, ones, N);
	H5Gclose(g);
	H5Fclose(f);
	free(ones);

	ck_assert_msg(sv_load(path, &o, &p, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(l.events_steps, 3); /* 1M + 1M + 0.5M */
	ck_assert_uint_eq(p->ncalls, N);
	ck_assert_int_eq(p->start_ns[N - 1], N);
	ck_assert_int_eq(sv_profile_end(p, N - 1), N + 1);
	sv_profile_free(p);
	p = NULL;
	l = (struct block_log){0, 1};
	ck_assert_int_eq(sv_load(path, &o, &p, &e), -ECANCELED);
	ck_assert_ptr_null(p);
	ck_assert_int_eq(l.events_steps, 2);
	free(path);
}
END_TEST

/* In a thread of its own, HDF5 would print its error stack to stderr
 * (the setting is per thread): sv_load switches that off itself. */
static void *thread_load(void *arg)
{
	struct sv_profile *p = NULL;
	struct sv_error e;
	intptr_t rc = sv_load(arg, NULL, &p, &e);
	sv_profile_free(p);
	return (void *)rc;
}

START_TEST(test_thread_quiet)
{
	/* Half a profile: H5Fopen itself fails inside HDF5. */
	char *good = lf_base_write("thread.h5", M_NONE);
	char *path = svt_tmp_path("thread_trunc.h5");
	char *log = svt_tmp_path("stderr.txt");
	int saved = dup(2), fd;
	pthread_t t;
	void *rc = NULL;
	size_t len = 0;
	char *text;

	text = svt_read_file(good, &len);
	ck_assert_ptr_nonnull(text);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_eq(write(fd, text, len / 2), (ssize_t)(len / 2));
	close(fd);
	free(text);
	free(good);
	fflush(stderr);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	dup2(fd, 2);
	close(fd);
	ck_assert_int_eq(pthread_create(&t, NULL, thread_load, path), 0);
	pthread_join(t, &rc);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	ck_assert_int_eq((intptr_t)rc, -EIO);
	text = svt_read_file(log, &len);
	ck_assert_ptr_nonnull(text);
	ck_assert_msg(len == 0, "HDF5 printed: %s", text);
	free(text);
	free(log);
	free(path);
}
END_TEST

/* A writer holding the file open (and HDF5's lock) does not stop the
 * viewer: the loader opens without locking (doc/format.md 13). */
START_TEST(test_no_file_lock)
{
	char *path = lf_base_write("locked.h5", M_NONE);
	int go[2], done[2];
	char c = 0;
	pid_t pid;
	struct sv_profile *p;

	ck_assert_int_eq(pipe(go), 0);
	ck_assert_int_eq(pipe(done), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
		hid_t f;
		H5Pset_file_locking(fapl, 1, 0);
		f = H5Fopen(path, H5F_ACC_RDWR, fapl);
		free(path);
		H5Pclose(fapl);
		c = f >= 0 ? 'y' : 'n';
		if (write(go[1], &c, 1) != 1 || read(done[0], &c, 1) != 1)
			_exit(2);
		if (f >= 0)
			H5Fclose(f);
		_exit(0);
	}
	ck_assert_int_eq(read(go[0], &c, 1), 1);
	ck_assert_int_eq(c, 'y');
	p = lf_load_ok(path);
	ck_assert_uint_eq(p->ncalls, LF_BASE_EVENTS);
	sv_profile_free(p);
	ck_assert_int_eq(write(done[1], &c, 1), 1);
	waitpid(pid, NULL, 0);
	close(go[0]);
	close(go[1]);
	close(done[0]);
	close(done[1]);
	free(path);
}
END_TEST

void lf_add_open(Suite *s)
{
	TCase *t = tcase_create("open");

	tcase_add_test(t, test_not_profiles);
	tcase_add_test(t, test_progress_cancel);
	tcase_add_test(t, test_progress_blocks);
	tcase_add_test(t, test_thread_quiet);
	tcase_add_test(t, test_no_file_lock);
	suite_add_tcase(s, t);
}
