/*
 * cmd_gen.c: `scopeview gen`, its command line: options into struct
 * sv_gen_opts, then sv_gen_write (gen.h) with one progress line.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scopeview/cli.h"
#include "scopeview/gen.h"
#include "scopeview/outfile.h"
#include "scopeview/write.h"

/* Parse an unsigned number with an optional k/M/G suffix. */
static int gen_parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	uint64_t mul = 1;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	if (*end == 'k' || *end == 'K')
		mul = 1000, end++;
	else if (*end == 'M')
		mul = 1000000, end++;
	else if (*end == 'G')
		mul = 1000000000, end++;
	if (*end || (mul > 1 && v > UINT64_MAX / mul))
		return -1;
	*out = (uint64_t)v * mul;
	return 0;
}

struct gen_args {
	struct sv_gen_opts o;
	int schema;      /* index among "1 2 3", -1: not given */
	int compression; /* enum sv_write_compression */
	int format;      /* enum sv_gen_format: "hdf5 spt rank-h5 json" */
	bool quiet, tasks_given;
	char *slow; /* --slow-region's NAME (o.slow_region), owned */
	const char *out;
};

#define GEN_AT(f, type) SV_CLI_AT(struct gen_args, f, type)

/* --ranks, --threads, --depth: a number below 2^32. */
static int gen_set_u32(void *target, const char *v, const struct sv_cli_ctx *cx)
{
	uint64_t n;
	if (gen_parse_u64(v, &n) || n > UINT32_MAX)
		return sv_cli_fail(cx->cmd, "%s wants a number, not \"%s\"",
			cx->opt->name, v);
	*(uint32_t *)target = (uint32_t)n;
	return 0;
}

/* --events, --seed: a number, k, M and G allowed. */
static int gen_set_u64(void *target, const char *v, const struct sv_cli_ctx *cx)
{
	if (gen_parse_u64(v, target))
		return sv_cli_fail(cx->cmd, "%s wants a number, not \"%s\"",
			cx->opt->name, v);
	return 0;
}

/* --chunk: 1 to SV_WRITE_EVENT_CHUNK_MAX values. */
static int gen_set_chunk(
	void *target, const char *v, const struct sv_cli_ctx *cx)
{
	uint64_t n;
	if (gen_parse_u64(v, &n) || n < 1 || n > SV_WRITE_EVENT_CHUNK_MAX)
		return sv_cli_fail(cx->cmd,
			"--chunk wants 1 to %u values, not \"%s\"",
			SV_WRITE_EVENT_CHUNK_MAX, v);
	*(uint32_t *)target = (uint32_t)n;
	return 0;
}

static int gen_set_tasks(
	void *target, const char *v, const struct sv_cli_ctx *cx)
{
	struct gen_args *a = target;
	a->tasks_given = true;
	return gen_set_u32(&a->o.tasks, v, cx);
}

static int gen_set_imbalance(
	void *target, const char *v, const struct sv_cli_ctx *cx)
{
	char *end;
	*(double *)target = strtod(v, &end);
	if (end == v || *end)
		return sv_cli_fail(
			cx->cmd, "--imbalance wants a number, not \"%s\"", v);
	return 0;
}

/* --no-call-ids, --chunked, --no-exclusive: what they switch. */
static int gen_set_switch(
	void *target, const char *v, const struct sv_cli_ctx *cx)
{
	struct gen_args *a = target;
	(void)v;
	if (!strcmp(cx->opt->name, "--no-call-ids"))
		a->o.call_ids = false;
	else if (!strcmp(cx->opt->name, "--chunked"))
		a->o.writer.storage = SV_WRITE_CHUNKED;
	else
		a->o.writer.exclusive = SV_WRITE_EXCL_UNKNOWN;
	return 0;
}

/* --slow-region NAME[:FACTOR].  The last ':' separates the factor, since
 * names such as "kernel:spmv" hold one; a ':' followed by something that
 * is not a number belongs to the name. */
static int gen_set_slow(
	void *target, const char *v, const struct sv_cli_ctx *cx)
{
	struct gen_args *a = target;
	const char *colon = strrchr(v, ':');
	size_t len = strlen(v);
	char *end;

	a->o.slow_factor = 2.0;
	if (colon && colon[1]) {
		double f = strtod(colon + 1, &end);
		if (end != colon + 1 && !*end) {
			len = (size_t)(colon - v);
			a->o.slow_factor = f;
		}
	}
	if (!len)
		return sv_cli_fail(cx->cmd,
			"--slow-region wants NAME or NAME:FACTOR, not \"%s\"",
			v);
	free(a->slow);
	a->slow = sv_xstrndup(v, len);
	a->o.slow_region = a->slow;
	return 0;
}

/* --strong-scaling R0: the baseline's rank count, 1 or more. */
static int gen_set_scale(
	void *target, const char *v, const struct sv_cli_ctx *cx)
{
	uint64_t n;
	if (gen_parse_u64(v, &n) || n < 1 || n > 65536)
		return sv_cli_fail(cx->cmd,
			"--strong-scaling wants the baseline's ranks "
			"(1-65536), "
			"not \"%s\"",
			v);
	*(uint32_t *)target = (uint32_t)n;
	return 0;
}

/* --slowdown RANK:ITERATION[:FACTOR]. */
static int gen_set_slowdown(
	void *target, const char *v, const struct sv_cli_ctx *cx)
{
	struct sv_gen_opts *o = target;
	char rank[32], step[32], *end;
	const char *c1 = strchr(v, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	uint64_t r;
	double f = 2.0;

	if (!c1 || (size_t)(c1 - v) >= sizeof rank ||
		(size_t)((c2 ? c2 : c1 + strlen(c1)) - c1 - 1) >= sizeof step)
		goto bad;
	snprintf(rank, sizeof rank, "%.*s", (int)(c1 - v), v);
	snprintf(step, sizeof step, "%.*s",
		(int)((c2 ? c2 : c1 + strlen(c1)) - c1 - 1), c1 + 1);
	if (gen_parse_u64(rank, &r) || r >= UINT32_MAX ||
		gen_parse_u64(step, &o->slowdown_step))
		goto bad;
	if (c2) {
		f = strtod(c2 + 1, &end);
		if (end == c2 + 1 || *end)
			goto bad;
	}
	o->slowdown = true;
	o->slowdown_rank = (uint32_t)r;
	o->slowdown_factor = f;
	return 0;
bad:
	return sv_cli_fail(cx->cmd,
		"--slowdown wants RANK:ITERATION or RANK:ITERATION:FACTOR, "
		"not \"%s\"",
		v);
}

static const struct sv_cli_option gen_options[] = {
	{"--ranks", NULL, "N", NULL, "MPI ranks (default 4)", SV_CLI_CALL,
		GEN_AT(o.ranks, uint32_t), gen_set_u32, 0},
	{"--threads", NULL, "N", NULL,
		"threads per rank, main thread included (default 1)",
		SV_CLI_CALL, GEN_AT(o.threads, uint32_t), gen_set_u32, 0},
	{"--tasks", NULL, "N", NULL, "asyncio tasks per thread (default 0)",
		SV_CLI_CALL, 0, gen_set_tasks, 0},
	{"--events", NULL, "N", NULL,
		"calls in the whole file; k, M, G suffixes (default 100k)",
		SV_CLI_CALL, GEN_AT(o.events, uint64_t), gen_set_u64, 0},
	{"--depth", NULL, "N", NULL,
		"depth of the recursive region (default 4)", SV_CLI_CALL,
		GEN_AT(o.depth, uint32_t), gen_set_u32, 0},
	{"--imbalance", NULL, "F", NULL,
		"the slow rank computes 1+F times longer (default 0.3)",
		SV_CLI_CALL, GEN_AT(o.imbalance, double), gen_set_imbalance, 0},
	{"--gpu", NULL, NULL, NULL,
		"record GPU device times of the solver kernels", SV_CLI_FLAG,
		GEN_AT(o.gpu, bool), NULL, 0},
	{"--await", NULL, NULL, NULL,
		"record time tasks spend suspended (implies --tasks 2\n"
		"unless --tasks is given)",
		SV_CLI_FLAG, GEN_AT(o.await, bool), NULL, 0},
	{"--no-call-ids", NULL, NULL, NULL,
		"omit call_ids/parent_ids (as native traces do)", SV_CLI_CALL,
		0, gen_set_switch, 0},
	{"--track-threads", NULL, NULL, NULL,
		"thread_ids and thread_table even for one thread", SV_CLI_FLAG,
		GEN_AT(o.track_threads, bool), NULL, 0},
	{"--schema", NULL, "N", "1 2 3",
		"file layout 1, 2 or 3 (default 3, the current one)",
		SV_CLI_CHOICE, GEN_AT(schema, int), NULL, 0},
	{"--compression", NULL, "MODE", "auto none gzip",
		"auto (default): shuffle+deflate from 16384 events;\n"
		"none or gzip",
		SV_CLI_CHOICE, GEN_AT(compression, int), NULL, 0},
	{"--format", NULL, "FMT", "hdf5 spt rank-h5 json",
		"hdf5 (default): one profile at OUT; spt: native\n"
		"traces OUT_rank00000.spt ... (version 2); rank-h5:\n"
		"OUT_rank00000.h5 ... as the C API writes them;\n"
		"json: a JSON profile (gzip if OUT ends in .gz);\n"
		"spt and rank-h5 take one thread and no tasks",
		SV_CLI_CHOICE, GEN_AT(format, int), NULL, 0},
	{"--chunk", NULL, "N", NULL,
		"N values a chunk of the event columns (default\n"
		"1024, scope-profiler's; 1 to 16777216)",
		SV_CLI_CALL, GEN_AT(o.writer.event_chunk, uint32_t),
		gen_set_chunk, 0},
	{"--chunked", NULL, NULL, NULL,
		"every dataset chunked (an unfinished file's layout)",
		SV_CLI_CALL, 0, gen_set_switch, 0},
	{"--no-exclusive", NULL, NULL, NULL,
		"store -1 exclusive totals (readers rebuild them)", SV_CLI_CALL,
		0, gen_set_switch, 0},
	{"--aggregate", NULL, NULL, NULL,
		"per-rank totals only, no calls (aggregation mode)",
		SV_CLI_FLAG, GEN_AT(o.writer.aggregate, bool), NULL, 0},
	{"--seed", NULL, "N", NULL,
		"the same seed writes the same bytes (default 1)", SV_CLI_CALL,
		GEN_AT(o.seed, uint64_t), gen_set_u64, 0},
	{"--label", NULL, "TEXT", NULL, "metadata label", SV_CLI_STRING,
		GEN_AT(o.label, const char *), NULL, 0},
	{"--slow-region", NULL, "NAME[:F]", NULL,
		"the computation inside region NAME takes F times\n"
		"as long (default 2; 0.1-100) on every rank: a\n"
		"second run to compare with scopeview diff;\n"
		"NAME: main, timestep, assemble, solve or a kernel",
		SV_CLI_CALL, 0, gen_set_slow, 0},
	{"--strong-scaling", NULL, "R0", NULL,
		"a run of a strong-scaling study from R0 ranks:\n"
		"each rank's kernels do R0/ranks of the work\n"
		"(spmv keeps a serial tenth); MPI, io and the\n"
		"rest do not shrink",
		SV_CLI_CALL, GEN_AT(o.scale_ranks, uint32_t), gen_set_scale, 0},
	{"--slowdown", NULL, "R:I[:F]", NULL,
		"rank R's timesteps from the I-th (0-based) on\n"
		"take F times as long (default 2; 0.1-100)",
		SV_CLI_CALL, GEN_AT(o, struct sv_gen_opts), gen_set_slowdown,
		0},
	{"--quiet", NULL, NULL, NULL, "print nothing on success", SV_CLI_FLAG,
		GEN_AT(quiet, bool), NULL, 0},
	{"--help", "-h", NULL, NULL, "this text", SV_CLI_HELP, 0, NULL, 0},
	{"OUT.h5", NULL, NULL, NULL, NULL, SV_CLI_STRING,
		GEN_AT(out, const char *), NULL, SV_CLI_REQUIRED},
};

static void gen_more(FILE *out)
{
	fprintf(out, "\nOUT.h5 is written to a temporary file beside it and "
		     "renamed when\ncomplete; a directory, FIFO, device or "
		     "symbolic link is never\nreplaced.\n\n"
		     "Exit status: 0 written, 1 the file could not be "
		     "written, 2 usage\n(or OUT.h5 is not a regular file).\n");
}

static void gen_init(void *args)
{
	struct gen_args *a = args;
	sv_gen_opts_init(&a->o);
	a->schema = -1;
	a->compression = (int)a->o.writer.compression;
}

static void gen_fini(void *args)
{
	struct gen_args *a = args;
	free(a->slow);
}

struct gen_progress {
	struct timespec t0;
	uint32_t ranks;
	uint64_t events;
	bool on, tty;   /* progress shown; on a terminal */
	unsigned tenth; /* of the events, at the last line */
};

static double gen_elapsed(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	       (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

static void gen_progress_cb(void *ctx, uint32_t done, uint64_t events)
{
	struct gen_progress *pg = ctx;
	unsigned tenth = pg->events ? (unsigned)(events * 10 / pg->events) : 10;

	if (!pg->on)
		return;
	/* Not on a terminal: a line a tenth of the events, not a rank. */
	if (!pg->tty && tenth == pg->tenth && done < pg->ranks)
		return;
	pg->tenth = tenth;
	sv_cli_eprogress("scopeview gen: rank %u of %u written, %" PRIu64
			 " of %" PRIu64 " events (%.0f%%, %.1f s)",
		done, pg->ranks, events, pg->events,
		pg->events ? 100.0 * (double)events / (double)pg->events
			   : 100.0,
		gen_elapsed(&pg->t0));
}

static int gen_run(void *args)
{
	struct gen_args *a = args;
	struct sv_gen_opts o;
	struct sv_error err = {0};
	struct gen_progress pg;
	const char *out = a->out;
	bool quiet = a->quiet, tasks_given = a->tasks_given;
	int rc;

	if (a->schema >= 0)
		a->o.writer.schema = a->schema + 1;
	a->o.writer.compression = (enum sv_write_compression)a->compression;
	a->o.format = (enum sv_gen_format)a->format;
	o = a->o;
	if (o.await && !tasks_given && o.tasks == 0)
		o.tasks = 2;
	if (sv_gen_opts_check(&o, &err))
		return sv_cli_fail(&sv_cli_gen_cmd, "%s", err.msg);

	/* Only a regular file or a new name is ever replaced (outfile.h);
	 * a signal removes the temporary. */
	if (sv_outfile_check(out, NULL, 0, &err) < 0)
		return sv_cli_output_fail(&err);
	sv_cli_output_signals();
	memset(&pg, 0, sizeof pg);
	clock_gettime(CLOCK_MONOTONIC, &pg.t0);
	pg.ranks = o.ranks;
	pg.events = o.events;
	pg.on = !quiet && o.events >= 1000000;
	pg.tty = sv_cli_stderr_tty();
	rc = sv_gen_write(out, &o, gen_progress_cb, &pg, &err);
	if (rc)
		return sv_cli_output_fail(&err);
	if (!quiet)
		sv_cli_eprintf("scopeview gen: wrote %s (%" PRIu64
			       " events, %u "
			       "ranks, schema %d, seed %" PRIu64 ") in %.1f s",
			out, o.events, o.ranks,
			o.writer.schema ? o.writer.schema : 3, o.seed,
			gen_elapsed(&pg.t0));
	return SV_EXIT_OK;
}

const struct sv_cli_command sv_cli_gen_cmd = {
	.name = "gen",
	.what = "write a synthetic profile",
	.about = "Write a synthetic scope-profiler profile shaped like a real "
		 "MPI run.",
	.opts = gen_options,
	.nopts = sizeof gen_options / sizeof gen_options[0],
	.size = sizeof(struct gen_args),
	.init = gen_init,
	.run = gen_run,
	.fini = gen_fini,
	.more = gen_more,
};
