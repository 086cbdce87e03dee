/*
 * dist_cmd.c: scopeview-mpi's engine (cli.h's struct sv_cli_engine): the
 * report commands' code is scopeview's own, and under this engine their
 * load and statistics are split over the job (dist_load.c,
 * dist_stats.c).  The profile a command gets is the whole file's rows on
 * process 0 and this process's share elsewhere; the engine keeps the
 * split profile behind it until the command releases it.
 */
#include "scopeview/dist.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/cli.h"

const char *const sv_dist_commands[] = {"summary", "tree", "ranks", "calls",
	"scaling", "diff", "trend", "export"};
const size_t sv_dist_ncommands =
	sizeof sv_dist_commands / sizeof sv_dist_commands[0];

/* The split profiles the commands hold (diff holds two). */
#define CMD_MAX_HELD 8
static struct sv_dist_profile *cmd_held[CMD_MAX_HELD];

static struct sv_profile *cmd_face(const struct sv_dist_profile *d)
{
	return sv_dist_rank() == 0 ? d->whole : d->local;
}

static struct sv_dist_profile *cmd_find(const struct sv_profile *p)
{
	size_t i;
	for (i = 0; p && i < CMD_MAX_HELD; i++)
		if (cmd_held[i] && cmd_face(cmd_held[i]) == p)
			return cmd_held[i];
	return NULL;
}

static int cmd_load(const char *path, const struct sv_load_opts *o,
	struct sv_profile **out, struct sv_error *err)
{
	struct sv_dist_profile *d = sv_xcalloc(1, sizeof *d);
	size_t i;
	int rc = sv_dist_load(path, o, d, err);

	if (rc < 0) {
		free(d);
		return rc;
	}
	for (i = 0; i < CMD_MAX_HELD && cmd_held[i]; i++)
		;
	if (i == CMD_MAX_HELD)
		sv_die("scopeview-mpi: too many profiles held at once");
	cmd_held[i] = d;
	*out = cmd_face(d);
	return 0;
}

static int cmd_table(struct sv_stats_table *t, const struct sv_profile *p,
	const struct sv_stats_filter *f, struct sv_error *err)
{
	const struct sv_dist_profile *d = cmd_find(p);

	if (!d) /* not a profile of this engine: one process's */
		return sv_stats_table_compute(t, p, f, err);
	return sv_dist_table(t, d, f, err);
}

static int cmd_callpath(struct sv_callpath *t, const struct sv_profile *p,
	const struct sv_callpath_scope *sc, struct sv_error *err)
{
	const struct sv_dist_profile *d = cmd_find(p);

	if (!d)
		return sv_callpath_build(t, p, sc, err);
	return sv_dist_callpath(t, d, sc, err);
}

static int64_t cmd_origin(const struct sv_profile *p)
{
	const struct sv_dist_profile *d = cmd_find(p);

	return d ? sv_dist_origin(d) : sv_profile_time_origin(p);
}

static int cmd_measure(struct sv_scaling_sample *s, const struct sv_profile *p,
	const char *file, const struct sv_scaling_opts *o, struct sv_error *err)
{
	const struct sv_dist_profile *d = cmd_find(p);

	if (!d)
		return sv_scaling_measure(s, p, file, o, err);
	return sv_dist_measure(s, d, file, o, err);
}

static int cmd_calls(struct sv_report_call_list *l, const struct sv_profile *p,
	const struct sv_calls_query *q, struct sv_error *err)
{
	const struct sv_dist_profile *d = cmd_find(p);

	if (!d)
		return sv_cli_calls_here(l, p, q, err);
	return sv_dist_calls(l, d, q, err);
}

static int cmd_hist(struct sv_hist *h, const struct sv_profile *p,
	const struct sv_calls_query *q, size_t nbins, struct sv_error *err)
{
	const struct sv_dist_profile *d = cmd_find(p);

	if (!d)
		return sv_cli_hist_here(h, p, q, nbins, err);
	return sv_dist_hist(h, d, q, nbins, err);
}

static bool cmd_per_call(const struct sv_profile *p)
{
	const struct sv_dist_profile *d = cmd_find(p);

	return d ? d->per_call : p->has_calls;
}

static int cmd_trend(struct sv_trend *t, const struct sv_profile *p,
	uint32_t region, const struct sv_trend_opts *o, struct sv_error *err)
{
	const struct sv_dist_profile *d = cmd_find(p);

	if (!d || region >= p->nregions)
		return sv_trend_compute(t, p, region, o, err);
	return sv_dist_trend(t, d, p->regions[region], o, err);
}

static int cmd_export(const struct sv_cli_export *x, const struct sv_profile *p,
	struct sv_error *err)
{
	const struct sv_dist_profile *d = cmd_find(p);

	if (!d)
		return sv_cli_export_here(x, p, err);
	return sv_dist_export(d, x, err);
}

static void cmd_release(struct sv_profile *p)
{
	struct sv_dist_profile *d = cmd_find(p);
	size_t i;

	if (!d) {
		sv_profile_free(p);
		return;
	}
	for (i = 0; i < CMD_MAX_HELD; i++)
		if (cmd_held[i] == d)
			cmd_held[i] = NULL;
	sv_dist_profile_fini(d);
	free(d);
}

const struct sv_cli_engine sv_dist_engine = {
	.load = cmd_load,
	.table = cmd_table,
	.callpath = cmd_callpath,
	.origin = cmd_origin,
	.measure = cmd_measure,
	.trend = cmd_trend,
	.release = cmd_release,
	.calls = cmd_calls,
	.hist = cmd_hist,
	.per_call = cmd_per_call,
	.export = cmd_export,
	.calls_here = false,
	.name = "scopeview-mpi",
};
