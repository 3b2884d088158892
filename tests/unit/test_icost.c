/*
 * test_icost.c: the algebra of interaction costs (lib/icost/bd.c) on
 * random cost tables, n <= 8 categories (Fields et al., MICRO-36, section
 * 2.2): the closed form (the Moebius sum) against the definition (icost(U)
 * = cost(U) less the icosts of U's proper subsets, by recursion), exactly
 * in cycles; cost(U) = the sum of the icosts of U's subsets; the checks
 * count a table that is not monotone; the readers (lib/icost/input.c)
 * return their errors and hand their warnings to the caller.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "icost/bd.h"
#include "icost/input.h"
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
			pmr_icost_bd_check(&b, 0, 0, 1, &k);
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
	pmr_icost_bd_check(&b, 0, 0, 1, &k);
	CHECK_EQ(k.negative, 0);
	CHECK_EQ(k.nonmono, 0);
	pmr_icost_bd_free(&b);

	CHECK_EQ(pmr_icost_bd_init(&b, PMR_COST_GRAPH, names, 2), 0);
	pmr_icost_bd_add(&b, 0, 1000, 1000);
	pmr_icost_bd_add(&b, 1, 1000, 900);
	pmr_icost_bd_add(&b, 2, 1000, 1100);	/* negative */
	pmr_icost_bd_add(&b, 3, 1000, 950);	/* below {a}'s cost */
	pmr_icost_bd_check(&b, 0, 0, 1, &k);
	CHECK_EQ(k.negative, 1);
	CHECK_EQ(k.nonmono, 2);	/* {b} below {}, {a,b} below {a} */
	pmr_icost_bd_free(&b);

	/* b idealizes mispredicts, c I-side misses: b's falls without c
	 * are the wrong path's lines (when wp_ok), b's with c and a's are
	 * not */
	CHECK_EQ(pmr_icost_bd_init(&b, PMR_COST_GRAPH, names, 3), 0);
	pmr_icost_bd_add(&b, 0, 1000, 1000);
	pmr_icost_bd_add(&b, 1, 1000, 700);	/* a 30% */
	pmr_icost_bd_add(&b, 2, 1000, 1050);	/* b -5%: negative */
	pmr_icost_bd_add(&b, 3, 1000, 800);	/* a+b 20%: b joining a */
	pmr_icost_bd_add(&b, 4, 1000, 900);	/* c 10% */
	pmr_icost_bd_add(&b, 5, 1000, 600);	/* a+c 40% */
	pmr_icost_bd_add(&b, 6, 1000, 920);	/* b+c 8%: b joining c */
	pmr_icost_bd_add(&b, 7, 1000, 650);	/* a+b+c 35%: b joining a+c */
	pmr_icost_bd_check(&b, 2, 4, 1, &k);
	CHECK_EQ(k.wp_negative, 1);
	CHECK_EQ(k.negative, 0);
	CHECK_EQ(k.wp_nonmono, 2);	/* {b} below {}, {a,b} below {a} */
	CHECK_EQ(k.nonmono, 2);		/* {b,c} below {c}, {a,b,c} below {a,c} */
	CHECK_EQ(k.wp_worst_sub, 1);
	CHECK_EQ(k.wp_worst_cat, 1);
	CHECK_NEAR(k.wp_worst, 0.10, 1e-12);
	CHECK_EQ(k.worst_sub, 5);
	CHECK_EQ(k.worst_cat, 1);
	CHECK_NEAR(k.worst, 0.05, 1e-12);
	/* a machine without wrong paths: every fall counts */
	pmr_icost_bd_check(&b, 2, 4, 0, &k);
	CHECK_EQ(k.wp_negative + k.wp_nonmono, 0);
	CHECK_EQ(k.negative, 1);
	CHECK_EQ(k.nonmono, 4);
	pmr_icost_bd_free(&b);
}

/* The warn callback: counts the lines by level, keeps the last. */
static unsigned said[3];
static char said_last[512];

static void
said_add(void *arg, enum pmr_icost_say level, const char *msg)
{
	(void)arg;
	said[level]++;
	snprintf(said_last, sizeof(said_last), "%s", msg);
}

/* The readers return an error with its message, a usage error as
 * PMR_EINVAL, and say their warnings through the callback: never exit,
 * never print. */
UNIT_TEST(input)
{
	struct pmr_icost_input ip;
	struct pmr_icost_cat *c;
	struct pmr_icost_bd b;
	char *nofile[] = { "/nonexistent/x.pmr" };
	uint32_t lane0 = 0;

	pmr_icost_input_init(&ip);
	ip.warn = said_add;
	CHECK_EQ(pmr_icost_input_cat_add(&ip, "a", PMR_SIM_IDEAL_DL1, &c), 0);
	CHECK_EQ(pmr_icost_input_cat_add(&ip, "a", PMR_SIM_IDEAL_WIN, NULL),
	    PMR_EINVAL);
	CHECK_STR(ip.errmsg, "category 'a' given twice");
	CHECK_EQ(pmr_icost_input_cat_add(&ip, "b", PMR_SIM_IDEAL_WIN, NULL),
	    0);

	CHECK_EQ(pmr_icost_bd_init(&b, PMR_COST_GRAPH, names, 2), 0);
	CHECK(pmr_icost_read_graph(&ip, nofile, 1, &b, &lane0, 1) < 0);
	CHECK(strncmp(ip.errmsg, "/nonexistent/x.pmr: ", 20) == 0);
	CHECK_EQ(ip.graph_read, 0);
	c->filtered = 1;
	CHECK_EQ(pmr_icost_read_multisim(&ip, nofile, 1, &b), PMR_EINVAL);
	CHECK_STR(ip.errmsg, "--multisim: 'a' has a filter: pmsim --ideal "
	    "idealizes whole categories");

	pmr_icost_bd_add(&b, 0, 1000, 1000);
	pmr_icost_bd_add(&b, 1, 1000, 900);
	pmr_icost_bd_add(&b, 2, 1000, 1100);	/* negative */
	pmr_icost_bd_add(&b, 3, 1000, 950);
	CHECK_EQ(pmr_icost_input_check(&ip, &b, 0), 0);
	CHECK_EQ(said[PMR_ICOST_WARNING], 1);
	CHECK_STR(said_last, "warning: the graph gave 1 negative costs and 2 "
	    "costs below a subset's (the most: b alone, 10.0 points less; "
	    "the critical path should be monotone)");
	/* b idealizing mispredicts: the wrong path's lines, a note; not
	 * with --warm's note, nor on a machine without wrong paths */
	ip.cats[1].ideal = PMR_SIM_IDEAL_BMISP;
	CHECK_EQ(pmr_icost_input_check(&ip, &b, 0), 0);
	CHECK_EQ(said[PMR_ICOST_WARNING], 1);
	CHECK_EQ(said[PMR_ICOST_NOTE], 1);
	CHECK_STR(said_last, "note: idealizing mispredicts made 1 costs "
	    "negative and 2 costs fall (the most: b alone, 10.0 points less): "
	    "the lines wrong paths brought miss without them, unless imiss is "
	    "idealized too");
	ip.graph_read = 1;	/* of a machine without wrong paths */
	CHECK_EQ(pmr_icost_input_check(&ip, &b, 0), 0);
	CHECK_EQ(said[PMR_ICOST_WARNING], 2);
	CHECK_EQ(said[PMR_ICOST_NOTE], 1);
	ip.graph_wp = 1;	/* of one with */
	CHECK_EQ(pmr_icost_input_check(&ip, &b, 0), 0);
	CHECK_EQ(said[PMR_ICOST_WARNING], 2);
	CHECK_EQ(said[PMR_ICOST_NOTE], 2);
	ip.graph_read = ip.graph_wp = 0;
	ip.cats[1].ideal = PMR_SIM_IDEAL_WIN;
	memset(said, 0, sizeof(said));
	b.source = PMR_COST_MULTISIM;
	CHECK_EQ(pmr_icost_input_check(&ip, &b, 0), 0);
	CHECK_EQ(said[PMR_ICOST_NOTE], 1);
	CHECK_EQ(pmr_icost_input_check(&ip, &b, 1), PMR_ECORRUPT);
	CHECK(strncmp(ip.errmsg, "--topdown: no final STATS", 25) == 0);
	CHECK_EQ(said[PMR_ICOST_VERBOSE], 0);	/* no graph read */
	pmr_icost_bd_free(&b);
	pmr_icost_input_free(&ip);
}

UNIT_MAIN(UNIT_ENTRY(random_tables), UNIT_ENTRY(checks), UNIT_ENTRY(input))
