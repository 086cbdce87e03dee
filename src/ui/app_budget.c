/*
 * app_budget.c: the viewer under a memory budget (--memory; budget.h,
 * sv_source.memory).  The loader reads the ranks that fit; here the loop
 * keeps, per rank, when it was last asked for, says what the budget left
 * out, and when the rank filter (`:ranks`, the ranks view) asks for
 * ranks not in memory, reloads with those first: the pick then leaves
 * out the least recently asked for to make room.  The reload keeps the
 * view (window, filter, search, selection) as any reload does, and copies
 * the ranks both loads hold from the old profile (sv_source.donor) rather
 * than read them again.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/budget.h"
#include "scopeview/heap.h"
#include "scopeview/profile.h"
#include "scopeview/timeline.h"

#include "app_priv.h"

/* Make room for rank r in the ticks. */
static void budget_grow(struct sv_app *a, uint32_t n)
{
	if (n <= a->nrank_tick)
		return;
	a->rank_tick = sv_xrealloc(a->rank_tick, n * sizeof *a->rank_tick);
	memset(a->rank_tick + a->nrank_tick, 0,
		(n - a->nrank_tick) * sizeof *a->rank_tick);
	a->nrank_tick = n;
}

void app_budget_loaded(struct sv_app *a, uint32_t left, uint64_t bytes)
{
	const struct sv_profile *p = a->profile;
	uint32_t n, r;
	bool *in;
	char *list, size[32], used[32];

	a->budget_left = left;
	a->budget_bytes = bytes;
	if (!a->opts.source.memory || !p)
		return;
	in = sv_profile_ranks_held(p, &n);
	budget_grow(a, n);
	a->tick++;
	for (r = 0; r < n; r++)
		if (in[r] && !a->rank_tick[r])
			a->rank_tick[r] = a->tick;
	if (left && p->rank_subset) {
		char kept[80] = "";
		list = sv_rank_list_text(in, n, 8);
		sv_budget_format(size, sizeof size, a->opts.source.memory);
		sv_budget_format(used, sizeof used, bytes);
		/* What a switch copied from memory and what it read. */
		if (p->kept_calls)
			snprintf(kept, sizeof kept,
				", %" PRIu64 " calls kept, %" PRIu64 " read",
				p->kept_calls,
				(uint64_t)p->ncalls - p->kept_calls);
		app_message(a, false,
			"memory %s holds ranks %s (%s%s); %" PRIu32
			" more not read: :ranks LIST reads them",
			size, list, used, kept, left);
		free(list);
	}
	if (a->view)
		snprintf(a->budget_spec, sizeof a->budget_spec, "%s",
			a->view->s.rank_spec);
	free(in);
}

/* Does rank r go before rank q: asked for more recently, ties by rank. */
static bool budget_before(const uint64_t *tick, uint32_t r, uint32_t q)
{
	return tick[r] != tick[q] ? tick[r] > tick[q] : r < q;
}

/* Ranks most recently asked for first (an insertion sort: ranks in
 * memory under a budget are few). */
static void budget_sort(uint32_t *v, uint32_t n, const uint64_t *tick)
{
	uint32_t i, j, x;

	for (i = 1; i < n; i++) {
		x = v[i];
		for (j = i; j > 0 && budget_before(tick, x, v[j - 1]); j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* Whether the viewer may read rank r (within --ranks). */
static bool budget_readable(const struct sv_source *src, uint32_t r)
{
	return !src->rank_on || (r < src->nrank_on && src->rank_on[r]);
}

/*
 * The ranks to read first, in order, into a->prefer (room for n): those
 * the rank filter asks for when it changed and some are not in memory;
 * else, when the cursor is on a rank not read, the ranks not read on
 * screen, the cursor's first.  Returns how many (0: nothing to read).
 */
static uint32_t budget_asked(struct sv_app *a, const bool *in, uint32_t n)
{
	const struct sv_session *s = &a->view->s;
	const struct sv_profile *p = a->profile;
	const struct sv_timeline *tl = sv_view_timeline(a->view);
	const struct sv_layout_rows *rows;
	bool missing = false, *added;
	uint32_t k = 0, r;
	long i;

	if (strcmp(s->rank_spec, a->budget_spec)) {
		snprintf(a->budget_spec, sizeof a->budget_spec, "%s",
			s->rank_spec);
		for (r = 0; s->rank_on && r < s->nrank_on && r < n; r++) {
			if (!s->rank_on[r])
				continue;
			a->prefer[k++] = r;
			if (!in[r] && budget_readable(&a->opts.source, r))
				missing = true;
		}
		return missing ? k : 0;
	}
	if (!tl || !p->has_calls || !p->absent_lanes ||
		tl->cur_lane >= p->nlanes || tl->cur_run)
		return 0;
	r = p->lanes[tl->cur_lane].rank;
	if (!sv_lane_not_read(p, &p->lanes[tl->cur_lane]) || r >= n || in[r])
		return 0;
	added = sv_xcalloc(n, sizeof *added);
	a->prefer[k++] = r;
	added[r] = true;
	rows = &tl->rows;
	for (i = tl->top_row; i >= 0 && (size_t)i < rows->n &&
			      i < tl->top_row + tl->geom.lanes_h;
		i++) {
		const struct sv_lane *l = &p->lanes[rows->rows[i].lane];
		if (rows->rows[i].run || !sv_lane_not_read(p, l) ||
			l->rank >= n || in[l->rank] || added[l->rank])
			continue;
		added[l->rank] = true;
		a->prefer[k++] = l->rank;
	}
	free(added);
	return k;
}

bool app_budget_follow(struct sv_app *a)
{
	const struct sv_session *s;
	const struct sv_profile *p = a->profile;
	const struct sv_timeline *tl;
	uint32_t n, r, k, asked;
	bool *in;

	/* (An index alone is shown after a read of other ranks stopped.) */
	if (!a->opts.source.memory || a->loader || !a->view || !p ||
		(p->has_calls && !p->rank_subset))
		return false;
	s = &a->view->s;
	in = sv_profile_ranks_held(p, &n);
	if (s->nrank_on > n) {
		in = sv_xrealloc(in, s->nrank_on * sizeof *in);
		memset(in + n, 0, (s->nrank_on - n) * sizeof *in);
		n = s->nrank_on;
	}
	budget_grow(a, n);
	free(a->prefer);
	a->prefer = sv_xmalloc((a->nrank_tick + 1) * sizeof *a->prefer);
	k = asked = budget_asked(a, in, n);
	if (!asked) {
		free(in);
		return false;
	}
	a->tick++;
	for (r = 0; r < asked; r++)
		a->rank_tick[a->prefer[r]] = a->tick;
	for (r = 0; r < n; r++)
		if (in[r] && a->rank_tick[r] != a->tick)
			a->prefer[k++] = r;
	budget_sort(a->prefer + asked, k - asked, a->rank_tick);
	a->opts.source.prefer = a->prefer;
	a->opts.source.nprefer = k;
	free(in);
	sv_call_key_fini(&a->budget_sel);
	a->budget_sel = sv_call_key_of(p, s->sel);
	a->budget_switch = true;
	tl = sv_view_timeline(a->view);
	if (tl) {
		a->budget_t0 = tl->t0;
		a->budget_span = sv_timeline_span(tl);
		a->budget_cur = tl->cur_t;
		a->budget_rank = p->has_calls && tl->cur_lane < p->nlanes
					 ? (int64_t)p->lanes[tl->cur_lane].rank
					 : -1;
	}
	/* The ranks both loads hold are copied from this profile, not
	 * read again (sv_source.donor). */
	a->opts.source.donor = a->profile;
	app_start_load(a, false);
	a->opts.source.donor = NULL;
	return true;
}

bool app_budget_index(struct sv_app *a, struct sv_profile *index)
{
	struct sv_profile *old = a->profile;
	struct sv_error err = {0, ""};

	if (!a->budget_switch || !a->view || a->first_load)
		return false;
	if (sv_view_set_profile(a->view, index, &err) < 0) {
		sv_profile_free(index);
		return true;
	}
	a->profile = index;
	sv_profile_free(old);
	sv_heap_trim(); /* the old calls' pages back to the system now */
	app_message(a, false, "%s",
		"reading other ranks: the panel shows the stored statistics");
	return true;
}

/* The cursor back on the rank it was on (lane numbers differ). */
static void budget_cursor_rank(struct sv_app *a, struct sv_timeline *tl)
{
	const struct sv_profile *p = a->profile;
	size_t l;

	for (l = 0; a->budget_rank >= 0 && p->has_calls && l < p->nlanes; l++)
		if (p->lanes[l].rank == (uint32_t)a->budget_rank) {
			tl->cur_lane = (uint32_t)l;
			tl->cur_run = 0;
			tl->cur_depth = 0;
			sv_timeline_fix_rows(tl);
			return;
		}
}

void app_budget_switched(struct sv_app *a, bool ok)
{
	struct sv_timeline *tl = a->view ? sv_view_timeline(a->view) : NULL;

	if (ok && a->budget_switch && a->view) {
		/* The window and cursor went with the calls while the index
		 * was shown: back to where they were. */
		if (tl && a->budget_span > 0) {
			sv_timeline_set_window(
				tl, a->budget_t0, a->budget_span);
			tl->cur_t = a->budget_cur < tl->t0    ? tl->t0
				    : a->budget_cur >= tl->t1 ? tl->t1 - 1
							      : a->budget_cur;
		}
		if (tl)
			budget_cursor_rank(a, tl);
		sv_session_select_key(&a->view->s, &a->budget_sel);
	}
	sv_call_key_fini(&a->budget_sel);
	a->budget_switch = false;
}

void app_budget_fini(struct sv_app *a)
{
	sv_call_key_fini(&a->budget_sel);
	free(a->rank_tick);
	a->rank_tick = NULL;
	a->nrank_tick = 0;
	free(a->prefer);
	a->prefer = NULL;
	a->opts.source.prefer = NULL;
	a->opts.source.nprefer = 0;
}
