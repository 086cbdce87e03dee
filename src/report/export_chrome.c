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
#define CHROME_LIST   (SV_JSON_BLOCK | SV_JSON_COMPACT | SV_JSON_CLOSE_LINE)

/* A metadata event what of lane l: its value name (a JSON string), or
 * without one the sort index sort. */
static void chrome_meta(struct sv_json *j, const struct sv_export_ctx *x,
	size_t l, const char *what, const char *name, int64_t sort)
{
	const struct sv_profile *p = x->p;

	sv_json_object(j, CHROME_OBJECT);
	sv_json_raw_key(j, SV_JSON_LIT("ph"));
	sv_json_raw(j, SV_JSON_LIT("M"));
	sv_json_raw_key(j, SV_JSON_LIT("name"));
	sv_json_string(j, what);
	sv_json_raw_key(j, SV_JSON_LIT("pid"));
	sv_json_u64(j, p->lanes[l].rank);
	sv_json_raw_key(j, SV_JSON_LIT("tid"));
	sv_json_i64(j, (int64_t)l + x->part.lane_shift);
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
	const struct sv_export_part *pt = &x->part;
	struct sv_json *j = &x->j;
	bool nest = pt->nest;
	uint32_t par = nest ? sv_profile_parent(p, c) : SV_NO_CALL;

	sv_json_object(j, CHROME_OBJECT);
	sv_json_raw_key(j, SV_JSON_LIT("ph"));
	sv_json_raw(j, SV_JSON_LIT("X"));
	sv_export_name(j, SV_JSON_LIT("name"), x->region[sv_call_region(p, c)]);
	sv_json_raw_key(j, SV_JSON_LIT("cat"));
	sv_json_raw(j, SV_JSON_LIT("region"));
	sv_json_raw_key(j, SV_JSON_LIT("pid"));
	sv_json_u64(j, p->lanes[l].rank);
	sv_json_raw_key(j, SV_JSON_LIT("tid"));
	sv_json_i64(j, (int64_t)l + pt->lane_shift);
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
	sv_export_opt(j, SV_JSON_LIT("exclusive_ns"), pt->excl,
		pt->excl && sv_profile_has_exclusive(p)
			? sv_profile_exclusive(p, c)
			: 0);
	sv_json_raw_key(j, SV_JSON_LIT("depth"));
	sv_json_i64(j, nest ? sv_profile_depth(p, c) : 0);
	sv_json_raw_key(j, SV_JSON_LIT("call"));
	sv_json_u64(j, sv_export_callno(x, c));
	sv_export_opt(j, SV_JSON_LIT("parent"), par != SV_NO_CALL,
		par != SV_NO_CALL ? (int64_t)sv_export_callno(x, par) : 0);
	if (pt->gpu)
		sv_export_opt(
			j, SV_JSON_LIT("gpu_ns"), true, sv_profile_gpu(p, c));
	if (pt->await)
		sv_export_opt(j, SV_JSON_LIT("await_ns"), true,
			sv_profile_await(p, c));
	if (pt->id_call)
		sv_export_opt(j, SV_JSON_LIT("call_id"), true,
			sv_profile_id(p, SV_ID_CALL, c));
	if (pt->id_parent)
		sv_export_opt(j, SV_JSON_LIT("parent_id"), true,
			sv_profile_id(p, SV_ID_PARENT, c));
	if (x->meta) {
		sv_json_raw_key(j, SV_JSON_LIT("metadata"));
		sv_report_call_metadata(j, p, c);
	}
	sv_json_end(j);
	sv_json_end(j);
}

/* Everything before the events: the header and the list opened. */
static void chrome_head(struct sv_export_ctx *x, const char *file)
{
	struct sv_json *j = &x->j;

	sv_json_object(j, CHROME_OBJECT);
	sv_json_raw_key(j, SV_JSON_LIT("displayTimeUnit"));
	sv_json_raw(j, SV_JSON_LIT("ns"));
	sv_json_raw_key(j, SV_JSON_LIT("otherData"));
	sv_json_object(j, CHROME_OBJECT);
	sv_json_raw_key(j, SV_JSON_LIT("file"));
	sv_json_string(j, file ? file : x->p->path);
	sv_json_raw_key(j, SV_JSON_LIT("exporter"));
	sv_json_string(j, "scopeview " SV_VERSION);
	sv_json_end(j);
	sv_json_break(j);
	sv_json_raw_key(j, SV_JSON_LIT("traceEvents"));
	sv_json_array(j, CHROME_LIST);
}

/* The metadata events of the lanes of sc in x's share. */
static void chrome_lanes(
	struct sv_export_ctx *x, const struct sv_export_scope *sc)
{
	const struct sv_profile *p = x->p;
	uint32_t last_rank = UINT32_MAX;
	size_t l;

	for (l = 0; l < p->nlanes; l++) {
		char name[32];
		if (!sv_export_lane_in(p, sc, l) || !sv_export_lane_mine(x, l))
			continue;
		if (p->lanes[l].rank != last_rank) {
			snprintf(name, sizeof name, "\"rank %u\"",
				(unsigned)p->lanes[l].rank);
			chrome_meta(&x->j, x, l, "process_name", name, 0);
			chrome_meta(&x->j, x, l, "process_sort_index", NULL,
				p->lanes[l].rank);
		}
		last_rank = p->lanes[l].rank;
		chrome_meta(&x->j, x, l, "thread_name", x->lane[l], 0);
		chrome_meta(&x->j, x, l, "thread_sort_index", NULL,
			(int64_t)l + x->part.lane_shift);
	}
}

/* The complete events of the calls of sc in x's share. */
static void chrome_calls(
	struct sv_export_ctx *x, const struct sv_export_scope *sc)
{
	size_t l = 0;
	uint32_t i = 0, c;

	while (sv_export_next(x->p, sc, &l, &i, &c)) {
		if (sv_export_lane_mine(x, l))
			chrome_call(x, l, c);
		else
			i = x->p->lanes[l].ncalls; /* the next lane */
	}
}

/* The end: the list (with items or not) and the object closed. */
static void chrome_tail(struct sv_export_ctx *x)
{
	sv_json_end(&x->j);
	sv_json_end(&x->j);
	sv_json_finish(&x->j);
}

/* The pieces (1u << enum sv_export_piece) of a Chrome export to out;
 * without the head, inside the list another writer opened
 * (sv_export_begin_pieces). */
int sv_export_chrome_pieces(FILE *out, const struct sv_profile *p,
	const struct sv_export_scope *sc, const char *file,
	const struct sv_export_part *part, unsigned pieces,
	struct sv_error *err)
{
	struct sv_export_ctx x;
	int rc;

	if ((rc = sv_export_begin_pieces(&x, out, p, sc, part, pieces,
		     CHROME_OBJECT, CHROME_LIST, err)) < 0)
		return rc;
	if (pieces & SV_EXPORT_BIT(HEAD))
		chrome_head(&x, file);
	if (pieces & SV_EXPORT_BIT(LANES))
		chrome_lanes(&x, sc);
	if (pieces & SV_EXPORT_BIT(CALLS))
		chrome_calls(&x, sc);
	if (pieces & SV_EXPORT_BIT(TAIL))
		chrome_tail(&x);
	return sv_export_end(&x, "chrome", err);
}

int sv_export_chrome(FILE *out, const struct sv_profile *p,
	const struct sv_export_scope *sc, const char *file,
	struct sv_error *err)
{
	return sv_export_chrome_pieces(
		out, p, sc, file, NULL, SV_EXPORT_ALL, err);
}
