/*
 * app_priv.h: what app.c and app_loader.c share: the background load
 * (struct app_loader) and the views it builds.  Private to the viewer's
 * loop; nothing here is for other files.
 */
#ifndef SCOPEVIEW_APP_PRIV_H
#define SCOPEVIEW_APP_PRIV_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "scopeview/app.h"
#include "scopeview/grid.h"
#include "scopeview/session.h"
#include "scopeview/source.h"
#include "scopeview/view.h"

/* One background load.  Fields below mu are shared with the thread. */
struct app_loader {
	pthread_t thread;
	bool started;
	char *path;
	struct sv_source source;
	bool want_index;        /* read the index first (first load only) */
	bool want_view;         /* build the view of the result here too */
	bool want_second;       /* a second run: prepare it here too */
	struct sv_view_opts vo; /* for that view (title: a copy) */
	char *title;
	atomic_int cancel;

	pthread_mutex_t mu;
	double fraction;
	char what[48];
	unsigned progress_seq;    /* bumped on every progress report */
	struct sv_profile *index; /* summary-only profile, until taken */
	bool done;
	int rc;
	struct sv_error err;
	struct sv_profile *result;
	struct sv_view *view;    /* of result, when want_view */
	struct sv_run_prep prep; /* of result, for a second run or a
				    reload (no view made) */
	bool past_file;          /* the file is closed: memory work is left */
	bool in_file;            /* counted in the threads inside a file */
	bool building_view;      /* the view is being built */
	bool abandoned;          /* nobody waits: the thread frees it all */
	/* The previous load's profile, which the load may copy calls from
	 * (source.donor; a reference of the loader's own, NULL once let
	 * go).  Only the loading thread touches it. */
	struct sv_profile *donor;
	/* What the memory budget (source.memory) left out: ranks with calls
	 * not read (0: it read all it was asked for), and the estimated
	 * bytes of the calls read. */
	uint32_t budget_left;
	uint64_t budget_bytes;
};

/* The viewer's loop (app.c): see there. */
struct sv_app {
	struct sv_app_opts opts;
	char *path;
	char *title;

	struct sv_profile *profile;  /* what the view shows */
	struct sv_profile *profile2; /* the second run compared, or NULL */
	char *path2;                 /* its path (NULL: none asked for) */
	struct sv_view *view;        /* NULL until a profile is shown */
	struct sv_grid grid;

	struct app_loader *loader; /* NULL when no load runs */
	bool first_load;           /* the running load is the first one */
	bool second_load;          /* the running load is the second run */
	unsigned seen_seq;
	double fraction;
	char what[48];

	/* The memory budget (opts.source.memory; app_budget.c): when each
	 * rank was last asked for (by a load or the rank filter), the ranks
	 * the next load takes first (opts.source.prefer points here), the
	 * rank filter last acted on, and what the last load left out. */
	uint64_t *rank_tick;
	uint32_t nrank_tick;
	uint64_t tick;
	uint32_t *prefer;
	char budget_spec[64];
	uint32_t budget_left;
	uint64_t budget_bytes;
	/* A reload for other ranks runs: the view shows the index while it
	 * loads (the old calls are freed at once), and the call selected
	 * before it is selected again after. */
	bool budget_switch;
	struct sv_call_key budget_sel;
	int64_t budget_t0, budget_span, budget_cur; /* the window, cursor */
	int64_t budget_rank; /* the cursor's rank, or -1 */

	/* The runs workspace (app_runs.c; NULL: none), and while a pair of
	 * its runs is shown over it, its view, its placeholder profile and
	 * its title, kept aside. */
	struct sv_runs *runs;
	struct sv_view *ws_view;
	struct sv_profile *ws_profile;
	char *ws_title;
};

/* A new view of p, or NULL with err; freeing one (NULL-safe). */
struct sv_view *app_view_new(const struct sv_profile *p,
	const struct sv_view_opts *vo, struct sv_error *err);
void app_view_free(struct sv_view *v);

/* Start loading path through source (with the index first when
 * want_index; the view of the result built on the thread when vo is not
 * NULL, the second run's index when second). */
struct app_loader *app_loader_start(const struct sv_source *source,
	const char *path, bool want_index, const struct sv_view_opts *vo,
	bool second);
/* Wait for the thread and free the loader and what it still holds. */
void app_loader_free(struct app_loader *l);
/* Stop the load for good (q), at once at every stage. */
void app_loader_stop(struct app_loader *l);

/* Start a load (app.c): the first one when first, else a reload. */
void app_start_load(struct sv_app *a, bool first);
/* A status line message (app.c). */
void app_message(struct sv_app *a, bool is_error, const char *fmt, ...)
	SV_PRINTF(3, 4);

/* The runs workspace (app_runs.c).  Open it (opts.runs) as the view on
 * show: 0 or -errno with err. */
int app_runs_open(
	struct sv_app *a, const struct sv_backend *b, struct sv_error *err);
/* After a key: do what flags ask of the workspace (open a pair, leave
 * it, read the runs again for R, refuse :open), clearing those bits;
 * true when the screen changes. */
bool app_runs_flags(struct sv_app *a, int *flags);
/* Leave the pair for the workspace (its load stopped), with why in the
 * message line (NULL: none); false when no workspace is below. */
bool app_runs_back(struct sv_app *a, const char *why);
/* -EIO with err once every run is done and none could be read; else 0. */
int app_runs_check(struct sv_app *a, struct sv_error *err);
void app_runs_fini(struct sv_app *a);

/* The memory budget (app_budget.c).  After a load is shown: note its
 * ranks as the most recently asked for, and say what the budget left
 * out (left ranks, bytes estimated of what was read). */
void app_budget_loaded(struct sv_app *a, uint32_t left, uint64_t bytes);
/* After a key: when the rank filter asks for ranks not in memory, start
 * a reload that reads them first (leaving out the least recently asked
 * for to fit); true when it did. */
bool app_budget_follow(struct sv_app *a);
void app_budget_fini(struct sv_app *a);
/* The loader's index came during a reload for other ranks: show it in
 * place of the old calls (freed); true when it did. */
bool app_budget_index(struct sv_app *a, struct sv_profile *index);
/* The reload for other ranks ended (shown when ok): select again. */
void app_budget_switched(struct sv_app *a, bool ok);

#endif
