/*
 * sink.h: where profiles go, as the layers above the model see it: an
 * export of some of a profile's calls to a file in another tool's format.
 * The writers live in the report layer (export.h) and the command line
 * (cmd_export.c) knows the formats; the viewer (ui/, which may use neither)
 * is handed a struct sv_sink by the command line, as it is handed a
 * struct sv_source to load with, and tests can hand it one of their own.
 */
#ifndef SCOPEVIEW_SINK_H
#define SCOPEVIEW_SINK_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_MODEL)
#error "scopeview/sink.h belongs to the model layer, which this layer may not use"
#endif

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/common.h"
#include "scopeview/profile.h"

/*
 * Which calls an export holds: those of the lanes lane_on keeps (p->nlanes
 * flags; NULL keeps every lane) that meet the time range [t0, t1) when
 * has_range (absolute ns, as the profile stores them): a call is in when
 * start < t1 and end > t0, or, lasting no time, when t0 <= start < t1
 * (so an empty range, t1 <= t0, keeps none).  A
 * call in the range is exported whole, with its exact times, not cut at
 * the range's ends.
 *
 * An export on another thread (the viewer's): each call looked at adds
 * one to *progress, and a write stops (-ECANCELED, the file left
 * unwritten) soon after *cancel is set.  Either may be NULL; the folded
 * stacks (collapsed) neither count nor stop before they are written.
 */
struct sv_export_scope {
	const bool *lane_on;
	bool has_range;
	int64_t t0, t1;
	const atomic_bool *cancel;
	_Atomic uint64_t *progress;
};

/*
 * An export: write() writes the calls of p that sc keeps to the file path
 * in the format named format ("chrome", "csv", ...), by the output rule
 * of outfile.h: it refuses (-EEXIST) a path that is one of the ninputs
 * files inputs (the profiles the viewer shows; NULL entries skipped) by
 * any link, or that exists and is not a regular file, and writes a
 * temporary file renamed over path only when the export is complete, so
 * a failed or stopped export (-ECANCELED) leaves no file and the old one
 * whole.  Returns 0, or a negative errno with one line in err (an
 * unknown format, a refusal, a file that cannot be written).  formats
 * lists the names, space-separated.
 */
struct sv_sink {
	int (*write)(const char *format, const char *path,
		const struct sv_profile *p, const struct sv_export_scope *sc,
		const char *const *inputs, size_t ninputs,
		struct sv_error *err);
	const char *formats;
};

#endif
