/*
 * profile_lanes.c: grouping a finished profile's calls into lanes
 * (doc/format.md 9.1): one per thread or async task of each rank, or one per
 * rank when the file names neither, with a label for each and in a stable
 * order.  Calls of different lanes never nest.
 *
 * Part of sv_profile_finish() (profile_priv.h); nothing else calls it,
 * but for sv_profile_lane_lower(), the search of a lane by time (and its
 * kin for a list of calls and a run of call numbers), and
 * sv_profile_lane_pos(), the search of a lane for a call.
 */
#include "profile_priv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* scope-profiler's lane of a call (concurrency.py): a task id (>= 0), -1
 * unknown, or -2 - thread id.  *thread_out gets the call's thread id (-1
 * none), which stays the lane's identity where -2 - thread id would pass
 * INT64_MIN (thread id INT64_MAX: the key saturates there). */
static int64_t lane_key(
	const struct sv_profile *p, uint32_t c, int64_t *thread_out)
{
	int64_t task = p->task_id ? p->task_id[c] : -1;
	int64_t thread = p->thread_id ? p->thread_id[c] : -1;
	*thread_out = thread < 0 ? -1 : thread;
	if (task >= 0)
		return task;
	if (thread < 0)
		return -1;
	return thread == INT64_MAX ? INT64_MIN : -2 - thread;
}

struct lane_slot {
	uint32_t rank;
	int64_t key;
	int64_t thread; /* with key < 0: tells thread INT64_MAX from the rest */
	uint32_t lane;  /* UINT32_MAX = empty slot */
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

static const char *lane_coro_tail(const char *coro)
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
					   ? lane_coro_tail(tk->coro_name)
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

/* The lanes met so far, and a table from (rank, key, thread) to each. */
struct lane_set {
	struct lane_slot *slots;
	size_t cap;
	struct sv_lane *lanes;
	size_t nlanes, lane_cap;
};

static void lane_set_init(struct lane_set *s, size_t nrows)
{
	size_t i;

	memset(s, 0, sizeof *s);
	s->cap = 64;
	while (s->cap < nrows * 2 + 64)
		s->cap *= 2;
	s->slots = sv_xmalloc(s->cap * sizeof *s->slots);
	for (i = 0; i < s->cap; i++)
		s->slots[i].lane = UINT32_MAX;
}

static size_t lane_set_find(
	const struct lane_set *s, uint32_t rank, int64_t key, int64_t thread)
{
	size_t mask = s->cap - 1, h = (size_t)lane_hash(rank, key) & mask;

	while (s->slots[h].lane != UINT32_MAX &&
		(s->slots[h].rank != rank || s->slots[h].key != key ||
			s->slots[h].thread != thread))
		h = (h + 1) & mask;
	return h;
}

/* Double the table, to keep it at most half full. */
static void lane_set_grow(struct lane_set *s)
{
	size_t ncap = s->cap * 2, j;
	struct lane_slot *ns = sv_xmalloc(ncap * sizeof *ns);

	for (j = 0; j < ncap; j++)
		ns[j].lane = UINT32_MAX;
	for (j = 0; j < s->cap; j++) {
		size_t g;
		if (s->slots[j].lane == UINT32_MAX)
			continue;
		g = (size_t)lane_hash(s->slots[j].rank, s->slots[j].key) &
		    (ncap - 1);
		while (ns[g].lane != UINT32_MAX)
			g = (g + 1) & (ncap - 1);
		ns[g] = s->slots[j];
	}
	free(s->slots);
	s->slots = ns;
	s->cap = ncap;
}

/* The lane of (rank, key, thread), made when new; c is a call of it. */
static uint32_t lane_set_get(struct lane_set *s, const struct sv_profile *p,
	uint32_t rank, int64_t key, int64_t thread, uint32_t c)
{
	size_t h = lane_set_find(s, rank, key, thread);
	struct sv_lane *l;

	if (s->slots[h].lane != UINT32_MAX)
		return s->slots[h].lane;
	sv_grow((void **)&s->lanes, &s->lane_cap, s->nlanes + 1,
		sizeof *s->lanes);
	l = &s->lanes[s->nlanes];
	memset(l, 0, sizeof *l);
	l->rank = rank;
	l->key = key;
	l->task = key >= 0 ? key : -1;
	l->thread = key < 0 ? thread : -1;
	if (key >= 0) {
		const struct sv_task *t = sv_profile_task(p, rank, key);
		if (t && t->thread_index >= 0)
			l->thread = t->thread_index;
		else if (p->thread_id && p->thread_id[c] >= 0)
			l->thread = p->thread_id[c];
	}
	s->slots[h].rank = rank;
	s->slots[h].key = key;
	s->slots[h].thread = thread;
	s->slots[h].lane = (uint32_t)s->nlanes++;
	if (s->nlanes * 2 > s->cap)
		lane_set_grow(s);
	return (uint32_t)(s->nlanes - 1);
}

/* Each call's lane into p->lane_of, counted in its lane. */
static void lanes_by_call(struct sv_profile *p, struct lane_set *s)
{
	uint32_t c, last_rank = 0, row = 0, lane = 0;
	int64_t last_key = 0, last_thread = -1;

	p->lane_of = sv_xmalloc((p->ncalls ? p->ncalls : 1) * sizeof(uint32_t));
	for (c = 0; c < p->ncalls; c++) {
		uint32_t rank = p->rows[sv_profile_row_next(p, c, &row)].rank;
		int64_t thread;
		int64_t key = lane_key(p, c, &thread);
		if (key >= 0)
			thread =
				-1; /* a task's lane: its thread does not split it */
		/* Neighbouring calls mostly share a lane: skip the lookup. */
		if (!c || rank != last_rank || key != last_key ||
			thread != last_thread)
			lane = lane_set_get(s, p, rank, key, thread, c);
		last_rank = rank;
		last_key = key;
		last_thread = thread;
		p->lane_of[c] = lane;
		s->lanes[lane].ncalls++;
	}
}

/* Without thread and task ids every call of a rank is in its one lane:
 * each row's lane into the returned array (UINT32_MAX for a row without
 * calls, as sv_profile_lanes_by_row keeps it), counted by rows. */
static uint32_t *lanes_by_rank(struct sv_profile *p, struct lane_set *s)
{
	uint32_t *row_lane =
		sv_xmalloc((p->nrows ? p->nrows : 1) * sizeof *row_lane);
	size_t r;

	for (r = 0; r < p->nrows; r++) {
		const struct sv_row *row = &p->rows[r];
		row_lane[r] = UINT32_MAX;
		if (!row->count)
			continue;
		row_lane[r] = lane_set_get(
			s, p, row->rank, -1, -1, (uint32_t)row->first);
		s->lanes[row_lane[r]].ncalls += (uint32_t)row->count;
	}
	return row_lane;
}

/* Group the calls into lanes, in display order; fills lane_of (or, when
 * the file names no threads or tasks, row_lane) and each lane's call list
 * (unsorted: in call order). */
void sv_profile_lanes_build(struct sv_profile *p)
{
	struct lane_set set;
	struct sv_lane *lanes;
	uint32_t *remap, *fill, *row_lane = NULL;
	size_t nlanes, lane_cap, i;
	uint32_t c;

	lane_set_init(&set, p->nrows);
	if (!p->thread_id && !p->task_id && p->ncalls)
		row_lane = lanes_by_rank(p, &set);
	else
		lanes_by_call(p, &set);
	free(set.slots);
	lanes = set.lanes;
	nlanes = set.nlanes;
	lane_cap = set.lane_cap;
	if (p->absent_lanes) {
		/* A lane for each rank of the file left out, to be shown and
		 * asked for. */
		bool *seen = sv_xcalloc(p->file_ranks ? p->file_ranks : 1, 1);
		uint32_t r;
		for (i = 0; i < nlanes; i++)
			if (lanes[i].rank < p->file_ranks)
				seen[lanes[i].rank] = true;
		for (r = 0; r < p->file_ranks; r++) {
			if (seen[r])
				continue;
			sv_grow((void **)&lanes, &lane_cap, nlanes + 1,
				sizeof *lanes);
			memset(&lanes[nlanes], 0, sizeof *lanes);
			lanes[nlanes].rank = r;
			lanes[nlanes].key = -1;
			lanes[nlanes].thread = -1;
			lanes[nlanes].task = -1;
			nlanes++;
		}
		free(seen);
	}

	/* Sort the lanes for display and renumber lane_of. */
	for (i = 0; i < nlanes; i++)
		lanes[i].depth_rows = (uint32_t)i; /* remember the old index */
	if (nlanes > 1)
		qsort(lanes, nlanes, sizeof *lanes, lane_cmp);
	remap = sv_xmalloc((nlanes ? nlanes : 1) * sizeof *remap);
	for (i = 0; i < nlanes; i++) {
		remap[lanes[i].depth_rows] = (uint32_t)i;
		lanes[i].depth_rows = 0;
		/* For a profile to be packed: listed by the nesting, a
		 * lane at a time (sv_profile_lane_fill), not all at once
		 * (4 bytes a call). */
		lanes[i].calls =
			p->pack_lanes && lanes[i].ncalls
				? NULL
				: sv_xmalloc((lanes[i].ncalls ? lanes[i].ncalls
							      : 1) *
					     sizeof(uint32_t));
		lanes[i].label = sv_lane_not_read(p, &lanes[i])
					 ? sv_xasprintf("r%" PRIu32 " not read",
						   lanes[i].rank)
					 : lane_label(p, &lanes[i]);
	}
	fill = sv_xcalloc(nlanes ? nlanes : 1, sizeof *fill);
	if (row_lane) {
		/* Rows are in call order, so each list is too. */
		for (i = 0; i < p->nrows; i++) {
			const struct sv_row *row = &p->rows[i];
			uint32_t l, *out;
			if (row_lane[i] == UINT32_MAX)
				continue;
			l = row_lane[i] = remap[row_lane[i]];
			if (!lanes[l].calls)
				continue;
			out = lanes[l].calls + fill[l];
			for (c = 0; c < row->count; c++)
				out[c] = (uint32_t)row->first + c;
			fill[l] += (uint32_t)row->count;
		}
		p->row_lane = row_lane;
	} else {
		for (c = 0; c < p->ncalls; c++) {
			uint32_t l = remap[p->lane_of[c]];
			p->lane_of[c] = l;
			if (lanes[l].calls)
				lanes[l].calls[fill[l]++] = c;
		}
	}
	free(fill);
	free(remap);
	p->lanes = lanes;
	p->nlanes = nlanes;
}

void sv_profile_lane_fill(const struct sv_profile *p, size_t l, uint32_t *out)
{
	size_t r, o = 0;
	uint64_t c;

	for (r = 0; r < p->nrows; r++) {
		const struct sv_row *row = &p->rows[r];
		if (p->row_lane) {
			if (p->row_lane[r] != l)
				continue;
			for (c = 0; c < row->count; c++)
				out[o++] = (uint32_t)(row->first + c);
			continue;
		}
		/* Lanes by call (thread or task ids): the calls of the
		 * lane's rank's rows that are on it. */
		if (row->rank != p->lanes[l].rank)
			continue;
		for (c = row->first; c < row->first + row->count; c++)
			if (p->lane_of[c] == l)
				out[o++] = (uint32_t)c;
	}
}

size_t sv_profile_calls_lower(
	const struct sv_profile *p, const uint32_t *calls, size_t n, int64_t t)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sv_profile_start(p, calls[mid]) < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint64_t sv_profile_range_lower(
	const struct sv_profile *p, uint64_t a, uint64_t b, int64_t t)
{
	uint64_t lo = a, hi = b;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (sv_profile_start(p, (uint32_t)mid) < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t sv_profile_lane_lower(
	const struct sv_profile *p, const struct sv_lane *l, int64_t t)
{
	size_t lo = 0, hi = l->ncalls;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sv_profile_start(p, sv_lane_call(l, mid)) < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void sv_profile_lanes_by_row(struct sv_profile *p)
{
	uint32_t *row_lane;
	size_t r;

	if (!p->lane_of || !p->ncalls)
		return;
	row_lane = sv_xmalloc((p->nrows ? p->nrows : 1) * sizeof *row_lane);
	for (r = 0; r < p->nrows; r++) {
		const struct sv_row *row = &p->rows[r];
		uint64_t c;
		row_lane[r] = row->count ? p->lane_of[row->first] : UINT32_MAX;
		for (c = row->first + 1; c < row->first + row->count; c++)
			if (p->lane_of[c] != row_lane[r]) {
				free(row_lane);
				return;
			}
	}
	free(p->lane_of);
	p->lane_of = NULL;
	p->row_lane = row_lane;
}

bool sv_profile_lane_order(const struct sv_profile *p, uint32_t a, uint32_t b)
{
	return sv_profile_lane_before(p, a, b);
}

uint32_t sv_profile_lane_pos(const struct sv_profile *p, uint32_t c)
{
	const struct sv_lane *l;
	size_t lo = 0, hi;

	if (!p || !p->has_calls || c >= p->ncalls || !sv_profile_has_lanes(p) ||
		!p->region_pos)
		return UINT32_MAX;
	l = &p->lanes[sv_call_lane(p, c)];
	hi = l->ncalls;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sv_profile_lane_before(p, sv_lane_call(l, mid), c))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < l->ncalls && sv_lane_call(l, lo) == c ? (uint32_t)lo
							  : UINT32_MAX;
}
