/*
 * stats_ranks.c: rank lists as people type them ("0-3,7"): parsing into
 * a flags array for the table's filter.
 */
#include "stats_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Largest rank a rank list may name: the flags array is that long. */
#define STATS_MAX_RANK (1u << 24)

/* ---- rank lists ------------------------------------------------------------- */

static const char *stats_skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* A decimal rank at *s; advances *s. */
static int stats_parse_rank(const char **s, uint32_t *out)
{
	const char *q = *s;
	uint64_t v = 0;

	if (*q < '0' || *q > '9')
		return -1;
	while (*q >= '0' && *q <= '9') {
		v = v * 10 + (uint64_t)(*q - '0');
		if (v >= STATS_MAX_RANK)
			return -2;
		q++;
	}
	*out = (uint32_t)v;
	*s = q;
	return 0;
}

int sv_stats_parse_ranks(
	const char *spec, bool **on, uint32_t *n, struct sv_error *err)
{
	const char *s;
	uint32_t max = 0, pass;
	bool *flags = NULL, any = false;

	if (!spec || !on || !n)
		return sv_error_set(err, -EINVAL, "bad rank list: none given");
	/* Pass 0 validates and finds the largest rank; pass 1 sets flags. */
	for (pass = 0; pass < 2; pass++) {
		s = spec;
		for (;;) {
			uint32_t a, b;
			int rc;

			s = stats_skip_blank(s);
			rc = stats_parse_rank(&s, &a);
			if (rc == -2)
				goto too_large;
			if (rc)
				return sv_error_set(err, -EINVAL,
					"bad rank list '%s': expected a rank "
					"number at %s%s%s",
					spec, *s ? "'" : "the end", s,
					*s ? "'" : "");
			b = a;
			s = stats_skip_blank(s);
			if (*s == '-') {
				s = stats_skip_blank(s + 1);
				rc = stats_parse_rank(&s, &b);
				if (rc == -2)
					goto too_large;
				if (rc)
					return sv_error_set(err, -EINVAL,
						"bad rank list '%s': expected "
						"the end of a range at %s%s%s",
						spec, *s ? "'" : "the end", s,
						*s ? "'" : "");
				if (b < a)
					return sv_error_set(err, -EINVAL,
						"bad rank list '%s': range "
						"%u-%u runs backwards",
						spec, a, b);
				s = stats_skip_blank(s);
			}
			if (pass == 0) {
				if (!any || b > max)
					max = b;
				any = true;
			} else {
				uint32_t r;
				for (r = a; r <= b; r++)
					flags[r] = true;
			}
			if (*s == ',') {
				s++;
				continue;
			}
			if (*s)
				return sv_error_set(err, -EINVAL,
					"bad rank list '%s': unexpected '%c'",
					spec, *s);
			break;
		}
		if (pass == 0)
			flags = sv_xcalloc((size_t)max + 1, sizeof *flags);
	}
	*on = flags;
	*n = max + 1;
	return 0;
too_large:
	free(flags);
	return sv_error_set(err, -EINVAL,
		"bad rank list '%s': ranks must be below %u", spec,
		STATS_MAX_RANK);
}
