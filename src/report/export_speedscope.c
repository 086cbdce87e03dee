/*
 * export_speedscope.c: the speedscope export (export.h): the regions as
 * shared frames and one evented profile per lane, its calls turned into
 * open and close events by a stack of the open calls.  Each stack entry
 * closes no later than the one below it, so the events come out ordered
 * by time and balanced even where the file's nesting is broken.  Streams
 * through the JSON writer (json.h); the stack is at most a lane's depth.
 */
#include "scopeview/export.h"

#include <errno.h>
#include <stdlib.h>

#include "export_priv.h"
#include "sv_version.h"

struct speedscope_open {
	uint32_t frame;
	int64_t end; /* when it closes, ns from the origin */
};

#define SPEEDSCOPE_OBJECT (SV_JSON_INLINE | SV_JSON_COMPACT)
/* A list one item a line, its close right after the last item. */
#define SPEEDSCOPE_LIST (SV_JSON_BLOCK | SV_JSON_COMPACT | SV_JSON_TIGHT)
/* The list of profiles, its close on a line of its own. */
#define SPEEDSCOPE_PROFILES \
	(SV_JSON_BLOCK | SV_JSON_COMPACT | SV_JSON_CLOSE_LINE)

static void speedscope_event(
	struct sv_json *j, char type, uint32_t frame, int64_t at)
{
	sv_json_object(j, SPEEDSCOPE_OBJECT);
	sv_json_raw_key(j, SV_JSON_LIT("type"));
	if (type == 'O')
		sv_json_raw(j, SV_JSON_LIT("O"));
	else
		sv_json_raw(j, SV_JSON_LIT("C"));
	sv_json_raw_key(j, SV_JSON_LIT("frame"));
	sv_json_u64(j, frame);
	sv_json_raw_key(j, SV_JSON_LIT("at"));
	sv_json_i64(j, at);
	sv_json_end(j);
}

/* The shared frames: one per region, with its source when a row of it
 * names one. */
static void speedscope_frames(
	struct sv_json *j, const struct sv_profile *p, char **region)
{
	const struct sv_row **src =
		sv_xcalloc((size_t)p->nregions + 1, sizeof *src);
	uint32_t r;
	size_t i;

	for (i = 0; i < p->nrows; i++)
		if (p->rows[i].region < p->nregions &&
			!src[p->rows[i].region] && p->rows[i].source_file)
			src[p->rows[i].region] = &p->rows[i];
	sv_json_raw_key(j, SV_JSON_LIT("shared"));
	sv_json_object(j, SPEEDSCOPE_OBJECT);
	sv_json_raw_key(j, SV_JSON_LIT("frames"));
	sv_json_array(j, SPEEDSCOPE_LIST);
	for (r = 0; r < p->nregions; r++) {
		sv_json_object(j, SPEEDSCOPE_OBJECT);
		sv_export_name(j, SV_JSON_LIT("name"), region[r]);
		if (src[r]) {
			sv_json_raw_key(j, SV_JSON_LIT("file"));
			sv_json_string(j, src[r]->source_file);
			if (src[r]->source_line >= 0) {
				sv_json_raw_key(j, SV_JSON_LIT("line"));
				sv_json_i64(j, src[r]->source_line);
			}
		}
		sv_json_end(j);
	}
	sv_json_end(j);
	sv_json_end(j);
	free(src);
}

/* Lane l's profile; false (nothing written) when no call of it is in sc.
 * *stack (*cap entries) is the stack of open calls, grown as needed. */
static bool speedscope_lane(struct sv_json *j, const struct sv_profile *p,
	const struct sv_export_scope *sc, size_t l, const char *name,
	int64_t origin, struct speedscope_open **stackp, size_t *cap)
{
	struct speedscope_open *stack = *stackp;
	const struct sv_lane *ln = &p->lanes[l];
	int64_t t0 = 0, t1 = 0;
	size_t top = 0;
	bool first = true;
	uint32_t i;

	for (i = 0; i < ln->ncalls; i++) {
		uint32_t c = sv_lane_call(ln, i);
		int64_t s, e;
		if (!sv_export_call_in(p, sc, c))
			continue;
		s = sv_sub_wrap(sv_profile_start(p, c), origin);
		e = sv_sub_wrap(sv_profile_end(p, c), origin);
		if (e < s)
			e = s;
		if (first) {
			sv_json_object(j, SPEEDSCOPE_OBJECT);
			sv_json_raw_key(j, SV_JSON_LIT("type"));
			sv_json_raw(j, SV_JSON_LIT("evented"));
			sv_export_name(j, SV_JSON_LIT("name"), name);
			sv_json_raw_key(j, SV_JSON_LIT("unit"));
			sv_json_raw(j, SV_JSON_LIT("nanoseconds"));
			sv_json_raw_key(j, SV_JSON_LIT("events"));
			sv_json_array(j, SPEEDSCOPE_LIST);
			t0 = t1 = s;
			first = false;
		}
		while (top && stack[top - 1].end <= s) {
			top--;
			speedscope_event(
				j, 'C', stack[top].frame, stack[top].end);
		}
		speedscope_event(j, 'O', sv_call_region(p, c), s);
		if (top && stack[top - 1].end < e)
			e = stack[top - 1].end;
		if (top == *cap) {
			sv_grow((void **)stackp, cap, top + 1, sizeof *stack);
			stack = *stackp;
		}
		stack[top].frame = sv_call_region(p, c);
		stack[top].end = e;
		top++;
		if (e > t1)
			t1 = e;
	}
	if (first)
		return false;
	while (top) {
		top--;
		speedscope_event(j, 'C', stack[top].frame, stack[top].end);
	}
	sv_json_end(j);
	sv_json_raw_key(j, SV_JSON_LIT("startValue"));
	sv_json_i64(j, t0);
	sv_json_raw_key(j, SV_JSON_LIT("endValue"));
	sv_json_i64(j, t1);
	sv_json_end(j);
	return true;
}

/* Everything before the profiles: the header, the frames, the list
 * opened. */
static void speedscope_head(struct sv_export_ctx *x, const char *file)
{
	struct sv_json *j = &x->j;

	sv_json_object(j, SPEEDSCOPE_OBJECT);
	sv_json_raw_key(j, SV_JSON_LIT("$schema"));
	sv_json_string(j, "https://www.speedscope.app/file-format-schema.json");
	sv_json_break(j);
	sv_json_raw_key(j, SV_JSON_LIT("exporter"));
	sv_json_string(j, "scopeview " SV_VERSION);
	sv_json_raw_key(j, SV_JSON_LIT("name"));
	sv_json_string(j, file ? file : x->p->path);
	sv_json_raw_key(j, SV_JSON_LIT("activeProfileIndex"));
	sv_json_i64(j, 0);
	sv_json_break(j);
	speedscope_frames(j, x->p, x->region);
	sv_json_break(j);
	sv_json_raw_key(j, SV_JSON_LIT("profiles"));
	sv_json_array(j, SPEEDSCOPE_PROFILES);
}

/* The profiles of the lanes of sc in x's share. */
static void speedscope_lanes(
	struct sv_export_ctx *x, const struct sv_export_scope *sc)
{
	struct speedscope_open *stack = NULL;
	size_t l, cap = 0;

	for (l = 0; l < x->p->nlanes; l++)
		if (sv_export_lane_in(x->p, sc, l) && sv_export_lane_mine(x, l))
			speedscope_lane(&x->j, x->p, sc, l, x->lane[l],
				x->origin, &stack, &cap);
	free(stack);
}

/* The pieces (1u << enum sv_export_piece) of a speedscope export to
 * out; without the head, inside the list another writer opened
 * (sv_export_begin_pieces). */
int sv_export_speedscope_pieces(FILE *out, const struct sv_profile *p,
	const struct sv_export_scope *sc, const char *file,
	const struct sv_export_part *part, unsigned pieces,
	struct sv_error *err)
{
	struct sv_export_ctx x;
	int rc;

	if ((rc = sv_export_begin_pieces(&x, out, p, sc, part, pieces,
		     SPEEDSCOPE_OBJECT, SPEEDSCOPE_PROFILES, err)) < 0)
		return rc;
	if (pieces & SV_EXPORT_BIT(HEAD))
		speedscope_head(&x, file);
	if (pieces & SV_EXPORT_BIT(CALLS))
		speedscope_lanes(&x, sc);
	if (pieces & SV_EXPORT_BIT(TAIL)) {
		sv_json_end(&x.j);
		sv_json_end(&x.j);
		sv_json_finish(&x.j);
	}
	return sv_export_end(&x, "speedscope", err);
}

int sv_export_speedscope(FILE *out, const struct sv_profile *p,
	const struct sv_export_scope *sc, const char *file,
	struct sv_error *err)
{
	return sv_export_speedscope_pieces(
		out, p, sc, file, NULL, SV_EXPORT_ALL, err);
}
