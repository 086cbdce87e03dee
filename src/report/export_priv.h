/*
 * export_priv.h: what the export writers (export.c, export_chrome.c,
 * export_speedscope.c) share: the stream and its JSON or CSV writer
 * (outbuf.h, json.h, csv.h), the names of a profile escaped once, and
 * the walk over the calls of a scope.  Private to src/report.
 */
#ifndef SCOPEVIEW_REPORT_EXPORT_PRIV_H
#define SCOPEVIEW_REPORT_EXPORT_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "scopeview/csv.h"
#include "scopeview/export.h"
#include "scopeview/json.h"
#include "scopeview/outbuf.h"
#include "scopeview/profile.h"

/* What a writer holds while it runs: the stream (stopped by the scope's
 * cancel flag) with a JSON and a CSV writer on it, the region names and
 * lane labels as JSON strings or CSV fields, the profile's time origin,
 * and whether the file has metadata. */
struct sv_export_ctx {
	struct sv_outbuf o;
	struct sv_json j;
	struct sv_csv c;
	const struct sv_profile *p;
	char **region, **lane;
	int64_t origin;
	bool meta;
	struct sv_export_part part; /* the whole profile's facts */
};

/* Set x up for writing p's calls of sc to out (names escaped for JSON or
 * CSV); -EINVAL (with err) for a NULL out or p. */
int sv_export_begin(struct sv_export_ctx *x, FILE *out,
	const struct sv_profile *p, const struct sv_export_scope *sc, bool json,
	struct sv_error *err);
/* The same for a piece of an export in parts (part NULL: all of p). */
int sv_export_begin_part(struct sv_export_ctx *x, FILE *out,
	const struct sv_profile *p, const struct sv_export_scope *sc, bool json,
	const struct sv_export_part *part, struct sv_error *err);

/* A set of pieces (enum sv_export_piece): SV_EXPORT_BIT(HEAD). */
#define SV_EXPORT_BIT(piece) (1u << SV_EXPORT_##piece)
#define SV_EXPORT_ALL        (~0u)

/* sv_export_begin_part (JSON) for the pieces (SV_EXPORT_BIT) of an
 * export whose items are a list laid out as list in a top-level object
 * laid out as object: without the head, x's writer goes on inside them
 * as another writer left them, every item after a ',', and a tail alone
 * closes the list as it was (part->any). */
int sv_export_begin_pieces(struct sv_export_ctx *x, FILE *out,
	const struct sv_profile *p, const struct sv_export_scope *sc,
	const struct sv_export_part *part, unsigned pieces, unsigned object,
	unsigned list, struct sv_error *err);

/* Whether lane l of p is in the part's share (x->part.share). */
static inline bool sv_export_lane_mine(const struct sv_export_ctx *x, size_t l)
{
	const struct sv_export_part *pt = &x->part;
	uint32_t r = x->p->lanes[l].rank;
	return !pt->share || (r < pt->nshare && pt->share[r]);
}

/* Call c's number in the whole profile (its index in storage order). */
static inline uint64_t sv_export_callno(
	const struct sv_export_ctx *x, uint32_t c)
{
	uint32_t r;
	if (!x->part.row_call)
		return c;
	r = sv_profile_row_of(x->p, c);
	return x->part.row_call[r] + (c - x->p->rows[r].first);
}

/* The pieces (SV_EXPORT_BIT) of a Chrome or speedscope export
 * (export_chrome.c, export_speedscope.c), and a JSON profile's piece
 * (export_json.c). */
int sv_export_chrome_pieces(FILE *out, const struct sv_profile *p,
	const struct sv_export_scope *sc, const char *file,
	const struct sv_export_part *part, unsigned pieces,
	struct sv_error *err);
int sv_export_speedscope_pieces(FILE *out, const struct sv_profile *p,
	const struct sv_export_scope *sc, const char *file,
	const struct sv_export_part *part, unsigned pieces,
	struct sv_error *err);
int sv_export_json_piece(FILE *out, enum sv_export_piece piece,
	const struct sv_profile *p, const struct sv_export_scope *sc,
	const struct sv_export_part *part, struct sv_error *err);
/* Flush and free x; a failed stream is -EIO with err ("cannot write the
 * <what> export"), a cancelled one -ECANCELED, else 0. */
int sv_export_end(
	struct sv_export_ctx *x, const char *what, struct sv_error *err);

/* Whether lane l of p is in sc. */
bool sv_export_lane_in(
	const struct sv_profile *p, const struct sv_export_scope *sc, size_t l);

/* The next call of sc, lane by lane, each lane's calls by start: *l and
 * *i (both 0 to start) are the lane and the position in it; fills *c and
 * returns true, false after the last. */
bool sv_export_next(const struct sv_profile *p,
	const struct sv_export_scope *sc, size_t *l, uint32_t *i, uint32_t *c);

/* key (quoted: SV_JSON_LIT) and an escaped name of x (x->region[r],
 * x->lane[l]). */
static inline void sv_export_name(
	struct sv_json *j, const char *key, size_t key_len, const char *escaped)
{
	sv_json_raw_key(j, key, key_len);
	sv_json_raw(j, escaped, strlen(escaped));
}

/* key (quoted: SV_JSON_LIT) and v, or null without one (!has). */
static inline void sv_export_opt(
	struct sv_json *j, const char *key, size_t key_len, bool has, int64_t v)
{
	sv_json_raw_key(j, key, key_len);
	if (has)
		sv_json_i64(j, v);
	else
		sv_json_null(j);
}

#endif
