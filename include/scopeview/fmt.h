/*
 * fmt.h: numbers as people read them: durations in human units, floats
 * the way Python's repr() prints them.  One implementation for the
 * viewer, `summary` and the loader, so a figure reads the same everywhere.
 *
 * Durations follow one rounding rule: round to the significant digits
 * first, then pick the unit and the decimals for the rounded value.  So
 * 999,999,500 ns is "1.00 s" (never "1000 ms"), 99,995 ns is "100 us"
 * (never "100.0 us"), and 999.5 ns is "1.00 us".
 */
#ifndef SCOPEVIEW_FMT_H
#define SCOPEVIEW_FMT_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_CORE)
#error "scopeview/fmt.h belongs to the core layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Flags for sv_fmt_dur_ex. */
enum {
	SV_FMT_DUR_COMPACT = 1u << 0, /* no space before the unit: "12.5ms" */
	SV_FMT_DUR_PLUS = 1u << 1,    /* '+' before values >= 0: "+12.5 ms" */
};

/*
 * Format ns nanoseconds into buf (n bytes, always NUL-terminated when n >
 * 0) as sig significant digits (clamped to 1..17) in the largest of ns,
 * us, ms and s that keeps the rounded value at or above 1, with a '-'
 * before negative values: "830 ns", "12.5 ms", "1.00 s", "-3.14 us".
 * Whole nanoseconds print without decimals ("830 ns", also for sig 4);
 * seconds carry on only past 100000 s, into days, so 5400 s is "5400 s"
 * and two days "2.00 d".  The value is rounded
 * once, as printf rounds the value scaled to the unit.  A NaN or an
 * infinity prints "-".  Returns buf.
 */
char *sv_fmt_dur_ex(double ns, int sig, unsigned flags, char *buf, size_t n);

/* sv_fmt_dur_ex(ns, 3, 0, buf, n): "12.5 ms".  Exact for every int64_t
 * (INT64_MIN is "-106751.991 d" rounded to "-106752 d"). */
char *sv_fmt_dur(int64_t ns, char *buf, size_t n);

/* Exact nanoseconds with their thousands grouped: "1,234,567" (and
 * "-9,223,372,036,854,775,808").  Returns buf (n >= 27 holds any). */
char *sv_fmt_ns_grouped(int64_t ns, char *buf, size_t n);

/*
 * Python's repr() of a float into out (cap bytes): the shortest text that
 * reads back to v ("0.1", "1e-05", "1.5e+16", "nan", "-inf"), in fixed
 * notation with at least one decimal ("3.0") for decimal exponents -4 to
 * 15.  single: v came from a float32 (numpy.float32's repr: the shortest
 * text that reads back to the same float32).
 */
void sv_fmt_py_float(double v, bool single, char *out, size_t cap);

#endif
