/*
 * app_loader.c: the viewer's background load (app_priv.h): first the
 * index alone (summary_only: names and stored statistics, quick), then
 * the whole file with progress and cancellation, then the view (or the
 * second run's index) built on the same thread.  The thread only fills
 * its own struct under a mutex; the loop (app.c) polls it and adopts
 * what it finds.  The thread never touches the loop's view, grid or
 * terminal.  Nothing here includes curses or HDF5.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/budget.h"
#include "scopeview/heap.h"
#include "scopeview/job.h"
#include "scopeview/profile.h"
#include "scopeview/app.h"

#include "app_priv.h"

/* ---- views ------------------------------------------------------------ */

/* A new view of p, or NULL with err. */
struct sv_view *app_view_new(const struct sv_profile *p,
	const struct sv_view_opts *vo, struct sv_error *err)
{
	struct sv_view *v = sv_xcalloc(1, sizeof *v);

	if (sv_view_init(v, p, vo, err) < 0) {
		free(v);
		return NULL;
	}
	return v;
}

void app_view_free(struct sv_view *v)
{
	if (!v)
		return;
	sv_view_fini(v);
	free(v);
}

/* ---- the loading thread ------------------------------------------------- */

/* Load threads still inside a file (reading it through the source), over
 * the whole process: while there is one, leaving through exit() would run
 * the HDF5 library's exit handler under its feet (sv_app_loads_in_file). */
static atomic_int loader_in_file;

bool sv_app_loads_in_file(void)
{
	return atomic_load(&loader_in_file) > 0;
}

/* The thread is out of the file (once per load; under l->mu). */
static void loader_leave_file(struct app_loader *l)
{
	if (l->in_file) {
		l->in_file = false;
		atomic_fetch_sub(&loader_in_file, 1);
	}
}

/* Free the loader and anything it still holds (its thread is gone). */
static void loader_destroy(struct app_loader *l)
{
	sv_profile_free(l->index);
	sv_profile_free(l->donor);
	app_view_free(l->view);
	sv_run_prep_fini(&l->prep);
	sv_profile_free(l->result);
	pthread_mutex_destroy(&l->mu);
	free(l->title);
	free(l->path);
	free(l);
}

static void loader_progress(void *ctx, double fraction, const char *what)
{
	struct app_loader *l = ctx;

	pthread_mutex_lock(&l->mu);
	if (fraction < 0)
		fraction = 0;
	if (fraction > 1)
		fraction = 1;
	l->fraction = fraction;
	snprintf(l->what, sizeof l->what, "%s", what ? what : "");
	l->progress_seq++;
	pthread_mutex_unlock(&l->mu);
}

static int loader_cancelled(void *ctx)
{
	struct app_loader *l = ctx;
	return atomic_load(&l->cancel);
}

/* The load copied what it could from the previous profile: let it go,
 * and its pages back to the system when the view no longer holds it
 * either, before the nesting's memory is taken. */
static void loader_donor_done(void *ctx)
{
	struct app_loader *l = ctx;

	sv_profile_free(l->donor);
	l->donor = NULL;
	sv_heap_trim();
}

/* Past the file: q need not wait for the rest (loader_stop). */
static void loader_file_done(void *ctx)
{
	struct app_loader *l = ctx;
	pthread_mutex_lock(&l->mu);
	l->past_file = true;
	loader_leave_file(l);
	pthread_mutex_unlock(&l->mu);
}

/*
 * The ranks the memory budget lets o read, from ix (an index-only load of
 * the file): set in o (the array is returned, for the caller to free) and
 * in l; NULL when everything asked for fits (o unchanged).
 */
static bool *loader_budget(struct app_loader *l, const struct sv_profile *ix,
	struct sv_load_opts *o)
{
	uint32_t n = sv_budget_nranks(ix), left, r;
	uint64_t bytes = 0;
	bool *on = sv_xcalloc(n ? n : 1, sizeof *on);

	left = sv_budget_pick(ix, l->source.memory, l->source.prefer,
		l->source.nprefer, on, n, &bytes);
	if (o->rank_on) {
		/* --ranks: only those, and only those count as left out. */
		left = 0;
		for (r = 0; r < n; r++) {
			bool asked = r < o->nrank_on && o->rank_on[r];
			if (asked && !on[r])
				left++;
			on[r] = on[r] && asked;
		}
	}
	pthread_mutex_lock(&l->mu);
	l->budget_left = left;
	l->budget_bytes = bytes;
	pthread_mutex_unlock(&l->mu);
	if (!left) {
		free(on);
		return NULL;
	}
	o->rank_on = on;
	o->nrank_on = n;
	o->absent_lanes = true;
	return on;
}

static void *loader_main(void *arg)
{
	struct app_loader *l = arg;
	struct sv_load_opts o;
	struct sv_view *view = NULL;
	struct sv_profile *p = NULL;
	struct sv_error err;
	bool *budget_on = NULL;
	int rc;

	/* What the load frees (the read's ends, the columns as they are
	 * packed) is what it allocates next: kept in the heap until the
	 * view is made (heap.h). */
	sv_heap_hold();
	if (l->source.thread_init)
		l->source.thread_init();
	memset(&o, 0, sizeof o);
	o.progress = loader_progress;
	o.cancelled = loader_cancelled;
	o.ctx = l;
	o.file_done = loader_file_done;
	o.rank_on = l->source.rank_on;
	o.nrank_on = l->source.nrank_on;
	o.pack = true;
	o.pack_min_calls = SV_PACK_MIN_CALLS;
	o.donor = l->donor;
	o.donor_done = l->donor ? loader_donor_done : NULL;
	if (l->want_index || (l->source.memory && !l->want_second)) {
		/* Quick: names and stored statistics, shown while the calls
		 * load, and what a memory budget needs to know.  A failure
		 * here is reported by the full load. */
		struct sv_load_opts io = o;
		io.progress = NULL;
		io.file_done = NULL;
		io.donor = NULL;
		io.donor_done = NULL;
		io.summary_only = true;
		memset(&err, 0, sizeof err);
		if (l->source.load(l->path, &io, &p, &err) == 0 &&
			l->source.memory && !l->want_second)
			budget_on = loader_budget(l, p, &o);
		if (p && !l->want_index) {
			sv_profile_free(p);
			p = NULL;
		} else if (p) {
			pthread_mutex_lock(&l->mu);
			l->index = p;
			l->progress_seq++;
			pthread_mutex_unlock(&l->mu);
			sv_job_wake(); /* the first frame */
			p = NULL;
		}
	}
	memset(&err, 0, sizeof err);
	rc = l->source.load(l->path, &o, &p, &err);
	if (l->donor) /* a load that did not get as far as the calls */
		loader_donor_done(l);
	free(budget_on);
	o.rank_on = NULL;
	pthread_mutex_lock(&l->mu);
	loader_leave_file(l);
	pthread_mutex_unlock(&l->mu);
	/* What the load freed (the int64 columns read, the nesting's
	 * columns once packed) goes back to the system before the view is
	 * made: kept, the view's index would be made of it and of more
	 * pages beside it, the peak of the whole open (1.30x the memory
	 * ready at 100M calls; given back, 1.2x, for some 0.1 s more of
	 * page faults). */
	sv_heap_release();
	if (rc == 0 && !atomic_load(&l->cancel)) {
		/* The view (the layout index and the statistics), or what
		 * a second run or a reload needs of them, off the loop's
		 * thread: keys keep answering meanwhile. */
		loader_progress(l, 1.0,
			l->want_second ? "the index"
				       : "the index and statistics");
		pthread_mutex_lock(&l->mu);
		l->building_view = true;
		pthread_mutex_unlock(&l->mu);
		if (l->want_view) {
			view = app_view_new(p, &l->vo, &err);
			rc = view ? 0 : err.code < 0 ? err.code : -EIO;
		} else {
			rc = sv_run_prepare(&l->prep, p, &err);
		}
		if (rc < 0) {
			sv_profile_free(p);
			p = NULL;
		}
	}
	pthread_mutex_lock(&l->mu);
	l->rc = rc;
	l->err = err;
	l->result = rc == 0 ? p : NULL;
	l->view = view;
	l->done = true;
	l->progress_seq++;
	if (l->abandoned) {
		pthread_mutex_unlock(&l->mu);
		loader_destroy(l);
		return NULL;
	}
	pthread_mutex_unlock(&l->mu);
	sv_job_wake();
	return NULL;
}

struct app_loader *app_loader_start(const struct sv_source *source,
	const char *path, bool want_index, const struct sv_view_opts *vo,
	bool want_second)
{
	struct app_loader *l = sv_xcalloc(1, sizeof *l);
	sigset_t all, old;

	l->path = sv_xstrdup(path);
	l->source = *source;
	l->source.donor = NULL;
	if (source->donor)
		l->donor = sv_profile_ref(source->donor);
	l->want_index = want_index;
	l->want_view = vo != NULL;
	l->want_second = want_second;
	if (vo) {
		l->vo = *vo;
		l->title = vo->title ? sv_xstrdup(vo->title) : NULL;
		l->vo.title = l->title;
	}
	atomic_init(&l->cancel, 0);
	pthread_mutex_init(&l->mu, NULL);
	l->in_file = true;
	atomic_fetch_add(&loader_in_file, 1);
	/* Signals (Ctrl-C, Ctrl-Z, resize) belong to the loop's thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (pthread_create(&l->thread, NULL, loader_main, l) == 0)
		l->started = true;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!l->started)
		loader_main(l); /* no thread: load here (and out of the file) */
	return l;
}

/* Wait for the thread and free the loader and anything it still holds. */
void app_loader_free(struct app_loader *l)
{
	if (!l)
		return;
	if (l->started)
		pthread_join(l->thread, NULL);
	loader_destroy(l);
}

/*
 * Stop the load for good (q): cancel it and, while the thread runs, do
 * not wait for it: it sees the flag after the chunk it reads (the
 * reader looks between chunks) or runs on through memory work no flag
 * stops (nesting, building the view), and frees everything when it is
 * done, unless the process ends first.  So q answers at once at every
 * stage; a caller that leaves the process while the thread is still
 * inside the file does so with _exit (sv_app_loads_in_file).
 */
void app_loader_stop(struct app_loader *l)
{
	if (!l)
		return;
	atomic_store(&l->cancel, 1);
	pthread_mutex_lock(&l->mu);
	if (l->started && !l->done) {
		l->abandoned = true;
		pthread_mutex_unlock(&l->mu);
		pthread_detach(l->thread);
		return;
	}
	pthread_mutex_unlock(&l->mu);
	app_loader_free(l);
}
