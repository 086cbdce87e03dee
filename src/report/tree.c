/*
 * tree.c: the call tree as text, CSV and JSON, and as folded stacks
 * (tree.h).
 *
 * Each writer walks the tree depth first in its sort order, skipping the
 * nodes the show flags hide (a hidden node hides its subtree: that is how
 * sv_callpath_visible marks them).  Figures are printed as integer ns and,
 * in JSON, also as seconds.  JSON and CSV go through json.h and csv.h;
 * everything is written to the stream given, nothing to a terminal.
 */
#include "scopeview/tree.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/common.h"
#include "scopeview/csv.h"
#include "scopeview/fmt.h"
#include "scopeview/json.h"

static bool tree_shown(const bool *show, uint32_t n)
{
	return !show || show[n];
}

/* The nodes from the root down to n, in a new array of *np. */
static uint32_t *tree_path(const struct sv_callpath *t, uint32_t n, size_t *np)
{
	size_t k = (size_t)t->nodes[n].depth + 1;
	uint32_t *path = sv_xmalloc(k * sizeof *path);
	*np = sv_callpath_path(t, n, path, k);
	return path;
}

/* ---- JSON ---------------------------------------------------------------- */

/* "KEY_ns": ns, "KEY": seconds. */
static void tree_json_sec(struct sv_json *j, const char *key, int64_t ns)
{
	char name[32];

	snprintf(name, sizeof name, "%s_ns", key);
	sv_json_key(j, name);
	sv_json_i64(j, ns);
	sv_json_key(j, key);
	sv_json_double(j, (double)ns / 1e9);
}

/* Node n and, below it, its children shown: one node a line, each
 * level two columns in. */
static void tree_json_node(struct sv_json *j, const struct sv_callpath *t,
	uint32_t n, const bool *show)
{
	const struct sv_callpath_node *x = &t->nodes[n];
	uint32_t cnt, k, *path;
	size_t np, i;
	const uint32_t *kids = sv_callpath_children(t, n, &cnt);

	sv_json_object(j, SV_JSON_INLINE);
	sv_json_key(j, "name");
	sv_json_string(j, sv_callpath_name(t, n));
	sv_json_key(j, "path");
	sv_json_array(j, SV_JSON_INLINE);
	path = tree_path(t, n, &np);
	for (i = 0; i < np; i++)
		sv_json_string(j, sv_callpath_name(t, path[i]));
	free(path);
	sv_json_end(j);
	sv_json_key(j, "num_calls");
	sv_json_u64(j, x->calls);
	tree_json_sec(j, "inclusive", x->inclusive);
	tree_json_sec(j, "exclusive", x->exclusive);
	tree_json_sec(j, "average", sv_callpath_avg(t, n));
	tree_json_sec(j, "min", x->min);
	tree_json_sec(j, "max", x->max);
	sv_json_key(j, "pct");
	sv_json_double(j, sv_callpath_pct(t, n));
	sv_json_key(j, "recursive");
	sv_json_bool(j, x->recursive);
	sv_json_key(j, "children");
	sv_json_array(j, SV_JSON_BLOCK | SV_JSON_STEP(2));
	for (k = 0; k < cnt; k++)
		if (tree_shown(show, kids[k]))
			tree_json_node(j, t, kids[k], show);
	sv_json_end(j);
	sv_json_end(j);
}

static void tree_json(struct sv_json *j, const struct sv_callpath *t,
	const struct sv_tree_opts *o)
{
	const struct sv_callpath_scope *sc = &t->scope;
	uint32_t k;

	sv_json_object(j, SV_JSON_HANG);
	sv_json_key(j, "file");
	sv_json_string(j, o->file ? o->file : t->p->path);
	sv_json_key(j, "scope");
	sv_json_object(j, SV_JSON_INLINE);
	sv_json_key(j, "ranks");
	if (o->ranks)
		sv_json_string(j, o->ranks);
	else
		sv_json_null(j);
	sv_json_key(j, "range");
	if (sc->has_range) {
		sv_json_object(j, SV_JSON_INLINE);
		sv_json_key(j, "t0_ns");
		sv_json_i64(j, sc->t0);
		sv_json_key(j, "t1_ns");
		sv_json_i64(j, sc->t1);
		tree_json_sec(j, "start", sv_sub_wrap(sc->t0, o->origin));
		tree_json_sec(j, "end", sv_sub_wrap(sc->t1, o->origin));
		sv_json_key(j, "rule");
		sv_json_string(j, "calls count with their time inside");
		sv_json_end(j);
	} else {
		sv_json_null(j);
	}
	sv_json_key(j, "recursion");
	sv_json_string(j, sc->expand_recursion ? "expanded" : "collapsed");
	sv_json_key(j, "num_calls");
	sv_json_u64(j, t->calls);
	tree_json_sec(j, "total", t->total);
	sv_json_end(j);
	sv_json_key(j, "roots");
	sv_json_array(j, SV_JSON_BLOCK | SV_JSON_STEP(1));
	for (k = 0; k < t->nroots; k++)
		if (tree_shown(o->show, t->roots[k]))
			tree_json_node(j, t, t->roots[k], o->show);
	sv_json_end(j);
	sv_json_end(j);
	sv_json_finish(j);
}

/* ---- CSV ----------------------------------------------------------------- */

static void tree_csv_node(struct sv_csv *c, const struct sv_callpath *t,
	uint32_t n, const bool *show)
{
	const struct sv_callpath_node *x = &t->nodes[n];
	uint32_t cnt, k, *path;
	size_t np, i;
	const uint32_t *kids;
	char *joined = sv_xstrdup("");

	path = tree_path(t, n, &np);
	for (i = 0; i < np; i++) {
		char *f = sv_tree_frame(sv_callpath_name(t, path[i]));
		char *jn = sv_xasprintf("%s%s%s", joined, i ? ";" : "", f);
		free(f);
		free(joined);
		joined = jn;
	}
	free(path);
	sv_csv_u64(c, x->depth);
	sv_csv_field(c, sv_callpath_name(t, n));
	sv_csv_field(c, joined);
	sv_csv_u64(c, x->calls);
	sv_csv_i64(c, x->inclusive);
	sv_csv_i64(c, x->exclusive);
	sv_csv_i64(c, sv_callpath_avg(t, n));
	sv_csv_i64(c, x->min);
	sv_csv_i64(c, x->max);
	sv_csv_double(c, sv_callpath_pct(t, n));
	sv_csv_field(c, x->recursive ? "true" : "false");
	sv_csv_end_row(c);
	free(joined);
	kids = sv_callpath_children(t, n, &cnt);
	for (k = 0; k < cnt; k++)
		if (tree_shown(show, kids[k]))
			tree_csv_node(c, t, kids[k], show);
}

static void tree_csv(struct sv_csv *c, const struct sv_callpath *t,
	const struct sv_tree_opts *o)
{
	uint32_t k;

	sv_csv_header(c, "depth,name,path,num_calls,inclusive_ns,exclusive_ns,"
			 "average_ns,min_ns,max_ns,pct,recursive");
	for (k = 0; k < t->nroots; k++)
		if (tree_shown(o->show, t->roots[k]))
			tree_csv_node(c, t, t->roots[k], o->show);
}

/* ---- text ---------------------------------------------------------------- */

/* One row; prefix holds the branch glyphs of the ancestors. */
static void tree_text_node(FILE *out, const struct sv_callpath *t, uint32_t n,
	const bool *show, char *prefix, size_t plen, bool last, bool root)
{
	const struct sv_callpath_node *x = &t->nodes[n];
	char d[5][32];
	uint32_t cnt, k, nshown = 0, seen = 0;
	const uint32_t *kids = sv_callpath_children(t, n, &cnt);
	char *name = sv_utf8_terminal_safe(sv_callpath_name(t, n), NULL);
	size_t add = 0;

	fprintf(out, "%9" PRIu64 " %10s %10s %10s %10s %10s %6.1f  %s%s%s%s\n",
		x->calls, sv_fmt_dur(x->inclusive, d[0], sizeof d[0]),
		sv_fmt_dur(x->exclusive, d[1], sizeof d[1]),
		sv_fmt_dur(sv_callpath_avg(t, n), d[2], sizeof d[2]),
		sv_fmt_dur(x->min, d[3], sizeof d[3]),
		sv_fmt_dur(x->max, d[4], sizeof d[4]), sv_callpath_pct(t, n),
		prefix,
		root   ? ""
		: last ? "└─ "
		       : "├─ ",
		name, x->recursive ? " (recursive)" : "");
	free(name);
	if (!root && plen + 8 < 4096) {
		const char *g = last ? "   " : "│  ";
		add = strlen(g);
		memcpy(prefix + plen, g, add + 1);
	}
	for (k = 0; k < cnt; k++)
		nshown += tree_shown(show, kids[k]);
	for (k = 0; k < cnt; k++) {
		if (!tree_shown(show, kids[k]))
			continue;
		seen++;
		tree_text_node(out, t, kids[k], show, prefix, plen + add,
			seen == nshown, false);
	}
	prefix[plen] = '\0';
}

static void tree_text(
	FILE *out, const struct sv_callpath *t, const struct sv_tree_opts *o)
{
	const struct sv_callpath_scope *sc = &t->scope;
	char prefix[4096] = "", a[32], b[32], tot[32];
	uint32_t k;
	char *file =
		sv_utf8_terminal_safe(o->file ? o->file : t->p->path, NULL);

	fprintf(out, "call tree of %s\n", file);
	free(file);
	fprintf(out, "scope: %s%s, ", o->ranks ? "ranks " : "all ranks",
		o->ranks ? o->ranks : "");
	if (sc->has_range)
		fprintf(out,
			"range %s .. %s (range: calls count with their time "
			"inside)",
			sv_fmt_dur(sv_sub_wrap(sc->t0, o->origin), a, sizeof a),
			sv_fmt_dur(
				sv_sub_wrap(sc->t1, o->origin), b, sizeof b));
	else
		fputs("whole run", out);
	fprintf(out, ", recursion %s; %" PRIu64 " calls, %s\n\n",
		sc->expand_recursion ? "expanded" : "collapsed", t->calls,
		sv_fmt_dur(t->total, tot, sizeof tot));
	fprintf(out, "%9s %10s %10s %10s %10s %10s %6s  %s\n", "calls",
		"inclusive", "exclusive", "average", "min", "max", "%", "path");
	for (k = 0; k < t->nroots; k++)
		if (tree_shown(o->show, t->roots[k]))
			tree_text_node(out, t, t->roots[k], o->show, prefix, 0,
				true, true);
}

int sv_tree_write(
	FILE *out, const struct sv_callpath *t, const struct sv_tree_opts *o)
{
	struct sv_outbuf b;
	struct sv_json j;
	struct sv_csv c;
	int rc = 0;

	if (!out || !t || !o || !t->p)
		return -EINVAL;
	switch (o->format) {
	case SV_TREE_JSON:
		sv_outbuf_init(&b, out);
		sv_json_init(&j, &b);
		tree_json(&j, t, o);
		sv_json_fini(&j);
		rc = sv_outbuf_fini(&b);
		break;
	case SV_TREE_CSV:
		sv_outbuf_init(&b, out);
		sv_csv_init(&c, &b);
		tree_csv(&c, t, o);
		rc = sv_outbuf_fini(&b);
		break;
	default:
		tree_text(out, t, o);
		break;
	}
	return rc < 0 || ferror(out) ? -EIO : 0;
}

/* ---- folded stacks ------------------------------------------------------- */

char *sv_tree_frame(const char *name)
{
	size_t n = strlen(name), o = 0;
	char *out = sv_xmalloc(n * 4 + 1);

	for (; *name; name++) {
		const char *rep = NULL;
		switch (*name) {
		case '\\':
			rep = "\\\\";
			break;
		case ';':
			rep = "\\x3b";
			break;
		case '\n':
			rep = "\\n";
			break;
		case '\r':
			rep = "\\r";
			break;
		default:
			out[o++] = *name;
			continue;
		}
		memcpy(out + o, rep, strlen(rep));
		o += strlen(rep);
	}
	out[o] = '\0';
	return out;
}

int sv_tree_write_collapsed(
	FILE *out, const struct sv_callpath *t, const bool *show)
{
	char **frames;
	uint32_t i, *path;

	if (!out || !t || !t->p)
		return -EINVAL;
	frames = sv_xcalloc((size_t)t->p->nregions + 1, sizeof *frames);
	for (i = 0; i < t->p->nregions; i++)
		frames[i] = sv_tree_frame(t->p->regions[i]);
	for (i = 0; i < t->nnodes; i++) {
		size_t np, k;
		if (!tree_shown(show, i) || t->nodes[i].exclusive <= 0)
			continue;
		path = tree_path(t, i, &np);
		for (k = 0; k < np; k++)
			fprintf(out, "%s%s", k ? ";" : "",
				frames[t->nodes[path[k]].region]);
		free(path);
		fprintf(out, " %" PRId64 "\n", t->nodes[i].exclusive);
	}
	for (i = 0; i < t->p->nregions; i++)
		free(frames[i]);
	free(frames);
	return ferror(out) ? -EIO : 0;
}
