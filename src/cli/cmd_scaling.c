/*
 * cmd_scaling.c: `scopeview scaling`, its command line.  Loads the runs
 * one at a time (each only for as long as it is measured, so sixteen runs
 * of a million calls take one run's memory), measures each
 * (sv_scaling_measure), combines them into the study (scaling.h) and
 * hands it to sv_report_scaling (report.h).  Prints, and returns the exit
 * status (cli.h).
 */
#include "scopeview/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/load.h"
#include "scopeview/report.h"
#include "scopeview/scaling.h"
#include "scopeview/strv.h"

struct scaling_args {
	int format; /* enum sv_report_format */
	const char *x;
	struct sv_cli_select sel;
	struct sv_strv runs;
};

#define SCALING_AT(f, type) SV_CLI_AT(struct scaling_args, f, type)

static int scaling_set_x(
	void *target, const char *v, const struct sv_cli_ctx *cx)
{
	if (!*v)
		return sv_cli_fail(cx->cmd, "--x needs a field");
	*(const char **)target = v;
	return 0;
}

static int scaling_add_run(
	void *target, const char *v, const struct sv_cli_ctx *cx)
{
	(void)cx;
	sv_strv_push(target, v);
	return 0;
}

static const struct sv_cli_option scaling_options[] = {
	{"--x", NULL, "FIELD", NULL,
		"what a run's x is: num_ranks (default), its rank\n"
		"count; omp_num_threads, total_cores or any other\n"
		"KEY of its metadata",
		SV_CLI_CALL, SCALING_AT(x, const char *), scaling_set_x, 0},
	{"--ranks", NULL, "LIST", NULL,
		"calls of these ranks only, e.g. 0,2-5, in every\nrun",
		SV_CLI_CALL, SCALING_AT(sel, struct sv_cli_select),
		sv_cli_set_ranks, 0},
	{"--include", NULL, "RE", NULL,
		"only regions whose name matches RE at its\n"
		"start; repeatable",
		SV_CLI_CALL, SCALING_AT(sel, struct sv_cli_select),
		sv_cli_set_include, SV_CLI_REPEAT},
	{"--exclude", NULL, "RE", NULL,
		"leave out regions matching RE; repeatable", SV_CLI_CALL,
		SCALING_AT(sel, struct sv_cli_select), sv_cli_set_exclude,
		SV_CLI_REPEAT},
	{"--format", NULL, "FMT", "table csv json",
		"table (default), csv or json", SV_CLI_CHOICE,
		SCALING_AT(format, int), NULL, 0},
	{"--help", "-h", NULL, NULL, "show this help", SV_CLI_HELP, 0, NULL, 0},
	{"RUN", NULL, NULL, NULL, NULL, SV_CLI_CALL,
		SCALING_AT(runs, struct sv_strv), scaling_add_run,
		SV_CLI_REQUIRED | SV_CLI_REPEAT},
};

static void scaling_more(FILE *out)
{
	fprintf(out,
		"\nT(run, region) is the mean duration of the region's calls "
		"on\nthe ranks selected; runs of one x are averaged.  The "
		"baseline\nx0 is the smallest x (the first when an x is not a "
		"number).\nOnly regions with calls in every run are shown, in "
		"the first\nrun's order.  speedup = T(x0)/T(x), efficiency = "
		"speedup *\nx0/x, normalized_runtime = T(x)/T(x0), "
		"weak_efficiency =\nT(x0)/T(x).\n\n"
		"JSON: {\"x_field\", \"baseline\", \"runs\": [{\"file\", "
		"\"label\", \"x\"}],\n\"regions\": [{\"name\", \"points\": "
		"[{\"x\", \"runs\", \"mean_duration\",\n\"speedup\", "
		"\"efficiency\", \"normalized_runtime\",\n"
		"\"weak_efficiency\"}]}]}, durations in seconds.\n\n"
		"Exit status: 0 success, 1 a run could not be read or lacks "
		"the\nx field, 2 a command-line mistake.\n");
}

static void scaling_fini(void *args)
{
	struct scaling_args *a = args;
	sv_cli_select_fini(&a->sel);
	sv_strv_fini(&a->runs);
}

/* Load run file and measure it into *s; an exit status. */
static int scaling_one(const struct scaling_args *a, const char *file,
	const struct sv_scaling_opts *o, struct sv_scaling_sample *s)
{
	struct sv_profile *p = NULL;
	struct sv_load_opts lo;
	struct sv_error err = {0};
	size_t i;

	sv_cli_select_load_opts(&a->sel, &lo);
	if (sv_cli_engine->load(file, &lo, &p, &err) < 0) {
		sv_cli_stderr("", err.msg);
		return SV_EXIT_LOAD;
	}
	for (i = 0; i < p->nwarnings; i++)
		sv_cli_stderr("warning: ", p->warnings[i]);
	if (a->sel.rank_on) {
		bool none = false;
		char *why = sv_cli_ranks_missing(
			p, a->sel.rank_on, a->sel.nrank_on, &none);
		if (why && none) {
			char *line = sv_xasprintf("%s: %s", file, why);
			sv_cli_stderr("warning: ", line);
			free(line);
		}
		free(why);
	}
	if (sv_cli_engine->measure(s, p, file, o, &err) < 0) {
		sv_cli_stderr("scaling: ", err.msg);
		sv_cli_engine->release(p);
		return SV_EXIT_LOAD;
	}
	sv_cli_engine->release(p);
	return SV_EXIT_OK;
}

static int scaling_run(void *args)
{
	struct scaling_args *a = args;
	struct sv_scaling_opts o;
	struct sv_scaling_sample *sm;
	struct sv_scaling s;
	struct sv_error err = {0};
	size_t i, done = 0;
	int rc = SV_EXIT_OK;

	memset(&o, 0, sizeof o);
	o.x_field = a->x;
	o.ranks = a->sel.ranks;
	o.include = a->sel.include.re;
	o.ninclude = a->sel.include.n;
	o.exclude = a->sel.exclude.re;
	o.nexclude = a->sel.exclude.n;
	sm = sv_xcalloc(a->runs.n, sizeof *sm);
	for (done = 0; done < a->runs.n && rc == SV_EXIT_OK; done++)
		rc = scaling_one(a, a->runs.v[done], &o, &sm[done]);
	if (rc == SV_EXIT_OK) {
		if (sv_scaling_combine(&s, sm, a->runs.n, &o, &err) < 0) {
			sv_cli_stderr("scaling: ", err.msg);
			rc = SV_EXIT_LOAD;
		} else {
			sv_cli_select_warnings(&a->sel);
			if (sv_report_scaling(stdout, &s,
				    (enum sv_report_format)a->format) < 0) {
				sv_cli_stderr("", "cannot write the study");
				rc = SV_EXIT_LOAD;
			}
			sv_scaling_fini(&s);
		}
	}
	for (i = 0; i < done; i++)
		sv_scaling_sample_fini(&sm[i]);
	free(sm);
	return rc;
}

const struct sv_cli_command sv_cli_scaling_cmd = {
	.name = "scaling",
	.what = "compare runs at several scales (speedup, efficiency)",
	.about = "A scaling study over runs of the same program at several\n"
		 "scales, as scope-profiler's scaling plots compute it: each\n"
		 "region's mean duration, speedup and strong- and "
		 "weak-scaling\nefficiency against the smallest scale.",
	.opts = scaling_options,
	.nopts = sizeof scaling_options / sizeof scaling_options[0],
	.size = sizeof(struct scaling_args),
	.run = scaling_run,
	.fini = scaling_fini,
	.more = scaling_more,
};
