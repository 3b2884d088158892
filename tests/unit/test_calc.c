/*
 * test_calc.c: unit tests of DCPI's frequency heuristic (lib/prof/calc.c)
 * on the paper's worked example (SOSP '97 §6.1.3, Fig. 7) and on classes
 * built by hand.
 */
#include <math.h>

#include "prof/calc.h"
#include "unit.h"

/* Fig. 7: eight issue points of M = 1 (the dual-issued M = 0 rows
 * between them), true frequency 1575.1; the paper's heuristic picks
 * 1482, 1493, 1548, 1586: F = 1527; 174727 / F = 114.5 cycles. */
UNIT_TEST(fig7)
{
	const double S[13] = { 3126, 0, 1636, 1482, 0, 27766, 0, 1493, 0,
		174727, 1548, 0, 1586 };
	const double M[13] = { 1, 0, 1, 1, 0, 1, 0, 1, 0, 1, 1, 0, 1 };
	struct pmr_calc_freq f;

	CHECK_EQ(pmr_calc_class_freq(S, M, 13, &f), 0);
	CHECK_EQ(f.points, 8);
	CHECK_EQ(f.used, 4);
	CHECK_NEAR(f.f, 1527.25, 1e-9);
	CHECK(fabs(f.f - 1575.1) / 1575.1 < 0.05);
	CHECK_NEAR(174727 / f.f, 114.5, 0.1);
	CHECK_NEAR(27766 / f.f, 18.2, 0.1);
	/* half the issue points, within 10%: high */
	CHECK_EQ(f.conf, PMR_CALC_HIGH);
}

UNIT_TEST(hand)
{
	struct pmr_calc_freq f;
	/* no stall: every ratio is F, all used, high confidence */
	const double S1[4] = { 2000, 4000, 2000, 6000 }, M1[4] = { 1, 2, 1, 3 };
	/* few samples: sum S / sum M */
	const double S2[3] = { 1, 9, 2 }, M2[3] = { 1, 1, 1 };
	/* no issue point */
	const double S3[2] = { 5, 5 }, M3[2] = { 0, 0 };

	CHECK_EQ(pmr_calc_class_freq(S1, M1, 4, &f), 0);
	CHECK_NEAR(f.f, 2000, 1e-9);
	CHECK_EQ(f.used, 4);
	CHECK_EQ(f.conf, PMR_CALC_HIGH);
	CHECK_EQ(pmr_calc_class_freq(S2, M2, 3, &f), 0);
	CHECK_NEAR(f.f, 4, 1e-9);
	CHECK_EQ(f.conf, PMR_CALC_LOW);
	CHECK_EQ(pmr_calc_class_freq(S3, M3, 2, &f), -1);
	CHECK_EQ(f.conf, PMR_CALC_NONE);
}

UNIT_MAIN(
	UNIT_ENTRY(fig7),
	UNIT_ENTRY(hand)
)
