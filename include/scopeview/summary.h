/*
 * summary.h: `scopeview summary`, the statistics of a profile as a table
 * for people, CSV for spreadsheets or JSON for scripts.
 *
 * The writers take a finished profile and a statistics table computed by
 * stats.h (whatever selection and order it has) and print to a stream.
 * They never exit.  Figures are printed in seconds (JSON, CSV) or in human
 * units (table); absent figures are null (JSON), empty (CSV) or "-"
 * (table), never zeros.  Names are written as stored in CSV and escaped
 * as JSON strings in JSON (json.h: bytes that are not UTF-8 as U+FFFD);
 * the table shows control characters visibly (\xNN), because it goes to
 * a terminal.
 */
#ifndef SCOPEVIEW_SUMMARY_H
#define SCOPEVIEW_SUMMARY_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_REPORT)
#error "scopeview/summary.h belongs to the report layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "scopeview/profile.h"
#include "scopeview/stats.h"

enum sv_summary_format {
	SV_SUMMARY_TABLE,
	SV_SUMMARY_CSV,
	SV_SUMMARY_JSON,
};

/* One value of the --group-by key: the statistics of the calls that
 * have it (sv_stats_filter.call_on), over the same selection. */
struct sv_summary_group {
	const char *value; /* compact JSON text; NULL = calls without it */
	const struct sv_stats_table *t;
};

struct sv_summary_opts {
	enum sv_summary_format format;
	bool per_rank;     /* table and CSV: a row per rank under each region
			     (JSON always carries the ranks) */
	const char *file;  /* the path as given on the command line (JSON
			     "file", table header); NULL = p->path */
	const char *ranks; /* the --ranks list, named in the table's header
			      (NULL = every rank) */
	/* --group-by KEY: the key and its groups (those without calls in a
	 * region are left out there); NULL / 0 = no grouping. */
	const char *group_by;
	const struct sv_summary_group *groups;
	size_t ngroups;
	/* --counters: each region's hardware counters (JSON "counters",
	 * a section after the table; CSV has none). */
	bool counters;
	/* The whole run beside a rank subset: t's regions over every rank
	 * of the file (stats of sv_profile.run, or of the whole profile
	 * when every rank was read), as a second table and JSON
	 * "whole_run"; CSV has none.  NULL = none. */
	const struct sv_stats_table *run;
};

/*
 * Write t (computed from p) to out in o->format.  Returns 0, or -EIO when
 * the stream reported a write error.
 */
int sv_summary_write(FILE *out, const struct sv_profile *p,
	const struct sv_stats_table *t, const struct sv_summary_opts *o);

#endif
