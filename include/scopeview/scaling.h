/*
 * scaling.h: a scaling study over several runs of the same program, as
 * scope-profiler's plotting_scripts/scaling.py defines it.
 *
 * Each run has an x value: its rank count (x field "num_ranks"), or its
 * metadata's value of the field (omp_num_threads, total_cores, any key).
 * T(run, region) is the mean duration of every call of the region on the
 * ranks selected (stored statistics when the run has no calls).  Runs
 * that share an x value are averaged (the mean of their T).  The baseline
 * x0 is the smallest x when every x is a number, else the first in order
 * of appearance.  Only regions present in every run are kept, in the
 * first run's order (its regions' order in the file).  For each region
 * and x:
 *
 *   speedup            = T(x0) / T(x)
 *   efficiency         = speedup * x0 / x        (strong scaling)
 *   normalized_runtime = T(x) / T(x0)             (weak scaling)
 *   weak_efficiency    = T(x0) / T(x)
 *
 * (for a non-numeric x the efficiency takes x / x0 as 1).  Durations are
 * seconds in the result, as scope-profiler prints them.  The runs are
 * borrowed; nothing here reads a file.  Nothing here knows about curses
 * or HDF5.
 */
#ifndef SCOPEVIEW_SCALING_H
#define SCOPEVIEW_SCALING_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_MODEL)
#error "scopeview/scaling.h belongs to the model layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/common.h"
#include "scopeview/profile.h"

struct sv_regex;

/* What a study takes besides the runs. */
struct sv_scaling_opts {
	const char *x_field; /* "num_ranks" (NULL: it), or a metadata key */
	/* The ranks selected, as `--ranks` takes them ("0-3"; NULL or "":
	 * every rank of each run). */
	const char *ranks;
	/* Regions kept: matching an include pattern (none: all) and no
	 * exclude pattern, as `summary --include/--exclude` match. */
	struct sv_regex *const *include;
	size_t ninclude;
	struct sv_regex *const *exclude;
	size_t nexclude;
};

/* One run of the study, in the order given. */
struct sv_scaling_run {
	char *label;    /* the run's label (its metadata's label, else its
			file name), owned */
	char *file;     /* its path, owned */
	double x;       /* its x value (a number; for a non-numeric field, the
			index of its text among the distinct texts) */
	char *x_text;   /* the x value as the file says it, owned */
	uint32_t point; /* its point: an index into xs */
};

/* One point of one region: the runs of one x value. */
struct sv_scaling_point {
	double x;
	uint32_t runs;        /* how many runs were averaged */
	double mean_duration; /* T(x), seconds */
	double speedup, efficiency, normalized_runtime, weak_efficiency;
};

struct sv_scaling_region {
	char *name;                      /* owned */
	struct sv_scaling_point *points; /* npoints, by x (owned) */
};

struct sv_scaling {
	char *x_field;   /* owned */
	bool numeric;    /* every x is a number */
	double baseline; /* x0 */
	char *baseline_text;
	struct sv_scaling_run *runs; /* nruns, in the order given */
	size_t nruns;
	/* The distinct x values, ascending when numeric, else in order of
	 * appearance, and their texts; each region has a point for each. */
	double *xs;
	char **x_texts;
	size_t npoints;
	struct sv_scaling_region *regions; /* nregions, the first run's order */
	size_t nregions;
};

/*
 * Compute the study of runs[0 .. nruns) (finished profiles, borrowed;
 * files[i] is run i's path for the labels, may be NULL).  nruns >= 1.
 * Returns 0, or -EINVAL with err naming the run when a run lacks the x
 * field ("run b.h5 has no metadata key 'omp_num_threads'"), when a value
 * of a numeric field is not a number, or when the rank list does not
 * parse.  *out is written only on success; free with sv_scaling_fini.
 */
int sv_scaling_compute(struct sv_scaling *out,
	const struct sv_profile *const *runs, const char *const *files,
	size_t nruns, const struct sv_scaling_opts *opts, struct sv_error *err);
void sv_scaling_fini(struct sv_scaling *s);

/* Whether the x values double from one point to the next (1, 2, 4 ...):
 * a chart then puts x on a log-2 axis. */
bool sv_scaling_x_doubles(const struct sv_scaling *s);

#endif
