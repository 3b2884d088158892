/*
 * registry.c: the registry of record types, the union of the family
 * tables (rec_core.c, rec_trace.c, rec_sim.c, rec_icost.c, rec_pairs.c) in man/pmr.5
 * order, looked up by number or by name.  The stream library's codec,
 * printer and parser find a record's field table here.
 */
#include <strings.h>

#include "records/records.h"

#define NTYPES_MAX 128
static const struct pmr_rtype *all[NTYPES_MAX];
static unsigned nall;
static const struct pmr_rtype *direct[PMR_REC_USER];	/* types < 64 */

static void
add_table(const struct pmr_rtype *tab, unsigned n)
{
	unsigned j;

	for (j = 0; j < n && nall < NTYPES_MAX; j++) {
		all[nall++] = &tab[j];
		if (tab[j].type < PMR_REC_USER)
			direct[tab[j].type] = &tab[j];
	}
}

/* Builds the registry: the core types, then each family's table. */
static void
registry_init(void)
{
	if (nall > 0)
		return;
	add_table(pmr_rtypes_core, pmr_rtypes_core_n);
	add_table(pmr_rtypes_trace, pmr_rtypes_trace_n);
	add_table(pmr_rtypes_sim, pmr_rtypes_sim_n);
	add_table(pmr_rtypes_icost, pmr_rtypes_icost_n);
	add_table(pmr_rtypes_pairs, pmr_rtypes_pairs_n);
}

const struct pmr_rtype *
pmr_rtype_find(uint32_t type)
{
	unsigned i;

	registry_init();
	if (type < PMR_REC_USER)
		return direct[type];
	for (i = 0; i < nall; i++)
		if (all[i]->type == type)
			return all[i];
	return NULL;
}

const struct pmr_rtype *
pmr_rtype_byname(const char *name)
{
	unsigned i;

	registry_init();
	for (i = 0; i < nall; i++)
		if (strcasecmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

const struct pmr_rtype *
pmr_rtype_at(unsigned i)
{
	registry_init();
	return i < nall ? all[i] : NULL;
}
