/*
 * fmt.c: Python's float repr (fmt.h).
 *
 * Nothing here allocates or fails: output that does not fit is cut by
 * snprintf.
 */
#include "scopeview/fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sv_fmt_py_float(double v, bool single, char *out, size_t cap)
{
	char buf[40], digits[24];
	int prec, exp10, nd;
	char *e;
	size_t j;

	if (isnan(v)) {
		snprintf(out, cap, "nan");
		return;
	}
	if (isinf(v)) {
		snprintf(out, cap, v < 0 ? "-inf" : "inf");
		return;
	}
	/* float32 values (numpy.float32) print with float32's shortest
	 * round trip, as numpy does. */
	for (prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*e", prec - 1, v);
		if (single ? (float)strtod(buf, NULL) == (float)v
			   : strtod(buf, NULL) == v)
			break;
	}
	if (prec > 17)
		prec = 17;
	snprintf(buf, sizeof buf, "%.*e", prec - 1, v);
	e = strchr(buf, 'e');
	exp10 = e ? atoi(e + 1) : 0;
	/* The significant digits, trailing zeros dropped. */
	nd = 0;
	for (j = 0; buf + j < e; j++)
		if (buf[j] >= '0' && buf[j] <= '9' && nd < 20)
			digits[nd++] = buf[j];
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	digits[nd] = '\0';
	if (exp10 >= -4 && exp10 < 16) {
		int decimals = nd - 1 - exp10;
		snprintf(out, cap, "%.*f", decimals > 0 ? decimals : 0, v);
		if (!strchr(out, '.'))
			strncat(out, ".0", cap - strlen(out) - 1);
	} else {
		snprintf(out, cap, "%s%c%s%s%se%c%02d", v < 0 ? "-" : "",
			digits[0], nd > 1 ? "." : "", nd > 1 ? digits + 1 : "",
			"", exp10 < 0 ? '-' : '+', abs(exp10));
	}
}
