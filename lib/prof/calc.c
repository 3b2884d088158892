/*
 * calc.c: the frequency of a class of equally frequent instructions from
 * their samples and static minimum cycles, DCPI's issue-point heuristic
 * (calc.h; SOSP '97 §6.1.3).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "prof/calc.h"

struct pt {
	double r;		/* S_i / M_i */
	double s;		/* S_i */
	double m;		/* M_i */
};

/*
 * Re-centres a cluster around its own estimate (the paper's cluster
 * starts at the smallest ratio, which noise puts below F, and so is low
 * by about half a standard deviation): the points whose ratio is within
 * three standard deviations of f (S_i is Poisson with mean f M_i, so
 * r_i's is sqrt(f / M_i)) give f = sum S / sum M, until it settles.
 * Stalled points, far above, stay out.  Returns f; *used the points.
 */
static double
recentre(const struct pt *p, size_t np, double f, size_t *used)
{
	int it;
	size_t i;

	for (it = 0; it < 20 && f > 0; it++) {
		double ss = 0, sm = 0, nf;
		size_t n = 0;

		for (i = 0; i < np; i++)
			if (fabs(p[i].r - f) <= 3 * sqrt(f / p[i].m) + 1e-9) {
				ss += p[i].s;
				sm += p[i].m;
				n++;
			}
		if (n == 0 || sm == 0)
			break;
		nf = ss / sm;
		*used = n;
		if (fabs(nf - f) <= 1e-9 * f) {
			f = nf;
			break;
		}
		f = nf;
	}
	return f;
}

static int
cmp_pt(const void *x, const void *y)
{
	const struct pt *a = x, *b = y;

	return a->r < b->r ? -1 : a->r > b->r;
}

int
pmr_calc_class_freq(const double *S, const double *M, size_t n,
    struct pmr_calc_freq *out)
{
	struct pt *p;
	double sumS = 0, sumM = 0, w, sum = 0;
	size_t i, np = 0, k;

	out->f = out->f0 = 0;
	out->used = out->points = 0;
	out->conf = PMR_CALC_NONE;
	out->sparse = 0;
	if ((p = malloc((n + 1) * sizeof(*p))) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		sumS += S[i];
		sumM += M[i];
		if (M[i] > 0) {
			p[np].r = S[i] / M[i];
			p[np].m = M[i];
			p[np++].s = S[i];
		}
	}
	out->points = np;
	if (np == 0) {
		free(p);
		return -1;
	}
	qsort(p, np, sizeof(*p), cmp_pt);
	if (sumS >= 8 * (double)np) {
		/* enough samples that an issue point without one did not
		 * run as scheduled (it issued with the one before: a block
		 * head after a jump the schedule could not see): not a
		 * point */
		for (k = 0; k < np && p[k].s == 0; k++)
			;
		memmove(p, p + k, (np - k) * sizeof(*p));
		np -= k;
	}
	w = p[0].s > 0 ? 3 / sqrt(p[0].s) : 1;
	if (w < 0.1)
		w = 0.1;
	for (k = 0; k < np && p[k].r <= p[0].r * (1 + w); k++)
		sum += p[k].r;
	if (sumS < 8 * (double)np) {
		/* few samples: every issue point's, together */
		out->f = sumM > 0 ? sumS / sumM : 0;
		out->used = np;
		out->conf = PMR_CALC_LOW;
		out->sparse = 1;
	} else if (k >= 2 && 3 * k >= np) {
		out->f0 = sum / (double)k;
		out->used = k;
		out->f = recentre(p, np, out->f0, &out->used);
		out->conf = 2 * k >= np && w <= 0.2 ? PMR_CALC_HIGH :
		    PMR_CALC_MEDIUM;
	} else {
		out->f = p[0].r;
		out->used = 1;
		out->conf = PMR_CALC_LOW;
	}
	free(p);
	return 0;
}
