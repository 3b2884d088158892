/*
 * shotgun.c: the shotgun-profiling sampler of pmsim (Fields et al. MICRO-36
 * §5): SIG (signature) and DET (detailed) samples, the input of a graph builder
 * that matches detailed samples to signatures.  Record layouts: man/pmr.5
 * (SIMULATION RECORDS), fields in sim_rtypes.c.
 *
 * The core calls pmr_sim_shotgun_retire() for every measured committed
 * instruction in commit order, with its class and event bits, and, for
 * the one it selects, pmr_sim_shotgun_take() with its GNODE content, so a
 * DET record is exactly the GNODE of its instruction (the other
 * instructions cost no GNODE building).  Each instruction gets 2
 * signature bits (pmr_sim_sig_bits, icost Table 5).  The last RING bits
 * are kept one per byte for the prefix of a signature, and the last 32 in
 * a shift register for the context of a detailed sample.
 *
 * Signatures: each committed instruction, once the prefix behind it was
 * measured, starts one with probability 1/M (a geometric interval of mean
 * M), one at a time: the countdown to the next restarts only when the
 * current SIG has its prefix + len bits and is written.  Detailed
 * samples: likewise with mean N and at most one in flight; the record is
 * written when the ctx instructions after the sampled one have committed,
 * and the next countdown starts then.  Selection is at commit, a
 * simulation shortcut: hardware would tag at fetch and drop the tags of
 * wrong-path instructions.  A SIG or DET the run ends before completing
 * is not written.
 *
 * The sampler has its own random stream (splitmix64 of seed ^ a
 * constant), so turning it on changes no other record.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PMR_SIM_INTERNAL
#include "stream/pmr_internal.h"
#include "sim/sim.h"

#define RING 1024u		/* recent bits kept; > PMR_SIM_SG_MAXPREFIX */
#define SG_SEED 0x53484f5447554e21ull	/* "SHOTGUN!": own stream */

struct pmr_sim_shotgun {
	void (*emit)(void *, uint32_t, const void *);
	void *arg;
	uint64_t rng;		/* splitmix64 state */
	uint64_t M, N;		/* mean intervals */
	unsigned len, prefix, ctx;
	uint64_t nmeas;		/* measured instructions seen */
	uint8_t ring[RING];	/* bits of measured instruction j (from 0)
				 * at j % RING, for the last RING */
	uint64_t hist;		/* the last 32 bits, newest in bits 62-63 */
	/* signature */
	uint64_t sig_left;	/* eligible instructions to the next start */
	int sig_on;		/* a signature is being filled */
	uint32_t sig_n;		/* instructions in it so far */
	unsigned char *sbuf;	/* (prefix + len + 3) / 4 bytes */
	struct pmr_sim_sig sig;
	/* detailed sample */
	uint64_t det_left;	/* eligible instructions to the next one */
	int det_on;		/* a sample waits for its +ctx context */
	unsigned det_wait;	/* instructions still to commit */
	struct pmr_sim_det det;
};

unsigned
pmr_sim_sig_bits(unsigned cls, uint32_t ev)
{
	unsigned b = 0;

	/* b1: a taken transfer (for a direct conditional branch, its
	 * direction) or a load/store class; reset by a last-level miss */
	if (((ev & PMR_SIM_EV_TAKEN) || cls == PMR_OP_LOAD ||
	    cls == PMR_OP_STORE || cls == PMR_OP_LDST) &&
	    !(ev & PMR_SIM_EV_LLC_MISS))
		b |= PMR_SIM_SIG_B1;
	/* b2: I-side (charged to the instruction fetched first from the
	 * missing line), L1-D (so also L2 and LLC) and TLB misses */
	if (ev & (PMR_SIM_EV_ICACHE_MISS | PMR_SIM_EV_ITLB_MISS |
	    PMR_SIM_EV_DCACHE_MISS | PMR_SIM_EV_DTLB_MISS |
	    PMR_SIM_EV_LLC_MISS))
		b |= PMR_SIM_SIG_B2;
	return b;
}

void
pmr_sim_shotgun_defaults(struct pmr_sim_opts *o)
{
	o->sg_sig = 1000000;
	o->sg_len = 1000;
	o->sg_prefix = 10;
	o->sg_det = 1000;
	o->sg_ctx = 10;
}

static uint64_t
sg_rnd(struct pmr_sim_shotgun *g)
{
	uint64_t z = (g->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Draws a geometric interval on 1, 2, ... of mean m. */
static uint64_t
sg_interval(struct pmr_sim_shotgun *g, uint64_t m)
{
	double u;

	if (m <= 1)
		return 1;
	u = ((double)(sg_rnd(g) >> 11) + 0.5) / 9007199254740992.0;
	return (uint64_t)floor(log(u) / log1p(-1.0 / (double)m)) + 1;
}

struct pmr_sim_shotgun *
pmr_sim_shotgun_new(const struct pmr_sim_opts *o,
    void (*emit)(void *, uint32_t, const void *), void *arg, int *err)
{
	struct pmr_sim_shotgun *g;

	if (o->sg_sig < 1 || o->sg_sig > PMR_SIM_SG_MAXMEAN ||
	    o->sg_det < 1 || o->sg_det > PMR_SIM_SG_MAXMEAN ||
	    o->sg_len < 1 || o->sg_len > PMR_SIM_SG_MAXLEN ||
	    o->sg_prefix > PMR_SIM_SG_MAXPREFIX ||
	    o->sg_ctx > PMR_SIM_SG_MAXCTX) {
		*err = PMR_EINVAL;
		return NULL;
	}
	if ((g = calloc(1, sizeof(*g))) == NULL ||
	    (g->sbuf = calloc((o->sg_prefix + o->sg_len + 3) / 4, 1)) ==
	    NULL) {
		free(g);
		*err = PMR_ENOMEM;
		return NULL;
	}
	g->emit = emit;
	g->arg = arg;
	g->rng = o->seed ^ SG_SEED;
	g->M = o->sg_sig;
	g->N = o->sg_det;
	g->len = o->sg_len;
	g->prefix = o->sg_prefix;
	g->ctx = o->sg_ctx;
	g->sig_left = sg_interval(g, g->M);
	g->det_left = sg_interval(g, g->N);
	return g;
}

void
pmr_sim_shotgun_free(struct pmr_sim_shotgun *g)
{
	if (g == NULL)
		return;
	free(g->sbuf);
	free(g);
}

/* Appends 2 bits to the signature being filled. */
static void
sig_put(struct pmr_sim_shotgun *g, unsigned b)
{
	uint32_t j = g->sig_n++;

	g->sbuf[j / 4] |= (unsigned char)(b << (2 * (j % 4)));
}

static void
sig_step(struct pmr_sim_shotgun *g, uint64_t seq, uint64_t pc, unsigned b)
{
	uint32_t k;

	if (!g->sig_on) {
		/* the instruction itself is not yet in the ring: nmeas of
		 * them are, so a prefix needs nmeas >= prefix */
		if (g->nmeas < g->prefix || --g->sig_left > 0)
			return;
		memset(g->sbuf, 0, (g->prefix + g->len + 3) / 4);
		g->sig_on = 1;
		g->sig_n = 0;
		for (k = g->prefix; k > 0; k--)
			sig_put(g, g->ring[(g->nmeas - k) % RING]);
		g->sig.seq = seq;
		g->sig.start_pc = pc;
		g->sig.prefix = g->prefix;
		g->sig.len = g->len;
	}
	sig_put(g, b);
	if (g->sig_n < g->prefix + g->len)
		return;
	g->sig.bits.p = g->sbuf;
	g->sig.bits.n = (g->prefix + g->len + 3) / 4;
	g->emit(g->arg, PMR_REC_SIG, &g->sig);
	g->sig_on = 0;
	g->sig_left = sg_interval(g, g->M);
}

/* Writes the detailed sample in flight, whose context is complete. */
static void
det_emit(struct pmr_sim_shotgun *g)
{
	/* the newest 2 ctx + 1 positions, -ctx lowest */
	g->det.sig = g->hist >> (64 - 2 * (2 * g->ctx + 1));
	g->emit(g->arg, PMR_REC_DET, &g->det);
	g->det_on = 0;
	g->det_left = sg_interval(g, g->N);
}

void
pmr_sim_shotgun_take(struct pmr_sim_shotgun *g,
    const struct pmr_sim_gnode *n, uint64_t next_pc)
{
	struct pmr_sim_det *d = &g->det;

	memset(d, 0, sizeof(*d));
	d->seq = n->seq;
	d->pc = n->pc;
	d->cls = n->cls;
	d->partial = n->partial;
	d->ctx = (uint8_t)g->ctx;
	d->events = n->events;
	d->dd_fetch = n->dd_fetch;
	d->dd_itlb = n->dd_itlb;
	d->dd_brk = n->dd_brk;
	d->re = n->re;
	d->ep_fu = n->ep_fu;
	d->ep_mem = n->ep_mem;
	d->ep_miss = n->ep_miss;
	d->ep_tlb = n->ep_tlb;
	d->cc = n->cc;
	d->pr_reg_a = n->pr_reg_a;
	d->pr_reg_b = n->pr_reg_b;
	d->pr_reg_c = n->pr_reg_c;
	d->pr_mem = n->pr_mem;
	d->pp = n->pp;
	d->rs = n->rs;
	d->rk = n->rk;
	d->dd_dec = n->dd_dec;
	d->dd_wp = n->dd_wp;
	d->pl = n->pl;
	/* the next pc where the program does not say it: an indirect
	 * transfer's, and a repeated instruction's (a rep step that
	 * repeats: the same pc) */
	if (n->cls == PMR_OP_JMP_IND || n->cls == PMR_OP_CALL_IND ||
	    n->cls == PMR_OP_RET || next_pc == n->pc)
		d->target = next_pc;
	g->det_on = 1;
	g->det_wait = g->ctx;
	if (g->ctx == 0)
		det_emit(g);
}

void
pmr_sim_gnode_of_det(const struct pmr_sim_det *d, struct pmr_sim_gnode *n)
{
	memset(n, 0, sizeof(*n));
	n->seq = d->seq;
	n->pc = d->pc;
	n->cls = d->cls;
	n->partial = d->partial;
	n->events = d->events;
	n->dd_fetch = d->dd_fetch;
	n->dd_itlb = d->dd_itlb;
	n->dd_brk = d->dd_brk;
	n->re = d->re;
	n->ep_fu = d->ep_fu;
	n->ep_mem = d->ep_mem;
	n->ep_miss = d->ep_miss;
	n->ep_tlb = d->ep_tlb;
	n->cc = d->cc;
	n->pr_reg_a = d->pr_reg_a;
	n->pr_reg_b = d->pr_reg_b;
	n->pr_reg_c = d->pr_reg_c;
	n->pr_mem = d->pr_mem;
	n->pp = d->pp;
	n->rs = d->rs;
	n->rk = d->rk;
	n->dd_dec = d->dd_dec;
	n->dd_wp = d->dd_wp;
	n->pl = d->pl;
}

int
pmr_sim_shotgun_retire(struct pmr_sim_shotgun *g, uint64_t seq,
    uint64_t pc, unsigned cls, uint32_t ev)
{
	unsigned b = pmr_sim_sig_bits(cls, ev);
	int take = 0;

	g->hist = (g->hist >> 2) | ((uint64_t)b << 62);
	if (g->sig_on || g->nmeas >= g->prefix)
		sig_step(g, seq, pc, b);
	if (g->det_on) {
		if (--g->det_wait == 0)
			det_emit(g);
	} else if (g->nmeas >= g->ctx && --g->det_left == 0)
		take = 1;
	g->ring[g->nmeas % RING] = (uint8_t)b;
	g->nmeas++;
	return take;
}
