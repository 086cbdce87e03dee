/*
 * viewtest.h: in-memory profiles for the layout, view, render and snapshot
 * suites, built with profile.h's builder calls (no HDF5), plus the golden
 * screen comparison.  Header-only: every function is static inline.
 */
#ifndef SCOPEVIEW_TEST_VIEWTEST_H
#define SCOPEVIEW_TEST_VIEWTEST_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/grid.h"
#include "scopeview/keys.h"
#include "scopeview/profile.h"
#include "scopeview/view.h"

/* One call: rank, region name, [start, end) ns, lane (thread index or -1,
 * task index or -1), GPU ns (-1 none) and await ns. */
struct vt_call {
	uint32_t rank;
	const char *region;
	int64_t start, end;
	int64_t thread, task;
	int64_t gpu, await;
};

enum {
	VT_THREADS = 1, /* store thread_ids (and a thread table) */
	VT_TASKS = 2,   /* store task_ids and await_ns (and a task table) */
	VT_GPU = 4,     /* store gpu_durations */
	VT_START = 8,   /* metadata start_time_ns = 0 (times relative) */
};

/* A random properly nested lane of rank 0: [s, e) split recursively, up
 * to depth 4, with gaps and zero-length calls, into out[*n ..] (at most
 * cap calls in all), from seed. */
static inline void vt_rand_calls(struct vt_call *out, size_t *n, size_t cap,
	int64_t s, int64_t e, int depth, unsigned *seed)
{
	static const char *names[] = {"a", "b", "c", "d", "e"};
	int64_t t = s;
	while (t < e && *n < cap) {
		int64_t len =
			1 + (int64_t)(rand_r(seed) %
				      (unsigned)((e - t) > 1 ? (e - t) : 1));
		int64_t gap = rand_r(seed) % 3;
		if (t + gap + len > e)
			len = e - t - gap;
		if (len <= 0)
			break;
		if (rand_r(seed) % 5 == 0)
			len = 0; /* zero-length calls too */
		out[*n] = (struct vt_call){0, names[rand_r(seed) % 5], t + gap,
			t + gap + len, -1, -1, -1, 0};
		(*n)++;
		if (depth < 4 && len > 2)
			vt_rand_calls(out, n, cap, t + gap, t + gap + len,
				depth + 1, seed);
		t += gap + (len ? len : 1);
	}
}

/* A finished profile of the calls; rows group calls by (rank, region) in
 * first-appearance order. */
static inline struct sv_profile *vt_profile(
	const struct vt_call *calls, size_t n, unsigned flags)
{
	struct sv_profile *p = sv_profile_new("test.h5");
	struct sv_error err;
	size_t i, j;
	bool *done = calloc(n ? n : 1, sizeof *done);

	p->schema = 3;
	p->layout = SV_LAYOUT_COLUMNAR;
	p->has_calls = true;
	for (i = 0; i < n; i++) {
		int64_t r = sv_profile_find_region(p, calls[i].region);
		if (r < 0)
			sv_profile_add_region(p, calls[i].region);
	}
	for (i = 0; i < n; i++) {
		struct sv_row *row;
		uint64_t count = 0, k = 0;
		uint32_t region;
		if (done[i])
			continue;
		region = (uint32_t)sv_profile_find_region(p, calls[i].region);
		for (j = i; j < n; j++)
			if (!done[j] && calls[j].rank == calls[i].rank &&
				!strcmp(calls[j].region, calls[i].region))
				count++;
		row = sv_profile_add_row(p, calls[i].rank, region, count, &err);
		ck_assert_ptr_nonnull(row);
		if (flags & VT_THREADS)
			sv_profile_column(p, &p->thread_id, -1);
		if (flags & VT_TASKS) {
			sv_profile_column(p, &p->task_id, -1);
			sv_profile_column(p, &p->await_ns, 0);
		}
		if (flags & VT_GPU)
			sv_profile_column(p, &p->gpu_ns, -1);
		for (j = i; j < n; j++) {
			uint64_t c;
			if (done[j] || calls[j].rank != calls[i].rank ||
				strcmp(calls[j].region, calls[i].region))
				continue;
			c = row->first + k++;
			done[j] = true;
			p->start_ns[c] = calls[j].start;
			p->end_ns[c] = calls[j].end;
			if (flags & VT_THREADS)
				p->thread_id[c] = calls[j].thread;
			if (flags & VT_TASKS) {
				p->task_id[c] = calls[j].task;
				p->await_ns[c] = calls[j].await;
			}
			if (flags & VT_GPU)
				p->gpu_ns[c] = calls[j].gpu;
		}
	}
	if (flags & (VT_THREADS | VT_TASKS)) {
		/* Thread and task tables for every index used. */
		for (i = 0; i < n; i++) {
			if ((flags & VT_THREADS) && calls[i].thread >= 0 &&
				!sv_profile_thread(
					p, calls[i].rank, calls[i].thread)) {
				struct sv_thread *t = sv_profile_add_thread(p);
				t->rank = calls[i].rank;
				t->index = calls[i].thread;
				t->ident = 1000 + calls[i].thread;
				t->native_id = 2000 + calls[i].thread;
				t->name =
					calls[i].thread == 0
						? sv_xstrdup("MainThread")
						: sv_xasprintf("worker-%d",
							  (int)calls[i].thread);
				t->start_ns = t->end_ns = t->cpu_ns = -1;
			}
			if ((flags & VT_TASKS) && calls[i].task >= 0 &&
				!sv_profile_task(
					p, calls[i].rank, calls[i].task)) {
				struct sv_task *t = sv_profile_add_task(p);
				t->rank = calls[i].rank;
				t->index = calls[i].task;
				t->thread_index = calls[i].thread;
				t->kind = sv_xstrdup("task");
				t->name = sv_xasprintf(
					"Task-%d", (int)calls[i].task + 1);
				t->coro_name = sv_xstrdup("app.fetch");
				t->created_ns = t->done_ns = -1;
				t->steps = t->running_ns = t->suspended_ns = -1;
			}
		}
	}
	if (flags & VT_START) {
		struct sv_meta *m =
			sv_profile_add_meta(p, "start_time_ns", SV_META_INT);
		m->i = 0;
		m->f = 0;
		m->text = sv_xstrdup("0");
	}
	free(done);
	ck_assert_int_eq(sv_profile_finish(p, &err), 0);
	return p;
}

/* A random lane of rank 0 of about 6000 calls over [0, 20000 + 40000 i)
 * ns (vt_rand_calls), with, for an odd i, 40 calls more that overlap
 * their neighbours (a lane that does not nest), some very long. */
static inline struct sv_profile *vt_rand_lane(int i, unsigned *seed)
{
	size_t cap = 6000, n = 0, k, extra = i % 2 ? 40 : 0;
	struct vt_call *calls = calloc(cap + 40, sizeof *calls);
	struct sv_profile *p;

	ck_assert_ptr_nonnull(calls);
	vt_rand_calls(calls, &n, cap, 0, 20000 + 40000 * i, 0, seed);
	for (k = 0; k < extra; k++) {
		int64_t s = rand_r(seed) % 60000, len = rand_r(seed) % 9000;
		calls[n++] =
			(struct vt_call){0, "x", s, s + len, -1, -1, -1, 0};
	}
	p = vt_profile(calls, n, 0);
	free(calls);
	return p;
}

/* The grid as golden text: the characters, then the style letters. */
/* Feed a key script (keys.h names) to view v; returns the OR of the
 * flags. */
static inline int vt_keys(struct sv_view *v, const char *script)
{
	int *kv = NULL, flags = 0;
	size_t n = 0, i;
	struct sv_error err;
	ck_assert_msg(sv_keys_parse_script(script, &kv, &n, &err) == 0, "%s",
		err.msg);
	for (i = 0; i < n; i++)
		flags |= sv_view_handle_key(v, kv[i]);
	free(kv);
	return flags;
}

static inline char *vt_grid_dump(const struct sv_grid *g)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(sv_grid_write(g, f, SV_GRID_STYLES), 0);
	fclose(f);
	return buf;
}

/* Are we in CI (CI set and not false/0, or SCOPEVIEW_NO_SKIP=1)? */
static inline bool vt_in_ci(void)
{
	const char *ci = getenv("CI"), *ns = getenv("SCOPEVIEW_NO_SKIP");
	return (ci && *ci && strcmp(ci, "false") && strcmp(ci, "0")) ||
	       (ns && !strcmp(ns, "1"));
}

/* Compare g with tests/golden/NAME.txt.  On a mismatch write NAME.actual
 * beside it and fail with the diff command; SCOPEVIEW_UPDATE_GOLDEN=1
 * rewrites the golden instead, except in CI, where setting it fails. */
static inline void vt_golden(const struct sv_grid *g, const char *name)
{
	char *dump = vt_grid_dump(g);
	char *path =
		sv_xasprintf("%s/tests/golden/%s.txt", svt_source_root(), name);
	char *actual = sv_xasprintf(
		"%s/tests/golden/%s.actual", svt_source_root(), name);
	const char *upd = getenv("SCOPEVIEW_UPDATE_GOLDEN");
	char *want = svt_read_file(path, NULL);

	if (upd && *upd && vt_in_ci())
		ck_abort_msg("SCOPEVIEW_UPDATE_GOLDEN is set in CI, which "
			     "compares the goldens and never rewrites them");
	if (upd && !strcmp(upd, "1")) {
		FILE *f = fopen(path, "w");
		ck_assert_msg(f != NULL, "cannot write %s", path);
		fputs(dump, f);
		fclose(f);
		remove(actual);
	} else if (!want || strcmp(want, dump) != 0) {
		FILE *f = fopen(actual, "w");
		if (f) {
			fputs(dump, f);
			fclose(f);
		}
		ck_abort_msg("screen differs from the golden: diff -u %s %s "
			     "(SCOPEVIEW_UPDATE_GOLDEN=1 rewrites it)",
			path, actual);
	} else {
		remove(actual);
	}
	free(want);
	free(dump);
	free(path);
	free(actual);
}

/* The same comparison for any text (an ANSI or SVG dump in a theme):
 * text against tests/golden/NAME.txt, NAME.actual on a mismatch,
 * SCOPEVIEW_UPDATE_GOLDEN=1 rewrites it. */
static inline void vt_golden_text(const char *text, const char *name)
{
	char *path =
		sv_xasprintf("%s/tests/golden/%s.txt", svt_source_root(), name);
	char *actual = sv_xasprintf(
		"%s/tests/golden/%s.actual", svt_source_root(), name);
	const char *upd = getenv("SCOPEVIEW_UPDATE_GOLDEN");
	char *want = svt_read_file(path, NULL);
	FILE *f;

	if (upd && *upd && vt_in_ci())
		ck_abort_msg("SCOPEVIEW_UPDATE_GOLDEN is set in CI, which "
			     "compares the goldens and never rewrites them");
	if (upd && !strcmp(upd, "1")) {
		f = fopen(path, "w");
		ck_assert_msg(f != NULL, "cannot write %s", path);
		fputs(text, f);
		fclose(f);
		remove(actual);
	} else if (!want || strcmp(want, text) != 0) {
		f = fopen(actual, "w");
		if (f) {
			fputs(text, f);
			fclose(f);
		}
		ck_abort_msg("output differs from the golden: diff -u %s %s "
			     "(SCOPEVIEW_UPDATE_GOLDEN=1 rewrites it)",
			path, actual);
	} else {
		remove(actual);
	}
	free(want);
	free(path);
	free(actual);
}

#endif
