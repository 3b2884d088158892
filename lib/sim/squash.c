/*
 * squash.c: squash and replay: mispredict resolution, replay traps
 * (memory-order), aborted instructions, the per-instruction hook.
 */
#include "sim/sim_internal.h"

/* Returns the absolute index of window slot (which holds an entry). */
uint64_t
sim_slot_abs(const struct pmr_sim *s, uint32_t slot)
{
	return s->head + ((slot - (uint32_t)(s->head & s->wmask)) & s->wmask);
}

/* Forgets issued load e in the memory-order filter (mem_order). */
void
sim_ldcnt_drop(struct pmr_sim *s, struct ent *e)
{
	/* without a branch: any instruction comes here, few counted */
	unsigned c = (e->flags & E_LDCNT) != 0;
	uint32_t k = c ? (uint32_t)((e->laddr0 >> 3) & (STAB - 1)) : 0;

	s->stab[k].ldcnt = (uint16_t)(s->stab[k].ldcnt - c);
	e->flags &= ~E_LDCNT;
}

void
sim_unready(struct pmr_sim *s, uint32_t slot)
{
	s->ready[slot >> 6] &= ~(1ull << (slot & 63));
}

/* Releases the resources of mapped entry e (squash path). */
static void
unmap(struct pmr_sim *s, struct ent *e, uint32_t slot)
{
	int i;
	int32_t n;

	for (i = e->ndst - 1; i >= 0; i--) {
		const struct undo *u = i == 0 ? &e->u0 :
		    &s->undo[slot].u[i - 1];

		s->rat[u->dreg] = u->prev;
		s->ratseq[u->dreg] = e->seq - u->prevd;
	}
	if (e->flags & E_FP)
		s->regs_fp_free += e->ndst;
	else
		s->regs_int_free += e->ndst;
	if (!(e->flags & E_ISSUED)) {
		if (e->flags & E_FP)
			s->iq_fp_free++;
		else
			s->iq_int_free++;
	}
	if (e->nload)
		s->lq_free++;
	if (e->nstore)
		s->sq_free++;
	if (e->flags & E_READYBIT)
		sim_unready(s, slot);
	for (n = e->waiters; n >= 0;) {
		int32_t nx = s->node[n].next;

		sim_node_free(s, n);
		n = nx;
	}
	e->waiters = -1;
}

/*
 * Shows the hook a finished instruction, with every stamp and latency
 * component (the content of a GNODE record, Fields et al. MICRO-36 §2).
 */
void
sim_hook_insn(struct pmr_sim *s, const struct ent *e, int retired)
{
	struct pmr_sim_insn r;
	const struct egn *g = &s->gnodes[e - s->ents];
	int issued = (e->flags & E_ISSUED) != 0;

	memset(&r, 0, sizeof(r));
	r.pos = e->seq;
	r.pc = e->pc;
	r.F = e->F;
	r.M = (e->flags & E_MAPPED) ? e->M : ~0ull;
	r.D = (e->flags & E_SCHED) ? e->D : ~0ull;
	r.X = issued ? e->X : ~0ull;
	r.RR = issued ? e->RR : ~0ull;
	r.LC = issued ? e->LC : ~0ull;
	r.end = s->now;
	r.events = e->events | (retired ? PMR_SIM_EV_RETIRED : 0);
	r.cls = e->cls;
	r.trap = retired ? 0 : e->trap;
	r.retired = (uint8_t)retired;
	r.dd_fetch = g->dd_fetch;
	r.ep_fu = e->lat;
	r.ep_mem = g->ep_mem;
	r.ep_miss = g->ep_miss;
	r.ep_tlb = g->ep_tlb;
	memcpy(r.preg, g->preg, sizeof(r.preg));
	r.pmem = g->pmem;
	r.ppp = g->ppp;
	r.cpos = retired ? s->retired_all : 0;
	s->hook(s->hookarg, PMR_SIM_HOOK_INSN, &r);
}

/* Common bookkeeping of an aborted entry. */
void
sim_abort_ent(struct pmr_sim *s, struct ent *e, uint8_t trap)
{
	e->trap = trap;
	/* the issue counts are for the useful-concurrency truth alone */
	if (s->o.truth && (e->flags & E_ISSUED) && e->X >= s->fin)
		s->conc[e->X & (CRING - 1)].iss--;
	sim_occ_add(s, e->F, s->now, 0);
	sim_ldcnt_drop(s, e);
	if (s->measuring && trap != PMR_SIM_TRAP_END) {
		if (s->hook != NULL)
			sim_hook_insn(s, e, 0);
		s->st.aborted++;
		if (s->o.truth) {
			struct pmr_sim_truth *t = &s->truth[e->pcx].t;

			t->aborted++;
			if (trap == PMR_SIM_TRAP_BR_MISP ||
			    trap == PMR_SIM_TRAP_JMP_MISP)
				t->ab_misp++;
			else
				t->ab_other++;
			t->inprog += s->now - e->F;
			uq_push(s, e->pcx, e->F, s->now, 0);
		}
	}
	if (e->tag != 0) {
		if (trap == PMR_SIM_TRAP_END) {
			s->st.dropped++;
			e->tag = 0;
		} else
			sim_ps_fill(s, e);
	}
	e->flags &= ~E_LIVE;
}

/* Aborts every entry younger than the mispredicted one and redirects. */
void __attribute__((noinline))
sim_resolve(struct pmr_sim *s)
{
	uint32_t bslot = s->res_slot;
	struct ent *b = &s->ents[bslot];
	uint64_t keep = s->head, i;
	uint8_t trap;

	s->res_pending = 0;
	/* absolute index of the branch */
	keep = sim_slot_abs(s, bslot);
	trap = (b->events & PMR_SIM_EV_BR_MISP) ? PMR_SIM_TRAP_BR_MISP :
	    PMR_SIM_TRAP_JMP_MISP;
	for (i = s->tail; i-- > keep + 1;) {
		uint32_t slot = (uint32_t)(i & s->wmask);
		struct ent *e = &s->ents[slot];

		if (e->flags & E_MAPPED)
			unmap(s, e, slot);
		sim_abort_ent(s, e, trap);
	}
	s->tail = keep + 1;
	if (s->map > s->tail)
		s->map = s->tail;
	s->wrongpath = 0;
	s->wp_stuck = 0;
	s->ghist = s->ghist_fix;
	s->ras_top = s->ras_fix_top;
	s->ras[s->ras_top] = s->ras_fix_val;
	s->ras_pcx[s->ras_top] = s->ras_fix_pcx;
	s->fetch_at = s->now + s->c.redirect;
	s->fetch_why = PMR_SIM_ST_REDIRECT;
	s->td_recov = 1;
	s->hd_redir = PMR_SIM_HD_MISP;	/* TRUTH hd_misp */
	s->cur_line = 0;
	/* stalls and events of the wrong path are not the next one's */
	s->pend_dd = s->pend_itlb = s->pend_brk = s->pend_ev = 0;
	s->pend_wp = 0;
	b->flags &= ~E_MISP;
}

/* Puts d at the front of the replay deque (fetched before the rest). */
static void
rpl_front(struct pmr_sim *s, const struct pmr_dinsn *d)
{
	uint32_t cap = s->wsize + 2;

	if (s->rpl_n == cap)
		return;		/* cannot happen: see pmr_sim_new */
	s->rpl_head = (s->rpl_head + cap - 1) % cap;
	s->rpl[s->rpl_head] = *d;
	s->rpl_n++;
}

/* Rebuilds the dynamic instruction of correct-path entry e. */
static void
ent_dinsn(const struct pmr_sim *s, const struct ent *e, struct pmr_dinsn *d)
{
	const struct ecold *c = ecold(s, e);
	unsigned i, nl = e->nload < MAXL ? e->nload : MAXL;

	memset(d, 0, sizeof(*d));
	d->si = ent_si(s, e);
	d->seq = e->seq;
	d->pc = e->pc;
	d->next_pc = ent_next_pc(s, e);
	d->tid = (e->flags & E_TID) ? c->tid : 0;
	d->value = (e->flags & E_NZVAL) ? c->value : 0;
	d->flags = (uint8_t)(((e->flags & E_TAKEN) ? PMR_DI_TAKEN : 0) |
	    ((e->flags & E_VALUE) ? PMR_DI_VALUE : 0));
	for (i = 0; i < nl; i++)
		d->addr[i] = ent_laddr(s, e, i);
	d->nload = (uint8_t)nl;
	d->nmem = (uint8_t)nl;
	if (e->nstore > 0)
		d->addr[d->nmem++] = e->addr;
	else if (nl == 0 && e->addr != 0 && !(e->flags & E_BRANCH))
		d->addr[d->nmem++] = e->addr;
}

/*
 * A memory-order replay trap: aborts the load that read too early and
 * everything younger, and fetches them again (the correct-path ones, from
 * the replay deque) after the redirect.  The load's pc learns to wait for
 * older stores from now on.
 */
void __attribute__((noinline))
sim_mo_trap(struct pmr_sim *s)
{
	struct ent *l = &s->ents[s->mo_slot];
	uint64_t L = s->head, i;

	s->mo_pending = 0;
	if (!(l->flags & E_LIVE) || l->seq != s->mo_seq)
		return;		/* squashed meanwhile */
	L = sim_slot_abs(s, s->mo_slot);
	l->events |= PMR_SIM_EV_MEM_TRAP;
	s->pcs[l->pcx].wait = (uint32_t)(s->now / WAIT_CLEAR) + 1;
	if (s->measuring)
		s->st.mem_traps++;
	if (s->have_nxt) {
		rpl_front(s, &s->nxt);
		s->have_nxt = 0;
	}
	s->ghist = s->warm[s->mo_slot].hist;
	/* the return stack as the load found it, as sim_resolve() repairs it */
	s->ras_top = ecold(s, l)->ras_top;
	s->ras[s->ras_top] = ecold(s, l)->ras_val;
	s->ras_pcx[s->ras_top] = ecold(s, l)->ras_pcx;

	for (i = s->tail; i-- > L;) {
		uint32_t slot = (uint32_t)(i & s->wmask);
		struct ent *e = &s->ents[slot];

		if (!(e->flags & E_WP)) {
			struct pmr_dinsn d;

			ent_dinsn(s, e, &d);
			rpl_front(s, &d);
		}
		if (e->flags & E_MAPPED) {
			unmap(s, e, slot);
			/* the store table may name squashed stores, hiding
			 * older ones: only a mapped correct-path store
			 * wrote it, at its address's word */
			if (e->nstore > 0 && !(e->flags & E_WP)) {
				uint32_t k = (uint32_t)((e->addr >> 3) &
				    (STAB - 1));

				if (s->stab[k].slot != 0 &&
				    s->stab[k].seq >= s->mo_seq)
					s->stab[k].slot = 0;
			}
		}
		sim_abort_ent(s, e, PMR_SIM_TRAP_MEM_ORDER);
	}
	/* a mispredicted branch after the load goes too; it is refetched */
	if (s->res_pending && s->res_seq >= s->mo_seq)
		s->res_pending = 0;
	s->tail = L;
	if (s->map > s->tail)
		s->map = s->tail;
	for (i = s->head; i < s->map; i++) {
		struct ent *e = &s->ents[i & s->wmask];
		uint32_t k = (uint32_t)((e->addr >> 3) & (STAB - 1));

		if (e->nstore == 0 || (e->flags & E_WP))
			continue;
		s->stab[k].slot = (uint32_t)(i & s->wmask) + 1;
		s->stab[k].seq = e->seq;
		s->stab[k].addr = e->addr >> 3;
	}
	s->wrongpath = 0;
	s->wp_stuck = 0;
	s->fetch_at = s->now + s->c.redirect;
	s->fetch_why = PMR_SIM_ST_REDIRECT;
	s->td_recov = 1;
	s->hd_redir = PMR_SIM_HD_OTHER;	/* TRUTH hd_other */
	s->cur_line = 0;
	s->pend_dd = s->pend_itlb = s->pend_brk = s->pend_ev = 0;
	s->pend_wp = 0;
}
