/*
 * profile_priv.h: what the parts of the profile model share beyond
 * profile.h.  Private to src/model/profile*.c.
 */
#ifndef SCOPEVIEW_MODEL_PROFILE_PRIV_H
#define SCOPEVIEW_MODEL_PROFILE_PRIV_H

#include "scopeview/common.h"
#include "scopeview/profile.h"

/* profile_lanes.c: group p's calls into p->lanes (doc/format.md 9.1), in
 * display order, each with its label and its calls in storage order
 * (unsorted: sorting and nesting follow in sv_profile_finish), and fill
 * p->lane_of. */
void sv_profile_lanes_build(struct sv_profile *p);

/* profile.c: sort p->threads' and p->tasks' positions into p->thread_order
 * and p->task_order, so that the lookups by (rank, index) take O(log n). */
void sv_profile_index_build(struct sv_profile *p);

#endif
