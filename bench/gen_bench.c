/*
 * gen_bench.c: how long `scopeview gen` takes to write a large profile and
 * how much memory it needs.  Run by hand:
 *
 *     build/bench/gen_bench [EVENTS [RANKS [OUT.h5]]]
 *
 * Defaults: 10 million events over 4 ranks, every optional column (GPU,
 * call ids, threads, tasks, await), written to $TMPDIR/sv-gen-bench.h5 and
 * removed afterwards.  Prints wall time, events per second, the peak
 * resident set size (getrusage) and the file size.  Memory is bounded by
 * one rank's calls, so more ranks for the same events need less.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "scopeview/gen.h"

#include "bench_clock.h"

static void bench_progress(void *ctx, uint32_t ranks, uint64_t events)
{
	double *t0 = ctx;
	fprintf(stderr, "  rank %u done, %" PRIu64 " events, %.2f s\n", ranks,
		events, bench_now() - *t0);
}

int main(int argc, char **argv)
{
	struct sv_gen_opts o;
	struct sv_error err = {0};
	struct rusage ru;
	struct stat st;
	const char *tmp = getenv("TMPDIR");
	char path[4096];
	double t0, dt;
	bool keep = argc > 3;

	sv_gen_opts_init(&o);
	o.events = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000;
	o.ranks = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 4;
	o.threads = 2;
	o.tasks = 1;
	o.gpu = o.await = true;
	if (keep)
		snprintf(path, sizeof path, "%s", argv[3]);
	else
		snprintf(path, sizeof path, "%s/sv-gen-bench-%ld.h5",
			tmp && *tmp ? tmp : "/tmp", (long)getpid());

	printf("gen_bench: %" PRIu64 " events, %u ranks, every column -> %s\n",
		o.events, o.ranks, path);
	t0 = bench_now();
	if (sv_gen_write(path, &o, bench_progress, &t0, &err)) {
		fprintf(stderr, "gen_bench: %s\n", err.msg);
		return 1;
	}
	dt = bench_now() - t0;
	getrusage(RUSAGE_SELF, &ru);
	if (stat(path, &st) != 0)
		st.st_size = 0;
	printf("time        %.2f s (%.1f M events/s)\n", dt,
		(double)o.events / dt / 1e6);
	printf("peak RSS    %.1f MiB (%.1f bytes per event of one rank)\n",
		(double)ru.ru_maxrss / 1024.0,
		(double)ru.ru_maxrss * 1024.0 /
			(double)(o.events / o.ranks ? o.events / o.ranks : 1));
	printf("file size   %.1f MiB (%.2f bytes per event)\n",
		(double)st.st_size / 1048576.0,
		(double)st.st_size / (double)(o.events ? o.events : 1));
	if (!keep)
		unlink(path);
	return 0;
}
