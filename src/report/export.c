/*
 * export.c: what the export writers share (export_priv.h): the stream
 * and its writers, escaped names, the scope of an export, the check that
 * an export does not overwrite its own profile; and the CSV export, a row
 * per call.  Formats only: the calls, their nesting and exclusive times
 * are the model's.
 */
#include "scopeview/export.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "export_priv.h"
#include "scopeview/callpath.h"
#include "scopeview/report.h"
#include "scopeview/strv.h"
#include "scopeview/tree.h"

/* Each of the n strings s[i] (NULL: "") as one JSON string or one CSV
 * field, in a new array of n malloc'd strings (sv_strv_free_array). */
static char **export_names(char *const *s, size_t n, bool json)
{
	char **out = sv_xcalloc(n ? n : 1, sizeof *out);
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = json ? sv_json_quote(s[i]) : sv_csv_quote(s[i]);
	return out;
}

bool sv_export_lane_in(
	const struct sv_profile *p, const struct sv_export_scope *sc, size_t l)
{
	return l < p->nlanes && (!sc || !sc->lane_on || sc->lane_on[l]);
}

bool sv_export_call_in(const struct sv_profile *p,
	const struct sv_export_scope *sc, uint32_t c)
{
	int64_t s, e;

	if (!p || c >= p->ncalls)
		return false;
	if (!sc)
		return true;
	if (sc->progress)
		atomic_fetch_add_explicit(
			sc->progress, 1, memory_order_relaxed);
	/* Stopped: no more calls, and the last flush says so. */
	if (sc->cancel &&
		atomic_load_explicit(sc->cancel, memory_order_relaxed))
		return false;
	if (sc->lane_on && sv_profile_has_lanes(p) &&
		!sc->lane_on[sv_call_lane(p, c)])
		return false;
	if (!sc->has_range)
		return true;
	s = sv_profile_start(p, c);
	e = sv_profile_end(p, c);
	if (s >= sc->t1 || sc->t1 <= sc->t0)
		return false;
	return e > sc->t0 || (s >= sc->t0 && e <= s);
}

void sv_export_part_of(struct sv_export_part *part, const struct sv_profile *p)
{
	memset(part, 0, sizeof *part);
	part->origin = sv_profile_time_origin(p);
	part->meta = p->call_meta || p->ncolumns;
	part->nest = sv_profile_has_nesting(p);
	part->excl = sv_profile_has_exclusive(p);
	part->gpu = sv_profile_has_gpu(p);
	part->await = sv_profile_has_await(p);
	part->id_call = sv_profile_has_id(p, SV_ID_CALL);
	part->id_parent = sv_profile_has_id(p, SV_ID_PARENT);
	part->has_calls = p->has_calls;
	part->nthreads = p->nthreads;
	part->ntasks = p->ntasks;
}

int sv_export_begin(struct sv_export_ctx *x, FILE *out,
	const struct sv_profile *p, const struct sv_export_scope *sc, bool json,
	struct sv_error *err)
{
	return sv_export_begin_part(x, out, p, sc, json, NULL, err);
}

int sv_export_begin_part(struct sv_export_ctx *x, FILE *out,
	const struct sv_profile *p, const struct sv_export_scope *sc, bool json,
	const struct sv_export_part *part, struct sv_error *err)
{
	char **labels;
	size_t l;

	memset(x, 0, sizeof *x);
	if (!out || !p)
		return sv_error_set(err, -EINVAL, "nothing to export");
	sv_outbuf_init(&x->o, out);
	x->o.cancel = sc ? sc->cancel : NULL;
	sv_json_init(&x->j, &x->o);
	sv_csv_init(&x->c, &x->o);
	x->p = p;
	x->region = export_names(p->regions, p->nregions, json);
	labels = sv_xcalloc(p->nlanes ? p->nlanes : 1, sizeof *labels);
	for (l = 0; l < p->nlanes; l++)
		labels[l] = p->lanes[l].label;
	x->lane = export_names(labels, p->nlanes, json);
	free(labels);
	if (part)
		x->part = *part;
	else
		sv_export_part_of(&x->part, p);
	x->origin = x->part.origin;
	x->meta = x->part.meta;
	return 0;
}

int sv_export_begin_pieces(struct sv_export_ctx *x, FILE *out,
	const struct sv_profile *p, const struct sv_export_scope *sc,
	const struct sv_export_part *part, unsigned pieces, unsigned object,
	unsigned list, struct sv_error *err)
{
	int rc = sv_export_begin_part(x, out, p, sc, true, part, err);

	if (rc < 0 || pieces & SV_EXPORT_BIT(HEAD))
		return rc;
	sv_json_resume(&x->j, object, '}', 1);
	sv_json_resume(&x->j, list, ']',
		pieces == SV_EXPORT_BIT(TAIL) ? part && part->any : 1);
	return 0;
}

int sv_export_end(
	struct sv_export_ctx *x, const char *what, struct sv_error *err)
{
	FILE *out = x->o.file;
	int rc = 0, fl = sv_outbuf_fini(&x->o);

	if (fl == -ECANCELED)
		rc = sv_error_set(
			err, -ECANCELED, "the %s export was stopped", what);
	else if (fl < 0 || fflush(out) || ferror(out))
		rc = sv_error_set(
			err, -EIO, "cannot write the %s export", what);
	sv_json_fini(&x->j);
	sv_strv_free_array(x->region, x->p->nregions);
	sv_strv_free_array(x->lane, x->p->nlanes);
	memset(x, 0, sizeof *x);
	return rc;
}

bool sv_export_next(const struct sv_profile *p,
	const struct sv_export_scope *sc, size_t *l, uint32_t *i, uint32_t *c)
{
	for (; *l < p->nlanes; ++*l, *i = 0) {
		const struct sv_lane *ln = &p->lanes[*l];
		if (!sv_export_lane_in(p, sc, *l))
			continue;
		while (*i < ln->ncalls) {
			uint32_t k = sv_lane_call(ln, (*i)++);
			if (sv_export_call_in(p, sc, k)) {
				*c = k;
				return true;
			}
		}
	}
	return false;
}

/* ---- folded stacks ------------------------------------------------------- */

int sv_export_collapsed(FILE *out, const struct sv_profile *p,
	const struct sv_export_scope *sc, const char *file,
	struct sv_error *err)
{
	struct sv_callpath_scope cs;
	struct sv_callpath t;
	int rc;

	(void)file;
	if (!out || !p)
		return sv_error_set(err, -EINVAL, "nothing to export");
	memset(&cs, 0, sizeof cs);
	if (sc) {
		cs.lane_on = sc->lane_on;
		cs.has_range = sc->has_range;
		cs.t0 = sc->t0;
		cs.t1 = sc->t1;
	}
	cs.expand_recursion = true;
	rc = sv_callpath_build(&t, p, &cs, err);
	if (rc == 0 && sv_tree_write_collapsed(out, &t, NULL) < 0)
		rc = sv_error_set(err, -EIO, "cannot write the stacks");
	sv_callpath_fini(&t);
	return rc;
}

/* ---- CSV ------------------------------------------------------------------ */

/* "v" as a field, or an empty one without it (!has). */
static void export_csv_opt(struct sv_csv *c, bool has, int64_t v)
{
	if (has)
		sv_csv_i64(c, v);
	else
		sv_csv_empty(c);
}

/* Call c's metadata (sv_report_call_metadata) as one CSV field, written
 * through mem, a memory stream emptied for every call. */
static void export_csv_meta(struct sv_csv *c, const struct sv_profile *p,
	uint32_t call, struct sv_outbuf *mem)
{
	struct sv_json j;
	size_t n;
	const char *text;

	sv_outbuf_reset(mem);
	sv_json_init(&j, mem);
	sv_report_call_metadata(&j, p, call);
	sv_json_fini(&j);
	text = sv_outbuf_text(mem, &n);
	sv_csv_field_n(c, text, n);
}

static const char export_csv_head[] =
	"call,rank,lane,region,start_ns,end_ns,duration_ns,exclusive_ns,depth,"
	"parent,gpu_ns,await_ns,metadata";

/* The CSV rows of the calls of sc in x's share. */
static void export_csv_rows(struct sv_export_ctx *x,
	const struct sv_export_scope *sc, struct sv_outbuf *mem)
{
	const struct sv_profile *p = x->p;
	const struct sv_export_part *pt = &x->part;
	struct sv_csv *c = &x->c;
	size_t l = 0;
	uint32_t i = 0, k;

	while (sv_export_next(p, sc, &l, &i, &k)) {
		uint32_t par = pt->nest ? sv_profile_parent(p, k) : SV_NO_CALL;
		if (!sv_export_lane_mine(x, l)) {
			i = p->lanes[l].ncalls; /* the next lane */
			continue;
		}
		sv_csv_u64(c, sv_export_callno(x, k));
		sv_csv_u64(c, p->lanes[l].rank);
		sv_csv_raw(c, x->lane[l]);
		sv_csv_raw(c, x->region[sv_call_region(p, k)]);
		sv_csv_i64(c, sv_profile_start(p, k));
		sv_csv_i64(c, sv_profile_end(p, k));
		sv_csv_i64(c, sv_call_duration(p, k));
		export_csv_opt(c, pt->excl,
			pt->excl && sv_profile_has_exclusive(p)
				? sv_profile_exclusive(p, k)
				: 0);
		export_csv_opt(
			c, pt->nest, pt->nest ? sv_profile_depth(p, k) : 0);
		if (par != SV_NO_CALL)
			sv_csv_u64(c, sv_export_callno(x, par));
		else
			sv_csv_empty(c);
		export_csv_opt(c, pt->gpu, sv_profile_gpu(p, k));
		export_csv_opt(c, pt->await, sv_profile_await(p, k));
		if (x->meta)
			export_csv_meta(c, p, k, mem);
		else
			sv_csv_empty(c);
		sv_csv_end_row(c);
	}
}

/* The pieces (1u << enum sv_export_piece) of a CSV export to out: the
 * header row (HEAD) and the calls' rows (CALLS). */
static int export_csv_write(FILE *out, const struct sv_profile *p,
	const struct sv_export_scope *sc, const struct sv_export_part *part,
	unsigned pieces, struct sv_error *err)
{
	struct sv_export_ctx x;
	struct sv_outbuf mem;
	int rc;

	if ((rc = sv_export_begin_part(&x, out, p, sc, false, part, err)) < 0)
		return rc;
	sv_outbuf_init(&mem, NULL);
	if (pieces & SV_EXPORT_BIT(HEAD))
		sv_csv_header(&x.c, export_csv_head);
	if (pieces & SV_EXPORT_BIT(CALLS))
		export_csv_rows(&x, sc, &mem);
	sv_outbuf_fini(&mem);
	return sv_export_end(&x, "csv", err);
}

int sv_export_csv(FILE *out, const struct sv_profile *p,
	const struct sv_export_scope *sc, const char *file,
	struct sv_error *err)
{
	(void)file;
	return export_csv_write(out, p, sc, NULL, SV_EXPORT_ALL, err);
}

void sv_export_sink_put(struct sv_export_sink *s, const char *b, size_t n)
{
	size_t k;

	if (!n)
		return;
	s->any = true;
	k = n < s->skip ? n : s->skip;
	s->skip -= k;
	if (n > k)
		fwrite(b + k, 1, n - k, s->out);
}

static ssize_t export_to_sink(void *c, const char *b, size_t n)
{
	sv_export_sink_put(c, b, n);
	return (ssize_t)n;
}

FILE *sv_export_sink_stream(struct sv_export_sink *s)
{
	return fopencookie(
		s, "w", (cookie_io_functions_t){.write = export_to_sink});
}

int sv_export_piece(const char *format, enum sv_export_piece piece, FILE *out,
	const struct sv_profile *p, const struct sv_export_scope *sc,
	const char *file, const struct sv_export_part *part,
	struct sv_error *err)
{
	if (!format)
		return sv_error_set(err, -EINVAL, "no export format");
	if (!strcmp(format, "chrome"))
		return sv_export_chrome_pieces(
			out, p, sc, file, part, 1u << piece, err);
	if (!strcmp(format, "speedscope"))
		return sv_export_speedscope_pieces(
			out, p, sc, file, part, 1u << piece, err);
	if (!strcmp(format, "csv"))
		return export_csv_write(out, p, sc, part, 1u << piece, err);
	if (!strcmp(format, "json"))
		return sv_export_json_piece(out, piece, p, sc, part, err);
	return sv_error_set(
		err, -EINVAL, "the %s export is not written in parts", format);
}
