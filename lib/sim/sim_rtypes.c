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
	pmr_sim_gnode_decode_at(p, g);
	return PMR_OK;
}
