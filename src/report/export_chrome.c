/*
 * export_chrome.c: the Chrome trace-event export (export.h): a JSON
 * object whose traceEvents are metadata events naming each rank's process
 * and each lane's thread, then one complete ("X") event per call, lane by
 * lane, each lane's calls by start.  Streams through the export buffer.
 */
#include "scopeview/export.h"

#include <errno.h>
#include <stdlib.h>

#include "export_priv.h"
#include "scopeview/strv.h"
#include "scopeview/summary.h"
#include "sv_version.h"

/* The separator before an event: none before the first. */
static void chrome_next(struct sv_export_buf *w, bool *first)
{
	sv_export_puts(w, *first ? "\n{\"ph\":" : ",\n{\"ph\":");
	*first = false;
}

/* A metadata event what of lane l: its value name (a JSON string), or
 * without one the sort index sort. */
static void chrome_meta(struct sv_export_buf *w, const struct sv_profile *p,
	size_t l, const char *what, const char *name, int64_t sort, bool *first)
{
	chrome_next(w, first);
	sv_export_puts(w, "\"M\",\"name\":\"");
	sv_export_puts(w, what);
	sv_export_puts(w, "\",\"pid\":");
	sv_export_i64(w, p->lanes[l].rank);
	sv_export_puts(w, ",\"tid\":");
	sv_export_i64(w, (int64_t)l);
	sv_export_puts(w, ",\"args\":{");
	if (name) {
		sv_export_puts(w, "\"name\":");
		sv_export_puts(w, name);
	} else {
		sv_export_puts(w, "\"sort_index\":");
		sv_export_i64(w, sort);
	}
	sv_export_puts(w, "}}");
}

/* The optional column col of call c as ",\"key\":value", when present. */
static void chrome_arg(
	struct sv_export_buf *w, const char *key, bool has, int64_t v)
{
	if (!has)
		return;
	sv_export_puts(w, key);
	sv_export_i64(w, v);
}

static void chrome_call(struct sv_export_buf *w, const struct sv_profile *p,
	size_t l, uint32_t c, const char *name, int64_t origin, bool meta,
	bool *first)
{
	static const char *const times[3] = {",\"args\":{\"start_ns\":",
		",\"end_ns\":", ",\"duration_ns\":"};

	chrome_next(w, first);
	sv_export_puts(w, "\"X\",\"name\":");
	sv_export_puts(w, name);
	sv_export_puts(w, ",\"cat\":\"region\",\"pid\":");
	sv_export_i64(w, p->lanes[l].rank);
	sv_export_puts(w, ",\"tid\":");
	sv_export_i64(w, (int64_t)l);
	sv_export_puts(w, ",\"ts\":");
	sv_export_us(w, sv_sub_wrap(sv_profile_start(p, c), origin));
	sv_export_puts(w, ",\"dur\":");
	sv_export_us(w, sv_call_duration(p, c));
	sv_export_times(w, p, c, times);
	sv_export_puts(w, ",\"exclusive_ns\":");
	sv_export_exclusive(w, p, c, true);
	sv_export_puts(w, ",\"depth\":");
	sv_export_i64(
		w, sv_profile_has_nesting(p) ? sv_profile_depth(p, c) : 0);
	sv_export_puts(w, ",\"call\":");
	sv_export_i64(w, c);
	sv_export_puts(w, ",\"parent\":");
	if (sv_profile_has_nesting(p) && sv_profile_parent(p, c) != SV_NO_CALL)
		sv_export_i64(w, sv_profile_parent(p, c));
	else
		sv_export_puts(w, "null");
	chrome_arg(
		w, ",\"gpu_ns\":", sv_profile_has_gpu(p), sv_profile_gpu(p, c));
	chrome_arg(w, ",\"await_ns\":", sv_profile_has_await(p),
		sv_profile_await(p, c));
	if (sv_profile_has_id(p, SV_ID_CALL)) {
		sv_export_puts(w, ",\"call_id\":");
		sv_export_i64(w, sv_profile_id(p, SV_ID_CALL, c));
	}
	if (sv_profile_has_id(p, SV_ID_PARENT)) {
		sv_export_puts(w, ",\"parent_id\":");
		sv_export_i64(w, sv_profile_id(p, SV_ID_PARENT, c));
	}
	if (meta) {
		sv_export_puts(w, ",\"metadata\":");
		sv_export_metadata(w, p, c);
	}
	sv_export_puts(w, "}}");
}

int sv_export_chrome(FILE *out, const struct sv_profile *p,
	const struct sv_export_scope *sc, const char *file,
	struct sv_error *err)
{
	struct sv_export_ctx x;
	struct sv_export_buf *w;
	uint32_t last_rank = UINT32_MAX, i = 0, c;
	bool first = true;
	size_t l;
	int rc;

	if ((rc = sv_export_begin(&x, out, p, sc, true, err)) < 0)
		return rc;
	w = x.w;
	sv_export_puts(w, "{\"displayTimeUnit\":\"ns\",\"otherData\":{"
			  "\"file\":");
	sv_export_file_name(w, p, file);
	sv_export_puts(w, ",\"exporter\":\"scopeview " SV_VERSION "\"},\n"
			  "\"traceEvents\":[");
	for (l = 0; l < p->nlanes; l++) {
		char name[32];
		if (!sv_export_lane_in(p, sc, l))
			continue;
		if (p->lanes[l].rank != last_rank) {
			snprintf(name, sizeof name, "\"rank %u\"",
				(unsigned)p->lanes[l].rank);
			chrome_meta(w, p, l, "process_name", name, 0, &first);
			chrome_meta(w, p, l, "process_sort_index", NULL,
				p->lanes[l].rank, &first);
		}
		last_rank = p->lanes[l].rank;
		chrome_meta(w, p, l, "thread_name", x.lane[l], 0, &first);
		chrome_meta(
			w, p, l, "thread_sort_index", NULL, (int64_t)l, &first);
	}
	l = 0;
	while (sv_export_next(p, sc, &l, &i, &c))
		chrome_call(w, p, l, c, x.region[sv_call_region(p, c)],
			x.origin, x.meta, &first);
	sv_export_puts(w, "\n]}\n");
	return sv_export_end(&x, "chrome", err);
}
