/*
 * issue.c: issue: the timing wheel and ready bitmap, functional-unit pools,
 * load/store ordering, issue oldest first, or in program order (inorder),
 * where --truth charges each cycle to the head of the issue queue with
 * its cause (TRUTH head_cycles and hd_*).
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
 * The causes of head cycles (TRUTH hd_*, man/pmr.5), decided where the
 * cycle is charged, from the state at the start of its issue stage: the
 * issue stage knows why its head did not issue, and what the head waits
 * for is in the window or the front end.  Only inorder = 1 with --truth
 * comes here.  A cause holds until a cycle, hd_until, and another one,
 * hd_then, from there on: the wait for a fetch or a load that missed
 * both a TLB and its cache is the TLB's for the walk, then the cache's,
 * and the cycles skip_to() charges at once may hold both.
 */

/* Sets the cause: why before cycle until, then from it on. */
static void
hd_set(struct pmr_sim *s, int why, int then, uint64_t until)
{
	s->hd_why = why;
	s->hd_then = then;
	s->hd_until = until;
}

/*
 * The cause of a wait for load p, from cycle c: one that missed the
 * DTLB waits for the walk (tlb_lat cycles from its issue), then, if it
 * missed the L1-D too, for the line; else a fixed latency.
 */
static void
hd_load(struct pmr_sim *s, const struct ent *p)
{
	uint32_t ev = p->events;

	if (p->nload == 0 || (p->flags & E_FWD))
		hd_set(s, PMR_SIM_HD_STATIC, PMR_SIM_HD_STATIC, 0);
	else if (!(ev & PMR_SIM_EV_DTLB_MISS))
		hd_set(s, (ev & PMR_SIM_EV_DCACHE_MISS) ? PMR_SIM_HD_DCACHE :
		    PMR_SIM_HD_STATIC, (ev & PMR_SIM_EV_DCACHE_MISS) ?
		    PMR_SIM_HD_DCACHE : PMR_SIM_HD_STATIC, 0);
	else
		hd_set(s, PMR_SIM_HD_DTLB, (ev & PMR_SIM_EV_DCACHE_MISS) ?
		    PMR_SIM_HD_DCACHE : PMR_SIM_HD_DTLB,
		    p->X + s->c.tlb_lat);
}

/*
 * The cause of a wait for the instruction retirement waits for, the
 * oldest in flight (the ROB, the registers or the load queue are full):
 * a load that missed (without load_early, it retires with its data),
 * else other.
 */
static void
hd_blocker(struct pmr_sim *s)
{
	const struct ent *o = &s->ents[s->head & s->wmask];

	if (s->head != s->map && o->nload != 0 && !(o->flags & E_FWD) &&
	    (o->events & (PMR_SIM_EV_DCACHE_MISS | PMR_SIM_EV_DTLB_MISS)))
		hd_load(s, o);
	else
		hd_set(s, PMR_SIM_HD_OTHER, PMR_SIM_HD_OTHER, 0);
}

/*
 * The cause of the front end's wait after a fetch with I-side events ev:
 * the I-cache's if the line missed it (the last part of its stall, and
 * the refill after it), else the ITLB's (a miss, or a page's first touch
 * with fault_lat).
 */
static int
hd_iside(uint32_t ev)
{
	return (ev & PMR_SIM_EV_ICACHE_MISS) ? PMR_SIM_HD_ICACHE :
	    PMR_SIM_HD_ITLB;
}

/*
 * The cause of cycle c, whose head i has not mapped: none there (i at
 * tail), or it is in the front end or waits to map.  A wait for the
 * front end is for the instruction it brings: down a wrong path, the
 * mispredict's; a stall for a line, the ITLB's (its walk, pend_itlb of
 * the stall pend_dd, first) and the I-cache's; the first instruction of
 * a line that missed, its miss's, until it maps; the refill after a
 * squash, the squash's; else a fetch break's (a taken transfer, the
 * fetch block's end, a BTB bubble) or the pipeline's from fetch to map.
 * At the end of the trace, with nothing to come, other.
 */
static void
hd_front(struct pmr_sim *s, uint64_t i, uint64_t c)
{
	const struct ent *x;
	int why = PMR_SIM_HD_STATIC;

	if (i >= s->tail) {
		uint32_t ev = s->pend_ev;

		if (s->wrongpath)
			why = PMR_SIM_HD_MISP;
		else if (c < s->fetch_at && s->fetch_why == PMR_SIM_ST_ICACHE) {
			uint64_t b = s->pend_dd - s->pend_itlb;

			b = b < s->fetch_at ? s->fetch_at - b : 0;
			hd_set(s, PMR_SIM_HD_ITLB, hd_iside(ev), b);
			return;
		} else if (ev & (PMR_SIM_EV_ICACHE_MISS |
		    PMR_SIM_EV_ITLB_MISS))
			why = hd_iside(ev);
		else if (s->td_recov)
			why = s->hd_redir;
		else if (s->src_done && !s->have_nxt && s->rpl_n == 0)
			why = PMR_SIM_HD_OTHER;
		hd_set(s, why, why, 0);
		return;
	}
	x = &s->ents[i & s->wmask];
	if ((s->fready != NULL ? sim_fe_map_at(s, x->F + s->c.frontend) :
	    x->F + s->c.frontend) <= c && !(x->flags & E_WP)) {
		/* out of the front end: a full structure, tested as
		 * sim_map() tests them, or it maps now */
		if (s->map - s->head >= s->c.rob ||
		    ((x->flags & E_FP) ? s->iq_fp_free == 0 :
		    s->iq_int_free == 0) ||
		    ((x->flags & E_FP) ? s->regs_fp_free < x->ndst :
		    s->regs_int_free < x->ndst)) {
			hd_blocker(s);
			return;
		}
		if (x->nstore != 0 && s->sq_free == 0) {
			hd_set(s, PMR_SIM_HD_WBUF, PMR_SIM_HD_WBUF, 0);
			return;
		}
		if (x->nload != 0 && s->lq_free == 0) {
			hd_blocker(s);
			return;
		}
	}
	if (x->flags & E_WP)
		why = PMR_SIM_HD_MISP;
	else if (x->events & (PMR_SIM_EV_ICACHE_MISS | PMR_SIM_EV_ITLB_MISS))
		why = hd_iside(x->events);
	else if (s->td_recov)
		why = s->hd_redir;
	hd_set(s, why, why, 0);
}

/*
 * The cause of a cycle whose head i, mapped, is not ready: the operand
 * it waits for, the latest of its producers' results.  The producer of
 * a source register is the youngest older instruction that renamed it
 * (as sim_map_one() renames); issue is in order, so it has issued, and
 * it may have retired already (a load with load_early), so the scan goes
 * on below head through the retired entries the ring still holds: in
 * program order their seqs go down, and an entry of a squashed path or
 * one a later fetch wrote ends it.  A load that missed is a D-cache or
 * DTLB wait (hd_load); anything else, or none found (a load that waits
 * for the store it forwards from), a fixed latency.  Found by register,
 * so that GNODE need not be on.
 */
static void
hd_operand(struct pmr_sim *s, uint64_t i)
{
	const struct ent *h = &s->ents[i & s->wmask], *p = NULL;
	const struct pmr_sinsn *si = ent_si(s, h);
	uint16_t want[PMR_INSN_MAXSRC + 1];
	uint64_t j, lo, last = h->seq, best = s->now;
	unsigned nw = 0, k, d;

	for (k = 0; si != NULL && k < si->nsrc && k < PMR_INSN_MAXSRC; k++)
		if (si->src[k] % NREG != PMR_X86_RIP)
			want[nw++] = si->src[k] % NREG;
	if ((h->flags & E_IPREG) && (h->cls == PMR_OP_BR_COND ||
	    h->cls == PMR_OP_CALL || h->cls == PMR_OP_CALL_IND))
		want[nw++] = PMR_X86_RIP;	/* ip_map() */
	lo = s->tail > s->wsize ? s->tail - s->wsize : 0;
	for (j = i; nw > 0 && j-- > lo;) {
		const struct ent *e = &s->ents[j & s->wmask];

		if (j < s->head && (e->seq >= last || !(e->flags & E_ISSUED) ||
		    e->trap != PMR_SIM_TRAP_NONE))
			break;
		last = e->seq;
		for (d = 0; d < e->ndst && d < MAXD; d++) {
			uint16_t r = d == 0 ? e->u0.dreg :
			    s->undo[j & s->wmask].u[d - 1].dreg;

			for (k = 0; k < nw && want[k] != r; k++)
				;
			if (k == nw)
				continue;
			want[k] = want[--nw];
			if (e->res > best) {
				best = e->res;
				p = e;
			}
		}
	}
	if (p != NULL)
		hd_load(s, p);
	else
		hd_set(s, PMR_SIM_HD_STATIC, PMR_SIM_HD_STATIC, 0);
}

/* Adds the cycles that had no head, by cause, to the truth of pcx. */
void
sim_head_flush(struct pmr_sim *s, uint32_t pcx)
{
	struct pmr_sim_truth *t = &s->truth[pcx].t;
	unsigned c;

	for (c = 0; c < PMR_SIM_HD_N; c++) {
		t->hd[c] += s->hd_pend[c];
		s->hd_pend[c] = 0;
	}
	t->head_cycles += s->hd_pending;
	s->hd_pending = 0;
}

/*
 * Charges the k cycles from cycle c, whose issue-queue head is i
 * (sim_io_head), to its pc (TRUTH head_cycles, and the hd_* fields of
 * their causes, as hd_set() left them), with the cycles before it that
 * had none: those waited for i to come (DCPI charges an I-cache miss to
 * the instruction that missed).  With no head, the cycles wait for the
 * next one.
 */
static void
hd_charge(struct pmr_sim *s, uint64_t i, uint64_t c, uint64_t k)
{
	uint64_t k1 = c >= s->hd_until ? 0 : s->hd_until - c < k ?
	    s->hd_until - c : k;
	uint64_t *hd;
	uint32_t pcx;

	if (i >= s->tail) {
		hd = s->hd_pend;
		s->hd_pending += k;
	} else {
		pcx = s->ents[i & s->wmask].pcx;
		if (s->hd_pending != 0)
			sim_head_flush(s, pcx);
		hd = s->truth[pcx].t.hd;
		s->truth[pcx].t.head_cycles += k;
	}
	hd[s->hd_why] += k1;
	hd[s->hd_then] += k - k1;
}

/*
 * Charges the k cycles from cycle c, in which no issue stage runs: the
 * cycles skip_to() jumps over, in which nothing changes, and the cycle
 * --max stops in.  A mapped head keeps the cause the last issue stage
 * found; that of a head not mapped, or of none, depends on the front
 * end, which the fetch after that issue stage may have changed.
 */
void
sim_head_idle(struct pmr_sim *s, uint64_t c, uint64_t k)
{
	uint64_t i = sim_io_head(s);

	if (i >= s->map)
		hd_front(s, i, c);
	hd_charge(s, i, c, k);
}

/*
 * In-order issue (inorder = 1): from the oldest instruction not yet
 * issued, in program order, each one issues if it is ready (the ready
 * bitmap, as out of order) and gets a unit; the first that cannot, for
 * want of operands, a unit, an MSHR or issue width, ends the cycle's
 * issue.  With --truth, the cycle goes to the head at its start, with
 * its cause: it issued, or why it did not.
 */
static void __attribute__((noinline))
issue_inorder(struct pmr_sim *s)
{
	unsigned n = 0;
	uint64_t h = sim_io_head(s), i = h;
	int why = PMR_SIM_HD_ISSUE;

	for (; i < s->map; i++) {
		uint32_t slot = (uint32_t)(i & s->wmask);
		struct ent *e = &s->ents[slot];
		int r;

		if (e->flags & E_ISSUED)
			continue;
		if (!(s->ready[slot >> 6] & (1ull << (slot & 63)))) {
			why = -1;	/* not ready */
			break;
		}
		if (n == s->c.issue_width) {
			e->events |= PMR_SIM_EV_FU_CONFLICT;
			break;
		}
		if ((r = issue_one(s, e, slot)) <= 0) {
			if (r < 0 && s->measuring)
				s->st.st_mshr++;
			why = r < 0 ? PMR_SIM_HD_DCACHE : PMR_SIM_HD_FU;
			break;
		}
		n++;
	}
	s->iss = i;
	if (!s->o.truth || !s->measuring)
		return;
	if (h >= s->map)
		hd_front(s, h, s->now);
	else if (s->ents[h & s->wmask].flags & E_WP)
		hd_set(s, PMR_SIM_HD_MISP, PMR_SIM_HD_MISP, 0);
	else if (i == h && why < 0) {
		/* a head that waits does so for one producer: its cause,
		 * the walk's end included, is worked out once */
		if (s->hd_wait != s->ents[h & s->wmask].seq + 1) {
			hd_operand(s, h);
			s->hd_wait = s->ents[h & s->wmask].seq + 1;
		}
	} else {
		if (i > h)
			why = PMR_SIM_HD_ISSUE;	/* the head issued */
		hd_set(s, why, why, 0);
	}
	hd_charge(s, h, s->now, 1);
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
