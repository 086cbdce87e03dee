/*
 * export_priv.h: what the export writers (export.c, export_chrome.c,
 * export_speedscope.c) share: an output buffer that formats integers
 * and times without printf, the names of a profile escaped once, and the
 * walk over the calls of a scope.  Private to src/report.
 */
#ifndef SCOPEVIEW_REPORT_EXPORT_PRIV_H
#define SCOPEVIEW_REPORT_EXPORT_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "scopeview/export.h"
#include "scopeview/profile.h"

#define SV_EXPORT_BUF 65536

/* Bytes for out, written SV_EXPORT_BUF at a time; failed once a write
 * did not go through or *cancel was set (cancelled; later writes are
 * dropped). */
struct sv_export_buf {
	FILE *out;
	size_t n;
	bool failed, cancelled;
	const atomic_bool *cancel;
	char b[SV_EXPORT_BUF];
};

void sv_export_buf_init(struct sv_export_buf *w, FILE *out);
/* Write what is buffered; 0 or -EIO (also for an earlier failure), or
 * -ECANCELED once the scope's cancel flag is set. */
int sv_export_buf_flush(struct sv_export_buf *w);
/* The slow path of sv_export_put: s does not fit what is left. */
void sv_export_put_slow(struct sv_export_buf *w, const char *s, size_t n);

static inline void sv_export_put(
	struct sv_export_buf *w, const char *s, size_t n)
{
	if (n <= sizeof w->b - w->n) {
		memcpy(w->b + w->n, s, n);
		w->n += n;
	} else {
		sv_export_put_slow(w, s, n);
	}
}
/* v in decimal. */
void sv_export_i64(struct sv_export_buf *w, int64_t v);
/* ns as microseconds with three decimals, exact ("-1.250" for -1250). */
void sv_export_us(struct sv_export_buf *w, int64_t ns);
/* v, or "null" (json) / nothing (csv) when there is none (!has). */
void sv_export_opt_value(
	struct sv_export_buf *w, bool has, int64_t v, bool json);
/* Call c's exclusive time the same way. */
static inline void sv_export_exclusive(struct sv_export_buf *w,
	const struct sv_profile *p, uint32_t c, bool json)
{
	sv_export_opt_value(w, sv_profile_has_exclusive(p),
		sv_profile_has_exclusive(p) ? sv_profile_exclusive(p, c) : 0,
		json);
}

static inline void sv_export_puts(struct sv_export_buf *w, const char *s)
{
	sv_export_put(w, s, strlen(s));
}

static inline void sv_export_putc(struct sv_export_buf *w, char ch)
{
	if (w->n == sizeof w->b)
		sv_export_buf_flush(w);
	w->b[w->n++] = ch;
}

/* Each of the n strings s[i] as one JSON string (quotes included) or one
 * CSV field, in a new array of n malloc'd strings (sv_strv_free_array). */
char **sv_export_json_names(char *const *s, size_t n);
char **sv_export_csv_names(char *const *s, size_t n);
/* The lane labels of p, as JSON strings or CSV fields. */
char **sv_export_lane_names(const struct sv_profile *p, bool json);

/* Whether lane l of p is in sc. */
bool sv_export_lane_in(
	const struct sv_profile *p, const struct sv_export_scope *sc, size_t l);

/* Call c's metadata as JSON (report.h's sv_report_call_metadata) into
 * the buffer: what is buffered is written first. */
void sv_export_metadata(
	struct sv_export_buf *w, const struct sv_profile *p, uint32_t c);

/* What a writer holds while it runs: the buffer, the region names and
 * lane labels as JSON strings or CSV fields, the profile's time origin,
 * and whether the file has metadata. */
struct sv_export_ctx {
	struct sv_export_buf *w;
	const struct sv_profile *p;
	char **region, **lane;
	int64_t origin;
	bool meta;
};

/* Set up c for writing p's calls of sc to out (names escaped for JSON or
 * CSV; stopped by sc's cancel flag); -EINVAL (with err) for a NULL out or
 * p. */
int sv_export_begin(struct sv_export_ctx *c, FILE *out,
	const struct sv_profile *p, const struct sv_export_scope *sc, bool json,
	struct sv_error *err);
/* Flush and free c; a failed stream is -EIO with err ("cannot write the
 * <what> export"), a cancelled one -ECANCELED, else 0. */
int sv_export_end(
	struct sv_export_ctx *c, const char *what, struct sv_error *err);

/* The next call of sc, lane by lane, each lane's calls by start: *l and
 * *i (both 0 to start) are the lane and the position in it; fills *c and
 * returns true, false after the last. */
bool sv_export_next(const struct sv_profile *p,
	const struct sv_export_scope *sc, size_t *l, uint32_t *i, uint32_t *c);

/* file (NULL: p->path) as a JSON string. */
void sv_export_file_name(
	struct sv_export_buf *w, const struct sv_profile *p, const char *file);

/* Write the times of call c of p: start_ns, end_ns and duration_ns,
 * each after its prefix (pre[0..2]). */
void sv_export_times(struct sv_export_buf *w, const struct sv_profile *p,
	uint32_t c, const char *const pre[3]);

#endif
