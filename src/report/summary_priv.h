/*
 * summary_priv.h: what the parts of `scopeview summary`'s writer share
 * (summary.c, summary_counters.c).  Private to src/report.
 */
#ifndef SCOPEVIEW_REPORT_SUMMARY_PRIV_H
#define SCOPEVIEW_REPORT_SUMMARY_PRIV_H

#include <stdio.h>

#include "scopeview/json.h"
#include "scopeview/profile.h"
#include "scopeview/stats.h"
#include "scopeview/summary.h"

/* --counters: the region's counter sets as the member "counters" of the
 * region's object (an array of one inline object per set). */
void sv_summary_counters_json(struct sv_json *j, const struct sv_profile *p,
	const struct sv_stats_region *g);

/* --counters: a section after the table, one line per counter set of
 * each region of t, in t's order ("" when the profile has none). */
void sv_summary_counters_table(
	FILE *out, const struct sv_profile *p, const struct sv_stats_table *t);

#endif
