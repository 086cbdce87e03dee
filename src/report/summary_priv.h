/*
 * summary_priv.h: what the parts of `scopeview summary`'s writer share
 * (summary.c, summary_counters.c).  Private to src/report.
 */
#ifndef SCOPEVIEW_REPORT_SUMMARY_PRIV_H
#define SCOPEVIEW_REPORT_SUMMARY_PRIV_H

#include <stdio.h>

#include "scopeview/profile.h"
#include "scopeview/stats.h"
#include "scopeview/summary.h"

/* s as a JSON string (NULL as ""). */
void sv_summary_json_str(FILE *out, const char *s);

/* v as a JSON number (sv_summary_number: null for NaN, infinities). */
void sv_summary_json_num(FILE *out, double v);

/* --counters: the region's counter sets as a JSON member
 * (",\n      \"counters\": [...]"), at the indentation of a region. */
void sv_summary_counters_json(
	FILE *out, const struct sv_profile *p, const struct sv_stats_region *g);

/* --counters: a section after the table, one line per counter set of
 * each region of t, in t's order ("" when the profile has none). */
void sv_summary_counters_table(
	FILE *out, const struct sv_profile *p, const struct sv_stats_table *t);

#endif
