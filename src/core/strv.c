/*
 * strv.c: growable vectors of malloc'd strings (strv.h).
 *
 * Capacity doubles through sv_grow() and never shrinks; nothing here can
 * fail except by aborting on allocation failure.
 */
#include "scopeview/strv.h"

#include <stdlib.h>
#include <string.h>

#include "scopeview/common.h"

char *sv_strv_push(struct sv_strv *sv, const char *s)
{
	sv_grow((void **)&sv->v, &sv->cap, sv->n + 1, sizeof *sv->v);
	sv->v[sv->n] = sv_xstrdup(s);
	return sv->v[sv->n++];
}

void sv_strv_fini(struct sv_strv *sv)
{
	if (!sv)
		return;
	sv_strv_free_array(sv->v, sv->n);
	sv->v = NULL;
	sv->n = sv->cap = 0;
}

void sv_strv_free_array(char **v, size_t n)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

char *sv_strv_join(char *const *v, size_t n, const char *sep)
{
	size_t i, len = 1, seplen = strlen(sep);
	char *out, *o;

	for (i = 0; i < n; i++)
		len += strlen(v[i]) + (i ? seplen : 0);
	out = o = sv_xmalloc(len);
	for (i = 0; i < n; i++) {
		size_t l = strlen(v[i]);
		if (i) {
			memcpy(o, sep, seplen);
			o += seplen;
		}
		memcpy(o, v[i], l);
		o += l;
	}
	*o = '\0';
	return out;
}
