/*
 * regex.h: Perl-compatible regular expressions (PCRE2, UTF mode with
 * Unicode properties), as close to Python's re module as C gets.  Used for
 * scope-profiler's --include / --exclude region filters (anchored at the
 * start of the name, like re.match) and for the viewer's search
 * (unanchored, like re.search).
 *
 * The pattern is read with Python's meaning where PCRE2 would read the
 * same text differently ("{,n}", "\Z", "[" inside a set) or refuses it
 * ("\uXXXX"); see regex.c.
 * Patterns and subjects are UTF-8.  A compiled regex is immutable and may
 * be used from several threads at once.  Nothing here prints.
 */
#ifndef SCOPEVIEW_REGEX_H
#define SCOPEVIEW_REGEX_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_MODEL)
#error "scopeview/regex.h belongs to the model layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>

#include "scopeview/common.h"

struct sv_regex;

/*
 * Compile pattern.  Returns a new regex (free with sv_regex_free), or NULL
 * with err filled ("bad regex 'a(': missing closing parenthesis at offset
 * 2"; code -EINVAL).  A NULL pattern is an error too.
 */
struct sv_regex *sv_regex_compile(const char *pattern, struct sv_error *err);

/* NULL-safe. */
void sv_regex_free(struct sv_regex *re);

/* A growable list of compiled regexes (a command line's repeated
 * --include or --exclude).  Zero-initialised is empty. */
struct sv_regex_list {
	struct sv_regex **re;
	size_t n, cap;
};
/* Compile pattern and append it; false (with err) when it does not
 * compile. */
bool sv_regex_list_add(
	struct sv_regex_list *l, const char *pattern, struct sv_error *err);
/* Free every regex and the list's array; NULL-safe. */
void sv_regex_list_fini(struct sv_regex_list *l);

/* The pattern text the regex was compiled from (owned by re). */
const char *sv_regex_pattern(const struct sv_regex *re);

/*
 * The work one match may take: PCRE2's match limit (backtracking steps)
 * and depth limit (nested backtracking points).  A match that hits either
 * counts as no match and adds one to sv_regex_limit_hits(); names and
 * patterns that need more are not region filters anyone writes.
 */
#define SV_REGEX_MATCH_LIMIT 100000u
#define SV_REGEX_DEPTH_LIMIT 5000u

/* How many matches of re stopped at a limit so far (0 for NULL). */
unsigned long sv_regex_limit_hits(const struct sv_regex *re);

/* The message for n subjects (n > 0) that hit a limit, e.g. "regex
 * '(a+)+$' gave up on 3 names (PCRE2 match limit reached; counted as not
 * matching)". */
void sv_regex_limit_message(
	const struct sv_regex *re, unsigned long n, char *buf, size_t size);

/* Whether re matches at the start of subject (Python's re.match).  False
 * for a NULL subject or an invalid UTF-8 subject. */
bool sv_regex_match(const struct sv_regex *re, const char *subject);

/*
 * Whether re matches anywhere in subject (Python's re.search).  When it
 * does and start/end are not NULL, the first match is [*start, *end) in
 * bytes.
 */
bool sv_regex_search(const struct sv_regex *re, const char *subject,
	size_t *start, size_t *end);

#endif
