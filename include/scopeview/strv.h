/*
 * strv.h: growable vectors of strings, the one char ** array every module
 * that collects names uses (HDF5 link and attribute names, region names,
 * warnings).
 *
 * A struct sv_strv owns its strings: each is a malloc'd copy, freed by
 * sv_strv_fini().  A zeroed struct is an empty vector.  Allocation failure
 * aborts through sv_die() (common.h).
 */
#ifndef SCOPEVIEW_STRV_H
#define SCOPEVIEW_STRV_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_CORE)
#error "scopeview/strv.h belongs to the core layer, which this layer may not use"
#endif

#include <stddef.h>

struct sv_strv {
	char **v;   /* n strings, each malloc'd and owned by the vector */
	size_t n;   /* strings held */
	size_t cap; /* room in v */
};

/* Append a copy of s (not NULL); returns the copy, owned by the vector. */
char *sv_strv_push(struct sv_strv *sv, const char *s);

/* Free every string and the array, and leave an empty vector.  NULL-safe. */
void sv_strv_fini(struct sv_strv *sv);

/* Free a plain array of n malloc'd strings and the array itself: for the
 * char ** results of readers that hand back (array, count).  v may be NULL
 * (then n is ignored); NULL elements are skipped. */
void sv_strv_free_array(char **v, size_t n);

/* A newly allocated string holding v[0 .. n) joined by sep ("" for n ==
 * 0). */
char *sv_strv_join(char *const *v, size_t n, const char *sep);

#endif
