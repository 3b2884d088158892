/*
 * graph.c: GNODE records: the five-node dependence-graph node of each retired
 * instruction (Fields et al., MICRO-36, §2), and the shotgun hand-off.
 */
#include "sim/sim_internal.h"

/*
 * Returns the commit-order distance of the producer d fetch positions
 * before e, which retires as number seq, or 0 if that producer did not
 * retire or is too far back.
 */
static uint32_t
gnode_dist(const struct pmr_sim *s, const struct ent *e, uint64_t seq,
    uint32_t d)
{
	uint64_t p;

	if (d == 0 || d > e->seq || d > s->gmask)
		return 0;
	p = e->seq - d;
	if (s->gpos[p & s->gmask] != p + 1)
		return 0;
	return (uint32_t)(seq - s->gseq[p & s->gmask]);
}

/* Fills *g with the GNODE content of e, retired as number seq. */
static void
gnode_fill(const struct pmr_sim *s, const struct ent *e, uint64_t seq,
    struct pmr_sim_gnode *g)
{
	const struct egn *x = &s->gnodes[e - s->ents];

	memset(g, 0, sizeof(*g));
	g->seq = seq;
	g->pc = e->pc;
	g->cls = e->cls;
	g->partial = x->ppp != 0;
	g->events = e->events | PMR_SIM_EV_RETIRED;
	g->dd_fetch = x->dd_fetch;
	/* ready: data ready and one cycle after map (sim_map_one) */
	g->re = (uint32_t)(e->X - (e->D > e->M + 1 ? e->D : e->M + 1));
	g->ep_fu = e->lat;
	g->ep_mem = x->ep_mem;
	g->ep_miss = x->ep_miss;
	g->ep_tlb = x->ep_tlb;
	g->pr_reg_a = gnode_dist(s, e, seq, x->preg[0]);
	g->pr_reg_b = gnode_dist(s, e, seq, x->preg[1]);
	g->pr_reg_c = gnode_dist(s, e, seq, x->preg[2]);
	g->pr_mem = gnode_dist(s, e, seq, x->pmem);
	g->pp = gnode_dist(s, e, seq, x->ppp);
	if (g->pp != 0)		/* the wait for the line is the PP edge */
		g->ep_miss = 0;
	g->dd_itlb = x->dd_itlb;
	g->dd_brk = x->dd_brk;
	g->dd_dec = (e->flags & E_DIBMISS) ? DIB_MISS : 0;
	g->dd_wp = x->dd_wp;
	g->pl = gnode_dist(s, e, seq, x->pfill);
	g->rs = gnode_dist(s, e, seq, x->rsrc);
	g->rk = g->rs == 0 ? PMR_SIM_RK_NONE : x->rwhy == 1 ? PMR_SIM_RK_ISSUE :
	    PMR_SIM_RK_RETIRE;
	g->at_d = e->M;
	g->at_r = e->D;
	g->at_e = e->X;
	g->at_p = e->res;
	g->at_c = s->now;
}

/*
 * Records the commit indices of the n instructions retired this cycle
 * and writes the GNODE records of the measured ones (--graph), and
 * shows them to the shotgun sampler (--shotgun).  Called once a cycle,
 * after the retire loop, so that the loop pays nothing.
 */
void __attribute__((noinline))
sim_gnode_retire(struct pmr_sim *s, unsigned n)
{
	struct pmr_sim_gnode g;
	uint64_t i, seq;

	for (i = s->head - n; i < s->head; i++) {
		const struct ent *e = &s->ents[i & s->wmask];

		seq = s->retired_all - (s->head - i);
		if (seq >= s->o.warmup && s->o.graph) {
			gnode_fill(s, e, seq, &g);
			sim_emit(s, PMR_REC_GNODE, &g);
		}
		if (seq >= s->o.warmup && s->sg != NULL &&
		    pmr_sim_shotgun_retire(s->sg, seq, e->pc, e->cls,
		    e->events | PMR_SIM_EV_RETIRED)) {
			if (!s->o.graph)
				gnode_fill(s, e, seq, &g);
			pmr_sim_shotgun_take(s->sg, &g, ent_next_pc(s, e));
		}
		s->gpos[e->seq & s->gmask] = e->seq + 1;
		s->gseq[e->seq & s->gmask] = seq;
	}
}

/* The shotgun sampler's way to sim_emit(). */
void
sim_shotgun_emit(void *s, uint32_t type, const void *rec)
{
	struct pmr_sim *sim = s;

	sim->sg_sigs += type == PMR_REC_SIG;
	sim->sg_dets += type == PMR_REC_DET;
	sim_emit(sim, type, rec);
}

/* Notes the fetch distance to the producer of register r (GNODE). */
void
sim_gn_preg(struct pmr_sim *s, const struct ent *e, uint32_t slot, uint16_t r)
{
	struct egn *g = &s->gnodes[slot];
	uint64_t dist = e->seq - s->ratseq[r];
	unsigned k;

	for (k = 0; k < 3; k++)
		if (g->preg[k] == 0 || g->preg[k] == dist)
			break;
	if (k < 3 && dist < 0xffffffffu)
		g->preg[k] = (uint32_t)dist;
}

/* Takes the I-side latency parts for the new entry in slot (GNODE). */
void
sim_gn_fetch(struct pmr_sim *s, uint32_t slot)
{
	struct egn *g = &s->gnodes[slot];

	g->dd_fetch = (uint16_t)(s->pend_dd > 0xffff ? 0xffff : s->pend_dd);
	g->dd_itlb = (uint16_t)(s->pend_itlb > g->dd_fetch ? g->dd_fetch :
	    s->pend_itlb);
	g->dd_brk = (uint16_t)s->pend_brk;
	g->dd_wp = (uint16_t)(s->pend_wp > 0xffff ? 0xffff : s->pend_wp);
	g->ep_mem = g->ep_miss = g->ep_tlb = 0;
	g->preg[0] = g->preg[1] = g->preg[2] = g->pmem = g->ppp = 0;
	g->pfill = 0;
	g->rsrc = 0;
	g->rwhy = 0;
}
