/*
 * regex.c: a small PCRE2 wrapper (see regex.h).
 *
 * Patterns compile in UTF mode with PCRE2_UCP, so \w, \d, \s and \b are
 * Unicode-aware as in Python 3's re with str patterns.  Match data is made
 * per call, which keeps a compiled regex immutable and thread-safe; the
 * subjects here are region names, so that costs nothing measurable.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "scopeview/regex.h"

#include <errno.h>
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

struct sv_regex {
	pcre2_code *code;
	char *pattern;
};

struct sv_regex *sv_regex_compile(const char *pattern, struct sv_error *err)
{
	struct sv_regex *re;
	pcre2_code *code;
	int errcode;
	PCRE2_SIZE erroff;

	if (!pattern) {
		sv_error_set(err, -EINVAL, "bad regex: no pattern");
		return NULL;
	}
	code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
		PCRE2_UTF | PCRE2_UCP, &errcode, &erroff, NULL);
	if (!code) {
		PCRE2_UCHAR msg[256];
		if (pcre2_get_error_message(errcode, msg, sizeof msg) < 0)
			strcpy((char *)msg, "unknown error");
		sv_error_set(err, -EINVAL, "bad regex '%s': %s at offset %zu",
			pattern, (const char *)msg, (size_t)erroff);
		return NULL;
	}
	re = sv_xcalloc(1, sizeof *re);
	re->code = code;
	re->pattern = sv_xstrdup(pattern);
	return re;
}

void sv_regex_free(struct sv_regex *re)
{
	if (!re)
		return;
	pcre2_code_free(re->code);
	free(re->pattern);
	free(re);
}

const char *sv_regex_pattern(const struct sv_regex *re)
{
	return re ? re->pattern : NULL;
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
		options, md, NULL);
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
