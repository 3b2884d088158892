/*
 * mobius.c: the subsets each mode measures, so that every interaction
 * cost shown has all its subsets (the Moebius sum of bd.c needs them).
 */
#include "icost/icost.h"

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
