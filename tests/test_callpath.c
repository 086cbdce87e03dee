/*
 * test_callpath.c: calls merged into call paths (callpath.h): table cases
 * for nesting, recursion collapsed and expanded, several lanes and ranks,
 * zero-length calls, partial overlaps and range clipping at both edges;
 * properties on random profiles (exclusive time adds up, roots hold the
 * regions' top-level totals, a range's tree adds up to the clipped calls);
 * sorting, filters, cancellation and degenerate input; the trees of
 * each rank merged (sv_callpath_merge) against the tree of the whole.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/callpath.h"
#include "scopeview/profile.h"

/* Add a row of region name on rank with "START:END[/tTHREAD]" items. */
static void row(
	struct sv_profile *p, uint32_t rank, const char *name, const char *spec)
{
	int64_t reg = sv_profile_find_region(p, name);
	struct sv_row *r;
	uint64_t n = 0, k = 0;
	const char *s;
	char *end;

	if (reg < 0)
		reg = sv_profile_add_region(p, name);
	for (s = spec; *s; s++)
		if (*s == ':')
			n++;
	r = sv_profile_add_row(p, rank, (uint32_t)reg, n, NULL);
	ck_assert_ptr_nonnull(r);
	s = spec;
	while (k < n) {
		uint64_t c = r->first + k++;
		p->start_ns[c] = strtoll(s, &end, 10);
		ck_assert_int_eq(*end, ':');
		p->end_ns[c] = strtoll(end + 1, &end, 10);
		if (*end == '/' && end[1] == 't') {
			int64_t *col = sv_profile_column(p, &p->thread_id, -1);
			col[c] = strtoll(end + 2, &end, 10);
		}
		s = end;
		while (*s == ' ')
			s++;
	}
}

/* One line per node, depth first in sort order:
 * "a>b calls incl excl min max[ R]". */
static void dump(const struct sv_callpath *t, uint32_t n, char *out, size_t cap)
{
	uint32_t k, cnt, i;
	const uint32_t *kids = sv_callpath_children(t, n, &cnt);

	for (k = 0; k < cnt; k++) {
		uint32_t path[64];
		size_t np = sv_callpath_path(t, kids[k], path, 64), used;
		const struct sv_callpath_node *x = &t->nodes[kids[k]];
		for (i = 0; i < np; i++) {
			used = strlen(out);
			snprintf(out + used, cap - used, "%s%s", i ? ">" : "",
				sv_callpath_name(t, path[i]));
		}
		used = strlen(out);
		snprintf(out + used, cap - used,
			" %llu %lld %lld %lld %lld%s\n",
			(unsigned long long)x->calls, (long long)x->inclusive,
			(long long)x->exclusive, (long long)x->min,
			(long long)x->max, x->recursive ? " R" : "");
		dump(t, kids[k], out, cap);
	}
}

struct cp_case {
	const char *what;
	const char *rows[6][3]; /* rank, name, calls */
	bool range, expand;
	int64_t t0, t1;
	const char *want;
};

static const struct cp_case cp_cases[] = {
	{"nesting",
		{{"0", "main", "0:100"}, {"0", "solve", "10:40 50:70"},
			{"0", "kernel", "15:20"}},
		false, false, 0, 0,
		"main 1 100 50 100 100\n"
		"main>solve 2 50 45 20 30\n"
		"main>solve>kernel 1 5 5 5 5\n"},
	{"recursion collapsed into one node",
		{{"0", "fib", "0:100 10:90 20:80"}, {"0", "leaf", "30:40"}},
		false, false, 0, 0,
		"fib 3 100 90 100 100 R\n"
		"fib>leaf 1 10 10 10 10\n"},
	{"recursion expanded",
		{{"0", "fib", "0:100 10:90 20:80"}, {"0", "leaf", "30:40"}},
		false, true, 0, 0,
		"fib 1 100 20 100 100\n"
		"fib>fib 1 80 20 80 80 R\n"
		"fib>fib>fib 1 60 50 60 60 R\n"
		"fib>fib>fib>leaf 1 10 10 10 10\n"},
	{"mutual recursion joins the outermost calls",
		{{"0", "a", "0:100 20:80"}, {"0", "b", "10:90 30:70"}}, false,
		false, 0, 0,
		"a 2 100 40 100 100 R\n"
		"a>b 2 80 60 80 80 R\n"},
	{"lanes and ranks merge",
		{{"0", "main", "0:100/t0 0:50/t1"}, {"0", "k", "10:20/t1"},
			{"1", "main", "0:30/t0"}},
		false, false, 0, 0,
		"main 3 180 170 30 100\n"
		"main>k 1 10 10 10 10\n"},
	{"zero-length calls inside and at the end",
		{{"0", "main", "0:100"}, {"0", "z", "10:10 100:100"}}, false,
		false, 0, 0,
		"main 1 100 100 100 100\n"
		"main>z 1 0 0 0 0\n"
		"z 1 0 0 0 0\n"},
	{"partial overlap charges the covered part",
		{{"0", "a", "0:100"}, {"0", "b", "50:150"}}, false, false, 0, 0,
		"a 1 100 50 100 100\n"
		"a>b 1 100 100 100 100\n"},
	{"range clips at both edges",
		{{"0", "main", "0:100"}, {"0", "solve", "10:40 50:90"}}, true,
		false, 20, 60,
		"main 1 40 10 40 40\n"
		"main>solve 2 30 30 10 20\n"},
	{"range inside one call: its chain counts",
		{{"0", "main", "0:100"}, {"0", "solve", "10:40 50:90"}}, true,
		false, 30, 35,
		"main 1 5 0 5 5\n"
		"main>solve 1 5 5 5 5\n"},
	{"range clips a partial overlap",
		{{"0", "a", "0:100"}, {"0", "b", "50:150"}}, true, false, 90,
		120,
		"a 1 10 0 10 10\n"
		"a>b 1 30 30 30 30\n"},
	{"range after every call", {{"0", "main", "0:100"}}, true, false, 200,
		300, ""},
	{"zero-length call at the range start counts, at its end not",
		{{"0", "main", "0:100"}, {"0", "z", "20:20 40:40"}}, true,
		false, 20, 40,
		"main 1 20 20 20 20\n"
		"main>z 1 0 0 0 0\n"},
};

START_TEST(test_callpath_table)
{
	const struct cp_case *tc = &cp_cases[_i];
	struct sv_profile *p = sv_profile_new("mem.h5");
	struct sv_callpath_scope sc = {0};
	struct sv_callpath t;
	char out[2048] = "";
	size_t i;

	/* given the rows of the case */
	for (i = 0; i < 6 && tc->rows[i][0]; i++)
		row(p, (uint32_t)atoi(tc->rows[i][0]), tc->rows[i][1],
			tc->rows[i][2]);
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	sc.has_range = tc->range;
	sc.t0 = tc->t0;
	sc.t1 = tc->t1;
	sc.expand_recursion = tc->expand;

	/* when the tree is built */
	ck_assert_int_eq(sv_callpath_build(&t, p, &sc, NULL), 0);
	dump(&t, SV_CALLPATH_NONE, out, sizeof out);

	/* then its nodes are the case's */
	ck_assert_msg(!strcmp(out, tc->want), "%s:\n%s--- want\n%s", tc->what,
		out, tc->want);
	sv_callpath_fini(&t);
	sv_profile_free(p);
}
END_TEST

/* A random nested lane: calls inside [t0, t1) on rank and thread. */
static void rnd_calls(struct sv_profile *p, unsigned *seed, uint32_t rank,
	int64_t thread, int64_t t0, int64_t t1, int depth)
{
	static const char *names[] = {"a", "b", "c", "d", "fib"};
	while (t0 < t1 && depth < 6) {
		int64_t s = t0 + rand_r(seed) % 20, e;
		char spec[64];
		if (s >= t1)
			break;
		e = s + rand_r(seed) % (t1 - s + 1);
		snprintf(spec, sizeof spec, "%lld:%lld/t%lld", (long long)s,
			(long long)e, (long long)thread);
		row(p, rank, names[rand_r(seed) % 5], spec);
		if (e > s && rand_r(seed) % 3)
			rnd_calls(p, seed, rank, thread, s, e, depth + 1);
		t0 = e + 1 + rand_r(seed) % 5;
	}
}

START_TEST(test_callpath_properties)
{
	unsigned seed = 17u + (unsigned)_i;
	struct sv_profile *p = sv_profile_new("mem.h5");
	struct sv_callpath t, tr;
	struct sv_callpath_scope sc = {0};
	int64_t excl = 0, *top, clipped = 0, t0, t1;
	uint32_t c, k;

	/* given random lanes on two ranks, two threads each */
	rnd_calls(p, &seed, 0, 0, 0, 2000, 0);
	rnd_calls(p, &seed, 0, 1, 0, 2000, 0);
	rnd_calls(p, &seed, 1, 0, 0, 2000, 0);
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	sc.expand_recursion = _i % 2;

	/* when the tree of the whole run is built */
	ck_assert_int_eq(sv_callpath_build(&t, p, &sc, NULL), 0);

	/* then the nodes' exclusive times add up to the calls', and each
	 * root holds its region's top-level total */
	top = sv_xcalloc(p->nregions, sizeof *top);
	for (c = 0; c < p->ncalls; c++) {
		excl += sv_profile_exclusive(p, c);
		if (sv_profile_parent(p, c) == SV_NO_CALL)
			top[sv_call_region(p, c)] += sv_call_duration(p, c);
	}
	ck_assert_int_eq(t.exclusive, excl);
	ck_assert_uint_eq(t.calls, p->ncalls);
	for (k = 0; k < t.nroots; k++) {
		const struct sv_callpath_node *n = &t.nodes[t.roots[k]];
		ck_assert_int_eq(n->inclusive, top[n->region]);
		top[n->region] = -1;
	}
	for (k = 0; k < p->nregions; k++)
		ck_assert(top[k] == -1 || top[k] == 0);

	/* and a range's tree holds the clipped top-level time */
	t0 = 300 + _i * 37;
	t1 = t0 + 500;
	for (c = 0; c < p->ncalls; c++) {
		int64_t s = sv_profile_start(p, c), e = sv_profile_end(p, c);
		if (sv_profile_parent(p, c) != SV_NO_CALL)
			continue;
		s = s < t0 ? t0 : s;
		e = e > t1 ? t1 : e;
		if (e > s)
			clipped += e - s;
	}
	sc.has_range = true;
	sc.t0 = t0;
	sc.t1 = t1;
	ck_assert_int_eq(sv_callpath_build(&tr, p, &sc, NULL), 0);
	ck_assert_int_eq(tr.total, clipped);
	ck_assert_int_eq(tr.exclusive, tr.total);
	sv_callpath_fini(&tr);
	sv_callpath_fini(&t);
	free(top);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_callpath_sort_and_filter)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	struct sv_callpath t;
	bool inc[4] = {0}, exc[4] = {0}, show[8];
	const uint32_t *kids;
	uint32_t n, main_node;

	row(p, 0, "main", "0:100");
	row(p, 0, "b", "10:20 30:35 40:45");
	row(p, 0, "a", "50:90");
	row(p, 0, "k", "60:70");
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	ck_assert_int_eq(sv_callpath_build(&t, p, NULL, NULL), 0);
	main_node = t.roots[0];

	/* by inclusive time: a (40) before b (20) */
	kids = sv_callpath_children(&t, main_node, &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(sv_callpath_name(&t, kids[0]), "a");
	/* by calls: b (3) first; by name: a first */
	sv_callpath_sort(&t, SV_CALLPATH_KEY_CALLS);
	kids = sv_callpath_children(&t, main_node, &n);
	ck_assert_str_eq(sv_callpath_name(&t, kids[0]), "b");
	sv_callpath_sort(&t, SV_CALLPATH_KEY_NAME);
	kids = sv_callpath_children(&t, main_node, &n);
	ck_assert_str_eq(sv_callpath_name(&t, kids[0]), "a");
	ck_assert_int_eq(
		sv_callpath_key_from_name("excl"), SV_CALLPATH_KEY_EXCL);
	ck_assert_int_eq(sv_callpath_key_from_name("nope"), -1);
	ck_assert_int_eq(sv_callpath_avg(&t, kids[1]), 20 / 3);
	ck_assert(sv_callpath_pct(&t, main_node) == 100.0);

	/* include k: k, its ancestors a and main; not b */
	inc[3] = true;
	sv_callpath_visible(&t, inc, NULL, show);
	for (n = 0; n < t.nnodes; n++)
		ck_assert_msg(
			show[n] == (strcmp(sv_callpath_name(&t, n), "b") != 0),
			"include k: %s", sv_callpath_name(&t, n));
	/* exclude a: a and k go */
	exc[2] = true;
	sv_callpath_visible(&t, NULL, exc, show);
	for (n = 0; n < t.nnodes; n++)
		ck_assert(show[n] ==
			  (strcmp(sv_callpath_name(&t, n), "a") &&
				  strcmp(sv_callpath_name(&t, n), "k")));
	/* include k, exclude a: k is hidden under a, so main is not kept
	 * for it: nothing is shown */
	sv_callpath_visible(&t, inc, exc, show);
	for (n = 0; n < t.nnodes; n++)
		ck_assert_msg(!show[n], "include k, exclude a: %s",
			sv_callpath_name(&t, n));
	sv_callpath_fini(&t);
	sv_profile_free(p);
}
END_TEST

/* Two runs' trees: paths matched by names, whatever the region numbers
 * and the sibling order. */
START_TEST(test_callpath_match_two_runs)
{
	struct sv_profile *a = sv_profile_new("a.h5"),
			  *b = sv_profile_new("b.h5");
	struct sv_callpath ta, tb;
	uint32_t *m, n;

	/* A: main > solve > kernel, main > io; B: main > io (first, with
	 * another region number), main > solve (no kernel), top > solve. */
	row(a, 0, "main", "0:100");
	row(a, 0, "solve", "10:50");
	row(a, 0, "kernel", "20:30");
	row(a, 0, "io", "60:70");
	row(b, 0, "io", "60:95");
	row(b, 0, "main", "0:100");
	row(b, 0, "solve", "10:50");
	row(b, 0, "top", "200:300");
	row(b, 0, "solve", "210:220");
	ck_assert_int_eq(sv_profile_finish(a, NULL), 0);
	ck_assert_int_eq(sv_profile_finish(b, NULL), 0);
	ck_assert_int_eq(sv_callpath_build(&ta, a, NULL, NULL), 0);
	ck_assert_int_eq(sv_callpath_build(&tb, b, NULL, NULL), 0);
	m = malloc(ta.nnodes * sizeof *m);
	sv_callpath_match(&ta, &tb, m);
	for (n = 0; n < ta.nnodes; n++) {
		char pa[128] = "", pb[128] = "";
		uint32_t path[8], k;
		size_t np = sv_callpath_path(&ta, n, path, 8);
		for (k = 0; k < np; k++)
			strcat(strcat(pa, ">"), sv_callpath_name(&ta, path[k]));
		if (!strcmp(pa, ">main>solve>kernel")) {
			ck_assert_uint_eq(m[n], SV_CALLPATH_NONE);
			continue;
		}
		ck_assert_uint_ne(m[n], SV_CALLPATH_NONE);
		np = sv_callpath_path(&tb, m[n], path, 8);
		for (k = 0; k < np; k++)
			strcat(strcat(pb, ">"), sv_callpath_name(&tb, path[k]));
		ck_assert_str_eq(pa, pb);
	}
	/* main > io took 35 ns in B, 10 in A */
	for (n = 0; n < ta.nnodes; n++)
		if (!strcmp(sv_callpath_name(&ta, n), "io"))
			ck_assert_int_eq(tb.nodes[m[n]].inclusive, 35);
	free(m);
	sv_callpath_fini(&ta);
	sv_callpath_fini(&tb);
	sv_profile_free(a);
	sv_profile_free(b);
}
END_TEST

START_TEST(test_callpath_degenerate)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	struct sv_callpath t;
	struct sv_callpath_scope sc = {0};
	struct sv_error err = {0};
	atomic_int cancel = 1;
	uint32_t i;

	/* no tree, no profile, a backwards range */
	ck_assert_int_eq(sv_callpath_build(NULL, p, NULL, NULL), -EINVAL);
	ck_assert_int_eq(sv_callpath_build(&t, NULL, NULL, NULL), -EINVAL);
	sv_callpath_fini(&t);
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	sc.has_range = true;
	sc.t0 = 10;
	sc.t1 = 5;
	ck_assert_int_eq(sv_callpath_build(&t, p, &sc, &err), -EINVAL);
	ck_assert(strstr(err.msg, "range"));
	sv_callpath_fini(&t);
	/* an empty profile: an empty tree */
	ck_assert_int_eq(sv_callpath_build(&t, p, NULL, NULL), 0);
	ck_assert_uint_eq(t.nnodes, 0);
	ck_assert_uint_eq(t.nroots, 0);
	sv_callpath_fini(&t);
	sv_callpath_fini(NULL);
	sv_profile_free(p);

	/* cancelled: stops with -ECANCELED and an empty tree */
	p = sv_profile_new("mem.h5");
	{
		uint32_t x = sv_profile_add_region(p, "x");
		struct sv_row *r = sv_profile_add_row(p, 0, x, 70000, NULL);
		for (i = 0; i < 70000; i++) {
			p->start_ns[r->first + i] = 10 + 2 * (int64_t)i;
			p->end_ns[r->first + i] = 11 + 2 * (int64_t)i;
		}
	}
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	memset(&sc, 0, sizeof sc);
	sc.cancel = &cancel;
	ck_assert_int_eq(sv_callpath_build(&t, p, &sc, NULL), -ECANCELED);
	ck_assert_uint_eq(t.nnodes, 0);
	sv_callpath_fini(&t);
	sv_profile_free(p);
}
END_TEST

/* The trees of each rank's lanes of p under sc, built one by one (as the
 * processes of scopeview-mpi build them) with keep_empty as given, then
 * merged (sv_callpath_merge) into t. */
static void merge_ranks(struct sv_callpath *t, const struct sv_profile *p,
	const struct sv_callpath_scope *sc, uint32_t nranks, bool keep_empty)
{
	struct sv_callpath_node *all = NULL;
	size_t nall = 0, cap = 0;
	uint32_t r, i;
	bool *on = sv_xcalloc(p->nlanes + 1, sizeof *on);

	for (r = 0; r < nranks; r++) {
		struct sv_callpath_scope one = *sc;
		struct sv_callpath lt;
		for (i = 0; i < p->nlanes; i++)
			on[i] = p->lanes[i].rank == r;
		one.lane_on = on;
		one.keep_empty = keep_empty;
		ck_assert_int_eq(sv_callpath_build(&lt, p, &one, NULL), 0);
		sv_grow((void **)&all, &cap, nall + lt.nnodes + 1, sizeof *all);
		for (i = 0; i < lt.nnodes; i++) {
			all[nall + i] = lt.nodes[i];
			if (lt.nodes[i].parent != SV_CALLPATH_NONE)
				all[nall + i].parent += (uint32_t)nall;
		}
		nall += lt.nnodes;
		sv_callpath_fini(&lt);
	}
	ck_assert_int_eq(sv_callpath_merge(t, p, sc, all, nall, NULL), 0);
	free(all);
	free(on);
}

/* Random profiles of three ranks: the trees of the ranks merged are the
 * tree of the whole, node for node, with and without a range and
 * recursion expanded or not. */
START_TEST(test_callpath_merge_matches_build)
{
	unsigned seed = 91u + (unsigned)_i;
	struct sv_profile *p = sv_profile_new("mem.h5");
	struct sv_callpath_scope sc = {0};
	struct sv_callpath whole, merged;
	char *a = sv_xcalloc(1, 1 << 16), *b = sv_xcalloc(1, 1 << 16);
	uint32_t r;

	/* given random lanes on three ranks */
	for (r = 0; r < 3; r++) {
		rnd_calls(p, &seed, r, 0, 0, 1500, 0);
		rnd_calls(p, &seed, r, 1, 0, 1500, 0);
	}
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	sc.expand_recursion = _i % 2;
	sc.has_range = _i % 4 >= 2;
	sc.t0 = 200 + _i * 41;
	sc.t1 = sc.t0 + 300;

	/* when the whole is built, and each rank's built and merged */
	ck_assert_int_eq(sv_callpath_build(&whole, p, &sc, NULL), 0);
	merge_ranks(&merged, p, &sc, 3, true);

	/* then every node's figures, the totals and the order agree */
	dump(&whole, SV_CALLPATH_NONE, a, 1 << 16);
	dump(&merged, SV_CALLPATH_NONE, b, 1 << 16);
	ck_assert_msg(!strcmp(a, b), "whole:\n%s--- merged:\n%s", a, b);
	ck_assert_uint_eq(merged.nnodes, whole.nnodes);
	ck_assert_uint_eq(merged.calls, whole.calls);
	ck_assert_int_eq(merged.total, whole.total);
	ck_assert_int_eq(merged.exclusive, whole.exclusive);
	ck_assert(merged.nnodes > 3);
	sv_callpath_fini(&merged);
	sv_callpath_fini(&whole);
	free(a);
	free(b);
	sv_profile_free(p);
}
END_TEST

/* A range that starts after rank 0's recursion ended: its chain is
 * walked without counting, and marks main>fib recursive, which rank 1's
 * counted call keeps.  Merged from trees that kept their empty nodes,
 * the flag is there; from pruned trees it would be lost. */
START_TEST(test_callpath_merge_keeps_empty_nodes)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	struct sv_callpath_scope sc = {0};
	struct sv_callpath whole, merged, pruned;
	char a[512] = "", b[512] = "", c[512] = "";
	struct sv_callpath_node bad = {0};
	struct sv_error err = {0};

	row(p, 0, "main", "0:100");
	row(p, 0, "fib", "10:20 12:18");
	row(p, 1, "main", "0:100");
	row(p, 1, "fib", "55:58");
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	sc.has_range = true;
	sc.t0 = 50;
	sc.t1 = 60;
	ck_assert_int_eq(sv_callpath_build(&whole, p, &sc, NULL), 0);
	merge_ranks(&merged, p, &sc, 2, true);
	merge_ranks(&pruned, p, &sc, 2, false);
	dump(&whole, SV_CALLPATH_NONE, a, sizeof a);
	dump(&merged, SV_CALLPATH_NONE, b, sizeof b);
	dump(&pruned, SV_CALLPATH_NONE, c, sizeof c);
	ck_assert_str_eq(a, "main 2 20 17 10 10\nmain>fib 1 3 3 3 3 R\n");
	ck_assert_str_eq(b, a);
	ck_assert_str_eq(c, "main 2 20 17 10 10\nmain>fib 1 3 3 3 3\n");
	sv_callpath_fini(&whole);
	sv_callpath_fini(&merged);
	sv_callpath_fini(&pruned);

	/* a node out of range is refused */
	bad.region = 99;
	bad.parent = SV_CALLPATH_NONE;
	ck_assert_int_eq(
		sv_callpath_merge(&merged, p, &sc, &bad, 1, &err), -EINVAL);
	ck_assert(strstr(err.msg, "out of range"));
	sv_callpath_fini(&merged);
	bad.region = 0;
	bad.parent = 0;
	ck_assert_int_eq(
		sv_callpath_merge(&merged, p, &sc, &bad, 1, &err), -EINVAL);
	sv_callpath_fini(&merged);
	sv_profile_free(p);
}
END_TEST

static Suite *callpath_suite(void)
{
	Suite *s = suite_create("callpath");
	TCase *tc = tcase_create("paths");
	tcase_add_loop_test(tc, test_callpath_table, 0,
		(int)(sizeof cp_cases / sizeof cp_cases[0]));
	tcase_add_loop_test(tc, test_callpath_properties, 0, 8);
	tcase_add_test(tc, test_callpath_sort_and_filter);
	tcase_add_test(tc, test_callpath_degenerate);
	tcase_add_test(tc, test_callpath_match_two_runs);
	tcase_add_loop_test(tc, test_callpath_merge_matches_build, 0, 12);
	tcase_add_test(tc, test_callpath_merge_keeps_empty_nodes);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return svt_run(callpath_suite());
}
