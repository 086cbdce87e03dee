/*
 * pairwise.h: numpy's pairwise summation of float64 values, so means and
 * ratios computed here match numpy's (and so scope-profiler's) to the
 * last bit.
 */
#ifndef SCOPEVIEW_PAIRWISE_H
#define SCOPEVIEW_PAIRWISE_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_CORE)
#error "scopeview/pairwise.h belongs to the core layer, which this layer may not use"
#endif

#include <stddef.h>

/*
 * The sum of a[0 .. n) exactly as numpy's pairwise_sum (loops_utils.h)
 * adds it: plainly below 8 values, in eight interleaved partial sums up to
 * 128, else the two halves (the first a multiple of 8 long) recursively.
 * np.sum of a contiguous float64 array is this over the whole array;
 * np.add.reduce that has to convert (int64 to float64) sums blocks of
 * SV_PAIRWISE_NP_BUFSIZE values this way and adds the block sums in
 * order.  n == 0 gives 0 (a may then be NULL).
 */
double sv_pairwise_sum(const double *a, size_t n);

/* numpy's default ufunc buffer size, in elements (np.getbufsize()). */
#define SV_PAIRWISE_NP_BUFSIZE 8192

#endif
