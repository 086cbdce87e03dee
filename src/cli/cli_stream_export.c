/*
 * cli_stream_export.c: `export` of a large file a few ranks at a time
 * (sv_cli_stream_export, cli.h), so the command holds about two ranks'
 * calls, not every call: Chrome's events, speedscope's profiles and
 * CSV's rows come lane by lane, and a share's lanes are a run of the
 * whole profile's, so each share writes its items with the export
 * writers' pieces (export.h's sv_export_piece) numbering calls and lanes
 * as one load of the file does, between a head and a tail written from
 * the file's index, as scopeview-mpi's processes do.  The folded stacks
 * are the call tree's, made in shares (sv_cli_stream_tree).
 *
 * The shares are read twice: a first time for what the head and the
 * first items must know of every share (the columns some share has, the
 * time origin, checked against the calls; Chrome's lane metadata events,
 * which come before every call event, kept in memory), and nothing is
 * written until that is known, so a file whose shares would not give
 * the output of one load is still loaded whole; then the items.  A
 * JSON profile (region by region over every rank) or a rank list (lanes
 * and calls numbered over every rank) loads the file whole.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/callpath.h"
#include "scopeview/cli.h"
#include "scopeview/export.h"
#include "scopeview/outfile.h"
#include "scopeview/tree.h"

struct export_run {
	const char *format;
	const struct sv_profile *whole;
	struct sv_export_scope sc;
	struct sv_export_part part;
	uint64_t *whole_first; /* per row of whole: its first call's number */
	size_t wrow;           /* the next row of whole to match */
	int64_t lanes_before;  /* the lanes of the shares before */
	bool items;            /* the second read: the items */
	/* Chrome's lane events of every share (the first read). */
	char *lanes;
	size_t nlanes;
	FILE *lanes_mem;
	FILE *mine; /* the items, through the sink */
	struct sv_export_sink sink;
};

/* The first read: the columns of p, its lane events. */
static int export_first(
	struct export_run *e, const struct sv_profile *p, struct sv_error *err)
{
	struct sv_export_part mine;
	int rc;

	sv_export_part_of(&mine, p);
	e->part.meta |= mine.meta;
	e->part.nest |= mine.nest;
	e->part.excl |= mine.excl;
	e->part.gpu |= mine.gpu;
	e->part.await |= mine.await;
	e->part.id_call |= mine.id_call;
	e->part.id_parent |= mine.id_parent;
	if (!e->lanes_mem)
		return 1;
	e->part.lane_shift = e->lanes_before;
	rc = sv_export_piece(e->format, SV_EXPORT_LANES, e->lanes_mem, p,
		&e->sc, NULL, &e->part, err);
	return rc < 0 ? rc : 1;
}

/* The whole profile's number of the first call of each row of p: the
 * rows of p are those of its ranks in the index, in order. */
static uint64_t *export_row_call(
	struct export_run *e, const struct sv_profile *p, struct sv_error *err)
{
	const struct sv_profile *w = e->whole;
	uint64_t *rc = sv_xcalloc(p->nrows + 1, sizeof *rc);
	size_t i;

	for (i = 0; i < p->nrows; i++) {
		const struct sv_row *r = &p->rows[i];
		if (e->wrow == w->nrows || w->rows[e->wrow].rank != r->rank ||
			w->rows[e->wrow].region != r->region ||
			w->rows[e->wrow].count != r->count) {
			free(rc);
			sv_error_set(err, -EIO,
				"%s: the rows of rank %u differ between two "
				"reads of the file",
				w->path, (unsigned)r->rank);
			return NULL;
		}
		rc[i] = e->whole_first[e->wrow++];
	}
	return rc;
}

static int export_take(
	void *ctx, const struct sv_profile *p, struct sv_error *err)
{
	struct export_run *e = ctx;
	uint64_t *row_call;
	int rc;

	if (!e->items) {
		rc = export_first(e, p, err);
		e->lanes_before += (int64_t)p->nlanes;
		return rc;
	}
	row_call = export_row_call(e, p, err);
	if (!row_call)
		return -EIO;
	e->part.row_call = row_call;
	e->part.lane_shift = e->lanes_before;
	e->lanes_before += (int64_t)p->nlanes;
	rc = sv_export_piece(e->format, SV_EXPORT_CALLS, e->mine, p, &e->sc,
		NULL, &e->part, err);
	e->part.row_call = NULL;
	free(row_call);
	if (rc == 0 && fflush(e->mine))
		rc = sv_error_set(err, -EIO, "cannot write the export");
	return rc < 0 ? rc : 1;
}

/* Every share's items between the head and the tail, into out. */
static int export_items(struct export_run *e, struct sv_cli_shares *x,
	FILE *out, const char *file, struct sv_error *err)
{
	int rc;

	e->part.has_calls = true;
	rc = sv_export_piece(e->format, SV_EXPORT_HEAD, out, e->whole, &e->sc,
		file, &e->part, err);
	if (rc < 0)
		return rc;
	e->sink.out = out;
	e->sink.skip = !strcmp(e->format, "csv") ? 0 : 1;
	e->sink.any = false;
	e->mine = sv_export_sink_stream(&e->sink);
	if (!e->mine)
		return sv_error_set(err, -ENOMEM, "cannot make a stream");
	sv_export_sink_put(&e->sink, e->lanes, e->nlanes);
	e->items = true;
	e->wrow = 0;
	e->lanes_before = 0;
	rc = sv_cli_shares_run(x, true, 1, export_take, e, err);
	fclose(e->mine);
	e->mine = NULL;
	if (rc == 0) /* the first read said otherwise */
		rc = sv_error_set(err, -EIO,
			"%s: the file changed while it was read",
			e->whole->path);
	if (rc < 0)
		return rc;
	e->part.any = e->sink.any;
	return sv_export_piece(e->format, SV_EXPORT_TAIL, out, e->whole, &e->sc,
		file, &e->part, err);
}

/* The head, the items and the tail to the output (x->out or x->stream),
 * once the first read said what they need. */
static int export_write(struct export_run *e, struct sv_cli_shares *x,
	const struct sv_cli_export *cx, struct sv_error *err)
{
	struct sv_outfile o;
	int rc;

	if (!cx->out)
		return export_items(e, x, cx->stream, cx->file, err);
	rc = sv_outfile_open(&o, cx->out, &cx->file, 1, err);
	if (rc < 0)
		return rc;
	rc = export_items(e, x, sv_outfile_stream(&o), NULL, err);
	return sv_outfile_finish(&o, rc, err);
}

/* Folded stacks: the call tree, recursion expanded, made in shares. */
static int export_collapsed(const struct sv_cli_export *cx,
	const struct sv_load_opts *lo, struct sv_error *err)
{
	struct sv_callpath_scope cs;
	struct sv_callpath t;
	struct sv_profile *whole = NULL;
	int64_t range[2] = {cx->r0, cx->r1};
	struct sv_outfile o;
	int rc;

	memset(&cs, 0, sizeof cs);
	cs.expand_recursion = true;
	rc = sv_cli_stream_tree(cx->file, lo, &cs, cx->has_range ? range : NULL,
		&t, &whole, err);
	if (rc != 1)
		return rc;
	if (cx->out) {
		rc = sv_outfile_open(&o, cx->out, &cx->file, 1, err);
		if (rc == 0) {
			if (sv_tree_write_collapsed(
				    sv_outfile_stream(&o), &t, NULL) < 0)
				rc = sv_error_set(
					err, -EIO, "cannot write the stacks");
			rc = sv_outfile_finish(&o, rc, err);
		}
	} else if (sv_tree_write_collapsed(cx->stream, &t, NULL) < 0) {
		rc = sv_error_set(err, -EIO, "cannot write the stacks");
	}
	sv_callpath_fini(&t);
	sv_profile_free(whole);
	return rc < 0 ? rc : 1;
}

int sv_cli_stream_export(const struct sv_cli_export *cx, struct sv_error *err)
{
	struct sv_load_opts lo;
	struct sv_cli_shares *x;
	struct export_run e;
	uint64_t at = 0;
	size_t i;
	int rc;

	memset(&lo, 0, sizeof lo);
	if (cx->rank_on)
		return 0;
	if (!strcmp(cx->format, "collapsed"))
		return export_collapsed(cx, &lo, err);
	if (strcmp(cx->format, "chrome") && strcmp(cx->format, "speedscope") &&
		strcmp(cx->format, "csv"))
		return 0;
	if (sv_cli_shares_open(cx->file, &lo, &x) != 1)
		return 0;
	memset(&e, 0, sizeof e);
	e.format = cx->format;
	e.whole = sv_cli_shares_whole(x);
	e.part.origin = sv_profile_time_origin(e.whole);
	if (cx->has_range) {
		e.sc.has_range = true;
		e.sc.t0 = sv_add_wrap(e.part.origin, cx->r0);
		e.sc.t1 = sv_add_wrap(e.part.origin, cx->r1);
	}
	e.whole_first =
		sv_xmalloc((e.whole->nrows + 1) * sizeof *e.whole_first);
	for (i = 0; i < e.whole->nrows; i++) {
		e.whole_first[i] = at;
		at += e.whole->rows[i].count;
	}
	if (!strcmp(cx->format, "chrome"))
		e.lanes_mem = open_memstream(&e.lanes, &e.nlanes);
	rc = sv_cli_shares_run(x, true, 1, export_take, &e, err);
	if (e.lanes_mem)
		fclose(e.lanes_mem);
	if (rc == 1) {
		rc = export_write(&e, x, cx, err);
		rc = rc < 0 ? rc : 1;
	}
	free(e.lanes);
	free(e.whole_first);
	sv_cli_shares_close(x);
	return rc;
}
