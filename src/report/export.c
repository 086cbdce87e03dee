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
#include <sys/stat.h>

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

bool sv_export_is_source(const struct sv_profile *p, const char *path)
{
	struct stat a, b;

	if (!p || !p->path || !path)
		return false;
	if (stat(p->path, &a) || stat(path, &b))
		return false;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int sv_export_begin(struct sv_export_ctx *x, FILE *out,
	const struct sv_profile *p, const struct sv_export_scope *sc, bool json,
	struct sv_error *err)
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
	x->origin = sv_profile_time_origin(p);
	x->meta = p->call_meta || p->ncolumns;
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

int sv_export_csv(FILE *out, const struct sv_profile *p,
	const struct sv_export_scope *sc, const char *file,
	struct sv_error *err)
{
	struct sv_export_ctx x;
	struct sv_outbuf mem;
	struct sv_csv *c;
	size_t l = 0;
	uint32_t i = 0, k;
	bool nest;
	int rc;

	(void)file;
	if ((rc = sv_export_begin(&x, out, p, sc, false, err)) < 0)
		return rc;
	c = &x.c;
	nest = sv_profile_has_nesting(p);
	sv_outbuf_init(&mem, NULL);
	sv_csv_header(c, "call,rank,lane,region,start_ns,end_ns,duration_ns,"
			 "exclusive_ns,depth,parent,gpu_ns,await_ns,metadata");
	while (sv_export_next(p, sc, &l, &i, &k)) {
		sv_csv_u64(c, k);
		sv_csv_u64(c, p->lanes[l].rank);
		sv_csv_raw(c, x.lane[l]);
		sv_csv_raw(c, x.region[sv_call_region(p, k)]);
		sv_csv_i64(c, sv_profile_start(p, k));
		sv_csv_i64(c, sv_profile_end(p, k));
		sv_csv_i64(c, sv_call_duration(p, k));
		export_csv_opt(c, sv_profile_has_exclusive(p),
			sv_profile_has_exclusive(p) ? sv_profile_exclusive(p, k)
						    : 0);
		export_csv_opt(c, nest, nest ? sv_profile_depth(p, k) : 0);
		export_csv_opt(c, nest && sv_profile_parent(p, k) != SV_NO_CALL,
			nest ? sv_profile_parent(p, k) : 0);
		export_csv_opt(c, sv_profile_has_gpu(p), sv_profile_gpu(p, k));
		export_csv_opt(
			c, sv_profile_has_await(p), sv_profile_await(p, k));
		if (x.meta)
			export_csv_meta(c, p, k, &mem);
		else
			sv_csv_empty(c);
		sv_csv_end_row(c);
	}
	sv_outbuf_fini(&mem);
	return sv_export_end(&x, "csv", err);
}
