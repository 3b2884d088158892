/*
 * sim_rtypes.c: the simulator's access to the field tables of the records
 * it writes (STATS, SAMPLE, PAIR, TRUTH, ATRUTH, GNODE, SIG, DET).  The
 * tables and the decoded structs are in lib/records (rec_sim.c,
 * records.h), as man/pmr.5 (SIMULATION RECORDS) lists them.
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
