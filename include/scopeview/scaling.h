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

/*
 * The study in two steps, for a caller that reads many runs and should
 * hold one at a time (`scopeview scaling` over 16 runs of a million
 * calls): measure each run as soon as it is loaded, free it, and combine
 * the samples at the end.  sv_scaling_compute is sv_scaling_measure of
 * every run, then sv_scaling_combine.
 *
 * A sample is what the study keeps of one run: its x value and, for each
 * region it keeps that has a call on the selected ranks, T(run, region)
 * in ns.  T is the sum of the durations (int64 ns, summed in 128 bits,
 * so no sum overflows) over their count: the calls in memory, or for a
 * row without them (a summary-only or aggregate profile) its stored
 * count and total; a row with neither counts for nothing.  "Present in a
 * run" means having such a call there.
 *
 * The x value: num_ranks is the profile's num_ranks; total_cores is the
 * metadata's total_cores, or, when the run lacks it, num_ranks times its
 * omp_num_threads (as scope-profiler's scaling.py computes it); any other
 * field is the metadata's value.  A value is a number when the metadata
 * holds an integer or a float, or text that reads whole as a finite
 * number ("4", " 2.5 "); num_ranks, omp_num_threads and total_cores
 * must be numbers.
 */
struct sv_scaling_sample {
	char *file, *label; /* as in struct sv_scaling_run, owned */
	char *x_text;       /* owned */
	bool x_number;      /* x_text is a number ... */
	double x;           /* ... this one */
	char **names;       /* the regions present, in the run's order, owned */
	double *mean_ns;    /* T of each, ns (owned) */
	size_t nregions;
};

/* Measure run p (finished, borrowed; file may be NULL: p->path) into
 * *out.  Returns 0, or -EINVAL with err as sv_scaling_compute says (the
 * x field, the rank list).  *out written only on success; free with
 * sv_scaling_sample_fini (NULL-safe, may be called again). */
int sv_scaling_measure(struct sv_scaling_sample *out,
	const struct sv_profile *p, const char *file,
	const struct sv_scaling_opts *opts, struct sv_error *err);
void sv_scaling_sample_fini(struct sv_scaling_sample *s);

/*
 * sv_scaling_measure in three steps, for scopeview-mpi, whose processes
 * each sum the calls of their share of a run's ranks and whose first
 * process finishes the sample from the whole file's rows (the sums added
 * up over the job exactly, 128 bits and all):
 *  - sv_scaling_sample_begin: the run's file, label and x value into
 *    *out (the x field's errors, as sv_scaling_measure gives them; *out
 *    is then left empty);
 *  - sv_scaling_sum: each region's sum of durations and count over the
 *    rows of p the rank list and patterns of opts keep and, for share
 *    (nshare flags; NULL: every rank), whose rank is on; -EINVAL with
 *    err when the rank list does not parse;
 *  - sv_scaling_sample_end: the regions with a call (count > 0) and their
 *    T, in p's region order, names from p (the sums' region indexes).
 * sv_scaling_measure is the three on one profile.
 */
struct sv_scaling_sums {
	sv_i128 *sum;    /* per region of the profile: ns */
	uint64_t *count; /* per region: the calls summed */
	uint32_t nregions;
};
int sv_scaling_sample_begin(struct sv_scaling_sample *out,
	const struct sv_profile *p, const char *file,
	const struct sv_scaling_opts *opts, struct sv_error *err);
int sv_scaling_sum(struct sv_scaling_sums *out, const struct sv_profile *p,
	const struct sv_scaling_opts *opts, const bool *share, uint32_t nshare,
	struct sv_error *err);
void sv_scaling_sample_end(struct sv_scaling_sample *s,
	const struct sv_profile *p, const struct sv_scaling_sums *sums);
/* NULL-safe; leaves s empty. */
void sv_scaling_sums_fini(struct sv_scaling_sums *s);

/* The study of samples[0 .. n) (n >= 1, borrowed; measured with the
 * same x field).  Returns 0, or -EINVAL for n == 0.  *out written only on
 * success; free with sv_scaling_fini. */
int sv_scaling_combine(struct sv_scaling *out,
	const struct sv_scaling_sample *samples, size_t n,
	const struct sv_scaling_opts *opts, struct sv_error *err);

#endif
