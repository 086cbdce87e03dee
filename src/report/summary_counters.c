/*
 * summary_counters.c: `scopeview summary --counters`: the hardware
 * counters of each region (perf_events and LIKWID, doc/format.md 4.12)
 * with the rates their names allow, in the JSON and the table.
 */
#include "summary_priv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/common.h"
#include "scopeview/counters.h"

/* "key": an inline object of n names and values. */
static void counters_json_map(struct sv_json *j, const char *key,
	char *const *names, const double *vals, size_t n)
{
	size_t i;

	sv_json_key(j, key);
	sv_json_object(j, SV_JSON_INLINE);
	for (i = 0; i < n; i++) {
		sv_json_key(j, names[i]);
		sv_json_double(j, vals[i]);
	}
	sv_json_end(j);
}

void sv_summary_counters_json(struct sv_json *j, const struct sv_profile *p,
	const struct sv_stats_region *g)
{
	size_t i, k, nr;

	sv_json_key(j, "counters");
	sv_json_array(j, SV_JSON_PRETTY);
	for (i = 0; i < p->ncounters; i++) {
		const struct sv_counters *c = &p->counters[i];
		struct sv_counter_rate rates[4];
		if (strcmp(c->region, g->name))
			continue;
		sv_json_object(j, SV_JSON_INLINE);
		sv_json_key(j, "rank");
		sv_json_u64(j, c->rank);
		sv_json_key(j, "source");
		sv_json_string(j, c->likwid ? "likwid" : "perf_events");
		sv_json_key(j, "group");
		if (c->group)
			sv_json_string(j, c->group);
		else
			sv_json_null(j);
		sv_json_opt_i64(j, "calls", c->calls >= 0, c->calls);
		sv_json_opt_double(j, "time", c->time_s >= 0, c->time_s);
		sv_json_key(j, "threads");
		sv_json_u64(j, c->nthreads);
		counters_json_map(
			j, "events", c->events, c->values, c->nevents);
		counters_json_map(j, "metrics", c->metrics, c->metric_values,
			c->nmetrics);
		sv_json_key(j, "rates");
		sv_json_object(j, SV_JSON_INLINE);
		nr = sv_counters_rates(c, rates, 4);
		for (k = 0; k < nr && k < 4; k++) {
			sv_json_key(j, rates[k].name);
			sv_json_double(j, rates[k].value);
		}
		sv_json_end(j);
		sv_json_end(j);
	}
	sv_json_end(j);
}

void sv_summary_counters_table(
	FILE *out, const struct sv_profile *p, const struct sv_stats_table *t)
{
	size_t r, i, e, nr;

	fputs("\n  Hardware counters (summed over a set's threads; LIKWID's "
	      "metrics averaged):\n",
		out);
	if (!p->ncounters) {
		fputs("    (the profile holds none)\n", out);
		return;
	}
	for (r = 0; r < t->nregions; r++) {
		for (i = 0; i < p->ncounters; i++) {
			const struct sv_counters *c = &p->counters[i];
			struct sv_counter_rate rates[4];
			char *name;
			if (strcmp(c->region, t->regions[r].name))
				continue;
			name = sv_utf8_terminal_safe(c->region, NULL);
			fprintf(out, "    %s  rank %" PRIu32 "  %s%s%s", name,
				c->rank, c->likwid ? "likwid" : "perf",
				c->group ? " " : "", c->group ? c->group : "");
			free(name);
			if (c->calls >= 0)
				fprintf(out, "  calls %" PRId64, c->calls);
			for (e = 0; e < c->nevents; e++) {
				char *en = sv_utf8_terminal_safe(
					c->events[e], NULL);
				fprintf(out, "  %s %.6g", en, c->values[e]);
				free(en);
			}
			for (e = 0; e < c->nmetrics; e++) {
				char *mn = sv_utf8_terminal_safe(
					c->metrics[e], NULL);
				fprintf(out, "  %s %.4g", mn,
					c->metric_values[e]);
				free(mn);
			}
			nr = sv_counters_rates(c, rates, 4);
			for (e = 0; e < nr && e < 4; e++)
				fprintf(out, "  %s %.3f", rates[e].name,
					rates[e].value);
			fputc('\n', out);
		}
	}
}
