/*
 * mode_trend_priv.h: what the trend view's two files share
 * (mode_trend.c: the state, the worker, the keys; mode_trend_draw.c: the
 * chart, the rank rows and the table).  Private to src/ui/mode_trend*.c.
 *
 * The chart's window: column c of the chart_w columns stands for the
 * iterations [ws + c * per, ws + (c + 1) * per) (per >= 1), so the whole
 * run fits when per is the fit (ceil(npoints / chart_w)).  The columns'
 * figures (the band, the median and each rank's mean) are kept in a cache
 * keyed on the window, and made again only when it changes.
 */
#ifndef SCOPEVIEW_UI_MODE_TREND_PRIV_H
#define SCOPEVIEW_UI_MODE_TREND_PRIV_H

#include "scopeview/mode.h"

#include "scopeview/job.h"
#include "scopeview/list.h"
#include "scopeview/trend.h"

/* Each rank's prefix sums are kept every TREND_BLOCK iterations. */
#define TREND_BLOCK 4

/* Rows the layout gives each part of the screen (mode_trend_draw.c). */
struct trend_geom {
	bool ok; /* the screen has room for the chart */
	int chart_x, chart_w, chart_y, chart_h;
	int marks_y, axis_y, labels_y;
	int spark_y, spark_h; /* the heading row, then the rank rows */
	int table_y, table_h; /* the heading row, then the list's rows */
	int changes_y;
};

/* One column of the chart. */
struct trend_col {
	bool has;       /* some iteration falls in it */
	int64_t lo, hi; /* the band: min of the mins, max of the maxes */
	double med[2];  /* the mean median of each half of it */
};

struct trend_cache {
	bool valid;
	/* The key: what the columns were made from. */
	uint64_t serial;
	long ws, per;
	int cols, groups, group;
	bool spark;
	/* The columns, and their range of values (lo < hi). */
	struct trend_col *col;
	size_t col_cap;
	double lo, hi;
	/* The rank rows' means, groups x cols (NaN: no iteration), and
	 * their range. */
	double *spark_v;
	size_t spark_cap;
	double spark_lo, spark_hi;
};

/* One computation of the trend on a worker: its input and result. */
struct trend_work {
	struct sv_job job;
	struct sv_mode *m; /* whose view, for adopt on the loop */
	const struct sv_profile *p;
	uint32_t region;
	enum sv_trend_metric metric;
	bool *rank_on; /* a copy of the session's rank filter, or NULL */
	uint32_t nrank_on;
	uint64_t ncalls; /* of the region on the ranks taken */
	struct sv_trend out;
	double *psum; /* each rank's prefix sums (mode_trend.c) */
	size_t *poff;
	struct sv_error err;
	int rc;
};

struct trend_data {
	struct sv_list list; /* over the iterations */
	long region;         /* the region shown, -1 */
	enum sv_trend_metric metric;
	char ranks[64]; /* the rank filter it was made for */
	bool valid;     /* t holds the trend of region */
	struct sv_trend t;
	/* Rank i's prefix sums of its values: psum[poff[i] + k] is the sum
	 * of its first min(k * TREND_BLOCK, len) values, k = 0 ..
	 * ceil(len / TREND_BLOCK), in double (no overflow). */
	double *psum;
	size_t *poff;
	uint64_t serial; /* bumped whenever t changes */
	char error[512]; /* why there is no trend (shown) */
	uint64_t ncalls; /* of the trend being made or shown */
	long want;       /* the cursor's iteration once it is made */
	/* The worker (on the session's jobs). */
	struct trend_work *work;
	bool busy, stale, rebuilding;
	/* The chart's window: per 0 is the fit. */
	long ws, per;
	bool spark; /* the rank rows (b) */
	struct trend_geom geom;
	struct trend_cache cache;
};

/* The layout of a w x h screen for d. */
void sv_mode_trend_geom(
	const struct trend_data *d, int w, int h, struct trend_geom *g);
/* The iterations a column stands for now (>= 1). */
long sv_mode_trend_per(const struct trend_data *d);
/* Move the window so that the cursor's iteration is on the chart. */
void sv_mode_trend_follow(struct trend_data *d);
/* The value rank index i (of d->t) has at iteration k (k < its length). */
int64_t sv_mode_trend_value(const struct trend_data *d,
	const struct sv_profile *p, size_t i, long k);
/* Rank index i's sum over its iterations [a, b) (clamped to its length)
 * and how many there are (*n); sums over whole blocks come from the
 * prefix sums, within one block from the profile. */
double sv_mode_trend_sum(const struct trend_data *d, const struct sv_profile *p,
	size_t i, long a, long b, long *n);
/* The change point of d->t at iteration k, or NULL (the first, when
 * several ranks change there). */
const struct sv_trend_change *sv_mode_trend_change_at(
	const struct trend_data *d, long k);
/* Draw the view. */
void sv_mode_trend_draw(
	const struct sv_mode *m, struct sv_grid *g, struct sv_rect r);
/* The list's row drawer: iteration row of the table. */
void sv_mode_trend_row(const struct sv_mode *m, const struct sv_list *l,
	struct sv_grid *g, long row, int x, int y, int w, int style);
/* Free the cache's buffers. */
void sv_mode_trend_cache_fini(struct trend_cache *c);

#endif
