/*
 * budget.c: the memory budget of --memory (budget.h): sizes, the
 * default from /proc/meminfo's text, and which ranks fit.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/budget.h"

int sv_budget_parse(const char *text, uint64_t *bytes, struct sv_error *err)
{
	static const char units[] = "KMGT";
	const char *u;
	char *end;
	double v, scale = 1;

	if (!text || !*text || !(isdigit((unsigned char)*text) || *text == '.'))
		return sv_error_set(err, -EINVAL,
			"'%s' is not a size (e.g. 4G, 512M)", text ? text : "");
	v = strtod(text, &end);
	if (*end && (u = strchr(units, toupper((unsigned char)*end)))) {
		scale = ldexp(1.0, 10 * (int)(u - units + 1));
		end++;
		if (*end == 'i' || *end == 'I')
			end++;
	}
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end || !isfinite(v) || v * scale < 1 || v * scale > 9.0e18)
		return sv_error_set(err, -EINVAL,
			"'%s' is not a size (e.g. 4G, 512M)", text);
	*bytes = (uint64_t)(v * scale);
	return 0;
}

void sv_budget_format(char *buf, size_t n, uint64_t bytes)
{
	static const char units[] = "KMGT";
	double v = (double)bytes;
	int u = -1;

	while (v >= 1024 && u < 3) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, n, "%" PRIu64, bytes);
	else if (v < 9.95 && v != (double)(uint64_t)v)
		snprintf(buf, n, "%.1f%c", v, units[u]);
	else
		snprintf(buf, n, "%.0f%c", v, units[u]);
}

/* The kB figure of "Field:   123 kB" in meminfo, or -1. */
static double meminfo_kb(const char *text, const char *field)
{
	size_t n = strlen(field);
	const char *line;

	for (line = text; line && *line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (!strncmp(line, field, n) && line[n] == ':')
			return strtod(line + n + 1, NULL);
	}
	return -1;
}

uint64_t sv_budget_default(const char *meminfo)
{
	double kb;

	if (!meminfo)
		return 0;
	kb = meminfo_kb(meminfo, "MemAvailable");
	if (kb < 0)
		kb = meminfo_kb(meminfo, "MemFree");
	return kb > 0 ? (uint64_t)(kb * 1024 / 2) : 0;
}

uint64_t sv_budget_call_bytes(const struct sv_profile *index)
{
	uint32_t extra = index && index->event_columns > 2
				 ? index->event_columns - 2
				 : 0;
	return SV_BUDGET_CALL_BYTES + (uint64_t)extra * SV_BUDGET_COLUMN_BYTES;
}

uint32_t sv_budget_nranks(const struct sv_profile *index)
{
	uint32_t n = index->num_ranks;
	size_t i;

	for (i = 0; i < index->nrows; i++)
		if (index->rows[i].rank >= n)
			n = index->rows[i].rank + 1;
	return n;
}

uint32_t sv_budget_pick(const struct sv_profile *index, uint64_t budget,
	const uint32_t *prefer, uint32_t nprefer, bool *on, uint32_t nranks,
	uint64_t *bytes)
{
	uint64_t *calls = sv_xcalloc(nranks ? nranks : 1, sizeof *calls);
	uint64_t per = sv_budget_call_bytes(index), used = 0;
	uint32_t *order =
		sv_xmalloc((nranks + (size_t)nprefer + 1) * sizeof *order);
	bool *seen = sv_xcalloc(nranks ? nranks : 1, sizeof *seen);
	uint32_t norder = 0, left = 0, r, k;
	bool full = false, any = false;
	size_t i;

	for (i = 0; i < index->nrows; i++)
		if (index->rows[i].rank < nranks)
			calls[index->rows[i].rank] += index->rows[i].count;
	for (k = 0; k < nprefer; k++)
		if (prefer[k] < nranks && !seen[prefer[k]]) {
			seen[prefer[k]] = true;
			order[norder++] = prefer[k];
		}
	for (r = 0; r < nranks; r++)
		if (!seen[r])
			order[norder++] = r;
	memset(on, 0, nranks * sizeof *on);
	for (k = 0; k < norder; k++) {
		uint64_t cost;
		r = order[k];
		if (!calls[r]) {
			on[r] = true;
			continue;
		}
		cost = calls[r] * per;
		if (!full &&
			(!any || (used <= budget && cost <= budget - used))) {
			on[r] = true;
			used += cost;
			any = true;
		} else {
			full = true; /* the rest waits: no rank skipped over */
			left++;
		}
	}
	if (bytes)
		*bytes = used;
	free(order);
	free(seen);
	free(calls);
	return left;
}
