/*
 * csv.c: the CSV writer of the reports (csv.h): RFC 4180 quoting onto an
 * outbuf stream, the separators between fields and the end of a row.
 */
#include "scopeview/csv.h"

#include <string.h>

#include "scopeview/json.h"

void sv_csv_init(struct sv_csv *c, struct sv_outbuf *o)
{
	c->o = o;
	c->first = true;
}

/* The comma before every field but a row's first. */
static void csv_next(struct sv_csv *c)
{
	if (!c->first)
		sv_outbuf_putc(c->o, ',');
	c->first = false;
}

static void csv_quoted(struct sv_outbuf *o, const char *s, size_t n)
{
	size_t i, from = 0;

	for (i = 0; i < n; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n')
			break;
	if (i == n) {
		sv_outbuf_put(o, s, n);
		return;
	}
	sv_outbuf_putc(o, '"');
	for (i = 0; i < n; i++)
		if (s[i] == '"') {
			sv_outbuf_put(o, s + from, i + 1 - from);
			from = i; /* the quote again: doubled */
		}
	sv_outbuf_put(o, s + from, n - from);
	sv_outbuf_putc(o, '"');
}

void sv_csv_field_n(struct sv_csv *c, const char *s, size_t n)
{
	csv_next(c);
	csv_quoted(c->o, s, n);
}

void sv_csv_field(struct sv_csv *c, const char *s)
{
	sv_csv_field_n(c, s ? s : "", s ? strlen(s) : 0);
}

void sv_csv_empty(struct sv_csv *c)
{
	csv_next(c);
}

void sv_csv_i64(struct sv_csv *c, int64_t v)
{
	csv_next(c);
	sv_outbuf_i64(c->o, v);
}

void sv_csv_u64(struct sv_csv *c, uint64_t v)
{
	csv_next(c);
	sv_outbuf_u64(c->o, v);
}

void sv_csv_double(struct sv_csv *c, double v)
{
	char buf[32];

	csv_next(c);
	sv_outbuf_puts(c->o, sv_json_number_text(buf, sizeof buf, v));
}

void sv_csv_raw(struct sv_csv *c, const char *field)
{
	csv_next(c);
	sv_outbuf_puts(c->o, field);
}

void sv_csv_end_row(struct sv_csv *c)
{
	sv_outbuf_putc(c->o, '\n');
	c->first = true;
}

void sv_csv_header(struct sv_csv *c, const char *names)
{
	while (*names) {
		size_t n = strcspn(names, ",");
		sv_csv_field_n(c, names, n);
		names += n + (names[n] == ',');
	}
	sv_csv_end_row(c);
}

char *sv_csv_quote(const char *s)
{
	struct sv_outbuf o;
	char *text;

	sv_outbuf_init(&o, NULL);
	csv_quoted(&o, s ? s : "", s ? strlen(s) : 0);
	text = sv_outbuf_take(&o);
	sv_outbuf_fini(&o);
	return text;
}
