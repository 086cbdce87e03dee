/*
 * convert.h: write a profile in memory as one schema-3 HDF5 file in
 * scope-profiler's own layout (doc/format.md 16.4), what `scopeview
 * convert` writes: scope-profiler's `import-native` without Python, and
 * a JSON profile or an HDF5 file of any layout turned into the current
 * one.
 *
 * The file is written by the writer (write.h): "auto" compression
 * (shuffle + deflate 4 from 16,384 events, small datasets contiguous),
 * exclusive totals and summary statistics stored as scope-profiler's
 * writer computes them, the region table in the profile's base order,
 * and the rows of each rank in the profile's order; a temporary sibling
 * renamed over the destination at the end, so a reader never sees half
 * a file.  Read back by scope-profiler's read_h5, or by sv_load, the file
 * gives the figures the profile gives.
 */
#ifndef SCOPEVIEW_CONVERT_H
#define SCOPEVIEW_CONVERT_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_IO)
#error "scopeview/convert.h belongs to the io layer, which this layer may not use"
#endif

#include "scopeview/common.h"
#include "scopeview/profile.h"
#include "scopeview/strv.h"

/*
 * Write finished profile p (with its calls) to path.  label, when not
 * NULL, is stored as the metadata label in place of p's own.  Metadata
 * of a kind HDF5 attributes cannot hold as scope-profiler writes them
 * (SV_META_OTHER: a JSON null or object) is left out, one line for each
 * in notes (may be NULL), and so are, a line each, per-call event
 * metadata, counters, line profiles and extra /events columns, which the
 * writer does not write.  Returns 0, or a negative errno with err
 * filled: -EINVAL for a profile without calls ("holds stored statistics
 * only"), the writer's errors otherwise (nothing is left at path then).
 */
int sv_convert_write(const struct sv_profile *p, const char *path,
	const char *label, struct sv_strv *notes, struct sv_error *err);

#endif
