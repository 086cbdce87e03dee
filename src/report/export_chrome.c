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
#include "scopeview/report.h"
#include "sv_version.h"

#define CHROME_OBJECT (SV_JSON_INLINE | SV_JSON_COMPACT)

/* A metadata event what of lane l: its value name (a JSON string), or
 * without one the sort index sort. */
static void chrome_meta(struct sv_json *j, const struct sv_profile *p, size_t l,
	const char *what, const char *name, int64_t sort)
{
	sv_json_object(j, CHROME_OBJECT);
	sv_json_raw_key(j, SV_JSON_LIT("ph"));
	sv_json_raw(j, SV_JSON_LIT("M"));
	sv_json_raw_key(j, SV_JSON_LIT("name"));
	sv_json_string(j, what);
	sv_json_raw_key(j, SV_JSON_LIT("pid"));
	sv_json_u64(j, p->lanes[l].rank);
	sv_json_raw_key(j, SV_JSON_LIT("tid"));
	sv_json_u64(j, l);
	sv_json_raw_key(j, SV_JSON_LIT("args"));
	sv_json_object(j, CHROME_OBJECT);
	if (name) {
		sv_export_name(j, SV_JSON_LIT("name"), name);
	} else {
		sv_json_raw_key(j, SV_JSON_LIT("sort_index"));
		sv_json_i64(j, sort);
	}
	sv_json_end(j);
	sv_json_end(j);
}

static void chrome_call(struct sv_export_ctx *x, size_t l, uint32_t c)
{
	const struct sv_profile *p = x->p;
	struct sv_json *j = &x->j;
	bool nest = sv_profile_has_nesting(p);

	sv_json_object(j, CHROME_OBJECT);
	sv_json_raw_key(j, SV_JSON_LIT("ph"));
	sv_json_raw(j, SV_JSON_LIT("X"));
	sv_export_name(j, SV_JSON_LIT("name"), x->region[sv_call_region(p, c)]);
	sv_json_raw_key(j, SV_JSON_LIT("cat"));
	sv_json_raw(j, SV_JSON_LIT("region"));
	sv_json_raw_key(j, SV_JSON_LIT("pid"));
	sv_json_u64(j, p->lanes[l].rank);
	sv_json_raw_key(j, SV_JSON_LIT("tid"));
	sv_json_u64(j, l);
	sv_json_raw_key(j, SV_JSON_LIT("ts"));
	sv_json_fixed(j, sv_sub_wrap(sv_profile_start(p, c), x->origin), 3);
	sv_json_raw_key(j, SV_JSON_LIT("dur"));
	sv_json_fixed(j, sv_call_duration(p, c), 3);
	sv_json_raw_key(j, SV_JSON_LIT("args"));
	sv_json_object(j, CHROME_OBJECT);
	sv_json_raw_key(j, SV_JSON_LIT("start_ns"));
	sv_json_i64(j, sv_profile_start(p, c));
	sv_json_raw_key(j, SV_JSON_LIT("end_ns"));
	sv_json_i64(j, sv_profile_end(p, c));
	sv_json_raw_key(j, SV_JSON_LIT("duration_ns"));
	sv_json_i64(j, sv_call_duration(p, c));
	sv_export_opt(j, SV_JSON_LIT("exclusive_ns"),
		sv_profile_has_exclusive(p),
		sv_profile_has_exclusive(p) ? sv_profile_exclusive(p, c) : 0);
	sv_json_raw_key(j, SV_JSON_LIT("depth"));
	sv_json_i64(j, nest ? sv_profile_depth(p, c) : 0);
	sv_json_raw_key(j, SV_JSON_LIT("call"));
	sv_json_u64(j, c);
	sv_export_opt(j, SV_JSON_LIT("parent"),
		nest && sv_profile_parent(p, c) != SV_NO_CALL,
		nest ? sv_profile_parent(p, c) : 0);
	if (sv_profile_has_gpu(p))
		sv_export_opt(
			j, SV_JSON_LIT("gpu_ns"), true, sv_profile_gpu(p, c));
	if (sv_profile_has_await(p))
		sv_export_opt(j, SV_JSON_LIT("await_ns"), true,
			sv_profile_await(p, c));
	if (sv_profile_has_id(p, SV_ID_CALL))
		sv_export_opt(j, SV_JSON_LIT("call_id"), true,
			sv_profile_id(p, SV_ID_CALL, c));
	if (sv_profile_has_id(p, SV_ID_PARENT))
		sv_export_opt(j, SV_JSON_LIT("parent_id"), true,
			sv_profile_id(p, SV_ID_PARENT, c));
	if (x->meta) {
		sv_json_raw_key(j, SV_JSON_LIT("metadata"));
		sv_report_call_metadata(j, p, c);
	}
	sv_json_end(j);
	sv_json_end(j);
}

int sv_export_chrome(FILE *out, const struct sv_profile *p,
	const struct sv_export_scope *sc, const char *file,
	struct sv_error *err)
{
	struct sv_export_ctx x;
	struct sv_json *j;
	uint32_t last_rank = UINT32_MAX, i = 0, c;
	size_t l;
	int rc;

	if ((rc = sv_export_begin(&x, out, p, sc, true, err)) < 0)
		return rc;
	j = &x.j;
	sv_json_object(j, CHROME_OBJECT);
	sv_json_raw_key(j, SV_JSON_LIT("displayTimeUnit"));
	sv_json_raw(j, SV_JSON_LIT("ns"));
	sv_json_raw_key(j, SV_JSON_LIT("otherData"));
	sv_json_object(j, CHROME_OBJECT);
	sv_json_raw_key(j, SV_JSON_LIT("file"));
	sv_json_string(j, file ? file : p->path);
	sv_json_raw_key(j, SV_JSON_LIT("exporter"));
	sv_json_string(j, "scopeview " SV_VERSION);
	sv_json_end(j);
	sv_json_break(j);
	sv_json_raw_key(j, SV_JSON_LIT("traceEvents"));
	sv_json_array(j, SV_JSON_BLOCK | SV_JSON_COMPACT | SV_JSON_CLOSE_LINE);
	for (l = 0; l < p->nlanes; l++) {
		char name[32];
		if (!sv_export_lane_in(p, sc, l))
			continue;
		if (p->lanes[l].rank != last_rank) {
			snprintf(name, sizeof name, "\"rank %u\"",
				(unsigned)p->lanes[l].rank);
			chrome_meta(j, p, l, "process_name", name, 0);
			chrome_meta(j, p, l, "process_sort_index", NULL,
				p->lanes[l].rank);
		}
		last_rank = p->lanes[l].rank;
		chrome_meta(j, p, l, "thread_name", x.lane[l], 0);
		chrome_meta(j, p, l, "thread_sort_index", NULL, (int64_t)l);
	}
	l = 0;
	while (sv_export_next(p, sc, &l, &i, &c))
		chrome_call(&x, l, c);
	sv_json_end(j);
	sv_json_end(j);
	sv_json_finish(j);
	return sv_export_end(&x, "chrome", err);
}
