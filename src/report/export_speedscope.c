/*
 * export_speedscope.c: the speedscope export (export.h): the regions as
 * shared frames and one evented profile per lane, its calls turned into
 * open and close events by a stack of the open calls.  Each stack entry
 * closes no later than the one below it, so the events come out ordered
 * by time and balanced even where the file's nesting is broken.  Streams
 * through the export buffer; the stack is at most a lane's depth.
 */
#include "scopeview/export.h"

#include <errno.h>
#include <stdlib.h>

#include "export_priv.h"
#include "scopeview/strv.h"
#include "sv_version.h"

struct speedscope_open {
	uint32_t frame;
	int64_t end; /* when it closes, ns from the origin */
};

static void speedscope_event(struct sv_export_buf *w, char type, uint32_t frame,
	int64_t at, bool *first)
{
	sv_export_puts(w, *first ? "\n{\"type\":\"" : ",\n{\"type\":\"");
	*first = false;
	sv_export_putc(w, type);
	sv_export_puts(w, "\",\"frame\":");
	sv_export_i64(w, frame);
	sv_export_puts(w, ",\"at\":");
	sv_export_i64(w, at);
	sv_export_putc(w, '}');
}

/* The shared frames: one per region, with its source when a row of it
 * names one. */
static void speedscope_frames(
	struct sv_export_buf *w, const struct sv_profile *p, char **region)
{
	const struct sv_row **src =
		sv_xcalloc((size_t)p->nregions + 1, sizeof *src);
	char **file;
	uint32_t r;
	size_t i;

	for (i = 0; i < p->nrows; i++)
		if (p->rows[i].region < p->nregions &&
			!src[p->rows[i].region] && p->rows[i].source_file)
			src[p->rows[i].region] = &p->rows[i];
	sv_export_puts(w, "\"shared\":{\"frames\":[");
	for (r = 0; r < p->nregions; r++) {
		sv_export_puts(w, r ? ",\n{\"name\":" : "\n{\"name\":");
		sv_export_puts(w, region[r]);
		if (src[r]) {
			file = sv_export_json_names(&src[r]->source_file, 1);
			sv_export_puts(w, ",\"file\":");
			sv_export_puts(w, file[0]);
			sv_strv_free_array(file, 1);
			if (src[r]->source_line >= 0) {
				sv_export_puts(w, ",\"line\":");
				sv_export_i64(w, src[r]->source_line);
			}
		}
		sv_export_putc(w, '}');
	}
	sv_export_puts(w, "]},\n");
	free(src);
}

/* Lane l's profile; false (nothing written) when no call of it is in sc.
 * *stack (*cap entries) is the stack of open calls, grown as needed. */
static bool speedscope_lane(struct sv_export_buf *w, const struct sv_profile *p,
	const struct sv_export_scope *sc, size_t l, const char *name,
	int64_t origin, struct speedscope_open **stackp, size_t *cap,
	bool comma)
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
			sv_export_puts(w, comma ? ",\n{" : "\n{");
			sv_export_puts(w, "\"type\":\"evented\",\"name\":");
			sv_export_puts(w, name);
			sv_export_puts(w, ",\"unit\":\"nanoseconds\","
					  "\"events\":[");
			t0 = t1 = s;
		}
		while (top && stack[top - 1].end <= s) {
			top--;
			speedscope_event(w, 'C', stack[top].frame,
				stack[top].end, &first);
		}
		speedscope_event(w, 'O', sv_call_region(p, c), s, &first);
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
		speedscope_event(
			w, 'C', stack[top].frame, stack[top].end, &first);
	}
	sv_export_puts(w, "],\"startValue\":");
	sv_export_i64(w, t0);
	sv_export_puts(w, ",\"endValue\":");
	sv_export_i64(w, t1);
	sv_export_putc(w, '}');
	return true;
}

int sv_export_speedscope(FILE *out, const struct sv_profile *p,
	const struct sv_export_scope *sc, const char *file,
	struct sv_error *err)
{
	struct sv_export_ctx x;
	struct sv_export_buf *w;
	struct speedscope_open *stack = NULL;
	size_t l, cap = 0;
	bool any = false;
	int rc;

	if ((rc = sv_export_begin(&x, out, p, sc, true, err)) < 0)
		return rc;
	w = x.w;
	sv_export_puts(w, "{\"$schema\":\"https://www.speedscope.app/"
			  "file-format-schema.json\",\n\"exporter\":"
			  "\"scopeview " SV_VERSION "\",\"name\":");
	sv_export_file_name(w, p, file);
	sv_export_puts(w, ",\"activeProfileIndex\":0,\n");
	speedscope_frames(w, p, x.region);
	sv_export_puts(w, "\"profiles\":[");
	for (l = 0; l < p->nlanes; l++) {
		if (!sv_export_lane_in(p, sc, l))
			continue;
		if (speedscope_lane(w, p, sc, l, x.lane[l], x.origin, &stack,
			    &cap, any))
			any = true;
	}
	sv_export_puts(w, "\n]}\n");
	free(stack);
	return sv_export_end(&x, "speedscope", err);
}
