/*
 * issue.c: issue: the timing wheel and ready bitmap, functional-unit pools,
 * load/store ordering, issue oldest first, or in program order (inorder).
 */
#include "sim/sim_internal.h"

/*
 * Moves the soon bitmap into the ready bitmap, at the end of sim_map (which
 * always runs right after issue, and neither looks at ready bits).
 */
void
sim_soon_merge(struct pmr_sim *s)
{
	uint32_t k;

	if (!s->soon_any)
		return;
	for (k = 0; k < s->nwords; k++) {
		s->ready[k] |= s->soon[k];
		s->soon[k] = 0;
	}
	s->soon_any = 0;
}

/* Moves this cycle's wheel bucket into the ready bitmap. */
static void
wheel_pop(struct pmr_sim *s)
{
	uint32_t b = (uint32_t)(s->now & (WHEEL - 1));
	int32_t n = s->wheel[b];

	s->wheel[b] = -1;
	while (n >= 0) {
		int32_t nx = s->node[n].next;
		uint32_t slot = s->node[n].slot;
		struct ent *e = &s->ents[slot];

		if ((e->flags & E_LIVE) && e->seq == s->node[n].seq &&
		    !(e->flags & E_ISSUED)) {
			if (e->res > s->now) {
				sim_node_free(s, n);
				schedule(s, slot, e->res);
			} else {
				s->ready[slot >> 6] |= 1ull << (slot & 63);
				e->flags |= E_READYBIT;
				sim_node_free(s, n);
			}
		} else
			sim_node_free(s, n);
		n = nx;
	}
}

/* Wakes the consumers of producer e, whose result is ready at e->res. */
static inline __attribute__((always_inline)) void
wake(struct pmr_sim *s, struct ent *e)
{
	int32_t n = e->waiters;

	e->waiters = -1;
	while (n >= 0) {
		int32_t nx = s->node[n].next;
		uint32_t cs = s->node[n].slot;
		struct ent *c = &s->ents[cs];

		if ((c->flags & E_LIVE) && c->seq == s->node[n].seq) {
			if (e->res > c->D)
				c->D = e->res;
			if (--c->pending == 0)
				schedule(s, cs, c->D > c->M + 1 ? c->D :
				    c->M + 1);
		}
		sim_node_free(s, n);
		n = nx;
	}
}

/* Returns 0 if pool p has a free unit now, else -1. */
static inline __attribute__((always_inline)) int
fu_get(struct pmr_sim *s, unsigned p)
{
	unsigned busy = s->fu_used[p], i;

	if (s->nlong[p] > 0) {
		for (i = 0; i < s->nlong[p];)
			if (s->fu[p][i] <= s->now)
				s->fu[p][i] = s->fu[p][--s->nlong[p]];
			else
				i++;
		busy += s->nlong[p];
	}
	return busy < s->nfu[p] ? 0 : -1;
}

/*
 * Memory order (mem_order = 1): store e, issuing now, looks for a younger
 * load of its address that has already issued: that load read stale data
 * and must be replayed with everything after it (trap next cycle).
 */
static inline __attribute__((always_inline)) void
order_check(struct pmr_sim *s, const struct ent *e, uint32_t slot)
{
	uint64_t i, a = e->addr >> 3;

	if (s->stab[a & (STAB - 1)].ldcnt == 0)
		return;		/* no issued load of that word in flight */
	for (i = sim_slot_abs(s, slot) + 1; i < s->map; i++) {
		const struct ent *l = &s->ents[i & s->wmask];

		if (l->nload == 0 || !(l->flags & E_ISSUED) ||
		    (l->flags & (E_WP | E_FWD)) || (l->laddr0 >> 3) != a)
			continue;
		if (!s->mo_pending || l->seq < s->mo_seq) {
			s->mo_pending = 1;
			s->mo_slot = (uint32_t)(i & s->wmask);
			s->mo_seq = l->seq;
			s->mo_at = s->now + 1;
		}
		return;
	}
}

/*
 * Tries to issue e now; returns 1 if issued, 0 if no unit is free, -1 if
 * a load found no MSHR.  It and its helpers are inlined into both issue
 * loops, as they were into the one out-of-order loop before the in-order
 * one came: the out-of-order loop keeps its code.
 */
static inline __attribute__((always_inline)) int
issue_one(struct pmr_sim *s, struct ent *e, uint32_t slot)
{
	int u = fu_get(s, e->pool), lat;
	uint32_t ev = 0;
	unsigned i;

	if (u < 0) {
		e->events |= PMR_SIM_EV_FU_CONFLICT;
		return 0;
	}
	lat = e->lat;
	s->access_pos = e->seq;
	s->merged_dist = s->fill_dist = 0;
	if (e->nload > 0 && !(e->flags & E_FWD)) {
		int l = sim_load_access(s, e->laddr0, &ev, 0), l2;

		if (l < 0) {
			e->events |= PMR_SIM_EV_MSHR_FULL;
			return -1;
		}
		for (i = 1; i < e->nload && i < MAXL; i++)
			if ((l2 = sim_load_access(s, ent_laddr(s, e, i), &ev,
			    1)) > l)
				l = l2;
		e->events |= ev;
		e->LC = s->now + (unsigned)l;
		lat += l;
		if (s->graph_on) {
			struct egn *g = &s->gnodes[slot];

			g->ep_tlb = (uint16_t)s->last_tl;
			g->ppp = s->merged_dist;
			g->pfill = s->merged_dist ? 0 : s->fill_dist;
			g->ep_mem = (uint16_t)s->c.l1d_lat;
			g->ep_miss = (uint16_t)((unsigned)l > s->c.l1d_lat +
			    s->last_tl ? (unsigned)l - s->c.l1d_lat -
			    s->last_tl : 0);
		}
	} else if (e->nload > 0) {
		e->LC = s->now + s->c.l1d_lat;
		lat += (int)s->c.l1d_lat;
		e->events |= PMR_SIM_EV_FORWARD;
		if (s->graph_on)
			s->gnodes[slot].ep_mem = (uint16_t)s->c.l1d_lat;
	}
	if (e->nstore > 0 && !(s->o.ideal & PMR_SIM_IDEAL_DMISS) &&
	    !pmr_sim_cache_access(&s->dtlb, e->addr, 1))
		e->events |= PMR_SIM_EV_DTLB_MISS;
	/* divides occupy their unit; everything else is pipelined */
	if ((e->cls == PMR_OP_IDIV || e->cls == PMR_OP_FDIV) && e->lat > 1)
		s->fu[e->pool][s->nlong[e->pool]++] = s->now + e->lat;
	else
		s->fu_used[e->pool]++;
	e->X = s->now;
	s->nissued++;
	s->rel_iq[(e->flags & E_FP) != 0] = e->seq + 1;	/* GNODE rs */
	e->flags |= E_ISSUED;
	e->flags &= ~E_READYBIT;
	sim_unready(s, slot);
	if (e->flags & E_FP)
		s->iq_fp_free++;
	else
		s->iq_int_free++;
	e->res = s->now + (unsigned)lat;
	if (e->nload > 0 && s->c.load_early && e->LC > s->now +
	    s->c.l1d_lat + e->lat)
		e->RR = s->now + s->c.l1d_lat + e->lat;
	else
		e->RR = e->res;
	if (e->RR == s->now)
		e->RR = s->now + 1;	/* retire is earlier in the cycle */
	if (e->nload == 0)
		e->LC = e->res;
	if (s->o.truth)
		s->conc[s->now & (CRING - 1)].iss++;
	if (s->res_pending && s->res_slot == slot && s->res_seq == e->seq)
		s->res_at = e->RR;
	wake(s, e);
	if (s->c.mem_order && !(e->flags & E_WP)) {
		if (e->nload > 0 && !(e->flags & E_FWD)) {
			s->stab[(e->laddr0 >> 3) & (STAB - 1)].ldcnt++;
			e->flags |= E_LDCNT;
		}
		if (e->nstore > 0)
			order_check(s, e, slot);
	}
	return 1;
}

/*
 * Returns the absolute index of the oldest instruction in the window not
 * yet issued (inorder = 1: the head of the issue queue), tail if none;
 * moves iss up to it.  Everything in [head, iss) has issued: issue is in
 * order, and a squash (which moves map back) clamps iss.
 */
uint64_t
sim_io_head(struct pmr_sim *s)
{
	uint64_t i = s->iss;

	if (i < s->head)
		i = s->head;
	if (i > s->map)
		i = s->map;
	while (i < s->map && (s->ents[i & s->wmask].flags & E_ISSUED))
		i++;
	s->iss = i;
	return i;
}

/*
 * Charges k cycles whose issue-queue head is i (sim_io_head) to its pc
 * (TRUTH head_cycles), with the cycles before it that had none: those
 * waited for i to come (DCPI charges an I-cache miss to the instruction
 * that missed).  With no head, the cycles wait for the next one.
 */
void
sim_head_charge(struct pmr_sim *s, uint64_t i, uint64_t k)
{
	if (i >= s->tail) {
		s->hd_pending += k;
		return;
	}
	s->truth[s->ents[i & s->wmask].pcx].t.head_cycles += k +
	    s->hd_pending;
	s->hd_pending = 0;
}

/*
 * In-order issue (inorder = 1): from the oldest instruction not yet
 * issued, in program order, each one issues if it is ready (the ready
 * bitmap, as out of order) and gets a unit; the first that cannot, for
 * want of operands, a unit, an MSHR or issue width, ends the cycle's
 * issue.  With --truth, the cycle goes to the head at its start.
 */
static void __attribute__((noinline))
issue_inorder(struct pmr_sim *s)
{
	unsigned n = 0;
	uint64_t i = sim_io_head(s);

	if (s->o.truth && s->measuring)
		sim_head_charge(s, i, 1);
	for (; i < s->map; i++) {
		uint32_t slot = (uint32_t)(i & s->wmask);
		struct ent *e = &s->ents[slot];
		int r;

		if (e->flags & E_ISSUED)
			continue;
		if (!(s->ready[slot >> 6] & (1ull << (slot & 63))))
			break;
		if (n == s->c.issue_width) {
			e->events |= PMR_SIM_EV_FU_CONFLICT;
			break;
		}
		if ((r = issue_one(s, e, slot)) <= 0) {
			if (r < 0 && s->measuring)
				s->st.st_mshr++;
			break;
		}
		n++;
	}
	s->iss = i;
}

void
sim_issue(struct pmr_sim *s)
{
	unsigned n = 0, k, mshr_wait = 0;
	uint64_t w, w1 = (s->map - 1) >> 6;

	wheel_pop(s);
	for (k = 0; k < P_N; k++)
		s->fu_used[k] = 0;
	if (s->c.inorder) {
		issue_inorder(s);
		return;
	}
	/*
	 * age order: ready bits are only ever set in the ROB, [head, map),
	 * so the words it covers, in absolute slot numbers (head's word
	 * may come again as the last one, for the slots below head)
	 */
	for (w = s->head >> 6; s->map != s->head && w <= w1 &&
	    n < s->c.issue_width; w++) {
		uint32_t wi = (uint32_t)w & (s->nwords - 1);
		uint64_t bits = s->ready[wi];

		if (w == s->head >> 6)
			bits &= ~0ull << (s->head & 63);
		if (w == w1)
			bits &= ~0ull >> (63 - ((s->map - 1) & 63));
		while (bits != 0 && n < s->c.issue_width) {
			uint32_t b = (uint32_t)__builtin_ctzll(bits);
			uint32_t slot = wi * 64 + b;
			int r;

			bits &= bits - 1;
			r = issue_one(s, &s->ents[slot], slot);
			if (r > 0)
				n++;
			else if (r < 0)
				mshr_wait = 1;
		}
	}
	if (n == s->c.issue_width) {
		/* whoever is still ready lost to the width limit */
		for (k = 0; k < s->nwords; k++) {
			uint64_t bits = s->ready[k];

			while (bits != 0) {
				uint32_t b = (uint32_t)__builtin_ctzll(bits);

				bits &= bits - 1;
				s->ents[k * 64 + b].events |=
				    PMR_SIM_EV_FU_CONFLICT;
			}
		}
	}
	if (mshr_wait && s->measuring)
		s->st.st_mshr++;
}
