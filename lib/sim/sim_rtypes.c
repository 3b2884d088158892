/*
 * sim_rtypes.c: the simulator's access to the field tables of the records
 * it writes (STATS, SAMPLE, PAIR, TRUTH, ATRUTH, GNODE, SIG, DET).  The
 * tables and the decoded structs are in lib/records (rec_sim.c,
 * records.h), as man/pmr.5 (SIMULATION RECORDS) lists them; and a fast
 * decoder of the GNODE records a graph reader takes by the million.
 */
#include "sim/sim.h"

const struct pmr_rtype *
pmr_sim_rtype(uint32_t type)
{
	unsigned i;

	for (i = 0; i < pmr_rtypes_sim_n; i++)
		if (pmr_rtypes_sim[i].type == type)
			return &pmr_rtypes_sim[i];
	return NULL;
}

#define GNODE_LEN PMR_SIM_GNODE_LEN

int
pmr_sim_gnode_decode(const struct pmr_rec *rec, struct pmr_sim_gnode *g,
    const char **why)
{
	const unsigned char *p = rec->p;

	if (rec->type != PMR_REC_GNODE || rec->len != GNODE_LEN)
		return pmr_rec_decode(rec, g, why);
	/* the field table's order (lib/records/rec_sim.c); test_sim checks
	 * that this agrees with the table on random records */
	g->seq = pmr_le64(p);
	g->pc = pmr_le64(p + 8);
	g->cls = p[16];
	g->partial = p[17];
	g->events = pmr_le32(p + 18);
	g->dd_fetch = pmr_le16(p + 22);
	g->re = pmr_le32(p + 24);
	g->ep_fu = pmr_le16(p + 28);
	g->ep_mem = pmr_le16(p + 30);
	g->ep_miss = pmr_le16(p + 32);
	g->ep_tlb = pmr_le16(p + 34);
	g->cc = pmr_le16(p + 36);
	g->pr_reg_a = pmr_le32(p + 38);
	g->pr_reg_b = pmr_le32(p + 42);
	g->pr_reg_c = pmr_le32(p + 46);
	g->pr_mem = pmr_le32(p + 50);
	g->pp = pmr_le32(p + 54);
	g->at_d = pmr_le64(p + 58);
	g->at_r = pmr_le64(p + 66);
	g->at_e = pmr_le64(p + 74);
	g->at_p = pmr_le64(p + 82);
	g->at_c = pmr_le64(p + 90);
	g->dd_itlb = pmr_le16(p + 98);
	g->dd_brk = pmr_le16(p + 100);
	g->rs = pmr_le32(p + 102);
	g->rk = p[106];
	g->dd_dec = pmr_le16(p + 107);
	g->dd_wp = pmr_le16(p + 109);
	g->pl = pmr_le32(p + 111);
	return PMR_OK;
}
