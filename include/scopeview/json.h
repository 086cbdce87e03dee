/*
 * json.h: the one JSON writer of the reports (summary, tree, ranks,
 * calls, diff) and the exports (Chrome, speedscope, the CSV export's
 * metadata column).
 *
 * It streams: each call writes its bytes to an outbuf.h stream at once,
 * and what it keeps is one small frame per open object or array.  That
 * is why it is ours and not jansson's (which the loader uses to read
 * JSON): json_dumpf() writes a tree built first, one heap object per
 * value, which for an export of ten million calls is some 200 million
 * objects and gigabytes before the first byte; and jansson formats a
 * real with %.17g (0.1 is 0.10000000000000001) and lays out every
 * container the same way, where our reports are pinned to the shortest
 * round-trip number and to the layouts they have always had.
 *
 * Layout.  Each object or array says, when opened, how its members are
 * laid out; the writer does the separators, line breaks and indentation:
 *   SV_JSON_INLINE   {"a": 1, "b": 2}, on the line where it opened;
 *   SV_JSON_BLOCK    each member on a line of its own, indented by the
 *                    step (SV_JSON_STEP) from the base, the closing
 *                    bracket on a line of its own at the base; empty it
 *                    is [] (SV_JSON_PRETTY, BLOCK with a step of 2, is
 *                    Python's json.dumps(indent=2));
 *   SV_JSON_HANG     the first member on the opening line, each other on
 *                    a line of its own, one column in from that line;
 *   SV_JSON_WRAP     INLINE, but a member after one that took several
 *                    lines starts a line of its own, one column in;
 * with the flags
 *   SV_JSON_COMPACT  no blank after ',' and ':' ({"a":1,"b":2});
 *   SV_JSON_TIGHT    BLOCK: the closing bracket right after the last
 *                    member, not on a line of its own;
 *   SV_JSON_CLOSE_LINE  BLOCK: the closing bracket on a line of its own
 *                    even when empty ("[\n]").
 * The base of a BLOCK is where its parent puts members that start a line
 * (the parent's own BLOCK indentation, one column in from a HANG or WRAP
 * parent's line, an INLINE parent's line); at the top it is 0.
 * sv_json_break() starts the next member of any container on a line of
 * its own, at that position.
 *
 * Strings are escaped as RFC 8259 asks: '"' and '\' with a backslash,
 * \n \r \t \b \f, every other byte below 0x20 and DEL as \u00XX; valid
 * UTF-8 is copied, and each invalid sequence (its maximal subpart, as
 * Python's decode(errors="replace") counts them) becomes \ufffd, so the
 * output is always valid UTF-8 JSON whatever bytes a name holds.
 * Numbers: integers exact; doubles as the shortest text that reads back
 * as the same double, with ".0" when it would read as an integer
 * (sv_json_number_text); NaN and infinities, which JSON cannot say, are
 * null.  scope-profiler writes its metadata with Python's json.dumps
 * (allow_nan: bare NaN, Infinity, -Infinity): sv_json_python copies such
 * a value with those three as null, sv_json_raw copies text as it is.
 *
 * The writer never prints on its own account and never fails: errors
 * are the stream's (sv_outbuf_flush).  Misuse (a value where a key is
 * due, an end without an open container) is the caller's bug and is not
 * checked beyond what keeps memory safe.
 */
#ifndef SCOPEVIEW_JSON_H
#define SCOPEVIEW_JSON_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_REPORT)
#error "scopeview/json.h belongs to the report layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <string.h>

#include "scopeview/outbuf.h"

#define SV_JSON_INLINE     0x0u
#define SV_JSON_BLOCK      0x1u
#define SV_JSON_HANG       0x2u
#define SV_JSON_WRAP       0x3u
#define SV_JSON_COMPACT    0x10u
#define SV_JSON_TIGHT      0x20u
#define SV_JSON_CLOSE_LINE 0x40u
#define SV_JSON_STEP(n)    (((unsigned)(n)&0xffu) << 8)
#define SV_JSON_PRETTY     (SV_JSON_BLOCK | SV_JSON_STEP(2))

/* In a frame's layout: sv_json_break was called, the next member starts
 * a line (one bit with the layout, so that the common case is one
 * comparison). */
#define SV_JSON_BREAK_NEXT 0x80u

struct sv_json_frame {
	unsigned layout;     /* SV_JSON_* of the container (| BREAK_NEXT) */
	int inner;           /* the column members that start a line get */
	int close;           /* BLOCK: the column of the closing bracket */
	unsigned long count; /* members written */
	unsigned long lines; /* newlines written before the last member */
	char end;            /* '}' or ']' */
};

struct sv_json {
	struct sv_outbuf *o;
	struct sv_json_frame *stack;
	struct sv_json_frame *top; /* the innermost open one, or NULL */
	size_t depth, cap;
	int line;            /* the indentation of the line being written */
	unsigned long lines; /* newlines written */
	bool after_key;      /* a key was written: its value comes next */
};

/* Write JSON to o (which must outlive j).  sv_json_fini frees the
 * frames; it does not flush o. */
void sv_json_init(struct sv_json *j, struct sv_outbuf *o);
void sv_json_fini(struct sv_json *j);

/* Open an object or array laid out as layout (SV_JSON_*), as a value:
 * in an array, after a key, or at the top.  sv_json_end closes the
 * innermost one.  (Inline below.) */
void sv_json_array(struct sv_json *j, unsigned layout);
/* Go on inside a container another writer opened (an export written in
 * parts, export.h's sv_export_piece): the frame sv_json_object or
 * sv_json_array would have pushed at the top with layout, count members
 * written, its opening bracket ('{' for end '}', '[' for ']') not
 * written again; sv_json_end then closes it as the first writer would
 * have.  The container's base is 0 (a member of a top-level object or
 * the top itself). */
void sv_json_resume(
	struct sv_json *j, unsigned layout, char end, unsigned long count);
/* The next member of the innermost container starts a line of its own. */
void sv_json_break(struct sv_json *j);
/* The end of the document: a newline after the top-level value. */
void sv_json_finish(struct sv_json *j);

/* A string literal s that needs no escaping (no '"', '\\', control or
 * non-ASCII byte), as the two arguments (text, length) of sv_json_raw or
 * sv_json_raw_key, quoted at compile time: sv_json_raw_key(j,
 * SV_JSON_LIT("ph")).  For the exports, which write the same keys
 * millions of times. */
#define SV_JSON_LIT(s) "\"" s "\"", sizeof(s) + 1

/* An object's key (escaped as a string); a value must follow. */
void sv_json_key(struct sv_json *j, const char *key);

/* Values. */
void sv_json_string(struct sv_json *j, const char *s); /* NULL: "" */
void sv_json_string_n(struct sv_json *j, const char *s, size_t n);
void sv_json_double(struct sv_json *j, double v); /* non-finite: null */
void sv_json_bool(struct sv_json *j, bool v);
/* "key": v, or "key": null when the figure is absent (!has). */
void sv_json_opt_i64(struct sv_json *j, const char *key, bool has, int64_t v);
void sv_json_opt_double(struct sv_json *j, const char *key, bool has, double v);
/* text[0..n), compact JSON as Python writes it, with its bare NaN,
 * Infinity and -Infinity (outside strings) written as null. */
void sv_json_python(struct sv_json *j, const char *text, size_t n);

/*
 * The writers an export calls for every call, inline: they are most of
 * the work of a ten-million-call export, and a key given as a literal
 * (SV_JSON_LIT) is then copied by a few moves.  sv_json_member (the
 * separator and line break before a member) and sv_json_raw_key_at are
 * their out-of-line parts; nothing else calls them.
 */
void sv_json_member(struct sv_json *j);
void sv_json_raw_key_at(struct sv_json *j, const char *text, size_t n);
void sv_json_open_at(struct sv_json *j, unsigned layout, char open, char end);
void sv_json_end_at(struct sv_json *j);

/* Before a value: the separator, unless its key came just before. */
static inline void sv_json_value_sep(struct sv_json *j)
{
	struct sv_json_frame *f;

	if (j->after_key) {
		j->after_key = false;
		return;
	}
	f = j->top;
	if (!f ||
		(f->layout & (0xfu | SV_JSON_COMPACT | SV_JSON_BREAK_NEXT)) !=
			(SV_JSON_BLOCK | SV_JSON_COMPACT) ||
		f->inner) {
		sv_json_member(j);
		return;
	}
	/* the common case: an item of an export's list, one a line */
	if (f->count)
		sv_outbuf_putc(j->o, ',');
	sv_outbuf_putc(j->o, '\n');
	j->line = 0;
	j->lines++;
	f->count++;
	f->lines = j->lines;
}

static inline void sv_json_object(struct sv_json *j, unsigned layout)
{
	struct sv_json_frame *f;

	if (layout != (SV_JSON_INLINE | SV_JSON_COMPACT) ||
		j->depth == j->cap) {
		sv_json_open_at(j, layout, '{', '}');
		return;
	}
	/* the common case: an export's compact object */
	sv_json_value_sep(j);
	sv_outbuf_putc(j->o, '{');
	f = j->top = &j->stack[j->depth++];
	f->layout = layout;
	f->inner = j->line;
	f->count = 0;
	f->end = '}';
}

static inline void sv_json_end(struct sv_json *j)
{
	if (j->top && (j->top->layout & 0xfu) != SV_JSON_BLOCK) {
		sv_outbuf_putc(j->o, j->top->end);
		j->top = --j->depth ? j->top - 1 : NULL;
	} else {
		sv_json_end_at(j);
	}
}

/* A key already encoded as a JSON string, quotes included (a literal
 * through SV_JSON_LIT, or a key from a file's JSON text). */
static inline void sv_json_raw_key(
	struct sv_json *j, const char *text, size_t n)
{
	struct sv_json_frame *f = j->top;
	struct sv_outbuf *o = j->o;
	char *d;

	if (!f || f->layout != (SV_JSON_INLINE | SV_JSON_COMPACT) ||
		o->cap - o->n < n + 2) {
		sv_json_raw_key_at(j, text, n);
		return;
	}
	/* the common case: ',' "key" ':' on the line */
	d = o->b + o->n;
	if (f->count)
		*d++ = ',';
	memcpy(d, text, n);
	d[n] = ':';
	o->n = (size_t)(d + n + 1 - o->b);
	f->count++;
	j->after_key = true;
}

/* text[0..n), a JSON value already encoded (a string escaped once for
 * many uses, a value from a file), copied as it is. */
static inline void sv_json_raw(struct sv_json *j, const char *text, size_t n)
{
	sv_json_value_sep(j);
	sv_outbuf_put(j->o, text, n);
}

static inline void sv_json_i64(struct sv_json *j, int64_t v)
{
	sv_json_value_sep(j);
	sv_outbuf_i64(j->o, v);
}

static inline void sv_json_u64(struct sv_json *j, uint64_t v)
{
	sv_json_value_sep(j);
	sv_outbuf_u64(j->o, v);
}

static inline void sv_json_null(struct sv_json *j)
{
	sv_json_value_sep(j);
	sv_outbuf_put(j->o, "null", 4);
}

/* v / 10^decimals, exactly that many decimals (sv_outbuf_fixed). */
static inline void sv_json_fixed(
	struct sv_json *j, int64_t v, unsigned decimals)
{
	sv_json_value_sep(j);
	sv_outbuf_fixed(j->o, v, decimals);
}

/* The escaped bytes of s[0..n) (no quotes) onto o. */
void sv_json_escape(struct sv_outbuf *o, const char *s, size_t n);
/* s (NULL: "") as a JSON string, quotes included: a malloc'd copy. */
char *sv_json_quote(const char *s);
/* v as sv_json_double writes it ("0.1", "3.0", "1e+300", "null") into
 * buf of size n (32 is enough); returns buf. */
char *sv_json_number_text(char *buf, size_t n, double v);

#endif
