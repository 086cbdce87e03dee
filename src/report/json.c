/*
 * json.c: the streaming JSON writer of the reports (json.h).  A stack of
 * frames, one per open object or array, says how to separate and indent
 * the next member; strings are escaped on the way out, numbers formatted
 * exactly.  Everything goes straight to the outbuf stream.
 */
#include "scopeview/json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "scopeview/common.h"

#define JSON_KIND(layout) ((layout)&0xfu)

void sv_json_init(struct sv_json *j, struct sv_outbuf *o)
{
	memset(j, 0, sizeof *j);
	j->o = o;
}

void sv_json_fini(struct sv_json *j)
{
	free(j->stack);
	memset(j, 0, sizeof *j);
}

static struct sv_json_frame *json_top(struct sv_json *j)
{
	return j->top;
}

/* A line break, then indent blanks. */
static inline void json_newline(struct sv_json *j, int indent)
{
	static const char blanks[] = "                                ";

	sv_outbuf_putc(j->o, '\n');
	j->line = indent;
	j->lines++;
	while (indent > 0) {
		int k = indent < 32 ? indent : 32;
		sv_outbuf_put(j->o, blanks, (size_t)k);
		indent -= k;
	}
}

/* The separator and line break before a member of the innermost
 * container (a key in an object, a value in an array). */
void sv_json_member(struct sv_json *j)
{
	struct sv_json_frame *f = json_top(j);
	unsigned kind;

	if (!f)
		return;
	kind = JSON_KIND(f->layout);
	if (f->count)
		sv_outbuf_putc(j->o, ',');
	/* the common case: a member on the line, no blank */
	if (f->layout == (SV_JSON_INLINE | SV_JSON_COMPACT)) {
		f->count++;
		return;
	}
	if (f->layout & SV_JSON_BREAK_NEXT || kind == SV_JSON_BLOCK ||
		(f->count && kind == SV_JSON_HANG) ||
		(f->count && kind == SV_JSON_WRAP && j->lines != f->lines))
		json_newline(j, f->inner);
	else if (f->count && !(f->layout & SV_JSON_COMPACT))
		sv_outbuf_putc(j->o, ' ');
	f->layout &= ~SV_JSON_BREAK_NEXT;
	f->count++;
	f->lines = j->lines;
}

/* Push a frame for a container laid out as layout, at base (its parent's
 * column for members that start a line), with count members. */
static void json_push(struct sv_json *j, unsigned layout, char end, int base,
	unsigned long count)
{
	struct sv_json_frame *f;

	if (j->depth == j->cap)
		sv_grow((void **)&j->stack, &j->cap, j->depth + 1,
			sizeof *j->stack);
	f = j->top = &j->stack[j->depth++];
	memset(f, 0, sizeof *f);
	f->layout = layout;
	f->end = end;
	f->count = count;
	f->lines = j->lines;
	switch (JSON_KIND(layout)) {
	case SV_JSON_BLOCK:
		f->close = base;
		f->inner = base + (int)((layout >> 8) & 0xffu);
		break;
	case SV_JSON_HANG:
	case SV_JSON_WRAP:
		f->inner = j->line + 1;
		break;
	default:
		f->inner = j->line;
		break;
	}
}

void sv_json_open_at(struct sv_json *j, unsigned layout, char open, char end)
{
	struct sv_json_frame *parent = json_top(j);
	int base = parent ? parent->inner : 0;

	sv_json_value_sep(j);
	sv_outbuf_putc(j->o, open);
	json_push(j, layout, end, base, 0);
}

void sv_json_resume(
	struct sv_json *j, unsigned layout, char end, unsigned long count)
{
	json_push(j, layout, end, 0, count);
}

void sv_json_array(struct sv_json *j, unsigned layout)
{
	sv_json_open_at(j, layout, '[', ']');
}

void sv_json_end_at(struct sv_json *j)
{
	struct sv_json_frame *f = json_top(j);

	if (!f)
		return;
	if (JSON_KIND(f->layout) == SV_JSON_BLOCK &&
		!(f->layout & SV_JSON_TIGHT) &&
		(f->count || f->layout & SV_JSON_CLOSE_LINE))
		json_newline(j, f->close);
	sv_outbuf_putc(j->o, f->end);
	j->top = --j->depth ? f - 1 : NULL;
}

void sv_json_break(struct sv_json *j)
{
	struct sv_json_frame *f = json_top(j);
	if (f)
		f->layout |= SV_JSON_BREAK_NEXT;
}

void sv_json_finish(struct sv_json *j)
{
	sv_outbuf_putc(j->o, '\n');
	j->line = 0;
	j->lines++;
}

/* ---- strings ---------------------------------------------------------- */

void sv_json_escape(struct sv_outbuf *o, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = 0, from = 0;

	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		const char *rep;
		char u[6];

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			i++;
			continue;
		}
		sv_outbuf_put(o, s + from, i - from);
		if (c >= 0x80) {
			uint32_t cp;
			size_t k = sv_utf8_decode(s + i, n - i, &cp);
			/* U+FFFD itself is valid; a decoding error is not */
			if (cp != 0xFFFD || (k == 3 && c == 0xEF))
				sv_outbuf_put(o, s + i, k);
			else
				sv_outbuf_puts(o, "\\ufffd");
			i += k;
			from = i;
			continue;
		}
		switch (c) {
		case '"':
			rep = "\\\"";
			break;
		case '\\':
			rep = "\\\\";
			break;
		case '\n':
			rep = "\\n";
			break;
		case '\r':
			rep = "\\r";
			break;
		case '\t':
			rep = "\\t";
			break;
		case '\b':
			rep = "\\b";
			break;
		case '\f':
			rep = "\\f";
			break;
		default:
			memcpy(u, "\\u00", 4);
			u[4] = hex[c >> 4];
			u[5] = hex[c & 15];
			sv_outbuf_put(o, u, 6);
			rep = NULL;
		}
		if (rep)
			sv_outbuf_puts(o, rep);
		from = ++i;
	}
	sv_outbuf_put(o, s + from, n - from);
}

static void json_quoted(struct sv_outbuf *o, const char *s, size_t n)
{
	sv_outbuf_putc(o, '"');
	sv_json_escape(o, s, n);
	sv_outbuf_putc(o, '"');
}

char *sv_json_quote(const char *s)
{
	struct sv_outbuf o;
	char *text;

	if (!s)
		s = "";
	sv_outbuf_init(&o, NULL);
	json_quoted(&o, s, strlen(s));
	text = sv_outbuf_take(&o);
	sv_outbuf_fini(&o);
	return text;
}

void sv_json_key(struct sv_json *j, const char *key)
{
	struct sv_json_frame *f = json_top(j);

	sv_json_member(j);
	json_quoted(j->o, key, strlen(key));
	if (f && f->layout & SV_JSON_COMPACT)
		sv_outbuf_putc(j->o, ':');
	else
		sv_outbuf_put(j->o, ": ", 2);
	j->after_key = true;
}

void sv_json_raw_key_at(struct sv_json *j, const char *text, size_t n)
{
	struct sv_json_frame *f = json_top(j);

	sv_json_member(j);
	sv_outbuf_put(j->o, text, n);
	if (f && f->layout & SV_JSON_COMPACT)
		sv_outbuf_putc(j->o, ':');
	else
		sv_outbuf_put(j->o, ": ", 2);
	j->after_key = true;
}

void sv_json_string(struct sv_json *j, const char *s)
{
	if (!s)
		s = "";
	sv_json_string_n(j, s, strlen(s));
}

void sv_json_string_n(struct sv_json *j, const char *s, size_t n)
{
	sv_json_value_sep(j);
	json_quoted(j->o, s, n);
}

/* ---- numbers and the rest --------------------------------------------- */

char *sv_json_number_text(char *buf, size_t size, double v)
{
	int prec;

	if (!isfinite(v)) {
		snprintf(buf, size, "null");
		return buf;
	}
	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (!strpbrk(buf, ".eEn")) {
		size_t n = strlen(buf);
		if (n + 3 <= size)
			memcpy(buf + n, ".0", 3);
	}
	return buf;
}

void sv_json_double(struct sv_json *j, double v)
{
	char buf[32];

	sv_json_value_sep(j);
	sv_outbuf_puts(j->o, sv_json_number_text(buf, sizeof buf, v));
}

void sv_json_opt_i64(struct sv_json *j, const char *key, bool has, int64_t v)
{
	sv_json_key(j, key);
	if (has)
		sv_json_i64(j, v);
	else
		sv_json_null(j);
}

void sv_json_opt_double(struct sv_json *j, const char *key, bool has, double v)
{
	sv_json_key(j, key);
	if (has)
		sv_json_double(j, v);
	else
		sv_json_null(j);
}

void sv_json_bool(struct sv_json *j, bool v)
{
	sv_json_value_sep(j);
	sv_outbuf_puts(j->o, v ? "true" : "false");
}

void sv_json_python(struct sv_json *j, const char *v, size_t n)
{
	size_t i = 0, from = 0;

	sv_json_value_sep(j);
	while (i < n) {
		if (v[i] == '"') {
			for (i++; i < n && v[i] != '"'; i++)
				if (v[i] == '\\')
					i++;
			i++;
		} else if (v[i] == 'N' || v[i] == 'I' ||
			   (v[i] == '-' && i + 1 < n && v[i + 1] == 'I')) {
			/* NaN, Infinity, -Infinity: the only bare words
			 * besides true, false and null */
			size_t end = i + (v[i] == 'N'          ? 3
						 : v[i] == '-' ? 9
							       : 8);
			sv_outbuf_put(j->o, v + from, i - from);
			sv_outbuf_put(j->o, "null", 4);
			i = from = end < n ? end : n;
		} else {
			i++;
		}
	}
	sv_outbuf_put(j->o, v + from, n - from);
}
