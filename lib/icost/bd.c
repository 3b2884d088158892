/*
 * bd.c: a breakdown: the base and idealized times of the measured subsets
 * of a category list, from one source (graph, multisim, shotgun), summed
 * over shards, fragments and runs; its costs, interaction costs and the
 * invariants they must keep (Fields et al., MICRO-36, §2.2-2.3).
 */
#include <stdlib.h>
#include <string.h>

#include "icost/icost.h"
#include "icost/bd.h"

int
pmr_icost_bd_init(struct pmr_icost_bd *b, unsigned source,
    const char *const *names, unsigned ncat)
{
	unsigned k;

	memset(b, 0, sizeof(*b));
	if (ncat == 0 || ncat > PMR_ICOST_MAXCAT)
		return PMR_EINVAL;
	b->source = source;
	b->ncat = ncat;
	for (k = 0; k < ncat; k++) {
		if (strlen(names[k]) >= sizeof(b->names[k]))
			return PMR_EINVAL;
		strcpy(b->names[k], names[k]);
	}
	b->t = calloc((size_t)1 << ncat, sizeof(uint64_t));
	b->ts = calloc((size_t)1 << ncat, sizeof(uint64_t));
	b->have = calloc((size_t)1 << ncat, 1);
	if (b->t == NULL || b->ts == NULL || b->have == NULL) {
		pmr_icost_bd_free(b);
		return PMR_ENOMEM;
	}
	return 0;
}

void
pmr_icost_bd_free(struct pmr_icost_bd *b)
{
	free(b->t);
	free(b->ts);
	free(b->have);
	b->t = b->ts = NULL;
	b->have = NULL;
}

void
pmr_icost_bd_add(struct pmr_icost_bd *b, uint32_t mask, uint64_t t,
    uint64_t ts)
{
	b->t[mask] += t;
	b->ts[mask] += ts;
	b->have[mask] = 1;
}

/* The categories as one comma-separated string (COST cats). */
size_t
pmr_icost_bd_cats(const struct pmr_icost_bd *b, char *buf, size_t len)
{
	size_t n = 0;
	unsigned k;

	buf[0] = '\0';
	for (k = 0; k < b->ncat && n < len; k++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", k ? "," : "",
		    b->names[k]);
	return n;
}

int
pmr_icost_bd_exact(const struct pmr_icost_bd *b)
{
	uint32_t m;

	for (m = 0; m < 1u << b->ncat; m++)
		if (b->have[m] && b->t[m] != b->t[0])
			return 0;
	return b->have[0];
}

double
pmr_icost_bd_frac(const struct pmr_icost_bd *b, uint32_t m)
{
	if (!b->have[m] || b->t[m] == 0)
		return 0;
	return ((double)b->t[m] - (double)b->ts[m]) / (double)b->t[m];
}

int
pmr_icost_bd_icost(const struct pmr_icost_bd *b, uint32_t u, double *frac,
    int64_t *cyc)
{
	double s = 0;
	int64_t c = 0;
	uint32_t v = u;

	for (;;) {
		int neg = (__builtin_popcount(u) - __builtin_popcount(v)) & 1;

		if (!b->have[v])
			return 0;
		s += neg ? -pmr_icost_bd_frac(b, v) :
		    pmr_icost_bd_frac(b, v);
		c += (neg ? -1 : 1) * ((int64_t)b->t[v] - (int64_t)b->ts[v]);
		if (v == 0)
			break;
		v = (v - 1) & u;
	}
	*frac = s;
	if (cyc != NULL)
		*cyc = c;
	return 1;
}

/* Counts a fall d of the cost as category c joins subset s, and keeps
 * the largest. */
static void
fall(unsigned *n, double *worst, uint32_t *sub, unsigned *cat, double d,
    uint32_t s, uint32_t c)
{
	(*n)++;
	if (d > *worst) {
		*worst = d;
		*sub = s;
		*cat = (unsigned)__builtin_ctz(c);
	}
}

void
pmr_icost_bd_check(const struct pmr_icost_bd *b, uint32_t bm, uint32_t im,
    int wp_ok, struct pmr_icost_checks *k)
{
	uint32_t m, all = (1u << b->ncat) - 1, v;

	memset(k, 0, sizeof(*k));
	for (m = 0; m <= all; m++) {
		/* no imiss in m: the wrong path's lines count */
		int wp = wp_ok && (m & im) == 0;

		if (!b->have[m])
			continue;
		k->subsets++;
		if (b->ts[m] > b->t[m]) {
			if (wp && (m & bm) != 0)
				k->wp_negative++;
			else
				k->negative++;
		}
		/* monotone: m's measured subsets one category smaller */
		for (v = m; v != 0; v &= v - 1) {
			uint32_t c = v & -v, s = m & ~c;
			double d;

			if (!b->have[s])
				continue;
			d = pmr_icost_bd_frac(b, s) - pmr_icost_bd_frac(b, m);
			if (d <= 1e-12)
				continue;
			if (wp && (c & bm) != 0)
				fall(&k->wp_nonmono, &k->wp_worst,
				    &k->wp_worst_sub, &k->wp_worst_cat, d, s, c);
			else
				fall(&k->nonmono, &k->worst, &k->worst_sub,
				    &k->worst_cat, d, s, c);
		}
		/* cost(m) = the sum of the icosts of its subsets, in cycles */
		if (pmr_icost_bd_exact(b)) {
			int64_t sum = 0, c;
			double f;
			int all_ok = 1;

			v = m;
			for (;;) {
				if (!pmr_icost_bd_icost(b, v, &f, &c)) {
					all_ok = 0;
					break;
				}
				sum += c;
				if (v == 0)
					break;
				v = (v - 1) & m;
			}
			if (all_ok) {
				k->sums++;
				if (sum != (int64_t)b->t[m] - (int64_t)b->ts[m])
					k->badsum++;
			}
		}
	}
}
