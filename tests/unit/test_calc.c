/*
 * test_calc.c: unit tests of DCPI's frequency heuristic (lib/prof/calc.c)
 * on the paper's worked example (SOSP '97 §6.1.3, Fig. 7) and on classes
 * built by hand.
 */
#include <math.h>

#include "prof/calc.h"
#include "sim/sched.h"
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
	/* the paper's cluster: 1482, 1493, 1548, 1586 */
	CHECK_NEAR(f.f0, 1527.25, 1e-9);
	CHECK_NEAR(174727 / f.f0, 114.5, 0.1);
	CHECK_NEAR(27766 / f.f0, 18.2, 0.1);
	/* re-centred, 1636 joins (within 3 sqrt(F) of it): 7745 / 5 =
	 * 1549, 1.7% from the truth where the paper's was 3.0% */
	CHECK_EQ(f.used, 5);
	CHECK_NEAR(f.f, 1549, 1e-9);
	CHECK(fabs(f.f - 1575.1) < fabs(f.f0 - 1575.1));
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

static struct pmr_sinsn
op(unsigned cls, int dst, int src0, int src1)
{
	struct pmr_sinsn si;

	memset(&si, 0, sizeof(si));
	si.cls = (uint8_t)cls;
	if (dst >= 0)
		si.dst[si.ndst++] = (uint16_t)dst;
	if (src0 >= 0)
		si.src[si.nsrc++] = (uint16_t)src0;
	if (src1 >= 0)
		si.src[si.nsrc++] = (uint16_t)src1;
	if (cls == PMR_OP_LOAD)
		si.nmem = si.nload = 1;
	if (cls == PMR_OP_STORE)
		si.nmem = 1;
	return si;
}

/* alpha21164: 4-wide, 2 ALUs, 1 multiplier (idiv 60 cycles, not
 * pipelined), 2 memory ports, L1-D hit 2 cycles, ALU 1 cycle */
UNIT_TEST(sched_alpha)
{
	struct pmr_sim_config c;
	struct pmr_sinsn b1[3], b2[5], b3[3];
	struct pmr_sched o[5];
	unsigned k;

	CHECK_EQ(pmr_sim_config_preset(&c, "alpha21164"), 0);
	/* a load, its consumer (2 cycles later: Ra dependency on it), an
	 * independent add that issues with the consumer */
	b1[0] = op(PMR_OP_LOAD, 0, 2, -1);
	b1[1] = op(PMR_OP_INT, 3, 0, -1);
	b1[2] = op(PMR_OP_INT, 1, 6, -1);
	pmr_sim_sched(&c, b1, 3, 0, 0, NULL, o);
	CHECK_EQ(o[0].t, 0);
	CHECK_EQ(o[0].M, 1);
	CHECK_EQ(o[0].stall, 0);
	CHECK_EQ(o[1].t, 2);
	CHECK_EQ(o[1].M, 2);
	CHECK_EQ(o[1].stall, 2);
	CHECK_EQ(o[1].why, PMR_SCHED_DEP);
	CHECK_EQ(o[1].culprit, 0);
	CHECK_EQ(o[1].src_from[0], 0);
	CHECK_EQ(o[2].t, 2);
	CHECK_EQ(o[2].M, 0);
	CHECK_EQ(o[2].src_from[0], -1);
	/* five independent ALU ops on two ALUs: pairs, each pair after the
	 * first waits a cycle for a unit (the one before took the last) */
	for (k = 0; k < 5; k++)
		b2[k] = op(PMR_OP_INT, (int)k, 10, -1);
	pmr_sim_sched(&c, b2, 5, 0, 0, NULL, o);
	for (k = 0; k < 5; k++) {
		CHECK_EQ(o[k].t, k / 2);
		CHECK_EQ(o[k].M, k % 2 ? 0u : 1u);
		CHECK_EQ(o[k].why, k == 2 || k == 4 ? PMR_SCHED_FU :
		    PMR_SCHED_NONE);
	}
	CHECK_EQ(o[2].culprit, 1);
	/* a divide holds the multiplier 60 cycles: a multiply after it
	 * waits for the unit, not for a register */
	b3[0] = op(PMR_OP_IDIV, 0, 1, 2);
	b3[1] = op(PMR_OP_IMUL, 3, 4, 5);
	b3[2] = op(PMR_OP_INT, 6, 3, -1);
	pmr_sim_sched(&c, b3, 3, 0, 0, NULL, o);
	CHECK_EQ(o[1].t, 60);
	CHECK_EQ(o[1].why, PMR_SCHED_FU);
	CHECK_EQ(o[1].culprit, 0);
	CHECK_EQ(o[1].stall, 60);
	CHECK_EQ(o[2].t, 60 + c.lat_imul);
	CHECK_EQ(o[2].why, PMR_SCHED_DEP);
	CHECK_EQ(o[2].culprit, 1);
	/* a context: the load ends the predecessor; its consumer, first
	 * of the block, waits for it; entered by fall-through, the
	 * independent add issues with it, M 0; after a taken transfer the
	 * block starts a cycle later than the context at least */
	b2[0] = op(PMR_OP_LOAD, 0, 2, -1);
	b2[1] = op(PMR_OP_INT, 3, 0, -1);
	b2[2] = op(PMR_OP_INT, 1, 6, -1);
	pmr_sim_sched(&c, b2, 3, 1, 0, NULL, o);
	CHECK_EQ(o[1].M, 2);
	CHECK_EQ(o[1].why, PMR_SCHED_DEP);
	CHECK_EQ(o[1].culprit, 0);
	CHECK_EQ(o[2].M, 0);
	b2[1] = op(PMR_OP_INT, 3, 7, -1);
	pmr_sim_sched(&c, b2, 3, 1, 0, NULL, o);
	CHECK_EQ(o[1].M, 0);
	pmr_sim_sched(&c, b2, 3, 1, 1, NULL, o);
	CHECK_EQ(o[1].M, 1);
	CHECK_EQ(o[1].stall, 0);
	/* a load of the address a store before it wrote waits for the
	 * store (forwarded): the store issues at 0, the load at 1, its
	 * consumer l1d_lat later */
	{
		struct pmr_sinsn b4[3];
		const int32_t md[3] = { -1, 0, -1 };

		b4[0] = op(PMR_OP_STORE, -1, 1, 2);
		b4[1] = op(PMR_OP_LOAD, 3, 4, -1);
		b4[2] = op(PMR_OP_INT, 5, 3, -1);
		pmr_sim_sched(&c, b4, 3, 0, 0, NULL, o);
		CHECK_EQ(o[1].M, 0);
		pmr_sim_sched(&c, b4, 3, 0, 0, md, o);
		CHECK_EQ(o[1].M, 1);
		CHECK_EQ(o[1].why, PMR_SCHED_DEP);
		CHECK_EQ(o[1].culprit, 0);
		CHECK_EQ(o[2].M, c.l1d_lat);
	}
	/* the table is left clear: the same block again gives the same */
	pmr_sim_sched(&c, b1, 3, 0, 0, NULL, o);
	CHECK_EQ(o[1].t, 2);
	CHECK_EQ(o[2].src_from[0], -1);
}

/* pmr_sim_optime is pmsim's timing: a store's result after a cycle, an
 * ALU op with a memory source in the memory pool, after the load */
UNIT_TEST(optime)
{
	struct pmr_sim_config c;
	struct pmr_sim_optime t;

	CHECK_EQ(pmr_sim_config_preset(&c, "alpha21164"), 0);
	pmr_sim_optime(&c, PMR_OP_STORE, 0, 0, &t);
	CHECK_EQ(t.pool, PMR_SIM_POOL_MEM);
	CHECK_EQ(t.lat, 1);
	CHECK_EQ(t.nstore, 1);
	pmr_sim_optime(&c, PMR_OP_INT, 1, 0, &t);
	CHECK_EQ(t.pool, PMR_SIM_POOL_MEM);
	CHECK_EQ(t.hit, c.lat_alu + c.l1d_lat);
	pmr_sim_optime(&c, PMR_OP_FDIV, 0, 0, &t);
	CHECK_EQ(t.pool, PMR_SIM_POOL_FMUL);
	CHECK_EQ(t.occupy, c.lat_fdiv);
	pmr_sim_optime(&c, 200, 0, 0, &t);
	CHECK_EQ(t.cls, PMR_OP_OTHER);
}

UNIT_MAIN(
	UNIT_ENTRY(fig7),
	UNIT_ENTRY(hand),
	UNIT_ENTRY(sched_alpha),
	UNIT_ENTRY(optime)
)
