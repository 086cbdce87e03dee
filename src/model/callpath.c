/*
 * callpath.c: calls merged into distinct call paths (callpath.h).
 *
 * One pass over each lane in scope, in the lane's order (start ascending,
 * so a parent comes before its children), with a stack that mirrors the
 * lane's nesting (the profile's parent links): a call's node is the child
 * of its parent's node for its region, found in a hash of (parent node,
 * region), or, with recursion collapsed, the node of the outermost open
 * call of its region.  Figures are added to the nodes as calls are met,
 * so nothing is kept per call.  For a time range only the calls that meet
 * it are walked: those starting inside, and the chain of calls open at
 * its start (the enclosing calls of the last call starting before it).
 * Nodes are created parents first, so node order is a topological order,
 * which the filter pass relies on.  No curses, no HDF5, no printing.
 */
#include "scopeview/callpath.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The hash of (parent node, region) -> node, open addressing. */
struct cp_hash {
	uint64_t *keys; /* 0 = empty; else ((parent + 1) << 32 | region) + 1 */
	uint32_t *vals;
	size_t cap, used;
};

static uint64_t cp_hash_key(uint32_t parent, uint32_t region)
{
	return (((uint64_t)parent + 1) << 32 | region) + 1;
}

static size_t cp_hash_slot(const struct cp_hash *h, uint64_t key)
{
	return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & (h->cap - 1);
}

static void cp_hash_grow(struct cp_hash *h)
{
	struct cp_hash n;
	size_t i;

	n.cap = h->cap ? h->cap * 2 : 1024;
	n.used = h->used;
	n.keys = sv_xcalloc(n.cap, sizeof *n.keys);
	n.vals = sv_xmalloc(n.cap * sizeof *n.vals);
	for (i = 0; i < h->cap; i++) {
		size_t s;
		if (!h->keys[i])
			continue;
		s = cp_hash_slot(&n, h->keys[i]);
		while (n.keys[s])
			s = (s + 1) & (n.cap - 1);
		n.keys[s] = h->keys[i];
		n.vals[s] = h->vals[i];
	}
	free(h->keys);
	free(h->vals);
	*h = n;
}

/* The builder's state. */
struct cp_build {
	struct sv_callpath *t;
	const struct sv_profile *p;
	struct cp_hash hash;
	size_t node_cap;
	bool range, expand;
	int64_t t0, t1;
	/* The lane's open calls and their nodes. */
	uint32_t *st_call, *st_node;
	size_t depth, st_cap, st_cap2;
	/* Per region: open calls on the stack, and the outermost's node. */
	uint32_t *reg_open, *reg_node;
	uint32_t *chain; /* scratch for a chain of enclosing calls */
	size_t chain_cap;
};

static uint32_t cp_child(struct cp_build *b, uint32_t parent, uint32_t region)
{
	struct sv_callpath *t = b->t;
	uint64_t key = cp_hash_key(parent, region);
	struct sv_callpath_node *n;
	size_t s;

	if ((b->hash.used + 1) * 2 > b->hash.cap)
		cp_hash_grow(&b->hash);
	s = cp_hash_slot(&b->hash, key);
	while (b->hash.keys[s]) {
		if (b->hash.keys[s] == key)
			return b->hash.vals[s];
		s = (s + 1) & (b->hash.cap - 1);
	}
	sv_grow((void **)&t->nodes, &b->node_cap, (size_t)t->nnodes + 1,
		sizeof *t->nodes);
	n = &t->nodes[t->nnodes];
	memset(n, 0, sizeof *n);
	n->region = region;
	n->parent = parent;
	n->depth = parent == SV_CALLPATH_NONE ? 0 : t->nodes[parent].depth + 1;
	n->longest = SV_NO_CALL;
	b->hash.keys[s] = key;
	b->hash.vals[s] = t->nnodes;
	b->hash.used++;
	return t->nnodes++;
}

/* The part of [s, e) inside the range (the whole when there is none). */
static int64_t cp_clip(const struct cp_build *b, int64_t s, int64_t e)
{
	if (!b->range)
		return sv_sub_wrap(e, s);
	if (s < b->t0)
		s = b->t0;
	if (e > b->t1)
		e = b->t1;
	return e > s ? sv_sub_sat(e, s) : 0;
}

/* Whether call c meets the range. */
static bool cp_meets(const struct cp_build *b, uint32_t c)
{
	int64_t s = sv_profile_start(b->p, c), e = sv_profile_end(b->p, c);
	if (!b->range)
		return true;
	if (e <= s)
		return s >= b->t0 && s < b->t1;
	return s < b->t1 && e > b->t0;
}

/* Open call c on the stack; counted adds its figures to its node. */
static void cp_push(struct cp_build *b, uint32_t c, bool counted)
{
	const struct sv_profile *p = b->p;
	uint32_t r = sv_call_region(p, c), node;
	uint32_t par = b->depth ? b->st_node[b->depth - 1] : SV_CALLPATH_NONE;
	bool nested = b->reg_open[r] > 0;
	struct sv_callpath_node *n;

	if (nested && !b->expand)
		node = b->reg_node[r];
	else
		node = cp_child(b, par, r);
	n = &b->t->nodes[node];
	if (nested)
		n->recursive = true;
	if (!b->reg_open[r]++)
		b->reg_node[r] = node;
	if (counted) {
		int64_t s = sv_profile_start(p, c), e = sv_profile_end(p, c);
		int64_t d = cp_clip(b, s, e);
		n->calls++;
		if (!nested || b->expand) {
			if (!n->entries || d < n->min)
				n->min = d;
			if (!n->entries || d > n->max) {
				n->max = d;
				n->longest = c;
			}
			n->entries++;
			n->inclusive = sv_add_sat(n->inclusive, d);
		}
		n->exclusive = sv_add_sat(n->exclusive,
			b->range ? d : sv_profile_exclusive(p, c));
		if (b->range && b->depth) {
			uint32_t pc = b->st_call[b->depth - 1];
			int64_t pe = sv_profile_end(p, pc), covered;
			if (e > pe && pe >= sv_profile_start(p, pc))
				e = pe;
			covered = cp_clip(b, s, e);
			if (covered > 0)
				b->t->nodes[par].exclusive = sv_sub_sat(
					b->t->nodes[par].exclusive, covered);
		}
	}
	sv_grow((void **)&b->st_call, &b->st_cap, b->depth + 1,
		sizeof *b->st_call);
	sv_grow((void **)&b->st_node, &b->st_cap2, b->depth + 1,
		sizeof *b->st_node);
	b->st_call[b->depth] = c;
	b->st_node[b->depth] = node;
	b->depth++;
}

static void cp_pop(struct cp_build *b)
{
	uint32_t c = b->st_call[--b->depth];
	b->reg_open[sv_call_region(b->p, c)]--;
}

/* Push c's enclosing calls and c itself, the outermost first; counted
 * ones (those that meet the range) add their figures. */
static void cp_push_chain(struct cp_build *b, uint32_t c, bool count)
{
	size_t n = 0;
	while (c != SV_NO_CALL) {
		sv_grow((void **)&b->chain, &b->chain_cap, n + 1,
			sizeof *b->chain);
		b->chain[n++] = c;
		c = sv_profile_parent(b->p, c);
	}
	if (count) { /* only a chain that meets the range is worth it */
		size_t i = 0;
		while (i < n && !cp_meets(b, b->chain[i]))
			i++;
		if (i == n)
			return;
	}
	while (n--)
		cp_push(b, b->chain[n], count && cp_meets(b, b->chain[n]));
}

static int cp_lane(struct cp_build *b, const struct sv_lane *l,
	const struct sv_callpath_scope *sc)
{
	const struct sv_profile *p = b->p;
	size_t i0 = 0, i1 = l->ncalls, i;

	if (b->range) {
		i0 = sv_profile_lane_lower(p, l, b->t0);
		i1 = sv_profile_lane_lower(p, l, b->t1);
		if (i0 > 0)
			cp_push_chain(b, sv_lane_call(l, i0 - 1), true);
	}
	for (i = i0; i < i1; i++) {
		uint32_t c = sv_lane_call(l, i), par = sv_profile_parent(p, c);
		while (b->depth && b->st_call[b->depth - 1] != par)
			cp_pop(b);
		if (!b->depth && par != SV_NO_CALL)
			cp_push_chain(b, par, false);
		cp_push(b, c, cp_meets(b, c));
		if (!((i - i0 + 1) & 0xffff)) {
			b->t->calls_seen += 0x10000;
			if (sc && sc->progress)
				atomic_store(sc->progress, b->t->calls_seen);
			if (sc && sc->cancel && atomic_load(sc->cancel))
				return -ECANCELED;
		}
	}
	b->t->calls_seen += (i1 - i0) & 0xffff;
	while (b->depth)
		cp_pop(b);
	return 0;
}

/* ---- sorting ------------------------------------------------------------- */

int64_t sv_callpath_avg(const struct sv_callpath *t, uint32_t n)
{
	const struct sv_callpath_node *x = &t->nodes[n];
	return x->entries ? x->inclusive / (int64_t)x->entries : 0;
}

int64_t sv_callpath_figure(
	const struct sv_callpath *t, uint32_t n, enum sv_callpath_key key)
{
	const struct sv_callpath_node *x = &t->nodes[n];
	switch (key) {
	case SV_CALLPATH_KEY_CALLS:
		return (int64_t)x->calls;
	case SV_CALLPATH_KEY_INCL:
		return x->inclusive;
	case SV_CALLPATH_KEY_EXCL:
		return x->exclusive;
	case SV_CALLPATH_KEY_AVG:
		return sv_callpath_avg(t, n);
	case SV_CALLPATH_KEY_MIN:
		return x->min;
	case SV_CALLPATH_KEY_MAX:
		return x->max;
	default:
		return 0;
	}
}

static bool cp_before(const struct sv_callpath *t, uint32_t a, uint32_t b)
{
	int c;
	if (t->sort_key != SV_CALLPATH_KEY_NAME) {
		int64_t fa = sv_callpath_figure(t, a, t->sort_key);
		int64_t fb = sv_callpath_figure(t, b, t->sort_key);
		if (fa != fb)
			return fa > fb;
	}
	c = strcmp(sv_callpath_name(t, a), sv_callpath_name(t, b));
	if (c)
		return c < 0;
	return t->nodes[a].region < t->nodes[b].region;
}

/* Stable merge sort of v[0 .. n) with tmp of n entries. */
static void cp_sort_list(
	const struct sv_callpath *t, uint32_t *v, size_t n, uint32_t *tmp)
{
	size_t h, a, b, o;

	if (n < 12) {
		size_t i, j;
		for (i = 1; i < n; i++) {
			uint32_t x = v[i];
			for (j = i; j > 0 && cp_before(t, x, v[j - 1]); j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return;
	}
	h = n / 2;
	cp_sort_list(t, v, h, tmp);
	cp_sort_list(t, v + h, n - h, tmp);
	a = 0;
	b = h;
	o = 0;
	while (a < h && b < n)
		tmp[o++] = cp_before(t, v[b], v[a]) ? v[b++] : v[a++];
	while (a < h)
		tmp[o++] = v[a++];
	while (b < n)
		tmp[o++] = v[b++];
	memcpy(v, tmp, n * sizeof *v);
}

void sv_callpath_sort(struct sv_callpath *t, enum sv_callpath_key key)
{
	uint32_t *tmp, i;

	if (!t || (unsigned)key >= SV_CALLPATH_KEY_COUNT)
		return;
	t->sort_key = key;
	tmp = sv_xmalloc(((size_t)t->nnodes + 1) * sizeof *tmp);
	cp_sort_list(t, t->roots, t->nroots, tmp);
	for (i = 0; i < t->nnodes; i++)
		cp_sort_list(t, t->child + t->nodes[i].first_child,
			t->nodes[i].nchildren, tmp);
	free(tmp);
}

static const struct {
	const char *name, *help;
} cp_keys[] = {
#define SV_CALLPATH_KEY_ROW(id, name, help) {name, help},
	SV_CALLPATH_KEYS(SV_CALLPATH_KEY_ROW)
#undef SV_CALLPATH_KEY_ROW
};

const char *sv_callpath_key_name(enum sv_callpath_key key)
{
	return (unsigned)key < SV_CALLPATH_KEY_COUNT ? cp_keys[key].name : NULL;
}

const char *sv_callpath_key_help(enum sv_callpath_key key)
{
	return (unsigned)key < SV_CALLPATH_KEY_COUNT ? cp_keys[key].help : NULL;
}

int sv_callpath_key_from_name(const char *name)
{
	int k;
	for (k = 0; name && k < SV_CALLPATH_KEY_COUNT; k++)
		if (!strcmp(cp_keys[k].name, name))
			return k;
	return -1;
}

/* ---- building ------------------------------------------------------------ */

/* Drop the nodes that neither hold a call of the scope nor lead to one
 * (the enclosing calls of a range's first calls that end before it),
 * keeping the order, parents first. */
static void cp_prune(struct sv_callpath *t)
{
	uint32_t *map, i, k = 0;
	bool *keep;

	if (!t->nnodes)
		return;
	keep = sv_xcalloc(t->nnodes, sizeof *keep);
	map = sv_xmalloc((size_t)t->nnodes * sizeof *map);
	i = t->nnodes;
	while (i--) {
		uint32_t par = t->nodes[i].parent;
		keep[i] = keep[i] || t->nodes[i].calls > 0;
		if (keep[i] && par != SV_CALLPATH_NONE)
			keep[par] = true;
	}
	for (i = 0; i < t->nnodes; i++) {
		struct sv_callpath_node n = t->nodes[i];
		map[i] = SV_CALLPATH_NONE;
		if (!keep[i])
			continue;
		if (n.parent != SV_CALLPATH_NONE)
			n.parent = map[n.parent];
		map[i] = k;
		t->nodes[k++] = n;
	}
	t->nnodes = k;
	free(map);
	free(keep);
}

/* The children lists, from the nodes' parents; then the totals. */
static void cp_link(struct sv_callpath *t, bool prune)
{
	uint32_t i, nroots = 0, off = 0;

	if (prune)
		cp_prune(t);

	for (i = 0; i < t->nnodes; i++) {
		struct sv_callpath_node *n = &t->nodes[i];
		n->first_child = 0;
		n->nchildren = 0;
	}
	for (i = 0; i < t->nnodes; i++) {
		const struct sv_callpath_node *n = &t->nodes[i];
		if (n->parent == SV_CALLPATH_NONE)
			nroots++;
		else
			t->nodes[n->parent].nchildren++;
		t->calls += n->calls;
		t->exclusive = sv_add_sat(t->exclusive, n->exclusive);
		if (n->parent == SV_CALLPATH_NONE)
			t->total = sv_add_sat(t->total, n->inclusive);
	}
	for (i = 0; i < t->nnodes; i++) {
		t->nodes[i].first_child = off;
		off += t->nodes[i].nchildren;
		t->nodes[i].nchildren = 0;
	}
	t->child = sv_xmalloc(((size_t)off + 1) * sizeof *t->child);
	t->roots = sv_xmalloc(((size_t)nroots + 1) * sizeof *t->roots);
	for (i = 0; i < t->nnodes; i++) {
		uint32_t par = t->nodes[i].parent;
		if (par == SV_CALLPATH_NONE) {
			t->roots[t->nroots++] = i;
		} else {
			struct sv_callpath_node *pn = &t->nodes[par];
			t->child[pn->first_child + pn->nchildren++] = i;
		}
	}
}

/* An empty tree of p over scope: 0, or -EINVAL with err. */
static int cp_start(struct sv_callpath *t, const struct sv_profile *p,
	const struct sv_callpath_scope *scope, struct sv_error *err)
{
	if (!t)
		return sv_error_set(err, -EINVAL, "callpath: no tree");
	memset(t, 0, sizeof *t);
	t->p = p;
	t->sort_key = SV_CALLPATH_KEY_INCL;
	if (scope) {
		t->scope = *scope;
		t->scope.cancel = NULL;
		t->scope.progress = NULL;
	}
	if (!p)
		return sv_error_set(err, -EINVAL, "callpath: no profile");
	return 0;
}

int sv_callpath_build(struct sv_callpath *t, const struct sv_profile *p,
	const struct sv_callpath_scope *scope, struct sv_error *err)
{
	struct cp_build b;
	size_t l;
	int rc = 0;

	rc = cp_start(t, p, scope, err);
	if (rc < 0)
		return rc;
	if (scope && scope->has_range && scope->t1 < scope->t0)
		return sv_error_set(err, -EINVAL,
			"callpath: the range ends before it starts");
	memset(&b, 0, sizeof b);
	b.t = t;
	b.p = p;
	b.range = scope && scope->has_range;
	b.expand = scope && scope->expand_recursion;
	b.t0 = b.range ? scope->t0 : 0;
	b.t1 = b.range ? scope->t1 : 0;
	if (p->has_calls) {
		b.reg_open =
			sv_xcalloc((size_t)p->nregions + 1, sizeof *b.reg_open);
		b.reg_node =
			sv_xcalloc((size_t)p->nregions + 1, sizeof *b.reg_node);
		for (l = 0; l < p->nlanes && rc == 0; l++)
			if (!scope || !scope->lane_on || scope->lane_on[l])
				rc = cp_lane(&b, &p->lanes[l], scope);
	}
	free(b.st_call);
	free(b.st_node);
	free(b.chain);
	free(b.reg_open);
	free(b.reg_node);
	free(b.hash.keys);
	free(b.hash.vals);
	if (rc < 0) {
		sv_callpath_fini(t);
		return rc;
	}
	cp_link(t, !(scope && scope->keep_empty));
	sv_callpath_sort(t, SV_CALLPATH_KEY_INCL);
	if (scope && scope->progress)
		atomic_store(scope->progress, t->calls_seen);
	return 0;
}

/* Add node x's figures to node n of the tree. */
static void cp_merge_node(
	struct sv_callpath_node *n, const struct sv_callpath_node *x)
{
	n->recursive = n->recursive || x->recursive;
	n->calls += x->calls;
	if (x->entries) {
		if (!n->entries || x->min < n->min)
			n->min = x->min;
		if (!n->entries || x->max > n->max)
			n->max = x->max;
	}
	n->entries += x->entries;
	n->inclusive = sv_add_sat(n->inclusive, x->inclusive);
	n->exclusive = sv_add_sat(n->exclusive, x->exclusive);
}

int sv_callpath_merge(struct sv_callpath *t, const struct sv_profile *p,
	const struct sv_callpath_scope *scope,
	const struct sv_callpath_node *nodes, size_t nnodes,
	struct sv_error *err)
{
	struct cp_build b;
	uint32_t *map;
	size_t i;
	int rc = 0;

	rc = cp_start(t, p, scope, err);
	if (rc < 0)
		return rc;
	memset(&b, 0, sizeof b);
	b.t = t;
	b.p = p;
	map = sv_xmalloc((nnodes ? nnodes : 1) * sizeof *map);
	for (i = 0; i < nnodes && !rc; i++) {
		const struct sv_callpath_node *x = &nodes[i];
		uint32_t par = SV_CALLPATH_NONE, n;
		if (x->region >= p->nregions ||
			(x->parent != SV_CALLPATH_NONE && x->parent >= i)) {
			rc = sv_error_set(err, -EINVAL,
				"callpath: node %zu of the merge is out of "
				"range",
				i);
			break;
		}
		if (x->parent != SV_CALLPATH_NONE)
			par = map[x->parent];
		n = cp_child(&b, par, x->region);
		map[i] = n;
		cp_merge_node(&t->nodes[n], x);
	}
	free(map);
	free(b.hash.keys);
	free(b.hash.vals);
	if (rc < 0)
		return rc;
	cp_link(t, !(scope && scope->keep_empty));
	sv_callpath_sort(t, SV_CALLPATH_KEY_INCL);
	return 0;
}

void sv_callpath_fini(struct sv_callpath *t)
{
	if (!t)
		return;
	free(t->nodes);
	free(t->child);
	free(t->roots);
	t->nodes = NULL;
	t->child = t->roots = NULL;
	t->nnodes = t->nroots = 0;
	t->calls = 0;
	t->total = t->exclusive = 0;
}

/* ---- reading ------------------------------------------------------------- */

double sv_callpath_pct(const struct sv_callpath *t, uint32_t n)
{
	return t->total > 0 ? 100.0 * (double)t->nodes[n].inclusive /
				      (double)t->total
			    : 0.0;
}

const char *sv_callpath_name(const struct sv_callpath *t, uint32_t n)
{
	return t->p->regions[t->nodes[n].region];
}

const uint32_t *sv_callpath_children(
	const struct sv_callpath *t, uint32_t n, uint32_t *count)
{
	if (n == SV_CALLPATH_NONE) {
		*count = t->nroots;
		return t->roots;
	}
	*count = t->nodes[n].nchildren;
	return t->child + t->nodes[n].first_child;
}

size_t sv_callpath_path(
	const struct sv_callpath *t, uint32_t n, uint32_t *path, size_t max)
{
	size_t k = (size_t)t->nodes[n].depth + 1, i = k;
	if (k > max)
		return 0;
	while (i--) {
		path[i] = n;
		n = t->nodes[n].parent;
	}
	return k;
}

void sv_callpath_visible(const struct sv_callpath *t, const bool *include,
	const bool *exclude, bool *show)
{
	uint32_t i;
	bool *down = NULL, *up = NULL;

	if (include) {
		down = sv_xcalloc((size_t)t->nnodes + 1, sizeof *down);
		up = sv_xcalloc((size_t)t->nnodes + 1, sizeof *up);
	}
	/* Parents come first: an ancestor's flags flow down. */
	for (i = 0; i < t->nnodes; i++) {
		const struct sv_callpath_node *n = &t->nodes[i];
		bool child = n->parent != SV_CALLPATH_NONE;
		show[i] = !(exclude && exclude[n->region]) &&
			  !(child && !show[n->parent]);
		if (down)
			down[i] = include[n->region] ||
				  (child && down[n->parent]);
	}
	if (!include)
		return;
	/* Children come last: a descendant's match flows up, unless the
	 * exclude patterns hide that descendant. */
	i = t->nnodes;
	while (i--) {
		uint32_t par = t->nodes[i].parent;
		up[i] = show[i] && (up[i] || include[t->nodes[i].region]);
		if (up[i] && par != SV_CALLPATH_NONE)
			up[par] = true;
	}
	for (i = 0; i < t->nnodes; i++)
		show[i] = show[i] && (down[i] || up[i]);
	free(down);
	free(up);
}

/* Everything below a's node n has no match. */
static void callpath_match_none(
	const struct sv_callpath *a, uint32_t n, uint32_t *out)
{
	uint32_t k, i;
	const uint32_t *c = sv_callpath_children(a, n, &k);
	for (i = 0; i < k; i++) {
		out[c[i]] = SV_CALLPATH_NONE;
		callpath_match_none(a, c[i], out);
	}
}

/* Match the children of a's node na (a root list for NONE) among those of
 * b's node nb. */
static void callpath_match_below(const struct sv_callpath *a, uint32_t na,
	const struct sv_callpath *b, uint32_t nb, uint32_t *out)
{
	uint32_t ka, kb, i, j;
	const uint32_t *ca = sv_callpath_children(a, na, &ka);
	const uint32_t *cb = nb == SV_CALLPATH_NONE && na != SV_CALLPATH_NONE
				     ? NULL
				     : sv_callpath_children(b, nb, &kb);

	for (i = 0; i < ka; i++) {
		const char *name = sv_callpath_name(a, ca[i]);
		uint32_t hit = SV_CALLPATH_NONE;
		for (j = 0; cb && j < kb; j++)
			if (!strcmp(sv_callpath_name(b, cb[j]), name)) {
				hit = cb[j];
				break;
			}
		out[ca[i]] = hit;
		if (hit == SV_CALLPATH_NONE)
			callpath_match_none(a, ca[i], out);
		else
			callpath_match_below(a, ca[i], b, hit, out);
	}
}

void sv_callpath_match(
	const struct sv_callpath *a, const struct sv_callpath *b, uint32_t *out)
{
	callpath_match_below(a, SV_CALLPATH_NONE, b, SV_CALLPATH_NONE, out);
}
