/*
 * export.c: what the export writers share (export_priv.h): the output
 * buffer and its number formatting, escaped names, the scope of an
 * export, the check that an export does not overwrite its own profile,
 * and the CSV writer, a row per call.  Formats only: the calls, their
 * nesting and exclusive times are the model's.
 */
#include "scopeview/export.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export_priv.h"
#include "scopeview/callpath.h"
#include "scopeview/report.h"
#include "scopeview/strv.h"
#include "scopeview/summary.h"
#include "scopeview/tree.h"

void sv_export_buf_init(struct sv_export_buf *w, FILE *out)
{
	w->out = out;
	w->n = 0;
	w->failed = false;
	w->cancelled = false;
	w->cancel = NULL;
}

int sv_export_buf_flush(struct sv_export_buf *w)
{
	if (w->cancel && !w->failed && atomic_load(w->cancel))
		w->failed = w->cancelled = true;
	if (w->n && !w->failed && fwrite(w->b, 1, w->n, w->out) != w->n)
		w->failed = true;
	w->n = 0;
	return w->cancelled ? -ECANCELED : w->failed ? -EIO : 0;
}

void sv_export_put_slow(struct sv_export_buf *w, const char *s, size_t n)
{
	while (n) {
		size_t k = sizeof w->b - w->n;
		if (!k) {
			sv_export_buf_flush(w);
			continue;
		}
		if (k > n)
			k = n;
		memcpy(w->b + w->n, s, k);
		w->n += k;
		s += k;
		n -= k;
	}
}

/* The decimal digits of u, at the end of buf[24]; returns the first.
 * Two digits at a time, from a table of the pairs 00 .. 99. */
static char *export_digits(uint64_t u, char *buf)
{
	static const char pairs[201] =
		"00010203040506070809101112131415161718192021222324"
		"25262728293031323334353637383940414243444546474849"
		"50515253545556575859606162636465666768697071727374"
		"75767778798081828384858687888990919293949596979899";
	char *d = buf + 24;

	while (u >= 100) {
		unsigned k = (unsigned)(u % 100) * 2;
		u /= 100;
		*--d = pairs[k + 1];
		*--d = pairs[k];
	}
	if (u >= 10) {
		*--d = pairs[u * 2 + 1];
		*--d = pairs[u * 2];
	} else {
		*--d = (char)('0' + u);
	}
	return d;
}

void sv_export_i64(struct sv_export_buf *w, int64_t v)
{
	char buf[24], *d;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	if (v < 0)
		sv_export_putc(w, '-');
	d = export_digits(u, buf);
	sv_export_put(w, d, (size_t)(buf + 24 - d));
}

void sv_export_us(struct sv_export_buf *w, int64_t ns)
{
	char buf[24], *d;
	uint64_t u = ns < 0 ? 0 - (uint64_t)ns : (uint64_t)ns;
	char frac[4];

	if (ns < 0)
		sv_export_putc(w, '-');
	d = export_digits(u / 1000, buf);
	sv_export_put(w, d, (size_t)(buf + 24 - d));
	frac[0] = '.';
	frac[1] = (char)('0' + u % 1000 / 100);
	frac[2] = (char)('0' + u % 100 / 10);
	frac[3] = (char)('0' + u % 10);
	sv_export_put(w, frac, 4);
}

void sv_export_opt_value(
	struct sv_export_buf *w, bool has, int64_t v, bool json)
{
	if (has)
		sv_export_i64(w, v);
	else if (json)
		sv_export_puts(w, "null");
}

/* s as what writer (a FILE writer of summary.h) makes of it. */
static char *export_text(const char *s, void (*writer)(FILE *, const char *))
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		sv_die("out of memory");
	writer(f, s);
	if (fclose(f))
		sv_die("out of memory");
	return text;
}

static char **export_names(
	char *const *s, size_t n, void (*writer)(FILE *, const char *))
{
	char **out = sv_xcalloc(n ? n : 1, sizeof *out);
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = export_text(s[i], writer);
	return out;
}

char **sv_export_json_names(char *const *s, size_t n)
{
	return export_names(s, n, sv_summary_json_str);
}

char **sv_export_csv_names(char *const *s, size_t n)
{
	return export_names(s, n, sv_summary_csv_field);
}

char **sv_export_lane_names(const struct sv_profile *p, bool json)
{
	char **out = sv_xcalloc(p->nlanes ? p->nlanes : 1, sizeof *out);
	size_t l;

	for (l = 0; l < p->nlanes; l++)
		out[l] = export_text(p->lanes[l].label ? p->lanes[l].label : "",
			json ? sv_summary_json_str : sv_summary_csv_field);
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

void sv_export_metadata(
	struct sv_export_buf *w, const struct sv_profile *p, uint32_t c)
{
	sv_export_buf_flush(w);
	sv_report_call_metadata(w->out, p, c);
}

int sv_export_begin(struct sv_export_ctx *c, FILE *out,
	const struct sv_profile *p, const struct sv_export_scope *sc, bool json,
	struct sv_error *err)
{
	memset(c, 0, sizeof *c);
	if (!out || !p)
		return sv_error_set(err, -EINVAL, "nothing to export");
	c->w = sv_xmalloc(sizeof *c->w);
	sv_export_buf_init(c->w, out);
	c->w->cancel = sc ? sc->cancel : NULL;
	c->p = p;
	c->region = json ? sv_export_json_names(p->regions, p->nregions)
			 : sv_export_csv_names(p->regions, p->nregions);
	c->lane = sv_export_lane_names(p, json);
	c->origin = sv_profile_time_origin(p);
	c->meta = p->call_meta || p->ncolumns;
	return 0;
}

int sv_export_end(
	struct sv_export_ctx *c, const char *what, struct sv_error *err)
{
	int rc = 0, fl = sv_export_buf_flush(c->w);

	if (fl == -ECANCELED)
		rc = sv_error_set(
			err, -ECANCELED, "the %s export was stopped", what);
	else if (fl < 0 || fflush(c->w->out) || ferror(c->w->out))
		rc = sv_error_set(
			err, -EIO, "cannot write the %s export", what);
	sv_strv_free_array(c->region, c->p->nregions);
	sv_strv_free_array(c->lane, c->p->nlanes);
	free(c->w);
	memset(c, 0, sizeof *c);
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

void sv_export_file_name(
	struct sv_export_buf *w, const struct sv_profile *p, const char *file)
{
	char *path = file ? (char *)file : p->path;
	char **name = sv_export_json_names(&path, 1);

	sv_export_puts(w, name[0]);
	sv_strv_free_array(name, 1);
}

void sv_export_times(struct sv_export_buf *w, const struct sv_profile *p,
	uint32_t c, const char *const pre[3])
{
	sv_export_puts(w, pre[0]);
	sv_export_i64(w, sv_profile_start(p, c));
	sv_export_puts(w, pre[1]);
	sv_export_i64(w, sv_profile_end(p, c));
	sv_export_puts(w, pre[2]);
	sv_export_i64(w, sv_call_duration(p, c));
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

/* Call c's metadata as one CSV field, through tmp (a memory stream
 * rewound for every call). */
static void export_csv_meta(struct sv_export_buf *w, const struct sv_profile *p,
	uint32_t c, FILE *tmp, char **text)
{
	rewind(tmp);
	sv_report_call_metadata(tmp, p, c);
	fputc('\0', tmp);
	if (fflush(tmp))
		sv_die("out of memory");
	sv_export_buf_flush(w);
	sv_summary_csv_field(w->out, *text);
}

int sv_export_csv(FILE *out, const struct sv_profile *p,
	const struct sv_export_scope *sc, const char *file,
	struct sv_error *err)
{
	static const char *const times[3] = {",", ",", ","};
	struct sv_export_ctx x;
	struct sv_export_buf *w;
	char *text = NULL;
	size_t l = 0, len = 0;
	uint32_t i = 0, c;
	FILE *tmp = NULL;
	int rc;

	(void)file;
	if ((rc = sv_export_begin(&x, out, p, sc, false, err)) < 0)
		return rc;
	w = x.w;
	if (x.meta && !(tmp = open_memstream(&text, &len)))
		sv_die("out of memory");
	sv_export_puts(w, "call,rank,lane,region,start_ns,end_ns,duration_ns,"
			  "exclusive_ns,depth,parent,gpu_ns,await_ns,"
			  "metadata\n");
	while (sv_export_next(p, sc, &l, &i, &c)) {
		sv_export_i64(w, c);
		sv_export_putc(w, ',');
		sv_export_i64(w, p->lanes[l].rank);
		sv_export_putc(w, ',');
		sv_export_puts(w, x.lane[l]);
		sv_export_putc(w, ',');
		sv_export_puts(w, x.region[sv_call_region(p, c)]);
		sv_export_times(w, p, c, times);
		sv_export_putc(w, ',');
		sv_export_exclusive(w, p, c, false);
		sv_export_putc(w, ',');
		if (sv_profile_has_nesting(p))
			sv_export_i64(w, sv_profile_depth(p, c));
		sv_export_putc(w, ',');
		if (sv_profile_has_nesting(p) &&
			sv_profile_parent(p, c) != SV_NO_CALL)
			sv_export_i64(w, sv_profile_parent(p, c));
		sv_export_putc(w, ',');
		sv_export_opt_value(
			w, sv_profile_has_gpu(p), sv_profile_gpu(p, c), false);
		sv_export_putc(w, ',');
		sv_export_opt_value(w, sv_profile_has_await(p),
			sv_profile_await(p, c), false);
		sv_export_putc(w, ',');
		if (x.meta)
			export_csv_meta(w, p, c, tmp, &text);
		sv_export_putc(w, '\n');
	}
	if (tmp)
		fclose(tmp);
	free(text);
	return sv_export_end(&x, "csv", err);
}
