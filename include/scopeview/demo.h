/*
 * demo.h: the built-in demo profile that `scopeview` opens without a file.
 *
 * The demo is an ordinary profile written by the generator (gen.h) through
 * the writer (write.h) to a cache file, and the viewer loads it through the
 * normal loader, so the demo exercises the real path.  It has four ranks
 * (one of them slow), a worker thread and async tasks per rank, GPU and
 * await columns, recursion and a preconditioner hot spot: something to see
 * in every view.
 *
 * The cache file is $XDG_CACHE_HOME/scopeview/demo-<version>.h5 (or
 * ~/.cache/scopeview/..., or a per-user directory under $TMPDIR or /tmp
 * when neither can be created), keyed by scopeview's version so an upgrade
 * never shows a stale demo.  It is written once, atomically (temporary file
 * + rename), and reused while the loader reads it (index only) and its
 * metadata label names this generator revision (SV_GEN_REVISION), so a
 * damaged file or one from an older generator is written again.
 */
#ifndef SCOPEVIEW_DEMO_H
#define SCOPEVIEW_DEMO_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_IO)
#error "scopeview/demo.h belongs to the io layer, which this layer may not use"
#endif

#include <stddef.h>

#include "scopeview/common.h"
#include "scopeview/gen.h"

/* The generator options of the demo profile. */
void sv_demo_opts(struct sv_gen_opts *o);

/* Write the demo profile to path (replacing it atomically). */
int sv_demo_write(const char *path, struct sv_error *err);

/*
 * Make sure the cached demo exists and store its path (NUL-terminated) in
 * buf, n bytes.  Returns 0, -ENAMETOOLONG when buf is too small, or the
 * negative errno of the failed directory creation or write (err says
 * which path).  Safe to call from several processes at once.
 */
int sv_demo_path(char *buf, size_t n, struct sv_error *err);

#endif
