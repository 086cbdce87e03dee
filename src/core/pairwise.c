/*
 * pairwise.c: numpy's pairwise summation (pairwise.h).
 *
 * The order of the additions is the whole point: do not "simplify" it.
 */
#include "scopeview/pairwise.h"

double sv_pairwise_sum(const double *a, size_t n)
{
	size_t i;

	if (n < 8) {
		double res = 0.;
		for (i = 0; i < n; i++)
			res += a[i];
		return res;
	}
	if (n <= 128) {
		double r[8], res;
		for (i = 0; i < 8; i++)
			r[i] = a[i];
		for (i = 8; i < n - (n % 8); i += 8) {
			size_t j;
			for (j = 0; j < 8; j++)
				r[j] += a[i + j];
		}
		res = ((r[0] + r[1]) + (r[2] + r[3])) +
		      ((r[4] + r[5]) + (r[6] + r[7]));
		for (; i < n; i++)
			res += a[i];
		return res;
	} else {
		size_t n2 = n / 2;
		n2 -= n2 % 8;
		return sv_pairwise_sum(a, n2) + sv_pairwise_sum(a + n2, n - n2);
	}
}
