/*
 * scale_bench.c: the viewer at scale, against the h5py read of the same
 * file, as one table with the targets of issue 39.  Run through
 * bench/scale.sh (which writes the profiles), or by hand:
 *
 *     build/bench/scale_bench [--runs N] [--no-anchor] [--memory SIZE]
 *                             LABEL=FILE...
 *
 * For each FILE it times the inflate of every chunk of its event columns
 * on every core (bench_inflate.h: the limit no reader can beat), runs
 * bench/h5py_anchor.py (the bare h5py read of every column: seconds and
 * peak RSS), then the real viewer loop (sv_app_run,
 * the loader thread, the view, the renderer: everything but curses) in a
 * child process of its own, driven by a timing backend:
 *
 * - first frame: the first screen that shows the file (the index view);
 *   ready: the first screen of the full view (nesting, index, statistics);
 *   load: when the loader thread handed the profile over;
 * - RSS at ready (VmRSS) and the peak so far (VmHWM), in bytes per call;
 * - frame times (sv_render, median of 200: enough frames that a burst of
 *   noise on the machine does not move it) at the whole run, a middle zoom
 *   and the narrowest zoom;
 * - key latencies: the time from a key to the loop asking for the next
 *   one (what a user waits for the screen to answer).  During the load:
 *   the longest the loop went without reading a key, zoom keys, and q
 *   (in a second run that quits half-way through the read of the calls;
 *   the cell says whether the loader was still in the file then); after it:
 *   zoom, search Enter, solo and un-solo, the region filter (\kernel
 *   Enter; then \solve Enter typed while a filter \mpi is still being
 *   made, which stops it; then :filter Enter, which clears it), a rank
 *   filter (r0-7 Enter) and every rank again (r all Enter), the
 *   statistics of a range (the whole run zoomed in three times, an
 *   eighth of it, marked with O) and clearing it (X), and a search on a
 *   call field (/dur>1ms Enter), each with the time until its result is
 *   on screen (the loop idle: nothing left on a worker), and q; and the
 *   longest the loop went between two key reads with no key in between
 *   (taking in what the workers made, drawing).  Results are due within
 *   1 s, the call field's search within half the h5py read.
 *
 * Then `scopeview summary FILE` (the scopeview of the same build) in a
 * process of its own: its time against the h5py read and its peak RSS a
 * call, due at 100M calls within half the h5py read and 12 B/call.
 *
 * With --memory SIZE the viewer has that budget (scopeview --memory):
 * after the first frame (from the stored records, due within 2 s) and
 * the ranks that fit, the only keys are a switch of the ranks held
 * (":ranks A-B" Enter, as many ranks as are held, the last not held;
 * the result due within 10 s) and q; the table says how many ranks were
 * held and drawn from their stored rows (bench/scale.sh --sizes 1G).
 *
 * Prints one markdown table: each measure, its target and whether every
 * file met it; a cell marked * missed its target.  Figures are read, not
 * asserted: the exit status is 0 whenever every file could be measured.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "scopeview/app.h"
#include "scopeview/budget.h"
#include "scopeview/heap.h"
#include "scopeview/keys.h"
#include "scopeview/load.h"
#include "scopeview/render.h"
#include "scopeview/term.h"
#include "scopeview/timeline.h"
#include "scopeview/view.h"

#include "bench_clock.h"
#include "bench_frames.h"
#include "bench_inflate.h"
#include "bench_mem.h"

#ifndef SV_BENCH_DIR
#define SV_BENCH_DIR "bench"
#endif

#define SB_W      200
#define SB_H      60
#define SB_FRAMES 200
#define SB_FILES  16
/* The longest the script waits for a key's result. */
#define SB_STEP_MAX_S 120.0

/* What one file measured (in the child; sent to the parent whole). */
struct sb_result {
	int ok;
	uint64_t calls;
	double h5py_s, h5py_rss;                  /* s, bytes */
	double inflate_s, inflate_bytes;          /* bench_inflate.h's limit */
	double index_s, load_s, first_s, ready_s; /* s from the start */
	double file_s;              /* the file read and closed (file_done) */
	double ready_rss, peak_rss; /* bytes */
	double frame_ms[3];         /* full, middle, narrowest */
	double stall_ms;            /* longest gap between key reads
					      until ready */
	/* After it: the longest the loop went between two key reads with
	 * no key in between (polling, taking in background results,
	 * drawing). */
	double stall_ready_ms;
	double zoom_load_ms; /* zoom keys during the load */
	double q_load_ms;    /* q half-way through the load */
	int q_in_file;       /* the loader was still reading the file then */
	double zoom_ms, search_ms, solo_ms, unsolo_ms, q_ms; /* after */
	double search_done_s, solo_done_s, unsolo_done_s;
	double filter_ms, refilter_ms, unfilter_ms; /* the region filter */
	double filter_done_s, refilter_done_s, unfilter_done_s;
	/* A rank filter (r0-7 Enter) and back to every rank (r all); a
	 * range's statistics (the window of an eighth of the run marked, O)
	 * and back (X); a search on a call field (/dur>1ms Enter). */
	double ranks_ms, unranks_ms, range_ms, unrange_ms, field_ms;
	double ranks_done_s, unranks_done_s, range_done_s, unrange_done_s;
	double field_done_s;
	/* `scopeview summary FILE` in a process of its own: seconds and
	 * peak RSS (bytes); -1 when it could not be run. */
	double summary_s, summary_rss;
	/* Under a memory budget (--memory): the ranks of the file, those
	 * held when ready and those drawn from their stored rows; a switch
	 * of the ranks held (:ranks A-B Enter, as many ranks, those not
	 * held) and the time until the view holds them. */
	uint32_t ranks, held, from_rows, switched;
	uint64_t file_calls; /* the file's calls (calls: those held) */
	double switch_ms, switch_done_s;
};

/* ---- the timing backend ---------------------------------------------- */

enum sb_step {
	SB_LOADING,
	SB_ZOOM,
	SB_FIT,
	SB_SEARCH,
	SB_SOLO,
	SB_UNSOLO,
	SB_FILTER,
	SB_REFILTER,
	SB_UNFILTER,
	SB_RANKS,
	SB_UNRANKS,
	SB_RANGE,
	SB_UNRANGE,
	SB_FIELD,
	SB_SWITCH,
	SB_QUIT,
	SB_STEPS
};

struct sb_run {
	struct sb_result *r;
	struct sv_app *app;
	double t0;
	double quit_at;      /* > 0: press q at this time during the load */
	double returned;     /* when getkey last returned */
	double key_at;       /* when the key being timed was returned, or 0 */
	double returned_key; /* when the last key (not NONE) was returned */
	double *key_slot;    /* where its latency goes (max) */
	double *done_slot;   /* where the time to its result goes, or NULL */
	double done_from;
	double next_load_key;
	int load_key;
	bool ready;
	bool idle_poll; /* getkey last returned no key */
	enum sb_step step;
	const char *typing; /* keys still to type for the current step */
};

static struct sb_run sb;
/* --memory: the viewer's budget (0: none), and the :ranks command of its
 * switch, made when ready. */
static uint64_t sb_memory;
static char sb_switch_cmd[64];

static struct sv_view *sb_view(void)
{
	/* The app's own view: the bench reads and times it on the loop's
	 * thread, between keys, as a key handler would. */
	return (struct sv_view *)sv_app_view(sb.app);
}

static bool sb_view_ready(const struct sv_view *v)
{
	return v && v->s.p && v->s.p->has_calls && v->s.p->ncalls;
}

static void sb_size(void *ctx, int *w, int *h)
{
	(void)ctx;
	*w = SB_W;
	*h = SB_H;
}

/* Median frame time of the view at a window of span ns in the middle of
 * the run (bench_frames.h, as render_bench times it). */
static double sb_frames(struct sv_view *v, int64_t span)
{
	struct bench_frame_times ft;
	return bench_frames(v, span, SB_FRAMES, &ft) ? ft.median : 0;
}

/* The ranks held and drawn from stored rows, and the :ranks command
 * that holds as many others (the last ranks not held). */
static void sb_measure_budget(const struct sv_profile *p)
{
	uint32_t n = p->file_ranks ? p->file_ranks : p->num_ranks, r, k;
	bool *held = calloc(n ? n : 1, sizeof *held);
	size_t l;

	if (!held)
		return;
	for (l = 0; l < p->nlanes; l++) {
		r = p->lanes[l].rank;
		if (r < n && !sv_lane_not_read(p, &p->lanes[l]))
			held[r] = true;
	}
	sb.r->ranks = n;
	sb.r->file_calls = p->file_calls;
	sb.r->held = sb.r->from_rows = 0;
	for (r = 0; r < n; r++) {
		sb.r->held += held[r];
		sb.r->from_rows += !held[r];
	}
	/* The last sb.r->held ranks not held, as one range when they are
	 * one (the budget holds the first ranks). */
	sb_switch_cmd[0] = '\0';
	for (r = n, k = 0; r > 0 && k < sb.r->held; r--)
		k += !held[r - 1];
	if (k && sb.r->from_rows) {
		snprintf(sb_switch_cmd, sizeof sb_switch_cmd, ":ranks %u-%u",
			(unsigned)r, (unsigned)(n - 1));
		sb.r->switched = n - r;
	}
	free(held);
}

static void sb_measure_ready(struct sv_view *v)
{
	struct sv_timeline *tl = sv_view_timeline(v);
	int64_t run = v->s.run_t1 - v->s.run_t0, narrow;

	sb.r->ready_s = bench_now() - sb.t0;
	sb.r->ready_rss = bench_status_bytes("VmRSS");
	sb.r->peak_rss = bench_status_bytes("VmHWM");
	sb.r->calls = v->s.p->ncalls;
	if (sb_memory)
		sb_measure_budget(v->s.p);
	if (!tl)
		return;
	narrow = sv_timeline_min_span(tl);
	sb.r->frame_ms[0] = sb_frames(v, run);
	sb.r->frame_ms[1] =
		sb_frames(v, (int64_t)sqrt((double)run * (double)narrow));
	sb.r->frame_ms[2] = sb_frames(v, narrow);
	sv_timeline_fit(tl);
}

/* Start timing the key about to be returned. */
static int sb_key(int key, double *slot, double *done)
{
	sb.key_slot = slot;
	sb.done_slot = done;
	sb.key_at = 1; /* set for real when getkey returns */
	return key;
}

/* Type text (a prompt and what goes in it), then hand out the Enter,
 * timed into slot and done, and go on to step next. */
static int sb_enter_after(
	const char *text, enum sb_step next, double *slot, double *done)
{
	if (!sb.typing) {
		sb.typing = text;
		return *sb.typing++;
	}
	sb.step = next;
	sb.typing = NULL;
	return sb_key(SV_KEY_ENTER, slot, done);
}

/* Type keys (no Enter), then hand out key, timed into slot and done, and
 * go on to step next. */
static int sb_key_after(const char *text, int key, enum sb_step next,
	double *slot, double *done)
{
	if (!sb.typing) {
		sb.typing = text;
		return *sb.typing++;
	}
	sb.step = next;
	sb.typing = NULL;
	return sb_key(key, slot, done);
}

/* The next key of the script after the load (SV_KEY_NONE: wait). */
static int sb_script(bool idle)
{
	if (sb.typing && *sb.typing) {
		int c = *sb.typing++;
		return c == '\r' ? SV_KEY_ENTER : c;
	}
	/* The newer filter's Enter goes while the first is being made. */
	if (!idle && !(sb.step == SB_FILTER && sb.typing) &&
		bench_now() - sb.returned_key < SB_STEP_MAX_S)
		return SV_KEY_NONE; /* a result is still being made */
	if (!idle && sb.done_slot) {
		*sb.done_slot = -1; /* gave up waiting */
		sb.done_slot = NULL;
	}
	if (sb_memory && sb.step != SB_SWITCH && sb.step != SB_QUIT) {
		/* Under a budget: the switch of the ranks held, then q. */
		if (sb_switch_cmd[0])
			return sb_enter_after(sb_switch_cmd, SB_SWITCH,
				&sb.r->switch_ms, &sb.r->switch_done_s);
		sb.step = SB_SWITCH;
	}
	switch (sb.step) {
	case SB_SWITCH:
		sb.step = SB_QUIT;
		return sb_key('q', &sb.r->q_ms, NULL);
	case SB_LOADING:
		sb.step = SB_ZOOM;
		return sb_key('+', &sb.r->zoom_ms, NULL);
	case SB_ZOOM:
		sb.step = SB_FIT;
		return '0';
	case SB_FIT:
		return sb_enter_after("/kernel", SB_SEARCH, &sb.r->search_ms,
			&sb.r->search_done_s);
	case SB_SEARCH:
		sb.step = SB_SOLO;
		return sb_key('t', &sb.r->solo_ms, &sb.r->solo_done_s);
	case SB_SOLO:
		sb.step = SB_UNSOLO;
		return sb_key('t', &sb.r->unsolo_ms, &sb.r->unsolo_done_s);
	case SB_UNSOLO:
		return sb_enter_after("\\kernel", SB_FILTER, &sb.r->filter_ms,
			&sb.r->filter_done_s);
	case SB_FILTER:
		/* A filter set and, before it is made, another. */
		return sb_enter_after("\\mpi\r\\solve", SB_REFILTER,
			&sb.r->refilter_ms, &sb.r->refilter_done_s);
	case SB_REFILTER:
		return sb_enter_after(":filter", SB_UNFILTER,
			&sb.r->unfilter_ms, &sb.r->unfilter_done_s);
	case SB_UNFILTER:
		return sb_enter_after(
			"r0-7", SB_RANKS, &sb.r->ranks_ms, &sb.r->ranks_done_s);
	case SB_RANKS:
		return sb_enter_after("rall", SB_UNRANKS, &sb.r->unranks_ms,
			&sb.r->unranks_done_s);
	case SB_UNRANKS:
		/* The whole run, zoomed in three times: an eighth of it. */
		return sb_key_after("0+++", 'O', SB_RANGE, &sb.r->range_ms,
			&sb.r->range_done_s);
	case SB_RANGE:
		sb.step = SB_UNRANGE;
		return sb_key('X', &sb.r->unrange_ms, &sb.r->unrange_done_s);
	case SB_UNRANGE:
		return sb_enter_after("0/dur>1ms", SB_FIELD, &sb.r->field_ms,
			&sb.r->field_done_s);
	case SB_FIELD:
		sb.step = SB_QUIT;
		return sb_key('q', &sb.r->q_ms, NULL);
	default:
		return SV_KEY_EOF;
	}
}

/* Sleep ms, or less when a worker wakes the loop: the terminal's own
 * wake-up (term_wake.c), with no terminal input to wait for. */
static void sb_wait(int ms)
{
	while (sv_term_wait(-1, ms) < 0)
		;
}

static int sb_getkey(void *ctx, int timeout_ms)
{
	struct sv_view *v = sb_view();
	double now = bench_now();
	bool idle = timeout_ms < 0;
	int key = SV_KEY_NONE;

	(void)ctx;
	if (sb.key_at > 0) {
		double ms = (now - sb.key_at) * 1e3;
		if (ms > *sb.key_slot)
			*sb.key_slot = ms;
		sb.key_at = 0;
		if (sb.done_slot)
			sb.done_from = sb.returned;
	}
	if (sb.done_slot && idle) {
		*sb.done_slot = now - sb.done_from;
		sb.done_slot = NULL;
	}
	if (!sb.ready && sb.returned > 0 &&
		(now - sb.returned) * 1e3 > sb.r->stall_ms)
		sb.r->stall_ms = (now - sb.returned) * 1e3;
	if (sb.ready && sb.idle_poll &&
		(now - sb.returned) * 1e3 > sb.r->stall_ready_ms)
		sb.r->stall_ready_ms = (now - sb.returned) * 1e3;
	if (!sb.ready && sb_view_ready(v)) {
		sb.ready = true;
		sb_measure_ready(v);
		now = bench_now();
	}
	if (!sb.ready) {
		if (sb.quit_at > 0 && now - sb.t0 >= sb.quit_at) {
			sb.quit_at = 0;
			key = sb_key('q', &sb.r->q_load_ms, NULL);
		} else if (v && now >= sb.next_load_key) {
			/* Zoom in and out on the index view, 5 times a
			 * second: the stored statistics answer them. */
			sb.next_load_key = now + 0.2;
			key = sb_key(sb.load_key++ % 2 ? '-' : '+',
				&sb.r->zoom_load_ms, NULL);
		} else if (timeout_ms > 0) {
			sb_wait(timeout_ms > 20 ? 20 : timeout_ms);
		}
	} else {
		key = sb_script(idle);
		if (key == SV_KEY_NONE && timeout_ms > 0)
			sb_wait(2);
	}
	sb.returned = bench_now();
	sb.idle_poll = key == SV_KEY_NONE;
	if (key != SV_KEY_NONE)
		sb.returned_key = sb.returned;
	if (sb.key_at > 0)
		sb.key_at = sb.returned;
	return key;
}

static void sb_present(void *ctx, const struct sv_grid *g)
{
	(void)ctx;
	(void)g;
	if (sb.r->first_s <= 0 && sb_view())
		sb.r->first_s = bench_now() - sb.t0;
}

/* The loader's own file_done, called after noting the time. */
static void (*sb_file_done_next)(void *ctx);

static void sb_file_done(void *ctx)
{
	if (sb.r->file_s <= 0) /* the first load's, not a switch's */
		sb.r->file_s = bench_now() - sb.t0;
	if (sb_file_done_next)
		sb_file_done_next(ctx);
}

/* sv_load, noting when the index, the file and the whole profile are
 * read. */
static int sb_load(const char *path, const struct sv_load_opts *o,
	struct sv_profile **out, struct sv_error *err)
{
	struct sv_load_opts mine;
	int rc;

	if (o && !o->summary_only) {
		mine = *o;
		sb_file_done_next = o->file_done;
		mine.file_done = sb_file_done;
		o = &mine;
	}
	rc = sv_load(path, o, out, err);
	/* The first load's times, not a switch's. */
	if (o && o->summary_only && sb.r->index_s <= 0)
		sb.r->index_s = bench_now() - sb.t0;
	else if (o && !o->summary_only && sb.r->load_s <= 0)
		sb.r->load_s = bench_now() - sb.t0;
	return rc;
}

/* One run of the viewer on path; quit_at > 0 presses q then. */
static int sb_view_run(const char *path, double quit_at, struct sb_result *r)
{
	struct sv_app_opts ao;
	struct sv_backend b;
	struct sv_error err = {0, ""};
	double q0;
	int rc;

	memset(&sb, 0, sizeof sb);
	memset(&ao, 0, sizeof ao);
	sb.r = r;
	if (sb_memory) {
		/* Under a budget only the switch is asked for. */
		double *skip[] = {&r->zoom_ms, &r->search_ms, &r->solo_ms,
			&r->unsolo_ms, &r->filter_ms, &r->refilter_ms,
			&r->unfilter_ms, &r->ranks_ms, &r->unranks_ms,
			&r->range_ms, &r->unrange_ms, &r->field_ms};
		size_t i;
		for (i = 0; i < sizeof skip / sizeof skip[0]; i++)
			*skip[i] = -1;
	}
	sb.quit_at = quit_at;
	ao.path = path;
	ao.load_in_thread = true;
	ao.poll_ms = 20;
	ao.source.load = sb_load;
	ao.source.thread_init = sv_load_quiet_hdf5;
	ao.source.memory = sb_memory;
	b.size = sb_size;
	b.getkey = sb_getkey;
	b.present = sb_present;
	b.beep = NULL;
	b.wake = sv_term_wake;
	b.ctx = NULL;
	sb.app = sv_app_new(&ao);
	sb.t0 = bench_now();
	rc = sv_app_run(sb.app, &b, &err);
	q0 = sb.returned;
	/* q ends the loop: its latency is until the loop returned. */
	if (quit_at > 0) {
		r->q_load_ms = (bench_now() - q0) * 1e3;
		r->q_in_file = sv_app_loads_in_file();
	} else if (sb.step == SB_QUIT)
		r->q_ms = (bench_now() - q0) * 1e3;
	sv_app_free(sb.app);
	if (rc < 0) {
		fprintf(stderr, "scale_bench: %s: %s\n", path, err.msg);
		return -1;
	}
	return 0;
}

/* ---- one file, in a child process of its own --------------------------- */

static void sb_anchor(const char *path, struct sb_result *r)
{
	char cmd[4096], out[128] = "";
	double s = -1, kb = 0;
	FILE *f;

	snprintf(cmd, sizeof cmd, "/usr/bin/python3 '%s/h5py_anchor.py' '%s'",
		SV_BENCH_DIR, path);
	f = popen(cmd, "r");
	if (f) {
		if (fgets(out, sizeof out, f))
			sscanf(out, "%lf %lf", &s, &kb);
		if (pclose(f) != 0)
			s = -1;
	}
	if (s > 0 && (r->h5py_s <= 0 || s < r->h5py_s)) {
		r->h5py_s = s;
		r->h5py_rss = kb * 1024.0;
	}
}

/* `scopeview summary path` (the scopeview beside this program's
 * directory), its output thrown away: the best of the runs into r. */
static void sb_summary(const char *path, struct sb_result *r)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 32);
	struct rusage ru;
	double t0;
	char *slash;
	int status = 0;
	pid_t pid;

	if (n <= 0)
		return;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return;
	strcpy(slash, "/../scopeview");
	fflush(NULL);
	t0 = bench_now();
	pid = fork();
	if (pid < 0)
		return;
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		execl(exe, "scopeview", "summary", path, (char *)NULL);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
		WEXITSTATUS(status) != 0)
		return;
	t0 = bench_now() - t0;
	if (r->summary_s <= 0 || t0 < r->summary_s) {
		r->summary_s = t0;
		r->summary_rss = (double)ru.ru_maxrss * 1024.0;
	}
}

/* fn(arg, out) in a child, so that what it allocates is its own and no
 * later child's: the child starts with out as the caller has it and
 * sends it back whole.  0 when it did (out then holds the child's), -1
 * otherwise (out as it was). */
static int sb_in_child(void (*fn)(const void *arg, void *out), const void *arg,
	void *out, size_t size)
{
	int fd[2], status = 0;
	void *got = malloc(size);
	ssize_t n;
	pid_t pid;

	if (!got || pipe(fd) < 0) {
		free(got);
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		free(got);
		return -1;
	}
	if (pid == 0) {
		close(fd[0]);
		fn(arg, out);
		_exit(write(fd[1], out, size) == (ssize_t)size ? 0 : 1);
	}
	close(fd[1]);
	n = read(fd[0], got, size);
	close(fd[0]);
	waitpid(pid, &status, 0);
	if (n == (ssize_t)size)
		memcpy(out, got, size);
	free(got);
	return n == (ssize_t)size ? 0 : -1;
}

/* One run of the viewer (sb_view_run), for sb_in_child. */
struct sb_view_job {
	const char *path;
	double quit_at;
};

static void sb_view_job_run(const void *arg, void *out)
{
	const struct sb_view_job *j = arg;
	struct sb_result *r = out;

	r->ok = sb_view_run(j->path, j->quit_at, r) == 0;
}

/* sb_view_run(path, quit_at, r) in a child so each run's memory is its
 * own. */
static int sb_child(const char *path, double quit_at, struct sb_result *r)
{
	struct sb_view_job j = {path, quit_at};

	return sb_in_child(sb_view_job_run, &j, r, sizeof *r) == 0 && r->ok
		       ? 0
		       : -1;
}

/* bench_inflate_limit of the file arg into out (its time, its bytes). */
static void sb_inflate_run(const void *arg, void *out)
{
	double *v = out;

	v[0] = bench_inflate_limit(arg, &v[1]);
}

/* The decompression limit (bench_inflate.h), in a child: its raw chunks
 * (hundreds of MB at 100M, freed into a heap libhdf5's caches keep from
 * shrinking) would otherwise be in every later child's RSS from the
 * fork on.  -1 when it could not be measured. */
static double sb_inflate_child(const char *path, double *bytes)
{
	double v[2] = {-1, 0};

	if (sb_in_child(sb_inflate_run, path, v, sizeof v) < 0)
		v[0] = -1;
	*bytes = v[1];
	return v[0];
}

static int sb_file(
	const char *path, int runs, bool anchor, struct sb_result *out)
{
	struct sb_result best;
	int i;

	memset(&best, 0, sizeof best);
	for (i = 0; i < runs; i++) {
		struct sb_result r;
		double ib = 0, is = sb_inflate_child(path, &ib);
		if (anchor)
			sb_anchor(path, &best);
		sb_summary(path, &best);
		if (is > 0 && (best.inflate_s <= 0 || is < best.inflate_s)) {
			best.inflate_s = is;
			best.inflate_bytes = ib;
		}
		memset(&r, 0, sizeof r);
		if (sb_child(path, 0, &r) < 0)
			return -1;
		if (i == 0 || r.ready_s < best.ready_s) {
			double hs = best.h5py_s, hr = best.h5py_rss,
			       fs = best.inflate_s, fb = best.inflate_bytes,
			       ss = best.summary_s, sr = best.summary_rss;
			best = r;
			best.h5py_s = hs;
			best.h5py_rss = hr;
			best.inflate_s = fs;
			best.inflate_bytes = fb;
			best.summary_s = ss;
			best.summary_rss = sr;
		}
	}
	/* q half-way through the read of the calls (after the index, before
	 * the file is closed: the loader is inside libhdf5), in a run of its
	 * own. */
	{
		struct sb_result q;
		double at = best.file_s > best.index_s
				    ? (best.index_s + best.file_s) / 2
				    : best.load_s / 2;
		memset(&q, 0, sizeof q);
		if (sb_child(path, at, &q) == 0) {
			best.q_load_ms = q.q_load_ms;
			best.q_in_file = q.q_in_file;
		} else
			best.q_load_ms = -1;
	}
	*out = best;
	return 0;
}

/* ---- the table ----------------------------------------------------------- */

struct sb_file {
	char label[64];
	const char *path;
	struct sb_result r;
};

static struct sb_file sb_files[SB_FILES];
static int sb_nfiles;

/* The file of the same kind (label after the size) ten times smaller. */
static const struct sb_result *sb_tenth(int k)
{
	const char *kind = strchr(sb_files[k].label, ' ');
	int i;

	for (i = 0; i < sb_nfiles; i++) {
		const char *ki = strchr(sb_files[i].label, ' ');
		if (i != k && kind && ki && !strcmp(kind, ki) &&
			sb_files[i].r.calls * 10 == sb_files[k].r.calls)
			return &sb_files[i].r;
	}
	return NULL;
}

/* The smallest file of the same kind, for the flat-frame target. */
static const struct sb_result *sb_smallest(int k)
{
	const char *kind = strchr(sb_files[k].label, ' ');
	const struct sb_result *m = NULL;
	int i;

	for (i = 0; i < sb_nfiles; i++) {
		const char *ki = strchr(sb_files[i].label, ' ');
		if (kind && ki && !strcmp(kind, ki) &&
			(!m || sb_files[i].r.calls < m->calls))
			m = &sb_files[i].r;
	}
	return m;
}

enum sb_verdict { SB_NA, SB_MET, SB_MISSED };

/* Row measure m of file k: its text in buf and whether it met. */
typedef enum sb_verdict (*sb_cell_fn)(int k, char *buf, size_t n);

static enum sb_verdict sb_ms_cell(double ms, double limit, char *buf, size_t n)
{
	if (ms < 0) {
		snprintf(buf, n, "n/a");
		return SB_NA;
	}
	snprintf(buf, n, "%.1f ms", ms);
	return limit <= 0 ? SB_NA : ms <= limit ? SB_MET : SB_MISSED;
}

#define R (&sb_files[k].r)

static enum sb_verdict c_h5py(int k, char *b, size_t n)
{
	if (R->h5py_s <= 0) {
		snprintf(b, n, "n/a");
		return SB_NA;
	}
	snprintf(b, n, "%.3f s, %.0f B/call", R->h5py_s,
		R->h5py_rss / (double)R->calls);
	return SB_NA;
}

static enum sb_verdict c_load(int k, char *b, size_t n)
{
	if (R->h5py_s > 0)
		snprintf(b, n, "%.3f s (%.2fx)", R->load_s,
			R->load_s / R->h5py_s);
	else
		snprintf(b, n, "%.3f s", R->load_s);
	return SB_NA;
}

static enum sb_verdict c_inflate(int k, char *b, size_t n)
{
	if (R->inflate_s <= 0) {
		snprintf(b, n, "n/a");
		return SB_NA;
	}
	snprintf(b, n, "%.3f s, %.0f MB", R->inflate_s,
		R->inflate_bytes / 1048576.0);
	if (R->h5py_s > 0) {
		size_t len = strlen(b);
		snprintf(b + len, n - len, " (%.2fx h5py)",
			R->inflate_s / R->h5py_s);
	}
	return SB_NA;
}

static enum sb_verdict c_ready_inflate(int k, char *b, size_t n)
{
	if (R->inflate_s <= 0) {
		snprintf(b, n, "n/a");
		return SB_NA;
	}
	snprintf(b, n, "%.2fx", R->ready_s / R->inflate_s);
	return SB_NA;
}

static enum sb_verdict c_first(int k, char *b, size_t n)
{
	snprintf(b, n, "%.3f s", R->first_s);
	return R->first_s < 0.2 ? SB_MET : SB_MISSED;
}

static enum sb_verdict c_ready(int k, char *b, size_t n)
{
	if (R->h5py_s <= 0) {
		snprintf(b, n, "%.3f s", R->ready_s);
		return SB_NA;
	}
	snprintf(b, n, "%.3f s (%.2fx)", R->ready_s, R->ready_s / R->h5py_s);
	return R->ready_s <= 0.6 * R->h5py_s ? SB_MET : SB_MISSED;
}

static enum sb_verdict c_rss(int k, char *b, size_t n)
{
	double limit = 20.0 * (double)R->calls + 64.0 * 1048576.0;
	snprintf(b, n, "%.0f MB, %.1f B/call", R->ready_rss / 1048576.0,
		R->ready_rss / (double)R->calls);
	return R->ready_rss <= limit ? SB_MET : SB_MISSED;
}

static enum sb_verdict c_peak(int k, char *b, size_t n)
{
	snprintf(b, n, "%.0f MB (%.2fx)", R->peak_rss / 1048576.0,
		R->peak_rss / R->ready_rss);
	return R->peak_rss <= 1.25 * R->ready_rss ? SB_MET : SB_MISSED;
}

static enum sb_verdict c_frame_full(int k, char *b, size_t n)
{
	const struct sb_result *s = sb_smallest(k);
	double ms = R->frame_ms[0];
	snprintf(b, n, "%.2f ms", ms);
	if (s && s != R && s->frame_ms[0] > 0) {
		size_t len = strlen(b);
		snprintf(b + len, n - len, " (%.2fx)", ms / s->frame_ms[0]);
		if (ms > 1.5 * s->frame_ms[0])
			return SB_MISSED;
	}
	return ms < 2.0 ? SB_MET : SB_MISSED;
}

static enum sb_verdict c_frame_mid(int k, char *b, size_t n)
{
	snprintf(b, n, "%.2f ms", R->frame_ms[1]);
	return R->frame_ms[1] < 2.0 ? SB_MET : SB_MISSED;
}

static enum sb_verdict c_frame_narrow(int k, char *b, size_t n)
{
	snprintf(b, n, "%.2f ms", R->frame_ms[2]);
	return R->frame_ms[2] < 2.0 ? SB_MET : SB_MISSED;
}

static enum sb_verdict c_stall(int k, char *b, size_t n)
{
	return sb_ms_cell(R->stall_ms, 50, b, n);
}
static enum sb_verdict c_stall_ready(int k, char *b, size_t n)
{
	return sb_ms_cell(R->stall_ready_ms, 50, b, n);
}
static enum sb_verdict c_zoom_load(int k, char *b, size_t n)
{
	return sb_ms_cell(R->zoom_load_ms, 50, b, n);
}
static enum sb_verdict c_q_load(int k, char *b, size_t n)
{
	enum sb_verdict v = sb_ms_cell(R->q_load_ms, 50, b, n);
	size_t len = strlen(b);
	if (R->q_load_ms >= 0)
		snprintf(b + len, n - len, "%s",
			R->q_in_file ? ", in the read" : ", after the read");
	return v;
}
static enum sb_verdict c_zoom(int k, char *b, size_t n)
{
	return sb_ms_cell(R->zoom_ms, 50, b, n);
}

/* A key that may hand its work to the background: its answer (within
 * 50 ms) and, when the result came later, the time to the result, within
 * limit_s (0: not a target). */
static enum sb_verdict sb_bg_cell(
	double ms, double done_s, double limit_s, char *b, size_t n)
{
	enum sb_verdict v = sb_ms_cell(ms, 50, b, n);
	size_t len = strlen(b);
	if (ms < 0) /* not asked */
		return SB_NA;
	if (done_s < 0) {
		snprintf(b + len, n - len, ", no result in %.0f s",
			SB_STEP_MAX_S);
		return SB_MISSED;
	}
	if (done_s * 1e3 > ms + 1)
		snprintf(b + len, n - len, ", result %.2f s", done_s);
	if (limit_s > 0 && done_s > limit_s)
		return SB_MISSED;
	return v;
}

/* The cell of a key that may hand its work to the background, with its
 * result in at most 1 s. */
#define SB_BG_CELL(fn, ms, done)                              \
	static enum sb_verdict fn(int k, char *b, size_t n)   \
	{                                                     \
		return sb_bg_cell(R->ms, R->done, 1.0, b, n); \
	}
SB_BG_CELL(c_search, search_ms, search_done_s)
SB_BG_CELL(c_solo, solo_ms, solo_done_s)
SB_BG_CELL(c_unsolo, unsolo_ms, unsolo_done_s)
SB_BG_CELL(c_filter, filter_ms, filter_done_s)
SB_BG_CELL(c_refilter, refilter_ms, refilter_done_s)
SB_BG_CELL(c_unfilter, unfilter_ms, unfilter_done_s)
SB_BG_CELL(c_ranks, ranks_ms, ranks_done_s)
SB_BG_CELL(c_unranks, unranks_ms, unranks_done_s)
SB_BG_CELL(c_range, range_ms, range_done_s)
SB_BG_CELL(c_unrange, unrange_ms, unrange_done_s)
#undef SB_BG_CELL

/* The search on a call field: its result within half the h5py read. */
static enum sb_verdict c_field(int k, char *b, size_t n)
{
	double limit = R->h5py_s > 0 ? 0.5 * R->h5py_s : 0;
	enum sb_verdict v =
		sb_bg_cell(R->field_ms, R->field_done_s, limit, b, n);
	size_t len = strlen(b);
	if (limit > 0 && R->field_done_s >= 0)
		snprintf(b + len, n - len, " (%.2fx h5py)",
			R->field_done_s / R->h5py_s);
	return v;
}

/* Under a budget: the ranks held and drawn from stored rows. */
static enum sb_verdict c_budget_ranks(int k, char *b, size_t n)
{
	if (!sb_memory || !R->ranks) {
		snprintf(b, n, "-");
		return SB_NA;
	}
	snprintf(b, n, "%u of %u held, %u from stored rows", (unsigned)R->held,
		(unsigned)R->ranks, (unsigned)R->from_rows);
	return SB_NA;
}

static enum sb_verdict c_budget_first(int k, char *b, size_t n)
{
	if (!sb_memory) {
		snprintf(b, n, "-");
		return SB_NA;
	}
	snprintf(b, n, "%.3f s", R->first_s);
	return R->first_s < 2.0 ? SB_MET : SB_MISSED;
}

static enum sb_verdict c_budget_switch(int k, char *b, size_t n)
{
	enum sb_verdict v;
	size_t len;

	if (!sb_memory || !R->switched) {
		snprintf(b, n, "-");
		return SB_NA;
	}
	v = sb_bg_cell(R->switch_ms, R->switch_done_s, 10.0, b, n);
	len = strlen(b);
	snprintf(b + len, n - len, " (%u ranks)", (unsigned)R->switched);
	return v;
}

/* The summary's targets hold at 100M calls and more. */
#define SB_SUMMARY_CALLS 100000000

static enum sb_verdict c_summary(int k, char *b, size_t n)
{
	if (R->summary_s <= 0) {
		snprintf(b, n, "n/a");
		return SB_NA;
	}
	if (R->h5py_s <= 0) {
		snprintf(b, n, "%.3f s", R->summary_s);
		return SB_NA;
	}
	snprintf(
		b, n, "%.3f s (%.2fx)", R->summary_s, R->summary_s / R->h5py_s);
	if ((R->file_calls ? R->file_calls : R->calls) < SB_SUMMARY_CALLS)
		return SB_NA;
	return R->summary_s <= 0.5 * R->h5py_s ? SB_MET : SB_MISSED;
}

static enum sb_verdict c_summary_rss(int k, char *b, size_t n)
{
	double calls;

	if (R->summary_s <= 0) {
		snprintf(b, n, "n/a");
		return SB_NA;
	}
	/* The summary reads every call, held or not. */
	calls = R->file_calls ? (double)R->file_calls : (double)R->calls;
	snprintf(b, n, "%.0f MB, %.1f B/call", R->summary_rss / 1048576.0,
		R->summary_rss / calls);
	if (calls < SB_SUMMARY_CALLS)
		return SB_NA;
	return R->summary_rss <= 12.0 * calls ? SB_MET : SB_MISSED;
}

static enum sb_verdict c_q(int k, char *b, size_t n)
{
	return sb_ms_cell(R->q_ms, 50, b, n);
}

static enum sb_verdict sb_ratio_cell(
	double now, double before, char *b, size_t n)
{
	if (before <= 0) {
		snprintf(b, n, "-");
		return SB_NA;
	}
	snprintf(b, n, "%.1fx", now / before);
	return now / before <= 11.0 ? SB_MET : SB_MISSED;
}

static enum sb_verdict c_lin_time(int k, char *b, size_t n)
{
	const struct sb_result *t = sb_tenth(k);
	return sb_ratio_cell(R->ready_s, t ? t->ready_s : 0, b, n);
}

static enum sb_verdict c_lin_mem(int k, char *b, size_t n)
{
	const struct sb_result *t = sb_tenth(k);
	return sb_ratio_cell(R->ready_rss, t ? t->ready_rss : 0, b, n);
}

#undef R

static const struct {
	const char *measure, *target;
	sb_cell_fn cell;
} sb_rows[] = {
	{"h5py read of every column (peak RSS)", "baseline", c_h5py},
	{"inflate only, every core (the limit)", "-", c_inflate},
	{"load (x h5py)", "-", c_load},
	{"first frame", "< 0.2 s", c_first},
	{"ready: nesting, index, statistics (x h5py)", "<= 0.6x h5py", c_ready},
	{"ready (x the inflate limit)", "-", c_ready_inflate},
	{"RSS when ready", "<= 20 B/call + 64 MB", c_rss},
	{"peak RSS (x ready)", "<= 1.25x ready", c_peak},
	{"frame, whole run (x smallest file)", "< 2 ms, <= 1.5x", c_frame_full},
	{"frame, middle zoom", "< 2 ms", c_frame_mid},
	{"frame, narrowest zoom", "< 2 ms", c_frame_narrow},
	{"load: longest wait for a key", "<= 50 ms", c_stall},
	{"load: zoom", "<= 50 ms", c_zoom_load},
	{"load: q, half-way through the read", "<= 50 ms", c_q_load},
	{"ready: zoom", "<= 50 ms", c_zoom},
	{"ready: search Enter (/kernel)", "<= 50 ms, result <= 1 s", c_search},
	{"ready: solo lane (t)", "<= 50 ms, result <= 1 s", c_solo},
	{"ready: un-solo (t)", "<= 50 ms, result <= 1 s", c_unsolo},
	{"ready: filter Enter (\\kernel)", "<= 50 ms, result <= 1 s", c_filter},
	{"ready: a newer filter stops one (\\solve)", "<= 50 ms, result <= 1 s",
		c_refilter},
	{"ready: clear the filter (:filter)", "<= 50 ms, result <= 1 s",
		c_unfilter},
	{"ready: rank filter (r0-7)", "<= 50 ms, result <= 1 s", c_ranks},
	{"ready: every rank again (r all)", "<= 50 ms, result <= 1 s",
		c_unranks},
	{"ready: a range's statistics (O, an eighth of the run)",
		"<= 50 ms, result <= 1 s", c_range},
	{"ready: the range cleared (X)", "<= 50 ms, result <= 1 s", c_unrange},
	{"ready: search a call field (/dur>1ms)",
		"<= 50 ms, result <= 0.5x h5py", c_field},
	{"ready: q", "<= 50 ms", c_q},
	{"ready: longest wait for a key, no key in between", "<= 50 ms",
		c_stall_ready},
	{"summary (x h5py)", "<= 0.5x h5py at 100M", c_summary},
	{"summary: peak RSS", "<= 12 B/call at 100M", c_summary_rss},
	{"budget (--memory): ranks held", "-", c_budget_ranks},
	{"budget: first frame, from stored records", "< 2 s", c_budget_first},
	{"budget: a switch of the ranks held (:ranks)",
		"<= 50 ms, result < 10 s", c_budget_switch},
	{"ready time, 10x calls", "<= 11x", c_lin_time},
	{"RSS, 10x calls", "<= 11x", c_lin_mem},
};

static void sb_table(void)
{
	size_t i;
	int k;

	printf("| measure | target |");
	for (k = 0; k < sb_nfiles; k++)
		printf(" %s |", sb_files[k].label);
	printf(" met |\n|---|---|");
	for (k = 0; k < sb_nfiles; k++)
		printf("---|");
	printf("---|\n");
	for (i = 0; i < sizeof sb_rows / sizeof sb_rows[0]; i++) {
		bool any = false, missed = false;
		printf("| %s | %s |", sb_rows[i].measure, sb_rows[i].target);
		for (k = 0; k < sb_nfiles; k++) {
			char cell[96];
			enum sb_verdict v =
				sb_rows[i].cell(k, cell, sizeof cell);
			any = any || v != SB_NA;
			missed = missed || v == SB_MISSED;
			printf(" %s%s |", cell, v == SB_MISSED ? " *" : "");
		}
		printf(" %s |\n", !any ? "-" : missed ? "no" : "yes");
	}
	printf("\n* missed its target.  Key latencies: from the key to the "
	       "loop reading the next one;\n\"result\": until the work "
	       "handed to the background was on screen.\n");
}

int main(int argc, char **argv)
{
	int runs = 1, i;
	bool anchor = true;

	sv_heap_init(); /* as scopeview's main does */
	for (i = 1; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
			runs = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--no-anchor")) {
			anchor = false;
		} else if (!strcmp(argv[i], "--memory") && i + 1 < argc) {
			struct sv_error err = {0};
			if (sv_budget_parse(argv[++i], &sb_memory, &err) < 0) {
				fprintf(stderr, "scale_bench: --memory: %s\n",
					err.msg);
				return 2;
			}
		} else if (eq && eq != argv[i] && sb_nfiles < SB_FILES &&
			   argv[i][0] != '-') {
			struct sb_file *f = &sb_files[sb_nfiles++];
			snprintf(f->label, sizeof f->label, "%.*s",
				(int)(eq - argv[i]), argv[i]);
			f->path = eq + 1;
		} else {
			fprintf(stderr, "usage: scale_bench [--runs N] "
					"[--no-anchor] [--memory SIZE] "
					"LABEL=FILE...\n");
			return 2;
		}
	}
	if (!sb_nfiles || runs < 1) {
		fprintf(stderr, "usage: scale_bench [--runs N] [--no-anchor] "
				"[--memory SIZE] LABEL=FILE...\n");
		return 2;
	}
	for (i = 0; i < sb_nfiles; i++) {
		fprintf(stderr, "scale_bench: %s (%s) ...\n", sb_files[i].label,
			sb_files[i].path);
		if (sb_file(sb_files[i].path, runs, anchor, &sb_files[i].r) <
			0) {
			fprintf(stderr, "scale_bench: %s: not measured\n",
				sb_files[i].path);
			return 1;
		}
	}
	sb_table();
	return 0;
}
