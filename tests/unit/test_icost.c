/*
 * test_icost.c: the algebra of interaction costs (lib/icost/bd.c) on
 * random cost tables, n <= 8 categories (Fields et al., MICRO-36, section
 * 2.2): the closed form (the Moebius sum) against the definition (icost(U)
 * = cost(U) less the icosts of U's proper subsets, by recursion), exactly
 * in cycles; cost(U) = the sum of the icosts of U's subsets; the checks
 * count a table that is not monotone.
 */
#include <stdint.h>
#include <stdlib.h>

#include "icost/bd.h"
#include "unit.h"

static const char *const names[] = { "a", "b", "c", "d", "e", "f", "g",
	"h" };

/* xorshift: a fixed sequence, so that a failure repeats */
static uint64_t rng = 88172645463325252ull;

static uint64_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* icost(u) in cycles by the definition, memoized in memo/have. */
static int64_t
icost_rec(const struct pmr_icost_bd *b, uint32_t u, int64_t *memo,
    uint8_t *done)
{
	int64_t c = (int64_t)b->t[u] - (int64_t)b->ts[u];
	uint32_t v;

	if (done[u])
		return memo[u];
	if (u != 0)	/* the proper subsets of u, the empty set included */
		for (v = (u - 1) & u;; v = (v - 1) & u) {
			c -= icost_rec(b, v, memo, done);
			if (v == 0)
				break;
		}
	done[u] = 1;
	return memo[u] = c;
}

UNIT_TEST(random_tables)
{
	unsigned n, rep;

	for (n = 1; n <= 8; n++)
		for (rep = 0; rep < 20; rep++) {
			struct pmr_icost_bd b;
			struct pmr_icost_checks k;
			int64_t memo[256];
			uint8_t done[256] = { 0 };
			uint64_t t = 100000 + rnd() % 900000;
			uint32_t m, all = (1u << n) - 1;

			CHECK_EQ(pmr_icost_bd_init(&b, PMR_COST_GRAPH, names,
			    n), 0);
			for (m = 0; m <= all; m++)	/* any t(S), even > t */
				pmr_icost_bd_add(&b, m, t, m == 0 ? t :
				    rnd() % (t + t / 4));
			for (m = 0; m <= all; m++) {
				double f;
				int64_t c;

				CHECK(pmr_icost_bd_icost(&b, m, &f, &c));
				CHECK_EQ_U64((uint64_t)c, (uint64_t)icost_rec(&b,
				    m, memo, done));
				CHECK_NEAR(f, (double)c / (double)t, 1e-9);
			}
			pmr_icost_bd_check(&b, &k);
			CHECK_EQ(k.subsets, all + 1);
			CHECK_EQ(k.sums, all + 1);
			CHECK_EQ(k.badsum, 0);
			pmr_icost_bd_free(&b);
		}
}

/* Costs that grow with the subset pass the checks; one that falls is
 * counted, as is a t(S) above t. */
UNIT_TEST(checks)
{
	struct pmr_icost_bd b;
	struct pmr_icost_checks k;

	CHECK_EQ(pmr_icost_bd_init(&b, PMR_COST_GRAPH, names, 2), 0);
	pmr_icost_bd_add(&b, 0, 1000, 1000);
	pmr_icost_bd_add(&b, 1, 1000, 900);
	pmr_icost_bd_add(&b, 2, 1000, 800);
	pmr_icost_bd_add(&b, 3, 1000, 600);
	pmr_icost_bd_check(&b, &k);
	CHECK_EQ(k.negative, 0);
	CHECK_EQ(k.nonmono, 0);
	pmr_icost_bd_free(&b);

	CHECK_EQ(pmr_icost_bd_init(&b, PMR_COST_GRAPH, names, 2), 0);
	pmr_icost_bd_add(&b, 0, 1000, 1000);
	pmr_icost_bd_add(&b, 1, 1000, 900);
	pmr_icost_bd_add(&b, 2, 1000, 1100);	/* negative */
	pmr_icost_bd_add(&b, 3, 1000, 950);	/* below {a}'s cost */
	pmr_icost_bd_check(&b, &k);
	CHECK_EQ(k.negative, 1);
	CHECK_EQ(k.nonmono, 2);	/* {b} below {}, {a,b} below {a} */
	pmr_icost_bd_free(&b);
}

UNIT_MAIN(UNIT_ENTRY(random_tables), UNIT_ENTRY(checks))
