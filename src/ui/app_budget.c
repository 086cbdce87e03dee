/*
 * app_budget.c: the viewer under a memory budget (--memory; budget.h,
 * sv_source.memory).  The loader reads the ranks that fit; here the loop
 * keeps, per rank, when it was last asked for, says what the budget left
 * out, and when the rank filter (`:ranks`, the ranks view) asks for
 * ranks not in memory, reloads with those first: the pick then leaves
 * out the least recently asked for to make room.  The reload keeps the
 * view (window, filter, search, selection) as any reload does.
 */
#include <inttypes.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "scopeview/budget.h"
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

/* Which ranks p holds calls of: a malloc'd array of *n. */
static bool *budget_held(const struct sv_profile *p, uint32_t *n)
{
	uint32_t m =
		p->file_ranks > p->num_ranks ? p->file_ranks : p->num_ranks;
	bool *in;
	size_t i;

	for (i = 0; i < p->nrows; i++)
		if (p->rows[i].rank >= m)
			m = p->rows[i].rank + 1;
	in = sv_xcalloc(m ? m : 1, sizeof *in);
	for (i = 0; i < p->nrows; i++)
		in[p->rows[i].rank] = true;
	*n = m;
	return in;
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
	in = budget_held(p, &n);
	budget_grow(a, n);
	a->tick++;
	for (r = 0; r < n; r++)
		if (in[r] && !a->rank_tick[r])
			a->rank_tick[r] = a->tick;
	if (left && p->rank_subset) {
		list = sv_rank_list_text(in, n, 8);
		sv_budget_format(size, sizeof size, a->opts.source.memory);
		sv_budget_format(used, sizeof used, bytes);
		app_message(a, false,
			"memory %s holds ranks %s (%s); %" PRIu32
			" more not read: :ranks LIST reads them",
			size, list, used, left);
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

bool app_budget_follow(struct sv_app *a)
{
	const struct sv_source *src = &a->opts.source;
	const struct sv_session *s;
	const struct sv_profile *p = a->profile;
	uint32_t n, r, k = 0, asked;
	bool *in, missing = false;
	const struct sv_timeline *tl;

	/* (An index alone is shown after a read of other ranks stopped.) */
	if (!src->memory || a->loader || !a->view || !p ||
		(p->has_calls && !p->rank_subset))
		return false;
	s = &a->view->s;
	if (!strcmp(s->rank_spec, a->budget_spec))
		return false;
	snprintf(a->budget_spec, sizeof a->budget_spec, "%s", s->rank_spec);
	if (!s->rank_on)
		return false; /* every rank: those in memory are shown */
	in = budget_held(p, &n);
	budget_grow(a, n > s->nrank_on ? n : s->nrank_on);
	for (r = 0; r < s->nrank_on && r < n; r++)
		if (s->rank_on[r] && !in[r] &&
			(!src->rank_on ||
				(r < src->nrank_on && src->rank_on[r])))
			missing = true;
	if (!missing) {
		free(in);
		return false;
	}
	free(a->prefer);
	a->prefer = sv_xmalloc((a->nrank_tick + 1) * sizeof *a->prefer);
	a->tick++;
	for (r = 0; r < s->nrank_on; r++)
		if (s->rank_on[r]) {
			a->rank_tick[r] = a->tick;
			a->prefer[k++] = r;
		}
	asked = k;
	for (r = 0; r < n; r++)
		if (in[r] && !(r < s->nrank_on && s->rank_on[r]))
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
	}
	app_start_load(a, false);
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
#ifdef __GLIBC__
	malloc_trim(0); /* the old calls' pages back to the system now */
#endif
	app_message(a, false, "%s",
		"reading other ranks: the panel shows the stored statistics");
	return true;
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
