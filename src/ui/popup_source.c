/*
 * popup_source.c: the source popup's text (popup_priv.h): the region,
 * its source file and line, its tags, its line profile, and its source
 * text: the profile's when it holds some, else the first
 * SV_POPUP_SOURCE_MAX bytes of the source file the profile names, read
 * once when the popup opens by the rule of infile.h (never a blocking
 * open, nothing but a regular file, a stated bound, said when cut).
 * The bytes reach the grid as UTF-8, and the grid escapes every control
 * character (common.h's one rule).  Nothing here knows about curses or
 * HDF5.
 */
#include "scopeview/mode.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "popup_priv.h"
#include "scopeview/budget.h"
#include "scopeview/counters.h"
#include "scopeview/fmt.h"
#include "scopeview/session.h"

/* Source line text: tabs to spaces (to the next multiple of 4), a CR
 * before the end dropped; other control characters are escaped later. */
static void popup_untab(const char *s, size_t len, char *text)
{
	size_t k, o2 = 0;

	for (k = 0; k < len && o2 < 400; k++) {
		if (s[k] == '\t') {
			do
				text[o2++] = ' ';
			while (o2 % 4 && o2 < 400);
		} else if (s[k] != '\r' || k + 1 < len) {
			text[o2++] = s[k];
		}
	}
	text[o2] = '\0';
}

/* One line of the line profile table: entry i of l (or none: -1) and the
 * source text; the hottest lines stand out. */
static void popup_lineprof_row(struct popup_out *o,
	const struct sv_line_profile *l, long i, int64_t ln, const char *text,
	double total)
{
	char t[32], per[32];
	double sec;

	if (i < 0) {
		sv_popup_linef(o, SV_STYLE_POPUP, "%6" PRId64 "%41s  %s", ln,
			"", text);
		return;
	}
	sec = l->time[i] * l->unit;
	sv_fmt_dur_ex(sec * 1e9, 3, 0, t, sizeof t);
	if (l->hits[i] > 0)
		sv_fmt_dur_ex(
			sec * 1e9 / (double)l->hits[i], 3, 0, per, sizeof per);
	else
		snprintf(per, sizeof per, "-");
	sv_popup_linef(o,
		sv_counters_line_hot(l, (size_t)i) ? SV_STYLE_HOT
						   : SV_STYLE_POPUP,
		"%6" PRId64 " %9" PRId64 " %10s %10s %7.1f%%  %s", ln,
		l->hits[i], t, per, total > 0 ? 100.0 * sec / total : 0.0,
		text);
}

/* The number of the line after ln: a file may number its text from
 * INT64_MAX, and the count stops there. */
static int64_t popup_next_line(int64_t ln)
{
	return ln >= 0 && ln < INT64_MAX ? ln + 1 : ln;
}

/* The region's line profile beside its source text src (numbered from
 * ln; NULL: none), as line_profiler's report shows it: hits, time, time
 * per hit and share of the time per line. */
static void popup_lineprof(struct popup_out *o, const struct sv_line_profile *l,
	const char *src, int64_t ln)
{
	double total = sv_counters_line_total(l);
	char t[32];
	size_t i;

	if (src && ln < 0)
		ln = l->first_lineno >= 0 ? l->first_lineno : 1;
	sv_fmt_dur_ex(total * 1e9, 3, 0, t, sizeof t);
	sv_popup_linef(o, SV_STYLE_PANEL_HEAD,
		"Line profile of %s() in %s, rank %" PRIu32 ": %s",
		l->function ? l->function : "?",
		l->filename ? l->filename : "?", l->rank, t);
	sv_popup_linef(o, SV_STYLE_PANEL_HEAD, "%6s %9s %10s %10s %8s  %s",
		"Line", "Hits", "Time", "Per hit", "% Time", "Line contents");
	/* Profiled lines before the text, the text, profiled lines after. */
	for (i = 0; i < l->nlines; i++)
		if (!src || l->line[i] < ln)
			popup_lineprof_row(
				o, l, (long)i, l->line[i], "", total);
	while (src && *src) {
		size_t len = strcspn(src, "\n");
		char text[512];
		long at = -1;
		for (i = 0; i < l->nlines && at < 0; i++)
			if (l->line[i] == ln)
				at = (long)i;
		popup_untab(src, len, text);
		popup_lineprof_row(o, l, at, ln, text, total);
		ln = popup_next_line(ln);
		src += len;
		if (*src == '\n')
			src++;
	}
	for (i = 0; src && i < l->nlines; i++)
		if (l->line[i] >= ln)
			popup_lineprof_row(
				o, l, (long)i, l->line[i], "", total);
}

/* The lines of text, numbered from ln (-1: not numbered); line mark in
 * the style of a hot line, and o->mark set to it.  A line out of view
 * is only counted, so that a long file costs little a frame. */
static void popup_text(
	struct popup_out *o, const char *s, int64_t ln, int64_t mark)
{
	while (*s) {
		size_t len = strcspn(s, "\n");
		char text[512];
		bool at = ln >= 0 && ln == mark;
		if (at)
			o->mark = o->n;
		if (!sv_popup_in_view(o)) {
			int wide = (int)(len < 400 ? len : 400) + 7;
			if (wide > o->widest)
				o->widest = wide;
			o->n++;
		} else {
			popup_untab(s, len, text);
			if (ln >= 0)
				sv_popup_linef(o,
					at ? SV_STYLE_HOT : SV_STYLE_POPUP,
					"%5" PRId64 "%s %s", ln,
					at ? o->gl->ascii ? ">" : "\u25b8"
					   : " ",
					text);
			else
				sv_popup_line(o, SV_STYLE_POPUP, text);
		}
		ln = popup_next_line(ln);
		s += len;
		if (*s == '\n')
			s++;
	}
}

/* The row the source popup shows: the selected call's, else the
 * region's first; NULL when the region has none. */
static const struct sv_row *popup_source_row(
	const struct sv_session *ss, long region)
{
	const struct sv_profile *p = ss->p;
	size_t i;

	if (region < 0 || (size_t)region >= p->nregions)
		return NULL;
	if (ss->sel != SV_NO_CALL) {
		const struct sv_row *row =
			&p->rows[sv_profile_row_of(p, ss->sel)];
		if ((long)row->region == region)
			return row;
	}
	for (i = 0; i < p->nrows; i++)
		if ((long)p->rows[i].region == region)
			return &p->rows[i];
	return NULL;
}

/* A size as "900 bytes" or "1.5MiB". */
static void popup_size(char *buf, size_t n, uint64_t bytes)
{
	char t[32];
	sv_budget_format(t, sizeof t, bytes);
	snprintf(buf, n, bytes < 1024 ? "%s bytes" : "%siB", t);
}

/* What the popup says of the file it read, or why it could not. */
static void popup_file_note(struct popup_out *o)
{
	const struct popup_file *f = &o->d->file;
	char got[32], size[32], msg[1024];

	if (f->error) {
		snprintf(msg, sizeof msg,
			"The profile holds no source text for this region, "
			"and its source file cannot be read: %s",
			f->error);
		sv_popup_wrapped(o, SV_STYLE_DIM, msg);
		return;
	}
	popup_size(got, sizeof got, f->len);
	popup_size(size, sizeof size, f->size);
	if (f->cut)
		snprintf(msg, sizeof msg,
			"From the file %s: its first %s of %s shown.", f->path,
			got, size);
	else
		snprintf(msg, sizeof msg, "From the file %s (%s).", f->path,
			got);
	sv_popup_wrapped(o, SV_STYLE_DIM, msg);
}

void sv_popup_source(struct popup_out *o)
{
	const struct sv_session *ss = o->s;
	const struct sv_profile *p = ss->p;
	long region = o->d->region;
	const struct sv_row *row = popup_source_row(ss, region);
	const struct popup_file *f = &o->d->file;
	const struct sv_line_profile *l;

	if (region < 0 || (size_t)region >= p->nregions) {
		sv_popup_line(o, SV_STYLE_POPUP, "No region selected.");
		return;
	}
	sv_popup_line(o, SV_STYLE_PANEL_HEAD, p->regions[region]);
	if (!row || !row->source_file)
		sv_popup_line(o, SV_STYLE_DIM, "source file: unknown");
	else
		sv_popup_linef(o, SV_STYLE_POPUP, "%s:%" PRId64,
			row->source_file, row->source_line);
	if (row && row->ntags) {
		char tags[512];
		size_t used = 0, i2;
		tags[0] = '\0';
		for (i2 = 0; i2 < row->ntags && used < sizeof tags; i2++)
			used += (size_t)snprintf(tags + used,
				sizeof tags - used, "%s%s", i2 ? ", " : "",
				row->tags[i2]);
		sv_popup_linef(o, SV_STYLE_POPUP, "tags: %s%s", tags,
			row->tags_raw ? " (not a JSON list)" : "");
	}
	sv_popup_line(o, SV_STYLE_POPUP, "");
	if (f->text || f->error)
		popup_file_note(o);
	l = sv_counters_line_profile(
		p, p->regions[region], row ? (long)row->rank : -1);
	if (l) {
		/* The line profile's own text, the row's numbered from the
		 * call site, or the file's numbered from 1. */
		const char *src = l->source;
		int64_t ln = l->source_first_lineno;
		if (!src && row && row->source_text && row->source_line >= 0) {
			src = row->source_text;
			ln = row->source_line;
		} else if (!src && f->text) {
			src = f->text;
			ln = 1;
		}
		popup_lineprof(o, l, src, ln);
		return;
	}
	if (row && row->source_text) {
		/* One popup line per source line, numbered from the call
		 * site. */
		popup_text(o, row->source_text, row->source_line, -1);
		return;
	}
	if (f->text) {
		int64_t at = row ? row->source_line : -1;
		popup_text(o, f->text, 1, at);
		if (at > 0 && o->mark < 0 && f->cut)
			sv_popup_linef(o, SV_STYLE_DIM,
				"(line %" PRId64 " lies past the part read)",
				at);
		return;
	}
	if (!f->error)
		sv_popup_line(o, SV_STYLE_DIM,
			"The profile holds no source text for this region.");
}

/* The path of the source file a row names: as it is when absolute, else
 * under the run's working directory when the metadata has one. */
static char *popup_source_path(const struct sv_profile *p, const char *file)
{
	const struct sv_meta *wd = sv_profile_meta(p, "working_directory");

	if (file[0] != '/' && wd && wd->text && wd->text[0] == '/')
		return sv_xasprintf("%s%s%s", wd->text,
			wd->text[strlen(wd->text) - 1] == '/' ? "" : "/", file);
	return sv_xstrdup(file);
}

void sv_popup_source_setup(struct popup_data *d, const struct sv_session *s)
{
	const struct sv_row *row = popup_source_row(s, d->region);
	const struct sv_line_profile *l;
	struct sv_infile_text t;
	struct sv_error err = {0};
	struct popup_file *f = &d->file;

	memset(f, 0, sizeof *f);
	if (!row || !row->source_file || !row->source_file[0])
		return;
	l = sv_counters_line_profile(
		s->p, s->p->regions[d->region], (long)row->rank);
	/* The profile's own text is shown when it has one. */
	if ((l && l->source) ||
		(row->source_text && (!l || row->source_line >= 0)))
		return;
	f->path = popup_source_path(s->p, row->source_file);
	if (sv_infile_read(f->path, SV_POPUP_SOURCE_MAX, &t, &err) < 0) {
		f->error = sv_xstrdup(err.msg);
		return;
	}
	f->text = sv_utf8_sanitize(t.data, t.len);
	f->len = t.len;
	f->size = t.size;
	f->cut = t.cut;
	sv_infile_text_fini(&t);
}

void sv_popup_source_fini(struct popup_data *d)
{
	free(d->file.path);
	free(d->file.text);
	free(d->file.error);
	memset(&d->file, 0, sizeof d->file);
}
