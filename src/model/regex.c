/*
 * regex.c: a small PCRE2 wrapper (see regex.h).
 *
 * Patterns compile in UTF mode with PCRE2_UCP, so \w, \d, \s and \b are
 * Unicode-aware as in Python 3's re with str patterns, and with LF as the
 * only newline whatever PCRE2's build default is (Python's '.' and '$'
 * know no other).  Before compiling, the few pieces of Python syntax that
 * PCRE2 (10.42) accepts but reads differently are rewritten to what
 * Python means (regex_translate).  Python-only syntax PCRE2 rejects, or
 * PCRE2-only syntax Python rejects (possessive quantifiers, \Q..\E), is
 * left alone: such a pattern either fails to compile here or is accepted
 * where Python would refuse it, never matched differently.  Known
 * remaining differences: Python's \s also matches U+001C..U+001F and its
 * \w follows str.isalnum(); a region name rarely tells them apart.
 *
 * Match data is made per call, which keeps a compiled regex immutable and
 * thread-safe; the subjects here are region names, so that costs nothing
 * measurable.  Every match runs under SV_REGEX_MATCH_LIMIT and
 * SV_REGEX_DEPTH_LIMIT (a match context made once per regex and only read
 * afterwards), so a catastrophic pattern such as "(a+)+$" costs a bounded
 * amount of work per name instead of PCRE2's default ten million steps;
 * the subjects where a limit stopped the match are counted (atomically)
 * for the caller's message.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "scopeview/regex.h"

#include <ctype.h>
#include <stdio.h>
#include <errno.h>
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

struct sv_regex {
	pcre2_code *code;
	pcre2_match_context *mctx;
	char *pattern;
	unsigned long limit_hits; /* updated with __atomic builtins */
};

/*
 * Python's re syntax that PCRE2 reads differently, rewritten for PCRE2
 * (each case checked against CPython's re):
 *  - "{,n}" and "{,}" are repeats in Python ({0,n}, {0,}) but literal text
 *    to PCRE2 before 10.43: "{" gets a "0";
 *  - "\Z" is the very end in Python, PCRE2's "\z" (PCRE2's "\Z" also
 *    matches before a final newline);
 *  - inside a set, "[" is a plain character in Python, so "[[:alpha:]]" is
 *    the set "[:alph" followed by "]", not a POSIX class: it is escaped;
 *  - "\uXXXX" and "\UXXXXXXXX" (code points, in and out of sets), which
 *    PCRE2 refuses, become "\x{XXXX}".
 * Escapes are copied whole, so "\{,2}" and "\\Z" stay as they are.
 * Returns the new pattern (malloc'd) and in *map, for each of its bytes,
 * the offset of the byte of pattern it came from (for error messages).
 */
static char *regex_translate(const char *pattern, size_t **map)
{
	size_t n = strlen(pattern), i = 0, o = 0, j;
	char *out = sv_xmalloc(2 * n + 1);
	size_t *m = sv_xmalloc((2 * n + 1) * sizeof *m);
	bool in_set = false;

#define REGEX_EMIT(ch, from) (m[o] = (from), out[o++] = (ch))
	while (i < n) {
		char c = pattern[i];
		size_t hex = 0;
		if (c == '\\' && i + 1 < n)
			hex = pattern[i + 1] == 'u'   ? 4
			      : pattern[i + 1] == 'U' ? 8
						      : 0;
		for (j = 0; j < hex; j++)
			if (!isxdigit((unsigned char)pattern[i + 2 + j]))
				hex = 0; /* stops at the terminating NUL too */
		if (hex) {
			REGEX_EMIT('\\', i);
			REGEX_EMIT('x', i + 1);
			REGEX_EMIT('{', i + 1);
			for (j = 0; j < hex; j++)
				REGEX_EMIT(pattern[i + 2 + j], i + 2 + j);
			REGEX_EMIT('}', i + 1 + hex);
			i += 2 + hex;
		} else if (c == '\\' && i + 1 < n) {
			REGEX_EMIT('\\', i);
			REGEX_EMIT(!in_set && pattern[i + 1] == 'Z'
					   ? 'z'
					   : pattern[i + 1],
				i + 1);
			i += 2;
		} else if (in_set) {
			if (c == ']')
				in_set = false;
			else if (c == '[')
				REGEX_EMIT('\\', i);
			REGEX_EMIT(c, i);
			i++;
		} else if (c == '[') {
			REGEX_EMIT(c, i++);
			if (i < n && pattern[i] == '^') {
				REGEX_EMIT('^', i);
				i++;
			}
			if (i < n && pattern[i] == ']') { /* a leading ']' */
				REGEX_EMIT('\\', i);
				REGEX_EMIT(']', i);
				i++;
			}
			in_set = true;
		} else {
			REGEX_EMIT(c, i);
			if (c == '{' && i + 1 < n && pattern[i + 1] == ',') {
				for (j = i + 2; j < n && pattern[j] >= '0' &&
						pattern[j] <= '9';
					j++)
					;
				if (j < n && pattern[j] == '}')
					REGEX_EMIT('0', i);
			}
			i++;
		}
	}
#undef REGEX_EMIT
	m[o] = n;
	out[o] = '\0';
	*map = m;
	return out;
}

struct sv_regex *sv_regex_compile(const char *pattern, struct sv_error *err)
{
	struct sv_regex *re;
	pcre2_code *code;
	pcre2_compile_context *ctx;
	int errcode;
	PCRE2_SIZE erroff;
	size_t *map;
	char *pcre;

	if (!pattern) {
		sv_error_set(err, -EINVAL, "bad regex: no pattern");
		return NULL;
	}
	ctx = pcre2_compile_context_create(NULL);
	if (!ctx)
		sv_die("out of memory");
	pcre2_set_newline(ctx, PCRE2_NEWLINE_LF);
	pcre = regex_translate(pattern, &map);
	code = pcre2_compile((PCRE2_SPTR)pcre, PCRE2_ZERO_TERMINATED,
		PCRE2_UTF | PCRE2_UCP, &errcode, &erroff, ctx);
	pcre2_compile_context_free(ctx);
	if (!code) {
		PCRE2_UCHAR msg[256];
		size_t at =
			erroff <= strlen(pcre) ? map[erroff] : strlen(pattern);
		if (pcre2_get_error_message(errcode, msg, sizeof msg) < 0)
			strcpy((char *)msg, "unknown error");
		sv_error_set(err, -EINVAL, "bad regex '%s': %s at offset %zu",
			pattern, (const char *)msg, at);
		free(pcre);
		free(map);
		return NULL;
	}
	free(pcre);
	free(map);
	re = sv_xcalloc(1, sizeof *re);
	re->code = code;
	re->mctx = pcre2_match_context_create(NULL);
	if (!re->mctx)
		sv_die("out of memory");
	pcre2_set_match_limit(re->mctx, SV_REGEX_MATCH_LIMIT);
	pcre2_set_depth_limit(re->mctx, SV_REGEX_DEPTH_LIMIT);
	re->pattern = sv_xstrdup(pattern);
	return re;
}

void sv_regex_free(struct sv_regex *re)
{
	if (!re)
		return;
	pcre2_code_free(re->code);
	pcre2_match_context_free(re->mctx);
	free(re->pattern);
	free(re);
}

const char *sv_regex_pattern(const struct sv_regex *re)
{
	return re ? re->pattern : NULL;
}

unsigned long sv_regex_limit_hits(const struct sv_regex *re)
{
	return re ? __atomic_load_n(&re->limit_hits, __ATOMIC_RELAXED) : 0;
}

/* Run re on subject with options; on a match store the first match's
 * bounds.  Errors (bad UTF-8, match limits) count as no match. */
static bool regex_run(const struct sv_regex *re, const char *subject,
	uint32_t options, size_t *start, size_t *end)
{
	pcre2_match_data *md;
	int rc;

	if (!re || !subject)
		return false;
	md = pcre2_match_data_create_from_pattern(re->code, NULL);
	if (!md)
		sv_die("out of memory");
	rc = pcre2_match(re->code, (PCRE2_SPTR)subject, strlen(subject), 0,
		options, md, re->mctx);
	if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
		rc == PCRE2_ERROR_HEAPLIMIT)
		__atomic_fetch_add(
			(unsigned long *)&re->limit_hits, 1, __ATOMIC_RELAXED);
	if (rc >= 0) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		if (start)
			*start = ov[0];
		if (end)
			*end = ov[1];
	}
	pcre2_match_data_free(md);
	return rc >= 0;
}

bool sv_regex_match(const struct sv_regex *re, const char *subject)
{
	return regex_run(re, subject, PCRE2_ANCHORED, NULL, NULL);
}

bool sv_regex_search(const struct sv_regex *re, const char *subject,
	size_t *start, size_t *end)
{
	return regex_run(re, subject, 0, start, end);
}

void sv_regex_limit_message(
	const struct sv_regex *re, unsigned long n, char *buf, size_t size)
{
	snprintf(buf, size,
		"regex '%s' gave up on %lu name%s (PCRE2 match limit reached; "
		"counted as not matching)",
		re ? re->pattern : "", n, n == 1 ? "" : "s");
}

bool sv_regex_list_add(
	struct sv_regex_list *l, const char *pattern, struct sv_error *err)
{
	struct sv_regex *re = sv_regex_compile(pattern, err);
	if (!re)
		return false;
	sv_grow((void **)&l->re, &l->cap, l->n + 1, sizeof *l->re);
	l->re[l->n++] = re;
	return true;
}

void sv_regex_list_fini(struct sv_regex_list *l)
{
	size_t i;
	if (!l)
		return;
	for (i = 0; i < l->n; i++)
		sv_regex_free(l->re[i]);
	free(l->re);
	memset(l, 0, sizeof *l);
}
