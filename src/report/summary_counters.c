/*
 * summary_counters.c: `scopeview summary --counters`: the hardware
 * counters of each region (perf_events and LIKWID, doc/format.md 4.12)
 * with the rates their names allow, in the JSON and the table.
 */
#include "summary_priv.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/common.h"
#include "scopeview/counters.h"

/* A JSON object of n names and values. */
static void counters_json_map(
	FILE *out, char *const *names, const double *vals, size_t n)
{
	size_t i;

	fputc('{', out);
	for (i = 0; i < n; i++) {
		if (i)
			fputs(", ", out);
		sv_summary_json_str(out, names[i]);
		fputs(": ", out);
		sv_summary_json_num(out, vals[i]);
	}
	fputc('}', out);
}

void sv_summary_counters_json(
	FILE *out, const struct sv_profile *p, const struct sv_stats_region *g)
{
	size_t i, k, nr;
	bool any = false;

	fputs(",\n      \"counters\": [", out);
	for (i = 0; i < p->ncounters; i++) {
		const struct sv_counters *c = &p->counters[i];
		struct sv_counter_rate rates[4];
		if (strcmp(c->region, g->name))
			continue;
		fputs(any ? ",\n        {" : "\n        {", out);
		any = true;
		fprintf(out, "\"rank\": %" PRIu32 ", \"source\": \"%s\"",
			c->rank, c->likwid ? "likwid" : "perf_events");
		fputs(", \"group\": ", out);
		if (c->group)
			sv_summary_json_str(out, c->group);
		else
			fputs("null", out);
		fputs(", \"calls\": ", out);
		if (c->calls >= 0)
			fprintf(out, "%" PRId64, c->calls);
		else
			fputs("null", out);
		fputs(", \"time\": ", out);
		if (c->time_s >= 0)
			sv_summary_json_num(out, c->time_s);
		else
			fputs("null", out);
		fprintf(out, ", \"threads\": %" PRIu32 ", \"events\": ",
			c->nthreads);
		counters_json_map(out, c->events, c->values, c->nevents);
		fputs(", \"metrics\": ", out);
		counters_json_map(
			out, c->metrics, c->metric_values, c->nmetrics);
		fputs(", \"rates\": {", out);
		nr = sv_counters_rates(c, rates, 4);
		for (k = 0; k < nr && k < 4; k++) {
			fprintf(out, "%s\"%s\": ", k ? ", " : "",
				rates[k].name);
			sv_summary_json_num(out, rates[k].value);
		}
		fputs("}}", out);
	}
	fputs(any ? "\n      ]" : "]", out);
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
