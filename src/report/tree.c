/*
 * tree.c: the call tree as text, CSV and JSON, and as folded stacks
 * (tree.h).
 *
 * Each writer walks the tree depth first in its sort order, skipping the
 * nodes the show flags hide (a hidden node hides its subtree: that is how
 * sv_callpath_visible marks them).  Figures are printed as integer ns and,
 * in JSON, also as seconds.  This is one of the few library files that
 * print (to the stream it is given).
 */
#include "scopeview/tree.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/common.h"
#include "scopeview/fmt.h"
#include "scopeview/summary.h"

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

static void tree_json_sec(FILE *out, const char *key, int64_t ns)
{
	char buf[64];
	fprintf(out, "\"%s_ns\": %" PRId64 ", \"%s\": %s", key, ns, key,
		sv_summary_number(buf, sizeof buf, (double)ns / 1e9));
}

static void tree_json_node(FILE *out, const struct sv_callpath *t, uint32_t n,
	const bool *show, int ind)
{
	const struct sv_callpath_node *x = &t->nodes[n];
	uint32_t cnt, k, *path;
	size_t np, i;
	const uint32_t *kids = sv_callpath_children(t, n, &cnt);
	char buf[64];
	bool first = true;

	path = tree_path(t, n, &np);
	fprintf(out, "%*s{\"name\": ", ind, "");
	sv_summary_json_str(out, sv_callpath_name(t, n));
	fputs(", \"path\": [", out);
	for (i = 0; i < np; i++) {
		if (i)
			fputs(", ", out);
		sv_summary_json_str(out, sv_callpath_name(t, path[i]));
	}
	free(path);
	fprintf(out, "], \"num_calls\": %" PRIu64 ", ", x->calls);
	tree_json_sec(out, "inclusive", x->inclusive);
	fputs(", ", out);
	tree_json_sec(out, "exclusive", x->exclusive);
	fputs(", ", out);
	tree_json_sec(out, "average", sv_callpath_avg(t, n));
	fputs(", ", out);
	tree_json_sec(out, "min", x->min);
	fputs(", ", out);
	tree_json_sec(out, "max", x->max);
	fprintf(out, ", \"pct\": %s, \"recursive\": %s, \"children\": [",
		sv_summary_number(buf, sizeof buf, sv_callpath_pct(t, n)),
		x->recursive ? "true" : "false");
	for (k = 0; k < cnt; k++) {
		if (!tree_shown(show, kids[k]))
			continue;
		fputs(first ? "\n" : ",\n", out);
		first = false;
		tree_json_node(out, t, kids[k], show, ind + 2);
	}
	if (!first)
		fprintf(out, "\n%*s", ind, "");
	fputs("]}", out);
}

static void tree_json(
	FILE *out, const struct sv_callpath *t, const struct sv_tree_opts *o)
{
	const struct sv_callpath_scope *sc = &t->scope;
	uint32_t k;
	bool first = true;

	fputs("{\"file\": ", out);
	sv_summary_json_str(out, o->file ? o->file : t->p->path);
	fputs(",\n \"scope\": {\"ranks\": ", out);
	if (o->ranks)
		sv_summary_json_str(out, o->ranks);
	else
		fputs("null", out);
	fputs(", \"range\": ", out);
	if (sc->has_range) {
		fprintf(out,
			"{\"t0_ns\": %" PRId64 ", \"t1_ns\": %" PRId64 ", ",
			sc->t0, sc->t1);
		tree_json_sec(out, "start", sv_sub_wrap(sc->t0, o->origin));
		fputs(", ", out);
		tree_json_sec(out, "end", sv_sub_wrap(sc->t1, o->origin));
		fputs(", \"rule\": \"calls count with their time inside\"}",
			out);
	} else {
		fputs("null", out);
	}
	fprintf(out, ", \"recursion\": \"%s\", \"num_calls\": %" PRIu64 ", ",
		sc->expand_recursion ? "expanded" : "collapsed", t->calls);
	tree_json_sec(out, "total", t->total);
	fputs("},\n \"roots\": [", out);
	for (k = 0; k < t->nroots; k++) {
		if (!tree_shown(o->show, t->roots[k]))
			continue;
		fputs(first ? "\n" : ",\n", out);
		first = false;
		tree_json_node(out, t, t->roots[k], o->show, 2);
	}
	fputs(first ? "]}\n" : "\n ]}\n", out);
}

/* ---- CSV ----------------------------------------------------------------- */

static void tree_csv_node(
	FILE *out, const struct sv_callpath *t, uint32_t n, const bool *show)
{
	const struct sv_callpath_node *x = &t->nodes[n];
	uint32_t cnt, k, *path;
	size_t np, i;
	const uint32_t *kids;
	char *joined = sv_xstrdup(""), buf[64];

	path = tree_path(t, n, &np);
	for (i = 0; i < np; i++) {
		char *f = sv_tree_frame(sv_callpath_name(t, path[i]));
		char *j = sv_xasprintf("%s%s%s", joined, i ? ";" : "", f);
		free(f);
		free(joined);
		joined = j;
	}
	free(path);
	fprintf(out, "%" PRIu32 ",", x->depth);
	sv_summary_csv_field(out, sv_callpath_name(t, n));
	fputc(',', out);
	sv_summary_csv_field(out, joined);
	fprintf(out,
		",%" PRIu64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64
		",%" PRId64 ",%s,%s\n",
		x->calls, x->inclusive, x->exclusive, sv_callpath_avg(t, n),
		x->min, x->max,
		sv_summary_number(buf, sizeof buf, sv_callpath_pct(t, n)),
		x->recursive ? "true" : "false");
	free(joined);
	kids = sv_callpath_children(t, n, &cnt);
	for (k = 0; k < cnt; k++)
		if (tree_shown(show, kids[k]))
			tree_csv_node(out, t, kids[k], show);
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
	uint32_t k;

	if (!out || !t || !o || !t->p)
		return -EINVAL;
	switch (o->format) {
	case SV_TREE_JSON:
		tree_json(out, t, o);
		break;
	case SV_TREE_CSV:
		fputs("depth,name,path,num_calls,inclusive_ns,exclusive_ns,"
		      "average_ns,min_ns,max_ns,pct,recursive\n",
			out);
		for (k = 0; k < t->nroots; k++)
			if (tree_shown(o->show, t->roots[k]))
				tree_csv_node(out, t, t->roots[k], o->show);
		break;
	default:
		tree_text(out, t, o);
		break;
	}
	return ferror(out) ? -EIO : 0;
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
