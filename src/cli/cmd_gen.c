/*
 * cmd_gen.c: `scopeview gen`, its command line: options into struct
 * sv_gen_opts, then sv_gen_write (gen.h) with a progress line on stderr.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "scopeview/cli.h"
#include "scopeview/gen.h"
#include "scopeview/write.h"

/* ------------------------------------------------------------------ */
/* scopeview gen */

static const char gen_usage[] = "scopeview gen [OPTIONS] OUT.h5";

static const struct sv_cli_option gen_options[] = {
	{"--ranks", NULL, "N", NULL, "MPI ranks (default 4)"},
	{"--threads", NULL, "N", NULL,
		"threads per rank, main thread included (default 1)"},
	{"--tasks", NULL, "N", NULL, "asyncio tasks per thread (default 0)"},
	{"--events", NULL, "N", NULL,
		"calls in the whole file; k, M, G suffixes (default 100k)"},
	{"--depth", NULL, "N", NULL,
		"depth of the recursive region (default 4)"},
	{"--imbalance", NULL, "F", NULL,
		"the slow rank computes 1+F times longer (default 0.3)"},
	{"--gpu", NULL, NULL, NULL,
		"record GPU device times of the solver kernels"},
	{"--await", NULL, NULL, NULL,
		"record time tasks spend suspended (implies --tasks 2\n"
		"unless --tasks is given)"},
	{"--no-call-ids", NULL, NULL, NULL,
		"omit call_ids/parent_ids (as native traces do)"},
	{"--track-threads", NULL, NULL, NULL,
		"thread_ids and thread_table even for one thread"},
	{"--schema", NULL, "N", "1 2 3",
		"file layout 1, 2 or 3 (default 3, the current one)"},
	{"--compression", NULL, "MODE", "auto none gzip",
		"auto (default): shuffle+deflate from 16384 events;\n"
		"none or gzip"},
	{"--format", NULL, "FMT", "hdf5 spt rank-h5 json",
		"hdf5 (default): one profile at OUT; spt: native\n"
		"traces OUT_rank00000.spt ... (version 2); rank-h5:\n"
		"OUT_rank00000.h5 ... as the C API writes them;\n"
		"json: a JSON profile (gzip if OUT ends in .gz);\n"
		"spt and rank-h5 take one thread and no tasks"},
	{"--chunked", NULL, NULL, NULL,
		"every dataset chunked (an unfinished file's layout)"},
	{"--no-exclusive", NULL, NULL, NULL,
		"store -1 exclusive totals (readers rebuild them)"},
	{"--aggregate", NULL, NULL, NULL,
		"per-rank totals only, no calls (aggregation mode)"},
	{"--seed", NULL, "N", NULL,
		"the same seed writes the same bytes (default 1)"},
	{"--label", NULL, "TEXT", NULL, "metadata label"},
	{"--slow-region", NULL, "NAME[:F]", NULL,
		"the computation inside region NAME takes F times\n"
		"as long (default 2; 0.1-100) on every rank: a\n"
		"second run to compare with scopeview diff;\n"
		"NAME: main, timestep, assemble, solve or a kernel"},
	{"--quiet", NULL, NULL, NULL, "print nothing on success"},
	{"--help", NULL, NULL, NULL, "this text"},
};

const struct sv_cli_command sv_cli_gen_cmd = {
	"gen",
	"[OPTIONS] OUT.h5",
	"write a synthetic profile",
	true,
	gen_options,
	sizeof gen_options / sizeof gen_options[0],
};

static void gen_help(void)
{
	printf("usage: %s\n\n"
	       "Write a synthetic scope-profiler profile shaped like a real "
	       "MPI run.\n\n",
		gen_usage);
	sv_cli_write_options(stdout, &sv_cli_gen_cmd);
	printf("\nExit status: 0 written, 1 the file could not be written, "
	       "2 usage.\n");
}

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

/* --slow-region NAME[:FACTOR] into o (NAME points into s; the last ':'
 * separates the factor, since names such as "kernel:spmv" hold one).
 * A ':' followed by something that is not a number belongs to the
 * name. */
static int gen_parse_slow(char *s, struct sv_gen_opts *o)
{
	char *colon = strrchr(s, ':'), *end;
	double f;

	o->slow_region = s;
	o->slow_factor = 2.0;
	if (colon && colon[1]) {
		f = strtod(colon + 1, &end);
		if (end != colon + 1 && !*end) {
			*colon = '\0';
			o->slow_factor = f;
		}
	}
	return *o->slow_region ? 0 : -1;
}

struct gen_progress {
	struct timespec t0;
	uint32_t ranks;
	uint64_t events;
	bool on;
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
	if (!pg->on)
		return;
	fprintf(stderr,
		"scopeview gen: rank %u of %u written, %" PRIu64 " of %" PRIu64
		" events (%.0f%%, %.1f s)\n",
		done, pg->ranks, events, pg->events,
		pg->events ? 100.0 * (double)events / (double)pg->events
			   : 100.0,
		gen_elapsed(&pg->t0));
}

/* SIGINT/SIGTERM while writing: remove the temporary file, then die of
 * the signal as before. */
static void gen_on_signal(int sig)
{
	sv_write_unlink_temps();
	signal(sig, SIG_DFL);
	raise(sig);
}

int sv_gen_main(int argc, char **argv)
{
	enum {
		O_RANKS = 256,
		O_THREADS,
		O_TASKS,
		O_EVENTS,
		O_DEPTH,
		O_IMB,
		O_GPU,
		O_AWAIT,
		O_NOIDS,
		O_TRACK,
		O_SCHEMA,
		O_COMP,
		O_CHUNKED,
		O_NOEXCL,
		O_AGG,
		O_SEED,
		O_LABEL,
		O_SLOW,
		O_FORMAT,
		O_QUIET,
		O_HELP
	};
	static const struct option longopts[] = {
		{"ranks", required_argument, NULL, O_RANKS},
		{"threads", required_argument, NULL, O_THREADS},
		{"tasks", required_argument, NULL, O_TASKS},
		{"events", required_argument, NULL, O_EVENTS},
		{"depth", required_argument, NULL, O_DEPTH},
		{"imbalance", required_argument, NULL, O_IMB},
		{"gpu", no_argument, NULL, O_GPU},
		{"await", no_argument, NULL, O_AWAIT},
		{"no-call-ids", no_argument, NULL, O_NOIDS},
		{"track-threads", no_argument, NULL, O_TRACK},
		{"schema", required_argument, NULL, O_SCHEMA},
		{"compression", required_argument, NULL, O_COMP},
		{"chunked", no_argument, NULL, O_CHUNKED},
		{"no-exclusive", no_argument, NULL, O_NOEXCL},
		{"aggregate", no_argument, NULL, O_AGG},
		{"seed", required_argument, NULL, O_SEED},
		{"label", required_argument, NULL, O_LABEL},
		{"slow-region", required_argument, NULL, O_SLOW},
		{"format", required_argument, NULL, O_FORMAT},
		{"quiet", no_argument, NULL, O_QUIET},
		{"help", no_argument, NULL, O_HELP},
		{NULL, 0, NULL, 0},
	};
	struct sv_gen_opts o;
	struct sv_error err = {0};
	struct gen_progress pg;
	bool quiet = false, tasks_given = false;
	const char *out;
	uint64_t v;
	int opt, rc;

	sv_gen_opts_init(&o);
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
		const char *name =
			optind > 0 && optind <= argc ? argv[optind - 1] : "?";
		if (opt >= O_RANKS && opt <= O_HELP)
			name = longopts[opt - O_RANKS].name;
		switch (opt) {
		case O_RANKS:
		case O_THREADS:
		case O_TASKS:
		case O_DEPTH:
			if (gen_parse_u64(optarg, &v) || v > UINT32_MAX)
				return sv_cli_usage_error(gen_usage,
					"gen: --%s wants a number, not \"%s\"",
					name, optarg);
			if (opt == O_RANKS)
				o.ranks = (uint32_t)v;
			else if (opt == O_THREADS)
				o.threads = (uint32_t)v;
			else if (opt == O_TASKS)
				o.tasks = (uint32_t)v, tasks_given = true;
			else
				o.depth = (uint32_t)v;
			break;
		case O_EVENTS:
		case O_SEED:
			if (gen_parse_u64(optarg, &v))
				return sv_cli_usage_error(gen_usage,
					"gen: --%s wants a number, not \"%s\"",
					name, optarg);
			if (opt == O_EVENTS)
				o.events = v;
			else
				o.seed = v;
			break;
		case O_IMB: {
			char *end;
			o.imbalance = strtod(optarg, &end);
			if (end == optarg || *end)
				return sv_cli_usage_error(gen_usage,
					"gen: --imbalance wants a number, "
					"not \"%s\"",
					optarg);
			break;
		}
		case O_GPU:
			o.gpu = true;
			break;
		case O_AWAIT:
			o.await = true;
			break;
		case O_NOIDS:
			o.call_ids = false;
			break;
		case O_TRACK:
			o.track_threads = true;
			break;
		case O_SCHEMA:
			if (!strcmp(optarg, "1") || !strcmp(optarg, "2") ||
				!strcmp(optarg, "3"))
				o.writer.schema = optarg[0] - '0';
			else
				return sv_cli_usage_error(gen_usage,
					"gen: --schema must be 1, 2 or 3, not "
					"\"%s\"",
					optarg);
			break;
		case O_COMP:
			if (!strcmp(optarg, "auto"))
				o.writer.compression = SV_WRITE_COMPRESS_AUTO;
			else if (!strcmp(optarg, "none"))
				o.writer.compression = SV_WRITE_COMPRESS_NONE;
			else if (!strcmp(optarg, "gzip"))
				o.writer.compression = SV_WRITE_COMPRESS_GZIP;
			else
				return sv_cli_usage_error(gen_usage,
					"gen: --compression must be auto, none "
					"or gzip, not \"%s\"",
					optarg);
			break;
		case O_CHUNKED:
			o.writer.storage = SV_WRITE_CHUNKED;
			break;
		case O_NOEXCL:
			o.writer.exclusive = SV_WRITE_EXCL_UNKNOWN;
			break;
		case O_AGG:
			o.writer.aggregate = true;
			break;
		case O_LABEL:
			o.label = optarg;
			break;
		case O_SLOW:
			if (gen_parse_slow(optarg, &o))
				return sv_cli_usage_error(gen_usage,
					"gen: --slow-region wants NAME or "
					"NAME:FACTOR, not \"%s\"",
					optarg);
			break;
		case O_FORMAT:
			if (!strcmp(optarg, "hdf5"))
				o.format = SV_GEN_HDF5;
			else if (!strcmp(optarg, "spt"))
				o.format = SV_GEN_SPT;
			else if (!strcmp(optarg, "rank-h5"))
				o.format = SV_GEN_RANK_H5;
			else if (!strcmp(optarg, "json"))
				o.format = SV_GEN_JSON;
			else
				return sv_cli_usage_error(gen_usage,
					"gen: --format must be hdf5, spt, "
					"rank-h5 or json, not \"%s\"",
					optarg);
			break;
		case O_QUIET:
			quiet = true;
			break;
		case O_HELP:
			gen_help();
			return SV_EXIT_OK;
		case ':':
			return sv_cli_usage_error(
				gen_usage, "gen: %s needs a value", name);
		default:
			return sv_cli_usage_error(
				gen_usage, "gen: unknown option \"%s\"", name);
		}
	}
	if (optind >= argc)
		return sv_cli_usage_error(gen_usage, "gen: no output file");
	if (optind + 1 < argc)
		return sv_cli_usage_error(gen_usage,
			"gen: one output file only (got \"%s\" too)",
			argv[optind + 1]);
	out = argv[optind];
	if (o.await && !tasks_given && o.tasks == 0)
		o.tasks = 2;
	if (sv_gen_opts_check(&o, &err))
		return sv_cli_usage_error(gen_usage, "gen: %s", err.msg);

	{
		/* Only a regular file or a new name is ever replaced. */
		struct stat st;
		if (lstat(out, &st) == 0 && !S_ISREG(st.st_mode)) {
			fprintf(stderr,
				"scopeview: gen: %s exists and is not a "
				"regular file; not replacing it\n",
				out);
			return SV_EXIT_USAGE;
		}
	}
	signal(SIGINT, gen_on_signal);
	signal(SIGTERM, gen_on_signal);
	memset(&pg, 0, sizeof pg);
	clock_gettime(CLOCK_MONOTONIC, &pg.t0);
	pg.ranks = o.ranks;
	pg.events = o.events;
	pg.on = !quiet && o.events >= 1000000;
	rc = sv_gen_write(out, &o, gen_progress_cb, &pg, &err);
	if (rc) {
		fprintf(stderr, "scopeview: %s\n", err.msg);
		return SV_EXIT_LOAD;
	}
	if (!quiet)
		fprintf(stderr,
			"scopeview gen: wrote %s (%" PRIu64 " events, %u "
			"ranks, schema %d, seed %" PRIu64 ") in %.1f s\n",
			out, o.events, o.ranks,
			o.writer.schema ? o.writer.schema : 3, o.seed,
			gen_elapsed(&pg.t0));
	return SV_EXIT_OK;
}
