/*
 * bpred.c: pmsim's direction predictors and BTB.
 *
 * Direction: bimodal (2-bit counters by pc), gshare (2-bit counters by
 * pc XOR global history), the Alpha 21264 tournament (local histories
 * feeding 3-bit counters, a global predictor and a choice predictor, both
 * indexed by global history) and McFarling's combined bimodal/gshare with
 * a pc-indexed meta predictor.  "perfect" is handled by the core.  Tables
 * are trained with the true outcome when the core asks (correct-path
 * fetch); the global history itself is kept by the core, speculatively.
 * The BTB is set-associative with LRU replacement.
 */
#include <stdlib.h>
#include <string.h>

#define PMR_SIM_INTERNAL
#include "sim.h"

static uint32_t
mask_of(unsigned n)
{
	uint32_t m = 1;

	while (m * 2 <= n)
		m *= 2;
	return m - 1;
}

static uint32_t
hpc(uint64_t pc)
{
	return (uint32_t)(pc ^ (pc >> 17) ^ (pc >> 31));
}

int
pmr_sim_bpred_init(struct pmr_sim_bpred *b, const struct pmr_sim_config *c)
{
	unsigned sets = c->btb / c->btb_assoc;

	memset(b, 0, sizeof(*b));
	b->kind = (int)c->bp;
	b->bim_mask = mask_of(c->bp_bimodal);
	b->gsh_mask = mask_of(c->bp_gshare);
	b->cho_mask = mask_of(c->bp_choice);
	b->lh_mask = mask_of(c->bp_local);
	b->lp_mask = (1u << c->bp_lhist) - 1;
	b->gmask = c->bp_ghist >= 32 ? 0xffffffffu : (1u << c->bp_ghist) - 1;
	b->bim = calloc((size_t)b->bim_mask + 1, 1);
	b->gsh = calloc((size_t)b->gsh_mask + 1, 1);
	b->cho = calloc((size_t)b->cho_mask + 1, 1);
	b->lpred = calloc((size_t)b->lp_mask + 1, 1);
	b->lhist = calloc((size_t)b->lh_mask + 1, sizeof(*b->lhist));
	sets = mask_of(sets) + 1;
	b->btb_sets = sets;
	b->btb_ways = c->btb_assoc;
	b->btb_pc = calloc((size_t)sets * b->btb_ways, sizeof(uint64_t));
	b->btb_tgt = calloc((size_t)sets * b->btb_ways, sizeof(uint64_t));
	b->btb_use = calloc((size_t)sets * b->btb_ways, sizeof(uint32_t));
	if (b->bim == NULL || b->gsh == NULL || b->cho == NULL ||
	    b->lpred == NULL || b->lhist == NULL || b->btb_pc == NULL ||
	    b->btb_tgt == NULL || b->btb_use == NULL) {
		pmr_sim_bpred_fini(b);
		return PMR_ENOMEM;
	}
	/* weakly taken / weakly global, as hardware usually resets */
	memset(b->cho, 1, (size_t)b->cho_mask + 1);
	return PMR_OK;
}

void
pmr_sim_bpred_fini(struct pmr_sim_bpred *b)
{
	free(b->bim);
	free(b->gsh);
	free(b->cho);
	free(b->lpred);
	free(b->lhist);
	free(b->btb_pc);
	free(b->btb_tgt);
	free(b->btb_use);
	memset(b, 0, sizeof(*b));
}

static void
ctr2(uint8_t *c, int taken)
{
	if (taken && *c < 3)
		(*c)++;
	else if (!taken && *c > 0)
		(*c)--;
}

int
pmr_sim_bpred_cond(struct pmr_sim_bpred *b, uint64_t pc, uint64_t ghist,
    int taken, int train)
{
	uint32_t h = hpc(pc), g = (uint32_t)ghist & b->gmask;
	uint8_t *bc, *gc, *cc, *lc;
	uint16_t *lh;
	int pb, pg, pl, pred;

	switch (b->kind) {
	case PMR_SIM_BP_BIMODAL:
		bc = &b->bim[h & b->bim_mask];
		pred = *bc >= 2;
		if (train)
			ctr2(bc, taken);
		return pred;
	case PMR_SIM_BP_GSHARE:
		gc = &b->gsh[(h ^ g) & b->gsh_mask];
		pred = *gc >= 2;
		if (train)
			ctr2(gc, taken);
		return pred;
	case PMR_SIM_BP_TOURNAMENT:
		lh = &b->lhist[h & b->lh_mask];
		lc = &b->lpred[*lh & b->lp_mask];
		gc = &b->gsh[g & b->gsh_mask];
		cc = &b->cho[g & b->cho_mask];
		pl = *lc >= 4;
		pg = *gc >= 2;
		pred = *cc >= 2 ? pg : pl;
		if (train) {
			if (pl != pg)
				ctr2(cc, pg == taken);
			if (taken && *lc < 7)
				(*lc)++;
			else if (!taken && *lc > 0)
				(*lc)--;
			ctr2(gc, taken);
			*lh = (uint16_t)((*lh << 1) | (taken != 0));
		}
		return pred;
	default:		/* PMR_SIM_BP_COMBINED */
		bc = &b->bim[h & b->bim_mask];
		gc = &b->gsh[(h ^ g) & b->gsh_mask];
		cc = &b->cho[h & b->cho_mask];
		pb = *bc >= 2;
		pg = *gc >= 2;
		pred = *cc >= 2 ? pg : pb;
		if (train) {
			if (pb != pg)
				ctr2(cc, pg == taken);
			ctr2(bc, taken);
			ctr2(gc, taken);
		}
		return pred;
	}
}

uint64_t
pmr_sim_btb_lookup(struct pmr_sim_bpred *b, uint64_t pc)
{
	size_t base = (size_t)(hpc(pc) & (b->btb_sets - 1)) * b->btb_ways;
	unsigned w;

	for (w = 0; w < b->btb_ways; w++)
		if (b->btb_pc[base + w] == pc + 1) {
			b->btb_use[base + w] = ++b->btb_clock;
			return b->btb_tgt[base + w];
		}
	return 0;
}

void
pmr_sim_btb_update(struct pmr_sim_bpred *b, uint64_t pc, uint64_t target)
{
	size_t base = (size_t)(hpc(pc) & (b->btb_sets - 1)) * b->btb_ways;
	unsigned w, v = 0;

	for (w = 0; w < b->btb_ways; w++) {
		if (b->btb_pc[base + w] == pc + 1 || b->btb_pc[base + w] == 0) {
			v = w;
			break;
		}
		if ((int32_t)(b->btb_use[base + w] - b->btb_use[base + v]) < 0)
			v = w;
	}
	b->btb_pc[base + v] = pc + 1;
	b->btb_tgt[base + v] = target;
	b->btb_use[base + v] = ++b->btb_clock;
}
