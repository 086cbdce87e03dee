/*
 * profile_finish.c: sv_profile_finish(), the step between loading and
 * looking: it sorts the metadata, reads the run's start and finalize
 * times from it, groups calls into lanes (profile_lanes.c), sorts each
 * lane by (start asc, end desc, then scope-profiler's tie order:
 * lane_sort.c) and nests it with sv_nest_lane_at (nest.h) for depth,
 * parent and exclusive time, as scope-profiler's call_stack.py does.
 * Ten million calls sort in well under a second; large profiles nest their
 * lanes on up to four threads, with warnings merged in lane order so they
 * do not depend on the threads.
 */
#include "profile_priv.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scopeview/heap.h"
#include "scopeview/nest.h"
#include "scopeview/radix.h"

/* At most this many nesting warnings are spelled out; the rest are
 * counted in one closing line. */
#define PROFILE_MAX_NEST_WARNINGS 20

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
	const struct sv_row *r = &p->rows[sv_profile_row_of(p, c)];
	snprintf(buf, n, "'%s' call %" PRIu64 " [%" PRId64 ", %" PRId64 "] ns",
		p->regions[r->region], (uint64_t)c - r->first,
		sv_profile_start(p, c), sv_profile_end(p, c));
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

/* Nest lane l: its calls' depth, parent and exclusive time (the exclusive
 * times that do not fit in int32 and the depths in 8 bits to wide[0] and
 * wide[1], the worker's own). */
static void lane_nest(struct sv_profile *p, struct sv_lane *l,
	const struct sv_lane_scratch *sc, struct sv_nest_stack *stack,
	struct sv_wide *wide, struct nest_out *n)
{
	struct nest_ctx x = {p, l, n};
	struct sv_nest nest = {NULL, NULL, p->parent, NULL, NULL, nest_overlap,
		&x, p->dur, &p->dur_wide, p->exclusive, &wide[0], NULL,
		p->depth, &wide[1]};
	uint32_t rows = sv_nest_lane_at(
		&nest, l->calls, sc->at, sc->starts, l->ncalls, stack);

	if (rows > l->depth_rows)
		l->depth_rows = rows;
}

/* Display position of each region: stable by (min first start over ranks,
 * base index), zero-call regions at 0 (doc/format.md 10.4), from each
 * region's earliest start first[] (0 for one without calls). */
static uint32_t *region_positions(
	const struct sv_profile *p, const int64_t *first)
{
	uint32_t *order =
		sv_xmalloc((p->nregions ? p->nregions : 1) * sizeof *order);
	uint32_t *pos =
		sv_xmalloc((p->nregions ? p->nregions : 1) * sizeof *pos);
	struct sv_radix_kv *kv, *tmp;
	uint32_t i;

	/* a stable sort keeps ties in base order: O(n) for any region count */
	kv = sv_xmalloc((p->nregions ? p->nregions : 1) * sizeof *kv);
	tmp = sv_xmalloc((p->nregions ? p->nregions : 1) * sizeof *tmp);
	for (i = 0; i < p->nregions; i++) {
		kv[i].key = (uint64_t)first[i] ^ (1ull << 63);
		kv[i].value = i;
	}
	sv_radix_sort(kv, tmp, p->nregions);
	for (i = 0; i < p->nregions; i++)
		order[i] = kv[i].value;
	free(kv);
	free(tmp);
	for (i = 0; i < p->nregions; i++)
		pos[order[i]] = i;
	free(order);
	return pos;
}

void sv_profile_region_first(
	const struct sv_profile *p, int64_t *first, bool *seen)
{
	bool *own =
		seen ? seen : sv_xcalloc((size_t)p->nregions + 1, sizeof *own);
	uint32_t c, g;

	for (g = 0; g < p->nregions; g++) {
		first[g] = 0;
		own[g] = false;
	}
	for (c = 0; c < p->ncalls; c++) {
		int64_t s = sv_profile_start(p, c);
		g = sv_call_region(p, c);
		if (g < p->nregions && (!own[g] || s < first[g])) {
			first[g] = s;
			own[g] = true;
		}
	}
	if (!seen)
		free(own);
}

bool sv_profile_ties_hold(const struct sv_profile *p, const int64_t *first)
{
	uint32_t *pos;
	size_t l, i;
	bool hold = true;

	if (!p->has_calls || !p->region_pos)
		return true;
	pos = region_positions(p, first);
	for (l = 0; l < p->nlanes && hold; l++) {
		const struct sv_lane *ln = &p->lanes[l];
		for (i = 1; i < ln->ncalls && hold; i++) {
			uint32_t a = sv_lane_call(ln, i - 1),
				 b = sv_lane_call(ln, i);
			uint32_t ra = sv_call_region(p, a),
				 rb = sv_call_region(p, b);
			if (ra != rb &&
				sv_profile_start(p, a) ==
					sv_profile_start(p, b) &&
				sv_profile_end(p, a) == sv_profile_end(p, b))
				hold = pos[ra] < pos[rb];
		}
	}
	free(pos);
	return hold;
}

/* One worker sorts and nests a share of the lanes. */
struct finish_worker {
	struct sv_profile *p;
	size_t *lanes; /* indices of its lanes */
	size_t nlanes;
	struct nest_out *out; /* per lane of the profile */
	/* its lanes' exclusive times outside int32, depths outside 8 bits */
	struct sv_wide wide[2];
	pthread_t thread;
	bool started;
};

static void *finish_work(void *arg)
{
	struct finish_worker *w = arg;
	size_t i, maxlane = 0;
	struct sv_lane_scratch sc = {0};
	struct sv_nest_stack stack = {0};

	for (i = 0; i < w->nlanes; i++)
		if (w->p->lanes[w->lanes[i]].ncalls > maxlane)
			maxlane = w->p->lanes[w->lanes[i]].ncalls;
	sc.max = maxlane ? maxlane : 1;
	for (i = 0; i < w->nlanes; i++) {
		struct sv_lane *l = &w->p->lanes[w->lanes[i]];
		bool listed = !l->calls && l->ncalls;
		if (listed) {
			/* Left to this worker (p->pack_lanes): listed, then
			 * packed once nested. */
			l->calls = sv_xmalloc(l->ncalls * sizeof *l->calls);
			sv_profile_lane_fill(w->p, w->lanes[i], l->calls);
		}
		if (!sc.starts) {
			sc.starts = sv_xmalloc(sc.max * sizeof *sc.starts);
			sc.at = sv_xmalloc(sc.max * sizeof *sc.at);
		}
		sv_lane_starts(w->p, l->calls, l->ncalls, sc.starts);
		sv_lane_sort(w->p, l->calls, l->ncalls, &sc);
		lane_nest(w->p, l, &sc, &stack, w->wide, &w->out[w->lanes[i]]);
		sv_lane_order(l->calls, l->ncalls, &sc);
		if (listed)
			sv_lane_pack_calls(l);
	}
	free(sc.starts);
	free(sc.at);
	free(sc.a);
	free(sc.b);
	sv_nest_stack_fini(&stack);
	return NULL;
}

static int lane_size_cmp(const void *x, const void *y, void *ctx)
{
	const struct sv_lane *lanes = ctx;
	uint32_t a = lanes[*(const size_t *)x].ncalls;
	uint32_t b = lanes[*(const size_t *)y].ncalls;
	return a > b ? -1 : a < b;
}

/* A worker's exceptions appended to the profile's (sorted after). */
static void wide_take(struct sv_wide *to, struct sv_wide *from)
{
	size_t j;

	for (j = 0; j < from->n; j++)
		sv_wide_append(to, from->call[j], from->value[j]);
	sv_wide_fini(from);
}

/* Sort and nest every lane, on up to FINISH_MAX_THREADS threads when the
 * profile is large: lanes are independent, so each is one piece of work,
 * handed out largest first to the least loaded worker. */
#define FINISH_MAX_THREADS      4
#define FINISH_THREAD_MIN_CALLS 200000

static void profile_nest_lanes(struct sv_profile *p)
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
		w[i].lanes = sv_xmalloc(
			(p->nlanes ? p->nlanes : 1) * sizeof *w[i].lanes);
		w[i].nlanes = 0;
		w[i].out = out;
		memset(w[i].wide, 0, sizeof w[i].wide);
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
	for (i = 0; i < nw; i++) {
		wide_take(&p->exclusive_wide, &w[i].wide[0]);
		wide_take(&p->depth_wide, &w[i].wide[1]);
		free(w[i].lanes);
	}
	sv_wide_sort(&p->exclusive_wide);
	sv_wide_sort(&p->depth_wide);
	free(order);
	free(out);
}

/* The ends as durations (or the durations the loader left in end_ns,
 * end_is_duration), 4 bytes a call, the wide values to p->dur_wide, into
 * an array of their own; the ends are then freed, so that their 8 bytes
 * a call are room for the nesting's columns (sv_profile_finish) rather
 * than a hole the durations leave.  Unnested (no such columns follow),
 * or when id columns are to be packed and freed before the nesting's
 * columns are made (their room then takes them), narrowed in place
 * instead (in_place): call c's uint32 goes to bytes [4c, 4c + 4),
 * which only calls before c held, and the block shrinks to 4 bytes a
 * call, so no new pages are touched.  In the same pass over the calls: a
 * warning for each call that ends before it starts, the earliest start
 * and the latest end (sv_profile_min_start, sv_profile_max_end) and each
 * region's earliest start, into first[] (p->nregions values). */
/* The warning of call c, which ends before it starts. */
static void narrow_reversed(struct sv_profile *p, uint32_t c)
{
	char a[256];

	nest_describe(p, c, a, sizeof a);
	sv_profile_warn(p,
		"rank %" PRIu32 ": %s ends before it starts (figures kept as "
		"stored)",
		sv_call_rank(p, c), a);
}

static uint32_t *duration_narrow(
	struct sv_profile *p, int64_t *first, bool in_place)
{
	/* Read and written as bytes, so no int64/uint32 aliasing. */
	unsigned char *ends = (unsigned char *)p->end_ns,
		      *dur = in_place && ends
				     ? ends
				     : sv_xmalloc((p->ncalls ? p->ncalls : 1) *
						  sizeof(uint32_t));
	bool *seen = sv_xcalloc(p->nregions ? p->nregions : 1, sizeof *seen);
	size_t reversed = 0;
	uint32_t c = 0, row = 0;
	int64_t buf[256];
	bool spanned = false;

	/* A row at a time (the calls of row r are those before the next
	 * row's first, as sv_profile_row_next finds them): its region, its
	 * earliest start and latest end once a row. */
	while (c < p->ncalls) {
		uint32_t g = p->nrows ? p->rows[row].region : UINT32_MAX;
		uint32_t c1 =
			row + 1 < p->nrows ? p->row_first[row + 1] : p->ncalls;
		int64_t lo = INT64_MAX, hi = INT64_MIN;
		bool any = c < c1;

		/* The starts 256 at a time: in place, or from the packed
		 * column (the loader packed them). */
		for (c1 = c1 < p->ncalls ? c1 : p->ncalls; c < c1;) {
			uint32_t m = c1 - c < 256 ? c1 - c : 256, k;
			const int64_t *sp = p->start_ns ? p->start_ns + c : buf;
			if (!p->start_ns)
				sv_packed_get_range(&p->start_pk, c, m, buf);
			for (k = 0; k < m; k++, c++) {
				int64_t e, d, s = sp[k];
				uint32_t n;
				memcpy(&e, ends + (size_t)c * sizeof e,
					sizeof e);
				/* Branch-free: the flag is the same for
				 * every call. */
				d = p->end_is_duration ? e : sv_sub_wrap(e, s);
				e = p->end_is_duration ? sv_add_wrap(s, e) : e;
				if (e < s &&
					reversed++ < PROFILE_MAX_NEST_WARNINGS)
					narrow_reversed(p, c);
				lo = s < lo ? s : lo;
				hi = e > hi ? e : hi;
				n = sv_wide_u32(&p->dur_wide, c, d);
				memcpy(dur + (size_t)c * sizeof n, &n,
					sizeof n);
			}
		}
		if (any) {
			if (!spanned || lo < p->span_start_ns)
				p->span_start_ns = lo;
			if (!spanned || hi > p->span_end_ns)
				p->span_end_ns = hi;
			spanned = true;
			if (g < p->nregions && (!seen[g] || lo < first[g])) {
				first[g] = lo;
				seen[g] = true;
			}
		}
		if (row + 1 < p->nrows)
			row++;
	}
	if (reversed > PROFILE_MAX_NEST_WARNINGS)
		sv_profile_warn(p, "%zu more calls end before they start",
			reversed - PROFILE_MAX_NEST_WARNINGS);
	free(seen);
	p->end_ns = NULL;
	if (dur == ends)
		return sv_xreallocarray(
			dur, p->ncalls ? p->ncalls : 1, sizeof(uint32_t));
	free(ends);
	return (uint32_t *)(void *)dur;
}

/* Whether an id (or GPU or await) column is still held as int64, for
 * sv_profile_pack_ids to pack. */
static bool profile_plain_ids(const struct sv_profile *p)
{
	return p->call_id || p->parent_id || p->thread_id || p->task_id ||
	       p->gpu_ns || p->await_ns;
}

/* The columns the nesting writes. */
static void finish_alloc_nesting(struct sv_profile *p)
{
	size_t n = p->ncalls ? p->ncalls : 1;

	/* The parents and the exclusive times in one block: 8 bytes a call,
	 * as the ends were, whose room (freed just before) takes them both
	 * where two blocks would miss it by the allocator's header; the
	 * depths after them. */
	p->parent = sv_xmalloc(n * (sizeof *p->parent + sizeof *p->exclusive));
	p->exclusive = (int32_t *)(p->parent + n);
	p->exclusive_in_parent = true;
	p->depth = sv_xmalloc(n * sizeof *p->depth);
}

int sv_profile_finish(struct sv_profile *p, struct sv_error *err)
{
	struct sv_prefault fault;
	int64_t *first;
	bool early;

	(void)err;
	if (p->nmeta > 1)
		qsort(p->meta, p->nmeta, sizeof *p->meta, meta_cmp);
	p->has_start_time = meta_time(p, "start_time_ns", &p->start_time_ns);
	p->has_finalize_time =
		meta_time(p, "finalize_time_ns", &p->finalize_time_ns);

	if (!p->has_calls)
		p->ncalls = 0;
	/* The durations first: the nesting reads them, and the ends'
	 * 8 bytes a call are then 4 for the rest of the work. */
	first = sv_xcalloc(p->nregions ? p->nregions : 1, sizeof *first);
	early = !p->unnested && (!p->pack || !profile_plain_ids(p));
	p->dur = duration_narrow(p, first, !early);
	p->has_span = p->ncalls > 0;
	p->end_is_duration = false;
	/* The starts packed before the nesting rather than after (a load
	 * that packs them, p->pack_lanes; the loader may have): their 8
	 * bytes a call are some 2.6, and the nesting reads each lane's
	 * from a list of its own (sv_lane_starts). */
	if (p->pack_lanes && !p->unnested)
		sv_profile_pack_starts(p);
	/* The nesting's columns, where the ends were (a load holds the
	 * heap: heap.h), faulted in on the other core while this one makes
	 * the lanes.  But not while id columns wait to be packed (after the
	 * lanes): they would be on top of the int64 ids, not in their
	 * place. */
	if (early)
		finish_alloc_nesting(p);
	memset(&fault, 0, sizeof fault);
	if (early && p->ncalls >= FINISH_THREAD_MIN_CALLS) {
		sv_prefault_add(&fault, p->depth, p->ncalls * sizeof *p->depth);
		sv_prefault_add(
			&fault, p->parent, p->ncalls * sizeof *p->parent);
		sv_prefault_add(
			&fault, p->exclusive, p->ncalls * sizeof *p->exclusive);
		sv_prefault_start(&fault);
	}
	sv_profile_index_build(p);
	if (p->unnested) {
		free(first);
		return 0;
	}
	sv_profile_lanes_build(p);
	sv_profile_lanes_by_row(p);
	if (p->pack)
		sv_profile_pack_ids(p);
	if (!early)
		finish_alloc_nesting(p);
	sv_prefault_join(&fault);
	p->region_pos =
		region_positions(p, p->region_first ? p->region_first : first);
	free(first);
	profile_nest_lanes(p);
	return 0;
}
