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
	struct sv_view *view;         /* of result, when want_view */
	struct sv_second_prep second; /* of result, when want_second */
	bool past_file;     /* the file is closed: memory work is left */
	bool in_file;       /* counted in the threads inside a file */
	bool building_view; /* the view is being built */
	bool abandoned;     /* nobody waits: the thread frees it all */
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

#endif
