/*
 * session_priv.h: what the session's files (session.c, session_stats.c, session_two.c)
 * share beyond session.h.  Private to src/ui/session*.c.
 */
#ifndef SCOPEVIEW_UI_SESSION_PRIV_H
#define SCOPEVIEW_UI_SESSION_PRIV_H

#include "scopeview/session.h"

/* Tell the notify hook what changed (SV_SESSION_* bits). */
void sv_session_notify(struct sv_session *s, unsigned what);
/* Recompute the statistics for the lanes, filter and span in force (on a
 * worker for a window or range of a large profile). */
void sv_session_compute_stats(struct sv_session *s);
/* Stop a worker computing statistics, if any. */
void sv_session_stats_stop(struct sv_session *s);
/* Whether a worker computes statistics; take its table in when it is
 * done (true: the table changed). */
bool sv_session_stats_busy(const struct sv_session *s);
bool sv_session_stats_poll(struct sv_session *s);

/* Remake the match lists and their index for the search, the marked
 * region and the lanes shown (on a worker for a large profile). */
void sv_session_update_matches(struct sv_session *s);
/* The lanes shown changed: the match lists follow them (on a worker for
 * a large profile, the old lists freed there); the highlight index, made
 * over every lane, is kept.  Both are made again while they are still
 * being made. */
void sv_session_update_match_lists(struct sv_session *s);
/* Stop a worker making match lists, if any. */
void sv_session_cancel_matches(struct sv_session *s);

/* The second run's statistics and row2 (session_stats.c). */
void sv_session_compute_second(struct sv_session *s);
/* Take t (over every rank and region) as the second run's table. */
void sv_session_adopt_second(struct sv_session *s, struct sv_stats_table *t);
/* Whether the region filter keeps a region called name (session.c). */
bool sv_session_filter_keeps_name(const struct sv_session *s, const char *name);
/* The second run's parts (session_two.c): its hidden lanes after the
 * lanes changed, its index after the filter changed, its maps after the
 * first run was replaced, and freeing them. */
void sv_session_second_lanes(struct sv_session *s);
void sv_session_second_filter(struct sv_session *s);
void sv_session_second_profile(struct sv_session *s);
void sv_session_second_fini(struct sv_session *s);

#endif
