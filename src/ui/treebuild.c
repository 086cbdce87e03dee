/*
 * treebuild.c: call trees built off the UI thread (treebuild.h).
 *
 * One job (job.h) per build, on the session's jobs: taken in by the
 * viewer's loop when it is done (treebuild_adopt, which then tells the
 * view through done), or cancelled (the next start, or fini).  The worker reads the profile (read-only)
 * and writes only result and the job's rc; the UI thread reads them once
 * the job is done.
 */
#include "scopeview/treebuild.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/diff.h"
#include "scopeview/grid.h"
#include "scopeview/job.h"
#include "scopeview/render.h"

void sv_treebuild_init(struct sv_treebuild *b, struct sv_jobs *jobs,
	void (*done)(void *owner), void *owner)
{
	memset(b, 0, sizeof *b);
	b->jobs = jobs;
	b->done = done;
	b->owner = owner;
	b->sync_max = SV_TREEBUILD_SYNC_MAX;
	atomic_init(&b->cancel, 0);
	atomic_init(&b->progress, 0);
	atomic_init(&b->progress2, 0);
}

/* The second run's tree (when one is wanted) after the first's, into
 * tree2, built2 saying whether it was made (read on the UI thread once
 * the build is done; a failure or a cancel leaves the comparison out). */
static void treebuild_build_second(struct sv_treebuild *b)
{
	b->built2 = false;
	if (!b->want2)
		return;
	if (sv_callpath_build(&b->tree2, b->p2, &b->scope2, NULL) < 0) {
		sv_callpath_fini(&b->tree2);
		return;
	}
	b->tree2.scope.lane_on = NULL;
	b->built2 = true;
}

static void treebuild_run(struct sv_job *j)
{
	struct sv_treebuild *b = j->arg;
	j->rc = sv_callpath_build(&b->result, b->p, &b->scope, NULL);
	if (j->rc >= 0)
		treebuild_build_second(b);
}

/* Drop the second run's tree. */
static void treebuild_drop_second(struct sv_treebuild *b)
{
	sv_callpath_fini(&b->tree2);
	free(b->match2);
	free(b->lane2_on);
	b->match2 = NULL;
	b->lane2_on = NULL;
	b->has2 = false;
	b->want2 = false;
	b->built2 = false;
}

/* Wait for the thread and drop its result. */
static void treebuild_stop(struct sv_treebuild *b)
{
	if (!b->running)
		return;
	atomic_store(&b->cancel, 1);
	sv_jobs_cancel(b->jobs, &b->job);
	sv_callpath_fini(&b->result);
	treebuild_drop_second(b);
	b->running = false;
}

/* Set up the second run's tree over the ranks s shows (same recursion
 * rule), built with the first's (treebuild_build_second); its calls count
 * in the work. */
static void treebuild_second(
	struct sv_treebuild *b, const struct sv_session *s, bool expand)
{
	const struct sv_profile *p2 = s->p2;
	size_t l;

	treebuild_drop_second(b);
	if (!p2 || !p2->has_calls || s->has_range)
		return;
	b->lane2_on = sv_xcalloc(p2->nlanes + 1, sizeof *b->lane2_on);
	for (l = 0; l < p2->nlanes; l++) {
		uint32_t r = p2->lanes[l].rank;
		b->lane2_on[l] =
			!s->rank_on || (r < s->nrank_on && s->rank_on[r]);
		if (b->lane2_on[l])
			b->work += p2->lanes[l].ncalls;
	}
	b->scope2 = (struct sv_callpath_scope){
		.lane_on = b->lane2_on,
		.expand_recursion = expand,
		.cancel = &b->cancel,
		.progress = &b->progress2,
	};
	b->p2 = p2;
	b->want2 = true;
}

/* Match the finished tree's nodes with the second run's. */
static void treebuild_match(struct sv_treebuild *b)
{
	free(b->match2);
	b->match2 = NULL;
	if (!b->has2)
		return;
	b->match2 = sv_xmalloc(
		(b->tree.nnodes ? b->tree.nnodes : 1) * sizeof *b->match2);
	sv_callpath_match(&b->tree, &b->tree2, b->match2);
}

const struct sv_callpath_node *sv_treebuild_second(
	const struct sv_treebuild *b, uint32_t n)
{
	if (!b->has2 || !b->match2 || !b->ready || n >= b->tree.nnodes ||
		b->match2[n] == SV_CALLPATH_NONE)
		return NULL;
	return &b->tree2.nodes[b->match2[n]];
}

int sv_treebuild_diff_style(const struct sv_treebuild *b, uint32_t n)
{
	const struct sv_callpath_node *x2 = sv_treebuild_second(b, n);

	if (!b->has2 || !b->match2 || !b->ready || n >= b->tree.nnodes)
		return -1;
	return sv_grid_diff_style(
		sv_diff_level(true, (double)b->tree.nodes[n].inclusive,
			x2 != NULL, x2 ? (double)x2->inclusive : 0));
}

void sv_treebuild_second_text(
	const struct sv_treebuild *b, uint32_t n, char *buf, size_t size)
{
	const struct sv_callpath_node *x2 = sv_treebuild_second(b, n);
	size_t used = strlen(buf);
	int64_t a;
	char f[16], pct[24];

	if (!b->has2 || !b->ready || n >= b->tree.nnodes || used >= size)
		return;
	if (!x2) {
		snprintf(buf + used, size - used, ", B: none");
		return;
	}
	a = b->tree.nodes[n].inclusive;
	if (a)
		snprintf(pct, sizeof pct, "%+.1f%%",
			((double)x2->inclusive - (double)a) / (double)a *
				100.0);
	else
		snprintf(pct, sizeof pct, x2->inclusive ? "new" : "0%%");
	snprintf(buf + used, size - used, ", B: %s (%s, %llu calls)",
		sv_render_short(x2->inclusive, f, sizeof f), pct,
		(unsigned long long)x2->calls);
}

void sv_treebuild_fini(struct sv_treebuild *b)
{
	if (!b)
		return;
	treebuild_stop(b);
	sv_callpath_fini(&b->tree);
	free(b->lane_on);
	b->lane_on = NULL;
	b->ready = false;
	treebuild_drop_second(b);
}

/* The loop took the finished build in (sv_jobs_poll): it becomes the
 * tree, and the view is told. */
static void treebuild_adopt(struct sv_job *j)
{
	struct sv_treebuild *b = j->arg;

	b->running = false;
	if (b->job.rc < 0) {
		sv_callpath_fini(&b->result);
		treebuild_drop_second(b);
		b->cancelled = true;
	} else {
		sv_callpath_fini(&b->tree);
		b->tree = b->result;
		b->tree.scope.lane_on = NULL;
		memset(&b->result, 0, sizeof b->result);
		b->has2 = b->built2;
		b->ready = true;
		treebuild_match(b);
	}
	if (b->done)
		b->done(b->owner);
}

void sv_treebuild_start(
	struct sv_treebuild *b, const struct sv_session *s, bool expand)
{
	const struct sv_profile *p = s->p;
	size_t l;

	treebuild_stop(b);
	free(b->lane_on);
	b->lane_on = sv_xcalloc(p->nlanes + 1, sizeof *b->lane_on);
	b->work = 0;
	for (l = 0; l < p->nlanes; l++) {
		b->lane_on[l] = sv_session_lane_shown(s, l);
		if (b->lane_on[l])
			b->work += p->lanes[l].ncalls;
	}
	memset(&b->scope, 0, sizeof b->scope);
	b->scope.lane_on = b->lane_on;
	b->scope.has_range = s->has_range;
	b->scope.t0 = s->range_t0;
	b->scope.t1 = s->range_t1;
	b->scope.expand_recursion = expand;
	b->p = p;
	b->cancelled = false;
	atomic_store(&b->cancel, 0);
	atomic_store(&b->progress, 0);
	atomic_store(&b->progress2, 0);
	b->scope.cancel = &b->cancel;
	b->scope.progress = &b->progress;
	treebuild_second(b, s, expand);
	if (b->work <= b->sync_max) {
		sv_callpath_fini(&b->tree);
		sv_callpath_build(&b->tree, p, &b->scope, NULL);
		b->tree.scope.lane_on = NULL; /* freed by the next start */
		treebuild_build_second(b);
		b->has2 = b->built2;
		b->ready = true;
		treebuild_match(b);
		if (b->done)
			b->done(b->owner);
		return;
	}
	/* Without a thread the job runs at once, and is adopted at once. */
	b->running = true;
	sv_jobs_start(
		b->jobs, &b->job, treebuild_run, treebuild_adopt, b, b->work);
}

void sv_treebuild_cancel(struct sv_treebuild *b)
{
	if (!b->running)
		return;
	treebuild_stop(b);
	b->cancelled = true;
}

bool sv_treebuild_busy(const struct sv_treebuild *b)
{
	return b->running;
}

double sv_treebuild_fraction(const struct sv_treebuild *b)
{
	uint64_t done = atomic_load((atomic_uint_fast64_t *)&b->progress) +
			atomic_load((atomic_uint_fast64_t *)&b->progress2);
	if (!b->work)
		return 0;
	return done >= b->work ? 1.0 : (double)done / (double)b->work;
}

void sv_treebuild_reset(struct sv_treebuild *b)
{
	struct sv_jobs *jobs = b->jobs;
	void (*done)(void *owner) = b->done;
	void *owner = b->owner;

	sv_treebuild_fini(b);
	sv_treebuild_init(b, jobs, done, owner);
}

void sv_treebuild_scope_text(const struct sv_session *s, char *buf, size_t n)
{
	size_t used;
	char a[32], b[32];

	snprintf(buf, n, "%s%s", s->rank_spec[0] ? "ranks " : "all ranks",
		s->rank_spec);
	used = strlen(buf);
	if (s->solo_lane >= 0 && (size_t)s->solo_lane < s->p->nlanes &&
		used < n)
		used += (size_t)snprintf(buf + used, n - used, ", lane %s",
			s->p->lanes[s->solo_lane].label);
	if (used >= n)
		return;
	if (s->has_range)
		snprintf(buf + used, n - used,
			", range %s .. %s (range: calls count with their time "
			"inside)",
			sv_render_rel(sv_sub_sat(s->range_t0, s->origin), a,
				sizeof a),
			sv_render_rel(sv_sub_sat(s->range_t1, s->origin), b,
				sizeof b));
	else
		snprintf(buf + used, n - used, ", whole run");
}

void sv_treebuild_progress_text(
	const struct sv_treebuild *b, char *buf, size_t n)
{
	snprintf(buf, n,
		"building the tree of %" PRIu64 " calls: %d%% (Esc stops)",
		b->work, (int)(100.0 * sv_treebuild_fraction(b)));
}
