/*
 * fmt.c: durations in human units and Python's float repr (fmt.h).
 *
 * Nothing here allocates or fails: output that does not fit is cut by
 * snprintf.
 */
#include "scopeview/fmt.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double fmt_div[] = {1, 1e3, 1e6, 1e9, 86400e9};
static const char *const fmt_unit[] = {"ns", "us", "ms", "s", "d"};
/* Seconds carry on into days only from this many on (27.8 hours): a
 * figure in a narrow column keeps its unit, and an hour's run still
 * reads in seconds. */
#define FMT_DAYS_FROM_NS 1e14

/* Digits before the point of x >= 0 as printed (1 for x < 10). */
static int fmt_int_digits(double x)
{
	int d = 1;
	double p = 10;

	while (x >= p && d < 400) {
		d++;
		p *= 10;
	}
	return d;
}

char *sv_fmt_dur_ex(double ns, int sig, unsigned flags, char *buf, size_t n)
{
	const char *sign = ns < 0 ? "-" : (flags & SV_FMT_DUR_PLUS) ? "+" : "";
	double a = fabs(ns), x, r;
	char num[400];
	int u = 0, d, id;

	if (!isfinite(ns)) {
		snprintf(buf, n, "-");
		return buf;
	}
	if (sig < 1)
		sig = 1;
	if (sig > 17)
		sig = 17;
	while (u < 3 && a >= fmt_div[u + 1])
		u++;
	if (a >= FMT_DAYS_FROM_NS)
		u = 4;
	for (;;) {
		x = a / fmt_div[u];
		id = fmt_int_digits(x);
		d = (u == 0 && x == floor(x)) ? 0 : sig > id ? sig - id : 0;
		snprintf(num, sizeof num, "%.*f", d, x);
		r = strtod(num, NULL);
		/* Rounding carried into the next unit: "1000 ms" is 1.00 s. */
		if (u < 3 && r >= 1000) {
			u++;
			continue;
		}
		/* Rounding carried into one more digit: "100.0 us" has four
		 * significant digits. */
		if (d > 0 && fmt_int_digits(r) > id) {
			d = sig > id + 1 ? sig - id - 1 : 0;
			snprintf(num, sizeof num, "%.*f", d, x);
		}
		break;
	}
	snprintf(buf, n, "%s%s%s%s", sign, num,
		(flags & SV_FMT_DUR_COMPACT) ? "" : " ", fmt_unit[u]);
	return buf;
}

char *sv_fmt_dur(int64_t ns, char *buf, size_t n)
{
	return sv_fmt_dur_ex((double)ns, 3, 0, buf, n);
}

char *sv_fmt_ns_grouped(int64_t ns, char *buf, size_t n)
{
	char digits[24], out[32];
	uint64_t u = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	int nd = snprintf(digits, sizeof digits, "%" PRIu64, u), i, o = 0;

	if (ns < 0)
		out[o++] = '-';
	for (i = 0; i < nd; i++) {
		if (i && (nd - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
	snprintf(buf, n, "%s", out);
	return buf;
}

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
