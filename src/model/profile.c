/*
 * profile.c: the columnar profile model and the rebuilding of nesting.
 *
 * Loaders append regions, rows and whole columns through the builder calls;
 * sv_profile_finish() then groups calls into lanes (FORMAT.md 1.6), sorts
 * each lane by (start asc, end desc) and rebuilds depth, parent and
 * exclusive time with one stack pass, as scope-profiler's call_stack.py
 * does.  Sorting is a radix sort on the start times followed by a fix-up of
 * equal-start runs, so ten million calls sort in well under a second.
 *
 * Nothing here reads files or knows about HDF5, layout or terminals.
 */
#include "scopeview/profile.h"

#include <errno.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scopeview/nest.h"
#include "scopeview/radix.h"

/* At most this many nesting warnings are spelled out; the rest are
 * counted in one closing line. */
#define PROFILE_MAX_NEST_WARNINGS 20

struct sv_profile *sv_profile_new(const char *path)
{
	struct sv_profile *p = sv_xcalloc(1, sizeof *p);
	p->path = sv_xstrdup(path ? path : "");
	p->has_calls = true;
	return p;
}

static void profile_free_strs(char **v, size_t n)
{
	size_t i;
	if (!v)
		return;
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void sv_profile_free(struct sv_profile *p)
{
	size_t i;

	if (!p)
		return;
	free(p->path);
	profile_free_strs(p->regions, p->nregions);
	for (i = 0; i < p->nrows; i++) {
		free(p->rows[i].source_file);
		free(p->rows[i].source_text);
		profile_free_strs(p->rows[i].tags, p->rows[i].ntags);
	}
	free(p->rows);
	free(p->start_ns);
	free(p->end_ns);
	free(p->row_of);
	free(p->gpu_ns);
	free(p->call_id);
	free(p->parent_id);
	free(p->thread_id);
	free(p->task_id);
	free(p->await_ns);
	for (i = 0; i < p->ncolumns; i++) {
		free(p->columns[i].name);
		free(p->columns[i].i);
		free(p->columns[i].f);
	}
	free(p->columns);
	free(p->depth);
	free(p->parent);
	free(p->exclusive);
	free(p->lane_of);
	for (i = 0; i < p->nlanes; i++) {
		free(p->lanes[i].calls);
		free(p->lanes[i].label);
	}
	free(p->lanes);
	for (i = 0; i < p->nmeta; i++) {
		free(p->meta[i].key);
		free(p->meta[i].text);
		profile_free_strs(p->meta[i].strs, p->meta[i].nstrs);
	}
	free(p->meta);
	for (i = 0; i < p->nthreads; i++)
		free(p->threads[i].name);
	free(p->threads);
	for (i = 0; i < p->ntasks; i++) {
		free(p->tasks[i].kind);
		free(p->tasks[i].name);
		free(p->tasks[i].coro_name);
	}
	free(p->tasks);
	profile_free_strs(p->warnings, p->nwarnings);
	free(p);
}

void sv_profile_warn(struct sv_profile *p, const char *fmt, ...)
{
	va_list ap;
	sv_grow((void **)&p->warnings, &p->warn_cap, p->nwarnings + 1,
		sizeof *p->warnings);
	va_start(ap, fmt);
	p->warnings[p->nwarnings++] = sv_xvasprintf(fmt, ap);
	va_end(ap);
}

uint32_t sv_profile_add_region(struct sv_profile *p, const char *name)
{
	sv_grow((void **)&p->regions, &p->region_cap, (size_t)p->nregions + 1,
		sizeof *p->regions);
	p->regions[p->nregions] = sv_utf8_sanitize(name, strlen(name));
	return p->nregions++;
}

int64_t sv_profile_find_region(const struct sv_profile *p, const char *name)
{
	uint32_t i;
	for (i = 0; i < p->nregions; i++)
		if (!strcmp(p->regions[i], name))
			return i;
	return -1;
}

static void profile_resize_calls(struct sv_profile *p, size_t cap)
{
	size_t i;
	p->start_ns = sv_xreallocarray(p->start_ns, cap, sizeof(int64_t));
	p->end_ns = sv_xreallocarray(p->end_ns, cap, sizeof(int64_t));
	p->row_of = sv_xreallocarray(p->row_of, cap, sizeof(uint32_t));
	for (i = 0; i < p->noptional; i++)
		*p->optional[i].col = sv_xreallocarray(
			*p->optional[i].col, cap, sizeof(int64_t));
	p->call_cap = cap;
}

void sv_profile_reserve_calls(struct sv_profile *p, uint64_t n)
{
	if (n > SV_MAX_CALLS)
		n = SV_MAX_CALLS;
	if (n > p->call_cap)
		profile_resize_calls(p, (size_t)n);
}

struct sv_row *sv_profile_add_row(struct sv_profile *p, uint32_t rank,
	uint32_t region, uint64_t count, struct sv_error *err)
{
	struct sv_row *r;
	uint64_t calls = p->has_calls ? count : 0;
	size_t i, c;

	if ((uint64_t)p->ncalls + calls > SV_MAX_CALLS) {
		sv_error_set(err, -E2BIG,
			"%s: more than %" PRIu64
			" calls; scopeview cannot hold "
			"this profile",
			p->path, (uint64_t)SV_MAX_CALLS);
		return NULL;
	}
	if (p->nrows >= UINT32_MAX) {
		sv_error_set(err, -E2BIG, "%s: too many index rows", p->path);
		return NULL;
	}
	sv_grow((void **)&p->rows, &p->row_cap, p->nrows + 1, sizeof *p->rows);
	r = &p->rows[p->nrows];
	memset(r, 0, sizeof *r);
	r->rank = rank;
	r->region = region;
	r->first = p->ncalls;
	r->count = count;
	r->source_line = -1;
	r->exclusive_total = -1;
	if (calls) {
		size_t need = (size_t)p->ncalls + (size_t)calls;
		if (need > p->call_cap) {
			size_t cap = p->call_cap ? p->call_cap : 1024;
			while (cap < need)
				cap = cap > SIZE_MAX / 2 ? need : cap * 2;
			profile_resize_calls(p, cap);
		}
		for (c = p->ncalls; c < need; c++)
			p->row_of[c] = (uint32_t)p->nrows;
		for (i = 0; i < p->noptional; i++)
			for (c = p->ncalls; c < need; c++)
				(*p->optional[i].col)[c] = p->optional[i].fill;
		p->ncalls = (uint32_t)need;
	}
	p->nrows++;
	return r;
}

int64_t *sv_profile_column(struct sv_profile *p, int64_t **col, int64_t fill)
{
	size_t c;
	if (*col)
		return *col;
	if (p->noptional >= sizeof p->optional / sizeof p->optional[0])
		sv_die("too many optional columns");
	*col = sv_xmalloc((p->call_cap ? p->call_cap : 1) * sizeof(int64_t));
	for (c = 0; c < p->ncalls; c++)
		(*col)[c] = fill;
	p->optional[p->noptional].col = col;
	p->optional[p->noptional].fill = fill;
	p->noptional++;
	return *col;
}

struct sv_column *sv_profile_add_extra(
	struct sv_profile *p, const char *name, bool is_float)
{
	struct sv_column *c;
	p->columns = sv_xreallocarray(
		p->columns, p->ncolumns + 1, sizeof *p->columns);
	c = &p->columns[p->ncolumns++];
	c->name = sv_utf8_sanitize(name, strlen(name));
	c->is_float = is_float;
	c->i = is_float ? NULL : sv_xcalloc(p->ncalls, sizeof(int64_t));
	c->f = is_float ? sv_xcalloc(p->ncalls, sizeof(double)) : NULL;
	return c;
}

struct sv_meta *sv_profile_add_meta(
	struct sv_profile *p, const char *key, enum sv_meta_kind kind)
{
	struct sv_meta *m;
	sv_grow((void **)&p->meta, &p->meta_cap, p->nmeta + 1, sizeof *p->meta);
	m = &p->meta[p->nmeta++];
	memset(m, 0, sizeof *m);
	m->key = sv_utf8_sanitize(key, strlen(key));
	m->kind = kind;
	return m;
}

const struct sv_meta *sv_profile_meta(
	const struct sv_profile *p, const char *key)
{
	size_t i;
	for (i = 0; i < p->nmeta; i++)
		if (!strcmp(p->meta[i].key, key))
			return &p->meta[i];
	return NULL;
}

struct sv_thread *sv_profile_add_thread(struct sv_profile *p)
{
	struct sv_thread *t;
	sv_grow((void **)&p->threads, &p->thread_cap, p->nthreads + 1,
		sizeof *p->threads);
	t = &p->threads[p->nthreads++];
	memset(t, 0, sizeof *t);
	t->start_ns = t->end_ns = t->cpu_ns = -1;
	return t;
}

struct sv_task *sv_profile_add_task(struct sv_profile *p)
{
	struct sv_task *t;
	sv_grow((void **)&p->tasks, &p->task_cap, p->ntasks + 1,
		sizeof *p->tasks);
	t = &p->tasks[p->ntasks++];
	memset(t, 0, sizeof *t);
	t->thread_index = t->created_ns = t->done_ns = -1;
	return t;
}

const struct sv_thread *sv_profile_thread(
	const struct sv_profile *p, uint32_t rank, int64_t index)
{
	size_t i;
	for (i = 0; i < p->nthreads; i++)
		if (p->threads[i].rank == rank && p->threads[i].index == index)
			return &p->threads[i];
	return NULL;
}

const struct sv_task *sv_profile_task(
	const struct sv_profile *p, uint32_t rank, int64_t index)
{
	size_t i;
	for (i = 0; i < p->ntasks; i++)
		if (p->tasks[i].rank == rank && p->tasks[i].index == index)
			return &p->tasks[i];
	return NULL;
}

int64_t sv_profile_min_start(const struct sv_profile *p)
{
	int64_t m = 0;
	bool any = false;
	uint32_t c;
	for (c = 0; c < p->ncalls; c++)
		if (!any || p->start_ns[c] < m) {
			m = p->start_ns[c];
			any = true;
		}
	return m;
}

int64_t sv_profile_max_end(const struct sv_profile *p)
{
	int64_t m = 0;
	bool any = false;
	uint32_t c;
	for (c = 0; c < p->ncalls; c++)
		if (!any || p->end_ns[c] > m) {
			m = p->end_ns[c];
			any = true;
		}
	return m;
}

int64_t sv_profile_time_origin(const struct sv_profile *p)
{
	size_t i;
	int64_t m = 0;
	bool any = false;

	if (p->has_start_time)
		return p->start_time_ns;
	if (p->ncalls)
		return sv_profile_min_start(p);
	for (i = 0; i < p->nrows; i++)
		if (p->rows[i].has_summary && p->rows[i].count &&
			(!any || p->rows[i].summary.start_minimum < m)) {
			m = p->rows[i].summary.start_minimum;
			any = true;
		}
	return m;
}

/* ---- finishing: metadata ------------------------------------------------ */

static int meta_cmp(const void *a, const void *b)
{
	const struct sv_meta *x = a, *y = b;
	return strcmp(x->key, y->key);
}

/*
 * Python's float() of a string, as far as a time in ns needs it: ASCII
 * white space around (space, \t \n \v \f \r), a sign, decimal digits
 * with single underscores between digits, a point, an exponent.  Hex,
 * inf and nan are refused (an origin must be a finite time), as is
 * anything float() would refuse.  Fractions of a ns are truncated.
 */
static bool meta_parse_float(const char *text, int64_t *out)
{
	char buf[128];
	const char *s = text;
	size_t n = 0;
	bool digit_before = false, any_digit = false;
	char *end;
	double d;

	if (!text)
		return false;
	while (*s && strchr(" \t\n\v\f\r", *s))
		s++;
	for (; *s && !strchr(" \t\n\v\f\r", *s); s++) {
		char c = *s;
		if (c == '_') {
			/* only between two digits */
			if (!digit_before || !(s[1] >= '0' && s[1] <= '9'))
				return false;
			continue;
		}
		if (!strchr("0123456789+-.eE", c) || n + 1 >= sizeof buf)
			return false;
		digit_before = c >= '0' && c <= '9';
		any_digit |= digit_before;
		buf[n++] = c;
	}
	while (*s && strchr(" \t\n\v\f\r", *s))
		s++;
	if (*s || !any_digit)
		return false;
	buf[n] = '\0';
	d = strtod(buf, &end);
	if (*end || !(d > -9.2e18 && d < 9.2e18))
		return false;
	*out = (int64_t)d;
	return true;
}

/* A metadata time as Python's float() would take it, in ns. */
static bool meta_time(const struct sv_profile *p, const char *key, int64_t *out)
{
	const struct sv_meta *m = sv_profile_meta(p, key);

	if (!m)
		return false;
	switch (m->kind) {
	case SV_META_INT:
	case SV_META_BOOL:
		*out = m->i;
		return true;
	case SV_META_FLOAT:
		if (!(m->f > -9.2e18 && m->f < 9.2e18))
			return false;
		*out = (int64_t)m->f;
		return true;
	case SV_META_STRING:
		return meta_parse_float(m->text, out);
	default:
		return false;
	}
}

/* ---- finishing: lanes --------------------------------------------------- */

/* scope-profiler's lane of a call (concurrency.py). */
static int64_t lane_key(const struct sv_profile *p, uint32_t c)
{
	int64_t task = p->task_id ? p->task_id[c] : -1;
	int64_t thread = p->thread_id ? p->thread_id[c] : -1;
	if (task >= 0)
		return task;
	return thread < 0 ? -1 : -2 - thread;
}

struct lane_slot {
	uint32_t rank;
	int64_t key;
	uint32_t lane; /* UINT32_MAX = empty slot */
};

static uint64_t lane_hash(uint32_t rank, int64_t key)
{
	uint64_t h = ((uint64_t)rank << 40) ^ (uint64_t)key;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

/* Sort position of a lane: thread lanes before their tasks, unknown
 * threads last. */
static int lane_cmp(const void *a, const void *b)
{
	const struct sv_lane *x = a, *y = b;
	uint64_t tx = (uint64_t)x->thread,
		 ty = (uint64_t)y->thread; /* -1 last */
	uint64_t kx = (uint64_t)x->task, ky = (uint64_t)y->task;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (tx != ty)
		return tx < ty ? -1 : 1;
	/* the thread's own lane (task -1) first, then its tasks */
	kx++;
	ky++;
	if (kx != ky)
		return kx < ky ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

static const char *coro_tail(const char *coro)
{
	const char *dot = strrchr(coro, '.');
	return dot ? dot + 1 : coro;
}

static char *lane_label(const struct sv_profile *p, const struct sv_lane *l)
{
	const struct sv_thread *th;
	const struct sv_task *tk;
	char *thread_name;
	char *label;

	if (!p->thread_id && !p->task_id)
		return sv_xasprintf("r%" PRIu32, l->rank);
	th = l->thread >= 0 ? sv_profile_thread(p, l->rank, l->thread) : NULL;
	if (th && th->name && *th->name)
		thread_name = sv_xstrdup(th->name);
	else if (l->thread >= 0)
		thread_name = sv_xasprintf("thread %" PRId64, l->thread);
	else
		thread_name = NULL;
	if (l->task < 0) {
		label = thread_name ? sv_xasprintf("r%" PRIu32 " %s", l->rank,
					      thread_name)
				    : sv_xasprintf("r%" PRIu32 " unknown lane",
					      l->rank);
		free(thread_name);
		return label;
	}
	tk = sv_profile_task(p, l->rank, l->task);
	if (tk && tk->name && *tk->name) {
		const char *tail = tk->coro_name && *tk->coro_name
					   ? coro_tail(tk->coro_name)
					   : NULL;
		label = sv_xasprintf("r%" PRIu32 " %s%s%s%s%s", l->rank,
			tk->name, tail ? " " : "", tail ? tail : "",
			tail ? "()" : "", thread_name ? " on " : "");
	} else {
		label = sv_xasprintf("r%" PRIu32 " task %" PRId64 "%s", l->rank,
			l->task, thread_name ? " on " : "");
	}
	if (thread_name) {
		char *full = sv_xasprintf("%s%s", label, thread_name);
		free(label);
		label = full;
	}
	free(thread_name);
	return label;
}

/* Group the calls into lanes, in display order; fills lane_of and each
 * lane's call list (unsorted). */
static void profile_build_lanes(struct sv_profile *p)
{
	size_t cap = 64, mask, nlanes = 0, lane_cap = 0, i;
	struct lane_slot *slots;
	struct sv_lane *lanes = NULL;
	uint32_t *remap, *fill;
	uint32_t c, last_rank = 0;
	int64_t last_key = 0;

	while (cap < (size_t)p->nrows * 2 + 64)
		cap *= 2;
	slots = sv_xmalloc(cap * sizeof *slots);
	for (i = 0; i < cap; i++)
		slots[i].lane = UINT32_MAX;
	mask = cap - 1;
	p->lane_of = sv_xmalloc((p->ncalls ? p->ncalls : 1) * sizeof(uint32_t));

	for (c = 0; c < p->ncalls; c++) {
		uint32_t rank = sv_call_rank(p, c);
		int64_t key = lane_key(p, c);
		size_t h;
		/* Neighbouring calls mostly share a lane: skip the lookup. */
		if (c && rank == last_rank && key == last_key) {
			p->lane_of[c] = p->lane_of[c - 1];
			lanes[p->lane_of[c]].ncalls++;
			continue;
		}
		last_rank = rank;
		last_key = key;
		h = (size_t)lane_hash(rank, key) & mask;
		while (slots[h].lane != UINT32_MAX &&
			(slots[h].rank != rank || slots[h].key != key))
			h = (h + 1) & mask;
		if (slots[h].lane == UINT32_MAX) {
			struct sv_lane *l;
			sv_grow((void **)&lanes, &lane_cap, nlanes + 1,
				sizeof *lanes);
			l = &lanes[nlanes];
			memset(l, 0, sizeof *l);
			l->rank = rank;
			l->key = key;
			l->task = key >= 0 ? key : -1;
			l->thread = key <= -2 ? -2 - key : -1;
			if (key >= 0) {
				const struct sv_task *t =
					sv_profile_task(p, rank, key);
				if (t && t->thread_index >= 0)
					l->thread = t->thread_index;
				else if (p->thread_id && p->thread_id[c] >= 0)
					l->thread = p->thread_id[c];
			}
			slots[h].rank = rank;
			slots[h].key = key;
			slots[h].lane = (uint32_t)nlanes++;
			/* Keep the table at most half full. */
			if (nlanes * 2 > cap) {
				size_t ncap = cap * 2, j;
				struct lane_slot *ns =
					sv_xmalloc(ncap * sizeof *ns);
				for (j = 0; j < ncap; j++)
					ns[j].lane = UINT32_MAX;
				for (j = 0; j < cap; j++) {
					size_t g;
					if (slots[j].lane == UINT32_MAX)
						continue;
					g = (size_t)lane_hash(slots[j].rank,
						    slots[j].key) &
					    (ncap - 1);
					while (ns[g].lane != UINT32_MAX)
						g = (g + 1) & (ncap - 1);
					ns[g] = slots[j];
				}
				free(slots);
				slots = ns;
				cap = ncap;
				mask = cap - 1;
				h = (size_t)lane_hash(rank, key) & mask;
				while (slots[h].rank != rank ||
					slots[h].key != key)
					h = (h + 1) & mask;
			}
		}
		p->lane_of[c] = slots[h].lane;
		lanes[slots[h].lane].ncalls++;
	}
	free(slots);

	/* Sort the lanes for display and renumber lane_of. */
	for (i = 0; i < nlanes; i++)
		lanes[i].depth_rows = (uint32_t)i; /* remember the old index */
	if (nlanes > 1)
		qsort(lanes, nlanes, sizeof *lanes, lane_cmp);
	remap = sv_xmalloc((nlanes ? nlanes : 1) * sizeof *remap);
	for (i = 0; i < nlanes; i++) {
		remap[lanes[i].depth_rows] = (uint32_t)i;
		lanes[i].depth_rows = 0;
		lanes[i].calls =
			sv_xmalloc((lanes[i].ncalls ? lanes[i].ncalls : 1) *
				   sizeof(uint32_t));
		lanes[i].label = lane_label(p, &lanes[i]);
	}
	fill = sv_xcalloc(nlanes ? nlanes : 1, sizeof *fill);
	for (c = 0; c < p->ncalls; c++) {
		uint32_t l = remap[p->lane_of[c]];
		p->lane_of[c] = l;
		lanes[l].calls[fill[l]++] = c;
	}
	free(fill);
	free(remap);
	p->lanes = lanes;
	p->nlanes = nlanes;
}

/* ---- finishing: sorting a lane ------------------------------------------ */

/* Order of calls that start together: longer first (the parent), then by
 * region display position, then storage order, as scope-profiler's stable
 * lexsort over its display-ordered regions. */
struct tie_ctx {
	const struct sv_profile *p;
	const uint32_t *region_pos;
};

static int tie_before(const struct tie_ctx *t, uint32_t a, uint32_t b)
{
	const struct sv_profile *p = t->p;
	uint32_t ra, rb;
	if (p->end_ns[a] != p->end_ns[b])
		return p->end_ns[a] > p->end_ns[b];
	ra = t->region_pos[sv_call_region(p, a)];
	rb = t->region_pos[sv_call_region(p, b)];
	if (ra != rb)
		return ra < rb;
	return a < b;
}

static void tie_sort(const struct tie_ctx *t, uint32_t *v, size_t n)
{
	size_t i, j;
	/* Equal starts come in small groups (a parent and its first child);
	 * insertion sort, with a merge sort fallback for large groups. */
	if (n <= 32) {
		for (i = 1; i < n; i++) {
			uint32_t x = v[i];
			for (j = i; j > 0 && tie_before(t, x, v[j - 1]); j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return;
	} else {
		size_t h = n / 2, a = 0, b = h, o = 0;
		uint32_t *tmp = sv_xmalloc(n * sizeof *tmp);
		tie_sort(t, v, h);
		tie_sort(t, v + h, n - h);
		while (a < h && b < n)
			tmp[o++] = tie_before(t, v[b], v[a]) ? v[b++] : v[a++];
		while (a < h)
			tmp[o++] = v[a++];
		while (b < n)
			tmp[o++] = v[b++];
		memcpy(v, tmp, n * sizeof *tmp);
		free(tmp);
	}
}

/* Sort calls[0..n) by start asc, then tie order; scratch holds 2n items. */
static void lane_sort(const struct tie_ctx *t, uint32_t *calls, size_t n,
	struct sv_radix_kv *a, struct sv_radix_kv *b)
{
	const struct sv_profile *p = t->p;
	int64_t lo;
	size_t i, start;
	bool sorted = true;

	if (n < 2)
		return;
	lo = p->start_ns[calls[0]];
	for (i = 1; i < n; i++) {
		int64_t s = p->start_ns[calls[i]];
		if (s < lo)
			lo = s;
		if (sorted && s < p->start_ns[calls[i - 1]])
			sorted = false;
	}
	if (!sorted) {
		for (i = 0; i < n; i++) {
			a[i].key =
				(uint64_t)p->start_ns[calls[i]] - (uint64_t)lo;
			a[i].value = calls[i];
		}
		/* Stable, so equal starts keep call order. */
		sv_radix_sort(a, b, n);
		for (i = 0; i < n; i++)
			calls[i] = a[i].value;
	}
	/* Order every run of equal starts. */
	for (start = 0; start < n;) {
		size_t end = start + 1;
		int64_t s = p->start_ns[calls[start]];
		while (end < n && p->start_ns[calls[end]] == s)
			end++;
		if (end - start > 1)
			tie_sort(t, calls + start, end - start);
		start = end;
	}
}

/* ---- finishing: nesting ------------------------------------------------- */

/* What nesting found in one lane: the first few overlap messages (to be
 * merged in lane order, so the warnings do not depend on threads). */
struct nest_out {
	size_t overlaps;
	char *msgs[PROFILE_MAX_NEST_WARNINGS];
	size_t nmsgs;
};

static void nest_describe(
	const struct sv_profile *p, uint32_t c, char *buf, size_t n)
{
	const struct sv_row *r = &p->rows[p->row_of[c]];
	snprintf(buf, n, "'%s' call %" PRIu64 " [%" PRId64 ", %" PRId64 "] ns",
		p->regions[r->region], (uint64_t)c - r->first, p->start_ns[c],
		p->end_ns[c]);
}

/* What nesting a lane needs besides the profile: where its overlap
 * messages go. */
struct nest_ctx {
	const struct sv_profile *p;
	const struct sv_lane *l;
	struct nest_out *n;
};

/* A partial overlap: scope-profiler's NestingError.  sv_nest_lane keeps
 * the call where it starts and charges the parent only for the part it
 * covers; here it is counted and the first few are spelled out. */
static void nest_overlap(void *ctx, uint32_t c, uint32_t par)
{
	struct nest_ctx *x = ctx;
	struct nest_out *n = x->n;

	if (n->nmsgs < PROFILE_MAX_NEST_WARNINGS) {
		char a[256], b[256];
		nest_describe(x->p, c, a, sizeof a);
		nest_describe(x->p, par, b, sizeof b);
		n->msgs[n->nmsgs++] =
			sv_xasprintf("rank %" PRIu32 ": %s starts "
				     "inside %s but ends after it "
				     "(calls not properly nested)",
				x->l->rank, a, b);
	}
	n->overlaps++;
}

static void lane_nest(struct sv_profile *p, struct sv_lane *l, uint32_t *stack,
	struct nest_out *n)
{
	struct nest_ctx x = {p, l, n};
	struct sv_nest nest = {p->start_ns, p->end_ns, p->parent, p->depth,
		p->exclusive, nest_overlap, &x};
	uint32_t rows = sv_nest_lane(&nest, l->calls, l->ncalls, stack);

	if (rows > l->depth_rows)
		l->depth_rows = rows;
}

/* Display position of each region: stable by (min first start over ranks,
 * base index), zero-call regions at 0 (FORMAT.md 5.3). */
static uint32_t *region_positions(const struct sv_profile *p)
{
	int64_t *first =
		sv_xmalloc((p->nregions ? p->nregions : 1) * sizeof *first);
	uint32_t *order =
		sv_xmalloc((p->nregions ? p->nregions : 1) * sizeof *order);
	uint32_t *pos =
		sv_xmalloc((p->nregions ? p->nregions : 1) * sizeof *pos);
	bool *seen = sv_xcalloc(p->nregions ? p->nregions : 1, sizeof *seen);
	uint32_t i, j;
	size_t r;

	for (i = 0; i < p->nregions; i++)
		first[i] = 0;
	for (r = 0; r < p->nrows; r++) {
		const struct sv_row *row = &p->rows[r];
		uint64_t k;
		for (k = 0; k < row->count && p->has_calls; k++) {
			int64_t s = p->start_ns[row->first + k];
			if (!seen[row->region] || s < first[row->region]) {
				first[row->region] = s;
				seen[row->region] = true;
			}
		}
	}
	/* insertion sort keeps ties in base order; regions are few */
	for (i = 0; i < p->nregions; i++) {
		uint32_t x = i;
		for (j = i; j > 0 && first[order[j - 1]] > first[x]; j--)
			order[j] = order[j - 1];
		order[j] = x;
	}
	for (i = 0; i < p->nregions; i++)
		pos[order[i]] = i;
	free(first);
	free(order);
	free(seen);
	return pos;
}

/* One worker sorts and nests a share of the lanes. */
struct finish_worker {
	struct sv_profile *p;
	const struct tie_ctx *tie;
	size_t *lanes; /* indices of its lanes */
	size_t nlanes;
	struct nest_out *out; /* per lane of the profile */
	pthread_t thread;
	bool started;
};

static void *finish_work(void *arg)
{
	struct finish_worker *w = arg;
	size_t i, maxlane = 0;
	struct sv_radix_kv *a, *b;
	uint32_t *stack;

	for (i = 0; i < w->nlanes; i++)
		if (w->p->lanes[w->lanes[i]].ncalls > maxlane)
			maxlane = w->p->lanes[w->lanes[i]].ncalls;
	a = sv_xmalloc((maxlane ? maxlane : 1) * sizeof *a);
	b = sv_xmalloc((maxlane ? maxlane : 1) * sizeof *b);
	stack = sv_xmalloc((maxlane ? maxlane : 1) * sizeof *stack);
	for (i = 0; i < w->nlanes; i++) {
		struct sv_lane *l = &w->p->lanes[w->lanes[i]];
		lane_sort(w->tie, l->calls, l->ncalls, a, b);
		lane_nest(w->p, l, stack, &w->out[w->lanes[i]]);
	}
	free(a);
	free(b);
	free(stack);
	return NULL;
}

static int lane_size_cmp(const void *x, const void *y, void *ctx)
{
	const struct sv_lane *lanes = ctx;
	uint32_t a = lanes[*(const size_t *)x].ncalls;
	uint32_t b = lanes[*(const size_t *)y].ncalls;
	return a > b ? -1 : a < b;
}

/* Sort and nest every lane, on up to FINISH_MAX_THREADS threads when the
 * profile is large: lanes are independent, so each is one piece of work,
 * handed out largest first to the least loaded worker. */
#define FINISH_MAX_THREADS      4
#define FINISH_THREAD_MIN_CALLS 200000

static void profile_nest_lanes(struct sv_profile *p, const struct tie_ctx *tie)
{
	struct finish_worker w[FINISH_MAX_THREADS];
	uint64_t load[FINISH_MAX_THREADS] = {0};
	struct nest_out *out =
		sv_xcalloc(p->nlanes ? p->nlanes : 1, sizeof *out);
	size_t *order = sv_xmalloc((p->nlanes ? p->nlanes : 1) * sizeof *order);
	size_t nw = 1, i, j, overlaps = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	if (p->ncalls >= FINISH_THREAD_MIN_CALLS && p->nlanes > 1 && ncpu > 1)
		nw = (size_t)ncpu < FINISH_MAX_THREADS ? (size_t)ncpu
						       : FINISH_MAX_THREADS;
	if (nw > p->nlanes)
		nw = p->nlanes ? p->nlanes : 1;
	for (i = 0; i < nw; i++) {
		w[i].p = p;
		w[i].tie = tie;
		w[i].lanes = sv_xmalloc(
			(p->nlanes ? p->nlanes : 1) * sizeof *w[i].lanes);
		w[i].nlanes = 0;
		w[i].out = out;
	}
	for (i = 0; i < p->nlanes; i++)
		order[i] = i;
	qsort_r(order, p->nlanes, sizeof *order, lane_size_cmp, p->lanes);
	for (i = 0; i < p->nlanes; i++) {
		size_t best = 0;
		for (j = 1; j < nw; j++)
			if (load[j] < load[best])
				best = j;
		w[best].lanes[w[best].nlanes++] = order[i];
		load[best] += p->lanes[order[i]].ncalls;
	}
	for (i = 1; i < nw; i++) {
		w[i].started =
			!pthread_create(&w[i].thread, NULL, finish_work, &w[i]);
		if (!w[i].started)
			finish_work(
				&w[i]); /* no thread to be had: do it here */
	}
	finish_work(&w[0]);
	for (i = 1; i < nw; i++)
		if (w[i].started)
			pthread_join(w[i].thread, NULL);

	for (i = 0; i < p->nlanes; i++) {
		for (j = 0; j < out[i].nmsgs; j++) {
			if (overlaps + j < PROFILE_MAX_NEST_WARNINGS)
				sv_profile_warn(p, "%s", out[i].msgs[j]);
			free(out[i].msgs[j]);
		}
		overlaps += out[i].overlaps;
	}
	if (overlaps > PROFILE_MAX_NEST_WARNINGS)
		sv_profile_warn(p,
			"%zu more calls start inside another call of their "
			"lane but end after it",
			overlaps - PROFILE_MAX_NEST_WARNINGS);
	for (i = 0; i < nw; i++)
		free(w[i].lanes);
	free(order);
	free(out);
}

int sv_profile_finish(struct sv_profile *p, struct sv_error *err)
{
	struct tie_ctx tie;
	size_t reversed = 0;
	uint32_t c;

	(void)err;
	if (p->nmeta > 1)
		qsort(p->meta, p->nmeta, sizeof *p->meta, meta_cmp);
	p->has_start_time = meta_time(p, "start_time_ns", &p->start_time_ns);
	p->has_finalize_time =
		meta_time(p, "finalize_time_ns", &p->finalize_time_ns);

	if (!p->has_calls)
		p->ncalls = 0;
	for (c = 0; c < p->ncalls; c++)
		if (p->end_ns[c] < p->start_ns[c]) {
			if (reversed < PROFILE_MAX_NEST_WARNINGS) {
				char a[256];
				nest_describe(p, c, a, sizeof a);
				sv_profile_warn(p,
					"rank %" PRIu32 ": %s ends before it "
					"starts (figures kept as stored)",
					sv_call_rank(p, c), a);
			}
			reversed++;
		}
	if (reversed > PROFILE_MAX_NEST_WARNINGS)
		sv_profile_warn(p, "%zu more calls end before they start",
			reversed - PROFILE_MAX_NEST_WARNINGS);

	profile_build_lanes(p);
	p->depth = sv_xmalloc((p->ncalls ? p->ncalls : 1) * sizeof *p->depth);
	p->parent = sv_xmalloc((p->ncalls ? p->ncalls : 1) * sizeof *p->parent);
	p->exclusive =
		sv_xmalloc((p->ncalls ? p->ncalls : 1) * sizeof *p->exclusive);
	tie.p = p;
	tie.region_pos = region_positions(p);
	profile_nest_lanes(p, &tie);
	free((void *)tie.region_pos);
	return 0;
}
