/*
 * truth.c: the exact truth: the per-pc table, TRUTH and ATRUTH records,
 * useful concurrency and wasted slots, windowed IPC and local-IPC truth.
 */
#include "sim/sim_internal.h"

/*
 * Grows the truth table to cap entries on line boundaries.  realloc(),
 * not a new block and a copy: a large block moves by remapping its pages,
 * where a copy would fault in the old and the new (cc1: 20 K faults, 8%
 * of a --truth run); the entries move only if their offset from the
 * block's start has to change.  Returns 0 or -1.
 */
static int
tr_grow(struct pmr_sim *s, uint32_t cap)
{
	size_t was = s->truth != NULL ?
	    (size_t)((char *)s->truth - s->truth_raw) : 0;
	size_t off;
	char *p;

	if ((p = realloc(s->truth_raw, (size_t)cap * sizeof(*s->truth) + 64)) ==
	    NULL)
		return -1;
	off = (64 - (uintptr_t)p % 64) % 64;
	if (off != was && s->npcs > 0)
		memmove(p + off, p + was, (size_t)s->npcs * sizeof(*s->truth));
	s->truth_raw = p;
	s->truth = (void *)(p + off);
	return 0;
}

/* Returns the index of pc, adding it (with si) if new; NONE32 on ENOMEM. */
uint32_t
sim_pt_get(struct pmr_sim *s, uint64_t pc, const struct pmr_sinsn *si)
{
	uint32_t x = sim_pt_find(s, pc), m, i;

	if (x != NONE32) {
		if (si != NULL && s->pcs[x].si != si) {
			/* first met on a wrong path (no si): what the
			 * correct path tells of it now holds, the call's
			 * length above all (a return predicted from a
			 * guessed length mispredicted every time) */
			if (s->pcs[x].si == NULL) {
				s->pcs[x].cls = si->cls;
				if (s->truth != NULL)
					s->truth[x].t.cls = si->cls;
				if (si->len != 0)
					s->pcs[x].calllen = si->len;
			}
			s->pcs[x].si = si;
		}
		return x;
	}
	if (s->npcs == s->pcs_cap) {
		uint32_t cap = s->pcs_cap ? s->pcs_cap * 2 : 1024;
		struct pcent *p = realloc(s->pcs, cap * sizeof(*p));
		uint64_t *la;

		if (p == NULL)
			return NONE32;
		s->pcs = p;
		if ((la = realloc(s->last_addr, cap * sizeof(*la))) == NULL)
			return NONE32;
		s->last_addr = la;
		/* 320 bytes a pc: only for --truth (cc1 spent 3% of its
		 * time in page faults on it) */
		if (s->o.truth && tr_grow(s, cap) < 0)
			return NONE32;
		s->pcs_cap = cap;
	}
	if ((s->npcs + 1) * 2 > s->pcs_hash_cap) {
		uint32_t cap = s->pcs_hash_cap * 2, j;
		uint32_t *h = calloc(cap, sizeof(*h));

		if (h == NULL)
			return NONE32;
		for (j = 0; j < s->npcs; j++) {
			i = sim_pc_hash(s->pcs[j].pc) & (cap - 1);
			while (h[i] != 0)
				i = (i + 1) & (cap - 1);
			h[i] = j + 1;
		}
		free(s->pcs_hash);
		s->pcs_hash = h;
		s->pcs_hash_cap = cap;
	}
	x = s->npcs++;
	memset(&s->pcs[x], 0, sizeof(s->pcs[x]));
	s->last_addr[x] = 0;
	s->pcs[x].pc = pc;
	s->pcs[x].si = si;
	s->pcs[x].cls = si != NULL ? si->cls : PMR_OP_NOP;
	if (s->truth != NULL) {
		memset(&s->truth[x], 0, sizeof(s->truth[x]));
		s->truth[x].t.pc = pc;
		s->truth[x].t.cls = s->pcs[x].cls;
	}
	s->pcs[x].calllen = si != NULL ? si->len : 0;
	m = s->pcs_hash_cap - 1;
	i = sim_pc_hash(pc) & m;
	while (s->pcs_hash[i] != 0)
		i = (i + 1) & m;
	s->pcs_hash[i] = x + 1;
	/* a wrong path that reached a new pc tends to come back to it */
	i = (uint32_t)(pc ^ (pc >> 12)) & (PCC - 1);
	s->pc_cache[i].pc = pc;
	s->pc_cache[i].x = x + 1;
	return x;
}

/* Returns the index of the pc of si (through the id cache). */
uint32_t
sim_si_index(struct pmr_sim *s, const struct pmr_sinsn *si)
{
	uint32_t x = sim_pt_get(s, si->pc, si);

	if (x == NONE32 || si->id >= (1u << 26))
		return x;
	if (si->id >= s->nidx) {
		uint32_t n = s->nidx ? s->nidx : 1024;
		struct sdec *p;

		while (n <= si->id)
			n *= 2;
		if ((p = realloc(s->idx, n * sizeof(*p))) == NULL)
			return NONE32;
		memset(p + s->nidx, 0, (n - s->nidx) * sizeof(*p));
		s->idx = p;
		s->nidx = n;
	}
	s->idx[si->id].x = x + 1;
	return x;
}

/* Doubles the queue of uq_push(); returns 0 or PMR_ENOMEM. */
int __attribute__((noinline))
sim_uq_grow(struct pmr_sim *s)
{
	size_t cap = s->useful_qcap ? s->useful_qcap * 2 : 4096, i;
	struct uq *n = malloc(cap * sizeof(*n));

	if (n == NULL)
		return sim_fail(s, PMR_ENOMEM, "out of memory");
	for (i = 0; i < s->useful_qt - s->useful_qh; i++)
		n[i] = s->useful_q[(s->useful_qh + i) & (s->useful_qcap - 1)];
	free(s->useful_q);
	s->useful_q = n;
	s->useful_qt -= s->useful_qh;
	s->useful_qh = 0;
	s->useful_qcap = cap;
	return 0;
}

/* Counts [F, end) in the in-flight occupancy (retiring ones apart). */
void
sim_occ_add(struct pmr_sim *s, uint64_t F, uint64_t end, int retired)
{
	struct cring *f, *e;

	if (!s->o.truth || end <= F || F < s->fin)
		return;
	f = &s->conc[F & (CRING - 1)];
	e = &s->conc[end & (CRING - 1)];
	f->occ++;
	e->occ--;
	if (retired) {
		f->occr++;
		e->occr--;
	}
}

/*
 * Moves the finalized-cycle frontier up to the fetch of the oldest
 * instruction in flight (everything issued or in flight before it has
 * retired or aborted, so its counts are final; force: up to now), then
 * settles the queued instances: the retiring issues in their [F, end)
 * (useful), and the others in flight, all and retiring ones.
 *
 * The state is copied to locals: the stores to the rings and the truth
 * table are uint64_t, which the compiler must otherwise assume can
 * change s->fin and the rest at every step.
 */
void
sim_useful_advance(struct pmr_sim *s, int force)
{
	struct cring *cr = s->conc, cur;
	uint64_t lim = s->now, fin = s->fin, qh, qt = s->useful_qt;
	uint64_t qmask = s->useful_qcap - 1;

	if (!force && s->head != s->tail && s->ents[s->head & s->wmask].F < lim)
		lim = s->ents[s->head & s->wmask].F;
	if (s->now - fin >= CRING - 1 && lim <= fin)
		lim = fin + 1;	/* never wrap: approximate instead */
	cur.pref = s->pfin;
	cur.pocc = s->pocc_fin;
	cur.poccr = s->poccr_fin;
	if (fin < lim) {
		int64_t run = s->occ_run, runr = s->occr_run;

		do {
			struct cring *r = &cr[fin & (CRING - 1)];

			r->pref = cur.pref;
			r->pocc = cur.pocc;
			r->poccr = cur.poccr;
			cur.pref += r->iss;
			run += r->occ;
			runr += r->occr;
			cur.pocc += (uint64_t)run;
			cur.poccr += (uint64_t)runr;
			r->iss = 0;
			r->occ = r->occr = 0;
		} while (++fin < lim);
		s->fin = fin;
		s->pfin = cur.pref;
		s->pocc_fin = cur.pocc;
		s->poccr_fin = cur.poccr;
		s->occ_run = run;
		s->occr_run = runr;
	}
	for (qh = s->useful_qh; qh != qt; qh++) {
		const struct uq *u = &s->useful_q[qh & qmask];
		const struct cring *a, *b;
		struct pmr_sim_truth *t;
		uint64_t d, len = u->end - u->F;

		if (u->push >= fin && !force)
			break;
		t = &s->truth[u->pcx].t;
		a = ring_at(cr, &cur, fin, u->F);
		b = ring_at(cr, &cur, fin, u->end);
		d = b->pref - a->pref;
		t->useful += d - (d >= u->self ? u->self : 0);
		d = b->pocc - a->pocc;
		t->inflight += d >= len ? d - len : 0;
		d = b->poccr - a->poccr;
		len = u->self ? len : 0;
		t->inflight_ret += d >= len ? d - len : 0;
	}
	s->useful_qh = qh;
}

/* Hash slot of (pcx, line number ln) in a table of cap (a power of 2). */
static size_t
atruth_hash(uint32_t pcx, uint64_t ln, size_t cap)
{
	uint64_t h = (ln ^ (uint64_t)pcx << 40) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 32) & (cap - 1);
}

/*
 * Counts a retired D-cache miss of pc index pcx at addr in the address
 * truth.  The table grows with the data footprint that misses, not with
 * the trace length.
 */
static void
atruth_add(struct pmr_sim *s, uint32_t pcx, uint64_t addr)
{
	uint64_t ln = addr / s->c.line + 1;
	struct aslot *a;
	size_t i;

	if (2 * (s->atruth_n + 1) > s->atruth_cap) {
		size_t cap = s->atruth_cap ? 2 * s->atruth_cap : 1024, j;
		struct aslot *na = calloc(cap, sizeof(*na));

		if (na == NULL) {
			sim_fail(s, PMR_ENOMEM, "out of memory");
			return;
		}
		for (j = 0; j < s->atruth_cap; j++) {
			if (s->atruth[j].line == 0)
				continue;
			i = atruth_hash(s->atruth[j].pcx,
			    s->atruth[j].line, cap);
			while (na[i].line != 0)
				i = (i + 1) & (cap - 1);
			na[i] = s->atruth[j];
		}
		free(s->atruth);
		s->atruth = na;
		s->atruth_cap = cap;
	}
	for (i = atruth_hash(pcx, ln, s->atruth_cap);;
	    i = (i + 1) & (s->atruth_cap - 1)) {
		a = &s->atruth[i];
		if (a->line == ln && a->pcx == pcx)
			break;
		if (a->line == 0) {
			a->line = ln;
			a->pcx = pcx;
			s->atruth_n++;
			break;
		}
	}
	a->n++;
}

static int
cmp_atruth(const void *x, const void *y)
{
	const struct pmr_sim_atruth *a = x, *b = y;

	if (a->pc != b->pc)
		return a->pc < b->pc ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

/* Writes the ATRUTH records, ordered by pc and line. */
void
sim_atruth_emit(struct pmr_sim *s)
{
	struct pmr_sim_atruth *r;
	size_t i, n = 0;

	if (s->atruth_n == 0)
		return;
	if ((r = calloc(s->atruth_n, sizeof(*r))) == NULL) {
		sim_fail(s, PMR_ENOMEM, "out of memory");
		return;
	}
	for (i = 0; i < s->atruth_cap; i++) {
		const struct aslot *a = &s->atruth[i];

		if (a->line == 0)
			continue;
		r[n].pc = s->pcs[a->pcx].pc;
		r[n].line = (a->line - 1) * s->c.line;
		r[n].bytes = s->c.line;
		r[n].misses = a->n;
		n++;
	}
	qsort(r, n, sizeof(*r), cmp_atruth);
	for (i = 0; i < n; i++)
		sim_emit(s, PMR_REC_ATRUTH, &r[i]);
	free(r);
}

/* Adds retired entry e to its per-pc truth (--truth). */
void __attribute__((noinline))
truth_retired(struct pmr_sim *s, struct ent *e)
{
	/* locals: the stores to t could otherwise alias e and s */
	uint32_t ev = e->events, pcx = e->pcx;
	struct pmr_sim_truth *t = &s->truth[pcx].t;
	uint64_t F = e->F, M = e->M, D = e->D, X = e->X, RR = e->RR;
	uint64_t v;

#define ACC(sum, sq, a, b) do {                                            \
		v = (b) - (a);                                               \
		t->sum += v;                                                 \
		t->sq += v * v;                                              \
	} while (0)
	t->retired++;
	ACC(sum_fm, sq_fm, F, M);
	ACC(sum_md, sq_md, M, D);
	ACC(sum_dx, sq_dx, D, X);
	ACC(sum_xr, sq_xr, X, RR);
	ACC(sum_rr, sq_rr, RR, s->now);
	if (e->nload > 0) {
		ACC(sum_ld, sq_ld, X, e->LC);
		t->n_ld++;
	}
#undef ACC
	/* misses and mispredicts are rare (a few in a hundred retires):
	 * one test for the seven */
	if (ev & (PMR_SIM_EV_ICACHE_MISS | PMR_SIM_EV_ITLB_MISS |
	    PMR_SIM_EV_DCACHE_MISS | PMR_SIM_EV_DTLB_MISS |
	    PMR_SIM_EV_LLC_MISS | PMR_SIM_EV_BR_MISP | PMR_SIM_EV_JMP_MISP)) {
		t->icache_miss += !!(ev & PMR_SIM_EV_ICACHE_MISS);
		t->itlb_miss += !!(ev & PMR_SIM_EV_ITLB_MISS);
		t->dcache_miss += !!(ev & PMR_SIM_EV_DCACHE_MISS);
		if ((ev & PMR_SIM_EV_DCACHE_MISS) && (e->cls == PMR_OP_LOAD ||
		    e->cls == PMR_OP_STORE || e->cls == PMR_OP_LDST))
			atruth_add(s, pcx, e->addr);
		t->dtlb_miss += !!(ev & PMR_SIM_EV_DTLB_MISS);
		t->llc_miss += !!(ev & PMR_SIM_EV_LLC_MISS);
		t->br_misp += !!(ev & PMR_SIM_EV_BR_MISP);
		t->jmp_misp += !!(ev & PMR_SIM_EV_JMP_MISP);
	}
	t->taken += !!(ev & PMR_SIM_EV_TAKEN);
	t->fu_conflict += !!(ev & PMR_SIM_EV_FU_CONFLICT);
	t->map_stall += !!(ev & (PMR_SIM_EV_MAP_REGS | PMR_SIM_EV_MAP_IQ |
	    PMR_SIM_EV_MAP_ROB | PMR_SIM_EV_LSQ_FULL));
	t->forwarded += !!(ev & PMR_SIM_EV_FORWARD);
	t->inprog += RR - F;
	uq_push(s, pcx, F, RR, 1);
}

/* Counts retired entry e in the statistics (and the truth). */
void
sim_retire_truth(struct pmr_sim *s, struct ent *e)
{
	uint32_t ev = e->events;

	if (s->o.truth)
		truth_retired(s, e);
	s->st.retired++;
	/* FNV-1a over the retired pcs: any idealization keeps the path */
	s->st.pc_hash = (s->st.pc_hash ^ e->pc) * 0x100000001b3ull;
	if (e->flags & E_BRANCH) {
		s->st.branches++;
		if (e->cls == PMR_OP_BR_COND) {
			s->st.cond++;
			s->st.cond_misp += !!(ev & PMR_SIM_EV_BR_MISP);
		}
		s->st.mispredicts += !!(ev & (PMR_SIM_EV_BR_MISP |
		    PMR_SIM_EV_JMP_MISP));
		s->st.btb_miss += !!(ev & PMR_SIM_EV_BTB_MISS);
		if (s->o.events & 2)
			sim_emit_event(s, PMR_EV_EDGE, e->pc, ent_next_pc(s,
			    e));
	}
	if (e->nload > 0) {
		s->st.loads++;
		s->st.dcache_miss += !!(ev & PMR_SIM_EV_DCACHE_MISS);
		s->st.llc_miss += !!(ev & PMR_SIM_EV_LLC_MISS);
		s->st.dtlb_miss += !!(ev & PMR_SIM_EV_DTLB_MISS);
		s->st.forwarded += !!(ev & PMR_SIM_EV_FORWARD);
		if ((s->o.events & 1) && (e->flags & E_VALUE))
			sim_emit_event(s, PMR_EV_VALUE, e->pc,
			    (e->flags & E_NZVAL) ? ecold(s, e)->value : 0);
	}
	s->st.stores += e->nstore > 0;
}

/*
 * Closes the window that ended before now and counts the empty windows skipped
 * over since (ProfileMe, Dean et al. MICRO-30, §6, windowed IPC: consecutive,
 * non-overlapping windows of win_len cycles).  STATS keeps raw sums, so records
 * merge.
 */
void
sim_win_close(struct pmr_sim *s, uint64_t now)
{
	uint64_t c = s->st.retired - s->win_cur, k;

	s->st.win_n++;
	if (c == 0)
		s->st.win_zero++;
	else {
		s->st.win_sum += c;
		s->st.win_sumsq += c * c;
		s->st.win_sumcube += c * c * c;
		if (c > s->st.win_max)
			s->st.win_max = c;
		if (s->st.win_min == 0 || c < s->st.win_min)
			s->st.win_min = c;
	}
	k = (now - s->win_end) / s->o.win_len;	/* empty ones */
	s->st.win_n += k;
	s->st.win_zero += k;
	s->win_end += (k + 1) * s->o.win_len;
	s->win_cur = s->st.retired;
}

/* Counts, for the retired instances whose +-delta span ends at cycle c,
 * the others retired within it. */
void
sim_local_drain(struct pmr_sim *s, uint64_t c)
{
	uint64_t d = s->o.delta, h = s->lipc_head, qt = s->lipc_tail;
	uint64_t qmask = s->lipc_mask, rmask = s->lipc_rmask;
	const uint64_t *at = s->lipc_at, *lr = s->lipc_retired;

	/* locals: the stores to the truth could otherwise alias them */
	while (h != qt && at[h & qmask] + d <= c) {
		uint64_t r = at[h & qmask], before = 0;
		uint32_t x = s->lipc_pcx[h & qmask];

		if (r >= s->start + d + 1)
			before = lr[(r - d - 1) & rmask];
		s->truth[x].t.local += lr[(r + d) & rmask] - before - 1;
		h++;
	}
	s->lipc_head = h;
}

/* Records this cycle's m measured retires for the local-IPC truth. */
void
sim_local_step(struct pmr_sim *s, unsigned m)
{
	uint64_t c, i, now = s->now, qt = s->lipc_tail, qmask = s->lipc_mask;
	uint64_t *lr = s->lipc_retired, rmask = s->lipc_rmask;

	for (c = s->lipc_upto + 1; c < now; c++) {
		lr[c & rmask] = s->lipc_cum;
		sim_local_drain(s, c);
	}
	s->lipc_cum += m;
	lr[now & rmask] = s->lipc_cum;
	for (i = s->head - m; i < s->head; i++, qt++) {
		s->lipc_at[qt & qmask] = now;
		s->lipc_pcx[qt & qmask] = s->ents[i & s->wmask].pcx;
	}
	s->lipc_tail = qt;
	/* nothing due (most cycles): no call */
	if (s->lipc_head != qt &&
	    s->lipc_at[s->lipc_head & qmask] + s->o.delta <= now)
		sim_local_drain(s, now);
	s->lipc_upto = now;
}

/* Writes a STATS record: at each --interval and at the end (final). */
void
sim_emit_stats(struct pmr_sim *s, int final)
{
	if (final && s->measuring && s->now + 1 >= s->win_end)
		sim_win_close(s, s->now + 1);	/* the last cycle ended one */
	s->st.final = (uint8_t)final;
	s->st.cycles = s->now - s->start + 1;
	s->st.ipc = s->st.cycles ? (double)s->st.retired / s->st.cycles : 0;
	s->st.td_slots = s->st.cycles * s->c.map_width;
	sim_emit(s, PMR_REC_STATS, &s->st);
}
