/*
 * fetch.c: fetch: the front end, from the trace and down wrong paths;
 * I-cache/ITLB timing (mem.c), branch prediction (bpred.c), the RAS,
 * the DIB and direct-branch resolution at decode; the functional warm-up
 * of one instruction (--skip).
 */
#include "sim/sim_internal.h"

/*
 * Works out the class-derived fields of a new entry for ent_setup() and
 * keeps them in d for the next fetch of si.
 */
void __attribute__((noinline))
sim_ent_derive(struct pmr_sim *s, struct ent *e, const struct pmr_sinsn *si,
    struct sdec *d)
{
	unsigned cls = si != NULL ? si->cls : PMR_OP_NOP;
	uint32_t f0 = e->flags;
	struct pmr_sim_optime ot;

	/* the timing pmprof calc's static schedule uses too (sched.h) */
	pmr_sim_optime(&s->c, cls, si != NULL ? si->nload : 0,
	    si != NULL ? (unsigned)(si->nmem - si->nload) : 0, &ot);
	cls = ot.cls;
	e->cls = (uint8_t)cls;
	e->pool = ot.pool;
	e->lat = ot.lat;
	e->flags |= (cls == PMR_OP_FADD || cls == PMR_OP_FMUL ||
	    cls == PMR_OP_FDIV) ? E_FP : 0;
	if (si != NULL && si->ndst > 0 && cls != PMR_OP_LOAD &&
	    sim_is_fp_reg(si->dst[0]))
		e->flags |= E_FP;
	if (pmr_insn_class_is_branch(cls))
		e->flags |= E_BRANCH | (s->ip_reg ? E_IPREG : 0);
	e->nload = ot.nload;
	e->nstore = ot.nstore;
	d->set = 1;
	e->ndst = d->nd = (uint8_t)(si == NULL ? 0 : si->ndst < MAXD ?
	    si->ndst : MAXD);
	if ((e->flags & E_IPREG) && d->nd < MAXD)
		e->ndst = ++d->nd;	/* the pc's rename register */
	d->cls = e->cls;
	d->pool = e->pool;
	d->lat = e->lat;
	d->nload = e->nload;
	d->nstore = e->nstore;
	d->flags = e->flags & ~f0;
}

static uint64_t
fallthru(const struct pmr_sim *s, uint64_t pc, const struct pmr_sinsn *si)
{
	(void)s;
	return pc + (si != NULL && si->len ? si->len : 4);
}

/* Return address predicted for a call at pc (pcx). */
static uint64_t
ret_addr(const struct pmr_sim *s, uint64_t pc, uint32_t pcx)
{
	unsigned l = s->pcs[pcx].calllen;

	return pc + (l ? l : 4);
}

static void
ras_push(struct pmr_sim *s, uint64_t a, uint32_t pcx)
{
	s->ras_top = s->ras_top + 1 == s->ras_n ? 0 : s->ras_top + 1;
	s->ras[s->ras_top] = a;
	s->ras_pcx[s->ras_top] = pcx;
}

static uint64_t
ras_pop(struct pmr_sim *s)
{
	uint64_t a = s->ras[s->ras_top];

	s->ras_top = s->ras_top == 0 ? s->ras_n - 1 : s->ras_top - 1;
	return a;
}

/*
 * predict() for bp champsim, as ChampSim's O3_CPU::do_predict_branch()
 * and decode_instruction() (src/ooo_cpu.cc): the BTB and bimodal
 * predict, then train at once with the outcome.  A miss whose target
 * decode computes (a direct jump or call, or a conditional branch with
 * the right direction but no target) is a mispredict resolved at decode
 * when the instruction missed the DIB: returned as the correct target
 * with *bubble set (btb_penalty), the event JMP_MISP and BTB_MISS.  Any
 * other miss is resolved at execute.
 */
uint64_t __attribute__((noinline))
predict_cs(struct pmr_sim *s, struct ent *e, int correct, int taken,
    uint64_t target, int *bubble, int *ptaken)
{
	unsigned cls = e->cls;
	uint64_t ft = fallthru(s, e->pc, ent_si(s, e)), pt;
	int pd;

	pt = pmr_sim_cs_predict(&s->bp, e->pc, cls, &pd);
	if (cls == PMR_OP_BR_COND)
		s->ghist = (s->ghist << 1) | (uint64_t)pd;
	*ptaken = pd;
	if (!correct)
		return pd ? pt : ft;
	pmr_sim_cs_update(&s->bp, e->pc, cls, taken, taken ? target : 0);
	if ((pd == taken && (!taken || pt == target)) ||
	    !(cls == PMR_OP_JMP || cls == PMR_OP_CALL ||
	    (cls == PMR_OP_BR_COND && pd == taken)) ||
	    (s->fready != NULL && !(e->flags & E_DIBMISS)))
		return pd ? pt : ft;
	*bubble = 1;
	*ptaken = taken;
	e->events |= PMR_SIM_EV_JMP_MISP | PMR_SIM_EV_BTB_MISS;
	return taken ? target : ft;
}

/*
 * Predicts the transfer of e (whose si is set) and returns the predicted
 * next pc; trains the predictor on the correct path.  *bubble is set when
 * a taken direct transfer missed in the BTB (decode redirect).
 */
static uint64_t
predict(struct pmr_sim *s, struct ent *e, int correct, int taken,
    uint64_t target, int *bubble, int *ptaken)
{
	const struct pmr_sinsn *si = ent_si(s, e);
	unsigned cls = e->cls;
	uint64_t ft = fallthru(s, e->pc, si), bt, pt = 0;
	int pd = 1, perfect = s->c.bp == PMR_SIM_BP_PERFECT;

	*bubble = 0;
	if (s->c.bp == PMR_SIM_BP_CHAMPSIM)
		return predict_cs(s, e, correct, taken, target, bubble,
		    ptaken);
	if (cls == PMR_OP_BR_COND) {
		if (perfect && correct)
			pd = taken;
		else
			pd = pmr_sim_bpred_cond(&s->bp, e->pc, s->ghist, taken,
			    correct);
		s->ghist = (s->ghist << 1) | (uint64_t)pd;
	}
	*ptaken = pd;
	if (!pd)
		return ft;
	if (cls == PMR_OP_RET) {
		uint32_t cx = s->ras_pcx[s->ras_top];

		pt = ras_pop(s);
		if (correct && cx < s->npcs && target - s->pcs[cx].pc >= 1 &&
		    target - s->pcs[cx].pc <= 15 && pt != target &&
		    s->pcs[cx].si != NULL && s->pcs[cx].si->len == 0)
			/* learn the call's size (no lengths in the trace) */
			s->pcs[cx].calllen = (uint8_t)(target - s->pcs[cx].pc);
		if (perfect && correct)
			pt = target;
	} else {
		bt = pmr_sim_btb_lookup(&s->bp, e->pc);
		if (cls == PMR_OP_JMP_IND || cls == PMR_OP_CALL_IND)
			pt = perfect && correct ? target : bt;
		else {
			/* direct: decode knows the target; a BTB miss
			 * costs a fetch bubble, not a mispredict */
			uint64_t dt = si != NULL && si->target ? si->target :
			    (correct ? target : bt);

			if (bt != dt && !perfect) {
				*bubble = 1;
				e->events |= PMR_SIM_EV_BTB_MISS;
			}
			pt = dt;
		}
		if (cls == PMR_OP_CALL || cls == PMR_OP_CALL_IND)
			ras_push(s, ret_addr(s, e->pc, e->pcx), e->pcx);
	}
	if (correct && taken && cls != PMR_OP_RET)
		pmr_sim_btb_update(&s->bp, e->pc, target);
	return pt;
}

/* Gets the next correct-path instruction into s->nxt; 0 at the end. */
static int
peek(struct pmr_sim *s)
{
	int r;

	if (s->have_nxt)
		return 1;
	if (s->rpl_n > 0) {
		s->nxt = s->rpl[s->rpl_head];
		s->rpl_head = (s->rpl_head + 1) % (s->wsize + 2);
		s->rpl_n--;
		s->have_nxt = 1;
		return 1;
	}
	if (s->src_done)
		return 0;
	r = s->src(s->srcarg, &s->nxt);
	if (r < 0) {
		sim_fail(s, r, "%s", "trace read error");
		s->src_done = 1;
		return 0;
	}
	if (r == 0 || s->nxt.si == NULL) {
		s->src_done = 1;
		return 0;
	}
	s->have_nxt = 1;
	return 1;
}

/* Takes the accesses of correct-path entry e from d. */
static void
ent_mem(struct pmr_sim *s, struct ent *e, const struct pmr_dinsn *d)
{
	unsigned i;

	e->addr = d->nmem > 0 ? d->addr[0] : 0;
	if (d->nload > 0)
		e->laddr0 = d->addr[0];
	/* laddr 2.. as the one-array layout left them: a load without
	 * accesses reads the old ones */
	for (i = 1; i < d->nload && i < MAXL; i++)
		ecold(s, e)->laddr[i - 1] = d->addr[i];
	if (d->nload < e->nload && d->nmem > 0)
		for (i = d->nload; i < e->nload && i < MAXL; i++) {
			if (i == 0)
				e->laddr0 = d->addr[0];
			else
				ecold(s, e)->laddr[i - 1] = d->addr[0];
		}
	if (d->nmem == 0 && e->nload > 0)
		e->laddr0 = 0;
	if (e->nstore > 0 && d->nmem > d->nload)
		e->addr = d->addr[d->nload];
	if (d->nmem > 0)
		s->last_addr[e->pcx] = d->addr[0];
}

/*
 * Keeps what correct-path entry e needs beyond the hot fields: the rare
 * ones (thread, value, a next pc that is not the fall-through) and, for
 * a load, the return stack a replay trap restores.  Out of line: the
 * run loop keeps sim_retire() inline within the compiler's growth limits.
 */
void __attribute__((noinline))
ent_cold(struct pmr_sim *s, struct ent *e, const struct pmr_dinsn *d)
{
	struct ecold *c = ecold(s, e);

	if (d->tid != 0) {
		c->tid = d->tid;
		e->flags |= E_TID;
	}
	if (d->value != 0) {
		c->value = d->value;
		e->flags |= E_NZVAL;
	}
	if (d->next_pc != e->pc + d->si->len) {
		c->next_pc = d->next_pc;
		e->flags |= E_NPC;
	}
	if (e->nload > 0) {
		c->ras_top = s->ras_top;
		c->ras_val = s->ras[s->ras_top];
		c->ras_pcx = s->ras_pcx[s->ras_top];
	}
}

/* wrong_path 0: the cycle the entry at map may map, or c if later. */
uint64_t __attribute__((noinline))
sim_fe_map_at(const struct pmr_sim *s, uint64_t c)
{
	const struct ent *m = &s->ents[s->map & s->wmask];
	uint64_t r = s->fready[s->map & s->wmask] + s->c.frontend +
	    ((m->flags & E_DIBMISS) ? DIB_MISS : 0);

	return r > c ? r : c;
}

/*
 * wrong_path 0: fetch reads on past a line that is not there yet (set
 * in fetch_at); the line's entries and those after wait at map.
 */
void __attribute__((noinline))
fe_miss(struct pmr_sim *s)
{
	if (s->fetch_at > s->fready_last)
		s->fready_last = s->fetch_at;
	s->fetch_at = s->now;
}

/* wrong_path 0: when e's line is there; its DIB look-up. */
void __attribute__((noinline))
fe_read(struct pmr_sim *s, struct ent *e, uint32_t slot, uint64_t pc)
{
	s->fready[slot] = s->fready_last > s->now ? s->fready_last : s->now;
	if (!pmr_sim_cache_access(&s->dib, pc, 0))
		e->flags |= E_DIBMISS;
}

static void
fetch_body(struct pmr_sim *s)
{
	unsigned n = 0, taken = 0;
	uint64_t block = 0;

	if (s->now < s->fetch_at) {
		if (s->measuring)
			sim_stall(s, s->fetch_why);
		return;
	}
	while (n < s->c.fetch_width) {
		uint64_t pc, npc, line, npc_c = 0;
		uint32_t slot;
		struct ent *e;
		int correct = !s->wrongpath, bubble = 0, ptaken = 0;
		unsigned lat;

		if (s->tail - s->map >= s->c.fetchq) {
			if (n == 0 && s->measuring)
				s->st.st_fetchq++;
			break;
		}
		if (s->tail - s->head >= s->wsize)
			break;
		if (correct) {
			if (!peek(s))
				break;
			pc = s->nxt.pc;
		} else {
			if (s->wp_stuck || !s->c.wrong_path)
				break;
			pc = s->wp_pc;
		}
		if (s->c.fetch_block) {
			uint64_t b = pc >> s->fbshift;

			if ((n != 0) & (b != block)) {
				s->pend_brk = 1;
				break;
			}
			block = b;	/* sets it at n == 0, else the same */
		}
		line = (pc >> s->lshift) + 1;
		if (line != s->cur_line) {
			s->cur_line = line;
			if ((lat = sim_ifetch(s, pc, &s->pend_ev)) > 0) {
				s->pend_dd += lat;
				s->pend_itlb += s->last_itl;
				s->fetch_at = s->now + lat;
				s->fetch_why = PMR_SIM_ST_ICACHE;
				if (s->fready == NULL)
					break;
				fe_miss(s);
			}
		}
		slot = (uint32_t)(s->tail & s->wmask);
		e = &s->ents[slot];
		e->flags = E_LIVE;
		if (s->fready != NULL)
			fe_read(s, e, slot, pc);
		e->events = s->pend_ev;
		s->pend_ev = 0;
		if (s->graph_on)
			sim_gn_fetch(s, slot);
		s->pend_dd = s->pend_itlb = s->pend_brk = s->pend_wp = 0;
		e->tag = 0;
		e->seq = s->pos++;
		e->pc = pc;
		e->F = s->now;
		s->warm[slot].hist = s->ghist;
		e->waiters = -1;
		e->ndst = 0;
		e->trap = 0;
		if (correct) {
			const struct pmr_dinsn *d = &s->nxt;

			const struct sdec *sd = d->si->id < s->nidx ?
			    &s->idx[d->si->id] : NULL;

			s->warm[slot].si = d->si;
			if (sd != NULL && (sd->x != 0) & sd->set) {
				/* the common case: one look-up for both */
				e->pcx = sd->x - 1;
				ent_fill(e, sd);
			} else {
				e->pcx = sim_si_index(s, d->si);
				if (e->pcx == NONE32) {
					sim_fail(s, PMR_ENOMEM,
					    "out of memory");
					return;
				}
				ent_setup(s, e, d->si);
			}
			npc_c = d->next_pc;
			if (d->nmem == 0 && e->nload == 0)
				e->addr = 0;	/* most instructions */
			else
				ent_mem(s, e, d);
			if (d->flags & PMR_DI_VALUE)
				e->flags |= E_VALUE;
			if (d->tid != 0 || d->value != 0 ||
			    npc_c != pc + d->si->len || e->nload > 0)
				ent_cold(s, e, d);
			s->have_nxt = 0;
		} else {
			uint32_t x = sim_pt_find(s, pc);
			const struct pmr_sinsn *si = x != NONE32 ?
			    s->pcs[x].si : NULL;

			if (x == NONE32 &&
			    (x = sim_pt_get(s, pc, NULL)) == NONE32) {
				sim_fail(s, PMR_ENOMEM, "out of memory");
				return;
			}
			e->pcx = x;
			e->flags |= E_WP;
			e->events |= PMR_SIM_EV_BAD_PATH;
			if (si == NULL)
				e->events |= PMR_SIM_EV_SYNTH;
			s->warm[slot].si = si;
			ent_setup(s, e, si);
			e->addr = s->last_addr[x];
			e->laddr0 = e->addr;
			{
				struct ecold *c = ecold(s, e);

				c->laddr[0] = c->laddr[1] = c->laddr[2] =
				    e->addr;
			}
			if (s->measuring)
				s->st.wrongpath++;
		}
		s->tail++;
		if (s->measuring) {
			s->st.fetched++;
			if (s->o.truth) {
				char *tl = (char *)&s->truth[e->pcx];

				s->truth[e->pcx].t.fetched++;
				/* its retire, tens of cycles on, writes the
				 * next four lines: not a miss then */
				__builtin_prefetch(tl + 64, 1);
				__builtin_prefetch(tl + 128, 1);
				__builtin_prefetch(tl + 192, 1);
				__builtin_prefetch(tl + 256, 1);
				/* the first fetch */
				if (s->tp_pending != 0) {
					s->pcs[e->pcx].tp += s->tp_pending;
					s->tp_pending = 0;
				}
			}
			if (s->pm_at_fetch)
				pm_fetch(s, e);
		}
		n++;
		if (!(e->flags & E_BRANCH)) {
			if (!correct)
				s->wp_pc = fallthru(s, pc,
				    s->warm[slot].si);
			continue;
		}
		if (correct) {
			int t = (s->nxt.flags & PMR_DI_TAKEN) != 0 ||
			    e->cls != PMR_OP_BR_COND;
			uint64_t tgt = npc_c;
			uint64_t h0 = s->ghist;

			npc = predict(s, e, 1, t, tgt, &bubble, &ptaken);
			if (t)
				e->events |= PMR_SIM_EV_TAKEN;
			e->flags |= t ? E_TAKEN : 0;
			if (t)
				e->addr = tgt;
			if (ptaken != t || (t && npc != tgt)) {
				e->events |= ptaken != t ?
				    PMR_SIM_EV_BR_MISP : PMR_SIM_EV_JMP_MISP;
				e->flags |= E_MISP;
				s->res_pending = 1;
				s->res_slot = slot;
				s->res_seq = e->seq;
				s->res_at = ~0ull;
				s->ghist_fix = e->cls == PMR_OP_BR_COND ?
				    (h0 << 1) | (uint64_t)t : s->ghist;
				/* repair: undo the wrong-path pushes/pops
				 * after this one */
				s->ras_fix_top = s->ras_top;
				s->ras_fix_val = s->ras[s->ras_top];
				s->ras_fix_pcx =
				    s->ras_pcx[s->ras_top];
				s->wrongpath = 1;
				s->wp_pc = npc;
				s->wp_stuck = npc == 0;
				s->cur_line = 0;
				break;
			}
		} else {
			npc = predict(s, e, 0, 0, 0, &bubble, &ptaken);
			e->addr = npc;
			if (ptaken && npc == 0) {
				s->wp_stuck = 1;
				break;
			}
			s->wp_pc = npc;
		}
		if (bubble) {
			s->pend_brk = 1 + s->c.btb_penalty;
			s->fetch_at = (s->fready != NULL ? s->fready[slot] :
			    s->now) + 1 + s->c.btb_penalty;
			s->fetch_why = PMR_SIM_ST_REDIRECT;
			s->cur_line = 0;
			break;
		}
		if (ptaken) {
			if (++taken >= s->c.fetch_taken) {
				s->pend_brk = 1;
				break;
			}
			if (s->c.fetch_block)
				block = (correct ? npc_c : npc) >>
				    s->fbshift;
		}
	}
}

/*
 * The functional warm-up of --skip: takes correct-path instruction d as
 * its fetch, issue and retirement would, with no timing: its line through
 * the ITLB, L1-I and lower levels (once per line, as fetch does), the
 * DIB, its loads and store through the DTLB, L1-D and lower levels
 * (mem.c), and a transfer through predict(), which trains the predictor
 * and BTB and pushes or pops the return stack; the global history ends
 * as a resolution would leave it, with the outcome.  The per-pc table
 * learns the instruction (the wrong path follows the pcs seen), as at a
 * fetch.  Window slot 0 is the scratch entry: called only before the
 * first fetch, and the caller clears the slot after the last call.
 * Returns 0, or PMR_ENOMEM.
 */
int
sim_warm_insn(struct pmr_sim *s, const struct pmr_dinsn *d)
{
	struct ent *e = &s->ents[0];
	const struct sdec *sd = d->si->id < s->nidx ? &s->idx[d->si->id] :
	    NULL;
	uint64_t line = (d->pc >> s->lshift) + 1;
	unsigned i;

	if (line != s->cur_line) {
		s->cur_line = line;
		sim_warm_ifetch(s, d->pc);
	}
	if (s->fready != NULL)
		(void)pmr_sim_cache_access(&s->dib, d->pc, 1);
	e->flags = 0;
	e->events = 0;
	e->pc = d->pc;
	s->warm[0].si = d->si;
	if (sd != NULL && (sd->x != 0) & sd->set) {
		e->pcx = sd->x - 1;
		ent_fill(e, sd);
	} else {
		if ((e->pcx = sim_si_index(s, d->si)) == NONE32)
			return PMR_ENOMEM;
		ent_setup(s, e, d->si);
	}
	if (d->nmem == 0 && e->nload == 0)
		e->addr = 0;
	else
		ent_mem(s, e, d);
	for (i = 0; i < e->nload && i < MAXL; i++)
		sim_warm_load(s, ent_laddr(s, e, i));
	if (e->nstore > 0)
		sim_warm_store(s, e->addr);
	if (e->flags & E_BRANCH) {
		int t = (d->flags & PMR_DI_TAKEN) != 0 ||
		    e->cls != PMR_OP_BR_COND, bubble, ptaken;
		uint64_t h0 = s->ghist;

		(void)predict(s, e, 1, t, d->next_pc, &bubble, &ptaken);
		if (e->cls == PMR_OP_BR_COND)	/* as ghist_fix */
			s->ghist = (h0 << 1) | (uint64_t)t;
	}
	return 0;
}

void
sim_fetch(struct pmr_sim *s)
{
	uint64_t t0 = s->tail;

	fetch_body(s);
	if (s->o.pm_select == PMR_SIM_SELECT_OPPORTUNITY && s->measuring &&
	    s->o.pm == PMR_SIM_PM_SINGLE)
		sim_pm_opportunities(s, (unsigned)(s->tail - t0));
}
