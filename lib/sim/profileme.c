/*
 * profileme.c: ProfileMe (Dean et al., MICRO-30, §4): selection at fetch, the
 * sample registers, SAMPLE and PAIR records, re-arm.
 */
#include "sim/sim_internal.h"

/* Draws a sampling interval (fetched instructions, >= 1). */
uint64_t
sim_draw_interval(struct pmr_sim *s)
{
	uint64_t S = s->o.pm_s, J = s->o.pm_jitter, v;

	if (S <= 1)
		return 1;
	if (s->o.pm_dist == PMR_SIM_DIST_UNIFORM) {
		if (J >= S)
			J = S - 1;
		v = S - J + sim_rnd(s) % (2 * J + 1);
		return v == 0 ? 1 : v;
	}
	/* geometric on 1, 2, ...: each fetch selected with probability 1/S */
	v = (uint64_t)floor(log(sim_rnd01(s)) / log1p(-1.0 / (double)S)) + 1;
	return v;
}

uint32_t
sim_ps_new(struct pmr_sim *s)
{
	int32_t i;

	if (s->pm_sample_free < 0) {
		uint32_t cap = s->pm_nsamples ? s->pm_nsamples * 2 : 64, j;
		struct psamp *p = realloc(s->pm_samples, cap * sizeof(*p));

		if (p == NULL)
			return 0;
		s->pm_samples = p;
		for (j = s->pm_nsamples; j < cap; j++) {
			memset(&p[j], 0, sizeof(p[j]));
			p[j].next = j + 1 < cap ? (int32_t)(j + 1) : -1;
		}
		s->pm_sample_free = (int32_t)s->pm_nsamples;
		s->pm_nsamples = cap;
	}
	i = s->pm_sample_free;
	s->pm_sample_free = s->pm_samples[i].next;
	memset(&s->pm_samples[i], 0, sizeof(s->pm_samples[i]));
	s->pm_samples[i].state = 1;
	s->pm_samples[i].next = -1;
	return (uint32_t)i + 1;
}

void
sim_ps_free(struct pmr_sim *s, uint32_t id)
{
	s->pm_samples[id - 1].state = 0;
	s->pm_samples[id - 1].next = s->pm_sample_free;
	s->pm_sample_free = (int32_t)(id - 1);
}

static uint32_t
pp_new(struct pmr_sim *s)
{
	int32_t i;

	if (s->pm_pair_free < 0) {
		uint32_t cap = s->pm_npairs ? s->pm_npairs * 2 : 32, j;
		struct ppair *p = realloc(s->pm_pairs, cap * sizeof(*p));

		if (p == NULL)
			return 0;
		s->pm_pairs = p;
		for (j = s->pm_npairs; j < cap; j++)
			p[j].next = j + 1 < cap ? (int32_t)(j + 1) : -1;
		s->pm_pair_free = (int32_t)s->pm_npairs;
		s->pm_npairs = cap;
	}
	i = s->pm_pair_free;
	s->pm_pair_free = s->pm_pairs[i].next;
	memset(&s->pm_pairs[i], 0, sizeof(s->pm_pairs[i]));
	return (uint32_t)i + 1;
}

static void
pp_free(struct pmr_sim *s, uint32_t id)
{
	s->pm_pairs[id - 1].next = s->pm_pair_free;
	s->pm_pair_free = (int32_t)(id - 1);
}

/* Re-arms the fetched-instruction counter (faithful re-arm). */
void
sim_pm_rearm(struct pmr_sim *s)
{
	s->pm_armed = 1;
	s->pm_arm_at = s->now + s->o.pm_irq;
	s->pm_left = sim_draw_interval(s);
}

/* A sample (or pair member) is complete: emit what is whole. */
static void
ps_complete(struct pmr_sim *s, uint32_t id)
{
	struct psamp *p = &s->pm_samples[id - 1];

	if (p->pair == 0) {
		int pm = p->sampler == PMR_SIM_SAMPLER_PROFILEME ||
		    p->sampler == PMR_SIM_SAMPLER_IBS;

		p->s.seq = s->sample_seq++;
		s->st.samples++;
		sim_emit(s, PMR_REC_SAMPLE, &p->s);
		sim_ps_free(s, id);
		if (pm && s->o.pm_rearm == PMR_SIM_REARM_INTERRUPT) {
			s->outstanding--;
			sim_pm_rearm(s);
		}
		return;
	}
	p->state = 3;
	{
		struct ppair *q = &s->pm_pairs[p->pair - 1];
		uint32_t pid = p->pair;

		if (++q->done < 2)
			return;
		{
			struct pmr_sim_pair r;
			struct psamp *a = &s->pm_samples[q->a - 1];
			struct psamp *b = &s->pm_samples[q->b - 1];

			memset(&r, 0, sizeof(r));
			r.seq = s->pair_seq++;
			r.a = a->s;
			r.b = b->s;
			r.a.seq = r.b.seq = r.seq;
			r.dist = q->d;
			r.fetch_lat = (uint32_t)(b->s.fetch_cycle -
			    a->s.fetch_cycle);
			s->st.pairs++;
			sim_emit(s, PMR_REC_PAIR, &r);
		}
		sim_ps_free(s, q->a);
		sim_ps_free(s, q->b);
		pp_free(s, pid);
		if (s->o.pm_rearm == PMR_SIM_REARM_INTERRUPT) {
			s->outstanding--;
			sim_pm_rearm(s);
		}
	}
}

static uint32_t
lat32(uint64_t a, uint64_t b)
{
	return b - a >= PMR_SIM_NOLAT ? PMR_SIM_NOLAT - 1 : (uint32_t)(b - a);
}

/* Fills the sample of tagged entry e, which retired or aborted now. */
void
sim_ps_fill(struct pmr_sim *s, struct ent *e)
{
	struct psamp *p = &s->pm_samples[e->tag - 1];
	struct pmr_sim_sample *r = &p->s;
	int ret = e->trap == PMR_SIM_TRAP_NONE;

	r->sampler = p->sampler;
	r->cls = e->cls;
	r->trap = e->trap;
	r->hist_len = (uint8_t)(s->c.bp_ghist > 64 ? 64 : s->c.bp_ghist);
	r->events = e->events | (ret ? PMR_SIM_EV_RETIRED : 0);
	r->context = (e->flags & E_TID) ? ecold(s, e)->tid : 0;
	r->pos = e->seq;
	r->pc = e->pc;
	r->addr = e->addr;
	r->history = s->warm[e - s->ents].hist & (r->hist_len >= 64 ? ~0ull :
	    (1ull << r->hist_len) - 1);
	r->fetch_cycle = e->F;
	r->lat_fm = r->lat_md = r->lat_dx = r->lat_xr = PMR_SIM_NOLAT;
	r->lat_rr = r->lat_ld = PMR_SIM_NOLAT;
	if (e->flags & E_MAPPED)
		r->lat_fm = lat32(e->F, e->M);
	if (e->flags & E_SCHED)
		r->lat_md = lat32(e->M, e->D);
	if (e->flags & E_ISSUED) {
		r->lat_dx = lat32(e->D, e->X);
		r->lat_xr = lat32(e->X, e->RR);
		if (e->nload > 0)
			r->lat_ld = lat32(e->X, e->LC);
	}
	r->cpos = ~0ull;
	if (ret) {
		r->lat_rr = lat32(e->RR, s->now);
		r->cpos = s->retired_all;
	}
	r->lat_total = lat32(e->F, s->now);
	p->done_at = s->now;
	if ((e->flags & E_ISSUED) && e->nload > 0 && e->LC > s->now)
		p->done_at = e->LC;	/* the load's data is still out */
	if (p->done_at <= s->now)
		ps_complete(s, e->tag);
	else {
		p->state = 2;
		p->next = s->pm_sample_wait;
		s->pm_sample_wait = (int32_t)(e->tag - 1);
	}
	e->tag = 0;
}

/* Completes waiting samples whose loads have returned. */
void
sim_ps_poll(struct pmr_sim *s)
{
	int32_t *pp = &s->pm_sample_wait;

	while (*pp >= 0) {
		int32_t i = *pp;

		if (s->pm_samples[i].done_at <= s->now) {
			*pp = s->pm_samples[i].next;
			ps_complete(s, (uint32_t)i + 1);
		} else
			pp = &s->pm_samples[i].next;
	}
}

/* Tags e if it is the second member of a pair that waits for it. */
void __attribute__((noinline))
sim_pm_member(struct pmr_sim *s, struct ent *e)
{
	uint32_t k = (uint32_t)(e->seq & s->minor_mask), id, pid;

	if (s->minor[k] != 0 && s->minor_pos[k] == e->seq) {
		pid = s->minor[k];
		s->minor[k] = 0;
		if ((id = sim_ps_new(s)) != 0) {
			s->pm_samples[id - 1].pair = pid;
			s->pm_samples[id - 1].member = 1;
			s->pm_pairs[pid - 1].b = id;
			e->tag = id;
		}
	}
}

/* Starts a sample (or pair) on e, which the counter selected. */
void __attribute__((noinline))
sim_pm_select(struct pmr_sim *s, struct ent *e)
{
	uint32_t id, pid;

	if (e->tag != 0) {	/* already the second member of a pair */
		s->st.dropped++;
		s->pm_left = sim_draw_interval(s);
		return;
	}
	if ((id = sim_ps_new(s)) == 0)
		return;
	e->tag = id;
	s->pm_samples[id - 1].sampler =
	    s->o.pm_select == PMR_SIM_SELECT_MAPPED ? PMR_SIM_SAMPLER_IBS :
	    PMR_SIM_SAMPLER_PROFILEME;
	if (s->o.pm == PMR_SIM_PM_PAIRED) {
		uint32_t d = 1 + (uint32_t)(sim_rnd(s) % s->o.pm_w);
		uint32_t k = (uint32_t)((e->seq + d) & s->minor_mask);

		if ((pid = pp_new(s)) == 0)
			return;
		s->pm_pairs[pid - 1].a = id;
		s->pm_pairs[pid - 1].d = d;
		s->pm_pairs[pid - 1].posa = e->seq;
		s->pm_samples[id - 1].pair = pid;
		if (s->minor[k] != 0) {
			/* another pair waits for that fetch: keep it */
			s->st.dropped++;
			s->pm_samples[id - 1].pair = 0;
			pp_free(s, pid);
			sim_ps_free(s, id);
			e->tag = 0;
			s->pm_left = sim_draw_interval(s);
			return;
		}
		s->minor[k] = pid;
		s->minor_pos[k] = e->seq + d;
	}
	if (s->o.pm_rearm == PMR_SIM_REARM_INTERRUPT) {
		s->pm_armed = 0;
		s->outstanding++;
	} else
		s->pm_left = sim_draw_interval(s);
}

/*
 * Fetch-opportunity selection (ProfileMe 4.1.1): the counter counts the
 * fetch_width slots of every cycle; a selected slot holds one of the nf
 * instructions fetched this cycle, a slot of the block off the predicted
 * path (the rest of a cycle that fetched something) or nothing.
 */
void
sim_pm_opportunities(struct pmr_sim *s, unsigned nf)
{
	unsigned i, w = s->c.fetch_width;

	if (!s->pm_armed || s->now < s->pm_arm_at)
		return;
	if (s->pm_left > w) {
		s->pm_left -= w;
		return;
	}
	for (i = 0; i < w; i++) {
		if (--s->pm_left > 0)
			continue;
		if (i < nf) {
			struct ent *e = &s->ents[(s->tail - nf + i) & s->wmask];
			uint32_t id;

			if ((id = sim_ps_new(s)) == 0)
				return;
			e->tag = id;
			if (s->o.pm_rearm == PMR_SIM_REARM_INTERRUPT) {
				s->pm_armed = 0;
				s->outstanding++;
				return;
			}
		} else {
			struct pmr_sim_sample r;

			memset(&r, 0, sizeof(r));
			r.kind = nf > 0 ? PMR_SIM_KIND_OFFPATH :
			    PMR_SIM_KIND_EMPTY;
			r.seq = s->sample_seq++;
			r.pos = s->pos;
			r.history = s->ghist & (s->c.bp_ghist >= 64 ? ~0ull :
			    (1ull << s->c.bp_ghist) - 1);
			r.hist_len = (uint8_t)(s->c.bp_ghist > 64 ? 64 :
			    s->c.bp_ghist);
			r.pc = s->wrongpath ? s->wp_pc : s->have_nxt ?
			    s->nxt.pc : 0;
			r.fetch_cycle = s->now;
			r.lat_fm = r.lat_md = r.lat_dx = r.lat_xr = r.lat_rr =
			    r.lat_ld = r.lat_total = PMR_SIM_NOLAT;
			if (nf == 0 && s->now < s->fetch_at &&
			    s->fetch_why == PMR_SIM_ST_ICACHE)
				r.events = PMR_SIM_EV_ICACHE_MISS;
			s->st.samples++;
			sim_emit(s, PMR_REC_SAMPLE, &r);
			if (s->o.pm_rearm == PMR_SIM_REARM_INTERRUPT) {
				sim_pm_rearm(s);	/* delivered at once */
				return;
			}
		}
		s->pm_left = sim_draw_interval(s);
	}
}
