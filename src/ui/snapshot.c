/*
 * snapshot.c: `scopeview snapshot`, the viewer's screen without a terminal
 * (snapshot.h, cli.h).  The key script drives the same struct sv_view the
 * interactive viewer uses and the same sv_render() draws it, so the output
 * is what the viewer shows after those keys.  Glyphs follow the locale or
 * --ascii, never TERM.  Only sv_snapshot_main prints.
 */
#include "scopeview/snapshot.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/keys.h"
#include "scopeview/render.h"

int sv_snapshot_draw(struct sv_grid *g, const struct sv_profile *p, int w,
	int h, const int *keys, size_t nkeys, const struct sv_view_opts *opts,
	struct sv_error *err)
{
	struct sv_view v;
	size_t i;
	int rc;

	if (!g || !p)
		return sv_error_set(err, -EINVAL, "snapshot: no profile");
	rc = sv_view_init(&v, p, opts, err);
	if (rc < 0)
		return rc;
	sv_view_resize(&v, w, h);
	for (i = 0; i < nkeys; i++) {
		int flags = sv_view_handle_key(&v, keys[i]);
		if (flags & SV_REACT_QUIT)
			break;
		/* Work a key started on a worker (a histogram, the ranks
		 * inside a region) is done before the next key, as a user
		 * would see it: the same keys, the same screen. */
		sv_view_settle(&v, -1);
	}
	/* The statistics of a window or range of a large profile: the
	 * picture shows them done, as a person would after a moment. */
	sv_view_settle(&v, -1);
	sv_render(g, &v);
	sv_view_fini(&v);
	return 0;
}
