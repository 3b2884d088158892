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
 *
 * "champsim" reproduces ChampSim's branch/bimodal and btb/basic_btb
 * (files of the ChampSim repository): 2-bit counters indexed by the pc
 * modulo the largest prime below the table size (16381 for 16384),
 * trained by every branch, unconditional ones too; a BTB of
 * sets x ways indexed and tagged by pc >> 2 whose entries keep a kind
 * (conditional, indirect, return, always taken) and are allocated only
 * by taken transfers; indirect targets from a table indexed by
 * (pc >> 2) XOR the history of conditional outcomes; returns predicted
 * as the top call pc plus a call size learned per call pc (4 at first).
 */
#include <stdlib.h>
#include <string.h>

#define PMR_SIM_INTERNAL
#include "sim/sim.h"

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

enum { CS_COND = 1, CS_IND, CS_RET, CS_ALWAYS };	/* btb_kind, 0 empty */

static int
cs_init(struct pmr_sim_bpred *b, const struct pmr_sim_config *c)
{
	unsigned sets = mask_of(c->btb / c->btb_assoc) + 1, i;
	uint32_t p;

	/* bimodal.h: a table of bp_bimodal counters, indexed modulo the
	 * largest prime below it (16381 for 16384) */
	for (p = c->bp_bimodal - 1; p > 2; p--) {
		uint32_t d;

		for (d = 2; d * d <= p && p % d != 0; d++)
			;
		if (d * d > p)
			break;
	}
	b->cs_prime = p;
	b->bim_mask = c->bp_bimodal - 1;
	b->bim = calloc(c->bp_bimodal, 1);
	b->btb_sets = sets;
	b->btb_ways = c->btb_assoc;
	b->btb_pc = calloc((size_t)sets * b->btb_ways, sizeof(uint64_t));
	b->btb_tgt = calloc((size_t)sets * b->btb_ways, sizeof(uint64_t));
	b->btb_use = calloc((size_t)sets * b->btb_ways, sizeof(uint32_t));
	b->btb_kind = calloc((size_t)sets * b->btb_ways, 1);
	/* indirect_predictor.h: 2^bp_ghist targets, bp_ghist bits of
	 * conditional history (4096 and 12) */
	b->gmask = c->bp_ghist >= 32 ? 0xffffffffu : (1u << c->bp_ghist) - 1;
	b->cs_ind_mask = b->gmask;
	b->cs_ind = calloc((size_t)b->cs_ind_mask + 1, sizeof(uint64_t));
	b->cs_ras_max = c->ras;
	b->cs_ras = calloc(c->ras, sizeof(uint64_t));
	/* return_stack.h: call sizes start at 4 */
	for (i = 0; i < 1024; i++)
		b->cs_csize[i] = 4;
	if (b->bim == NULL || b->btb_pc == NULL || b->btb_tgt == NULL ||
	    b->btb_use == NULL || b->btb_kind == NULL || b->cs_ind == NULL ||
	    b->cs_ras == NULL) {
		pmr_sim_bpred_fini(b);
		return PMR_ENOMEM;
	}
	return PMR_OK;
}

/* The way of pc's BTB entry (set and tag pc >> 2), or -1; LRU touch. */
static int
cs_btb_hit(struct pmr_sim_bpred *b, uint64_t pc, size_t *base)
{
	uint64_t tag = (pc >> 2) + 1;
	unsigned w;

	*base = (size_t)((pc >> 2) & (b->btb_sets - 1)) * b->btb_ways;
	for (w = 0; w < b->btb_ways; w++)
		if (b->btb_pc[*base + w] == tag) {
			b->btb_use[*base + w] = ++b->btb_clock;
			return (int)w;
		}
	return -1;
}

uint64_t
pmr_sim_cs_predict(struct pmr_sim_bpred *b, uint64_t pc, unsigned cls,
    int *taken)
{
	uint64_t t = 0;
	size_t base;
	int w = cs_btb_hit(b, pc, &base), always = 0;

	(void)cls;
	if (w >= 0) {
		switch (b->btb_kind[base + (unsigned)w]) {
		case CS_RET:
			always = 1;
			if (b->cs_ras_n > 0) {
				t = b->cs_ras[b->cs_ras_top];
				t += b->cs_csize[t % 1024];
			}
			break;
		case CS_IND:
			always = 1;
			t = b->cs_ind[((pc >> 2) ^ b->cs_hist) &
			    b->cs_ind_mask];
			break;
		case CS_ALWAYS:
			always = 1;
			/* FALLTHROUGH */
		default:
			t = b->btb_tgt[base + (unsigned)w];
		}
	}
	*taken = always || b->bim[pc % b->cs_prime] >= 2;
	return *taken ? t : 0;
}

void
pmr_sim_cs_update(struct pmr_sim_bpred *b, uint64_t pc, unsigned cls,
    int taken, uint64_t target)
{
	uint8_t kind = CS_ALWAYS, *bc = &b->bim[pc % b->cs_prime];
	size_t base;
	int w;

	if (cls == PMR_OP_CALL || cls == PMR_OP_CALL_IND) {
		b->cs_ras_top = (b->cs_ras_top + 1) % b->cs_ras_max;
		b->cs_ras[b->cs_ras_top] = pc;
		if (b->cs_ras_n < b->cs_ras_max)
			b->cs_ras_n++;	/* else the oldest is lost */
	}
	if (cls == PMR_OP_JMP_IND || cls == PMR_OP_CALL_IND)
		b->cs_ind[((pc >> 2) ^ b->cs_hist) & b->cs_ind_mask] = target;
	if (cls == PMR_OP_BR_COND)
		b->cs_hist = ((b->cs_hist << 1) | (taken != 0)) & b->gmask;
	if (cls == PMR_OP_RET && b->cs_ras_n > 0) {
		uint64_t call = b->cs_ras[b->cs_ras_top];
		uint64_t d = call > target ? call - target : target - call;

		b->cs_ras_top = (b->cs_ras_top + b->cs_ras_max - 1) %
		    b->cs_ras_max;
		b->cs_ras_n--;
		if (d <= 10)
			b->cs_csize[call % 1024] = d;
	}
	if (cls == PMR_OP_JMP_IND || cls == PMR_OP_CALL_IND)
		kind = CS_IND;
	else if (cls == PMR_OP_RET)
		kind = CS_RET;
	else if (cls == PMR_OP_BR_COND)
		kind = CS_COND;
	w = cs_btb_hit(b, pc, &base);
	if (w >= 0) {
		b->btb_kind[base + (unsigned)w] = kind;
		if (target != 0)
			b->btb_tgt[base + (unsigned)w] = target;
	} else if (target != 0) {
		unsigned v = 0, i;

		for (i = 0; i < b->btb_ways; i++) {
			if (b->btb_pc[base + i] == 0) {
				v = i;
				break;
			}
			if ((int32_t)(b->btb_use[base + i] -
			    b->btb_use[base + v]) < 0)
				v = i;
		}
		b->btb_pc[base + v] = (pc >> 2) + 1;
		b->btb_tgt[base + v] = target;
		b->btb_kind[base + v] = kind;
		b->btb_use[base + v] = ++b->btb_clock;
	}
	/* bimodal.cc: every branch trains its counter */
	if (taken && *bc < 3)
		(*bc)++;
	else if (!taken && *bc > 0)
		(*bc)--;
}

int
pmr_sim_bpred_init(struct pmr_sim_bpred *b, const struct pmr_sim_config *c)
{
	unsigned sets = c->btb / c->btb_assoc;

	memset(b, 0, sizeof(*b));
	b->kind = (int)c->bp;
	if (c->bp == PMR_SIM_BP_CHAMPSIM)
		return cs_init(b, c);
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
	free(b->btb_kind);
	free(b->cs_ind);
	free(b->cs_ras);
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
