/*
 * run.c: the run loop: pmr_sim_new and pmr_sim_free, the public entry
 * points, the untimed instructions of --skip, the cycle loop and the skip
 * to the next event.
 */
#include <inttypes.h>
#include <stdio.h>

#include "sim/sim_internal.h"
#include "util/mix.h"

void
pmr_sim_opts_init(struct pmr_sim_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->pm_s = 1000;
	o->pm_w = 0;
	o->delta = 15;
	o->win_len = 30;
	o->warm = PMR_SIM_WARM_DEFAULT;
	pmr_sim_shotgun_defaults(o);
}

uint64_t
pmr_sim_window_seed(uint64_t seed, uint64_t skip)
{
	return skip == 0 ? seed : pmr_mix64(seed ^ skip *
	    0x9e3779b97f4a7c15ull);
}

int
pmr_sim_window_skip(const void *value, size_t n, uint64_t *skip)
{
	char v[96];

	snprintf(v, sizeof(v), "%.*s", (int)(n < sizeof(v) ? n : sizeof(v) -
	    1), (const char *)value);
	return sscanf(v, "skip=%" SCNu64, skip) == 1 ? 0 : -1;
}

uint64_t
pmr_sim_skipped(const struct pmr_sim *s)
{
	return s->nskipped;
}

void
pmr_sim_shotgun_counts(const struct pmr_sim *s, uint64_t *sigs,
    uint64_t *dets)
{
	*sigs = s->sg_sigs;
	*dets = s->sg_dets;
}

const struct pmr_sim_stats *
pmr_sim_stats(const struct pmr_sim *s)
{
	return &s->st;
}

const struct pmr_sim_config *
pmr_sim_config(const struct pmr_sim *s)
{
	return &s->c;
}

const struct pmr_sim_opts *
pmr_sim_opts(const struct pmr_sim *s)
{
	return &s->o;
}

const char *
pmr_sim_errmsg(const struct pmr_sim *s)
{
	return s->errmsg;
}

void
pmr_sim_set_writer(struct pmr_sim *s, struct pmr_writer *w)
{
	s->w = w;
}

void
pmr_sim_set_hook(struct pmr_sim *s,
    void (*fn)(void *, uint32_t, const void *), void *arg)
{
	s->hook = fn;
	s->hookarg = arg;
	s->graph_on = s->gpos != NULL || fn != NULL;
}

void
pmr_sim_free(struct pmr_sim *s)
{
	int i;

	if (s == NULL)
		return;
	free(s->ents);
	free(s->bs_q);
	free(s->warm);
	free(s->fready);
	pmr_sim_cache_fini(&s->dib);
	free(s->cold);
	free(s->undo);
	free(s->gnodes);
	free(s->rpl);
	free(s->ready);
	free(s->soon);
	free(s->node);
	for (i = 0; i < P_N; i++)
		free(s->fu[i]);
	free(s->ras);
	free(s->ras_pcx);
	pmr_sim_cache_fini(&s->l1i);
	pmr_sim_cache_fini(&s->l1d);
	pmr_sim_cache_fini(&s->l2);
	pmr_sim_cache_fini(&s->l3);
	pmr_sim_cache_fini(&s->itlb);
	pmr_sim_cache_fini(&s->dtlb);
	pmr_sim_bpred_fini(&s->bp);
	free(s->mshr_line);
	free(s->mshr_fill);
	free(s->mshr_pos);
	free(s->gpos);
	free(s->gseq);
	pmr_sim_shotgun_free(s->sg);
	free(s->dram_open);
	free(s->lipc_retired);
	free(s->lipc_at);
	free(s->lipc_pcx);
	free(s->pages);
	free(s->pcs);
	free(s->last_addr);
	free(s->truth_raw);
	free(s->atruth);
	free(s->pcs_hash);
	free(s->idx);
	free(s->conc);
	free(s->useful_q);
	free(s->pm_samples);
	free(s->pm_pairs);
	free(s->minor);
	free(s->minor_pos);
	free(s);
}

static unsigned
log2u(uint64_t v)
{
	unsigned n = 0;

	while (v > 1) {
		v >>= 1;
		n++;
	}
	return n;
}

struct pmr_sim *
pmr_sim_new(const struct pmr_sim_config *c, const struct pmr_sim_opts *o,
    int *err)
{
	struct pmr_sim *s;
	char msg[128];
	uint32_t i, ws;
	int e = PMR_ENOMEM;

	if ((s = sim_zalloc64(sizeof(*s))) == NULL) {
		*err = PMR_ENOMEM;
		return NULL;
	}
	s->c = *c;
	s->o = *o;
	/* each window of a trace samples with a seed of its own */
	s->o.seed = pmr_sim_window_seed(o->seed, o->skip);
	if (s->o.warm > s->o.skip)
		s->o.warm = s->o.skip;
	pmr_sim_config_idealize(&s->c, o->ideal);
	if (pmr_sim_config_check(&s->c, msg, sizeof(msg)) != PMR_OK) {
		free(s);
		*err = PMR_EINVAL;
		return NULL;
	}
	if (s->o.pm_w == 0)
		s->o.pm_w = s->c.rob + s->c.fetchq + s->c.fetch_width *
		    s->c.frontend;
	if (s->o.pm_s == 0)
		s->o.pm_s = 1;
	s->pm_at_fetch = s->o.pm != PMR_SIM_PM_OFF &&
	    s->o.pm_select == PMR_SIM_SELECT_FETCH;
	ws = 64;
	while (ws < s->c.rob + s->c.fetchq + 2 * s->c.fetch_width)
		ws *= 2;
	s->wsize = ws;
	s->wmask = ws - 1;
	s->nwords = ws / 64;
	s->ents = sim_zalloc64((size_t)ws * sizeof(*s->ents));
	s->warm = sim_zalloc64((size_t)ws * sizeof(*s->warm));
	s->cold = sim_zalloc64((size_t)ws * sizeof(*s->cold));
	s->undo = calloc(ws, sizeof(*s->undo));
	s->gnodes = calloc(ws, sizeof(*s->gnodes));
	if (!s->c.wrong_path &&
	    ((s->fready = calloc(ws, sizeof(*s->fready))) == NULL ||
	    pmr_sim_cache_init(&s->dib, DIB_BYTES >> DIB_SHIFT, DIB_WAYS,
	    DIB_SHIFT) != PMR_OK))
		goto bad;
	/* replay deque: a trap moves at most the window, plus the next
	 * instruction, in front of what an earlier trap left there; the
	 * window and the deque together never hold more than wsize + 1 */
	s->rpl = calloc(ws + 2, sizeof(*s->rpl));
	s->ready = calloc(s->nwords, sizeof(*s->ready));
	s->soon = calloc(s->nwords, sizeof(*s->soon));
	s->ncap = ws * 8 + 1024;
	s->node = malloc(s->ncap * sizeof(*s->node));
	if (s->ents == NULL || s->warm == NULL || s->cold == NULL ||
	    s->undo == NULL || s->gnodes == NULL ||
	    s->rpl == NULL || s->ready == NULL ||
	    s->soon == NULL || s->node == NULL)
		goto bad;
	for (i = 0; i < s->ncap; i++)
		s->node[i].next = i + 1 < s->ncap ? (int32_t)(i + 1) : -1;
	s->nfree = 0;
	for (i = 0; i < WHEEL; i++)
		s->wheel[i] = -1;
	s->nfu[P_ALU] = s->c.n_alu;
	s->nfu[P_IMUL] = s->c.n_imul;
	s->nfu[P_FADD] = s->c.n_fadd;
	s->nfu[P_FMUL] = s->c.n_fmul;
	s->nfu[P_MEM] = s->c.n_mem;
	for (i = 0; i < P_N; i++)
		if ((s->fu[i] = calloc(s->nfu[i], sizeof(uint64_t))) == NULL)
			goto bad;
	s->iq_int_free = s->c.iq_int;
	s->iq_fp_free = s->c.iq_fp;
	s->regs_int_free = s->c.regs_int;
	s->regs_fp_free = s->c.regs_fp;
	s->lq_free = s->c.lq;
	s->sq_free = s->c.sq;
	s->ras_n = s->c.ras;
	s->ras = calloc(s->ras_n, sizeof(*s->ras));
	s->ras_pcx = calloc(s->ras_n, sizeof(*s->ras_pcx));
	if (s->ras == NULL || s->ras_pcx == NULL)
		goto bad;
	s->lshift = log2u(s->c.line);
	s->fbshift = s->c.fetch_block ? log2u(s->c.fetch_block) : 0;
	s->pshift = log2u(s->c.page);
	if (pmr_sim_cache_init(&s->l1i, s->c.l1i_size / s->c.line,
	    s->c.l1i_assoc, s->lshift) != 0 ||
	    pmr_sim_cache_init(&s->l1d, s->c.l1d_size / s->c.line,
	    s->c.l1d_assoc, s->lshift) != 0 ||
	    pmr_sim_cache_init(&s->l2, s->c.l2_size / s->c.line,
	    s->c.l2_assoc, s->lshift) != 0 ||
	    pmr_sim_cache_init(&s->l3, s->c.l3_size ? s->c.l3_size /
	    s->c.line : 1, s->c.l3_size ? s->c.l3_assoc : 1, s->lshift) != 0 ||
	    pmr_sim_cache_init(&s->itlb, s->c.itlb, s->c.tlb_assoc,
	    s->pshift) != 0 ||
	    pmr_sim_cache_init(&s->dtlb, s->c.dtlb, s->c.tlb_assoc,
	    s->pshift) != 0 ||
	    pmr_sim_bpred_init(&s->bp, &s->c) != 0)
		goto bad;
	s->mshr_line = calloc(s->c.mshr, sizeof(uint64_t));
	s->mshr_fill = calloc(s->c.mshr, sizeof(uint64_t));
	s->mshr_pos = calloc(s->c.mshr, sizeof(uint64_t));
	s->pcs_hash_cap = 4096;
	s->pcs_hash = calloc(s->pcs_hash_cap, sizeof(*s->pcs_hash));
	s->conc = calloc(CRING, sizeof(*s->conc));
	if (s->mshr_line == NULL || s->mshr_fill == NULL ||
	    s->mshr_pos == NULL || s->pcs_hash == NULL || s->conc == NULL)
		goto bad;
	if (s->c.inorder && s->o.sampler == PMR_SIM_SAMPLER_COUNTER) {
		/* an overflow a cycle counting cycles, up to the retire
		 * width counting retire-time events */
		s->bs_qcap = (s->o.bs_skid + 2) *
		    (s->o.bs_event == PMR_SIM_BSEV_CYCLES ? 1 :
		    (s->c.retire_width ? s->c.retire_width : 1));
		if ((s->bs_q = calloc(s->bs_qcap, sizeof(*s->bs_q))) == NULL)
			goto bad;
	}
	if (s->o.graph || s->o.shotgun) {
		/* fetch distances up to 32 windows: commit distances past
		 * 20 windows (icost's idealized window) do not matter */
		uint64_t m = (uint64_t)ws * 32;

		while (m < (uint64_t)s->c.rob * 20 + ws)
			m *= 2;
		s->gmask = m - 1;
		s->gpos = calloc(m, sizeof(*s->gpos));
		s->gseq = calloc(m, sizeof(*s->gseq));
		if (s->gpos == NULL || s->gseq == NULL)
			goto bad;
	}
	if (s->o.shotgun && (s->sg = pmr_sim_shotgun_new(&s->o,
	    sim_shotgun_emit,
	    s, &e)) == NULL)
		goto bad;
	s->graph_on = s->gpos != NULL;
	s->ip_reg = s->c.bp == PMR_SIM_BP_CHAMPSIM;
	s->rshift = log2u(s->c.dram_row);
	if (s->c.dram_banks != 0 && (s->dram_open = calloc(s->c.dram_banks,
	    sizeof(*s->dram_open))) == NULL)
		goto bad;
	if (s->o.win_len == 0 || s->o.delta > 65536) {
		e = PMR_EINVAL;
		goto bad;
	}
	if (s->o.truth) {
		uint64_t m = 1;

		while (m < 2ull * s->o.delta + 2)
			m <<= 1;
		s->lipc_rmask = m - 1;
		s->lipc_retired = calloc(m, sizeof(*s->lipc_retired));
		m = 1;
		while (m < (uint64_t)s->c.retire_width * (s->o.delta + 2))
			m <<= 1;
		s->lipc_mask = m - 1;
		s->lipc_at = calloc(m, sizeof(*s->lipc_at));
		s->lipc_pcx = calloc(m, sizeof(*s->lipc_pcx));
		if (s->lipc_retired == NULL || s->lipc_at == NULL ||
		    s->lipc_pcx == NULL)
			goto bad;
	}
	s->pm_sample_free = s->pm_sample_wait = s->pm_pair_free = -1;
	if (s->o.pm == PMR_SIM_PM_PAIRED) {
		uint32_t m = 1;

		if (s->o.pm_w > 65536) {
			e = PMR_EINVAL;
			goto bad;
		}
		while (m <= s->o.pm_w)
			m *= 2;
		s->minor_mask = m - 1;
		s->minor = calloc(m, sizeof(*s->minor));
		s->minor_pos = calloc(m, sizeof(*s->minor_pos));
		if (s->minor == NULL || s->minor_pos == NULL)
			goto bad;
	}
	sim_seed_rng(s, s->o.seed);
	s->last_pcx = NONE32;
	return s;
bad:
	pmr_sim_free(s);
	*err = e;
	return NULL;
}

/*
 * After an idle cycle (nothing resolved, retired, issued, mapped or
 * fetched, and nothing ready), returns the next cycle at which anything
 * can happen: a fetch stall ending, a fetch-queue entry reaching map, the
 * head becoming ready to retire, a wheel bucket, a redirect, a sample's
 * load data, a baseline sampler's cycle event.  Returns now + 1 when it
 * cannot tell.
 */
static uint64_t
next_event(struct pmr_sim *s)
{
	uint64_t t = s->now + CRING / 2, c, i;
	int32_t k;

#define SOON(x) do { if ((x) < t) t = (x); } while (0)
	if (s->o.noskip ||
	    (s->o.pm_select == PMR_SIM_SELECT_OPPORTUNITY && s->measuring))
		return s->now + 1;
	for (i = 0; i < s->nwords; i++)
		if (s->ready[i] != 0)
			return s->now + 1;
	/* fetch: a time stall ends, or a state block lifts on its own
	 * only through other events */
	if (s->now + 1 < s->fetch_at)
		SOON(s->fetch_at);
	else if (!(s->tail - s->map >= s->c.fetchq) &&
	    !(s->tail - s->head >= s->wsize) &&
	    (s->wrongpath ? !s->wp_stuck && s->c.wrong_path :
	    !s->src_done || s->have_nxt || s->rpl_n > 0))
		return s->now + 1;
	if (s->mo_pending)
		return s->now + 1;
	if (s->map != s->tail) {
		c = s->ents[s->map & s->wmask].F + s->c.frontend;
		if (s->fready != NULL)
			c = sim_fe_map_at(s, c);
		if (c > s->now)
			SOON(c);
		else if (s->map_why < 0)
			return s->now + 1;
	}
	if (s->head != s->map && (s->ents[s->head & s->wmask].flags & E_ISSUED))
		SOON(s->ents[s->head & s->wmask].RR);
	if (s->res_pending && s->res_at != ~0ull)
		SOON(s->res_at);
	for (k = s->pm_sample_wait; k >= 0; k = s->pm_samples[k].next)
		SOON(s->pm_samples[k].done_at);
	if (s->measuring && s->bs_cycles)
		SOON(s->now + s->bs_left);
	if (s->bs_pending)
		SOON(s->bs_fire_at);
	if (s->pm_armed && s->pm_arm_at > s->now)
		SOON(s->pm_arm_at);
	for (c = s->now + 1; c < t && c < s->now + WHEEL; c++)
		if (s->wheel[c & (WHEEL - 1)] >= 0) {
			t = c;
			break;
		}
#undef SOON
	return t > s->now ? t : s->now + 1;
}

/*
 * Jumps over the idle cycles now+1 .. to-1, counting for each what the
 * stages would have counted: stall reasons, the time-proportional charge
 * and the baseline samplers' cycle counters.
 */
static void
skip_to(struct pmr_sim *s, uint64_t to)
{
	uint64_t k = to - s->now - 1;

	if (k == 0)
		return;
	s->skipped += k;
	if (s->measuring) {
		if (s->now + 1 < s->fetch_at) {
			switch (s->fetch_why) {
			case PMR_SIM_ST_ICACHE:
				s->st.st_icache += k;
				break;
			default:
				s->st.st_redirect += k;
				break;
			}
		} else if (s->tail - s->map >= s->c.fetchq)
			s->st.st_fetchq += k;
		if (s->map_why < 0)	/* Top-Down: nothing mapped */
			*(s->td_recov ? &s->st.td_bad : &s->st.td_fe) +=
			    k * s->c.map_width;
		switch (s->map_why) {
		case PMR_SIM_ST_ROB:
			s->st.st_rob += k;
			break;
		case PMR_SIM_ST_IQ:
			s->st.st_iq += k;
			break;
		case PMR_SIM_ST_REGS:
			s->st.st_regs += k;
			break;
		case PMR_SIM_ST_LSQ:
			s->st.st_lsq += k;
			break;
		}
		if (s->bs_cycles)
			s->bs_left -= k;
		if (s->c.inorder && s->o.truth)
			sim_head_idle(s, s->now + 1, k);
		if (s->o.truth) {
			if (s->head != s->tail)
				s->pcs[s->ents[s->head & s->wmask].pcx].tp +=
				    k * TP_UNIT;
			else if (s->last_pcx != NONE32)
				s->pcs[s->last_pcx].tp += k * TP_UNIT;
			else
				s->tp_pending += k * TP_UNIT;
		}
	}
	s->now += k;
}

/* Returns 1 while anything is still in flight or pending. */
static int
busy(const struct pmr_sim *s)
{
	return s->head != s->tail || s->pm_sample_wait >= 0 || s->res_pending ||
	    s->mo_pending;
}

/*
 * --skip: reads the first skip instructions from the source, untimed.
 * The last warm of them go through the functional warm-up
 * (sim_warm_insn); before those, with fault_lat, only their pages go
 * into the first-touch set, since a page faults once in a program's life
 * however long ago.  Returns PMR_OK or an error code.
 */
static int
skip_insns(struct pmr_sim *s)
{
	uint64_t n, cold = s->o.skip - s->o.warm;
	struct pmr_dinsn d;
	unsigned i;
	int r = 0;

	for (n = 0; n < s->o.skip; n++) {
		if ((r = s->src(s->srcarg, &d)) <= 0 || d.si == NULL)
			break;
		if (n >= cold) {
			if (sim_warm_insn(s, &d) != 0)
				return sim_fail(s, PMR_ENOMEM,
				    "out of memory");
		} else if (s->c.fault_lat != 0) {
			sim_page_mark(s, d.pc);
			for (i = 0; i < d.nload && i < PMR_INSN_MAXMEM; i++)
				sim_page_mark(s, d.addr[i]);
		}
	}
	s->nskipped = n;
	if (r < 0)
		return sim_fail(s, r, "%s", "trace read error");
	if (n < s->o.skip)
		s->src_done = 1;
	/* the scratch entry back as new, the first fetch's line looked up */
	memset(&s->ents[0], 0, sizeof(s->ents[0]));
	memset(&s->warm[0], 0, sizeof(s->warm[0]));
	memset(&s->cold[0], 0, sizeof(s->cold[0]));
	s->cur_line = 0;
	return PMR_OK;
}

int
pmr_sim_run(struct pmr_sim *s, int (*src)(void *, struct pmr_dinsn *),
    void *arg)
{
	uint32_t i;

	s->src = src;
	s->srcarg = arg;
	if (s->o.skip > 0 && skip_insns(s) != PMR_OK)
		return s->err;
	if (s->o.warmup == 0)
		sim_measure_start(s);
	for (;;) {
		uint64_t h0 = s->head, m0 = s->map, t0 = s->tail;
		uint64_t i0 = s->nissued, n0 = s->st.samples + s->st.pairs;
		int r0 = s->res_pending;

		if (s->mo_pending && s->now >= s->mo_at)
			sim_mo_trap(s);
		if (s->res_pending && s->now >= s->res_at)
			sim_resolve(s);
		sim_retire(s);
		if (s->stop || s->err)
			break;
		if (s->pm_sample_wait >= 0)
			sim_ps_poll(s);
		sim_issue(s);
		sim_map(s);
		sim_fetch(s);
		if (s->o.truth)
			sim_useful_advance(s, 0);
		if (s->err)
			break;
		if (s->src_done && !s->have_nxt && s->rpl_n == 0 &&
		    !busy(s))
			break;
		if (s->src_done && s->head == s->tail && s->res_pending &&
		    s->res_at == ~0ull)
			s->res_pending = 0;	/* the branch was the last */
		/* one test, not six branches */
		if ((s->head == h0) & (s->map == m0) & (s->tail == t0) &
		    (s->nissued == i0) & (s->res_pending == r0) &
		    (s->st.samples + s->st.pairs == n0))
			skip_to(s, next_event(s));
		s->now++;
	}
	if (s->err)
		return s->err;
	if (s->c.inorder && s->o.truth && s->measuring) {
		/* the cycle --max stopped in, before its issue stage; then
		 * the last cycles, with nothing left to issue, go to the
		 * last instruction retired */
		if (s->stop)
			sim_head_idle(s, s->now, 1);
		if (s->last_pcx != NONE32)
			sim_head_flush(s, s->last_pcx);
	}
	/* instructions left in flight by --max are not counted */
	while (s->tail > s->head) {
		uint64_t k = --s->tail;
		struct ent *e = &s->ents[k & s->wmask];

		sim_abort_ent(s, e, PMR_SIM_TRAP_END);
	}
	while (s->pm_sample_wait >= 0) {
		int32_t k = s->pm_sample_wait;

		s->pm_sample_wait = s->pm_samples[k].next;
		s->st.dropped++;
		sim_ps_free(s, (uint32_t)k + 1);
	}
	if (s->minor != NULL)	/* pairs whose second member never came */
		for (i = 0; i <= s->minor_mask; i++)
			s->st.dropped += s->minor[i] != 0;
	if (s->o.truth)
		sim_useful_advance(s, 1);
	if (!s->measuring)	/* the warm-up took the whole trace */
		sim_measure_start(s);
	else if (s->o.truth) {	/* nothing retires after the end */
		uint64_t c, end = s->lipc_upto + s->o.delta;

		for (c = s->lipc_upto + 1; c <= end; c++) {
			s->lipc_retired[c & s->lipc_rmask] = s->lipc_cum;
			sim_local_drain(s, c);
		}
	}
	{
		sim_emit_stats(s, 1);
		if (s->o.truth)
			for (i = 0; i < s->npcs; i++) {
				struct pmr_sim_truth *t = &s->truth[i].t;

				if (t->fetched == 0 && t->retired == 0)
					continue;
				t->wasted = (int64_t)(s->c.issue_width *
				    t->inprog) - (int64_t)t->useful;
				t->tp_cycles = (double)s->pcs[i].tp / TP_UNIT;
				sim_emit(s, PMR_REC_TRUTH, t);
			}
		if (s->o.truth)
			sim_atruth_emit(s);
	}
	return s->err;
}
