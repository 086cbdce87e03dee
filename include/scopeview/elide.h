/*
 * elide.h: long names fitted into a few cells so that they stay apart.
 *
 * "mpi:wait kind=wait peer=3" and "... peer=12" cut at the end read the
 * same ("mpi:wait kind=wai…"); cut in the middle they do not
 * ("mpi:wait k…peer=12").  A name is cut at the end while the place where
 * it differs from its neighbours still shows, else in the middle, keeping
 * its end from the word where it differs.  Widths are the cells
 * sv_grid_text would take (control characters escaped), so the result can
 * be drawn with it.  Nothing here knows about curses or HDF5.
 */
#ifndef SCOPEVIEW_ELIDE_H
#define SCOPEVIEW_ELIDE_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_UI)
#error "scopeview/elide.h belongs to the ui layer, which this layer may not use"
/* Take the first part out of s when s is wider than width cells: a
 * title's least telling part dropped before the title is cut. */
void sv_elide_drop(char *s, const char *part, int width);

#endif

#include <stddef.h>

/* Bytes a and b share at their start, whole code points only. */
size_t sv_elide_common(const char *a, const char *b);

/* Scratch room of sv_elide_differs: one entry a name. */
struct sv_elide_entry {
	const char *name;
	size_t i;
};

/*
 * The differ of each of names[0 .. n) against all the others, as the
 * largest sv_elide_common with each (0 when n == 1; a NULL name counts as
 * ""), into differ[0 .. n); order is scratch room for n entries.  Sorts
 * once and compares neighbours: O(n log n) comparisons, not n^2.
 */
void sv_elide_differs(const char *const *names, size_t n,
	struct sv_elide_entry *order, size_t *differ);

/*
 * Fit name into width cells (width >= 1) with ellipsis (the UTF-8 of one
 * cell, "…" or "~") where text is left out.  differ is the byte offset at
 * which name starts to differ from the names around it (sv_elide_common
 * with each, the largest; 0 when it stands alone).  Writes a
 * NUL-terminated string to out (n bytes; 4 * width + 8 always suffice) and
 * returns the cells it takes.
 */
int sv_elide(const char *name, size_t differ, int width, const char *ellipsis,
	char *out, size_t n);

/* Skip the first skip cells of name (whole code points) for a name column
 * scrolled sideways: a pointer into name. */
const char *sv_elide_skip(const char *name, int skip);

/* Take the first part out of s when s is wider than width cells: a
 * title's least telling part dropped before the title is cut. */
void sv_elide_drop(char *s, const char *part, int width);

#endif
