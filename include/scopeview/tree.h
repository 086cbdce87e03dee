/*
 * tree.h: `scopeview tree` and `scopeview export --format collapsed`: a
 * call tree (callpath.h) written for people (indented text), spreadsheets
 * (CSV) or scripts (JSON), and as folded stacks for flamegraph.pl and
 * inferno.
 *
 * The writers only format: every figure comes from the struct
 * sv_callpath they are given, so the text, CSV, JSON and the viewer's
 * tree agree.  They print to a stream and never exit.  Names are written
 * exactly as stored in JSON and CSV; the text shows control characters
 * visibly (\xNN), because it goes to a terminal.
 */
#ifndef SCOPEVIEW_TREE_H
#define SCOPEVIEW_TREE_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_REPORT)
#error "scopeview/tree.h belongs to the report layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "scopeview/callpath.h"

enum sv_tree_format {
	SV_TREE_TEXT,
	SV_TREE_JSON,
	SV_TREE_CSV,
};

struct sv_tree_opts {
	enum sv_tree_format format;
	const char *file;  /* the path as given (JSON "file"); NULL = p->path */
	const char *ranks; /* the --ranks list (NULL = every rank) */
	const bool *show;  /* nnodes flags (sv_callpath_visible); NULL = all */
	int64_t origin;    /* the time origin, for the range's relative times */
};

/*
 * Write t to out in o->format.  JSON is {"file", "scope", "roots"} with a
 * node {"name", "path", "num_calls", "inclusive_ns", "exclusive_ns",
 * "average_ns", "min_ns", "max_ns", "pct", "recursive", "children"} and
 * the same figures in seconds without the _ns suffix ("inclusive").
 * Children come in t's sort order.  Returns 0, or -EIO on a write error.
 */
int sv_tree_write(
	FILE *out, const struct sv_callpath *t, const struct sv_tree_opts *o);

/*
 * Folded stacks: one line per node whose exclusive time is above 0,
 * "root;child;leaf VALUE\n", VALUE the node's exclusive ns.  In names a
 * backslash is written "\\", ';' "\x3b", a newline "\n" and a carriage
 * return "\r", so every reader splits frames at ';' and lines at '\n'.
 * show as in sv_tree_opts.  Returns 0, or -EIO.
 */
int sv_tree_write_collapsed(
	FILE *out, const struct sv_callpath *t, const bool *show);

/* The folded-stack spelling of one frame name (see above) into a new
 * string. */
char *sv_tree_frame(const char *name);

#endif
