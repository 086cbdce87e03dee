/*
 * budget.h: a memory budget for the calls a viewer keeps (--memory).
 * Ranks are the unit: from the index alone (an index-only load: every
 * row's rank and call count) it says how many bytes the calls of each
 * rank will take once loaded and shown, and which ranks fit, taking the
 * ones asked for first.  The loader then reads only those ranks (a rank
 * subset, load.h); the others are read when asked for, and the least
 * recently asked for are left out to make room.
 */
#ifndef SCOPEVIEW_BUDGET_H
#define SCOPEVIEW_BUDGET_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_MODEL)
#error "scopeview/budget.h belongs to the model layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/common.h"
#include "scopeview/profile.h"

/* Resident bytes a call takes, loaded and shown, with only the two
 * required event columns: the model's packed per-call columns (start,
 * duration, depth, parent, exclusive time, the lane's list; the lane
 * only when a rank has several), the timeline's level-of-detail index,
 * and room for the statistics and the load's peak.  Measured at 100M
 * calls: 22.2 B/call when ready (bench/scale.sh), and a peak of 36 B/call
 * while a rank subset of them loads (--memory 1G, five ranks). */
#define SV_BUDGET_CALL_BYTES 36
/* Each optional event column kept: GPU and await times are int64 a
 * call; ids are packed (a few bits) once read, but held whole while they
 * load, so they count the same. */
#define SV_BUDGET_COLUMN_BYTES 8

/* Parse a size: a number (a fraction allowed) and a unit K, M, G or T,
 * powers of 1024, with an optional "B" or "iB" after it ("4G", "1.5GiB",
 * "512M"); a plain number is bytes.  Returns 0 and sets *bytes (> 0), or
 * -EINVAL with err saying why. */
int sv_budget_parse(const char *text, uint64_t *bytes, struct sv_error *err);

/* bytes as sv_budget_parse reads it back, to one decimal ("3.5G",
 * "512M", "900"; rounded). */
void sv_budget_format(char *buf, size_t n, uint64_t bytes);

/* The default budget from the text of /proc/meminfo: half of
 * MemAvailable (MemFree when the kernel is too old to say).  0 when the
 * text says neither: no budget. */
uint64_t sv_budget_default(const char *meminfo);

/* Bytes a call of the file takes once loaded (above), from an
 * index-only load (its event_columns; unknown counts as two). */
uint64_t sv_budget_call_bytes(const struct sv_profile *index);

/*
 * Choose the ranks to read within budget bytes, from an index-only load:
 * first the ranks of prefer[0 .. nprefer) in that order (numbers past
 * the file's ranks and repeats are skipped), then every other rank in
 * rank order, each taken while the calls taken so far fit; the first
 * rank with calls is taken even when it alone is over the budget.
 * Ranks with no calls cost nothing and are always taken.  on (nranks =
 * index->num_ranks, at least every rank with a row) gets the choice.
 * Returns the number of ranks with calls left out (0: everything fits;
 * read the whole file).  *bytes (may be NULL) gets the estimate of what
 * is taken.
 */
uint32_t sv_budget_pick(const struct sv_profile *index, uint64_t budget,
	const uint32_t *prefer, uint32_t nprefer, bool *on, uint32_t nranks,
	uint64_t *bytes);

/* The number of ranks sv_budget_pick's on needs: the highest rank of a
 * row + 1, and at least num_ranks. */
uint32_t sv_budget_nranks(const struct sv_profile *index);

#endif
