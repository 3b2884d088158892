/*
 * rename.c: map (rename): register dependences renamed to producer slots,
 * window and queue stalls, the renamed instruction pointer.
 */
#include "sim/sim_internal.h"

void
sim_stall(struct pmr_sim *s, int why)
{
	switch (why) {
	case PMR_SIM_ST_ICACHE:
		s->st.st_icache++;
		break;
	case PMR_SIM_ST_REDIRECT:
		s->st.st_redirect++;
		break;
	case PMR_SIM_ST_ROB:
		s->st.st_rob++;
		break;
	case PMR_SIM_ST_IQ:
		s->st.st_iq++;
		break;
	case PMR_SIM_ST_REGS:
		s->st.st_regs++;
		break;
	default:
		s->st.st_lsq++;
		break;
	}
}

int
sim_is_fp_reg(uint16_t r)
{
	return r >= PMR_X86_XMM0 && r < PMR_X86_K0;
}

/*
 * ip_reg: a conditional branch or call reads the instruction pointer,
 * and every transfer writes it (after its other destinations).
 */
void __attribute__((noinline))
ip_map(struct pmr_sim *s, struct ent *e, uint32_t slot)
{
	struct undo *u;

	if ((e->cls == PMR_OP_BR_COND || e->cls == PMR_OP_CALL ||
	    e->cls == PMR_OP_CALL_IND) && s->rat[PMR_X86_RIP] != 0) {
		depend(s, e, slot, s->rat[PMR_X86_RIP] - 1,
		    s->ratseq[PMR_X86_RIP]);
		if (s->graph_on)
			sim_gn_preg(s, e, slot, PMR_X86_RIP);
	}
	if (e->ndst >= MAXD)
		return;
	u = e->ndst == 0 ? &e->u0 : &s->undo[slot].u[e->ndst - 1];
	u->dreg = PMR_X86_RIP;
	u->prev = s->rat[PMR_X86_RIP];
	u->prevd = e->seq - s->ratseq[PMR_X86_RIP] < 0xffffffffu ?
	    (uint32_t)(e->seq - s->ratseq[PMR_X86_RIP]) : 0xffffffffu;
	e->ndst++;
	s->rat[PMR_X86_RIP] = slot + 1;
	s->ratseq[PMR_X86_RIP] = e->seq;
}

void
sim_map_one(struct pmr_sim *s, struct ent *e, uint32_t slot)
{
	const struct pmr_sinsn *si = s->warm[slot].si;
	unsigned i;

	e->M = s->now;
	e->D = s->now;
	e->pending = 0;
	e->waiters = -1;
	e->flags |= E_MAPPED;
	if (si != NULL) {
		for (i = 0; i < si->nsrc; i++) {
			uint16_t r = si->src[i] % NREG;

			if (r == PMR_X86_RIP)
				continue;
			if (s->rat[r] != 0) {
				depend(s, e, slot, s->rat[r] - 1, s->ratseq[r]);
				if (s->graph_on)
					sim_gn_preg(s, e, slot, r);
			}
		}
		if (e->nload > 0 && !(e->flags & E_WP)) {
			/* a younger load of an in-flight store's address
			 * waits for the store and takes its data */
			uint64_t a = e->laddr0 >> 3;
			uint32_t k = (uint32_t)(a & (STAB - 1));

			if (s->stab[k].slot != 0 && s->stab[k].addr == a) {
				struct ent *p = &s->ents[s->stab[k].slot - 1];

				if ((p->flags & E_LIVE) &&
				    p->seq == s->stab[k].seq &&
				    (!s->c.mem_order || (p->flags & E_ISSUED) ||
				    s->pcs[e->pcx].wait ==
				    (uint32_t)(s->now / WAIT_CLEAR) + 1)) {
					e->flags |= E_FWD;
					if (s->graph_on)
						s->gnodes[slot].pmem =
						    (uint32_t)(e->seq - p->seq);
					depend(s, e, slot, s->stab[k].slot - 1,
					    s->stab[k].seq);
				}
			}
		}
		e->ndst = 0;
		for (i = 0; i < si->ndst && e->ndst < MAXD; i++) {
			uint16_t r = si->dst[i] % NREG;
			struct undo *u;

			if (r == PMR_X86_RIP || (r == PMR_X86_RSP &&
			    s->c.sp_fold && ((e->flags & E_BRANCH) ||
			    si->nmem > 0)))
				continue;	/* stack engine */

			u = e->ndst == 0 ? &e->u0 :
			    &s->undo[slot].u[e->ndst - 1];
			u->dreg = r;
			u->prev = s->rat[r];
			u->prevd = e->seq - s->ratseq[r] < 0xffffffffu ?
			    (uint32_t)(e->seq - s->ratseq[r]) : 0xffffffffu;
			e->ndst++;
			s->rat[r] = slot + 1;
			s->ratseq[r] = e->seq;
		}
		if (e->flags & E_IPREG)
			ip_map(s, e, slot);
		if (e->nstore > 0 && !(e->flags & E_WP)) {
			uint64_t a = e->addr >> 3;
			uint32_t k = (uint32_t)(a & (STAB - 1));

			s->stab[k].slot = slot + 1;
			s->stab[k].seq = e->seq;
			s->stab[k].addr = a;
		}
	}
	if (e->flags & E_FP) {
		s->iq_fp_free--;
		s->regs_fp_free -= e->ndst;
	} else {
		s->iq_int_free--;
		s->regs_int_free -= e->ndst;
	}
	/* no branches: loads and stores come at random */
	s->lq_free -= e->nload != 0;
	s->sq_free -= e->nstore != 0;
	if (e->pending == 0)
		schedule(s, slot, e->D > s->now + 1 ? e->D : s->now + 1);
	if (s->o.pm_select == PMR_SIM_SELECT_MAPPED && s->measuring &&
	    s->o.pm != PMR_SIM_PM_OFF)
		pm_fetch(s, e);	/* ibs: counting dispatched ops */
}

/* wrong_path 0: 1 if e must wait for its line or the DIB-miss decode. */
int __attribute__((noinline))
fe_wait(const struct pmr_sim *s, const struct ent *e, uint32_t slot)
{
	return s->fready[slot] + s->c.frontend +
	    ((e->flags & E_DIBMISS) ? DIB_MISS : 0) > s->now;
}

void __attribute__((noinline))
dib_fill(struct pmr_sim *s, const struct ent *e)
{
	pmr_sim_cache_access(&s->dib, e->pc, 1);
}

/* Notes the instruction that freed what e waited for at map (GNODE rs). */
static void __attribute__((noinline))
gn_release(struct pmr_sim *s, const struct ent *e, uint32_t slot)
{
	struct egn *g = &s->gnodes[slot];
	int fp = (e->flags & E_FP) != 0;
	uint64_t r;

	r = g->rwhy == 1 ? s->rel_iq[fp] : g->rwhy == 2 ? s->rel_regs[fp] :
	    g->rwhy == 3 ? s->rel_lq : s->rel_sq;
	g->rsrc = r != 0 && e->seq + 1 > r && e->seq + 1 - r < 0xffffffffu ?
	    (uint32_t)(e->seq + 1 - r) : 0;
}

void
sim_map(struct pmr_sim *s)
{
	unsigned n = 0;
	int why = -1;

	while (n < s->c.map_width && s->map != s->tail) {
		uint32_t slot = (uint32_t)(s->map & s->wmask);
		struct ent *e = &s->ents[slot];
		unsigned nd;
		uint32_t ev = 0;

		if (e->F + s->c.frontend > s->now)
			break;
		if (s->fready != NULL && fe_wait(s, e, slot))
			break;
		nd = e->ndst;	/* set at sim_fetch (ent_setup) */
		if (s->map - s->head >= s->c.rob) {
			why = PMR_SIM_ST_ROB;
			ev = PMR_SIM_EV_MAP_ROB;
		} else if ((e->flags & E_FP) ? s->iq_fp_free == 0 :
		    s->iq_int_free == 0) {
			why = PMR_SIM_ST_IQ;
			ev = PMR_SIM_EV_MAP_IQ;
		} else if ((e->flags & E_FP) ? s->regs_fp_free < nd :
		    s->regs_int_free < nd) {
			why = PMR_SIM_ST_REGS;
			ev = PMR_SIM_EV_MAP_REGS;
		} else if (((e->nload != 0) & (s->lq_free == 0)) |
		    ((e->nstore != 0) & (s->sq_free == 0))) {
			why = PMR_SIM_ST_LSQ;
			ev = PMR_SIM_EV_LSQ_FULL;
		}
		if (why >= 0) {
			e->events |= ev;
			if (s->graph_on)
				s->gnodes[slot].rwhy = why == PMR_SIM_ST_IQ ?
				    1 : why == PMR_SIM_ST_REGS ? 2 :
				    why != PMR_SIM_ST_LSQ ? 0 :
				    ((e->nload != 0) & (s->lq_free == 0)) ? 3 : 4;
			break;
		}
		if (s->graph_on && s->gnodes[slot].rwhy != 0)
			gn_release(s, e, slot);
		if (e->flags & E_DIBMISS)	/* decoded: fill the DIB */
			dib_fill(s, e);
		sim_map_one(s, e, slot);
		s->map++;
		n++;
	}
	s->map_why = why;
	if (s->measuring) {
		if (why >= 0)
			sim_stall(s, why);
		else if (n < s->c.map_width) {	/* Top-Down: not back end */
			if (s->td_recov && n == 0)
				s->st.td_bad += s->c.map_width;
			else
				s->st.td_fe += s->c.map_width - n;
		}
		s->st.td_mapped += n;
	}
	if (n > 0)
		s->td_recov = 0;
	sim_soon_merge(s);
}
