/*
 * mobius.c: interaction costs from costs (Fields et al., MICRO-36, §2.2):
 * icost(U) = cost(U) - sum of icost(V) over the proper subsets V of U,
 * in closed form the Moebius inversion sum over V subset of U of
 * (-1)^{|U|-|V|} cost(V); and the subsets each mode measures.
 */
#include "icost/icost.h"

int
pmr_icost_of(const int64_t *cost, const uint8_t *have, uint32_t u,
    int64_t *out)
{
	int64_t s = 0;
	uint32_t v = u;

	for (;;) {		/* every subset v of u, u first */
		if (!have[v])
			return 0;
		if ((__builtin_popcount(u) - __builtin_popcount(v)) & 1)
			s -= cost[v];
		else
			s += cost[v];
		if (v == 0)
			break;
		v = (v - 1) & u;
	}
	*out = s;
	return 1;
}

unsigned
pmr_icost_lanes_all(unsigned n, uint32_t *lanes)
{
	uint32_t m;

	for (m = 0; m < 1u << n; m++)
		lanes[m] = m;
	return 1u << n;
}

unsigned
pmr_icost_lanes_order(unsigned n, unsigned k, uint32_t *lanes)
{
	uint32_t m, all = n >= 32 ? ~0u : (1u << n) - 1;
	unsigned nl = 0, o;

	/* by order, then by mask: the singles, the pairs, ... */
	for (o = 0; o <= k && o <= n; o++)
		for (m = 0; m <= all; m++) {
			if ((unsigned)__builtin_popcount(m) == o)
				lanes[nl++] = m;
			if (m == all)
				break;
		}
	if (k < n)
		lanes[nl++] = all;
	return nl;
}

unsigned
pmr_icost_lanes_focus(unsigned n, unsigned focus, uint32_t *lanes)
{
	uint32_t all = (1u << n) - 1;
	unsigned nl = 0, c;

	lanes[nl++] = 0;
	for (c = 0; c < n; c++)
		lanes[nl++] = 1u << c;
	for (c = 0; c < n; c++)
		if (c != focus)
			lanes[nl++] = 1u << focus | 1u << c;
	if (n > 2)
		lanes[nl++] = all;
	return nl;
}

size_t
pmr_icost_lanes_max(unsigned n, unsigned order, int all)
{
	size_t s = 1, c = 1;
	unsigned o;

	if (all || order >= n)
		return (size_t)1 << n;
	for (o = 1; o <= order; o++) {
		c = c * (n - o + 1) / o;
		s += c;
	}
	return s + 1;
}
