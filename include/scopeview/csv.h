/*
 * csv.h: the one CSV writer of the reports and the CSV export: fields
 * quoted as RFC 4180 asks, rows ended by "\n".
 *
 * A field is quoted ("a,b" -> "\"a,b\"") when it holds a comma, a double
 * quote, a carriage return or a line feed, and a quote inside is doubled;
 * other bytes are written as they are (a name from a file as stored).
 * Rows end with a line feed, not RFC 4180's CRLF, as every report always
 * has.  Numbers are written as the JSON writer writes them (json.h:
 * integers exact, doubles the shortest round-trip text, NaN and
 * infinities "null"); an absent figure is an empty field.  Writes go to
 * an outbuf.h stream; errors are the stream's.
 */
#ifndef SCOPEVIEW_CSV_H
#define SCOPEVIEW_CSV_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_REPORT)
#error "scopeview/csv.h belongs to the report layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/outbuf.h"

struct sv_csv {
	struct sv_outbuf *o;
	bool first; /* no field in this row yet */
};

/* Write CSV to o (which must outlive c). */
void sv_csv_init(struct sv_csv *c, struct sv_outbuf *o);

/* One field of the current row. */
void sv_csv_field(struct sv_csv *c, const char *s); /* NULL: empty */
void sv_csv_field_n(struct sv_csv *c, const char *s, size_t n);
void sv_csv_empty(struct sv_csv *c);
void sv_csv_i64(struct sv_csv *c, int64_t v);
void sv_csv_u64(struct sv_csv *c, uint64_t v);
void sv_csv_double(struct sv_csv *c, double v);
/* A field already quoted (sv_csv_quote), copied as it is. */
void sv_csv_raw(struct sv_csv *c, const char *field);
/* End the row. */
void sv_csv_end_row(struct sv_csv *c);
/* A header row: names is the column names separated by commas (each
 * written as a field). */
void sv_csv_header(struct sv_csv *c, const char *names);

/* s as one field, quoted when it must be: a malloc'd copy. */
char *sv_csv_quote(const char *s);

#endif
