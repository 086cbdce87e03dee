/*
 * callpath.h: where the time goes: the calls of a profile merged into
 * distinct call paths (a call tree), for the tree, callers and flame views
 * and for `scopeview tree` / `scopeview export --format collapsed`.
 *
 * A call's path is the regions of the calls enclosing it in its lane (the
 * profile's parent links, nest.h) from the top of the lane down to its
 * own region.  Calls with the same path are merged into one node, over
 * every lane and rank in the scope.  Recursion (a region called while a
 * call of the same region is open on the lane, like fib) is collapsed by
 * default: the inner call joins the node of the outermost open call of
 * its region, the node is marked recursive and its inclusive time counts
 * the outermost calls only, so no time is counted twice; with
 * expand_recursion every level is a node of its own.
 *
 * The scope is the lanes on display (lane_on) and, optionally, a time
 * range [t0, t1): a call counts with the part of its time inside the range
 * (Tracy's and Perfetto's rule), both for inclusive time and for exclusive
 * time (its clipped time minus what its children cover inside the range);
 * a call counts as a call when it meets the range (a zero-length call when
 * it lies inside).  Without a range the exclusive times are the profile's
 * own (exclusive[]), so the tree agrees with the statistics.
 *
 * The tree is columnar: a flat array of nodes with child index lists, and
 * no object per call.  Nothing here knows about curses or HDF5.
 */
#ifndef SCOPEVIEW_CALLPATH_H
#define SCOPEVIEW_CALLPATH_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_MODEL)
#error "scopeview/callpath.h belongs to the model layer, which this layer may not use"
#endif

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/common.h"
#include "scopeview/profile.h"

#define SV_CALLPATH_NONE UINT32_MAX /* "no node" */

/* One distinct call path.  Times are ns (clipped to the range, if any). */
struct sv_callpath_node {
	uint32_t region;   /* index into the profile's regions */
	uint32_t parent;   /* node index, SV_CALLPATH_NONE for a root */
	uint32_t depth;    /* 0 for a root */
	bool recursive;    /* some call of the region ran inside another of
			    the same region here (collapsed into this node,
			    or, expanded, below a node of its region) */
	uint64_t calls;    /* calls merged into this node that meet the scope */
	uint64_t entries;  /* of which outermost: not inside a call of the
			     node (== calls unless recursion collapsed) */
	int64_t inclusive; /* sum of the entries' (clipped) durations */
	int64_t exclusive; /* sum of every call's exclusive time */
	int64_t min, max;  /* of the entries' durations; 0 if none */
	uint32_t longest;  /* the entry of duration max (SV_NO_CALL if none) */
	/* Children: child[first_child .. first_child + nchildren) of the
	 * tree, in the tree's sort order (largest inclusive first). */
	uint32_t first_child, nchildren;
};

/* What the tree covers. */
struct sv_callpath_scope {
	const bool *lane_on; /* p->nlanes flags; NULL = every lane */
	bool has_range;      /* count only the part of calls in [t0, t1) */
	int64_t t0, t1;
	bool expand_recursion; /* a node per level of recursion */
	/* Keep the nodes that hold no call of the scope and lead to none
	 * (the enclosing calls of a range's first calls): for a tree that
	 * sv_callpath_merge merges with others, which drops them after, as
	 * one build over every lane would. */
	bool keep_empty;
	/* Cancellation and progress, for a build in a background thread
	 * (both may be NULL): the build stops with -ECANCELED soon after
	 * *cancel becomes nonzero, and stores the calls done so far in
	 * *progress every few thousand calls. */
	const atomic_int *cancel;
	atomic_uint_fast64_t *progress;
};

/* Sibling orders (sv_callpath_sort). */
#define SV_CALLPATH_KEYS(X)                  \
	X(NAME, "name", "region name")       \
	X(CALLS, "calls", "number of calls") \
	X(INCL, "incl", "inclusive time")    \
	X(EXCL, "excl", "exclusive time")    \
	X(AVG, "avg", "average time a call") \
	X(MIN, "min", "shortest call")       \
	X(MAX, "max", "longest call")

enum sv_callpath_key {
#define SV_CALLPATH_KEY_ENUM(id, name, help) SV_CALLPATH_KEY_##id,
	SV_CALLPATH_KEYS(SV_CALLPATH_KEY_ENUM)
#undef SV_CALLPATH_KEY_ENUM
		SV_CALLPATH_KEY_COUNT
};

struct sv_callpath {
	const struct sv_profile *p; /* borrowed, until sv_callpath_fini */
	struct sv_callpath_node *nodes;
	uint32_t nnodes;
	uint32_t *child; /* children lists of every node (nnodes - nroots
			    entries), see first_child */
	uint32_t *roots; /* root nodes, sorted like children */
	uint32_t nroots;
	struct sv_callpath_scope scope; /* as built (cancel, progress NULL) */
	enum sv_callpath_key sort_key;
	uint64_t calls;      /* calls in the scope (sum of the nodes' calls) */
	int64_t total;       /* sum of the roots' inclusive time: the scope's
			       time, the base of sv_callpath_pct */
	int64_t exclusive;   /* sum of every node's exclusive time */
	uint64_t calls_seen; /* calls looked at (the work done) */
};

/*
 * Build the call tree of p (finished, with calls; an aggregate profile
 * gives an empty tree) over scope (NULL: every lane, the whole run,
 * recursion collapsed) into t, children sorted by inclusive time, largest
 * first.  Work is proportional to the calls of the lanes in scope that
 * meet the range.  Returns 0, -ECANCELED (t is then empty but valid), or
 * -EINVAL with err for a range with t1 < t0.  Call sv_callpath_fini()
 * after any return.
 */
int sv_callpath_build(struct sv_callpath *t, const struct sv_profile *p,
	const struct sv_callpath_scope *scope, struct sv_error *err);
/*
 * The tree one build over the lanes of several trees' builds together
 * would give (scopeview-mpi: each process builds the tree of its ranks'
 * lanes).  nodes[0 .. nnodes) are the trees' nodes one after the other,
 * each tree's in its own order (parents first), their parent fields
 * indexes into nodes (a parent before its child); built with the same
 * scope and keep_empty.  Nodes of the same path of regions become one:
 * calls, entries, inclusive and exclusive time add (saturating, as the
 * build adds them), min and max combine over the entries, recursive if
 * either is; longest is SV_NO_CALL (the calls are other profiles').
 * Then the nodes that hold no call and lead to none are dropped (unless
 * scope->keep_empty), and the children sorted by inclusive time.  p gives the region names (the
 * same region indexes as the trees').  Returns 0, or -EINVAL with err
 * for a node whose region or parent is out of range; call
 * sv_callpath_fini() after any return.
 */
int sv_callpath_merge(struct sv_callpath *t, const struct sv_profile *p,
	const struct sv_callpath_scope *scope,
	const struct sv_callpath_node *nodes, size_t nnodes,
	struct sv_error *err);
/* NULL-safe; leaves t empty. */
void sv_callpath_fini(struct sv_callpath *t);

/* Re-sort every sibling list by key (ties by name, then region);
 * NAME sorts ascending, the figures descending. */
void sv_callpath_sort(struct sv_callpath *t, enum sv_callpath_key key);
/* The key's name ("incl") and help; the key of a name, or -1. */
const char *sv_callpath_key_name(enum sv_callpath_key key);
const char *sv_callpath_key_help(enum sv_callpath_key key);
int sv_callpath_key_from_name(const char *name);
/* The figure a key sorts by, for node n (NAME: 0). */
int64_t sv_callpath_figure(
	const struct sv_callpath *t, uint32_t n, enum sv_callpath_key key);

/* Node n's average time a call: inclusive / entries (0 without), so a
 * collapsed recursive node averages its outermost calls. */
int64_t sv_callpath_avg(const struct sv_callpath *t, uint32_t n);
/* Node n's inclusive time as a percentage of the scope's time. */
double sv_callpath_pct(const struct sv_callpath *t, uint32_t n);
/* The region name of node n (a pointer into the profile). */
const char *sv_callpath_name(const struct sv_callpath *t, uint32_t n);
/* For a comparison of two runs: out[n] (a->nnodes entries) gets the node
 * of b with the same path of region names as node n of a, or
 * SV_CALLPATH_NONE when b has no such path.  The trees may come from
 * different profiles. */
void sv_callpath_match(const struct sv_callpath *a, const struct sv_callpath *b,
	uint32_t *out);
/* The children of n (n == SV_CALLPATH_NONE: the roots); *count gets how
 * many.  A pointer into t, valid until sv_callpath_sort or _fini. */
const uint32_t *sv_callpath_children(
	const struct sv_callpath *t, uint32_t n, uint32_t *count);
/* Fill path[0 .. depth] with the nodes from the root down to n; returns
 * how many (depth + 1), or 0 when max is too small. */
size_t sv_callpath_path(
	const struct sv_callpath *t, uint32_t n, uint32_t *path, size_t max);

/*
 * Which nodes to show under region filters (flags of p->nregions each,
 * NULL = no filter): a node is shown unless it or an ancestor has an
 * excluded region, and, with include flags, only when it or an ancestor
 * or a shown descendant has an included region.  Fills show[0 ..
 * nnodes).
 */
void sv_callpath_visible(const struct sv_callpath *t, const bool *include,
	const bool *exclude, bool *show);

#endif
