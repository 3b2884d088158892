/*
 * samplers.c: the baseline samplers pmsim compares ProfileMe with: counter
 * overflow with skid, the IBS-like (tag at fetch/dispatch), the PEBS-like
 * (next to commit), the last-committing and the TIP-like time-proportional
 * sampler (Gottschall et al., MICRO 2021, which classifies them).
 */
#include "sim/sim_internal.h"

uint64_t
sim_bs_interval(struct pmr_sim *s)
{
	uint64_t S = s->o.pm_s, v;

	s->o.pm_s = s->o.bs_s;	/* same distributions as ProfileMe */
	v = sim_draw_interval(s);
	s->o.pm_s = S;
	return v;
}

/* Samples entry e (retired now) for sampler id: a full record. */
void
sim_bs_tag(struct pmr_sim *s, struct ent *e, int id)
{
	uint32_t k;

	s->pebs_next = 0;
	if ((k = sim_ps_new(s)) == 0)
		return;
	s->pm_samples[k - 1].sampler = (uint8_t)id;
	e->tag = k;
}

/* Emits a record that only names a pc (counter, tip on a stall). */
static void
bs_emit_pc(struct pmr_sim *s, int id, uint64_t pc, unsigned cls,
    uint32_t events)
{
	struct pmr_sim_sample r;

	memset(&r, 0, sizeof(r));
	r.sampler = (uint8_t)id;
	r.cls = (uint8_t)cls;
	r.pc = pc;
	r.events = events;
	r.seq = s->sample_seq++;
	r.pos = s->pos;
	r.fetch_cycle = s->now;
	r.lat_fm = r.lat_md = r.lat_dx = r.lat_xr = r.lat_rr = r.lat_ld =
	    r.lat_total = PMR_SIM_NOLAT;
	s->st.samples++;
	sim_emit(s, PMR_REC_SAMPLE, &r);
}

/* The oldest instruction in flight, else the last one retired. */
static void
bs_head(struct pmr_sim *s, uint64_t *pc, unsigned *cls)
{
	*pc = 0;
	*cls = PMR_OP_NOP;
	if (s->head != s->tail) {
		*pc = s->ents[s->head & s->wmask].pc;
		*cls = s->ents[s->head & s->wmask].cls;
	} else if (s->last_pcx != NONE32) {
		*pc = s->pcs[s->last_pcx].pc;
		*cls = s->pcs[s->last_pcx].cls;
	}
}

static void
bs_overflow(struct pmr_sim *s)
{
	s->bs_left = sim_bs_interval(s);
	if (s->o.sampler == PMR_SIM_SAMPLER_PEBS) {
		if (s->pebs_next)
			s->st.dropped++;	/* nothing retired since */
		s->pebs_next = 1;
	} else if (s->c.inorder) {
		/* in order, every overflow names the head skid cycles on:
		 * one pending at a time would drop the overflows of the
		 * skid after each sample, but not those of a wait for a
		 * head (an I-cache miss), and sample unlike TRUTH's
		 * head_cycles */
		if (s->bs_qn == s->bs_qcap) {	/* cannot be (run.c) */
			s->st.dropped++;
			return;
		}
		s->bs_q[(s->bs_qh + s->bs_qn++) % s->bs_qcap] = s->now +
		    s->o.bs_skid;
		if (!s->bs_pending) {
			s->bs_pending = 1;
			s->bs_fire_at = s->bs_q[s->bs_qh];
		}
	} else if (!s->bs_pending) {
		s->bs_pending = 1;
		s->bs_fire_at = s->now + s->o.bs_skid;
	} else
		s->st.dropped++;	/* the interrupt is still pending */
}

/* Counts the retire-time event of e for the counter and pebs samplers. */
void __attribute__((noinline))
sim_bs_count(struct pmr_sim *s, const struct ent *e)
{
	int hit;

	switch (s->o.bs_event) {
	case PMR_SIM_BSEV_RETIRED:
		hit = 1;
		break;
	case PMR_SIM_BSEV_DMISS:
		hit = e->nload > 0 && (e->events & PMR_SIM_EV_DCACHE_MISS);
		break;
	case PMR_SIM_BSEV_MISP:
		hit = (e->events & (PMR_SIM_EV_BR_MISP |
		    PMR_SIM_EV_JMP_MISP)) != 0;
		break;
	default:
		return;		/* cycles: counted in bs_cycle */
	}
	if (hit && --s->bs_left == 0)
		bs_overflow(s);
}

/* Per cycle: cycle counting, counter delivery, tip selection. */
void __attribute__((noinline))
sim_bs_cycle(struct pmr_sim *s, unsigned n)
{
	uint64_t pc;
	unsigned cls;

	if (s->o.sampler == PMR_SIM_SAMPLER_TIP) {
		if (--s->bs_left > 0)
			return;
		s->bs_left = sim_bs_interval(s);
		if (n > 0) {
			/* one of the n retiring, at random: each gets its
			 * 1/n share of the cycle in expectation */
			uint64_t i = s->head - n + sim_rnd(s) % n;
			struct ent *e = &s->ents[i & s->wmask];

			if (e->tag == 0) {
				sim_bs_tag(s, e, PMR_SIM_SAMPLER_TIP);
				sim_ps_fill(s, e);
			} else
				s->st.dropped++;
			return;
		}
		bs_head(s, &pc, &cls);
		bs_emit_pc(s, PMR_SIM_SAMPLER_TIP, pc, cls, 0);
		return;
	}
	if (s->o.sampler == PMR_SIM_SAMPLER_LAST) {
		/* every S cycles or so, the instruction that committed
		 * last: the youngest of those retiring now, or the last one
		 * retired before (TIP's "last-committing" class) */
		if (--s->bs_left > 0)
			return;
		s->bs_left = sim_bs_interval(s);
		if (s->last_pcx == NONE32) {
			s->st.dropped++;	/* nothing retired yet */
			return;
		}
		bs_emit_pc(s, PMR_SIM_SAMPLER_LAST, s->pcs[s->last_pcx].pc,
		    s->pcs[s->last_pcx].cls, 0);
		return;
	}
	if (s->o.sampler == PMR_SIM_SAMPLER_PEBS) {
		/* event=cycles: arm, and the next to retire is sampled */
		if (s->o.bs_event == PMR_SIM_BSEV_CYCLES && --s->bs_left == 0)
			bs_overflow(s);
		return;
	}
	if (s->o.sampler == PMR_SIM_SAMPLER_COUNTER) {
		if (s->o.bs_event == PMR_SIM_BSEV_CYCLES && --s->bs_left == 0)
			bs_overflow(s);
		if (s->bs_pending && s->now >= s->bs_fire_at) {
			if (s->c.inorder) {
				/* the head of the issue queue; with none,
				 * the next instruction to come (DCPI): the
				 * due overflows wait for it together */
				uint64_t i;

				while (s->bs_qn > 0 && s->bs_q[s->bs_qh] <=
				    s->now) {
					s->bs_qh = (s->bs_qh + 1) % s->bs_qcap;
					s->bs_qn--;
					s->bs_due++;
				}
				if ((i = sim_io_head(s)) >= s->tail)
					return;
				pc = s->ents[i & s->wmask].pc;
				cls = s->ents[i & s->wmask].cls;
				for (; s->bs_due > 0; s->bs_due--)
					bs_emit_pc(s, PMR_SIM_SAMPLER_COUNTER,
					    pc, cls, 0);
				if (s->bs_qn > 0)
					s->bs_fire_at = s->bs_q[s->bs_qh];
				else
					s->bs_pending = 0;
				return;
			}
			bs_head(s, &pc, &cls);
			s->bs_pending = 0;
			bs_emit_pc(s, PMR_SIM_SAMPLER_COUNTER, pc, cls, 0);
		}
	}
}

/*
 * The truth's part of the retire stage (--truth), once a cycle: the n
 * instructions retired, m of them measured.
 */
void __attribute__((noinline))
sim_retire_tp(struct pmr_sim *s, unsigned n, unsigned m)
{
	sim_local_step(s, m);
	/* time-proportional oracle: charge this cycle */
	if (n > 0) {
		/* locals: the tp stores could otherwise alias s */
		const struct ent *ev = s->ents;
		struct pcent *pt = s->pcs;
		uint64_t i, head = s->head, wmask = s->wmask;
		uint64_t share = TP_UNIT / n;

		pt[ev[(head - n) & wmask].pcx].tp += TP_UNIT - share * (n - 1);
		for (i = head - n + 1; i < head; i++)
			pt[ev[i & wmask].pcx].tp += share;
	} else if (s->head != s->tail)
		s->pcs[s->ents[s->head & s->wmask].pcx].tp += TP_UNIT;
	else if (s->last_pcx != NONE32)
		s->pcs[s->last_pcx].tp += TP_UNIT;
	else
		s->tp_pending += TP_UNIT;	/* nothing fetched yet */
}
