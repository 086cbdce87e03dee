/*
 * scaling.c: a scaling study over several runs (scaling.h), as
 * scope-profiler's plotting_scripts/scaling.py defines it.
 *
 * Each run is measured once (sv_scaling_measure): its x value and the
 * mean duration T of each region it keeps, summed row by row over the
 * selected ranks in 128 bits.  The samples are then combined
 * (sv_scaling_combine): the distinct x values (ascending when all are
 * numbers, else in order of appearance), the regions every run has, in
 * the first run's order, and per region and x the mean of the runs' T and
 * the four ratios to the baseline.  Nothing here reads a file, prints, or
 * knows about curses or HDF5.
 */
#include "scopeview/scaling.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/regex.h"
#include "scopeview/stats.h"

/* Calls whose durations are read at once. */
#define SCALING_CHUNK 1024

/* The fields scope-profiler's scaling plots treat as counts: numbers. */
static bool scaling_count_field(const char *f)
{
	return !strcmp(f, "num_ranks") || !strcmp(f, "omp_num_threads") ||
	       !strcmp(f, "total_cores");
}

/* text as a finite number, whole but for blanks around it. */
static bool scaling_parse_number(const char *text, double *out)
{
	char *end;
	double v;

	if (!text)
		return false;
	while (*text == ' ' || *text == '\t')
		text++;
	if (!*text)
		return false;
	errno = 0;
	v = strtod(text, &end);
	if (end == text || errno == ERANGE)
		return false;
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end || !isfinite(v))
		return false;
	*out = v;
	return true;
}

/* A metadata value as a number: an integer, a float, or numeric text. */
static bool scaling_meta_number(const struct sv_meta *m, double *out)
{
	if (m->kind == SV_META_INT) {
		*out = (double)m->i;
		return true;
	}
	if (m->kind == SV_META_FLOAT) {
		*out = m->f;
		return isfinite(m->f);
	}
	if (m->kind == SV_META_STRING)
		return scaling_parse_number(m->text, out);
	return false;
}

/* A number as the text a person reads: "4", "2.5". */
static char *scaling_number_text(double v)
{
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		return sv_xasprintf("%.0f", v);
	return sv_xasprintf("%.17g", v);
}

/* The file name without its directories. */
static const char *scaling_base(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash && slash[1] ? slash + 1 : path;
}

/* s's x value from p; 0, or -EINVAL with err naming the run. */
static int scaling_x(struct sv_scaling_sample *s, const struct sv_profile *p,
	const char *field, struct sv_error *err)
{
	const struct sv_meta *m = sv_profile_meta(p, field);
	double v, omp;

	if (!strcmp(field, "num_ranks")) {
		s->x_number = true;
		s->x = (double)p->num_ranks;
		s->x_text = scaling_number_text(s->x);
		return 0;
	}
	if (!m && !strcmp(field, "total_cores")) {
		const struct sv_meta *t = sv_profile_meta(p, "omp_num_threads");
		if (!t)
			return sv_error_set(err, -EINVAL,
				"run %s has no metadata key 'total_cores' "
				"(nor 'omp_num_threads' to make it from)",
				s->file);
		if (!scaling_meta_number(t, &omp))
			return sv_error_set(err, -EINVAL,
				"run %s: metadata key 'omp_num_threads' is "
				"'%s', not a number",
				s->file, t->text ? t->text : "");
		s->x_number = true;
		s->x = (double)p->num_ranks * omp;
		s->x_text = scaling_number_text(s->x);
		return 0;
	}
	if (!m)
		return sv_error_set(err, -EINVAL,
			"run %s has no metadata key '%s'", s->file, field);
	s->x_number = scaling_meta_number(m, &v);
	if (!s->x_number && scaling_count_field(field))
		return sv_error_set(err, -EINVAL,
			"run %s: metadata key '%s' is '%s', not a number",
			s->file, field, m->text ? m->text : "");
	s->x = s->x_number ? v : 0;
	s->x_text = sv_xstrdup(m->text ? m->text : "");
	return 0;
}

/* Which regions of p the patterns keep (nregions flags, malloc'd). */
static bool *scaling_keep(
	const struct sv_profile *p, const struct sv_scaling_opts *o)
{
	bool *keep = sv_xcalloc((size_t)p->nregions + 1, sizeof *keep);
	uint32_t r;
	size_t i;

	for (r = 0; r < p->nregions; r++) {
		bool in = o->ninclude == 0;
		for (i = 0; !in && i < o->ninclude; i++)
			in = sv_regex_match(o->include[i], p->regions[r]);
		for (i = 0; in && i < o->nexclude; i++)
			in = !sv_regex_match(o->exclude[i], p->regions[r]);
		keep[r] = in;
	}
	return keep;
}

/* The sum of the durations of calls [c, c + n) of p. */
static sv_i128 scaling_row_sum(const struct sv_profile *p, uint32_t c, size_t n)
{
	int64_t d[SCALING_CHUNK];
	sv_i128 sum = 0;
	size_t k, i;

	for (k = 0; k < n; k += SCALING_CHUNK) {
		size_t m = n - k < SCALING_CHUNK ? n - k : SCALING_CHUNK;
		sv_profile_durations(p, c + (uint32_t)k, m, d);
		for (i = 0; i < m; i++)
			sum += d[i];
	}
	return sum;
}

int sv_scaling_sample_begin(struct sv_scaling_sample *out,
	const struct sv_profile *p, const char *file,
	const struct sv_scaling_opts *opts, struct sv_error *err)
{
	const char *field = opts && opts->x_field ? opts->x_field : "num_ranks";
	const struct sv_meta *label;
	int rc;

	if (!out || !p)
		return sv_error_set(err, -EINVAL, "no run to measure");
	memset(out, 0, sizeof *out);
	out->file = sv_xstrdup(file ? file : p->path ? p->path : "");
	label = sv_profile_meta(p, "label");
	out->label = sv_xstrdup(label && label->text && *label->text
					? label->text
					: scaling_base(out->file));
	rc = scaling_x(out, p, field, err);
	if (rc)
		sv_scaling_sample_fini(out);
	return rc;
}

int sv_scaling_sum(struct sv_scaling_sums *out, const struct sv_profile *p,
	const struct sv_scaling_opts *opts, const bool *share, uint32_t nshare,
	struct sv_error *err)
{
	struct sv_scaling_opts none;
	bool *rank_on = NULL, *keep;
	uint32_t nrank_on = 0;
	size_t i;

	memset(out, 0, sizeof *out);
	if (!p)
		return sv_error_set(err, -EINVAL, "no run to measure");
	if (!opts) {
		memset(&none, 0, sizeof none);
		opts = &none;
	}
	if (opts->ranks && *opts->ranks) {
		int rc = sv_stats_parse_ranks(
			opts->ranks, &rank_on, &nrank_on, err);
		if (rc < 0)
			return rc;
	}
	keep = scaling_keep(p, opts);
	out->nregions = p->nregions;
	out->sum = sv_xcalloc((size_t)p->nregions + 1, sizeof *out->sum);
	out->count = sv_xcalloc((size_t)p->nregions + 1, sizeof *out->count);
	for (i = 0; i < p->nrows; i++) {
		const struct sv_row *row = &p->rows[i];
		if (!keep[row->region] ||
			(rank_on && (row->rank >= nrank_on ||
					    !rank_on[row->rank])) ||
			(share && (row->rank >= nshare || !share[row->rank])))
			continue;
		if (p->has_calls) {
			out->sum[row->region] += scaling_row_sum(
				p, (uint32_t)row->first, (size_t)row->count);
			out->count[row->region] += row->count;
		} else if (row->has_summary) {
			out->sum[row->region] += row->summary.total;
			out->count[row->region] += row->count;
		}
	}
	free(keep);
	free(rank_on);
	return 0;
}

void sv_scaling_sample_end(struct sv_scaling_sample *s,
	const struct sv_profile *p, const struct sv_scaling_sums *sums)
{
	uint32_t r,
		n = sums->nregions < p->nregions ? sums->nregions : p->nregions;

	s->names = sv_xcalloc((size_t)n + 1, sizeof *s->names);
	s->mean_ns = sv_xcalloc((size_t)n + 1, sizeof *s->mean_ns);
	s->nregions = 0;
	for (r = 0; r < n; r++) {
		if (!sums->count[r])
			continue;
		s->names[s->nregions] = sv_xstrdup(p->regions[r]);
		s->mean_ns[s->nregions++] =
			(double)sums->sum[r] / (double)sums->count[r];
	}
}

void sv_scaling_sums_fini(struct sv_scaling_sums *s)
{
	if (!s)
		return;
	free(s->sum);
	free(s->count);
	memset(s, 0, sizeof *s);
}

int sv_scaling_measure(struct sv_scaling_sample *out,
	const struct sv_profile *p, const char *file,
	const struct sv_scaling_opts *opts, struct sv_error *err)
{
	struct sv_scaling_sample s;
	struct sv_scaling_sums sums;
	int rc;

	if (!out || !p)
		return sv_error_set(err, -EINVAL, "no run to measure");
	rc = sv_scaling_sample_begin(&s, p, file, opts, err);
	if (rc)
		return rc;
	rc = sv_scaling_sum(&sums, p, opts, NULL, 0, err);
	if (rc) {
		sv_scaling_sample_fini(&s);
		return rc;
	}
	sv_scaling_sample_end(&s, p, &sums);
	sv_scaling_sums_fini(&sums);
	*out = s;
	return 0;
}

void sv_scaling_sample_fini(struct sv_scaling_sample *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nregions; i++)
		free(s->names[i]);
	free(s->names);
	free(s->mean_ns);
	free(s->file);
	free(s->label);
	free(s->x_text);
	memset(s, 0, sizeof *s);
}

/* ---- combining ------------------------------------------------------------ */

/* A region name and where it is in a sample, for a sorted lookup. */
struct scaling_name {
	const char *name;
	size_t at;
};

static int scaling_name_cmp(const void *a, const void *b)
{
	const struct scaling_name *x = a, *y = b;
	return strcmp(x->name, y->name);
}

static int scaling_double_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Each sample's names sorted, for lookups by name. */
static struct scaling_name **scaling_indexes(
	const struct sv_scaling_sample *sm, size_t n)
{
	struct scaling_name **idx = sv_xcalloc(n, sizeof *idx);
	size_t k, i;

	for (k = 0; k < n; k++) {
		idx[k] = sv_xcalloc(sm[k].nregions + 1, sizeof *idx[k]);
		for (i = 0; i < sm[k].nregions; i++) {
			idx[k][i].name = sm[k].names[i];
			idx[k][i].at = i;
		}
		qsort(idx[k], sm[k].nregions, sizeof *idx[k], scaling_name_cmp);
	}
	return idx;
}

/* The position of name in sample k, or -1. */
static long scaling_find(
	const struct scaling_name *idx, size_t n, const char *name)
{
	struct scaling_name key = {name, 0};
	const struct scaling_name *hit =
		bsearch(&key, idx, n, sizeof key, scaling_name_cmp);
	return hit ? (long)hit->at : -1;
}

/* The distinct x values of the runs into out, each run's point. */
static void scaling_points(
	struct sv_scaling *out, const struct sv_scaling_sample *sm, size_t n)
{
	size_t k, j, m = 0;

	out->xs = sv_xcalloc(n, sizeof *out->xs);
	out->x_texts = sv_xcalloc(n, sizeof *out->x_texts);
	if (out->numeric) {
		double *v = sv_xcalloc(n, sizeof *v);
		for (k = 0; k < n; k++)
			v[k] = sm[k].x;
		qsort(v, n, sizeof *v, scaling_double_cmp);
		for (k = 0; k < n; k++)
			if (!m || v[k] != out->xs[m - 1])
				out->xs[m++] = v[k];
		free(v);
		for (k = 0; k < n; k++) {
			for (j = 0; out->xs[j] != sm[k].x; j++)
				;
			out->runs[k].point = (uint32_t)j;
			out->runs[k].x = sm[k].x;
			if (!out->x_texts[j])
				out->x_texts[j] = scaling_number_text(sm[k].x);
		}
	} else {
		for (k = 0; k < n; k++) {
			for (j = 0;
				j < m && strcmp(out->x_texts[j], sm[k].x_text);
				j++)
				;
			if (j == m) {
				out->x_texts[m] = sv_xstrdup(sm[k].x_text);
				out->xs[m] = (double)m;
				m++;
			}
			out->runs[k].point = (uint32_t)j;
			out->runs[k].x = (double)j;
		}
	}
	out->npoints = m;
}

/* The points of one region from its T in each run (t[k]). */
static void scaling_region(const struct sv_scaling *s,
	struct sv_scaling_region *g, const double *t)
{
	double t0;
	size_t j, k;

	g->points = sv_xcalloc(s->npoints, sizeof *g->points);
	for (k = 0; k < s->nruns; k++) {
		struct sv_scaling_point *pt = &g->points[s->runs[k].point];
		pt->runs++;
		pt->mean_duration += t[k];
	}
	for (j = 0; j < s->npoints; j++) {
		struct sv_scaling_point *pt = &g->points[j];
		pt->x = s->xs[j];
		pt->mean_duration /= (double)pt->runs;
	}
	t0 = g->points[0].mean_duration;
	for (j = 0; j < s->npoints; j++) {
		struct sv_scaling_point *pt = &g->points[j];
		double tx = pt->mean_duration;
		pt->speedup = t0 / tx;
		pt->efficiency = s->numeric ? pt->speedup * s->baseline / pt->x
					    : pt->speedup;
		pt->normalized_runtime = tx / t0;
		pt->weak_efficiency = t0 / tx;
		pt->mean_duration = tx / 1e9;
	}
}

int sv_scaling_combine(struct sv_scaling *out,
	const struct sv_scaling_sample *sm, size_t n,
	const struct sv_scaling_opts *opts, struct sv_error *err)
{
	struct sv_scaling s;
	struct scaling_name **idx;
	double *t;
	size_t k, i;

	if (!out || !sm || n == 0)
		return sv_error_set(err, -EINVAL, "no runs to compare");
	memset(&s, 0, sizeof s);
	s.x_field =
		sv_xstrdup(opts && opts->x_field ? opts->x_field : "num_ranks");
	s.numeric = true;
	for (k = 0; k < n; k++)
		s.numeric = s.numeric && sm[k].x_number;
	s.nruns = n;
	s.runs = sv_xcalloc(n, sizeof *s.runs);
	for (k = 0; k < n; k++) {
		s.runs[k].file = sv_xstrdup(sm[k].file);
		s.runs[k].label = sv_xstrdup(sm[k].label);
		s.runs[k].x_text = sv_xstrdup(sm[k].x_text);
	}
	scaling_points(&s, sm, n);
	s.baseline = s.xs[0];
	s.baseline_text = sv_xstrdup(s.x_texts[0]);

	idx = scaling_indexes(sm, n);
	t = sv_xcalloc(n, sizeof *t);
	s.regions = sv_xcalloc(sm[0].nregions + 1, sizeof *s.regions);
	for (i = 0; i < sm[0].nregions; i++) {
		bool all = true;
		for (k = 0; k < n && all; k++) {
			long at = scaling_find(
				idx[k], sm[k].nregions, sm[0].names[i]);
			all = at >= 0;
			if (all)
				t[k] = sm[k].mean_ns[at];
		}
		if (!all)
			continue;
		s.regions[s.nregions].name = sv_xstrdup(sm[0].names[i]);
		scaling_region(&s, &s.regions[s.nregions++], t);
	}
	for (k = 0; k < n; k++)
		free(idx[k]);
	free(idx);
	free(t);
	*out = s;
	return 0;
}

int sv_scaling_compute(struct sv_scaling *out,
	const struct sv_profile *const *runs, const char *const *files,
	size_t nruns, const struct sv_scaling_opts *opts, struct sv_error *err)
{
	struct sv_scaling_sample *sm;
	size_t k, done;
	int rc = 0;

	if (!out || !runs || nruns == 0)
		return sv_error_set(err, -EINVAL, "no runs to compare");
	sm = sv_xcalloc(nruns, sizeof *sm);
	for (done = 0; done < nruns && !rc; done++)
		rc = sv_scaling_measure(&sm[done], runs[done],
			files ? files[done] : NULL, opts, err);
	if (!rc)
		rc = sv_scaling_combine(out, sm, nruns, opts, err);
	for (k = 0; k < done; k++)
		sv_scaling_sample_fini(&sm[k]);
	free(sm);
	return rc;
}

void sv_scaling_fini(struct sv_scaling *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nruns; i++) {
		free(s->runs[i].label);
		free(s->runs[i].file);
		free(s->runs[i].x_text);
	}
	free(s->runs);
	for (i = 0; i < s->npoints && s->x_texts; i++)
		free(s->x_texts[i]);
	free(s->x_texts);
	free(s->xs);
	for (i = 0; i < s->nregions; i++) {
		free(s->regions[i].name);
		free(s->regions[i].points);
	}
	free(s->regions);
	free(s->x_field);
	free(s->baseline_text);
	memset(s, 0, sizeof *s);
}

bool sv_scaling_x_doubles(const struct sv_scaling *s)
{
	size_t j;

	if (!s || !s->numeric || s->npoints < 2 || !(s->xs[0] > 0))
		return false;
	for (j = 1; j < s->npoints; j++)
		if (s->xs[j] != 2 * s->xs[j - 1])
			return false;
	return true;
}
