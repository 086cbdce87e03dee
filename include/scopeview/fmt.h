/*
 * fmt.h: numbers as people read them: floats the way Python's repr()
 * prints them.
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

/*
 * Python's repr() of a float into out (cap bytes): the shortest text that
 * reads back to v ("0.1", "1e-05", "1.5e+16", "nan", "-inf"), in fixed
 * notation with at least one decimal ("3.0") for decimal exponents -4 to
 * 15.  single: v came from a float32 (numpy.float32's repr: the shortest
 * text that reads back to the same float32).
 */
void sv_fmt_py_float(double v, bool single, char *out, size_t cap);

#endif
