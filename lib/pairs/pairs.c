/*
 * pairs.c: the ProfileMe estimators (Dean et al., MICRO-30, §5) over
 * SAMPLE and PAIR records (pmr(5); lib/records), scored against TRUTH.
 *
 * Everything read is kept as sums in one vector of u64 per pc (layout
 * below, also the acc field of the METRIC record), so that shards merge by
 * addition and every estimate is a function of sums.  The intervals are
 * built to hold at the few samples a pc has (man/pairs.1, Confidence
 * intervals; tests/coverage.sh measures them against TRUTH): counts s*k
 * with a Poisson score interval, proportions with Wilson's, latency means
 * and totals with pooled allowances for the long latencies a pc's samples
 * missed, and the pair metrics (the paper's §5.2)
 * with score intervals of ratios of Poisson-sampled sums, under which no
 * finite sample gives a zero width.  The pooled values are sums over the
 * pcs of an operation class (pool_sums()).  Nothing here is random, so
 * merged and unmerged runs print the same numbers, except the optional
 * Poisson bootstrap (pmr_pairs_opts.boot), whose weights come from a seeded
 * generator in record order.  Path reconstruction is in path.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pairs/pairs.h"
#include "sim/sim.h"
#include "trace/trace.h"
#include "util/mix.h"

/*
 * The accumulator vector of one pc.  Sample counts are over SAMPLE
 * records, or over both members of every PAIR in paired mode.  Latency
 * sums, squares and histograms cover retired samples with the stage
 * reached (as TRUTH's sums do).  l is the in-progress latency of a sample
 * (F to RR if retired, F to abort otherwise: rule (a)); u the useful
 * overlap of the partner (it retires and issues in [F, F + l) of this
 * member); gf the cycles the partner was in flight during that window and
 * gu the same for a partner that retires.
 */
enum {
	A_K = 0,		/* samples */
	A_KRET,			/* retired samples */
	A_TRAP,			/* 8: samples by trap reason */
	A_EV = A_TRAP + 8,	/* 32: samples with event bit i */
	A_EVR = A_EV + 32,	/* 32: retired samples with event bit i */
	A_MAPR = A_EVR + 32,	/* retired with any map-stage stall bit */
	A_MISPR,		/* retired with BR_MISP or JMP_MISP */
	A_LN,			/* 7: retired samples with latency j */
	A_LS = A_LN + PMR_PAIRS_NLAT,	/* 7: sum of latency j */
	A_LQ = A_LS + PMR_PAIRS_NLAT,	/* 7: sum of squares */
	A_INP = A_LQ + PMR_PAIRS_NLAT,	/* sum of l */
	A_INP2,			/* sum of l^2 */
	A_UF, A_UB,		/* sum of u, member first / second */
	A_UL,			/* sum of u*l */
	A_GF, A_GF2, A_GFL,	/* sum of gf, gf^2, gf*l */
	A_GU, A_GU2, A_GUL,	/* sum of gu, gu^2, gu*l */
	A_T,			/* TRUTH fields, T_* below */
	A_H = A_T + 40,		/* 7 x PMR_PAIRS_NB: latency histograms */
	/* appended after the first METRIC version: */
	/* partners retiring within +-delta cycles of this retired member */
	A_LOC = A_H + PMR_PAIRS_NLAT * PMR_PAIRS_NB,
	A_RIF,			/* partners retiring while this is in flight */
	A_ISS,			/* partners issuing while this is in progress,
				 * retiring or not */
	A_OCCL,			/* 5: sum of stage t's cycles of retired
				 * members (--occupancy) */
	A_OCC = A_OCCL + 5,	/* 25: s * 5 + t: cycles the partner spent in
				 * stage s while this was in stage t */
	A_FU = A_OCC + 25,	/* 25: u * 5 + t: cycles the partner of unit
				 * class u executed while this was in t */
	/* appended for the occupancy intervals (--occupancy):
	 * per member, g its A_OCC or A_FU contribution and l_t its cycles in
	 * stage t */
	A_OCC2 = A_FU + 25,	/* 25: sum of g^2, as A_OCC */
	A_OCCG = A_OCC2 + 25,	/* 25: sum of g l_t */
	A_FU2 = A_OCCG + 25,	/* 25: sum of g^2, as A_FU */
	A_FUG = A_FU2 + 25,	/* 25: sum of g l_t */
	A_OCCL2 = A_FUG + 25,	/* 5: sum of l_t^2 */
	A_N = A_OCCL2 + 5
};

/* Unit class of an operation class for the fu_ metrics, or -1. */
static const signed char fu_class[PMR_OP_NCLASS] = {
	[PMR_OP_OTHER] = 0, [PMR_OP_INT] = 0, [PMR_OP_IMUL] = 1,
	[PMR_OP_IDIV] = 1, [PMR_OP_FADD] = 2, [PMR_OP_FMUL] = 2,
	[PMR_OP_FDIV] = 2, [PMR_OP_LOAD] = 3, [PMR_OP_STORE] = 3,
	[PMR_OP_LDST] = 3, [PMR_OP_BR_COND] = 4, [PMR_OP_JMP] = 4,
	[PMR_OP_JMP_IND] = 4, [PMR_OP_CALL] = 4, [PMR_OP_CALL_IND] = 4,
	[PMR_OP_RET] = 4, [PMR_OP_SYSCALL] = -1, [PMR_OP_NOP] = -1
};

/*
 * Sets the stage intervals [lo[i], hi[i]) of sample x fetched at f: fetch
 * to map, map to data ready, to issue, to retire ready, to retire.
 * Returns how many, from the first, are known.
 */
static int
stages(const struct pmr_sim_sample *x, int64_t f, int64_t lo[5],
    int64_t hi[5])
{
	const uint32_t lat[5] = { x->lat_fm, x->lat_md, x->lat_dx, x->lat_xr,
		x->lat_rr };
	int i;

	for (i = 0; i < 5 && lat[i] != PMR_SIM_NOLAT; i++) {
		lo[i] = f;
		f += lat[i];
		hi[i] = f;
	}
	return i;
}

/* Adds the stage occupancy and unit use of partner y to member x's a. */
static void
add_occ(uint64_t *a, const struct pmr_sim_sample *x, int64_t fx,
    const struct pmr_sim_sample *y, int64_t fy)
{
	int64_t xl[5], xh[5], yl[5], yh[5], lo, hi;
	uint64_t l, g;
	int nx, ny, s, t, u;

	if (!(x->events & PMR_SIM_EV_RETIRED))
		return;
	nx = stages(x, fx, xl, xh);
	for (t = 0; t < nx; t++) {
		l = (uint64_t)(xh[t] - xl[t]);
		a[A_OCCL + t] += l;
		a[A_OCCL2 + t] += l * l;
	}
	if (y == NULL)
		return;
	ny = stages(y, fy, yl, yh);
	for (s = 0; s < ny; s++)
		for (t = 0; t < nx; t++) {
			lo = yl[s] > xl[t] ? yl[s] : xl[t];
			hi = yh[s] < xh[t] ? yh[s] : xh[t];
			if (hi > lo) {
				g = (uint64_t)(hi - lo);
				a[A_OCC + s * 5 + t] += g;
				a[A_OCC2 + s * 5 + t] += g * g;
				a[A_OCCG + s * 5 + t] += g *
				    (uint64_t)(xh[t] - xl[t]);
			}
		}
	u = y->cls < PMR_OP_NCLASS ? fu_class[y->cls] : -1;
	if (ny < 4 || u < 0)
		return;
	for (t = 0; t < nx; t++) {
		lo = yl[3] > xl[t] ? yl[3] : xl[t];
		hi = yh[3] < xh[t] ? yh[3] : xh[t];
		if (hi > lo) {
			g = (uint64_t)(hi - lo);
			a[A_FU + u * 5 + t] += g;
			a[A_FU2 + u * 5 + t] += g * g;
			a[A_FUG + u * 5 + t] += g * (uint64_t)(xh[t] - xl[t]);
		}
	}
}

/* TRUTH fields, offsets from A_T (T_COUNT: TRUTH records added). */
enum {
	T_FETCHED, T_RETIRED, T_ABORTED, T_AB_MISP, T_AB_OTHER,
	T_SUM, T_SQ = T_SUM + 6, T_N_LD = T_SQ + 6,
	T_ICM, T_ITLB, T_DCM, T_DTLB, T_L2, T_TAKEN, T_BRM, T_JMPM, T_FU,
	T_MAP, T_FWD, T_INPROG, T_USEFUL, T_WASTED, T_COUNT, T_INFL, T_INFLR,
	T_LOCAL, T_NFIELDS
};

/* Global vector of the METRIC record of kind 1. */
enum {
	G_VERSION, G_MODE, G_S, G_W, G_C, G_FETCHED, G_NSTATS, G_SAMPLES,
	G_PAIRS, G_OTHER, G_OFFPATH, G_EMPTY, G_DELTA, G_TDELTA,
	G_WLEN, G_WN, G_WZERO, G_WSUM, G_WSQ, G_WCUBE, G_WMAX, G_WMIN, G_N
};

_Static_assert(T_NFIELDS <= 40, "A_H leaves room for the TRUTH fields");

struct ent {
	uint64_t pc;
	uint8_t cls;
	size_t acc;		/* index of the vector in p->acc */
	uint32_t boot;		/* slot of its bootstrap sums + 1, 0 none */
};

/*
 * Streaming Poisson bootstrap (--ci=bootstrap): every PAIR gets, for each
 * of B replicates, a weight drawn from Poisson(1), and the contributions
 * of its members to these sums are added times the weight, into B
 * replicate vectors of B_N sums per pc.  A metric evaluated on each
 * replicate gives the percentile interval.
 */
enum {
	B_L, B_UF, B_UB, B_GF, B_GU, B_LOC, B_KRET, B_K, B_RIF, B_ISS, B_N
};
static const int boot_acc[B_N] = { A_INP, A_UF, A_UB, A_GF, A_GU, A_LOC,
	A_KRET, A_K, A_RIF, A_ISS };

/*
 * One count of a profile: tag P_MISS (a address, b pc), P_TAKEN (a pc, b
 * target), P_FALL (a pc), P_PATH | hist_len << 8 (a pc, b history), or
 * P_PPATH | hist_len << 8 (a pc, b history, c pc of the earlier member of
 * a pair whose members both retired).
 */
struct pent {
	uint64_t a, b, c, k;
	uint32_t tag;
};

enum { P_MISS = 1, P_TAKEN, P_FALL, P_PATH, P_PPATH, P_RPATH, P_ATRUTH };

/* Pools of the intervals: one per operation class, and one of all pcs. */
#define NPOOL (PMR_OP_NCLASS + 1)
/* Observations of its class's spread a latency mean is shrunk with. */
#define NU0 2.0

struct image {
	uint64_t start, size, offset;
	char *path;
	unsigned char bid[64];	/* the recorded GNU build-id */
	size_t nbid;		/* its length, 0 unknown */
	struct pmr_symtab *st;	/* --by=proc, loaded on demand */
	int st_tried;
};

struct pmr_pairs {
	struct pmr_pairs_opts o;
	struct pmr_pairs_info info;
	struct ent *ent;
	size_t nent, capent;
	uint32_t *hash;		/* entry index + 1, 0 empty */
	size_t hcap;
	uint64_t *acc;		/* nent vectors of A_N */
	struct image *img;
	size_t nimg;
	int proc_found;		/* --proc: its range is in o.pc_lo/hi */
	/* report */
	struct pmr_pairs_row *rows;
	uint64_t *racc;		/* vectors of the grouped rows */
	char **names;		/* row names of --by=proc */
	size_t nnames;
	char note[320];
	struct pent *pe;	/* address, edge and path profile counts */
	size_t npe, cappe;
	uint32_t *ph;		/* entry index + 1, 0 empty */
	size_t phcap;
	struct pmr_pairs_prow *prows;
	float *bpool;		/* bootstrap slots of B * B_N sums (float:
				 * percentiles need no more, and B x 10
				 * of them per pc add up) */
	size_t nbslot, capbslot;
	float *rboot;		/* summed slots of the grouped rows */
	uint8_t *bw;		/* weights of the current pair */
	uint64_t rng;		/* splitmix64 state */
	struct pmr_pairs_psamp *ps;	/* kept samples (keep_paths) */
	size_t nps, capps;
	int have_s;		/* META profileme seen */
	uint32_t delta;		/* local IPC window in use */
	uint32_t tdelta;	/* delta of META truth, 0 unknown */
	uint32_t meta_w, meta_c;
	/* pooled sums of the intervals, set by pmr_pairs_finish(): per
	 * operation class (the last slot: every pc), the sums of the
	 * accumulators and,
	 * per latency, the within-pc sums of squares and their degrees of
	 * freedom */
	double *pool;		/* NPOOL vectors of A_N */
	double wss[NPOOL][PMR_PAIRS_NLAT], wdf[NPOOL][PMR_PAIRS_NLAT];
	double ex1[NPOOL][PMR_PAIRS_NLAT], ex2[NPOOL][PMR_PAIRS_NLAT];
	char err[256];
};

static int PMR_FORMAT(3, 4)
fail(struct pmr_pairs *p, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->err, sizeof(p->err), fmt, ap);
	va_end(ap);
	return code;
}

struct pmr_pairs *
pmr_pairs_new(const struct pmr_pairs_opts *o)
{
	struct pmr_pairs *p;

	if ((p = calloc(1, sizeof(*p))) == NULL)
		return NULL;
	p->o = *o;
	p->delta = o->delta ? o->delta : 15;
	p->rng = o->seed;
	if (p->o.boot > PMR_PAIRS_BOOT_MAX)
		p->o.boot = PMR_PAIRS_BOOT_MAX;
	if (p->o.boot > 0 && (p->bw = calloc(p->o.boot, 1)) == NULL) {
		free(p);
		return NULL;
	}
	if (p->o.proc != NULL) {	/* nothing until the range is known */
		p->o.pc_lo = 1;
		p->o.pc_hi = 0;
	} else if (p->o.pc_hi == 0)
		p->o.pc_hi = UINT64_MAX;
	if (!(p->o.confidence > 0 && p->o.confidence < 1))
		p->o.confidence = 0.95;
	return p;
}

void
pmr_pairs_free(struct pmr_pairs *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nimg; i++) {
		free(p->img[i].path);
		pmr_symtab_free(p->img[i].st);
	}
	free(p->img);
	for (i = 0; i < p->nnames; i++)
		free(p->names[i]);
	free(p->names);
	free(p->ent);
	free(p->hash);
	free(p->acc);
	free(p->rows);
	free(p->racc);
	free(p->pe);
	free(p->ph);
	free(p->prows);
	free(p->ps);
	free(p->bpool);
	free(p->rboot);
	free(p->bw);
	free(p->pool);
	free(p);
}

const char *
pmr_pairs_errmsg(const struct pmr_pairs *p)
{
	return p->err;
}

const struct pmr_pairs_info *
pmr_pairs_info(const struct pmr_pairs *p)
{
	return &p->info;
}

static uint64_t
hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static int
rehash(struct pmr_pairs *p, size_t cap)
{
	uint32_t *h;
	size_t i, j;

	if ((h = calloc(cap, sizeof(*h))) == NULL)
		return PMR_ENOMEM;
	for (i = 0; i < p->nent; i++) {
		j = hash64(p->ent[i].pc) & (cap - 1);
		while (h[j] != 0)
			j = (j + 1) & (cap - 1);
		h[j] = (uint32_t)(i + 1);
	}
	free(p->hash);
	p->hash = h;
	p->hcap = cap;
	return 0;
}

/* Returns the vector of pc, created if new, or NULL (out of memory). */
static uint64_t *
lookup(struct pmr_pairs *p, uint64_t pc, uint8_t cls)
{
	size_t j;
	struct ent *e;

	if (p->hcap == 0 && rehash(p, 1024) != 0)
		return NULL;
	j = hash64(pc) & (p->hcap - 1);
	while (p->hash[j] != 0) {
		e = &p->ent[p->hash[j] - 1];
		if (e->pc == pc)
			return p->acc + e->acc;
		j = (j + 1) & (p->hcap - 1);
	}
	if (p->nent == p->capent) {
		size_t cap = p->capent ? 2 * p->capent : 1024;
		struct ent *ne;
		uint64_t *na;

		if (cap > UINT32_MAX - 1)
			return NULL;
		if ((ne = realloc(p->ent, cap * sizeof(*ne))) == NULL)
			return NULL;
		p->ent = ne;
		if ((na = realloc(p->acc, cap * A_N * sizeof(*na))) == NULL)
			return NULL;
		p->acc = na;
		p->capent = cap;
	}
	e = &p->ent[p->nent];
	e->pc = pc;
	e->cls = cls;
	e->acc = p->nent * A_N;
	e->boot = 0;
	memset(p->acc + e->acc, 0, A_N * sizeof(uint64_t));
	p->hash[j] = (uint32_t)(++p->nent);
	if (2 * p->nent > p->hcap && rehash(p, 2 * p->hcap) != 0)
		return NULL;
	p->info.npcs = p->nent;
	return p->acc + e->acc;
}

static uint64_t
phash(uint32_t tag, uint64_t a, uint64_t b, uint64_t c)
{
	return hash64(a ^ hash64(b ^ hash64(c ^ ((uint64_t)tag << 40))));
}

static int
prehash(struct pmr_pairs *p, size_t cap)
{
	uint32_t *h;
	size_t i, j;

	if ((h = calloc(cap, sizeof(*h))) == NULL)
		return PMR_ENOMEM;
	for (i = 0; i < p->npe; i++) {
		const struct pent *e = &p->pe[i];

		j = phash(e->tag, e->a, e->b, e->c) & (cap - 1);
		while (h[j] != 0)
			j = (j + 1) & (cap - 1);
		h[j] = (uint32_t)(i + 1);
	}
	free(p->ph);
	p->ph = h;
	p->phcap = cap;
	return 0;
}

/* Adds k to the profile count (tag, a, b, c); returns 0 or PMR_ENOMEM. */
static int
padd3(struct pmr_pairs *p, uint32_t tag, uint64_t a, uint64_t b, uint64_t c,
    uint64_t k)
{
	struct pent *e;
	size_t j;

	if (p->phcap == 0 && prehash(p, 1024) != 0)
		return PMR_ENOMEM;
	j = phash(tag, a, b, c) & (p->phcap - 1);
	while (p->ph[j] != 0) {
		e = &p->pe[p->ph[j] - 1];
		if (e->tag == tag && e->a == a && e->b == b && e->c == c) {
			e->k += k;
			return 0;
		}
		j = (j + 1) & (p->phcap - 1);
	}
	if (p->npe == p->cappe) {
		size_t cap = p->cappe ? 2 * p->cappe : 1024;
		struct pent *ne;

		if (cap > UINT32_MAX - 1)
			return PMR_ENOMEM;
		if ((ne = realloc(p->pe, cap * sizeof(*ne))) == NULL)
			return PMR_ENOMEM;
		p->pe = ne;
		p->cappe = cap;
	}
	e = &p->pe[p->npe];
	e->tag = tag;
	e->a = a;
	e->b = b;
	e->c = c;
	e->k = k;
	p->ph[j] = (uint32_t)(++p->npe);
	if (2 * p->npe > p->phcap && prehash(p, 2 * p->phcap) != 0)
		return PMR_ENOMEM;
	return 0;
}

static int
padd(struct pmr_pairs *p, uint32_t tag, uint64_t a, uint64_t b, uint64_t k)
{
	return padd3(p, tag, a, b, 0, k);
}

/* Adds the profile counts of sample x (an instruction kept by filters). */
static int
add_prof(struct pmr_pairs *p, const struct pmr_sim_sample *x)
{
	uint32_t ev = x->events;
	int ret = (ev & PMR_SIM_EV_RETIRED) != 0, rc;

	if ((rc = padd(p, P_PATH | (uint32_t)x->hist_len << 8, x->pc,
	    x->history, 1)) != 0)
		return rc;
	if (!ret)
		return 0;
	if (p->o.keep_paths && (rc = padd(p, P_RPATH |
	    (uint32_t)x->hist_len << 8, x->pc, x->history, 1)) != 0)
		return rc;
	if ((ev & PMR_SIM_EV_DCACHE_MISS) && (x->cls == PMR_OP_LOAD ||
	    x->cls == PMR_OP_STORE || x->cls == PMR_OP_LDST))
		return padd(p, P_MISS, x->addr, x->pc, 1);
	if (x->cls >= PMR_OP_BR_COND && x->cls <= PMR_OP_RET) {
		if (ev & PMR_SIM_EV_TAKEN)
			return padd(p, P_TAKEN, x->pc, x->addr, 1);
		return padd(p, P_FALL, x->pc, 0, 1);
	}
	return 0;
}

unsigned
pmr_pairs_bucket(uint32_t v)
{
	unsigned b = 31 - (unsigned)__builtin_clz(v | 1);  /* floor(log2 v) */

	if (v < 16)
		return v;
	return 16 + (b - 4);	/* b >= 4 */
}

uint64_t
pmr_pairs_bucket_lo(unsigned b)
{
	return b < 16 ? b : (uint64_t)1 << (b - 12);
}

/* Returns the in-progress latency of x (ProfileMe §5.2.3), or -1 if
 * unknown. */
static int64_t
inprog(const struct pmr_pairs *p, const struct pmr_sim_sample *x)
{
	if (x->events & PMR_SIM_EV_RETIRED) {
		if (x->lat_total == PMR_SIM_NOLAT ||
		    x->lat_rr == PMR_SIM_NOLAT || x->lat_rr > x->lat_total)
			return -1;
		return (int64_t)x->lat_total - x->lat_rr;
	}
	if (p->o.aborts == PMR_PAIRS_ABORT_ZERO)
		return 0;
	if (x->lat_total == PMR_SIM_NOLAT)
		return -1;
	return x->lat_total;
}

/* Returns the issue time of y relative to its fetch, or -1. */
static int64_t
issue_at(const struct pmr_sim_sample *y)
{
	if (y->lat_fm == PMR_SIM_NOLAT || y->lat_md == PMR_SIM_NOLAT ||
	    y->lat_dx == PMR_SIM_NOLAT)
		return -1;
	return (int64_t)y->lat_fm + y->lat_md + y->lat_dx;
}

/*
 * Checks the fields of a decoded sample that index arrays or shift: an
 * event bit this version does not know, a kind or history length out of
 * range.  Returns NULL when x is sound, else what is wrong.
 */
static const char *
sample_bad(const struct pmr_sim_sample *x, char *buf, size_t len)
{
	if (x->events & ~PMR_SIM_EV_ALL)
		snprintf(buf, len, "events 0x%08" PRIx32 " has bits not "
		    "defined in pmr(5) (0x%08" PRIx32 ")", x->events,
		    x->events & ~PMR_SIM_EV_ALL);
	else if (x->kind > PMR_SIM_KIND_EMPTY)
		snprintf(buf, len, "kind %u is not 0, 1 or 2", x->kind);
	else if (x->hist_len > 64)
		snprintf(buf, len, "hist_len %u is above 64", x->hist_len);
	else
		return NULL;
	return buf;
}

/* Adds the single-sample part of x to its pc; returns the vector. */
static uint64_t *
add_sample(struct pmr_pairs *p, const struct pmr_sim_sample *x, int64_t l)
{
	uint64_t *a;
	uint32_t ev = x->events, lat[PMR_PAIRS_NLAT];
	int ret = (ev & PMR_SIM_EV_RETIRED) != 0;
	unsigned i;

	/* --by=context: the vectors are per context, not per pc */
	if ((a = p->o.by_context ? lookup(p, x->context, 255) :
	    lookup(p, x->pc, x->cls)) == NULL || add_prof(p, x) != 0)
		return NULL;
	a[A_K]++;
	a[A_TRAP + (x->trap & 7)]++;
	for (; ev != 0; ev &= ev - 1)	/* events were checked: < 2^21 */
		a[A_EV + __builtin_ctz(ev)]++;
	ev = x->events;
	if (l >= 0) {
		a[A_INP] += (uint64_t)l;
		a[A_INP2] += (uint64_t)(l * l);
	}
	if (!ret)
		return a;
	a[A_KRET]++;
	for (; ev != 0; ev &= ev - 1)
		a[A_EVR + __builtin_ctz(ev)]++;
	ev = x->events;
	a[A_MAPR] += (ev & (PMR_SIM_EV_MAP_REGS | PMR_SIM_EV_MAP_IQ |
	    PMR_SIM_EV_MAP_ROB | PMR_SIM_EV_LSQ_FULL)) != 0;
	a[A_MISPR] += (ev & (PMR_SIM_EV_BR_MISP | PMR_SIM_EV_JMP_MISP)) != 0;
	lat[PMR_PAIRS_LAT_FM] = x->lat_fm;
	lat[PMR_PAIRS_LAT_MD] = x->lat_md;
	lat[PMR_PAIRS_LAT_DX] = x->lat_dx;
	lat[PMR_PAIRS_LAT_XR] = x->lat_xr;
	lat[PMR_PAIRS_LAT_RR] = x->lat_rr;
	lat[PMR_PAIRS_LAT_LD] = x->lat_ld;
	lat[PMR_PAIRS_LAT_TOTAL] = x->lat_total;
	for (i = 0; i < PMR_PAIRS_NLAT; i++) {
		uint64_t v = lat[i];

		if (lat[i] == PMR_SIM_NOLAT)
			continue;
		a[A_LN + i]++;
		a[A_LS + i] += v;
		a[A_LQ + i] += v * v;
		a[A_H + i * PMR_PAIRS_NB + pmr_pairs_bucket(lat[i])]++;
	}
	return a;
}

/* Keeps retired sample x for path reconstruction, with its partner. */
static int
keep_psamp(struct pmr_pairs *p, const struct pmr_sim_sample *x,
    const struct pmr_sim_sample *partner, uint32_t dist)
{
	struct pmr_pairs_psamp *e;

	if (!(x->events & PMR_SIM_EV_RETIRED) || x->cpos == UINT64_MAX)
		return 0;
	if (p->nps == p->capps) {
		size_t cap = p->capps ? 2 * p->capps : 1024;

		if ((e = realloc(p->ps, cap * sizeof(*e))) == NULL)
			return PMR_ENOMEM;
		p->ps = e;
		p->capps = cap;
	}
	e = &p->ps[p->nps++];
	memset(e, 0, sizeof(*e));
	e->cpos = x->cpos;
	e->pc = x->pc;
	e->history = x->history;
	e->hist_len = x->hist_len;
	if (partner != NULL && (partner->events & PMR_SIM_EV_RETIRED) &&
	    partner->kind == PMR_SIM_KIND_INSN) {
		e->has_partner = 1;
		e->partner = partner->pc;
		e->dist = dist;
	}
	return 0;
}

const struct pmr_pairs_psamp *
pmr_pairs_psamples(const struct pmr_pairs *p, size_t *n)
{
	*n = p->nps;
	return p->ps;
}

static int
keep(const struct pmr_pairs *p, uint64_t pc)
{
	return pc >= p->o.pc_lo && pc <= p->o.pc_hi;
}

/* Returns 1 if sample x passes the --if condition. */
static int
cond(const struct pmr_pairs *p, const struct pmr_sim_sample *x)
{
	return (x->events & p->o.if_set) == p->o.if_set &&
	    (x->events & p->o.if_clear) == 0;
}

static const char *const event_names[] = {
	"icache_miss", "itlb_miss", "dcache_miss", "dtlb_miss", "llc_miss",
	"taken", "br_misp", "jmp_misp", "map_regs", "map_iq", "map_rob",
	"fu_conflict", "lsq_full", "mem_trap", "retired", "nonint",
	"bad_path", "forward", "mshr_full", "btb_miss", "synth"
};

uint32_t
pmr_pairs_event_bit(const char *name)
{
	unsigned i;

	for (i = 0; i < sizeof(event_names) / sizeof(event_names[0]); i++)
		if (strcmp(event_names[i], name) == 0)
			return 1u << i;
	return 0;
}

int
pmr_pairs_lat_find(const char *name)
{
	static const char *const lat[PMR_PAIRS_NLAT] = { "fm", "md", "dx", "xr",
		"rr", "ld", "total" };
	int i;

	for (i = 0; i < PMR_PAIRS_NLAT; i++)
		if (strcmp(lat[i], name) == 0)
			return i;
	return -1;
}

/*
 * Adds member x of a pair, fetched at fx, whose partner y was fetched at
 * fy (cycles, relative to the pair): the single-sample part and the pair
 * functions g(x, y) of ProfileMe §5.2.3-5.2.4.
 */
static int
add_member(struct pmr_pairs *p, const struct pmr_sim_sample *x, int64_t fx,
    const struct pmr_sim_sample *y, int64_t fy, int first, uint32_t dist)
{
	uint64_t *a;
	int64_t l, xy, end, yend, lo, hi, g;
	int yret = (y->events & PMR_SIM_EV_RETIRED) != 0;

	if (x->kind != PMR_SIM_KIND_INSN || !keep(p, x->pc) || !cond(p, x))
		return 0;
	l = inprog(p, x);
	if ((a = add_sample(p, x, l)) == NULL)
		return fail(p, PMR_ENOMEM, "out of memory");
	if (p->o.keep_paths && keep_psamp(p, x, first ? NULL : y, dist) != 0)
		return fail(p, PMR_ENOMEM, "out of memory");
	/* ProfileMe §5.3: the earlier member of a pair that both retired is on
	 * the committed path to x */
	if (!first && yret && (x->events & PMR_SIM_EV_RETIRED) &&
	    y->kind == PMR_SIM_KIND_INSN && padd3(p, P_PPATH |
	    (uint32_t)x->hist_len << 8, x->pc, x->history, y->pc, 1) != 0)
		return fail(p, PMR_ENOMEM, "out of memory");
	if (p->o.occupancy)
		add_occ(a, x, fx, y->kind == PMR_SIM_KIND_INSN ? y : NULL, fy);
	if (y->kind != PMR_SIM_KIND_INSN)
		return 0;
	/* ProfileMe §5.2.4: retire times are F + lat_total; local IPC, and
	 * partners retiring while x is in flight [F(x), end(x)) */
	if (yret && x->lat_total != PMR_SIM_NOLAT &&
	    y->lat_total != PMR_SIM_NOLAT) {
		int64_t rx = fx + x->lat_total, ry = fy + y->lat_total;

		if ((x->events & PMR_SIM_EV_RETIRED) &&
		    (rx > ry ? rx - ry : ry - rx) <= (int64_t)p->delta)
			a[A_LOC]++;
		if (fx <= ry && ry < rx)
			a[A_RIF]++;
	}
	if (l < 0)
		return 0;
	end = fx + l;
	xy = issue_at(y);
	if (xy >= 0 && fx <= fy + xy && fy + xy < end)
		a[A_ISS]++;
	if (yret && xy >= 0 && fx <= fy + xy && fy + xy < end) {
		a[first ? A_UF : A_UB]++;
		a[A_UL] += (uint64_t)l;
	}
	if (y->lat_total == PMR_SIM_NOLAT)
		return 0;
	yend = fy + y->lat_total;
	lo = fy > fx ? fy : fx;
	hi = yend < end ? yend : end;
	if (hi <= lo)
		return 0;
	g = hi - lo;
	a[A_GF] += (uint64_t)g;
	a[A_GF2] += (uint64_t)(g * g);
	a[A_GFL] += (uint64_t)(g * l);
	if (yret) {
		a[A_GU] += (uint64_t)g;
		a[A_GU2] += (uint64_t)(g * g);
		a[A_GUL] += (uint64_t)(g * l);
	}
	return 0;
}

static uint64_t
splitmix(uint64_t *x)
{
	return pmr_splitmix64(x);
}

/*
 * Draws the Poisson(1) weights of the next pair by the inverse CDF, from
 * 16-bit uniforms (four per splitmix64 output; the CDF is rounded down to
 * 1/65536, which moves no probability by more than that).
 */
static void
boot_draw(struct pmr_pairs *p)
{
	/* P(X <= k) * 2^16 for k = 0..6 */
	static const uint32_t cdf[] = { 24109, 48218, 60273, 64291, 65296,
		65497, 65530 };
	uint64_t r = 0;
	uint32_t b;

	for (b = 0; b < p->o.boot; b++) {
		uint32_t u;

		if (b % 4 == 0)
			r = splitmix(&p->rng);
		u = (uint32_t)(r & 0xffff);
		r >>= 16;
		/* without branches: the weights are random */
		p->bw[b] = (uint8_t)((u >= cdf[0]) + (u >= cdf[1]) +
		    (u >= cdf[2]) + (u >= cdf[3]) + (u >= cdf[4]) +
		    (u >= cdf[5]) + (u >= cdf[6]));
	}
}

/* Returns the bootstrap slot of vector a, created if new, or NULL. */
static float *
boot_slot(struct pmr_pairs *p, const uint64_t *a)
{
	struct ent *e = &p->ent[(size_t)(a - p->acc) / A_N];
	size_t n = (size_t)p->o.boot * B_N;

	if (e->boot == 0) {
		if (p->nbslot == p->capbslot) {
			size_t cap = p->capbslot ? 2 * p->capbslot : 64;
			float *np;

			if ((np = realloc(p->bpool, cap * n *
			    sizeof(*np))) == NULL)
				return NULL;
			p->bpool = np;
			p->capbslot = cap;
		}
		memset(p->bpool + p->nbslot * n, 0, n * sizeof(float));
		e->boot = (uint32_t)++p->nbslot;
	}
	return p->bpool + (e->boot - 1) * n;
}

/*
 * Adds member x of a pair, and with --ci=bootstrap its contribution times
 * the pair's weights to the replicate sums of its pc: the difference of
 * the summed accumulators before and after.
 */
static int
add_member_boot(struct pmr_pairs *p, const struct pmr_sim_sample *x, int64_t fx,
    const struct pmr_sim_sample *y, int64_t fy, int first, uint32_t dist)
{
	uint64_t before[B_N], *a;
	double c[B_N];
	float *bs;
	uint32_t b;
	int i, nz, idx[B_N], rc;

	if (p->o.boot == 0 || x->kind != PMR_SIM_KIND_INSN ||
	    !keep(p, x->pc) || !cond(p, x))
		return add_member(p, x, fx, y, fy, first, dist);
	if ((a = p->o.by_context ? lookup(p, x->context, 255) :
	    lookup(p, x->pc, x->cls)) == NULL)
		return fail(p, PMR_ENOMEM, "out of memory");
	for (i = 0; i < B_N; i++)
		before[i] = a[boot_acc[i]];
	if ((rc = add_member(p, x, fx, y, fy, first, dist)) != 0)
		return rc;
	for (i = nz = 0; i < B_N; i++)
		if ((c[i] = (double)(a[boot_acc[i]] - before[i])) != 0)
			idx[nz++] = i;
	if ((bs = boot_slot(p, a)) == NULL)
		return fail(p, PMR_ENOMEM, "out of memory");
	/* weight 0 adds 0: no branch on the random weight */
	for (b = 0; b < p->o.boot; b++, bs += B_N)
		for (i = 0; i < nz; i++)
			bs[idx[i]] += (float)(p->bw[b] * c[idx[i]]);
	return 0;
}

static int
set_mode(struct pmr_pairs *p, int mode)
{
	if (p->info.mode != PMR_PAIRS_UNKNOWN && p->info.mode != mode)
		return fail(p, PMR_ECORRUPT, "mismatched shards: single "
		    "samples and pairs in one input");
	p->info.mode = mode;
	return 0;
}

/* Copies a META value into dst, or fails if it differs from a kept one. */
static int
meta_same(struct pmr_pairs *p, char *dst, size_t cap, const char *what,
    const struct pmr_bytes *v)
{
	char buf[512];
	size_t n = v->n < sizeof(buf) - 1 ? v->n : sizeof(buf) - 1;

	memcpy(buf, v->p, n);
	buf[n] = '\0';
	if (dst[0] != '\0' && strncmp(dst, buf, cap - 1) != 0)
		return fail(p, PMR_ECORRUPT, "mismatched shards: %s '%s' "
		    "after '%.60s'", what, buf, dst);
	n = n < cap - 1 ? n : cap - 1;
	memcpy(dst, buf, n);
	dst[n] = '\0';
	return 0;
}

/* Parses "mode=paired S=1024 W=96 ..." of META profileme. */
static int
meta_profileme(struct pmr_pairs *p, const struct pmr_bytes *v)
{
	const char *s;
	int rc;

	if ((rc = meta_same(p, p->info.sampler, sizeof(p->info.sampler),
	    "profileme", v)) != 0)
		return rc;
	s = p->info.sampler;
	if (strstr(s, "mode=paired") != NULL)
		rc = set_mode(p, PMR_PAIRS_PAIRED);
	else if (strstr(s, "mode=single") != NULL)
		rc = set_mode(p, PMR_PAIRS_SINGLE);
	if (rc != 0)
		return rc;
	if ((s = strstr(p->info.sampler, "S=")) != NULL)
		p->info.S = strtoull(s + 2, NULL, 10);
	if ((s = strstr(p->info.sampler, " W=")) != NULL)
		p->meta_w = (uint32_t)strtoul(s + 3, NULL, 10);
	p->have_s = 1;
	return 0;
}

/*
 * Records the delta of the TRUTH local counts; the local IPC window
 * follows it unless --delta was given, until the first pair is read.
 */
static int
set_tdelta(struct pmr_pairs *p, uint32_t d)
{
	if (d == 0)
		return 0;
	if (p->tdelta != 0 && p->tdelta != d)
		return fail(p, PMR_ECORRUPT, "mismatched shards: TRUTH delta "
		    "%u after %u", d, p->tdelta);
	p->tdelta = d;
	if (p->o.delta == 0 && p->info.pairs == 0)
		p->delta = d;
	return 0;
}

/*
 * Adds the windowed IPC of one shard.  Shards with another window length
 * cannot be pooled: the statistics are then dropped (win_len ~0 marks it).
 */
static void
add_win(struct pmr_pairs *p, uint64_t len, uint64_t n, uint64_t zero,
    uint64_t sum, uint64_t sq, uint64_t cube, uint64_t max, uint64_t min)
{
	struct pmr_pairs_info *in = &p->info;

	if (len == 0 || in->win_len == UINT64_MAX)
		return;
	if (in->win_len != 0 && in->win_len != len) {
		in->win_len = UINT64_MAX;
		return;
	}
	in->win_len = len;
	in->win_n += n;
	in->win_zero += zero;
	in->win_sum += sum;
	in->win_sumsq += sq;
	in->win_sumcube += cube;
	if (max > in->win_max)
		in->win_max = max;
	if (min != 0 && (in->win_min == 0 || min < in->win_min))
		in->win_min = min;
}

static int
add_meta(struct pmr_pairs *p, const struct pmr_rec *rec)
{
	struct pmr_meta m;
	const char *why;
	char buf[32];
	size_t n;

	if (pmr_rec_decode(rec, &m, &why) != 0)
		return fail(p, PMR_ECORRUPT, "bad META record: %s", why);
	n = m.key.n;
	if (n == 7 && memcmp(m.key.p, "machine", 7) == 0)
		return meta_same(p, p->info.machine, sizeof(p->info.machine),
		    "machine", &m.value);
	if (n == 13 && memcmp(m.key.p, "config-digest", 13) == 0)
		return meta_same(p, p->info.digest, sizeof(p->info.digest),
		    "config-digest", &m.value);
	if (n == 9 && memcmp(m.key.p, "profileme", 9) == 0)
		return meta_profileme(p, &m.value);
	if (n == 5 && memcmp(m.key.p, "truth", 5) == 0) {
		const char *d;

		n = m.value.n < sizeof(buf) - 1 ? m.value.n : sizeof(buf) - 1;
		memcpy(buf, m.value.p, n);
		buf[n] = '\0';
		if ((d = strstr(buf, "delta=")) != NULL)
			return set_tdelta(p, (uint32_t)strtoul(d + 6, NULL,
			    10));
		return 0;
	}
	if (n == 11 && memcmp(m.key.p, "issue-width", 11) == 0) {
		n = m.value.n < sizeof(buf) - 1 ? m.value.n : sizeof(buf) - 1;
		memcpy(buf, m.value.p, n);
		buf[n] = '\0';
		p->meta_c = (uint32_t)strtoul(buf, NULL, 10);
	}
	return 0;
}

static int
add_truth(struct pmr_pairs *p, const struct pmr_rec *rec)
{
	struct pmr_sim_truth t;
	const char *why;
	uint64_t *a, *d;
	unsigned i;

	if (pmr_rec_decode(rec, &t, &why) != 0)
		return fail(p, PMR_ECORRUPT, "bad TRUTH record: %s", why);
	if (!keep(p, t.pc) || p->o.if_set != 0 || p->o.if_clear != 0 ||
	    p->o.by_context)
		return 1;	/* TRUTH is of all executions, of every context,
				 * not of a subset */
	if ((a = lookup(p, t.pc, t.cls)) == NULL)
		return fail(p, PMR_ENOMEM, "out of memory");
	d = a + A_T;
	d[T_FETCHED] += t.fetched;
	d[T_RETIRED] += t.retired;
	d[T_ABORTED] += t.aborted;
	d[T_AB_MISP] += t.ab_misp;
	d[T_AB_OTHER] += t.ab_other;
	{
		const uint64_t sum[6] = { t.sum_fm, t.sum_md, t.sum_dx,
			t.sum_xr, t.sum_rr, t.sum_ld };
		const uint64_t sq[6] = { t.sq_fm, t.sq_md, t.sq_dx, t.sq_xr,
			t.sq_rr, t.sq_ld };

		for (i = 0; i < 6; i++) {
			d[T_SUM + i] += sum[i];
			d[T_SQ + i] += sq[i];
		}
	}
	d[T_N_LD] += t.n_ld;
	d[T_ICM] += t.icache_miss;
	d[T_ITLB] += t.itlb_miss;
	d[T_DCM] += t.dcache_miss;
	d[T_DTLB] += t.dtlb_miss;
	d[T_L2] += t.l2_miss;
	d[T_TAKEN] += t.taken;
	d[T_BRM] += t.br_misp;
	d[T_JMPM] += t.jmp_misp;
	d[T_FU] += t.fu_conflict;
	d[T_MAP] += t.map_stall;
	d[T_FWD] += t.forwarded;
	d[T_INPROG] += t.inprog;
	d[T_USEFUL] += t.useful;
	d[T_WASTED] += (uint64_t)t.wasted;
	d[T_INFL] += t.inflight;
	d[T_INFLR] += t.inflight_ret;
	d[T_LOCAL] += t.local;
	d[T_COUNT]++;
	p->info.ntruth++;
	return 1;
}

static int
add_image(struct pmr_pairs *p, const struct pmr_rec *rec)
{
	struct pmr_image im;
	struct image *ni;
	const char *why;

	if (pmr_rec_decode(rec, &im, &why) != 0)
		return fail(p, PMR_ECORRUPT, "bad IMAGE record: %s", why);
	if ((ni = realloc(p->img, (p->nimg + 1) * sizeof(*ni))) == NULL)
		return fail(p, PMR_ENOMEM, "out of memory");
	p->img = ni;
	ni += p->nimg;
	memset(ni, 0, sizeof(*ni));
	ni->start = im.start;
	ni->size = im.size;
	ni->offset = im.offset;
	if ((ni->path = strndup((const char *)im.path.p, im.path.n)) == NULL)
		return fail(p, PMR_ENOMEM, "out of memory");
	if (im.build_id.n <= sizeof(ni->bid)) {
		memcpy(ni->bid, im.build_id.p, im.build_id.n);
		ni->nbid = im.build_id.n;
	}
	p->info.nimg = ++p->nimg;
	if (p->o.proc != NULL && !p->proc_found) {
		uint64_t lo, hi;

		ni->st_tried = 1;
		if (pmr_symtab_load(ni->path, p->o.sysroot, ni->start,
		    ni->size, ni->offset, ni->bid, ni->nbid, &ni->st) ==
		    PMR_ENOMEM)
			return fail(p, PMR_ENOMEM, "out of memory");
		if (ni->st != NULL &&
		    pmr_symtab_range(ni->st, p->o.proc, &lo, &hi)) {
			p->o.pc_lo = lo;
			p->o.pc_hi = hi - 1;
			p->proc_found = 1;
		}
	}
	return 0;		/* also passed through */
}

/* Reads one METRIC record (a shard's accumulators) into p. */
static int
add_metric(struct pmr_pairs *p, const struct pmr_rec *rec)
{
	struct pmr_pairs_metric_rec m;
	const char *why;
	uint64_t *a, g[G_N];
	unsigned i, n;
	int rc;

	if (pmr_rec_decode(rec, &m, &why) != 0)
		return fail(p, PMR_ECORRUPT, "bad METRIC record: %s", why);
	if (m.kind == PMR_PAIRS_MK_GLOBAL) {
		memset(g, 0, sizeof(g));
		n = m.acc.n < G_N ? m.acc.n : G_N;
		for (i = 0; i < n; i++)
			g[i] = pmr_a64_get(m.acc, i);
		if (g[G_MODE] != 0 && (rc = set_mode(p, (int)g[G_MODE])) != 0)
			return rc;
		if ((p->info.S != 0 && g[G_S] != 0 && p->info.S != g[G_S]) ||
		    (p->meta_w != 0 && g[G_W] != 0 && p->meta_w != g[G_W]))
			return fail(p, PMR_ECORRUPT, "mismatched shards: S or "
			    "W of METRIC records differ");
		if (g[G_S] != 0) {
			p->info.S = g[G_S];
			p->have_s = 1;
		}
		if (g[G_W] != 0)
			p->meta_w = (uint32_t)g[G_W];
		if (g[G_DELTA] != 0 && p->o.delta == 0)
			p->delta = (uint32_t)g[G_DELTA];
		if (g[G_TDELTA] != 0 && (rc = set_tdelta(p,
		    (uint32_t)g[G_TDELTA])) != 0)
			return rc;
		if (g[G_C] != 0)
			p->meta_c = (uint32_t)g[G_C];
		p->info.fetched += g[G_FETCHED];
		p->info.nstats += g[G_NSTATS];
		p->info.samples += g[G_SAMPLES];
		p->info.pairs += g[G_PAIRS];
		p->info.other += g[G_OTHER];
		p->info.offpath += g[G_OFFPATH];
		p->info.empty += g[G_EMPTY];
		add_win(p, g[G_WLEN], g[G_WN], g[G_WZERO], g[G_WSUM], g[G_WSQ],
		    g[G_WCUBE], g[G_WMAX], g[G_WMIN]);
		return 1;
	}
	if (m.kind == PMR_PAIRS_MK_PROF) {
		uint64_t tag, b;

		if (m.acc.n < 3)
			return fail(p, PMR_ECORRUPT, "bad METRIC record: "
			    "profile count without tag, key and count");
		tag = pmr_a64_get(m.acc, 0);
		b = pmr_a64_get(m.acc, 1);
		if (tag > UINT32_MAX || (tag & 0xff) < P_MISS ||
		    (tag & 0xff) > P_ATRUTH)
			return fail(p, PMR_ECORRUPT, "bad METRIC record: "
			    "unknown profile tag %" PRIu64, tag);
		if (!keep(p, (tag & 0xff) == P_MISS ||
		    (tag & 0xff) == P_ATRUTH ? b : m.key))
			return 1;
		if (padd3(p, (uint32_t)tag, m.key, b, m.acc.n > 3 ?
		    pmr_a64_get(m.acc, 3) : 0, pmr_a64_get(m.acc, 2)) != 0)
			return fail(p, PMR_ENOMEM, "out of memory");
		if ((tag & 0xff) == P_ATRUTH) {
			uint64_t by = m.acc.n > 3 ? pmr_a64_get(m.acc, 3) : 0;

			if (by == 0 || by > UINT32_MAX || (by & (by - 1)) != 0)
				return fail(p, PMR_ECORRUPT, "bad METRIC "
				    "record: address truth with a line of %"
				    PRIu64 " bytes", by);
			p->info.natruth++;
			if (by > p->info.abytes)
				p->info.abytes = (uint32_t)by;
		}
		return 1;
	}
	if (m.kind != PMR_PAIRS_MK_PC)
		return 0;
	if (p->o.by_context)
		return fail(p, PMR_EINVAL, "METRIC records are per pc: they "
		    "have no contexts");
	if (m.acc.n > A_N)
		return fail(p, PMR_EVERSION, "METRIC record with %u "
		    "accumulators, more than the %u known", m.acc.n,
		    (unsigned)A_N);
	if (!keep(p, m.key))
		return 1;
	if ((a = lookup(p, m.key, m.cls)) == NULL)
		return fail(p, PMR_ENOMEM, "out of memory");
	for (i = 0; i < m.acc.n; i++)
		a[i] += pmr_a64_get(m.acc, i);
	if (m.acc.n > A_T + T_COUNT)
		p->info.ntruth += pmr_a64_get(m.acc, A_T + T_COUNT);
	return 1;
}

int
pmr_pairs_add(struct pmr_pairs *p, const struct pmr_rec *rec)
{
	const char *why;
	int rc;

	switch (rec->type) {
	case PMR_REC_SAMPLE: {
		struct pmr_sim_sample x;
		int64_t l;

		char buf[96];

		if (pmr_rec_decode(rec, &x, &why) != 0 ||
		    (why = sample_bad(&x, buf, sizeof(buf))) != NULL)
			return fail(p, PMR_ECORRUPT, "bad SAMPLE record: %s",
			    why);
		if (x.sampler != 0) {
			p->info.other++;
			return 1;
		}
		if ((rc = set_mode(p, PMR_PAIRS_SINGLE)) != 0)
			return rc;
		p->info.samples++;
		if (x.kind == PMR_SIM_KIND_OFFPATH) {
			p->info.offpath++;
			return 1;
		}
		if (x.kind == PMR_SIM_KIND_EMPTY) {
			p->info.empty++;
			return 1;
		}
		if (!keep(p, x.pc) || !cond(p, &x))
			return 1;
		l = inprog(p, &x);
		if (add_sample(p, &x, l) == NULL || (p->o.keep_paths &&
		    keep_psamp(p, &x, NULL, 0) != 0))
			return fail(p, PMR_ENOMEM, "out of memory");
		return 1;
	}
	case PMR_REC_PAIR: {
		struct pmr_sim_pair q;

		char buf[96];

		if (pmr_rec_decode(rec, &q, &why) != 0 ||
		    (why = sample_bad(&q.a, buf, sizeof(buf))) != NULL ||
		    (why = sample_bad(&q.b, buf, sizeof(buf))) != NULL)
			return fail(p, PMR_ECORRUPT, "bad PAIR record: %s",
			    why);
		if ((rc = set_mode(p, PMR_PAIRS_PAIRED)) != 0)
			return rc;
		p->info.pairs++;
		p->info.offpath += (q.a.kind == PMR_SIM_KIND_OFFPATH) +
		    (q.b.kind == PMR_SIM_KIND_OFFPATH);
		p->info.empty += (q.a.kind == PMR_SIM_KIND_EMPTY) +
		    (q.b.kind == PMR_SIM_KIND_EMPTY);
		if (p->o.boot > 0)
			boot_draw(p);
		if ((rc = add_member_boot(p, &q.a, 0, &q.b, q.fetch_lat, 1,
		    q.dist)) != 0)
			return rc;
		if ((rc = add_member_boot(p, &q.b, q.fetch_lat, &q.a, 0, 0,
		    q.dist)) != 0)
			return rc;
		return 1;
	}
	case PMR_REC_TRUTH:
		return add_truth(p, rec);
	case PMR_REC_ATRUTH: {
		struct pmr_sim_atruth a;

		if (pmr_rec_decode(rec, &a, &why) != 0)
			return fail(p, PMR_ECORRUPT, "bad ATRUTH record: %s",
			    why);
		if (a.bytes == 0 || (a.bytes & (a.bytes - 1)) != 0 ||
		    (a.line & (a.bytes - 1)) != 0)
			return fail(p, PMR_ECORRUPT, "bad ATRUTH record: line "
			    "0x%" PRIx64 " of %" PRIu32 " bytes", a.line,
			    a.bytes);
		/* exact only without event conditions (as TRUTH) */
		if (!keep(p, a.pc) || p->o.if_set != 0 || p->o.if_clear != 0)
			return 1;
		if (padd3(p, P_ATRUTH, a.line, a.pc, a.bytes, a.misses) != 0)
			return fail(p, PMR_ENOMEM, "out of memory");
		p->info.natruth++;
		if (a.bytes > p->info.abytes)
			p->info.abytes = a.bytes;
		return 1;
	}
	case PMR_REC_STATS: {
		struct pmr_sim_stats st;

		if (pmr_rec_decode(rec, &st, &why) != 0)
			return fail(p, PMR_ECORRUPT, "bad STATS record: %s",
			    why);
		if (st.final) {
			add_win(p, st.win_len, st.win_n, st.win_zero,
			    st.win_sum, st.win_sumsq, st.win_sumcube,
			    st.win_max, st.win_min);
			p->info.fetched += st.fetched;
			p->info.warmup += st.warmup;
			p->info.retired += st.retired;
			p->info.nstats++;
		}
		return 1;
	}
	case PMR_REC_META:
		return (rc = add_meta(p, rec)) < 0 ? rc : 0;
	case PMR_REC_IMAGE:
		return add_image(p, rec);
	case PMR_REC_METRIC:
		return add_metric(p, rec);
	default:
		return 0;
	}
}

/* Returns the floor of the lowest histogram bucket of latency j in a. */
static double
lat_floor(const uint64_t *a, int j)
{
	unsigned b;

	for (b = 0; b < PMR_PAIRS_NB; b++)
		if (a[A_H + j * PMR_PAIRS_NB + b] != 0)
			return (double)pmr_pairs_bucket_lo(b);
	return 0;
}

/*
 * Sums the accumulators of the pcs per operation class, and of all pcs,
 * for the intervals of pmr_pairs_eval(): the spread of a latency within the
 * pcs of a class and the typical size of a member's contribution stand in
 * for what a pc's few samples cannot show (a rare long latency, a partner
 * that was never useful).  Returns 0 or PMR_ENOMEM.
 */
static int
pool_sums(struct pmr_pairs *p)
{
	size_t i;
	int c, j, k;

	free(p->pool);
	if ((p->pool = calloc((size_t)NPOOL * A_N, sizeof(double))) == NULL)
		return fail(p, PMR_ENOMEM, "out of memory");
	memset(p->wss, 0, sizeof(p->wss));
	memset(p->wdf, 0, sizeof(p->wdf));
	memset(p->ex1, 0, sizeof(p->ex1));
	memset(p->ex2, 0, sizeof(p->ex2));
	for (i = 0; i < p->nent; i++) {
		const uint64_t *a = p->acc + p->ent[i].acc;
		int cls[2];

		cls[0] = p->ent[i].cls < PMR_OP_NCLASS ? p->ent[i].cls :
		    NPOOL - 1;
		cls[1] = NPOOL - 1;
		for (c = 0; c < 2 && (c == 0 || cls[0] != cls[1]); c++) {
			double *d = p->pool + (size_t)cls[c] * A_N;

			for (k = 0; k < A_T; k++)
				d[k] += (double)a[k];
			for (k = A_LOC; k < A_N; k++)
				d[k] += (double)a[k];
			for (j = 0; j < PMR_PAIRS_NLAT; j++) {
				double n = (double)a[A_LN + j], sx, ss, m;

				if (n < 2)
					continue;
				sx = (double)a[A_LS + j];
				ss = (double)a[A_LQ + j] - sx * sx / n;
				p->wss[cls[c]][j] += ss > 0 ? ss : 0;
				p->wdf[cls[c]][j] += n - 1;
				m = lat_floor(a, j);
				p->ex1[cls[c]][j] += sx - n * m;
				p->ex2[cls[c]][j] += (double)a[A_LQ + j] -
				    2 * m * sx + n * m * m;
			}
		}
	}
	return 0;
}

int
pmr_pairs_finish(struct pmr_pairs *p)
{
	struct pmr_pairs_info *in = &p->info;
	uint64_t n;

	if (in->mode == PMR_PAIRS_UNKNOWN)
		return fail(p, PMR_ECORRUPT, "no SAMPLE or PAIR records");
	if (p->o.proc != NULL && !p->proc_found)
		return fail(p, PMR_EINVAL, "no procedure '%s' in the symbols "
		    "of the %s", p->o.proc, p->nimg ? "IMAGE records' files" :
		    "input (it has no IMAGE records)");
	n = in->mode == PMR_PAIRS_PAIRED ? in->pairs : in->samples;
	if (n == 0)
		return fail(p, PMR_ECORRUPT, "no %s records",
		    in->mode == PMR_PAIRS_PAIRED ? "PAIR" : "SAMPLE");
	in->W = p->o.window ? p->o.window : p->meta_w;
	in->C = p->o.width ? p->o.width : p->meta_c;
	if (in->mode == PMR_PAIRS_PAIRED && in->W == 0)
		return fail(p, PMR_ECORRUPT, "PAIR records without a pair "
		    "window: META profileme has no W (give --window)");
	if (in->C == 0)
		in->C = 4;
	if (!p->o.nominal && in->nstats > 0 && in->fetched > 0)
		in->S_eff = (double)in->fetched / (double)n;
	else if (in->S != 0)
		in->S_eff = (double)in->S;
	else
		return fail(p, PMR_ECORRUPT, "no sampling interval: neither "
		    "META profileme nor a final STATS record");
	in->s = in->mode == PMR_PAIRS_PAIRED ? in->S_eff / 2 : in->S_eff;
	in->z = pmr_pairs_zquantile(p->o.confidence);
	in->delta = p->delta;
	in->tdelta = p->tdelta;
	return pool_sums(p);
}

/* --- statistics ------------------------------------------------------ */

/* Acklam's rational approximation of the normal quantile (rel. err 1e-9). */
static double
qnorm(double q)
{
	static const double a[] = { -3.969683028665376e+01,
		2.209460984245205e+02, -2.759285104469687e+02,
		1.383577518672690e+02, -3.066479806614716e+01,
		2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01,
		1.615858368580409e+02, -1.556989798598866e+02,
		6.680131188771972e+01, -1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03,
		-3.223964580411365e-01, -2.400758277161838e+00,
		-2.549732539343734e+00, 4.374664141464968e+00,
		2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03,
		3.224671290700398e-01, 2.445134137142996e+00,
		3.754408661907416e+00 };
	double r, t;

	if (q < 0.02425) {
		t = sqrt(-2 * log(q));
		return (((((c[0] * t + c[1]) * t + c[2]) * t + c[3]) * t +
		    c[4]) * t + c[5]) /
		    ((((d[0] * t + d[1]) * t + d[2]) * t + d[3]) * t + 1);
	}
	if (q > 1 - 0.02425)
		return -qnorm(1 - q);
	t = q - 0.5;
	r = t * t;
	return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r +
	    a[5]) * t /
	    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

double
pmr_pairs_zquantile(double conf)
{
	return qnorm(0.5 + conf / 2);
}

/*
 * Two-sided t quantile by the Cornish-Fisher expansion in 1/df (Abramowitz
 * and Stegun 26.7.5); within 1% for df >= 3, exact enough for intervals.
 */
double
pmr_pairs_tquantile(double conf, double df)
{
	double z = pmr_pairs_zquantile(conf), z2 = z * z, z3 = z2 * z;
	double z5 = z3 * z2, z7 = z5 * z2, z9 = z7 * z2;

	if (df <= 1)
		return tan(M_PI * conf / 2);	/* Cauchy, exact */
	if (df <= 2)
		return conf * sqrt(2 / (1 - conf * conf));	/* exact */
	return z + (z3 + z) / (4 * df) +
	    (5 * z5 + 16 * z3 + 3 * z) / (96 * df * df) +
	    (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df * df * df) +
	    (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) /
	    (92160 * df * df * df * df);
}

void
pmr_pairs_wilson(uint64_t k, uint64_t n, double z, double *lo, double *hi)
{
	double ph, z2 = z * z, c, h, dn = (double)n;

	if (n == 0) {
		*lo = *hi = NAN;
		return;
	}
	ph = (double)k / dn;
	c = (ph + z2 / (2 * dn)) / (1 + z2 / dn);
	h = z / (1 + z2 / dn) * sqrt(ph * (1 - ph) / dn + z2 / (4 * dn * dn));
	/* the bounds at k = 0 and k = n are exact (no 1e-18 from rounding) */
	*lo = k == 0 || c - h < 0 ? 0 : c - h;
	*hi = k == n || c + h > 1 ? 1 : c + h;
}

/*
 * Sets *lo, *hi to the Wilson interval of k in n with Yates' continuity
 * correction (Newcombe 1998, method 4).
 */
static void
wilson_cc(uint64_t k, uint64_t n, double z, double *lo, double *hi)
{
	double dn = (double)n, p, z2 = z * z, d;

	if (n == 0) {
		*lo = *hi = NAN;
		return;
	}
	p = (double)k / dn;
	d = z2 - 2 - 1 / dn + 4 * p * (dn * (1 - p) + 1);
	*lo = k == 0 ? 0 : (2 * dn * p + z2 - 1 - z * sqrt(d > 0 ? d : 0)) /
	    (2 * (dn + z2));
	d = z2 + 2 - 1 / dn + 4 * p * (dn * (1 - p) - 1);
	*hi = k == n ? 1 : (2 * dn * p + z2 + 1 + z * sqrt(d > 0 ? d : 0)) /
	    (2 * (dn + z2));
	if (*lo < 0)
		*lo = 0;
	if (*hi > 1)
		*hi = 1;
}

/* The Poisson score interval of a count x, which need not be whole. */
static void
score_count(double x, double z, double *lo, double *hi)
{
	double z2 = z * z, h = z * sqrt(x + z2 / 4);

	*lo = x == 0 || x + z2 / 2 - h < 0 ? 0 : x + z2 / 2 - h;
	*hi = x + z2 / 2 + h;
}

void
pmr_pairs_poisson(uint64_t k, double z, double *lo, double *hi)
{
	score_count((double)k, z, lo, hi);
}

/* --- metrics --------------------------------------------------------- */

enum mtype {
	MT_COUNT,	/* s * k(a); truth t */
	MT_PROP,	/* k(a) / k(b); truth t / tb */
	MT_MEAN,	/* mean of latency j; truth sum / retired (or n_ld) */
	MT_PCTL,	/* percentile b of latency j, from the histogram */
	MT_SUM,		/* s * sum of latency j; truth sum */
	MT_INPROG,	/* s * sum l; truth inprog */
	MT_USEFUL,	/* W S (UF + UB), or one of them */
	MT_AVAIL,	/* C s L */
	MT_WASTED,	/* C s L - W S U */
	MT_WFRAC,	/* 1 - 2 W U / (C L) */
	MT_URATE,	/* 2 W U / L */
	MT_CONC,	/* 2 W G / L for G = gf or gu */
	MT_PEREX,	/* 2 W G / k for a 0/1 g, k samples (or retired) */
	MT_LIPC,	/* local IPC (2 W G / k(ret) + 1) / (2 delta + 1) */
	MT_OCC		/* 2 W G / L_t, as MT_CONC (--occupancy) */
};

/* Virtual counts (negative codes) built from several accumulators. */
enum {
	V_ABORT = -1,	/* samples - retired */
	V_ABMISP = -2,	/* trap 1 + trap 2 */
	V_ABOTHER = -3,	/* aborted for another reason */
	V_FALL = -4,	/* retired, not taken */
	V_NONE = -100
};
/* Virtual truth values. */
enum {
	VT_MISP = -1,	/* br_misp + jmp_misp */
	VT_FALL = -2,	/* retired - taken */
	VT_LTOT = -3,	/* sum of the five stage sums */
	VT_AVAIL = -4,	/* C * inprog */
	VT_LOCAL = -5,	/* local / retired (per retired execution) */
	VT_LIPC = -6,	/* (local / retired + 1) / (2 delta + 1) */
	VT_NONE = -100
};

struct metric {
	const char *name;
	enum mtype type;
	int a, b;		/* accumulators, virtual codes, lat j, ... */
	int t, tb;		/* truth fields (offsets from A_T) or VT_* */
	const char *fmt;
	const char *desc;
};

#define EVC(nm, bit, tf, d) \
	{ nm, MT_COUNT, A_EVR + bit, 0, tf, VT_NONE, "%.0f", d }
#define EVP(nm, bit, tf, d) \
	{ nm, MT_PROP, A_EVR + bit, A_KRET, tf, T_RETIRED, "%.4f", d }
#define LATM(nm, j, t, tb) \
	{ "lat_" nm, MT_MEAN, j, 0, t, tb, "%.2f", \
	    "mean " nm " latency of retired executions" }, \
	{ "lat_" nm "_p50", MT_PCTL, j, 50, VT_NONE, VT_NONE, "%.0f", \
	    "median " nm " latency (histogram bucket floor)" }, \
	{ "lat_" nm "_p90", MT_PCTL, j, 90, VT_NONE, VT_NONE, "%.0f", \
	    "90th percentile " nm " latency (bucket floor)" }, \
	{ "cyc_" nm, MT_SUM, j, 0, t, VT_NONE, "%.0f", \
	    "total " nm " cycles of retired executions" }

static const struct metric metrics[] = {
	{ "execs", MT_COUNT, A_K, 0, T_FETCHED, VT_NONE, "%.0f",
	    "executions (fetches, bad path included)" },
	{ "retires", MT_COUNT, A_KRET, 0, T_RETIRED, VT_NONE, "%.0f",
	    "retired executions" },
	{ "aborts", MT_COUNT, V_ABORT, 0, T_ABORTED, VT_NONE, "%.0f",
	    "aborted executions" },
	{ "ab_misp", MT_COUNT, V_ABMISP, 0, T_AB_MISP, VT_NONE, "%.0f",
	    "aborts behind a mispredicted branch or jump (traps 1, 2)" },
	{ "ab_br", MT_COUNT, A_TRAP + 1, 0, VT_NONE, VT_NONE, "%.0f",
	    "aborts behind a mispredicted conditional branch (trap 1)" },
	{ "ab_jmp", MT_COUNT, A_TRAP + 2, 0, VT_NONE, VT_NONE, "%.0f",
	    "aborts behind a mispredicted jump, call or return (trap 2)" },
	{ "ab_other", MT_COUNT, V_ABOTHER, 0, T_AB_OTHER, VT_NONE, "%.0f",
	    "aborts for another reason (traps 3-7)" },
	{ "ret_rate", MT_PROP, A_KRET, A_K, T_RETIRED, T_FETCHED, "%.4f",
	    "retires per execution" },
	{ "abort_rate", MT_PROP, V_ABORT, A_K, T_ABORTED, T_FETCHED, "%.4f",
	    "aborts per execution" },
	EVC("icache_miss", 0, T_ICM, "retired executions with an I-cache miss"),
	EVC("itlb_miss", 1, T_ITLB, "retired executions with an ITLB miss"),
	EVC("dcache_miss", 2, T_DCM, "retired executions with a D-cache miss"),
	EVC("dtlb_miss", 3, T_DTLB, "retired executions with a DTLB miss"),
	EVC("llc_miss", 4, T_L2, "retired executions whose data came from "
	    "memory (L2_MISS)"),
	EVC("taken", 5, T_TAKEN, "retired taken transfers (CFG taken edge)"),
	{ "fallthru", MT_COUNT, V_FALL, 0, VT_FALL, VT_NONE, "%.0f",
	    "retired executions not taken (CFG fall-through edge)" },
	EVC("br_misp", 6, T_BRM, "retired conditional branches "
	    "mispredicted"),
	EVC("jmp_misp", 7, T_JMPM, "retired transfers with a wrong target"),
	{ "map_stall", MT_COUNT, A_MAPR, 0, T_MAP, VT_NONE, "%.0f",
	    "retired executions that stalled map (any reason)" },
	EVC("fu_conflict", 11, T_FU, "retired executions that waited for a "
	    "unit"),
	EVC("forward", 17, T_FWD, "retired loads fed by a store"),
	EVC("mshr_full", 18, VT_NONE, "retired loads that waited for an "
	    "MSHR"),
	EVC("btb_miss", 19, VT_NONE, "retired taken transfers missing in "
	    "the BTB"),
	{ "bad_path", MT_COUNT, A_EV + 16, 0, VT_NONE, VT_NONE, "%.0f",
	    "executions fetched on a wrong path" },
	EVP("icache_rate", 0, T_ICM, "I-cache misses per retired execution"),
	EVP("dcache_rate", 2, T_DCM, "D-cache misses per retired execution"),
	EVP("dtlb_rate", 3, T_DTLB, "DTLB misses per retired execution"),
	EVP("taken_rate", 5, T_TAKEN, "taken per retired execution"),
	{ "misp_rate", MT_PROP, A_MISPR, A_KRET, VT_MISP, T_RETIRED, "%.4f",
	    "mispredicts per retired execution (of a branch)" },
	LATM("fm", PMR_PAIRS_LAT_FM, T_SUM + 0, T_RETIRED),
	LATM("md", PMR_PAIRS_LAT_MD, T_SUM + 1, T_RETIRED),
	LATM("dx", PMR_PAIRS_LAT_DX, T_SUM + 2, T_RETIRED),
	LATM("xr", PMR_PAIRS_LAT_XR, T_SUM + 3, T_RETIRED),
	LATM("rr", PMR_PAIRS_LAT_RR, T_SUM + 4, T_RETIRED),
	LATM("ld", PMR_PAIRS_LAT_LD, T_SUM + 5, T_N_LD),
	LATM("total", PMR_PAIRS_LAT_TOTAL, VT_LTOT, T_RETIRED),
	{ "inprog", MT_INPROG, 0, 0, T_INPROG, VT_NONE, "%.0f",
	    "in-progress cycles, fetch to retire-ready or abort (L S/2)" },
	{ "useful", MT_USEFUL, 2, 0, T_USEFUL, VT_NONE, "%.0f",
	    "useful issues while in progress (U W S)" },
	{ "useful_fwd", MT_USEFUL, 0, 0, VT_NONE, VT_NONE, "%.0f",
	    "useful issues of later instructions (U^F W S)" },
	{ "useful_bwd", MT_USEFUL, 1, 0, VT_NONE, VT_NONE, "%.0f",
	    "useful issues of earlier instructions (U^B W S)" },
	{ "avail", MT_AVAIL, 0, 0, VT_AVAIL, VT_NONE, "%.0f",
	    "issue slots while in progress (C L S/2)" },
	{ "wasted", MT_WASTED, 0, 0, T_WASTED, VT_NONE, "%.0f",
	    "wasted issue slots (C L S/2 - U W S)" },
	{ "wasted_frac", MT_WFRAC, 0, 0, T_WASTED, VT_AVAIL, "%.4f",
	    "wasted fraction of the issue slots (1 - 2 W U / (C L))" },
	{ "useful_rate", MT_URATE, 0, 0, T_USEFUL, T_INPROG, "%.3f",
	    "useful issues per in-progress cycle (2 W U / L)" },
	{ "inflight", MT_CONC, A_GF, 0, T_INFL, T_INPROG, "%.2f",
	    "mean instructions in flight while in progress (2 W G / L)" },
	{ "useful_conc", MT_CONC, A_GU, 0, T_INFLR, T_INPROG, "%.2f",
	    "mean eventually-retiring instructions in flight (2 W G / L)" },
	{ "local", MT_PEREX, A_LOC, A_KRET, VT_LOCAL, VT_NONE, "%.2f",
	    "others retired within +-delta cycles, per retired execution "
	    "(2 W G / k(ret))" },
	{ "local_ipc", MT_LIPC, A_LOC, A_KRET, VT_LIPC, VT_NONE, "%.3f",
	    "local IPC around retires, (local + 1) / (2 delta + 1)" },
	{ "ret_inflight", MT_PEREX, A_RIF, A_K, VT_NONE, VT_NONE, "%.2f",
	    "others retired while in flight, per execution (2 W G / k)" },
	{ "issued", MT_PEREX, A_ISS, A_K, VT_NONE, VT_NONE, "%.2f",
	    "others issued while in progress, retiring or not, per "
	    "execution (2 W G / k)" },
	{ "occ_fm_fm", MT_OCC, A_OCC + 0, 0, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage fm while this is in stage fm" },
	{ "occ_fm_md", MT_OCC, A_OCC + 1, 1, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage fm while this is in stage md" },
	{ "occ_fm_dx", MT_OCC, A_OCC + 2, 2, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage fm while this is in stage dx" },
	{ "occ_fm_xr", MT_OCC, A_OCC + 3, 3, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage fm while this is in stage xr" },
	{ "occ_fm_rr", MT_OCC, A_OCC + 4, 4, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage fm while this is in stage rr" },
	{ "occ_md_fm", MT_OCC, A_OCC + 5, 0, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage md while this is in stage fm" },
	{ "occ_md_md", MT_OCC, A_OCC + 6, 1, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage md while this is in stage md" },
	{ "occ_md_dx", MT_OCC, A_OCC + 7, 2, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage md while this is in stage dx" },
	{ "occ_md_xr", MT_OCC, A_OCC + 8, 3, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage md while this is in stage xr" },
	{ "occ_md_rr", MT_OCC, A_OCC + 9, 4, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage md while this is in stage rr" },
	{ "occ_dx_fm", MT_OCC, A_OCC + 10, 0, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage dx while this is in stage fm" },
	{ "occ_dx_md", MT_OCC, A_OCC + 11, 1, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage dx while this is in stage md" },
	{ "occ_dx_dx", MT_OCC, A_OCC + 12, 2, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage dx while this is in stage dx" },
	{ "occ_dx_xr", MT_OCC, A_OCC + 13, 3, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage dx while this is in stage xr" },
	{ "occ_dx_rr", MT_OCC, A_OCC + 14, 4, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage dx while this is in stage rr" },
	{ "occ_xr_fm", MT_OCC, A_OCC + 15, 0, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage xr while this is in stage fm" },
	{ "occ_xr_md", MT_OCC, A_OCC + 16, 1, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage xr while this is in stage md" },
	{ "occ_xr_dx", MT_OCC, A_OCC + 17, 2, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage xr while this is in stage dx" },
	{ "occ_xr_xr", MT_OCC, A_OCC + 18, 3, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage xr while this is in stage xr" },
	{ "occ_xr_rr", MT_OCC, A_OCC + 19, 4, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage xr while this is in stage rr" },
	{ "occ_rr_fm", MT_OCC, A_OCC + 20, 0, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage rr while this is in stage fm" },
	{ "occ_rr_md", MT_OCC, A_OCC + 21, 1, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage rr while this is in stage md" },
	{ "occ_rr_dx", MT_OCC, A_OCC + 22, 2, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage rr while this is in stage dx" },
	{ "occ_rr_xr", MT_OCC, A_OCC + 23, 3, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage rr while this is in stage xr" },
	{ "occ_rr_rr", MT_OCC, A_OCC + 24, 4, VT_NONE, VT_NONE, "%.2f",
	    "mean others in stage rr while this is in stage rr" },
	{ "fu_int_fm", MT_OCC, A_FU + 0, 0, VT_NONE, VT_NONE, "%.2f",
	    "mean int-unit ops executing while this is in stage fm" },
	{ "fu_int_md", MT_OCC, A_FU + 1, 1, VT_NONE, VT_NONE, "%.2f",
	    "mean int-unit ops executing while this is in stage md" },
	{ "fu_int_dx", MT_OCC, A_FU + 2, 2, VT_NONE, VT_NONE, "%.2f",
	    "mean int-unit ops executing while this is in stage dx" },
	{ "fu_int_xr", MT_OCC, A_FU + 3, 3, VT_NONE, VT_NONE, "%.2f",
	    "mean int-unit ops executing while this is in stage xr" },
	{ "fu_int_rr", MT_OCC, A_FU + 4, 4, VT_NONE, VT_NONE, "%.2f",
	    "mean int-unit ops executing while this is in stage rr" },
	{ "fu_mul_fm", MT_OCC, A_FU + 5, 0, VT_NONE, VT_NONE, "%.2f",
	    "mean mul-unit ops executing while this is in stage fm" },
	{ "fu_mul_md", MT_OCC, A_FU + 6, 1, VT_NONE, VT_NONE, "%.2f",
	    "mean mul-unit ops executing while this is in stage md" },
	{ "fu_mul_dx", MT_OCC, A_FU + 7, 2, VT_NONE, VT_NONE, "%.2f",
	    "mean mul-unit ops executing while this is in stage dx" },
	{ "fu_mul_xr", MT_OCC, A_FU + 8, 3, VT_NONE, VT_NONE, "%.2f",
	    "mean mul-unit ops executing while this is in stage xr" },
	{ "fu_mul_rr", MT_OCC, A_FU + 9, 4, VT_NONE, VT_NONE, "%.2f",
	    "mean mul-unit ops executing while this is in stage rr" },
	{ "fu_fp_fm", MT_OCC, A_FU + 10, 0, VT_NONE, VT_NONE, "%.2f",
	    "mean fp-unit ops executing while this is in stage fm" },
	{ "fu_fp_md", MT_OCC, A_FU + 11, 1, VT_NONE, VT_NONE, "%.2f",
	    "mean fp-unit ops executing while this is in stage md" },
	{ "fu_fp_dx", MT_OCC, A_FU + 12, 2, VT_NONE, VT_NONE, "%.2f",
	    "mean fp-unit ops executing while this is in stage dx" },
	{ "fu_fp_xr", MT_OCC, A_FU + 13, 3, VT_NONE, VT_NONE, "%.2f",
	    "mean fp-unit ops executing while this is in stage xr" },
	{ "fu_fp_rr", MT_OCC, A_FU + 14, 4, VT_NONE, VT_NONE, "%.2f",
	    "mean fp-unit ops executing while this is in stage rr" },
	{ "fu_mem_fm", MT_OCC, A_FU + 15, 0, VT_NONE, VT_NONE, "%.2f",
	    "mean mem-unit ops executing while this is in stage fm" },
	{ "fu_mem_md", MT_OCC, A_FU + 16, 1, VT_NONE, VT_NONE, "%.2f",
	    "mean mem-unit ops executing while this is in stage md" },
	{ "fu_mem_dx", MT_OCC, A_FU + 17, 2, VT_NONE, VT_NONE, "%.2f",
	    "mean mem-unit ops executing while this is in stage dx" },
	{ "fu_mem_xr", MT_OCC, A_FU + 18, 3, VT_NONE, VT_NONE, "%.2f",
	    "mean mem-unit ops executing while this is in stage xr" },
	{ "fu_mem_rr", MT_OCC, A_FU + 19, 4, VT_NONE, VT_NONE, "%.2f",
	    "mean mem-unit ops executing while this is in stage rr" },
	{ "fu_br_fm", MT_OCC, A_FU + 20, 0, VT_NONE, VT_NONE, "%.2f",
	    "mean br-unit ops executing while this is in stage fm" },
	{ "fu_br_md", MT_OCC, A_FU + 21, 1, VT_NONE, VT_NONE, "%.2f",
	    "mean br-unit ops executing while this is in stage md" },
	{ "fu_br_dx", MT_OCC, A_FU + 22, 2, VT_NONE, VT_NONE, "%.2f",
	    "mean br-unit ops executing while this is in stage dx" },
	{ "fu_br_xr", MT_OCC, A_FU + 23, 3, VT_NONE, VT_NONE, "%.2f",
	    "mean br-unit ops executing while this is in stage xr" },
	{ "fu_br_rr", MT_OCC, A_FU + 24, 4, VT_NONE, VT_NONE, "%.2f",
	    "mean br-unit ops executing while this is in stage rr" },
};

#define NMETRICS ((int)(sizeof(metrics) / sizeof(metrics[0])))

int
pmr_pairs_nmetrics(void)
{
	return NMETRICS;
}

int
pmr_pairs_metric_find(const char *name)
{
	int i;

	for (i = 0; i < NMETRICS; i++)
		if (strcmp(metrics[i].name, name) == 0)
			return i;
	return -1;
}

const char *
pmr_pairs_metric_name(int m)
{
	return metrics[m].name;
}

const char *
pmr_pairs_metric_desc(int m)
{
	return metrics[m].desc;
}

const char *
pmr_pairs_metric_fmt(int m)
{
	return metrics[m].fmt;
}

int
pmr_pairs_metric_paired(int m)
{
	return metrics[m].type >= MT_USEFUL;
}

int
pmr_pairs_metric_occ(int m)
{
	return metrics[m].type == MT_OCC;
}

static uint64_t
kval(const uint64_t *a, int code)
{
	switch (code) {
	case V_ABORT:
		return a[A_K] - a[A_KRET];
	case V_ABMISP:
		return a[A_TRAP + 1] + a[A_TRAP + 2];
	case V_ABOTHER:
		return a[A_K] - a[A_KRET] - a[A_TRAP + 1] - a[A_TRAP + 2];
	case V_FALL:
		return a[A_KRET] - a[A_EVR + 5];
	default:
		return a[code];
	}
}

static double
tval(const struct pmr_pairs *p, const uint64_t *a, int t)
{
	const uint64_t *d = a + A_T;
	unsigned i;
	double v = 0;

	if (t == VT_NONE || d[T_COUNT] == 0)
		return NAN;
	switch (t) {
	case VT_MISP:
		return (double)(d[T_BRM] + d[T_JMPM]);
	case VT_FALL:
		return (double)(d[T_RETIRED] - d[T_TAKEN]);
	case VT_LTOT:
		for (i = 0; i < 5; i++)
			v += (double)d[T_SUM + i];
		return v;
	case VT_AVAIL:
		return (double)p->info.C * (double)d[T_INPROG];
	case T_WASTED:
		return (double)(int64_t)d[T_WASTED];
	case VT_LOCAL:
	case VT_LIPC:
		if (d[T_RETIRED] == 0 || p->tdelta == 0 ||
		    p->tdelta != p->info.delta)
			return NAN;
		v = (double)d[T_LOCAL] / (double)d[T_RETIRED];
		return t == VT_LOCAL ? v : (v + 1) / (2.0 * p->tdelta + 1);
	default:
		return (double)d[t];
	}
}

/* Sets the interval est +- z sqrt(var). */
static void
normal_ci(struct pmr_pairs_val *v, double var, double z)
{
	double h = z * sqrt(var > 0 ? var : 0);

	v->lo = v->est - h;
	v->hi = v->est + h;
}

/*
 * Sets *lo, *hi to the interval of a ratio R = A / B of sums over the
 * members of a row, each adding a_i to A and b_i to B (Saa the sum of
 * a_i^2, Sab of a_i b_i, Sbb of b_i^2): the R whose score A - R B is
 * within z sqrt(V(R)) of 0, with V(R) = c R B - 2 R Sab + R^2 Sbb its
 * variance under R when the members are Poisson-sampled.  A is taken as c
 * times a Poisson count of mean R B / c, the variance it has under R, not
 * the Saa it happened to have: this is the score (Wilson) idea, which
 * keeps a row whose a_i all came out 0 from a zero width and gives the
 * interval the skew of a small count; with Saa for c R B it would be
 * Fieller's interval, and the delta method's est +- z se near R = A / B.
 * c, the size of one unit of A, is the row's own Saa / A, raised towards
 * cpool (that of all the rows of its class) when smaller, as for
 * mean_ci(), and cpool when A is 0.  Returns 0 and sets NaN when the set
 * is unbounded (B is not clear of 0 at this level: a few members hold
 * most of it), else 1.
 */
static int
ratio_ci(double A, double B, double Saa, double Sab, double Sbb,
    double cpool, double z, double *lo, double *hi)
{
	double z2 = z * z, c = cpool, qa, qb, qc, d, x;
	int side;

	*lo = *hi = NAN;
	if (A > 0)
		c = Saa / A < cpool ? sqrt(cpool * Saa / A) : Saa / A;
	qa = B * B - z2 * Sbb;
	if (B <= 0 || qa <= 0)
		return 0;
	for (side = 0; side < 2; side++) {
		/* continuity correction: A is moved half a unit (c / 2)
		 * towards each bound, or the score interval's lower side is
		 * short for the counts of 1 to 3 that most rows have */
		x = side == 0 ? (A > c / 2 ? A - c / 2 : 0) : A + c / 2;
		qb = 2 * x * B + z2 * (c * B - 2 * Sab);
		qc = x * x;
		/* qa R^2 - qb R + qc <= 0 */
		d = qb * qb - 4 * qa * qc;
		d = d > 0 ? sqrt(d) : 0;
		if (side == 0)
			*lo = (qb - d) / (2 * qa);
		else
			*hi = (qb + d) / (2 * qa);
	}
	if (*lo < 0)
		*lo = 0;
	return 1;
}

/*
 * Sets v's interval for a total est = scale X of member values x_i >= 0
 * (X their sum, X2 the sum of squares): est +- z scale sqrt(X2), joined
 * with scale c times the score interval of the count X / c, c the typical
 * size of a non-zero x (pooled), so that a row whose x all came out 0, or
 * that missed the rare large ones, still has an upper bound.
 */
static void
total_ci(struct pmr_pairs_val *v, double scale, double X, double X2, double c,
    double z)
{
	double l2, h2;

	normal_ci(v, scale * scale * X2, z);
	if (c > 0) {
		score_count(X / c, z, &l2, &h2);
		if (scale * c * l2 < v->lo)
			v->lo = scale * c * l2;
		if (scale * c * h2 > v->hi)
			v->hi = scale * c * h2;
	}
}

/* Returns the pool of row r: its operation class, or all pcs. */
static const double *
row_pool(const struct pmr_pairs *p, const struct pmr_pairs_row *r, int *cls)
{
	*cls = r->cls < PMR_OP_NCLASS ? r->cls : NPOOL - 1;
	return p->pool + (size_t)*cls * A_N;
}

/*
 * Returns the pooled ratio of sums pool[i2] / pool[i] (the mean of x^2 /
 * x: the typical size of a non-zero x), of the pool or, when its x are
 * all 0, of every pc; 0 when there is none.
 */
static double
pool_ratio(const struct pmr_pairs *p, const double *pool, int i2, int i)
{
	if (pool[i] <= 0)
		pool = p->pool + (size_t)(NPOOL - 1) * A_N;
	return pool[i] > 0 ? pool[i2] / pool[i] : 0;
}

/*
 * Sets v's interval for the mean of n latencies (sum sx, squares sxx) of
 * row a, of class cls.  Latencies are whole cycles, skewed to the right,
 * and a pc's few samples often miss the rare long ones of its kind (a
 * cache miss in a hundred), which a t interval cannot know of: it covered
 * 55-84% where the exact mean is known.  The interval is the union of
 *  - a t interval whose variance is the row's own shrunk towards the pooled
 *    within-pc variance s0^2 of its class, as if the class added NU0
 *    observations: ((n - 1) s^2 + NU0 s0^2) / (n - 1 + NU0), on n - 1 +
 *    NU0 degrees of freedom, and at least as wide as whole cycles allow:
 *    a mean f away from a whole number has a variance of at least f (1 -
 *    f), so n equal samples still leave f up to t^2 / (n + t^2);
 *  - m + c X / n with X the score interval of the count E / c, where m is
 *    the floor of the row's lowest histogram bucket, E the sum of the
 *    excesses x - m and c the size of a typical excess, E[e^2] / E[e]:
 *    the excess treated as c times a Poisson count, which gives the
 *    upper side the skew of the latencies.  c is the geometric mean of
 *    the row's own and its class's when the row's is the smaller (the
 *    row has not seen the long ones), the class's when the row has no
 *    excess at all.
 */
static void
mean_ci(const struct pmr_pairs *p, struct pmr_pairs_val *v, const uint64_t *a,
    int cls, int j, uint64_t n, double sx, double sxx)
{
	double dn = (double)n, ss = sxx - sx * sx / dn, s0, var, t, h;
	double m = lat_floor(a, j), e1 = sx - dn * m, c, lo, hi;

	if (p->wdf[cls][j] < 30)	/* too few of the class: all pcs */
		cls = NPOOL - 1;
	s0 = p->wdf[cls][j] > 0 ? p->wss[cls][j] / p->wdf[cls][j] : 0;
	var = ((ss > 0 ? ss : 0) + NU0 * s0) / (dn - 1 + NU0);
	t = pmr_pairs_tquantile(p->o.confidence, dn - 1 + NU0);
	h = t * sqrt(var / dn);
	if (h < t * t / (dn + t * t))
		h = t * t / (dn + t * t);
	v->lo = v->est - h;
	v->hi = v->est + h;
	c = p->ex1[cls][j] > 0 ? p->ex2[cls][j] / p->ex1[cls][j] : 0;
	if (e1 > 0) {
		double cr = (sxx - 2 * m * sx + dn * m * m) / e1;

		c = cr < c ? sqrt(c * cr) : cr;
	}
	if (c > 0) {
		score_count(e1 > 0 ? e1 / c : 0, p->info.z, &lo, &hi);
		if (m + c * lo / dn < v->lo)
			v->lo = m + c * lo / dn;
		if (m + c * hi / dn > v->hi)
			v->hi = m + c * hi / dn;
	}
}

/*
 * Sets v's interval for wasted = C s L - W S U, S (C l / 2 - W u) summed
 * over members, from the intervals of its two parts: avail = C s L as
 * total_ci() has it (c the pooled size of an l) and useful = W S U from
 * the score interval of the count U with a continuity correction, each
 * side of wasted taking the opposite sides of the parts, added in
 * quadrature less the covariance term z^2 S^2 C W sum u l.  The delta
 * method, est +- z S sqrt(C^2 / 4 sum l^2 - C W sum u l + W^2 U), covered
 * 88% at S = 64, its misses on the side of rows with few or no useful
 * partners, for which W S sqrt(U) is too small.
 */
static void
wasted_ci(struct pmr_pairs_val *v, double S, double C, double W, double L,
    double L2, double U, double UL, double c, double z)
{
	struct pmr_pairs_val av;
	double ulo, uhi, d, dl, dh, cv;

	av.est = C * S / 2 * L;
	total_ci(&av, C * S / 2, L, L2, c, z);
	score_count(U > 0.5 ? U - 0.5 : 0, z, &ulo, &d);
	score_count(U + 0.5, z, &d, &uhi);
	cv = z * z * S * S * C * W * UL;
	dl = av.est - av.lo;
	dh = W * S * (uhi - U);
	d = dl * dl + dh * dh - cv;
	v->lo = v->est - sqrt(d > 0 ? d : 0);
	dl = av.hi - av.est;
	dh = W * S * (U - ulo);
	d = dl * dl + dh * dh - cv;
	v->hi = v->est + sqrt(d > 0 ? d : 0);
}

/* Returns the component of accumulator acc in the bootstrap sums. */
static int
boot_comp(int acc)
{
	int i;

	for (i = 0; i < B_N; i++)
		if (boot_acc[i] == acc)
			return i;
	return 0;
}

/* Returns metric mt on one replicate's sums c, or NaN. */
static double
boot_est(const struct pmr_pairs *p, const struct metric *mt, const float *cf)
{
	const struct pmr_pairs_info *in = &p->info;
	double W = in->W, C = in->C, S = in->S_eff, s = in->s;
	double c[B_N], U, L, g, k;
	int i;

	for (i = 0; i < B_N; i++)
		c[i] = cf[i];
	U = c[B_UF] + c[B_UB];
	L = c[B_L];

	switch (mt->type) {
	case MT_USEFUL:
		return W * S * (mt->a == 0 ? c[B_UF] : mt->a == 1 ? c[B_UB] :
		    U);
	case MT_AVAIL:
		return C * s * L;
	case MT_WASTED:
		return C * s * L - W * S * U;
	case MT_WFRAC:
		return L > 0 ? 1 - 2 * W * U / (C * L) : NAN;
	case MT_URATE:
		return L > 0 ? 2 * W * U / L : NAN;
	case MT_CONC:
		return L > 0 ? 2 * W * c[boot_comp(mt->a)] / L : NAN;
	case MT_PEREX:
	case MT_LIPC:
		g = c[boot_comp(mt->a)];
		k = c[boot_comp(mt->b)];
		if (k <= 0)
			return NAN;
		g = 2 * W * g / k;
		return mt->type == MT_LIPC ? (g + 1) / (2.0 * in->delta + 1) :
		    g;
	default:
		return NAN;
	}
}

static int
cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/* Returns quantile q of the n sorted values e, interpolated. */
static double
quantile(const double *e, size_t n, double q)
{
	double h = q * (double)(n - 1);
	size_t i = (size_t)h;

	if (i + 1 >= n)
		return e[n - 1];
	return e[i] + (h - (double)i) * (e[i + 1] - e[i]);
}

/*
 * Sets v's interval to the percentile bootstrap interval of metric mt on
 * row r.  Returns 1, or 0 when the row has no replicates.
 */
static int
boot_ci(const struct pmr_pairs *p, const struct pmr_pairs_row *r,
    const struct metric *mt, struct pmr_pairs_val *v)
{
	double *e, a = (1 - p->o.confidence) / 2;
	size_t n = 0;
	uint32_t b;

	if (r->boot == NULL || mt->type < MT_USEFUL || mt->type == MT_OCC)
		return 0;
	if ((e = malloc(p->o.boot * sizeof(*e))) == NULL)
		return 0;
	for (b = 0; b < p->o.boot; b++) {
		double x = boot_est(p, mt, r->boot + (size_t)b * B_N);

		if (!isnan(x))
			e[n++] = x;
	}
	if (n > 0) {
		qsort(e, n, sizeof(*e), cmp_double);
		v->lo = quantile(e, n, a);
		v->hi = quantile(e, n, 1 - a);
	}
	free(e);
	return n > 0;
}

int
pmr_pairs_eval(const struct pmr_pairs *p, const struct pmr_pairs_row *row,
    int m, struct pmr_pairs_val *v)
{
	const struct metric *mt = &metrics[m];
	const struct pmr_pairs_info *in = &p->info;
	const uint64_t *a = row->acc;
	double s = in->s, z = in->z, W = in->W, C = in->C, S = in->S_eff;
	double L = (double)a[A_INP], L2 = (double)a[A_INP2], U, e, ex;
	const double *pool;
	uint64_t k, n, cum, want;
	unsigned b;
	int cls;

	pool = row_pool(p, row, &cls);
	v->est = v->lo = v->hi = v->exact = v->relerr = NAN;
	v->k = 0;
	v->count = 0;
	v->scale = NAN;
	if (mt->type >= MT_USEFUL && in->mode != PMR_PAIRS_PAIRED)
		return 0;
	U = (double)(a[A_UF] + a[A_UB]);
	switch (mt->type) {
	case MT_COUNT:
		k = kval(a, mt->a);
		v->k = k;
		v->count = 1;
		v->scale = s;
		v->est = s * (double)k;
		pmr_pairs_poisson(k, z, &v->lo, &v->hi);
		v->lo *= s;
		v->hi *= s;
		v->exact = tval(p, a, mt->t);
		break;
	case MT_PROP:
		k = kval(a, mt->a);
		n = kval(a, mt->b);
		v->k = n;
		if (n == 0)
			return 0;
		v->est = (double)k / (double)n;
		pmr_pairs_wilson(k, n, z, &v->lo, &v->hi);
		v->exact = tval(p, a, mt->t) / tval(p, a, mt->tb);
		break;
	case MT_MEAN:
		n = a[A_LN + mt->a];
		v->k = n;
		if (n == 0)
			return 0;
		v->est = (double)a[A_LS + mt->a] / (double)n;
		mean_ci(p, v, a, cls, mt->a, n, (double)a[A_LS + mt->a],
		    (double)a[A_LQ + mt->a]);
		v->exact = tval(p, a, mt->t) / tval(p, a, mt->tb);
		break;
	case MT_PCTL:
		n = a[A_LN + mt->a];
		v->k = n;
		if (n == 0)
			return 0;
		want = (n * (uint64_t)mt->b + 99) / 100;
		for (b = 0, cum = 0; b < PMR_PAIRS_NB; b++) {
			cum += a[A_H + mt->a * PMR_PAIRS_NB + b];
			if (cum >= want)
				break;
		}
		v->est = (double)pmr_pairs_bucket_lo(b);
		break;
	case MT_SUM:
		v->k = a[A_LN + mt->a];
		v->est = s * (double)a[A_LS + mt->a];
		total_ci(v, s, (double)a[A_LS + mt->a],
		    (double)a[A_LQ + mt->a], pool_ratio(p, pool, A_LQ + mt->a,
		    A_LS + mt->a), z);
		v->exact = tval(p, a, mt->t);
		break;
	case MT_INPROG:
		v->k = a[A_K];
		v->est = s * L;
		total_ci(v, s, L, L2, pool_ratio(p, pool, A_INP2, A_INP), z);
		v->exact = tval(p, a, mt->t);
		break;
	case MT_USEFUL:
		k = mt->a == 0 ? a[A_UF] : mt->a == 1 ? a[A_UB] :
		    a[A_UF] + a[A_UB];
		v->k = k;
		v->count = 1;
		v->scale = W * S;
		v->est = W * S * (double)k;
		pmr_pairs_poisson(k, z, &v->lo, &v->hi);
		v->lo *= W * S;
		v->hi *= W * S;
		v->exact = tval(p, a, mt->t);
		break;
	case MT_AVAIL:
		v->k = a[A_K];
		v->est = C * s * L;
		total_ci(v, C * s, L, L2, pool_ratio(p, pool, A_INP2, A_INP),
		    z);
		v->exact = tval(p, a, mt->t);
		break;
	case MT_WASTED:
		/* S * sum of (C l / 2 - W u) over member contributions */
		v->k = a[A_K];
		v->est = C * s * L - W * S * U;
		wasted_ci(v, S, C, W, L, L2, U, (double)a[A_UL], pool_ratio(p,
		    pool, A_INP2, A_INP), z);
		v->exact = tval(p, a, mt->t);
		break;
	case MT_WFRAC:
	case MT_URATE:
		v->k = a[A_K];
		if (L <= 0)
			return 0;
		/* a member adds a = 2 W u (u 0 or 1) and b = l */
		e = 2 * W * U / L;
		ratio_ci(2 * W * U, L, 4 * W * W * U, 2 * W * (double)a[A_UL],
		    L2, 2 * W, z, &v->lo, &ex);
		v->hi = ex;
		if (mt->type == MT_URATE) {
			v->est = e;
		} else {
			v->est = 1 - e / C;
			ex = v->lo;
			v->lo = 1 - v->hi / C;
			v->hi = 1 - ex / C;
		}
		v->exact = tval(p, a, mt->t) / tval(p, a, mt->tb);
		break;
	case MT_PEREX:
	case MT_LIPC:
		/* g is 0 or 1 and implies the member counts in k: G is a
		 * count of k trials */
		k = a[mt->a];
		n = a[mt->b];
		v->k = n;
		if (n == 0)
			return 0;
		/* g is 0 or 1 per member: a proportion of k, Wilson with a
		 * continuity correction (the plain one covered 94.8%, short
		 * below, on the bundled traces) */
		e = (double)k / (double)n;
		v->est = 2 * W * e;
		wilson_cc(k, n, z, &v->lo, &v->hi);
		v->lo *= 2 * W;
		v->hi *= 2 * W;
		if (mt->type == MT_LIPC) {
			double dd = 2.0 * in->delta + 1;

			v->est = (v->est + 1) / dd;
			v->lo = (v->lo + 1) / dd;
			v->hi = (v->hi + 1) / dd;
		}
		v->exact = tval(p, a, mt->t);
		break;
	case MT_OCC: {
		/* the sums of g^2 and g l_t sit at the same offset in the
		 * A_OCC2/A_OCCG or A_FU2/A_FUG blocks */
		int sq = mt->a < A_FU ? A_OCC2 + (mt->a - A_OCC) :
		    A_FU2 + (mt->a - A_FU);
		int gl = mt->a < A_FU ? A_OCCG + (mt->a - A_OCC) :
		    A_FUG + (mt->a - A_FU);
		double lt = (double)a[A_OCCL + mt->b];

		v->k = a[A_KRET];
		if (lt == 0)
			return 0;
		v->est = 2 * W * (double)a[mt->a] / lt;
		ratio_ci(2 * W * (double)a[mt->a], lt, 4 * W * W *
		    (double)a[sq], 2 * W * (double)a[gl], (double)a[A_OCCL2 +
		    mt->b], 2 * W * pool_ratio(p, pool, sq, mt->a), z, &v->lo,
		    &v->hi);
		break;
	}
	case MT_CONC:
		v->k = a[A_K];
		if (L <= 0)
			return 0;
		v->est = 2 * W * (double)a[mt->a] / L;
		/* a member adds a = 2 W g and b = l */
		ratio_ci(2 * W * (double)a[mt->a], L, 4 * W * W *
		    (double)a[mt->a + 1], 2 * W * (double)a[mt->a + 2], L2,
		    2 * W * pool_ratio(p, pool, mt->a + 1, mt->a), z, &v->lo,
		    &v->hi);
		v->exact = tval(p, a, mt->t) / tval(p, a, mt->tb);
		break;
	}
	if (p->o.boot > 0)
		boot_ci(p, row, mt, v);
	/* quantities that cannot be negative, or (WFRAC) exceed 1 */
	if (mt->type != MT_WASTED && mt->type != MT_WFRAC && v->lo < 0)
		v->lo = 0;
	if (mt->type == MT_WFRAC && v->hi > 1)
		v->hi = 1;
	if (!isnan(v->exact)) {
		if (v->exact != 0)
			v->relerr = v->est / v->exact - 1;
		else if (v->est == 0)
			v->relerr = 0;
	}
	return 1;
}

uint64_t
pmr_pairs_hist(const struct pmr_pairs_row *r, int lat,
    uint64_t counts[PMR_PAIRS_NB])
{
	unsigned b;

	for (b = 0; b < PMR_PAIRS_NB; b++)
		counts[b] = r->acc[A_H + lat * PMR_PAIRS_NB + b];
	return r->acc[A_LN + lat];
}

/* --- reports --------------------------------------------------------- */

static int
cmp_img(const void *x, const void *y)
{
	const struct image *a = x, *b = y;

	return a->start < b->start ? -1 : a->start > b->start;
}

/* Returns the image holding pc, or -1. */
static long
image_of(const struct pmr_pairs *p, uint64_t pc)
{
	size_t lo = 0, hi = p->nimg;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (pc < p->img[mid].start)
			hi = mid;
		else if (pc - p->img[mid].start >= p->img[mid].size)
			lo = mid + 1;
		else
			return (long)mid;
	}
	return -1;
}

/*
 * Adds the bootstrap sums of entry ent to grouped row r, number ri of
 * nr (p->rboot allocated on first use).  Returns 0 or PMR_ENOMEM.
 */
static int
boot_group(struct pmr_pairs *p, struct pmr_pairs_row *r, size_t ri, size_t nr,
    size_t ent)
{
	size_t n = (size_t)p->o.boot * B_N, j;
	const float *src;
	float *d;

	if (p->o.boot == 0 || p->ent[ent].boot == 0)
		return 0;
	if (p->rboot == NULL && (p->rboot = calloc(nr * n,
	    sizeof(float))) == NULL)
		return PMR_ENOMEM;
	src = p->bpool + (size_t)(p->ent[ent].boot - 1) * n;
	d = p->rboot + ri * n;
	for (j = 0; j < n; j++)
		d[j] += src[j];
	r->boot = d;
	return 0;
}

/* One pc of --by=proc with its group: image im (nimg: none), symbol lo. */
struct pgroup {
	size_t im;
	uint64_t lo;
	const char *sym;	/* NULL: the image itself */
	size_t ent;
};

static int
cmp_pgroup(const void *x, const void *y)
{
	const struct pgroup *a = x, *b = y;

	if (a->im != b->im)
		return a->im < b->im ? -1 : 1;
	if ((a->sym == NULL) != (b->sym == NULL))
		return a->sym == NULL ? -1 : 1;
	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

static int
name_add(struct pmr_pairs *p, const char *sym, const char *path, char **out)
{
	const char *base = strrchr(path, '/');
	char **nn;
	size_t len;

	base = base != NULL ? base + 1 : path;
	if ((nn = realloc(p->names, (p->nnames + 1) * sizeof(*nn))) == NULL)
		return PMR_ENOMEM;
	p->names = nn;
	len = strlen(sym) + strlen(base) + 4;
	if ((*out = malloc(len)) == NULL)
		return PMR_ENOMEM;
	snprintf(*out, len, "%s (%s)", sym, base);
	p->names[p->nnames++] = *out;
	return 0;
}

/* Builds the rows of --by=proc (images sorted, p->rows freed). */
static int
proc_rows(struct pmr_pairs *p, struct pmr_pairs_row **rows, size_t *n,
    const char **note)
{
	struct pgroup *g;
	size_t i, j, ng = 0, nr = 0;
	int rc;

	for (i = 0; i < p->nimg; i++) {
		struct image *im = &p->img[i];

		if (im->st_tried)
			continue;
		im->st_tried = 1;
		rc = pmr_symtab_load(im->path, p->o.sysroot, im->start,
		    im->size, im->offset, im->bid, im->nbid, &im->st);
		if (rc == PMR_ENOMEM)
			return rc;
		if (rc != 0 && *note == NULL) {
			snprintf(p->note, sizeof(p->note), "no symbols for "
			    "'%.200s'%s%.200s (%s): its pcs make one row",
			    im->path, p->o.sysroot != NULL ? " under " : "",
			    p->o.sysroot != NULL ? p->o.sysroot : "",
			    pmr_sym_strerror(rc));
			*note = p->note;
		}
	}
	if ((g = calloc(p->nent + 1, sizeof(*g))) == NULL)
		return PMR_ENOMEM;
	for (i = 0; i < p->nent; i++) {
		long im;

		if (p->acc[p->ent[i].acc + A_K] == 0)
			continue;
		g[ng].ent = i;
		im = image_of(p, p->ent[i].pc);
		g[ng].im = im < 0 ? p->nimg : (size_t)im;
		if (im >= 0 && p->img[im].st != NULL)
			g[ng].sym = pmr_symtab_find(p->img[im].st,
			    p->ent[i].pc, &g[ng].lo);
		ng++;
	}
	qsort(g, ng, sizeof(*g), cmp_pgroup);
	rc = PMR_ENOMEM;
	if ((p->rows = calloc(ng + 1, sizeof(*p->rows))) == NULL ||
	    (p->racc = calloc((ng + 1) * A_N, sizeof(uint64_t))) == NULL)
		goto out;
	for (i = 0; i < ng; i++) {
		struct pmr_pairs_row *r;
		const uint64_t *a = p->acc + p->ent[g[i].ent].acc;

		if (i == 0 || cmp_pgroup(&g[i - 1], &g[i]) != 0) {
			r = &p->rows[nr];
			r->acc = p->racc + nr * A_N;
			r->cls = 255;
			if (g[i].im == p->nimg) {
				r->name = "unknown";
			} else if (g[i].sym == NULL) {
				r->key = p->img[g[i].im].start;
				r->name = p->img[g[i].im].path;
			} else {
				char *nm;

				r->key = g[i].lo;
				if (name_add(p, g[i].sym, p->img[g[i].im].path,
				    &nm) != 0)
					goto out;
				r->name = nm;
			}
			nr++;
		}
		r = &p->rows[nr - 1];
		for (j = 0; j < A_N; j++)
			r->acc[j] += a[j];
		if (boot_group(p, r, nr - 1, ng + 1, g[i].ent) != 0)
			goto out;
	}
	*rows = p->rows;
	*n = nr;
	rc = 0;
out:
	free(g);
	return rc;
}

static int
cmp_row(const void *x, const void *y)
{
	const struct pmr_pairs_row *a = x, *b = y;

	return a->key < b->key ? -1 : a->key > b->key;
}

int
pmr_pairs_rows(struct pmr_pairs *p, enum pmr_pairs_by by,
    struct pmr_pairs_row **rows, size_t *n, const char **note)
{
	size_t i, j, nr;
	struct pmr_pairs_row *r;

	*note = NULL;
	free(p->rows);
	free(p->racc);
	free(p->rboot);
	p->rows = NULL;
	p->racc = NULL;
	p->rboot = NULL;
	for (i = 0; i < p->nnames; i++)
		free(p->names[i]);
	p->nnames = 0;
	*rows = NULL;
	*n = 0;
	if ((by == PMR_PAIRS_BY_IMAGE || by == PMR_PAIRS_BY_PROC) &&
	    p->nimg == 0) {
		*note = "no IMAGE records in the input: rows by pc";
		by = PMR_PAIRS_BY_PC;
	}
	if (by == PMR_PAIRS_BY_IMAGE || by == PMR_PAIRS_BY_PROC)
		qsort(p->img, p->nimg, sizeof(*p->img), cmp_img);
	if (by == PMR_PAIRS_BY_PROC)
		return proc_rows(p, rows, n, note);
	if (by == PMR_PAIRS_BY_PC || by == PMR_PAIRS_BY_CONTEXT) {
		if ((p->rows = calloc(p->nent + 1, sizeof(*r))) == NULL)
			return PMR_ENOMEM;
		for (i = nr = 0; i < p->nent; i++) {
			uint64_t *a = p->acc + p->ent[i].acc;

			if (a[A_K] == 0)
				continue;
			r = &p->rows[nr++];
			r->key = p->ent[i].pc;
			r->cls = p->ent[i].cls;
			r->acc = a;
			r->boot = p->ent[i].boot == 0 ? NULL : p->bpool +
			    (size_t)(p->ent[i].boot - 1) * p->o.boot * B_N;
		}
		qsort(p->rows, nr, sizeof(*r), cmp_row);
		*rows = p->rows;
		*n = nr;
		return 0;
	}
	nr = by == PMR_PAIRS_BY_ALL ? 1 : p->nimg + 1;	/* + "unknown" */
	if ((p->rows = calloc(nr, sizeof(*r))) == NULL ||
	    (p->racc = calloc(nr * A_N, sizeof(uint64_t))) == NULL)
		return PMR_ENOMEM;
	for (i = 0; i < nr; i++) {
		p->rows[i].acc = p->racc + i * A_N;
		p->rows[i].cls = 255;
		if (by == PMR_PAIRS_BY_ALL)
			p->rows[i].name = "all";
		else if (i < p->nimg) {
			p->rows[i].key = p->img[i].start;
			p->rows[i].name = p->img[i].path;
		} else
			p->rows[i].name = "unknown";
	}
	for (i = 0; i < p->nent; i++) {
		const uint64_t *a = p->acc + p->ent[i].acc;
		long im = 0;
		uint64_t *d;

		if (by == PMR_PAIRS_BY_IMAGE && (im = image_of(p,
		    p->ent[i].pc)) < 0)
			im = (long)p->nimg;
		d = p->rows[im].acc;
		for (j = 0; j < A_N; j++)
			d[j] += a[j];
		if (boot_group(p, &p->rows[im], (size_t)im, nr, i) != 0)
			return PMR_ENOMEM;
	}
	/* keep groups with samples (always the single "all" row) */
	for (i = j = 0; i < nr; i++)
		if (by == PMR_PAIRS_BY_ALL || p->rows[i].acc[A_K] != 0)
			p->rows[j++] = p->rows[i];
	*rows = p->rows;
	*n = j;
	return 0;
}

int
pmr_pairs_score(const struct pmr_pairs *p, const struct pmr_pairs_row *rows,
    size_t n, int m, uint64_t min_k, struct pmr_pairs_score *sc)
{
	struct pmr_pairs_val v;
	double *err;
	size_t i, ne = 0;

	memset(sc, 0, sizeof(*sc));
	sc->med_abs = NAN;
	if ((err = malloc((n + 1) * sizeof(*err))) == NULL)
		return PMR_ENOMEM;
	for (i = 0; i < n; i++) {
		double r, lam;

		if (!pmr_pairs_eval(p, &rows[i], m, &v) || isnan(v.exact) ||
		    v.exact <= 0)
			continue;
		lam = v.count ? v.exact / v.scale : (double)v.k;
		if (lam < (double)min_k || lam <= 0)
			continue;
		sc->n++;
		r = fabs(v.relerr);
		err[ne++] = r;
		if (v.count) {
			sc->in1 += r <= 1 / sqrt(lam);
			sc->in2 += r <= 2 / sqrt(lam);
		}
		if (isnan(v.lo))
			sc->noci++;
		else if (v.lo <= v.exact && v.exact <= v.hi)
			sc->covered++;
	}
	if (ne > 0) {
		qsort(err, ne, sizeof(*err), cmp_double);
		sc->med_abs = ne % 2 ? err[ne / 2] :
		    (err[ne / 2 - 1] + err[ne / 2]) / 2;
	}
	free(err);
	return 0;
}

/* --- METRIC output --------------------------------------------------- */

int
pmr_pairs_write(struct pmr_pairs *p, struct pmr_writer *w)
{
	struct pmr_pairs_metric_rec m;
	struct pmr_pairs_row row;
	struct pmr_pairs_val v;
	unsigned char *buf;
	uint64_t g[G_N];
	size_t i;
	unsigned j;
	int rc = 0, mw = pmr_pairs_metric_find("wasted");

	if ((buf = malloc(A_N * 8)) == NULL)
		return fail(p, PMR_ENOMEM, "out of memory");
	memset(g, 0, sizeof(g));
	g[G_VERSION] = 1;
	g[G_MODE] = (uint64_t)p->info.mode;
	g[G_S] = p->info.S;
	g[G_W] = p->info.W;
	g[G_C] = p->info.C;
	g[G_FETCHED] = p->info.fetched;
	g[G_NSTATS] = p->info.nstats;
	g[G_SAMPLES] = p->info.samples;
	g[G_PAIRS] = p->info.pairs;
	g[G_OTHER] = p->info.other;
	g[G_OFFPATH] = p->info.offpath;
	g[G_EMPTY] = p->info.empty;
	g[G_DELTA] = p->delta;
	g[G_TDELTA] = p->tdelta;
	if (p->info.win_len != UINT64_MAX) {
		g[G_WLEN] = p->info.win_len;
		g[G_WN] = p->info.win_n;
		g[G_WZERO] = p->info.win_zero;
		g[G_WSUM] = p->info.win_sum;
		g[G_WSQ] = p->info.win_sumsq;
		g[G_WCUBE] = p->info.win_sumcube;
		g[G_WMAX] = p->info.win_max;
		g[G_WMIN] = p->info.win_min;
	}
	for (j = 0; j < G_N; j++)
		pmr_put64(buf + 8 * j, g[j]);
	memset(&m, 0, sizeof(m));
	m.kind = PMR_PAIRS_MK_GLOBAL;
	m.samples = p->info.mode == PMR_PAIRS_PAIRED ? p->info.pairs : p->info.samples;
	m.execs = m.retires = m.wasted = NAN;
	m.acc.p = buf;
	m.acc.n = G_N;
	if ((rc = pmr_write(w, PMR_REC_METRIC, &m)) != 0)
		goto out;
	for (i = 0; i < p->nent; i++) {
		memset(&row, 0, sizeof(row));
		row.key = p->ent[i].pc;
		row.acc = p->acc + p->ent[i].acc;
		m.key = row.key;
		m.kind = PMR_PAIRS_MK_PC;
		m.cls = p->ent[i].cls;
		m.samples = row.acc[A_K];
		pmr_pairs_eval(p, &row, 0, &v);
		m.execs = v.est;
		pmr_pairs_eval(p, &row, 1, &v);
		m.retires = v.est;
		m.wasted = pmr_pairs_eval(p, &row, mw, &v) ? v.est : NAN;
		/* trailing zeros are left out: readers take them as 0 */
		for (m.acc.n = A_N; m.acc.n > 0 && row.acc[m.acc.n - 1] == 0;
		    m.acc.n--)
			;
		for (j = 0; j < m.acc.n; j++)
			pmr_put64(buf + 8 * j, row.acc[j]);
		if ((rc = pmr_write(w, PMR_REC_METRIC, &m)) != 0)
			goto out;
	}
	memset(&m, 0, sizeof(m));
	m.kind = PMR_PAIRS_MK_PROF;
	m.execs = m.retires = m.wasted = NAN;
	m.acc.p = buf;
	for (i = 0; i < p->npe; i++) {
		const struct pent *e = &p->pe[i];

		m.key = e->a;
		m.samples = e->k;
		m.acc.n = (e->tag & 0xff) == P_PPATH ||
		    (e->tag & 0xff) == P_ATRUTH ? 4 : 3;
		pmr_put64(buf, e->tag);
		pmr_put64(buf + 8, e->b);
		pmr_put64(buf + 16, e->k);
		pmr_put64(buf + 24, e->c);
		if ((rc = pmr_write(w, PMR_REC_METRIC, &m)) != 0)
			goto out;
	}
out:
	free(buf);
	if (rc != 0)
		return fail(p, rc, "%s", pmr_writer_errmsg(w));
	return 0;
}

/* --- address, edge and path profiles --------------------------------- */

static int
cmp_prow(const void *x, const void *y)
{
	const struct pmr_pairs_prow *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->k != b->k)
		return a->k > b->k ? -1 : 1;
	if (a->fallthru != b->fallthru)
		return a->fallthru ? 1 : -1;
	if (a->key2 != b->key2)
		return a->key2 < b->key2 ? -1 : 1;
	return a->key3 < b->key3 ? -1 : a->key3 > b->key3;
}

/* Orders rows by key, fallthru, key2, key3 (equal rows adjacent). */
static int
cmp_pkey(const void *x, const void *y)
{
	const struct pmr_pairs_prow *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->fallthru != b->fallthru)
		return a->fallthru ? 1 : -1;
	if (a->key2 != b->key2)
		return a->key2 < b->key2 ? -1 : 1;
	return a->key3 < b->key3 ? -1 : a->key3 > b->key3;
}

static int
pow2(uint64_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

/*
 * Sets the exact field of the page or set rows (sorted by key) from the
 * ATRUTH counts: NaN when there are none or a line of the truth is larger
 * than the page or the --cache line, so that it would straddle two rows.
 * Rows of lines the samples never saw are not added: the report lists the
 * sampled rows.
 */
static void
atruth_rows(struct pmr_pairs *p, enum pmr_pairs_prof what,
    const struct pmr_pairs_geom *g, uint64_t nsets, struct pmr_pairs_prow *rows,
    size_t nr)
{
	uint64_t unit = what == PMR_PAIRS_PROF_PAGE ? g->page : g->line;
	size_t i, lo, hi, mid;
	int any = 0;

	for (i = 0; i < p->npe; i++) {
		const struct pent *e = &p->pe[i];

		if ((e->tag & 0xff) != P_ATRUTH)
			continue;
		if (e->c > unit)
			any = -1;
		else if (any == 0)
			any = 1;
	}
	for (i = 0; i < nr; i++)
		rows[i].exact = any > 0 ? 0 : NAN;
	if (any <= 0)
		return;
	for (i = 0; i < p->npe; i++) {
		const struct pent *e = &p->pe[i];
		uint64_t key;

		if ((e->tag & 0xff) != P_ATRUTH)
			continue;
		key = what == PMR_PAIRS_PROF_PAGE ? e->a & ~(g->page - 1) :
		    e->a / g->line % nsets;
		for (lo = 0, hi = nr; lo < hi;) {
			mid = lo + (hi - lo) / 2;
			if (rows[mid].key < key)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < nr && rows[lo].key == key)
			rows[lo].exact += (double)e->k;
	}
}

int
pmr_pairs_prof(struct pmr_pairs *p, enum pmr_pairs_prof what,
    const struct pmr_pairs_geom *g, unsigned bits, struct pmr_pairs_prow **rows,
    size_t *n)
{
	struct pmr_pairs_prow *r;
	uint64_t nsets = 0, mask = 0, tot;
	size_t i, j, nr = 0, grp;
	double s = p->info.s, z = p->info.z;

	/* a given (y, x) with y before x is a pair with probability 1/(S W) */
	if (what == PMR_PAIRS_PROF_PPATH)
		s = p->info.S_eff * p->info.W;
	*rows = NULL;
	*n = 0;
	free(p->prows);
	p->prows = NULL;
	if (what == PMR_PAIRS_PROF_PAGE && !pow2(g->page))
		return PMR_EINVAL;
	if (what == PMR_PAIRS_PROF_SET) {
		if (!pow2(g->line) || g->ways == 0 ||
		    g->size % ((uint64_t)g->ways * g->line) != 0 ||
		    (nsets = g->size / ((uint64_t)g->ways * g->line)) == 0)
			return PMR_EINVAL;
	}
	if (what == PMR_PAIRS_PROF_PATH || what == PMR_PAIRS_PROF_PPATH ||
	    what == PMR_PAIRS_PROF_RPATH) {
		if (bits < 1 || bits > 64)
			return PMR_EINVAL;
		mask = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
	}
	if ((p->prows = calloc(p->npe + 1, sizeof(*r))) == NULL)
		return PMR_ENOMEM;
	/* one row per entry of the profile, keyed as the report wants */
	for (i = 0; i < p->npe; i++) {
		const struct pent *e = &p->pe[i];
		uint32_t t = e->tag & 0xff;

		r = &p->prows[nr];
		switch (what) {
		case PMR_PAIRS_PROF_PAGE:
		case PMR_PAIRS_PROF_SET:
			if (t != P_MISS)
				continue;
			r->key = what == PMR_PAIRS_PROF_PAGE ?
			    e->a & ~(g->page - 1) : e->a / g->line % nsets;
			break;
		case PMR_PAIRS_PROF_EDGE:
			if (t != P_TAKEN && t != P_FALL)
				continue;
			r->key = e->a;
			r->key2 = e->b;
			r->fallthru = t == P_FALL;
			break;
		case PMR_PAIRS_PROF_PATH:
		case PMR_PAIRS_PROF_PPATH:
		case PMR_PAIRS_PROF_RPATH:
			if (t != (what == PMR_PAIRS_PROF_PATH ? P_PATH :
			    what == PMR_PAIRS_PROF_RPATH ? P_RPATH : P_PPATH) ||
			    (e->tag >> 8) < bits)
				continue;
			r->key = e->a;
			r->key2 = e->b & mask;
			r->key3 = e->c;
			break;
		}
		r->k = e->k;
		nr++;
	}
	/* merge equal keys: sort by (key, key2), then add up runs */
	qsort(p->prows, nr, sizeof(*r), cmp_pkey);
	for (i = j = 0; i < nr; i++) {
		r = &p->prows[i];
		if (j > 0 && p->prows[j - 1].key == r->key &&
		(what == PMR_PAIRS_PROF_PAGE || what == PMR_PAIRS_PROF_SET ||
		    (p->prows[j - 1].key2 == r->key2 && p->prows[j -
		    1].key3 == r->key3 && p->prows[j -
		    1].fallthru == r->fallthru)))
			p->prows[j - 1].k += r->k;
		else
			p->prows[j++] = *r;
	}
	nr = j;
	if (what == PMR_PAIRS_PROF_PAGE || what == PMR_PAIRS_PROF_SET)
		atruth_rows(p, what, g, nsets, p->prows, nr);
	qsort(p->prows, nr, sizeof(*r), cmp_prow);
	/* group totals: all rows (page, set) or the rows of one pc */
	for (tot = 0, i = 0; i < nr; i++)
		tot += p->prows[i].k;
	for (grp = 0; grp < nr; grp = j) {
		uint64_t gk = 0;

		for (j = grp; j < nr; j++) {
			if (what >= PMR_PAIRS_PROF_EDGE &&
			    p->prows[j].key != p->prows[grp].key)
				break;
			gk += p->prows[j].k;
		}
		for (i = grp; i < j; i++) {
			r = &p->prows[i];
			r->n = what >= PMR_PAIRS_PROF_EDGE ? gk : tot;
			r->est = s * (double)r->k;
			pmr_pairs_poisson(r->k, z, &r->lo, &r->hi);
			r->lo *= s;
			r->hi *= s;
			r->frac = (double)r->k / (double)r->n;
			pmr_pairs_wilson(r->k, r->n, z, &r->flo, &r->fhi);
			if (what != PMR_PAIRS_PROF_PAGE &&
			    what != PMR_PAIRS_PROF_SET)
				r->exact = NAN;
		}
	}
	*rows = p->prows;
	*n = nr;
	return 0;
}
