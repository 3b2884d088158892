/*
 * rec_icost.c: the field table of the COST record (type 35) that icost
 * writes with -f pmr, as man/pmr.5 (COSTS) and icost(1) list it.  A COST
 * stream holds one record per measured subset; streams merge by adding t
 * and ts of the records with the same source, categories and mask.
 */
#include <stddef.h>

#include "records/records.h"

#define F(name, kind, desc) \
	{ #name, PMR_K_##kind, 0, offsetof(struct pmr_cost_rec, name), desc }
#define F4(name, kind, desc) \
	{ #name, PMR_K_##kind, 4, offsetof(struct pmr_cost_rec, name), desc }

static const struct pmr_field cost_fields[] = {
	F(source, U8, "0 graph (GNODE), 1 multisim (one pmsim run per "
	    "subset), 2 shotgun fragments"),
	F(mask, U32, "the subset: bit k is category k of cats"),
	F(cats, STR, "the categories, comma-separated, in bit order"),
	F(t, U64, "base execution time, cycles"),
	F(ts, U64, "execution time with the subset idealized, cycles"),
	F(insns, U64, "instructions (graph nodes)"),
	F(frags, U64, "fragments (graph: streams and seq gaps; multisim: "
	    "runs)"),
	F4(digest, X64, "config digest of the machine (the base machine of "
	    "multisim's runs), 0 unknown"),
};

const struct pmr_rtype pmr_rtypes_icost[] = {
	{ PMR_REC_COST, "COST", "execution time of an idealized subset "
	    "(icost)", cost_fields, sizeof(cost_fields) /
	    sizeof(cost_fields[0]), sizeof(struct pmr_cost_rec) },
};

const unsigned pmr_rtypes_icost_n =
    sizeof(pmr_rtypes_icost) / sizeof(pmr_rtypes_icost[0]);
