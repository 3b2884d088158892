/*
 * retire.c: retire: in-order commit, the start of measuring, the watch list.
 */
#include "sim/sim_internal.h"

/* Sets retire_watch, the lower of next_interval and --max in use. */
static void
watch_set(struct pmr_sim *s)
{
	s->retire_watch = ~0ull;
	if (s->o.interval && s->next_interval < s->retire_watch)
		s->retire_watch = s->next_interval;
	if (s->o.max && s->o.max < s->retire_watch)
		s->retire_watch = s->o.max;
}

void
sim_measure_start(struct pmr_sim *s)
{
	uint32_t i;

	s->measuring = 1;
	memset(&s->st, 0, sizeof(s->st));
	s->st.warmup = s->retired_all;
	s->start = s->now;
	for (i = 0; i < s->npcs; i++) {
		s->pcs[i].tp = 0;
		if (s->truth != NULL) {
			struct pmr_sim_truth *t = &s->truth[i].t;

			memset(t, 0, sizeof(*t));
			t->pc = s->pcs[i].pc;
			t->cls = s->pcs[i].cls;
		}
	}
	s->useful_qh = s->useful_qt = 0;
	s->st.win_len = s->o.win_len;
	s->win_end = s->now + s->o.win_len;
	s->win_cur = 0;
	s->lipc_upto = s->now - 1;
	s->lipc_cum = 0;
	s->lipc_head = s->lipc_tail = 0;
	if (s->o.pm != PMR_SIM_PM_OFF)
		sim_pm_rearm(s);
	if (s->o.sampler != PMR_SIM_SAMPLER_PROFILEME) {
		if (s->o.bs_s == 0)
			s->o.bs_s = 1;
		s->bs_left = sim_bs_interval(s);
		/* counted in cycles: tip always, the counter and pebs with
		 * event=cycles (pebs on cycles is the TIP paper's time-based,
		 * next-committing PEBS); one flag for the run loop */
		s->bs_cycles = s->o.sampler == PMR_SIM_SAMPLER_TIP ||
		    s->o.sampler == PMR_SIM_SAMPLER_LAST ||
		    ((s->o.sampler == PMR_SIM_SAMPLER_COUNTER ||
		    s->o.sampler == PMR_SIM_SAMPLER_PEBS) &&
		    s->o.bs_event == PMR_SIM_BSEV_CYCLES);
	}
	if (s->o.interval)
		s->next_interval = s->o.interval;
	watch_set(s);
}

void
sim_retire(struct pmr_sim *s)
{
	unsigned n = 0, m = 0;

	if (s->measuring && s->now >= s->win_end)
		sim_win_close(s, s->now);
	while (n < s->c.retire_width && s->head != s->map) {
		uint32_t slot = (uint32_t)(s->head & s->wmask);
		struct ent *e = &s->ents[slot];

		if (!(e->flags & E_ISSUED) || e->RR > s->now)
			break;
		if (e->nstore > 0) {
			/* the store writes the L1-D (write-allocate) */
			pmr_sim_cache_access(&s->l1d, e->addr, 1);
			s->sq_free++;
		}
		/* no branch: loads come at random */
		s->lq_free += e->nload > 0;
		if (s->graph_on) {	/* GNODE rs */
			if (e->ndst > 0)
				s->rel_regs[(e->flags & E_FP) != 0] =
				    e->seq + 1;
			if (e->nload > 0)
				s->rel_lq = e->seq + 1;
			if (e->nstore > 0)
				s->rel_sq = e->seq + 1;
		}
		if (e->flags & E_FP)
			s->regs_fp_free += e->ndst;
		else
			s->regs_int_free += e->ndst;
		sim_occ_add(s, e->F, s->now, 1);
		sim_ldcnt_drop(s, e);
		e->trap = PMR_SIM_TRAP_NONE;
		if (s->measuring) {
			m++;
			sim_retire_truth(s, e);
			if (s->hook != NULL)
				sim_hook_insn(s, e, 1);
			/* pebs_next is only ever set by the pebs sampler */
			if (s->o.sampler != PMR_SIM_SAMPLER_PROFILEME) {
				if (s->pebs_next && e->tag == 0)
					sim_bs_tag(s, e, PMR_SIM_SAMPLER_PEBS);
				if (s->o.sampler == PMR_SIM_SAMPLER_COUNTER ||
				    s->o.sampler == PMR_SIM_SAMPLER_PEBS)
					sim_bs_count(s, e);
			}
		}
		if (e->tag != 0)
			sim_ps_fill(s, e);
		e->flags &= ~E_LIVE;
		s->last_pcx = e->pcx;
		s->head++;
		n++;
		s->retired_all++;
		if (!s->measuring && s->retired_all >= s->o.warmup)
			sim_measure_start(s);
		else if (s->measuring && s->st.retired >= s->retire_watch) {
			if (s->o.interval &&
			    s->st.retired >= s->next_interval) {
				sim_emit_stats(s, 0);
				s->next_interval += s->o.interval;
				watch_set(s);
			}
			if (s->o.max && s->st.retired >= s->o.max) {
				s->stop = 1;
				break;
			}
		}
	}
	if (s->gpos != NULL && n > 0)
		sim_gnode_retire(s, n);
	if (!s->measuring)
		return;
	if (s->o.sampler != PMR_SIM_SAMPLER_PROFILEME)
		sim_bs_cycle(s, n);
	if (s->o.truth)
		sim_retire_tp(s, n, m);
}
