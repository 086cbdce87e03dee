/*
 * profile_pack.c: sv_profile_pack(), the viewer's columns in a few bits a
 * value (profile.h, packed.h).
 *
 * A finished profile's per-call columns are packed on two threads when it
 * is large (the columns are independent; each thread owns its fields of
 * the profile), so the step costs the load about half its time.
 */
#include "scopeview/profile.h"

#include "profile_priv.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "scopeview/heap.h"

/* Below this many calls one thread packs everything. */
#define PACK_THREAD_MIN_CALLS 200000

void sv_lane_pack_calls(struct sv_lane *ln)
{
	if (!ln->calls)
		return;
	sv_packed_build_u32(&ln->callpk, ln->calls, ln->ncalls, NULL);
	free(ln->calls);
	ln->calls = NULL;
}

/* The depths and the lanes' calls: the other thread's share of the
 * first round. */
static void *pack_small(void *arg)
{
	struct sv_profile *p = arg;
	size_t l;

	if (p->depth) {
		p->depth_pk.shift = SV_PACKED_FLAT_SHIFT;
		sv_packed_build_u8(
			&p->depth_pk, p->depth, p->ncalls, &p->depth_wide);
		sv_free_spent(p->depth);
		p->depth = NULL;
		sv_wide_fini(&p->depth_wide);
	}
	for (l = 0; l < p->nlanes; l++)
		sv_lane_pack_calls(&p->lanes[l]);
	return NULL;
}

void sv_profile_pack_starts(struct sv_profile *p)
{
	if (p->start_ns) {
		sv_packed_build2(&p->start_pk, p->start_ns, p->ncalls);
		free(p->start_ns);
		p->start_ns = NULL;
	}
}

/* The starts (unless the nesting packed them first): the other thread's
 * share of the second round. */
static void *pack_starts(void *arg)
{
	sv_profile_pack_starts(arg);
	return NULL;
}

/* The parent ids, when they are what the nesting says (each call's
 * parent's call id, one value at the top of a lane) but for a few:
 * derived, with those few kept (parent_id_derived). */
static void pack_parent_ids(struct sv_profile *p)
{
	uint64_t bad = 0, limit = p->ncalls / 64 + 16;
	struct sv_wide w = {0};
	int64_t root = 0;
	bool have_root = false;
	uint32_t c;

	if (p->parent_id_derived || !sv_profile_has_id(p, SV_ID_PARENT) ||
		!sv_profile_has_id(p, SV_ID_CALL) || !sv_profile_has_nesting(p))
		return;
	for (c = 0; c < p->ncalls; c++) {
		int64_t v = sv_profile_id(p, SV_ID_PARENT, c), want;
		uint32_t par = sv_profile_parent(p, c);
		if (par == SV_NO_CALL && !have_root) {
			root = v;
			have_root = true;
		}
		want = par == SV_NO_CALL ? root
					 : sv_profile_id(p, SV_ID_CALL, par);
		if (v == want)
			continue;
		if (++bad > limit) {
			sv_wide_fini(&w);
			return;
		}
		sv_wide_set(&w, c, v);
	}
	free(p->parent_id);
	p->parent_id = NULL;
	sv_packed_fini(&p->ids[SV_ID_PARENT]);
	p->parent_id_wide = w;
	p->parent_id_root = root;
	p->parent_id_derived = true;
}

/* The exclusive times, the parents and the lanes of the calls: this
 * thread's share of the first round.  The exclusive times are kept as
 * what the durations leave of them (sv_profile_exclusive), made while
 * both are at hand: 0 for a call without children, so a row of leaf
 * calls takes no bits (188 against 25 MB at 100M calls of a generated
 * profile). */
static void pack_nesting(struct sv_profile *p)
{
	pack_parent_ids(p);

	if (p->exclusive && p->dur) {
		p->children_pk.shift = SV_PACKED_FLAT_SHIFT;
		sv_packed_build_less(&p->children_pk, p->dur, &p->dur_wide,
			p->exclusive, &p->exclusive_wide, p->ncalls);
		if (!p->exclusive_in_parent)
			sv_free_spent(p->exclusive);
		p->exclusive = NULL;
		sv_wide_fini(&p->exclusive_wide);
	}
	/* (Not while the exclusive times it holds are still needed.) */
	if (p->parent && !(p->exclusive_in_parent && p->exclusive)) {
		p->parent_pk.shift = SV_PACKED_FLAT_SHIFT;
		sv_packed_build_u32(&p->parent_pk, p->parent, p->ncalls, NULL);
		sv_free_spent(p->parent);
		p->parent = NULL;
		p->exclusive_in_parent = false;
	}
	if (p->lane_of) {
		sv_packed_build_u32(&p->lane_pk, p->lane_of, p->ncalls, NULL);
		sv_free_spent(p->lane_of);
		p->lane_of = NULL;
	}
}

/* The durations: this thread's share of the second round. */
static void pack_durations(struct sv_profile *p)
{
	if (p->dur) {
		/* Blocks of 128: the headers' bit a value saved is more than
		 * the wider spread of durations costs. */
		p->dur_pk.shift = SV_PACKED_SHIFT + 1;
		sv_packed_build_u32(
			&p->dur_pk, p->dur, p->ncalls, &p->dur_wide);
		sv_free_spent(p->dur);
		p->dur = NULL;
		sv_wide_fini(&p->dur_wide);
	}
}

/* other on a thread (or here, for a small profile or when no thread can
 * be had) while this one does own. */
static void pack_round(struct sv_profile *p, void *(*other)(void *),
	void (*own)(struct sv_profile *))
{
	pthread_t t;
	bool started = p->ncalls >= PACK_THREAD_MIN_CALLS &&
		       pthread_create(&t, NULL, other, p) == 0;

	if (!started)
		other(p);
	own(p);
	if (started)
		pthread_join(t, NULL);
}

void sv_profile_pack_ids(struct sv_profile *p)
{
	int64_t **raw[SV_ID_COLUMNS] = {
		&p->call_id, &p->parent_id, &p->thread_id, &p->task_id};
	struct {
		int64_t **raw;
		struct sv_packed *pk;
	} times[2] = {{&p->gpu_ns, &p->gpu_pk}, {&p->await_ns, &p->await_pk}};
	bool lanes = sv_profile_has_lanes(p);
	int k;

	/* The GPU and await times: nothing but their readers reads them. */
	for (k = 0; k < 2; k++) {
		if (!*times[k].raw || !p->ncalls)
			continue;
		sv_packed_build(times[k].pk, *times[k].raw, p->ncalls);
		free(*times[k].raw);
		*times[k].raw = NULL;
	}

	for (k = 0; k < SV_ID_COLUMNS; k++) {
		bool early = k == SV_ID_CALL || k == SV_ID_PARENT;
		if (!*raw[k] || !p->ncalls || !(lanes || early))
			continue;
		/* Thread and task ids change at a lane's turn. */
		if (k == SV_ID_THREAD || k == SV_ID_TASK)
			p->ids[k].shift = SV_PACKED_FLAT_SHIFT;
		sv_packed_build(&p->ids[k], *raw[k], p->ncalls);
		free(*raw[k]);
		*raw[k] = NULL;
	}
}

void sv_profile_pack(struct sv_profile *p)
{
	if (p->ncalls && sv_profile_has_lanes(p)) {
		/* In two rounds on two threads: the nesting's columns and the
		 * small ones first, so that the packed starts and durations,
		 * the largest, find the room they leave in the heap (a load
		 * holds it: heap.h) rather than growing it. */
		pack_round(p, pack_small, pack_nesting);
		pack_round(p, pack_starts, pack_durations);
	}
	sv_profile_pack_ids(p);
	/* The lanes' arrays (a few MB each) lay in the heap, below the
	 * threshold for a mapping of their own: give their pages back (or
	 * keep them for the index, when the load holds the heap). */
	sv_heap_trim();
}
