/*
 * graph.c: the critical path of the dependence graph (Fields et al.,
 * MICRO-36, §3, Tables 2 and 3) under many idealizations at once.
 *
 * Each instruction is a set of nodes, in commit order: F fetch, D dispatch
 * (map), R ready, E execute (issue), P complete, Q ready to retire, C
 * commit.  The paper's five are D R E P C; F and Q are ours, so that the
 * graph states pmsim's pipeline exactly rather than folding it into edge
 * latencies:
 *   - F splits the front end from dispatch: the fetch queue (D_{i-fq} ->
 *     F_i) and the front-end depth (F_i -> D_i, frontend cycles) let an
 *     I-cache miss hide behind a stalled back end, as it does in the
 *     machine; the paper's DD edge (in-order fetch, I-side stall cycles)
 *     and FBW edge (fetch width) and its PD edge (mispredict: the branch
 *     resolves, then redirect cycles, then fetch) enter F.
 *   - Q is max(P, E + 1), or for a load on a machine that retires loads
 *     before their data (load_early) E plus the unit and L1 latencies:
 *     retire and mispredict resolution wait for Q, consumers for P.
 * Edges (latency): F_{i-1} -> F_i (I-side stall + fetch break), F_{i-fw}
 * -> F_i (1), Q_{i-1} -> F_i (redirect, if i-1 mispredicted), D_{i-fq}
 * -> F_i (0), F_i -> D_i (frontend), D_{i-1} -> D_i (0), D_{i-mw} -> D_i
 * (1), C_{i-w} -> D_i (0), D_i -> R_i (1), P_j -> R_i (0, register and
 * store-to-load producers), R_i -> E_i (unit and issue contention), E_i ->
 * P_i (unit + L1 + miss + TLB latencies), P_j -> P_i (0, partial miss),
 * P_i -> Q_i, Q_i -> C_i (0), C_{i-1} -> C_i (0), C_{i-rw} -> C_i (1).
 *
 * A category idealizes by zeroing latency components or by changing the
 * widths and sizes exactly as pmr_sim_config_idealize() changes the
 * machine for multisim (one table: bits below):
 *   dl1    EP's L1-D hit part          dmiss  EP's miss and DTLB parts
 *   imiss  the I-side stall of DD      bmisp  the redirect edge, and the
 *                                             BTB-miss bubble of DD
 *   win    w and fq x 20 (or deleted)  bw     fw, mw, rw as the idealized
 *                                             machine's; RE; DD's fetch break
 *   shalu  EP's unit latency of 1-cycle classes
 *   lgalu  EP's unit latency of multi-cycle integer and FP classes
 *
 * Node times of every lane sit in a ring of the last R instructions (R a
 * power of two above the largest distance of any lane, 20 windows with
 * win), as int32 vectors of L lanes, so that each step is a few loops
 * over lanes the compiler vectorizes, 16 lanes a 512-bit vector.  A time
 * is relative to its lane's base (base[k], int64): every few thousand
 * nodes, once the newest commit passes 2^27, each lane's base moves to
 * its newest commit and its stored times down by as much (rebase()), and
 * a new fragment starts from base 0.  The times within reach of a node
 * span far less than 2^29 cycles, so nothing overflows.  An edge from
 * further back than R is dominated by the window edge (P_j <= C_j <=
 * C_{i-w} <= D_i) and is dropped (counted).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/mman.h>

#include "icost/icost.h"
#include "sim/sched.h"

#define HUGE_PAGE ((size_t)2 << 20)

/* The node step in a clone per vector width, picked at load time (GCC on
 * x86-64).  Elsewhere one build: other machines, and clang (make fuzz),
 * which takes no clones of a function that is not to be inlined. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CLONED __attribute__((target_clones("arch=x86-64-v4", "avx2", \
    "default")))
#else
#define CLONED
#endif

#define NEG (INT32_MIN / 4)	/* no node: -infinity that can be added to,
				 * below any time the ring holds */
#define REBASE_AT (1 << 27)	/* a newest commit above this: rebase
				 * (PMR_ICOST_REBASE_AT in the environment
				 * sets it lower, for the tests) */

typedef int32_t lt;		/* a lane's time, relative to its base */
#define NB 8			/* idealization bits */

enum { XF, XD, XE, XP, XC, NX };	/* node times kept in the ring */

/* The rows every node reads, at the machine's distances: F of i - 1, of
 * i - fetch width (base, bw); D of i - 1, i - map width (base, bw), i -
 * fetch queue (base, win); C of i - 1, i - retire width (base, bw), i -
 * window (base, win). */
enum fixrow { R_F1, R_FA, R_FB, R_D1, R_MA, R_MB, R_GA, R_GB, R_C1, R_RA,
	R_RB, R_WA, R_WB, NFIX };

struct pmr_icost_graph {
	unsigned L, nlanes;	/* lanes, padded to a multiple of 8 */
	uint64_t rmask;		/* ring size - 1 */
	lt *ring;		/* [R][NX][L] */
	lt *neg;		/* L x NEG */
	lt *ib[NB];		/* [L] -1 if the lane idealizes the bit */
	lt *catv;		/* [ncat][L] -1 if the lane holds cat */
	lt *eff;		/* [NB][L] this node's bits */
	lt *pq, *pbm;		/* previous mispredict: Q, bmisp bits */
	lt *pbb;		/* previous node's bmisp bits (filtered) */
	int64_t *t;		/* [L] sum of finished fragments */
	int64_t *base;		/* [L] what each lane's times are relative to */
	lt *cw;			/* [L] C of the fragment's last warm-up node */
	lt *v[8];		/* scratch vectors; v[0] stays 0 */
	const struct pmr_icost_cat *cat;
	unsigned ncat;
	uint32_t filtered;	/* mask of filtered categories */
	uint64_t i, fb;		/* next node index, fragment start */
	uint64_t fs;		/* where the machine goes back to: fb, or
				 * with chain the first fragment's start */
	int prev_misp;
	/* machine: base and idealized widths and sizes */
	unsigned fw[2], mw[2], rw[2], w[2], fq[2];
	unsigned frontend, redirect, load_early;
	unsigned far;		/* the largest of those distances */
	/* the rows a node reads at those distances (enum fixrow): d, node
	 * x, and the offsets back from the node's row (bytes) and in the
	 * row (bytes) */
	uint64_t fxd[NFIX];
	unsigned fxx[NFIX];
	uintptr_t fxoff[NFIX], fxin[NFIX];
	int decoupled;		/* no wrong-path fetch: lines arrive behind
				 * fetch, map waits for them (champsim) */
	lt *pa;			/* [L] A: the last line's arrival */
	/* the MSHRs: a load that misses the L1-D (not merged) holds one
	 * from issue (E) to its line (A); the last nhist misses' E, A and
	 * commit (C) */
	unsigned nmshr, nhist;
	uint64_t mi;		/* misses so far in the fragment */
	lt *mring;		/* [nhist][3][L]: E, A, C */
	uint64_t *mnode;	/* [nhist]: the misses' node indexes */
	lt *mfree;		/* [L] when the miss may issue, for MSHRs */
	struct pmr_icost_gopts o;
	struct pmr_icost_diag dg;
	int64_t off;		/* observed - graph cycle, from node 0 */
	int64_t last_obs;
	FILE *trace;		/* pmr_icost_graph_trace */
	int no_obs;		/* the nodes carry no observed cycles */
	int sampled;		/* pmr_icost_graph_sampled */
	lt rebase_at;		/* REBASE_AT */
	unsigned gain_bits;	/* pmr_icost_graph_gain_on: idealizations */
	int64_t gain[2];	/* this node's, the previous node's */
	/* --issue sched: each lane's issues a cycle, in all and by unit
	 * pool ([L][SL][8]: [0] all, [1 + pool]), for the cycles from
	 * sl_low (the lane's newest dispatch: no node issues before it) on,
	 * a ring; the units of each pool and the issue width */
	uint8_t *sl;
	lt *sl_low, *sl_hi;	/* [L]: sl_hi the newest cycle counted */
	unsigned sl_pool;	/* the node's pool (sched_wait) */
	unsigned nfu[PMR_SIM_NPOOL], iw;
	struct pmr_sim_config cfg;
};
/* The cycles of a lane's issue ring: an issue this far past its dispatch
 * is not counted (it contends with nothing the ring holds). */
#define SL (1u << 14)

/* Bit numbers of PMR_SIM_IDEAL_* (one table for graph and machine). */
enum { B_DL1, B_DMISS, B_IMISS, B_BMISP, B_WIN, B_BW, B_SHALU, B_LGALU };

const struct pmr_icost_base pmr_icost_bases[] = {
	{ "dl1", PMR_SIM_IDEAL_DL1, "L1-D hit latency of loads -> 0" },
	{ "win", PMR_SIM_IDEAL_WIN, "window and fetch queue x 20" },
	{ "bw", PMR_SIM_IDEAL_BW, "fetch, map, issue, retire width; unit "
	    "contention; fetch breaks" },
	{ "bmisp", PMR_SIM_IDEAL_BMISP, "mispredict redirects and BTB-miss "
	    "bubbles removed" },
	{ "dmiss", PMR_SIM_IDEAL_DMISS, "data misses and DTLB misses -> "
	    "hits" },
	{ "shalu", PMR_SIM_IDEAL_SHALU, "1-cycle integer operations -> 0" },
	{ "lgalu", PMR_SIM_IDEAL_LGALU, "multi-cycle integer and FP "
	    "operations -> 0" },
	{ "imiss", PMR_SIM_IDEAL_IMISS, "I-cache and ITLB misses -> hits" },
};
const unsigned pmr_icost_nbases = sizeof(pmr_icost_bases) /
    sizeof(pmr_icost_bases[0]);

const struct pmr_icost_base *
pmr_icost_base_byname(const char *name)
{
	unsigned i;

	if (strcmp(name, "shortalu") == 0)
		name = "shalu";
	else if (strcmp(name, "longalu") == 0)
		name = "lgalu";
	for (i = 0; i < pmr_icost_nbases; i++)
		if (strcmp(pmr_icost_bases[i].name, name) == 0)
			return &pmr_icost_bases[i];
	return NULL;
}

uint32_t
pmr_icost_match(const struct pmr_icost_cat *cat, unsigned n, uint64_t pc,
    unsigned cls)
{
	uint32_t m = 0;
	unsigned c;

	for (c = 0; c < n; c++) {
		const struct pmr_icost_cat *k = &cat[c];
		size_t lo = 0, hi = k->nranges;

		if (!k->filtered)
			continue;
		if (cls < 32 && (k->clsmask >> cls & 1)) {
			m |= 1u << c;
			continue;
		}
		while (lo < hi) {	/* the first range ending above pc */
			size_t mid = (lo + hi) / 2;

			if (k->ranges[mid].hi <= pc)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < k->nranges && k->ranges[lo].lo <= pc)
			m |= 1u << c;
	}
	return m;
}

void
pmr_icost_graph_free(struct pmr_icost_graph *g)
{
	if (g == NULL)
		return;
	free(g->ring);
	free(g->neg);
	free(g->ib[0]);
	free(g->catv);
	free(g->eff);
	free(g->pq);
	free(g->t);
	free(g->v[0]);
	free(g->mring);
	free(g->mnode);
	free(g->mfree);
	free(g->sl);
	free(g->sl_low);
	free(g);
}

/*
 * The ring, zeroed, on huge pages where the system gives them (madvise):
 * a node reads a dozen rows up to 20 windows apart, on as many 4 KiB
 * pages, and the TLB misses cost more than the loads.
 */
static lt *
ring_alloc(size_t n)
{
	void *p;

	if (n < HUGE_PAGE / 2)
		return calloc(1, n);
	n = (n + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
	if (posix_memalign(&p, HUGE_PAGE, n) != 0)
		return NULL;
#ifdef MADV_HUGEPAGE
	(void)madvise(p, n, MADV_HUGEPAGE);	/* a hint: no error */
#endif
	memset(p, 0, n);
	return p;
}

static unsigned
maxu(unsigned a, unsigned b)
{
	return a > b ? a : b;
}

int
pmr_icost_graph_new(struct pmr_icost_graph **gp,
    const struct pmr_sim_config *c, const struct pmr_icost_cat *cat,
    unsigned ncat, const uint32_t *lanes, unsigned nlanes,
    const struct pmr_icost_gopts *o)
{
	struct pmr_icost_graph *g;
	struct pmr_sim_config cw = *c, cb = *c;
	unsigned L, k, b, d, far;
	size_t R;

	*gp = NULL;
	if (nlanes == 0 || lanes[0] != 0 || ncat > PMR_ICOST_MAXCAT)
		return PMR_EINVAL;
	if ((g = calloc(1, sizeof(*g))) == NULL)
		return PMR_ENOMEM;
	if (o != NULL)
		g->o = *o;
	pmr_sim_config_idealize(&cw, PMR_SIM_IDEAL_WIN);
	pmr_sim_config_idealize(&cb, PMR_SIM_IDEAL_BW);
	g->fw[0] = c->fetch_width, g->fw[1] = cb.fetch_width;
	g->mw[0] = c->map_width, g->mw[1] = cb.map_width;
	g->rw[0] = c->retire_width, g->rw[1] = cb.retire_width;
	g->w[0] = c->rob, g->w[1] = g->o.win_inf ? 0 : cw.rob;
	g->fq[0] = c->fetchq, g->fq[1] = g->o.win_inf ? 0 : cw.fetchq;
	g->frontend = c->frontend;
	g->redirect = c->redirect;
	g->load_early = c->load_early;
	g->decoupled = !c->wrong_path;
	g->nmshr = c->mshr;
	far = maxu(maxu(maxu(g->w[1], g->fq[1]), maxu(g->w[0], g->fq[0])),
	    maxu(maxu(g->fw[1], g->mw[1]), g->rw[1]));
	for (R = 64; R <= far; R <<= 1)
		;
	g->rmask = R - 1;
	g->nlanes = nlanes;
	g->L = L = (nlanes + 7) & ~7u;
	g->far = far;
	{
		static const unsigned char x[NFIX] = { XF, XF, XF, XD, XD,
		    XD, XD, XD, XC, XC, XC, XC, XC };
		const uint64_t d[NFIX] = { 1, g->fw[0], g->fw[1], 1, g->mw[0],
		    g->mw[1], g->fq[0], g->fq[1], 1, g->rw[0], g->rw[1],
		    g->w[0], g->w[1] };

		for (k = 0; k < NFIX; k++) {
			g->fxd[k] = d[k];
			g->fxx[k] = x[k];
			g->fxoff[k] = g->fxd[k] * NX * L * sizeof(lt);
			g->fxin[k] = g->fxx[k] * L * sizeof(lt);
		}
	}
	g->cat = cat;
	g->ncat = ncat;
	for (k = 0; k < ncat; k++)
		if (cat[k].filtered)
			g->filtered |= 1u << k;
	g->ring = ring_alloc(R * NX * L * sizeof(lt));
	g->neg = malloc((size_t)L * sizeof(lt));
	g->ib[0] = calloc((size_t)NB * L, sizeof(lt));
	g->catv = calloc((size_t)(ncat ? ncat : 1) * L, sizeof(lt));
	g->eff = calloc((size_t)NB * L, sizeof(lt));
	g->pq = calloc(5 * (size_t)L, sizeof(lt));
	g->t = calloc(2 * (size_t)L, sizeof(int64_t));
	g->v[0] = calloc(8 * (size_t)L, sizeof(lt));
	g->nhist = 2 * (g->nmshr ? g->nmshr : 1);
	g->mring = malloc((size_t)g->nhist * 3 * L * sizeof(lt));
	g->mnode = malloc((size_t)g->nhist * sizeof(uint64_t));
	g->mfree = malloc((size_t)L * sizeof(lt));
	if (g->mring == NULL || g->mnode == NULL || g->mfree == NULL ||
	    g->ring == NULL ||
	    g->neg == NULL || g->ib[0] == NULL || g->catv == NULL || g->eff == NULL ||
	    g->pq == NULL || g->t == NULL || g->v[0] == NULL) {
		pmr_icost_graph_free(g);
		return PMR_ENOMEM;
	}
	g->pbm = g->pq + L;
	g->pa = g->pq + 2 * (size_t)L;
	g->pbb = g->pq + 3 * (size_t)L;
	g->cw = g->pq + 4 * (size_t)L;
	g->base = g->t + L;
	for (b = 1; b < NB; b++)
		g->ib[b] = g->ib[0] + (size_t)b * L;
	for (d = 1; d < 8; d++)
		g->v[d] = g->v[0] + (size_t)d * L;
	for (k = 0; k < L; k++)
		g->neg[k] = NEG;
	for (k = 0; k < nlanes; k++)
		for (d = 0; d < ncat; d++)
			if (lanes[k] >> d & 1) {
				g->catv[(size_t)d * L + k] = -1;
				if (!cat[d].filtered)
					for (b = 0; b < NB; b++)
						if (cat[d].ideal >> b & 1)
							g->ib[b][k] = -1;
			}
	g->cfg = *c;
	if (g->o.issue_sched) {
		g->sl = calloc((size_t)L * SL * 8, 1);
		g->sl_low = calloc(2 * (size_t)L, sizeof(lt));
		if (g->sl == NULL || g->sl_low == NULL) {
			pmr_icost_graph_free(g);
			return PMR_ENOMEM;
		}
		g->nfu[PMR_SIM_POOL_ALU] = c->n_alu;
		g->nfu[PMR_SIM_POOL_IMUL] = c->n_imul;
		g->nfu[PMR_SIM_POOL_FADD] = c->n_fadd;
		g->nfu[PMR_SIM_POOL_FMUL] = c->n_fmul;
		g->nfu[PMR_SIM_POOL_MEM] = c->n_mem;
		g->iw = c->issue_width;
		g->sl_hi = g->sl_low + L;
	}
	g->rebase_at = REBASE_AT;
	{
		const char *e = getenv("PMR_ICOST_REBASE_AT");

		if (e != NULL && atoi(e) > 0 && atoi(e) < REBASE_AT)
			g->rebase_at = atoi(e);
	}
	pmr_icost_graph_restart(g);
	g->i = 0;
	g->dg.t_obs = 0;
	*gp = g;
	return 0;
}

/* The commit times (C) of the newest node, a lane each. */
static inline const lt *
last_c(const struct pmr_icost_graph *g)
{
	return g->ring + ((g->i - 1) & g->rmask) * NX * g->L + XC * g->L;
}

/* Adds to t[0..n) the time of the fragment in progress: its last commit,
 * from its start, from the commit of its last warm-up node, or with
 * chain (and no warm-up) from the previous fragment's last; returns
 * the nodes it counts (0: none, or a fragment within its warm-up). */
static uint64_t
frag_time(const struct pmr_icost_graph *g, int64_t *t, unsigned n)
{
	uint64_t len = g->i - g->fb;
	const lt *C;
	unsigned k;

	if (len == 0 || len <= g->o.warm)
		return 0;
	C = last_c(g);
	for (k = 0; k < n; k++)	/* C and cw share the base */
		t[k] += (int64_t)C[k] + (g->o.warm || g->o.chain ?
		    -(int64_t)g->cw[k] : g->base[k]);
	return len - g->o.warm;
}

/* Closes the fragment in progress: its time joins t. */
static void
close_frag(struct pmr_icost_graph *g)
{
	uint64_t m;

	if (g->i == g->fb)
		return;
	m = frag_time(g, g->t, g->L);
	g->dg.measured += m;
	g->dg.short_frags += m == 0;
	if (!g->no_obs)
		g->dg.t_obs += g->last_obs - g->off;
}

/* --issue sched: lane k's counts of the cycles [a, b) back to 0 (the
 * whole ring if the range is as long). */
static void
sl_clear(struct pmr_icost_graph *g, unsigned k, lt a, lt b)
{
	uint8_t *x = g->sl + (size_t)k * SL * 8;
	size_t i, e;

	if (b <= a)
		return;
	if (b - a >= (lt)SL) {
		memset(x, 0, SL * 8);
		return;
	}
	i = (size_t)a & (SL - 1);
	e = (size_t)b & (SL - 1);
	if (i < e)
		memset(x + i * 8, 0, (e - i) * 8);
	else {
		memset(x + i * 8, 0, (SL - i) * 8);
		memset(x, 0, e * 8);
	}
}

void
pmr_icost_graph_restart(struct pmr_icost_graph *g)
{
	unsigned k;

	close_frag(g);
	g->fb = g->i;
	/*
	 * --chain: the machine goes on from the previous fragment's last
	 * node (its window, queues, widths, MSHRs and issue slots full of
	 * that fragment's instructions), and the fragment's time counts
	 * from that node's commit (or its own warm-th): an idealized 20x
	 * window otherwise starts every fragment empty, which on a 4000-node
	 * fragment it fills too slowly to forget (cc1's graph cut so,
	 * shuffled: win+bmisp 1.5 points under the whole).  Everything
	 * goes on, a redirect too, as if the fragments were one run: a
	 * graph cut so is the whole graph to the cycle.
	 */
	if (g->o.chain && g->i > 0) {
		memcpy(g->cw, last_c(g), g->L * sizeof(lt));
		return;
	}
	g->fs = g->i;
	g->prev_misp = 0;
	for (k = 0; k < g->L; k++) {
		g->pq[k] = g->pa[k] = NEG;
		g->pbb[k] = 0;
	}
	g->mi = 0;
	for (k = 0; k < g->nhist * 3 * g->L; k++)
		g->mring[k] = NEG;	/* every MSHR free */
	for (k = 0; k < g->nhist; k++)
		g->mnode[k] = UINT64_MAX;
	for (k = 0; k < g->L; k++)
		g->base[k] = 0;	/* nothing before is read again */
	/* nothing issued yet: only the cycles counted are cleared (a
	 * whole ring a lane a fragment was 5 MB of memset at 38 lanes) */
	for (k = 0; g->sl != NULL && k < g->L; k++) {
		sl_clear(g, k, g->sl_low[k], g->sl_hi[k] + 1);
		g->sl_low[k] = g->sl_hi[k] = 0;
	}
}

/*
 * Moves each lane's base to its newest commit, and every time it stores
 * down by as much (but -infinity), so that times stay small.
 */
static void
rebase(struct pmr_icost_graph *g)
{
	const lt *C = last_c(g);
	lt b[1024];	/* L <= 1024 (1 << PMR_ICOST_MAXALL lanes) */
	size_t r, n = (g->rmask + 1) * NX;
	unsigned k;

	g->dg.rebases++;
	for (k = 0; k < g->L; k++) {
		b[k] = C[k] > NEG / 2 ? C[k] : 0;
		g->base[k] += b[k];
	}
	for (r = 0; r < n; r++) {
		lt *x = g->ring + r * g->L;

		for (k = 0; k < g->L; k++)
			x[k] = x[k] > NEG / 2 ? x[k] - b[k] : x[k];
	}
	for (r = 0; r < g->nhist * 3; r++) {
		lt *x = g->mring + r * g->L;

		for (k = 0; k < g->L; k++)
			x[k] = x[k] > NEG / 2 ? x[k] - b[k] : x[k];
	}
	/* the issue rings are by cycle: cycle t's counts go to t - b */
	for (k = 0; g->sl != NULL && k < g->L; k++) {
		static uint8_t tmp[SL * 8];
		uint8_t *x = g->sl + (size_t)k * SL * 8;
		size_t sh = ((size_t)b[k] & (SL - 1)) * 8;

		memcpy(tmp, x + sh, SL * 8 - sh);
		memcpy(tmp + SL * 8 - sh, x, sh);
		memcpy(x, tmp, SL * 8);
		g->sl_low[k] -= b[k];
		g->sl_hi[k] -= b[k];
	}
	for (k = 0; k < g->L; k++) {
		g->pq[k] = g->pq[k] > NEG / 2 ? g->pq[k] - b[k] : g->pq[k];
		g->pa[k] = g->pa[k] > NEG / 2 ? g->pa[k] - b[k] : g->pa[k];
		g->cw[k] = g->cw[k] > NEG / 2 ? g->cw[k] - b[k] : g->cw[k];
	}
}

uint64_t
pmr_icost_graph_nodes(const struct pmr_icost_graph *g)
{
	return g->i;
}

/* Node times x of instruction i - d, or -infinity before the fragment. */
static const lt *
at(const struct pmr_icost_graph *g, uint64_t d, unsigned x)
{
	if (d == 0 || d > g->i - g->fb)
		return g->neg;
	return g->ring + ((g->i - d) & g->rmask) * NX * g->L + x * g->L;
}

/* The ring as at() reads it, in locals of the node's step (g's fields
 * are read again after every store through a pointer: at() cost a tenth
 * of the step). */
struct rows {
	const lt *ring, *neg;
	uint64_t i, avail, rmask;
	size_t stride;
	unsigned L;
};

static inline const lt *
rowat(const struct rows *r, uint64_t d, unsigned x)
{
	if (d == 0 || d > r->avail)
		return r->neg;
	return r->ring + ((r->i - d) & r->rmask) * r->stride + x * r->L;
}


/*
 * The MSHRs, as in the machine: a primary miss issues when fewer than
 * nmshr misses hold one (from their issue, E, to their line, A); while all
 * are held it waits for the first line, then counts again.  Its lane's
 * issue time is checked against the last nhist = 2 nmshr misses in
 * program order: a lane that issues them in another order (a far window)
 * counts those in flight then, not those older in the program.  (A ring
 * of nmshr in program order, the k-th miss after the (k - nmshr)-th's
 * line, made misses wait for older ones on long dependence chains: 20%
 * of gzip's time with win and bmisp ideal, on a machine that never ran
 * out of MSHRs.)  The base lane never waits here: the machine held at
 * most nmshr at its E.
 */
__attribute__((noinline)) CLONED
static void
mshr_first(struct pmr_icost_graph *g, const lt *restrict R, lt re,
    const lt *restrict Ir)
{
	const unsigned L = g->L;
	lt *restrict t = g->mfree, *restrict c = g->v[7], *restrict m =
	    g->v[4];
	lt nm = (lt)g->nmshr;
	unsigned j, k, it;

	if (L % 8 != 0)
		__builtin_unreachable();
	for (k = 0; k < L; k++)
		t[k] = R[k] + (re & ~Ir[k]);
	if (g->mi < g->nmshr)	/* fewer misses than MSHRs so far */
		return;
	/* commit is in order and after the data (without load_early): if
	 * the nmshr-th newest miss committed by t in every lane, the older
	 * ones did too, and fewer than nmshr can hold one at t */
	if (!g->load_early) {
		const lt *restrict mC = g->mring + (size_t)((g->mi -
		    g->nmshr) % g->nhist) * 3 * L + 2 * L;
		lt late = 0;

		for (k = 0; k < L; k++)
			late |= -(lt)(mC[k] > t[k]);
		if (late == 0)
			return;
	}
	/* fewer than nmshr lines still to come after t: fewer hold one
	 * (oldest first, and done once no lane can reach nmshr with the
	 * misses left: most lines have come, 2% of the time at 38 lanes) */
	{
		lt full = 0;
		unsigned jj, n = g->nhist;

		for (k = 0; k < L; k++)
			c[k] = 0;
		for (jj = 0; jj < n; jj++) {
			const lt *restrict mP = g->mring + (size_t)((g->mi +
			    jj) % n) * 3 * L + L;

			for (k = 0; k < L; k++)
				c[k] -= -(lt)(t[k] < mP[k]);
			if (n - jj - 1 < g->nmshr && (n - jj - 1) % 4 == 0) {
				lt most = 0;

				for (k = 0; k < L; k++)
					most = c[k] > most ? c[k] : most;
				if (most + (lt)(n - jj - 1) < nm)
					return;
			}
		}
		for (k = 0; k < L; k++)
			full |= -(lt)(c[k] >= nm);
		if (full == 0)
			return;
	}
	/* at t, count the misses holding one; if all do, wait for the
	 * first of them to get its line, and count again then */
	for (it = 0; it < g->nhist; it++) {
		lt wait = 0;

		for (k = 0; k < L; k++)
			c[k] = 0, m[k] = -NEG;
		for (j = 0; j < g->nhist; j++) {
			const lt *restrict mE = g->mring + (size_t)j * 3 * L;
			const lt *restrict mP = mE + L;

			for (k = 0; k < L; k++) {
				lt in = -(lt)(mE[k] <= t[k]) &
				    -(lt)(t[k] < mP[k]);
				lt lo = mP[k] < m[k] ? mP[k] : m[k];

				c[k] -= in;
				m[k] = (lo & in) | (m[k] & ~in);
			}
		}
		for (k = 0; k < L; k++) {
			lt w = -(lt)(c[k] >= nm);

			t[k] = (m[k] & w) | (t[k] & ~w);
			wait |= w;
		}
		if (wait == 0)
			break;
	}
}

/* The miss holds its MSHR from E until its line arrives, A = E + its
 * whole latency (all), but where dmiss made it a hit; it commits at C.
 * (Not until P: an instruction that computes on the loaded value, a
 * load-op, frees the MSHR its unit latency before its P, as the machine
 * does.) */
__attribute__((always_inline)) static inline void
mshr_take(struct pmr_icost_graph *g, const lt *restrict E, lt all,
    const lt *restrict C, const lt *restrict I_dm)
{
	const unsigned L = g->L;
	lt *restrict m = g->mring + (size_t)(g->mi % g->nhist) * 3 * L;
	unsigned k;

	if (L % 8 != 0)
		__builtin_unreachable();
	for (k = 0; k < L; k++) {
		m[k] = (E[k] & ~I_dm[k]) | (NEG & I_dm[k]);
		m[L + k] = ((E[k] + all) & ~I_dm[k]) | (NEG & I_dm[k]);
		m[2 * L + k] = C[k];
	}
	g->mnode[g->mi % g->nhist] = g->i;
	g->mi++;
}

/*
 * The PP edge of a partial miss, to the miss pp nodes back whose line it
 * waits for: that miss's line arrival A while the MSHR history holds it
 * (a dmiss lane none: there both loads hit), else its P.  In the machine
 * the merged load's data comes with the line, before the miss's own P
 * when that is a load-op's (its unit latency after the data): its P
 * made 30 nodes of cc1 up to 3 cycles later than observed.
 */
static const lt *
line_of(const struct pmr_icost_graph *g, const struct rows *rv, uint64_t pp)
{
	uint64_t want = g->i - pp;
	unsigned j;

	for (j = 0; g->nmshr != 0 && j < g->nhist; j++)
		if (g->mnode[j] == want)
			return g->mring + (size_t)j * 3 * g->L + g->L;
	return rowat(rv, pp, XP);
}

/* Which unit latency class: 0 fixed, 1 one-cycle (shalu), 2 long (lgalu). */
static int
fu_group(unsigned cls)
{
	switch (cls) {
	case PMR_OP_IMUL: case PMR_OP_IDIV: case PMR_OP_FADD:
	case PMR_OP_FMUL: case PMR_OP_FDIV:
		return 2;
	case PMR_OP_STORE:
		return 0;	/* pmsim: a store takes 1 cycle, always */
	default:
		return 1;
	}
}

/* The node bits: the lanes' own, and those of the filtered categories
 * this node matches. */
static void
node_bits(struct pmr_icost_graph *g, const struct pmr_sim_gnode *n)
{
	unsigned b, k, c, L = g->L;
	uint32_t m = 0;

	if (g->filtered)
		m = pmr_icost_match(g->cat, g->ncat, n->pc, n->cls);
	memcpy(g->eff, g->ib[0], (size_t)NB * L * sizeof(lt));
	for (c = 0; m != 0; c++, m >>= 1) {
		if (!(m & 1))
			continue;
		for (b = 0; b < NB; b++)
			if (g->cat[c].ideal >> b & 1)
				for (k = 0; k < L; k++)
					g->eff[(size_t)b * L + k] |=
					    g->catv[(size_t)c * L + k];
	}
}

static void
diag_slow(struct pmr_icost_graph *g, const struct pmr_sim_gnode *n, lt f,
    lt d, lt rr, lt e, lt p, lt c)
{
	/* lane 0's times, absolute (passed one by one: a vector load of
	 * an array of them waited on store forwarding every node) */
	const int64_t b = g->base[0];
	const int64_t t[6] = { f + b, d + b, rr + b, e + b, p + b, c + b };
	int64_t obs[5], r;
	unsigned x;

	if (g->i == g->fb)
		g->off = (int64_t)n->at_d - t[1];
	r = (int64_t)n->at_r > (int64_t)n->at_d + 1 ? (int64_t)n->at_r :
	    (int64_t)n->at_d + 1;
	obs[0] = (int64_t)n->at_d, obs[1] = r, obs[2] = (int64_t)n->at_e;
	obs[3] = (int64_t)n->at_p, obs[4] = (int64_t)n->at_c;
	g->last_obs = (int64_t)n->at_c;
	if (g->no_obs) {
		if (g->trace != NULL)
			fprintf(g->trace, "%" PRIu64 "\t0x%" PRIx64 "\t%" PRId64
			    "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64
			    "\t%" PRId64 "\t-\t-\t-\t-\t-\n", n->seq, n->pc,
			    t[0], t[1], t[2], t[3], t[4], t[5]);
		return;
	}
	if (g->trace != NULL)
		fprintf(g->trace, "%" PRIu64 "\t0x%" PRIx64 "\t%" PRId64 "\t%"
		    PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64
		    "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%"
		    PRId64 "\n", n->seq, n->pc, t[0], t[1], t[2], t[3], t[4],
		    t[5], obs[0] - g->off, obs[1] - g->off, obs[2] - g->off,
		    obs[3] - g->off, obs[4] - g->off);
	for (x = 0; x < 5; x++) {
		int64_t late = t[x + 1] + g->off - obs[x];

		if (late > 0) {
			if (g->dg.late[0] + g->dg.late[1] + g->dg.late[2] +
			    g->dg.late[3] + g->dg.late[4] == 0)
				g->dg.late_seq = n->seq;
			g->dg.late[x]++;
			if (late > g->dg.late_max)
				g->dg.late_max = late;
		}
	}
}

/* The observed times, the trace, the late nodes: diag_slow at a
 * fragment's first node, with a trace, or when a time is later than
 * observed; otherwise only the check (a node a step). */
static inline void
diag(struct pmr_icost_graph *g, const struct pmr_sim_gnode *n, lt f, lt d,
    lt rr, lt e, lt p, lt c)
{
	int64_t bo = g->base[0] + g->off, late;

	if (g->i == g->fb || g->trace != NULL || g->no_obs) {
		diag_slow(g, n, f, d, rr, e, p, c);
		return;
	}
	/* R is observed as no earlier than D + 1 */
	late = (d + bo > (int64_t)n->at_d) | (rr + bo > (int64_t)n->at_r &&
	    rr + bo > (int64_t)n->at_d + 1) | (e + bo > (int64_t)n->at_e) |
	    (p + bo > (int64_t)n->at_p) | (c + bo > (int64_t)n->at_c);
	g->last_obs = (int64_t)n->at_c;
	if (late)
		diag_slow(g, n, f, d, rr, e, p, c);
}

/*
 * The gain bound of --top (pmr_icost_graph_gain_on), in the base lane.
 * Idealizing an event class at one static instruction can shorten the
 * critical path by no more than the sum, over its instances, of what each
 * shortens its own node given unchanged predecessors: a node's time falls
 * by at most the largest fall among its in-edges, and an edge's fall is
 * its source's fall plus its own latency cut.  So the sum is an upper
 * bound of the instruction's cost, which lets icost --top measure only
 * the instructions whose bound beats the K-th measured cost.
 *
 * gain_front: the redirect and BTB-bubble edges into F are the previous
 * instruction's (gain[1]); gain_node: the latencies of this one (gain[0]).
 */
static void
gain_front(struct pmr_icost_graph *g, const struct pmr_sim_gnode *n)
{
	int64_t brk1 = n->dd_brk > 0, brkb = n->dd_brk > 1 ? n->dd_brk - 1 : 0;
	int64_t keep, lose = NEG, x;

	g->gain[0] = g->gain[1] = 0;
	if (!(g->gain_bits >> B_BMISP & 1))
		return;
	keep = at(g, 1, XF)[0] + brk1;
	keep = keep > NEG / 2 ? keep : 0;	/* a fragment's first fetch */
	x = at(g, g->fw[0], XF)[0] + 1;
	keep = x > keep ? x : keep;
	x = at(g, g->fq[0], XD)[0];
	keep = x > keep ? x : keep;
	if (brkb != 0)
		lose = (g->decoupled ? g->pa : at(g, 1, XF))[0] + brk1 + brkb;
	if (g->prev_misp && g->pq[0] + g->redirect > lose)
		lose = g->pq[0] + g->redirect;
	g->gain[1] = lose > keep ? lose - keep : 0;
}

static void
gain_node(struct pmr_icost_graph *g, const struct pmr_sim_gnode *n, int grp,
    int64_t r0, int64_t m0)
{
	unsigned b = g->gain_bits;
	int64_t gn = 0;

	if (b >> B_IMISS & 1)
		gn += n->dd_fetch + (g->decoupled ? n->dd_dec : 0);
	if ((b >> B_DL1 & 1) && n->ep_miss == 0)
		gn += n->ep_mem;
	if (b >> B_DMISS & 1) {
		gn += n->ep_tlb + n->ep_miss;
		if (m0 > r0 + n->re)	/* the MSHR edge goes too */
			gn += m0 - r0 - n->re;
	}
	if ((b >> B_SHALU & 1) && grp == 1)
		gn += n->ep_fu;
	if ((b >> B_LGALU & 1) && grp == 2)
		gn += n->ep_fu + (g->o.re_lgalu ? n->re : 0);
	g->gain[0] = gn;
}

void
pmr_icost_graph_gain_on(struct pmr_icost_graph *g, unsigned ideal)
{
	g->gain_bits = ideal;
}

void
pmr_icost_graph_gain(const struct pmr_icost_graph *g, int64_t *cur,
    int64_t *prev)
{
	*cur = g->gain[0];
	*prev = g->gain[1];
}

/* 1 if a lane's newest commit passed REBASE_AT. */
static int
rebase_due(const struct pmr_icost_graph *g)
{
	const lt *C = last_c(g);
	unsigned k;

	for (k = 0; k < g->nlanes; k++)
		if (C[k] > g->rebase_at)
			return 1;
	return 0;
}

/*
 * A node's times in one lane k: F (lane_f), D and R (lane_dr), E, P, Q
 * and C (lane_epc).  Each term of a max is an edge; full keeps the edges
 * most nodes lack, without which they cost no vector operations (the
 * callers pick; a constant full folds the terms away once inlined).
 * Both give the same times when those edges are absent: a term left out
 * is a max with -infinity or an add of 0.  The loops below run them over
 * the lanes, three loops or one.
 */

/* F: fetch reaches i (in order after the fetch break, fetch width, the
 * redirect of a mispredict, a free fetch-queue entry), then waits out its
 * I-side miss; full: the fetch break, BTB bubble, redirect and miss */
__attribute__((always_inline)) static inline lt
lane_f(size_t k, const lt *restrict F1, const lt *restrict B,
    const lt *restrict Fa, const lt *restrict Fb, const lt *restrict Qm,
    const lt *restrict Ga, const lt *restrict Gb, const lt *restrict pbm,
    const lt *restrict I_bw, const lt *restrict I_bb,
    const lt *restrict I_win, const lt *restrict I_bm,
    const lt *restrict I_im, lt brk1, lt bb, lt red, lt icf, lt wp,
    const int full)
{
	lt x = F1[k], y;

	if (full)
		x += brk1 & ~I_bw[k];
	/* a fragment's first fetch is at 0 (base 0) */
	x = x > NEG / 2 ? x : 0;
	if (full) {
		y = ((B[k] + bb) & ~I_bb[k]) | (NEG & I_bb[k]);
		x = y > x ? y : x;
	}
	y = ((Fa[k] & ~I_bw[k]) | (Fb[k] & I_bw[k])) + 1;
	x = y > x ? y : x;
	if (full) {
		y = ((Qm[k] + red) & ~pbm[k]) | (NEG & pbm[k]);
		x = y > x ? y : x;
	}
	y = (Ga[k] & ~I_win[k]) | (Gb[k] & I_win[k]);
	x = y > x ? y : x;
	return full ? x + ((icf + (wp & I_bm[k])) & ~I_im[k]) : x;
}

/* D after the front end (a, the lane's F or line), and R into *r; full:
 * the resource edge S and producers P2, P3 */
__attribute__((always_inline)) static inline lt
lane_dr(size_t k, lt a, const lt *restrict D1, const lt *restrict Ma,
    const lt *restrict Mb, const lt *restrict Wa, const lt *restrict Wb,
    const lt *restrict S, const lt *restrict P0, const lt *restrict P1,
    const lt *restrict P2, const lt *restrict P3,
    const lt *restrict I_bw, const lt *restrict I_win, lt fe, lt *r,
    const int full)
{
	lt x = a + fe, y, d;

	x = D1[k] > x ? D1[k] : x;
	y = ((Ma[k] & ~I_bw[k]) | (Mb[k] & I_bw[k])) + 1;
	x = y > x ? y : x;
	y = (Wa[k] & ~I_win[k]) | (Wb[k] & I_win[k]);
	x = y > x ? y : x;
	if (full) {
		y = (S[k] & ~I_win[k]) | (NEG & I_win[k]);
		x = y > x ? y : x;
	}
	d = x;
	x = x + 1;
	x = P0[k] > x ? P0[k] : x;
	x = P1[k] > x ? P1[k] : x;
	if (full) {
		x = P2[k] > x ? P2[k] : x;
		x = P3[k] > x ? P3[k] : x;
	}
	*r = x;
	return d;
}

/* E, P, Q and C after R (rr), into lane k of E, P, Qd, C and of Pr, P
 * as consumers see it; full: a memory access (latencies, the line-fill
 * and partial-miss edges, and with mshr the MSHR edge Mv); without, P =
 * E + the unit latency.  The wait for contention: re, or with vre the
 * lane's own W[k] (--issue sched). */
__attribute__((always_inline)) static inline void
lane_epc(size_t k, lt rr, const lt *restrict Ir, const lt *restrict If,
    const lt *restrict Mv, const lt *restrict PL, const lt *restrict PP,
    const lt *restrict C1, const lt *restrict Ra, const lt *restrict Rb,
    const lt *restrict I_dl1, const lt *restrict I_dm,
    const lt *restrict I_bw, lt re, const lt *restrict W, lt fu, lt mem,
    lt all, lt hm, lt tlb, lt em, lt *restrict E, lt *restrict P,
    lt *restrict Qd, lt *restrict C, lt *restrict Pr, const int full,
    const int mshr, const int vre)
{
	lt e = rr + ((vre ? W[k] : re) & ~Ir[k]), x, m1, m, f, p, q, c;

	f = fu & ~If[k];
	if (full) {
		if (mshr) {
			x = (Mv[k] & ~I_dm[k]) | (NEG & I_dm[k]);
			e = x > e ? x : e;
		}
		/* a hit: the L1 latency (dl1) and a DTLB miss (dmiss); a
		 * miss: its whole latency, which the L1's does not add to,
		 * until dmiss makes it a hit */
		m1 = mem & ~I_dl1[k];
		m = (((m1 & I_dm[k]) | (all & ~I_dm[k])) & hm) |
		    ((m1 + (tlb & ~I_dm[k])) & ~hm);
		p = e + f + m;
		/* retire waits for the data, or with load_early only for
		 * the L1 */
		q = e + f + m1;
		q = q < p ? q : p;
		p = PL[k] > p ? PL[k] : p;
		p = PP[k] > p ? PP[k] : p;
		q = (q & em) | (p & ~em);
	} else
		p = q = e + f;
	q = q > e + 1 ? q : e + 1;
	c = C1[k] > q ? C1[k] : q;
	x = ((Ra[k] & ~I_bw[k]) | (Rb[k] & I_bw[k])) + 1;
	c = x > c ? x : c;
	E[k] = e;
	P[k] = p;
	Qd[k] = q;
	C[k] = c;
	/* what consumers see: a result is there at P, but no earlier than
	 * the cycle after issue (a consumer woken in its producer's issue
	 * cycle issues in the next: pmsim's scheduler) */
	Pr[k] = p > e + 1 ? p : e + 1;
}

__attribute__((always_inline)) static inline void
loop_f(unsigned L, lt *restrict F, const lt *restrict F1,
    const lt *restrict B, const lt *restrict Fa, const lt *restrict Fb,
    const lt *restrict Qm, const lt *restrict Ga, const lt *restrict Gb,
    const lt *restrict pbm, const lt *restrict I_bw,
    const lt *restrict I_bb, const lt *restrict I_win,
    const lt *restrict I_bm, const lt *restrict I_im, lt brk1, lt bb,
    lt red, lt icf, lt wp, const int full)
{
	size_t k;

	if (L % 8 != 0)
		__builtin_unreachable();
	_Pragma("GCC ivdep")
	for (k = 0; k < L; k++)
		F[k] = lane_f(k, F1, B, Fa, Fb, Qm, Ga, Gb, pbm, I_bw, I_bb,
		    I_win, I_bm, I_im, brk1, bb, red, icf, wp, full);
}

__attribute__((always_inline)) static inline void
loop_dr(unsigned L, lt *restrict D, lt *restrict R, const lt *restrict A,
    const lt *restrict D1, const lt *restrict Ma, const lt *restrict Mb,
    const lt *restrict Wa, const lt *restrict Wb, const lt *restrict S,
    const lt *restrict P0, const lt *restrict P1, const lt *restrict P2,
    const lt *restrict P3, const lt *restrict I_bw,
    const lt *restrict I_win, lt fe, const int full)
{
	size_t k;

	if (L % 8 != 0)
		__builtin_unreachable();
	_Pragma("GCC ivdep")
	for (k = 0; k < L; k++) {
		lt r;

		D[k] = lane_dr(k, A[k], D1, Ma, Mb, Wa, Wb, S, P0, P1, P2,
		    P3, I_bw, I_win, fe, &r, full);
		R[k] = r;
	}
}

__attribute__((always_inline)) static inline void
loop_epc(unsigned L, lt *restrict E, lt *restrict P, lt *restrict Qd,
    lt *restrict C, lt *restrict Pr, const lt *restrict R,
    const lt *restrict Ir, const lt *restrict If, const lt *restrict Mv,
    const lt *restrict PL, const lt *restrict PP, const lt *restrict C1,
    const lt *restrict Ra, const lt *restrict Rb,
    const lt *restrict I_dl1, const lt *restrict I_dm,
    const lt *restrict I_bw, lt re, const lt *restrict W, lt fu, lt mem,
    lt miss, lt tlb, lt em, const int full, const int vre)
{
	lt all = mem + miss + tlb, hm = miss != 0 ? -1 : 0;
	size_t k;

	if (L % 8 != 0)
		__builtin_unreachable();
	_Pragma("GCC ivdep")
	for (k = 0; k < L; k++)
		lane_epc(k, R[k], Ir, If, Mv, PL, PP, C1, Ra, Rb, I_dl1, I_dm,
		    I_bw, re, W, fu, mem, all, hm, tlb, em, E, P, Qd, C, Pr,
		    full, 1, vre);
}

/* The three as one loop, for a node without an MSHR edge or a decoupled
 * front end: F, D, R, E, P, Q and C of a lane stay in registers.  ff,
 * fd, fx: lane_f's, lane_dr's and lane_epc's full. */
__attribute__((always_inline)) static inline void
loop_fused(unsigned L, lt *restrict F, lt *restrict D, lt *restrict R,
    lt *restrict E, lt *restrict P, lt *restrict Qd, lt *restrict C,
    lt *restrict Pr, const lt *restrict F1, const lt *restrict B,
    const lt *restrict Fa, const lt *restrict Fb, const lt *restrict Qm,
    const lt *restrict Ga, const lt *restrict Gb, const lt *restrict pbm,
    const lt *restrict D1, const lt *restrict Ma, const lt *restrict Mb,
    const lt *restrict Wa, const lt *restrict Wb, const lt *restrict S,
    const lt *restrict P0, const lt *restrict P1, const lt *restrict P2,
    const lt *restrict P3, const lt *restrict Ir, const lt *restrict If,
    const lt *restrict PL, const lt *restrict PP, const lt *restrict C1,
    const lt *restrict Ra, const lt *restrict Rb,
    const lt *restrict I_bw, const lt *restrict I_bb,
    const lt *restrict I_win, const lt *restrict I_bm,
    const lt *restrict I_im, const lt *restrict I_dl1,
    const lt *restrict I_dm, lt brk1, lt bb, lt red, lt icf, lt wp, lt fe,
    lt re, lt fu, lt mem, lt miss, lt tlb, lt em, const int ff,
    const int fd, const int fx)
{
	lt all = mem + miss + tlb, hm = miss != 0 ? -1 : 0;
	size_t k;

	if (L % 8 != 0)
		__builtin_unreachable();
	_Pragma("GCC ivdep")
	for (k = 0; k < L; k++) {
		lt f, r;

		f = lane_f(k, F1, B, Fa, Fb, Qm, Ga, Gb, pbm, I_bw, I_bb,
		    I_win, I_bm, I_im, brk1, bb, red, icf, wp, ff);
		F[k] = f;
		D[k] = lane_dr(k, f, D1, Ma, Mb, Wa, Wb, S, P0, P1, P2, P3,
		    I_bw, I_win, fe, &r, fd);
		R[k] = r;
		lane_epc(k, r, Ir, If, NULL, PL, PP, C1, Ra, Rb, I_dl1, I_dm,
		    I_bw, re, NULL, fu, mem, all, hm, tlb, em, E, P, Qd, C, Pr,
		    fx, 0, 0);
	}
}

/*
 * --issue sched: each lane issues in cycles and units of its own.  pmsim
 * issues the oldest ready instructions first, up to the issue width and
 * each pool's units; so does a lane that gives each node, in program
 * order, the first cycle from its ready time R with an issue and a unit
 * of its pool left (a younger node can take an earlier cycle only while
 * this one is not ready).  The base lane issues as observed (R + RE,
 * exact), and what of its RE the schedule does not explain (resid: a
 * divide's busy unit, an MSHR, a retry) the other lanes keep; a lane
 * whose nodes are ready as the base lane's issues as it does.  On
 * sampled nodes (shotgun's fragments, pmr_icost_graph_sampled) RE is
 * another instance's wait, in another context: the base lane schedules
 * its issue too and keeps no residue, which only the lanes that
 * idealize bw dropped (grep's fragments overstated bw by 1.5-2.1
 * points, 0.6-0.8 under scheduled; cc1's true path 11.8% -> 11.0% from
 * the full graph).  Lanes that idealize bw (no contention) keep no ring.
 * sched_wait finds each lane's wait W after R and D, loop_epc takes it
 * for RE (all lanes in one vector loop: calling lane_epc a lane at a
 * time again cost a fifth of the step), and sched_count counts the
 * issues.
 */
static __attribute__((noinline)) void
sched_wait(struct pmr_icost_graph *g, const struct pmr_sim_gnode *n,
    lt re, unsigned L, const lt *D, const lt *R, const lt *Ir, lt *W)
{
	struct pmr_sim_optime ot;
	uint8_t *sl = g->sl;
	lt *low = g->sl_low, resid = 0;
	unsigned k, p, iw = g->iw, nf;

	/* the pool as pmsim's: a node that reads memory is the memory
	 * pool's whatever its class */
	pmr_sim_optime(&g->cfg, n->cls, n->ep_mem > 0 || n->ep_miss > 0, 0,
	    &ot);
	g->sl_pool = p = ot.pool;
	nf = g->nfu[p];
	for (k = 0; k < L; k++) {
		uint8_t *x = sl + (size_t)k * SL * 8;
		lt d = D[k], t;

		/* the cycles before the newest dispatch are free again (a
		 * few at most, most nodes: stored here, not by a call) */
		if (d > low[k]) {
			if (d - low[k] <= 8)
				for (t = low[k]; t < d; t++)
					memset(x + (t & (SL - 1)) * 8, 0, 8);
			else
				sl_clear(g, k, low[k], d);
			low[k] = d;
		}
		W[k] = re;	/* lane 0, and lanes that zero it (Ir) */
		if (Ir[k])
			continue;
		for (t = R[k]; t - d < (lt)SL && (x[(t & (SL - 1)) * 8] >= iw ||
		    x[(t & (SL - 1)) * 8 + 1 + p] >= nf); t++)
			;
		if (k == 0) {
			if (g->sampled) {	/* a sample's wait: not here */
				W[0] = t < R[0] ? 0 : t - R[0];
				continue;
			}
			resid = re - (t - R[0]);
			continue;
		}
		t += resid;
		W[k] = t < R[k] ? 0 : t - R[k];
	}
}

/* --issue sched, after lane_epc with the waits W: each lane's issue
 * (E) counted in its cycle, of all and of the node's pool. */
static void
sched_count(struct pmr_icost_graph *g, unsigned L, const lt *D,
    const lt *E, const lt *Ir)
{
	uint8_t *sl = g->sl;
	lt *hi = g->sl_hi;
	unsigned k, p = g->sl_pool;

	for (k = 0; k < L; k++) {
		lt d = D[k], t = E[k];

		if (!Ir[k] && t >= d && t - d < (lt)SL) {
			uint8_t *c = sl + (size_t)k * SL * 8 + (t & (SL - 1)) *
			    8;

			c[0] += c[0] < 255;
			c[1 + p] += c[1 + p] < 255;
			hi[k] = t > hi[k] ? t : hi[k];
		}
	}
}

/*
 * One node, every lane: the loops over lanes vectorize; the host's widest
 * vectors are picked at load time (the clones below: x86-64-v4 is
 * AVX-512 with VL, BW and DQ, 4% faster than AVX-512F alone on an AMD
 * EPYC, whose masks and moves it uses).
 */
__attribute__((always_inline)) static inline void
node_step(struct pmr_icost_graph *g, const struct pmr_sim_gnode *n,
    const int sched, const unsigned Lk)	/* Lk: g->L, or 0 */
{
	const unsigned L = Lk != 0 ? Lk : g->L;
	lt *slot = g->ring + (g->i & g->rmask) * NX * L;
	/* each array written here is apart from every other one read or
	 * written (the ring rows of other nodes, the scratch vectors) */
	lt *restrict E = slot + XE * L, *restrict P = g->v[1];
	lt *restrict Q = g->v[2], *restrict tmp = g->v[3];
	lt *restrict R = g->v[5];
	lt *restrict F = slot + XF * L, *restrict D = slot + XD * L;
	lt *restrict C = slot + XC * L, *restrict Pr = slot + XP * L;
	const lt *I_dl1, *I_dm, *I_im, *I_bm, *I_win, *I_bw, *I_sh,
	    *I_lg, *I_bb;
	const uint32_t prod[4] = { n->pr_reg_a, n->pr_reg_b, n->pr_reg_c,
	    n->pr_mem };
	lt brk1 = n->dd_brk > 0, brkb = n->dd_brk > 1 ? n->dd_brk - 1 : 0;
	lt ic = n->dd_fetch, fu = n->ep_fu, mem = n->ep_mem;
	/* a contention of 2^24 cycles or more is no machine's */
	lt re = n->re < (1u << 24) ? (lt)n->re : (lt)(1u << 24);
	lt miss = n->ep_miss, tlb = n->ep_tlb;
	lt r0;
	int grp = fu_group(n->cls), misp;
	/* a primary miss: it holds an MSHR from issue to its line (a
	 * partial miss whose line's miss is before what the lanes hold,
	 * before a fragment's start, is one) */
	int prim = miss != 0 && (n->pp == 0 || n->pp > g->i - g->fs) &&
	    g->nmshr != 0;
	/* the producers' rows: within the fragment, or with chain (a
	 * fragment that goes on from the previous one) as far back as the
	 * machine's rows */
	const struct rows rv = { g->ring, g->neg, g->i, g->i - g->fs,
	    g->rmask, NX * (size_t)L, L };
	const lt *fr[NFIX];
	unsigned k, j;

	if (L % 8 != 0)		/* lanes are padded: no remainder loops */
		__builtin_unreachable();
	if (g->filtered)
		node_bits(g, n);
	else if (g->i == 0)
		memcpy(g->eff, g->ib[0], (size_t)NB * L * sizeof(lt));
	I_dl1 = g->eff + B_DL1 * L, I_dm = g->eff + B_DMISS * L;
	I_im = g->eff + B_IMISS * L, I_bm = g->eff + B_BMISP * L;
	I_win = g->eff + B_WIN * L, I_bw = g->eff + B_BW * L;
	I_sh = g->eff + B_SHALU * L, I_lg = g->eff + B_LGALU * L;
	/* a BTB-miss bubble is the previous transfer's, as a redirect is */
	I_bb = g->filtered ? g->pbb : I_bm;
	if (g->gain_bits != 0)
		gain_front(g, n);

	/*
	 * Each node's times come from loops over the lanes, every edge a
	 * term of a max: an edge that is absent for this node reads the
	 * -infinity vector (neg), one that an idealization deletes is or-ed
	 * with -1 in that lane (below any time, which is >= 0), and per-node
	 * choices are made before the loops, so that they vectorize without
	 * branches.  A node with an MSHR edge (or a decoupled front end, or
	 * --top's bounds) takes three loops (F; D and R; E, P, Q, C) with
	 * the MSHR count between; every other node one (loop_fused), in the
	 * variant without the edges it lacks.  Each loop reads and writes
	 * lane k of arrays apart from one another (ivdep: too many for the
	 * compiler's own alias checks).  The common node in one loop, its
	 * variants, and the machine's rows found at once made the step 1.3
	 * times as fast (gzip, 38 lanes).
	 */

	/* the rows at the machine's distances: past a fragment's first far
	 * nodes all are there, and a short loop finds them at once (one at
	 * a time, they cost a tenth of the step) */
	if (g->i - g->fs >= g->far) {
		uintptr_t r0 = (uintptr_t)g->ring, sz = (g->rmask + 1) * NX *
		    (uintptr_t)L * sizeof(lt), at = (uintptr_t)slot;

		for (j = 0; j < NFIX; j++) {
			uintptr_t q = at - g->fxoff[j];

			q += q < r0 ? sz : 0;
			fr[j] = (const lt *)(q + g->fxin[j]);
		}
	} else
		for (j = 0; j < NFIX; j++)
			fr[j] = rowat(&rv, g->fxd[j], g->fxx[j]);

	/* The edges' sources, then the loops.  F: fetch reaches i (in order
	 * after the fetch break, fetch width, the redirect of a mispredict,
	 * a free fetch-queue entry), then waits out its I-side miss. */
	const lt *F1 = fr[R_F1];
	/* a BTB-miss bubble counts from the branch's fetch, or from its
	 * line's arrival with a decoupled front end */
	const lt *B = brkb == 0 ? g->neg : g->decoupled ? g->pa : F1;
	const lt *Fa = fr[R_FA], *Fb = fr[R_FB];
	/* a lane idealizing bmisp: pbm = -1, so x = -1 */
	const lt *Qm = g->prev_misp ? g->pq : g->neg;
	const lt *Ga = fr[R_GA], *Gb = g->fq[1] != 0 ?
	    fr[R_GB] : g->neg;	/* win deletes it */
	/* a line a wrong path brought: without mispredicts its fetch would
	 * have missed (dd_wp), unless imiss is ideal; with a decoupled
	 * front end the miss waits below instead */
	const lt *pbm = g->pbm;
	lt icf = g->decoupled ? 0 : ic, wp = g->decoupled ? 0 : n->dd_wp;
	lt bb = brk1 + brkb, red = g->redirect;
	int ff = !(brk1 == 0 && bb == 0 && !g->prev_misp && icf == 0 &&
	    wp == 0);
	/* D: the front end, in-order map, map width, the window, the
	 * resource edge (the issue or retire that freed the issue-queue
	 * entry, registers or load/store-queue entry map waited for; win,
	 * structures x 20, deletes it); R: one cycle after map, and after
	 * the producers' results */
	const lt *A = g->decoupled ? tmp : F, *D1 = fr[R_D1];
	const lt *Ma = fr[R_MA], *Mb = fr[R_MB];
	const lt *Wa = fr[R_WA], *Wb = g->w[1] != 0 ?
	    fr[R_WB] : g->neg;
	const lt *S = g->neg, *Pp[4];
	lt fe = g->frontend;
	unsigned np;
	int fd;

	if (n->rk != PMR_SIM_RK_NONE && n->rs != 0) {
		if (n->rs > g->rmask)
			g->dg.dropped++;
		else
			S = rowat(&rv, n->rs, n->rk == PMR_SIM_RK_ISSUE ? XE :
			    XC);
	}
	for (j = np = 0; j < 4; j++) {
		if (prod[j] == 0)
			continue;
		if (prod[j] > g->rmask)
			g->dg.dropped++;
		else
			Pp[np++] = rowat(&rv, prod[j], XP);
	}
	for (j = np; j < 4; j++)
		Pp[j] = g->neg;
	fd = !(S == g->neg && np <= 2);
	/* the redirect edge to the next node: resolved at execute; with a
	 * decoupled front end (ChampSim's), a JMP_MISP with BTB_MISS is the
	 * miss decode resolves: the bubble on the next node's DD */
	misp = (n->events & PMR_SIM_EV_BR_MISP) != 0 ||
	    ((n->events & PMR_SIM_EV_JMP_MISP) != 0 && !(g->decoupled &&
	    (n->events & PMR_SIM_EV_BTB_MISS)));
	/* E: contention, an MSHR; P: latency components, the line-fill and
	 * partial-miss edges; Q; C: after Q, in order, retire width.  Which
	 * lanes zero the unit latency (If) and the contention (Ir). */
	const lt *If = grp == 1 ? I_sh : grp == 2 ? I_lg : g->v[0];
	const lt *Ir = grp == 2 && g->o.re_lgalu ? I_lg : I_bw;
	/* dmiss lanes have no misses, so no MSHR edge: M | -1 = -1 */
	const lt *Mv = prim ? g->mfree : g->neg;
	const lt *PL = g->neg, *PP = g->neg, *C1 = fr[R_C1];
	const lt *Ra = fr[R_RA], *Rb = fr[R_RB];
	lt *restrict Qd = misp ? g->pq : Q;
	lt em = g->load_early && mem > 0 ? -1 : 0;
	int fx;

	/* PL: a hit reads its line no earlier than the miss that brought
	 * it; in the machine that held (it hit), but a lane that issues the
	 * load earlier (win, bw ...) must not find the line sooner.  PP: a
	 * partial miss waits for the line. */
	if (n->pl > g->rmask)
		g->dg.dropped++;
	else if (n->pl != 0)
		PL = rowat(&rv, n->pl, XP);
	if (n->pp > g->rmask)
		g->dg.dropped++;
	else if (n->pp != 0)
		PP = line_of(g, &rv, n->pp);
	fx = !(mem == 0 && miss == 0 && tlb == 0 && PL == g->neg && PP ==
	    g->neg);

	if (!prim && !g->decoupled && g->gain_bits == 0 && !sched) {
		/* the common node: one loop, every time in registers */
		switch (ff << 2 | fd << 1 | fx) {
#define FUSED(a, b, c) \
		case a << 2 | b << 1 | c: \
			loop_fused(L, F, D, R, E, P, Qd, C, Pr, F1, B, Fa, Fb, \
			    Qm, Ga, Gb, pbm, D1, Ma, Mb, Wa, Wb, S, Pp[0], \
			    Pp[1], Pp[2], Pp[3], Ir, If, PL, PP, C1, Ra, Rb, \
			    I_bw, I_bb, I_win, I_bm, I_im, I_dl1, I_dm, brk1, \
			    bb, red, icf, wp, fe, re, fu, mem, miss, tlb, em, \
			    a, b, c); \
			break
		FUSED(0, 0, 0); FUSED(0, 0, 1); FUSED(0, 1, 0);
		FUSED(0, 1, 1); FUSED(1, 0, 0); FUSED(1, 0, 1);
		FUSED(1, 1, 0); FUSED(1, 1, 1);
#undef FUSED
		}
		r0 = R[0];
	} else {
		if (ff)
			loop_f(L, F, F1, B, Fa, Fb, Qm, Ga, Gb, pbm, I_bw,
			    I_bb, I_win, I_bm, I_im, brk1, bb, red, icf, wp,
			    1);
		else
			loop_f(L, F, F1, B, Fa, Fb, Qm, Ga, Gb, pbm, I_bw,
			    I_bb, I_win, I_bm, I_im, brk1, bb, red, icf, wp,
			    0);
		if (g->decoupled) {
			/* fetch goes on past a miss; i's line arrives after
			 * the lines before it (A), then decode (+ a DIB
			 * miss) to map */
			lt dec = n->dd_dec;

			_Pragma("GCC ivdep")
			for (k = 0; k < L; k++) {
				lt a = F[k] + (ic & ~I_im[k]);

				g->pa[k] = a > g->pa[k] ? a : g->pa[k];
				tmp[k] = g->pa[k] + (dec & ~I_im[k]);
			}
		}
		if (fd)
			loop_dr(L, D, R, A, D1, Ma, Mb, Wa, Wb, S, Pp[0],
			    Pp[1], Pp[2], Pp[3], I_bw, I_win, fe, 1);
		else
			loop_dr(L, D, R, A, D1, Ma, Mb, Wa, Wb, S, Pp[0],
			    Pp[1], Pp[2], Pp[3], I_bw, I_win, fe, 0);
		r0 = R[0];
		if (prim)
			mshr_first(g, R, re, Ir);
		if (g->gain_bits != 0)
			gain_node(g, n, grp, R[0], prim ? g->mfree[0] : NEG);
		if (sched) {
			lt *restrict W = g->v[6];

			sched_wait(g, n, re, L, D, R, Ir, W);
			if (fx || prim)
				loop_epc(L, E, P, Qd, C, Pr, R, Ir, If, Mv, PL,
				    PP, C1, Ra, Rb, I_dl1, I_dm, I_bw, re, W,
				    fu, mem, miss, tlb, em, 1, 1);
			else
				loop_epc(L, E, P, Qd, C, Pr, R, Ir, If, Mv, PL,
				    PP, C1, Ra, Rb, I_dl1, I_dm, I_bw, re, W,
				    fu, mem, miss, tlb, em, 0, 1);
			sched_count(g, L, D, E, Ir);
		} else if (fx || prim)
			loop_epc(L, E, P, Qd, C, Pr, R, Ir, If, Mv, PL, PP, C1,
			    Ra, Rb, I_dl1, I_dm, I_bw, re, NULL, fu, mem, miss,
			    tlb, em, 1, 0);
		else
			loop_epc(L, E, P, Qd, C, Pr, R, Ir, If, Mv, PL, PP, C1,
			    Ra, Rb, I_dl1, I_dm, I_bw, re, NULL, fu, mem, miss,
			    tlb, em, 0, 0);
		if (prim)
			mshr_take(g, E, mem + miss + tlb, C, I_dm);
	}
	g->prev_misp = misp;
	if (g->filtered)
		memcpy(g->pbb, I_bm, L * sizeof(lt));
	if (misp)
		for (k = 0; k < L; k++)	/* -1 | x = -1: the edge is gone */
			g->pbm[k] = I_bm[k];
	if (g->o.warm != 0 && g->i - g->fb == g->o.warm - 1)
		memcpy(g->cw, C, L * sizeof(lt));
	diag(g, n, F[0], D[0], r0, E[0], P[0], C[0]);
	g->i++;
	if ((g->i & 4095) == 0 && rebase_due(g))
		rebase(g);
}

CLONED void
pmr_icost_graph_node(struct pmr_icost_graph *g, const struct pmr_sim_gnode *n)
{
	if (g->sl != NULL)
		node_step(g, n, 1, 0);
	else
		node_step(g, n, 0, 0);
}

/* The nodes of a run of GNODE records with node_step(sched) (below). */
__attribute__((always_inline)) static inline size_t
run_nodes(struct pmr_icost_graph *g, const unsigned char *p, size_t n,
    size_t stride, uint64_t *prev, const int sched, const unsigned Lk)
{
	struct pmr_sim_gnode x;
	size_t k;

	for (k = 0; k < n; k++, p += stride) {
		pmr_sim_gnode_decode_at(p, &x);
		if (*prev == UINT64_MAX || x.seq != *prev + 1)
			break;
		node_step(g, &x, sched, Lk);
		*prev = x.seq;
	}
	return k;
}

__attribute__((noinline)) CLONED
static size_t
run_sched(struct pmr_icost_graph *g, const unsigned char *p, size_t n,
    size_t stride, uint64_t *prev)
{
	return run_nodes(g, p, n, stride, prev, 1, 0);
}

/* The nodes of a run of pmsim's GNODE records, decoded and stepped in one
 * loop of the clone (not a call a node: 4% of the time at 38 lanes). */
CLONED size_t
pmr_icost_graph_run(struct pmr_icost_graph *g, const unsigned char *p,
    size_t n, size_t stride, uint64_t *prev)
{
	/* --issue sched: a function of its own, the default's loop as it
	 * was (two node steps in one function cost it 1.7% instructions) */
	if (g->sl != NULL)
		return run_sched(g, p, n, stride, prev);
	/* the common lane counts with L a constant: the loops over the
	 * lanes unrolled, their pointers loaded once a node rather than an
	 * iteration (--order 2 over 8 categories: 38 lanes, 5% faster;
	 * one category: 2 lanes, 13%) */
	if (g->L == 40)
		return run_nodes(g, p, n, stride, prev, 0, 40);
	if (g->L == 8)
		return run_nodes(g, p, n, stride, prev, 0, 8);
	return run_nodes(g, p, n, stride, prev, 0, 0);
}

void
pmr_icost_graph_times(const struct pmr_icost_graph *g, int64_t *t)
{
	unsigned k;

	for (k = 0; k < g->nlanes; k++)
		t[k] = g->t[k];
	frag_time(g, t, g->nlanes);
}

void
pmr_icost_graph_trace(struct pmr_icost_graph *g, FILE *f)
{
	g->trace = f;
}

void
pmr_icost_graph_observed(struct pmr_icost_graph *g, int on)
{
	g->no_obs = !on;
}

void
pmr_icost_graph_sampled(struct pmr_icost_graph *g, int on)
{
	g->sampled = on;
}

void
pmr_icost_graph_diag(const struct pmr_icost_graph *g,
    struct pmr_icost_diag *d)
{
	uint64_t m;
	int64_t t0 = 0;

	*d = g->dg;
	m = frag_time(g, &t0, 1);
	d->measured += m;
	d->short_frags += g->i > g->fb && m == 0;
	if (g->i > g->fb && !g->no_obs)
		d->t_obs += g->last_obs - g->off;
}
