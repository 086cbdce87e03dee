/*
 * tables_bench.c: what a lane table costs against what it claims (issue
 * 42).  Run by hand:
 *
 *     build/bench/tables_bench [--rows 1M,4M,10M] [--runs 3] [--dir DIR]
 *                              [--exe build/scopeview]
 *
 * Writes a small `scopeview gen` profile with thread ids (2 ranks x 2
 * threads, 1000 calls), then copies of it whose /thread_table holds N
 * rows of rank -1 and index 0: int64 ranks, constant columns deflated at
 * level 9 in chunks of 2^20 (a 10M-row file is about 230 KB), and the
 * same with uint32 ranks of 4294967295, as scope-profiler types them.
 * Each file is loaded RUNS times in a child process (sv_load; the best
 * time), whose peak RSS wait4 gives; the parent stays small, so the
 * figure is the load's.  The baseline is the profile without a table,
 * measured in the same run: the table's step is the difference, and the
 * ratio of each size's step to the smallest size's says whether the
 * cost grows with the rows (a ratio near the rows' ratio) or faster.
 * With --exe, `scopeview summary FILE` is timed once per file and its
 * warning lines counted.
 */
#include <hdf5.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scopeview/gen.h"
#include "scopeview/load.h"

#include "bench_clock.h"

#define BENCH_MAX_SIZES 8

/* Write the /thread_table of n rows (ranks of type ft) into path. */
static int bench_table(const char *path, hsize_t n, hid_t ft)
{
	hsize_t chunk = n < ((hsize_t)1 << 20) ? n : (hsize_t)1 << 20;
	hid_t f, g, dcpl, s;
	int64_t *buf = malloc((size_t)chunk * sizeof *buf);
	int c, rc = 0;

	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
	if (f < 0 || !buf)
		return -1;
	if (H5Lexists(f, "thread_table", H5P_DEFAULT) > 0)
		H5Ldelete(f, "thread_table", H5P_DEFAULT);
	g = H5Gcreate2(
		f, "thread_table", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	dcpl = H5Pcreate(H5P_DATASET_CREATE);
	H5Pset_chunk(dcpl, 1, &chunk);
	H5Pset_deflate(dcpl, 9);
	s = H5Screate_simple(1, &n, NULL);
	for (c = 0; c < 2 && rc == 0; c++) {
		hid_t d = H5Dcreate2(g, c ? "index" : "ranks",
			c ? H5T_STD_I64LE : ft, s, H5P_DEFAULT, dcpl,
			H5P_DEFAULT);
		hsize_t off, i;
		for (i = 0; i < chunk; i++)
			buf[i] = c                      ? 0
				 : H5Tget_size(ft) == 4 ? (int64_t)UINT32_MAX
							: -1;
		for (off = 0; off < n && d >= 0; off += chunk) {
			hsize_t k = n - off < chunk ? n - off : chunk;
			hid_t fs = H5Dget_space(d);
			hid_t ms = H5Screate_simple(1, &k, NULL);
			H5Sselect_hyperslab(
				fs, H5S_SELECT_SET, &off, NULL, &k, NULL);
			if (H5Dwrite(d, H5T_NATIVE_INT64, ms, fs, H5P_DEFAULT,
				    buf) < 0)
				rc = -1;
			H5Sclose(ms);
			H5Sclose(fs);
		}
		if (d < 0)
			rc = -1;
		else
			H5Dclose(d);
	}
	H5Sclose(s);
	H5Pclose(dcpl);
	H5Gclose(g);
	H5Fclose(f);
	free(buf);
	return rc;
}

/* The files, written by a child so that this process stays small. */
static int bench_write(const char *dir, const uint64_t *rows, int nrows)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		struct sv_gen_opts o;
		struct sv_error err = {0, ""};
		char base[4096], path[4200], cmd[8600];
		int i, k;
		sv_gen_opts_init(&o);
		o.ranks = 2;
		o.threads = 2;
		o.events = 1000;
		o.track_threads = true;
		snprintf(base, sizeof base, "%s/base.h5", dir);
		if (sv_gen_write(base, &o, NULL, NULL, &err) < 0) {
			fprintf(stderr, "tables_bench: %s\n", err.msg);
			_exit(1);
		}
		for (k = 0; k < 2; k++)
			for (i = 0; i < nrows; i++) {
				snprintf(path, sizeof path,
					"%s/t%d-%" PRIu64 ".h5", dir, k,
					rows[i]);
				snprintf(cmd, sizeof cmd, "cp '%s' '%s'", base,
					path);
				if (system(cmd) != 0 ||
					bench_table(path, rows[i],
						k ? H5T_STD_U32LE
						  : H5T_STD_I64LE) < 0)
					_exit(1);
			}
		_exit(0);
	}
	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
			       WEXITSTATUS(st) == 0
		       ? 0
		       : -1;
}

/* Load path runs times in a child: the best seconds, and its peak RSS
 * in KiB. */
static int bench_load(const char *path, int runs, double *best, long *kib)
{
	int fd[2], st;
	struct rusage ru;
	pid_t pid;

	if (pipe(fd) != 0)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		double b = -1;
		int i;
		close(fd[0]);
		for (i = 0; i < runs; i++) {
			struct sv_profile *p = NULL;
			struct sv_error err = {0, ""};
			double t0 = bench_now(), t;
			if (sv_load(path, NULL, &p, &err) < 0)
				_exit(1);
			t = bench_now() - t0;
			sv_profile_free(p);
			if (b < 0 || t < b)
				b = t;
		}
		if (write(fd[1], &b, sizeof b) != sizeof b)
			_exit(1);
		_exit(0);
	}
	close(fd[1]);
	if (pid < 0 || read(fd[0], best, sizeof *best) != sizeof *best) {
		close(fd[0]);
		return -1;
	}
	close(fd[0]);
	if (wait4(pid, &st, 0, &ru) != pid || !WIFEXITED(st) ||
		WEXITSTATUS(st) != 0)
		return -1;
	*kib = ru.ru_maxrss;
	return 0;
}

/* `exe summary path`: wall seconds, and the warning lines it printed. */
static double bench_summary(const char *exe, const char *path, int *warnings)
{
	char cmd[8400], line[4096];
	double t0 = bench_now();
	FILE *f;

	snprintf(cmd, sizeof cmd, "'%s' summary '%s' 2>&1 >/dev/null", exe,
		path);
	*warnings = 0;
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		*warnings += strstr(line, "warning") != NULL;
	if (pclose(f) != 0)
		return -1;
	return bench_now() - t0;
}

static int bench_parse_rows(const char *s, uint64_t *rows)
{
	int n = 0;

	while (*s && n < BENCH_MAX_SIZES) {
		char *end;
		uint64_t v = strtoull(s, &end, 10);
		if (end == s)
			return -1;
		if (*end == 'k' || *end == 'K')
			v *= 1000, end++;
		else if (*end == 'M')
			v *= 1000000, end++;
		rows[n++] = v;
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -1;
	}
	return n;
}

int main(int argc, char **argv)
{
	uint64_t rows[BENCH_MAX_SIZES] = {1000000, 4000000, 10000000};
	int nrows = 3, runs = 3, i, k;
	const char *dir = NULL, *exe = NULL;
	char tmp[] = "/tmp/tables-bench-XXXXXX", path[4200];
	double base_t;
	long base_kib;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--rows") && i + 1 < argc)
			nrows = bench_parse_rows(argv[++i], rows);
		else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--dir") && i + 1 < argc)
			dir = argv[++i];
		else if (!strcmp(argv[i], "--exe") && i + 1 < argc)
			exe = argv[++i];
		else
			nrows = -1;
	}
	if (nrows < 1 || runs < 1) {
		fprintf(stderr, "usage: tables_bench [--rows 1M,4M,10M] "
				"[--runs 3] [--dir DIR] [--exe SCOPEVIEW]\n");
		return 2;
	}
	if (!dir && !(dir = mkdtemp(tmp))) {
		perror("tables_bench: mkdtemp");
		return 1;
	}
	if (bench_write(dir, rows, nrows) < 0) {
		fprintf(stderr, "tables_bench: cannot write the files\n");
		return 1;
	}
	snprintf(path, sizeof path, "%s/base.h5", dir);
	if (bench_load(path, runs, &base_t, &base_kib) < 0) {
		fprintf(stderr, "tables_bench: cannot load %s\n", path);
		return 1;
	}
	printf("baseline (no table): load %.4f s, peak RSS %.1f MiB\n", base_t,
		(double)base_kib / 1024);
	printf("| ranks | rows | file KB | load s | table step s | step ratio "
	       "| peak RSS MiB |%s\n",
		exe ? " summary s | warnings |" : "");
	for (k = 0; k < 2; k++) {
		double first = 0;
		for (i = 0; i < nrows; i++) {
			struct stat st;
			double t, step, ts = 0;
			long kib;
			int warns = 0;
			snprintf(path, sizeof path, "%s/t%d-%" PRIu64 ".h5",
				dir, k, rows[i]);
			if (stat(path, &st) != 0 ||
				bench_load(path, runs, &t, &kib) < 0) {
				fprintf(stderr,
					"tables_bench: cannot load %s\n", path);
				return 1;
			}
			step = t > base_t ? t - base_t : 0;
			if (i == 0)
				first = step > 1e-4 ? step : 1e-4;
			if (exe)
				ts = bench_summary(exe, path, &warns);
			printf("| %s | %" PRIu64 " | %.0f | %.4f | %.4f | %.2f "
			       "(rows %.1f) | %.1f |",
				k ? "uint32" : "int64", rows[i],
				(double)st.st_size / 1000, t, step,
				step / first, (double)rows[i] / (double)rows[0],
				(double)kib / 1024);
			if (exe)
				printf(" %.3f | %d |", ts, warns);
			printf("\n");
		}
	}
	return 0;
}
