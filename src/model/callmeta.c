/*
 * callmeta.c: per-call event metadata (callmeta.h, doc/format.md 4.11): a
 * reader of Python's JSON that checks one row's list and copies each
 * entry compactly into the profile's text arena, and the readers of the
 * stored objects (members, shown values, search terms).
 */
#include "scopeview/callmeta.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/regex.h"

/* Nesting deeper than this is refused (the reader recurses). */
#define CALLMETA_MAX_DEPTH 256

/* The reader: text [s, end), copying what it reads without whitespace to
 * out (len bytes of cap, NUL-terminated). */
struct callmeta_rd {
	const char *s, *at, *end;
	const char *err; /* what is wrong at `at` */
	char *out;
	size_t len, cap;
	int depth;
};

static void callmeta_put(struct callmeta_rd *r, const char *s, size_t n)
{
	sv_grow((void **)&r->out, &r->cap, r->len + n + 1, 1);
	memcpy(r->out + r->len, s, n);
	r->len += n;
	r->out[r->len] = '\0';
}

static void callmeta_ws(struct callmeta_rd *r)
{
	while (r->at < r->end && (*r->at == ' ' || *r->at == '\t' ||
					 *r->at == '\n' || *r->at == '\r'))
		r->at++;
}

static bool callmeta_fail(struct callmeta_rd *r, const char *why)
{
	if (!r->err)
		r->err = why;
	return false;
}

static bool callmeta_hex4(const char *s)
{
	int i;
	for (i = 0; i < 4; i++)
		if (!strchr("0123456789abcdefABCDEF", s[i]) || !s[i])
			return false;
	return true;
}

static bool callmeta_string(struct callmeta_rd *r)
{
	const char *from = r->at;

	r->at++; /* the opening quote */
	while (r->at < r->end && *r->at != '"') {
		unsigned char ch = (unsigned char)*r->at;
		if (ch < 0x20)
			return callmeta_fail(
				r, "control character in a string");
		if (ch == '\\') {
			if (r->at + 1 >= r->end)
				return callmeta_fail(r, "unfinished string");
			if (r->at[1] == 'u') {
				if (r->end - r->at < 6 ||
					!callmeta_hex4(r->at + 2))
					return callmeta_fail(
						r, "bad \\u escape");
				r->at += 6;
				continue;
			}
			if (!strchr("\"\\/bfnrt", r->at[1]) || !r->at[1])
				return callmeta_fail(r, "bad escape");
			r->at += 2;
			continue;
		}
		r->at++;
	}
	if (r->at >= r->end)
		return callmeta_fail(r, "unfinished string");
	r->at++;
	callmeta_put(r, from, (size_t)(r->at - from));
	return true;
}

static bool callmeta_word(struct callmeta_rd *r, const char *w)
{
	size_t n = strlen(w);
	if ((size_t)(r->end - r->at) < n || memcmp(r->at, w, n))
		return false;
	callmeta_put(r, r->at, n);
	r->at += n;
	return true;
}

static bool callmeta_digits(struct callmeta_rd *r)
{
	const char *from = r->at;
	while (r->at < r->end && *r->at >= '0' && *r->at <= '9')
		r->at++;
	return r->at > from;
}

static bool callmeta_number(struct callmeta_rd *r)
{
	const char *from = r->at;

	if (r->at < r->end && *r->at == '-')
		r->at++;
	if (r->end - r->at >= 8 && !memcmp(r->at, "Infinity", 8)) {
		r->at += 8; /* Python's allow_nan: Infinity, -Infinity */
		callmeta_put(r, from, (size_t)(r->at - from));
		return true;
	}
	if (r->at < r->end && *r->at == '0')
		r->at++;
	else if (!callmeta_digits(r))
		return callmeta_fail(r, "bad number");
	if (r->at < r->end && *r->at == '.') {
		r->at++;
		if (!callmeta_digits(r))
			return callmeta_fail(r, "bad number");
	}
	if (r->at < r->end && (*r->at == 'e' || *r->at == 'E')) {
		r->at++;
		if (r->at < r->end && (*r->at == '+' || *r->at == '-'))
			r->at++;
		if (!callmeta_digits(r))
			return callmeta_fail(r, "bad number");
	}
	callmeta_put(r, from, (size_t)(r->at - from));
	return true;
}

static bool callmeta_value(struct callmeta_rd *r);

/* An object or a list: open/close '{' '}' or '[' ']'. */
static bool callmeta_container(struct callmeta_rd *r, char close)
{
	bool first = true;

	if (++r->depth > CALLMETA_MAX_DEPTH)
		return callmeta_fail(r, "nested too deeply");
	callmeta_put(r, r->at, 1);
	r->at++;
	callmeta_ws(r);
	if (r->at < r->end && *r->at == close) {
		callmeta_put(r, r->at++, 1);
		r->depth--;
		return true;
	}
	for (;;) {
		if (!first)
			callmeta_put(r, ",", 1);
		first = false;
		callmeta_ws(r);
		if (close == '}') {
			if (r->at >= r->end || *r->at != '"')
				return callmeta_fail(r, "expected a key");
			if (!callmeta_string(r))
				return false;
			callmeta_ws(r);
			if (r->at >= r->end || *r->at != ':')
				return callmeta_fail(r, "expected ':'");
			callmeta_put(r, r->at++, 1);
			callmeta_ws(r);
		}
		if (!callmeta_value(r))
			return false;
		callmeta_ws(r);
		if (r->at < r->end && *r->at == ',') {
			r->at++;
			continue;
		}
		if (r->at < r->end && *r->at == close) {
			callmeta_put(r, r->at++, 1);
			r->depth--;
			return true;
		}
		return callmeta_fail(r, close == '}' ? "expected ',' or '}'"
						     : "expected ',' or ']'");
	}
}

static bool callmeta_value(struct callmeta_rd *r)
{
	if (r->at >= r->end)
		return callmeta_fail(r, "unexpected end");
	switch (*r->at) {
	case '{':
		return callmeta_container(r, '}');
	case '[':
		return callmeta_container(r, ']');
	case '"':
		return callmeta_string(r);
	case 't':
	case 'f':
	case 'n':
	case 'N':
		if (callmeta_word(r, "true") || callmeta_word(r, "false") ||
			callmeta_word(r, "null") || callmeta_word(r, "NaN"))
			return true;
		return callmeta_fail(r, "unexpected word");
	default:
		if (*r->at == '-' || *r->at == 'I' ||
			(*r->at >= '0' && *r->at <= '9'))
			return callmeta_number(r);
		return callmeta_fail(r, "unexpected character");
	}
}

static const char *callmeta_kind(char c)
{
	switch (c) {
	case '{':
		return "an object";
	case '[':
		return "a list";
	case '"':
		return "a string";
	case 't':
	case 'f':
		return "a bool";
	case 'n':
		return "null";
	default:
		return "a number";
	}
}

/* Append text (NUL-terminated) to the arena; returns its offset. */
static uint64_t callmeta_intern(struct sv_profile *p, const char *text)
{
	size_t n = strlen(text) + 1;
	uint64_t at;

	if (!p->meta_arena_len) {
		sv_grow((void **)&p->meta_arena, &p->meta_arena_cap, 1, 1);
		p->meta_arena[0] = '\0'; /* offset 0: no metadata */
		p->meta_arena_len = 1;
	}
	sv_grow((void **)&p->meta_arena, &p->meta_arena_cap,
		p->meta_arena_len + n, 1);
	at = p->meta_arena_len;
	memcpy(p->meta_arena + at, text, n);
	p->meta_arena_len += n;
	return at;
}

int sv_callmeta_set_row(struct sv_profile *p, uint64_t first, uint64_t count,
	const char *text, char *why, size_t whyn)
{
	struct callmeta_rd r = {0};
	size_t nent = 0, i, *starts = NULL, cap = 0;

	if (!text)
		return 0;
	r.s = r.at = text;
	r.end = text + strlen(text);
	callmeta_ws(&r);
	if (r.at == r.end)
		return 0; /* "" is [] */
	if (*r.at != '[') {
		snprintf(why, whyn, "is %s, not a JSON list",
			callmeta_kind(*r.at));
		return -EINVAL;
	}
	/* Read the list entry by entry, each copied compactly into r.out
	 * (NUL-separated), so nothing is stored unless all of it is good. */
	r.at++;
	callmeta_ws(&r);
	if (r.at < r.end && *r.at == ']') {
		r.at++;
	} else {
		for (;;) {
			callmeta_ws(&r);
			if (r.at < r.end && *r.at != '{') {
				snprintf(why, whyn,
					"entry %zu is %s, not an object", nent,
					callmeta_kind(*r.at));
				free(r.out);
				free(starts);
				return -EINVAL;
			}
			sv_grow((void **)&starts, &cap, nent + 1,
				sizeof *starts);
			starts[nent++] = r.len;
			if (!callmeta_value(&r))
				break;
			callmeta_put(&r, "", 1); /* the NUL between entries */
			callmeta_ws(&r);
			if (r.at < r.end && *r.at == ',') {
				r.at++;
				continue;
			}
			if (r.at < r.end && *r.at == ']') {
				r.at++;
				break;
			}
			callmeta_fail(&r, "expected ',' or ']'");
			break;
		}
	}
	callmeta_ws(&r);
	if (!r.err && r.at != r.end)
		callmeta_fail(&r, "text after the list");
	if (r.err) {
		snprintf(why, whyn, "not JSON: %s at byte %zu", r.err,
			(size_t)(r.at - r.s));
		free(r.out);
		free(starts);
		return -EINVAL;
	}
	if (nent != 0 && nent != count) {
		snprintf(why, whyn, "holds %zu entries for %llu calls", nent,
			(unsigned long long)count);
		free(r.out);
		free(starts);
		return -EINVAL;
	}
	if (nent && !p->call_meta)
		p->call_meta = sv_xcalloc(
			p->ncalls ? p->ncalls : 1, sizeof *p->call_meta);
	for (i = 0; i < nent && first + i < p->ncalls; i++) {
		const char *obj = r.out + starts[i];
		uint64_t c = first + i;
		if (!strcmp(obj, "{}"))
			continue;
		if (c > 0 && p->call_meta[c - 1] &&
			!strcmp(p->meta_arena + p->call_meta[c - 1], obj))
			p->call_meta[c] = p->call_meta[c - 1];
		else
			p->call_meta[c] = callmeta_intern(p, obj);
	}
	free(r.out);
	free(starts);
	return 0;
}

const char *sv_callmeta_of(const struct sv_profile *p, uint32_t c)
{
	if (!p->call_meta || c >= p->ncalls || !p->call_meta[c])
		return NULL;
	return p->meta_arena + p->call_meta[c];
}

/* The end of the compact value at s (well-formed, written above). */
static const char *callmeta_skip(const char *s)
{
	int depth = 0;

	do {
		if (*s == '"') {
			for (s++; *s && *s != '"'; s++)
				if (*s == '\\' && s[1])
					s++;
			if (*s)
				s++;
		} else if (*s == '{' || *s == '[') {
			depth++;
			s++;
		} else if (*s == '}' || *s == ']') {
			depth--;
			s++;
		} else {
			while (*s && !strchr(",:}]", *s))
				s++;
		}
		while (depth > 0 && (*s == ',' || *s == ':'))
			s++;
	} while (depth > 0 && *s);
	return s;
}

bool sv_callmeta_next(const char **cur, struct sv_callmeta_kv *kv)
{
	const char *s = *cur;

	if (!s || (*s != '{' && *s != ','))
		return false;
	s++;
	if (*s != '"')
		return false;
	kv->key = s;
	s = callmeta_skip(s);
	kv->key_len = (size_t)(s - kv->key);
	if (*s != ':')
		return false;
	kv->val = ++s;
	s = callmeta_skip(s);
	kv->val_len = (size_t)(s - kv->val);
	*cur = s;
	return true;
}

static unsigned callmeta_hexval(const char *s)
{
	char buf[5];
	memcpy(buf, s, 4);
	buf[4] = '\0';
	return (unsigned)strtoul(buf, NULL, 16);
}

/* Decode the JSON string s[0, len) (with quotes) into out[0, n). */
static size_t callmeta_unquote(const char *s, size_t len, char *out, size_t n)
{
	size_t i = 1, w = 0;
	char enc[4];

	while (i + 1 < len) {
		const char *piece = s + i;
		size_t plen = 1, k;
		if (s[i] == '\\' && i + 2 < len) {
			char e = s[i + 1];
			uint32_t cp = 0;
			plen = 0;
			i += 2;
			if (e == 'u' && i + 4 <= len - 1) {
				cp = callmeta_hexval(s + i);
				i += 4;
				if (cp >= 0xD800 && cp < 0xDC00 &&
					i + 6 <= len - 1 && s[i] == '\\' &&
					s[i + 1] == 'u') {
					uint32_t lo =
						callmeta_hexval(s + i + 2);
					if (lo >= 0xDC00 && lo < 0xE000) {
						cp = 0x10000 +
						     ((cp - 0xD800) << 10) +
						     (lo - 0xDC00);
						i += 6;
					}
				}
				if (cp >= 0xD800 && cp < 0xE000)
					cp = 0xFFFD; /* a lone surrogate */
			} else {
				const char *from = "\"\\/bfnrt",
					   *to = "\"\\/\b\f\n\r\t";
				const char *at = strchr(from, e);
				cp = at ? (uint32_t)(unsigned char)to[at - from]
					: (uint32_t)(unsigned char)e;
			}
			plen = sv_utf8_encode(cp, enc);
			piece = enc;
		} else {
			i++;
		}
		for (k = 0; k < plen; k++, w++)
			if (w + 1 < n)
				out[w] = piece[k];
	}
	out[w + 1 < n ? w : n - 1] = '\0';
	return w;
}

size_t sv_callmeta_show(const char *val, size_t len, char *out, size_t n)
{
	if (len >= 2 && val[0] == '"')
		return callmeta_unquote(val, len, out, n);
	snprintf(out, n, "%.*s", (int)len, val);
	return len;
}

bool sv_callmeta_find(
	const char *obj, const char *key, struct sv_callmeta_kv *kv)
{
	struct sv_callmeta_kv m;
	const char *cur = obj;
	bool found = false;
	char buf[256];

	while (sv_callmeta_next(&cur, &m)) {
		size_t need =
			callmeta_unquote(m.key, m.key_len, buf, sizeof buf);
		bool same;
		if (need < sizeof buf) {
			same = !strcmp(buf, key);
		} else {
			char *big = sv_xmalloc(need + 1);
			callmeta_unquote(m.key, m.key_len, big, need + 1);
			same = !strcmp(big, key);
			free(big);
		}
		if (same) {
			*kv = m;
			found = true;
		}
	}
	return found;
}

static uint64_t callmeta_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603u; /* FNV-1a */
	size_t i;
	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211u;
	return h;
}

/*
 * The key a group of --group-by is told apart by: values equal as keys of
 * a Python dict after json.loads are one group.  Numbers (and true and
 * false, which Python's bool makes 1 and 0) by their exact value: 1, 1.0,
 * 1e0 and true are one key, 0, -0.0 and false another, 0.1 and 0.10
 * another; NaN is one key (json.loads gives the same NaN object every
 * time); strings by their decoded text ("\u00e9" and "é" are one).
 * Lists and objects, which Python cannot use as keys, and null by their
 * compact text.  Writes the key into *buf (grown; *cap its size) and
 * returns its length.
 */
static size_t callmeta_group_key(
	const char *val, size_t len, char **buf, size_t *cap)
{
	char num[64], *end;
	bool is_int = true;
	double d;
	size_t i;

	sv_grow((void **)buf, cap, len + 400, 1); /* %.0f of 1e308 */
	if (len >= 2 && val[0] == '"') {
		/* Decoded text is never longer than its JSON. */
		(*buf)[0] = 's';
		return 1 + callmeta_unquote(val, len, *buf + 1, *cap - 1);
	}
	if ((len == 4 && !memcmp(val, "true", 4)) ||
		(len == 5 && !memcmp(val, "false", 5)))
		return (size_t)snprintf(*buf, *cap, "n%d", val[0] == 't');
	if (len == 3 && !memcmp(val, "NaN", 3))
		return (size_t)snprintf(*buf, *cap, "nnan");
	if (len == 0 || !(val[0] == '-' || (val[0] >= '0' && val[0] <= '9') ||
				val[0] == 'I')) {
		(*buf)[0] = 'x';
		memcpy(*buf + 1, val, len);
		(*buf)[len + 1] = '\0';
		return len + 1;
	}
	for (i = 0; i < len; i++)
		if (val[i] == '.' || val[i] == 'e' || val[i] == 'E' ||
			val[i] == 'I')
			is_int = false;
	if (is_int) {
		/* Exact digits, whatever their count: no sign on a zero. */
		bool neg = val[0] == '-';
		size_t at = neg;
		while (at + 1 < len && val[at] == '0')
			at++;
		if (len - at == 1 && val[at] == '0')
			neg = false;
		return (size_t)snprintf(*buf, *cap, "n%s%.*s", neg ? "-" : "",
			(int)(len - at), val + at);
	}
	snprintf(num, sizeof num, "%.*s",
		(int)(len < sizeof num ? len : sizeof num - 1), val);
	d = strcmp(num, "Infinity")
		    ? strcmp(num, "-Infinity") ? strtod(num, &end) : -HUGE_VAL
		    : HUGE_VAL;
	if (isinf(d))
		return (size_t)snprintf(*buf, *cap, "n%sinf", d < 0 ? "-" : "");
	if (d == floor(d))
		/* An integer value: its exact digits, as an int literal
		 * would give them (glibc prints a double exactly). */
		return (size_t)snprintf(*buf, *cap, "n%.0f", d == 0 ? 0.0 : d);
	return (size_t)snprintf(*buf, *cap, "n%.17g", d);
}

size_t sv_callmeta_groups(const struct sv_profile *p, const char *key,
	char ***values, uint32_t **group_of)
{
	uint32_t *slot = NULL, c, last_g = SV_CALLMETA_NO_GROUP;
	size_t nslot = 0, nval = 0, cap = 0, kcap = 0, bcap = 0, i, klen;
	uint64_t last_off = 0;
	char **val = NULL, **keys = NULL, *kbuf = NULL;

	*group_of = sv_xmalloc((p->ncalls ? p->ncalls : 1) * sizeof **group_of);
	for (c = 0; c < p->ncalls; c++) {
		const char *obj = sv_callmeta_of(p, c);
		struct sv_callmeta_kv kv;
		uint32_t g = SV_CALLMETA_NO_GROUP;
		if (obj && p->call_meta[c] == last_off) {
			(*group_of)[c] = last_g; /* the same object again */
			continue;
		}
		if (obj && sv_callmeta_find(obj, key, &kv)) {
			uint64_t h;
			klen = callmeta_group_key(
				kv.val, kv.val_len, &kbuf, &bcap);
			h = callmeta_hash(kbuf, klen);
			if (2 * (nval + 1) > nslot) {
				/* Grow the table and put the keys back. */
				nslot = nslot ? nslot * 2 : 64;
				free(slot);
				slot = sv_xmalloc(nslot * sizeof *slot);
				memset(slot, 0xff, nslot * sizeof *slot);
				for (i = 0; i < nval; i++) {
					size_t at = callmeta_hash(keys[i],
							    strlen(keys[i])) %
						    nslot;
					while (slot[at] != UINT32_MAX)
						at = (at + 1) % nslot;
					slot[at] = (uint32_t)i;
				}
			}
			for (i = h % nslot; slot[i] != UINT32_MAX;
				i = (i + 1) % nslot) {
				const char *k = keys[slot[i]];
				if (strlen(k) == klen && !memcmp(k, kbuf, klen))
					break;
			}
			if (slot[i] == UINT32_MAX) {
				/* A new group, shown as its first value was
				 * written (as a dict keeps its first key). */
				sv_grow((void **)&val, &cap, nval + 1,
					sizeof *val);
				sv_grow((void **)&keys, &kcap, nval + 1,
					sizeof *keys);
				val[nval] = sv_xstrndup(kv.val, kv.val_len);
				keys[nval] = sv_xstrndup(kbuf, klen);
				slot[i] = (uint32_t)nval++;
			}
			g = slot[i];
		}
		(*group_of)[c] = g;
		last_off = obj ? p->call_meta[c] : 0;
		last_g = g;
	}
	for (i = 0; i < nval; i++)
		free(keys[i]);
	free(keys);
	free(kbuf);
	free(slot);
	*values = val;
	return nval;
}

int sv_callmeta_term_parse(
	const char *spec, struct sv_callmeta_term *t, struct sv_error *err)
{
	size_t k = strcspn(spec, "=~");

	memset(t, 0, sizeof *t);
	if (k == 0 || !spec[k] || strcspn(spec, " \t") < k)
		return 0;
	t->key = sv_xstrndup(spec, k);
	if (spec[k] == '=') {
		t->value = sv_xstrdup(spec + k + 1);
		return 1;
	}
	t->re = sv_regex_compile(spec + k + 1, err);
	if (!t->re) {
		free(t->key);
		t->key = NULL;
		return -EINVAL;
	}
	return 1;
}

bool sv_callmeta_term_match(const struct sv_profile *p,
	const struct sv_callmeta_term *t, uint32_t c)
{
	const char *obj = sv_callmeta_of(p, c);
	struct sv_callmeta_kv kv;
	char buf[512], *text = buf;
	size_t need;
	bool hit;

	if (!obj || !t->key || !sv_callmeta_find(obj, t->key, &kv))
		return false;
	need = sv_callmeta_show(kv.val, kv.val_len, buf, sizeof buf);
	if (need >= sizeof buf) {
		text = sv_xmalloc(need + 1);
		sv_callmeta_show(kv.val, kv.val_len, text, need + 1);
	}
	hit = t->value ? !strcmp(text, t->value)
		       : sv_regex_search(t->re, text, NULL, NULL);
	if (text != buf)
		free(text);
	return hit;
}

void sv_callmeta_term_fini(struct sv_callmeta_term *t)
{
	if (!t)
		return;
	free(t->key);
	free(t->value);
	sv_regex_free(t->re);
	memset(t, 0, sizeof *t);
}

size_t sv_callmeta_line(const char *obj, char *out, size_t n)
{
	const char *cur = obj;
	struct sv_callmeta_kv kv;
	size_t used = 0;

	if (!out || !n)
		return 0;
	out[0] = '\0';
	while (cur && used + 1 < n && sv_callmeta_next(&cur, &kv)) {
		size_t k;
		if (used && used + 2 < n) {
			out[used++] = ' ';
			out[used++] = ' ';
		}
		k = sv_callmeta_show(kv.key, kv.key_len, out + used, n - used);
		used = used + k < n - 1 ? used + k : n - 1;
		if (used + 1 < n) {
			out[used++] = '=';
			k = sv_callmeta_show(
				kv.val, kv.val_len, out + used, n - used);
			used = used + k < n - 1 ? used + k : n - 1;
		}
		out[used] = '\0';
	}
	return used;
}
