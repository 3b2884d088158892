/*
 * path.c: path reconstruction from the history bits of ProfileMe
 * samples (ProfileMe, Dean et al. MICRO-30, §5.3), scored against the true
 * paths of the trace, and the exact edge and path counts of the trace for
 * pairs --edges and --paths (A10).
 *
 * The trace is read once, up to the end of the measured region.  Its CFG
 * is a hash of the observed transfers between pcs, each with its count,
 * plus the (call, return site) pairs seen on a shadow stack; memory grows
 * with the static code, not with the trace.  Consecutive executions of one
 * pc that is not a conditional branch (the steps of a rep instruction) are
 * one node, in the CFG and in the true paths alike.  A ring of the last
 * RING nodes gives, when the commit index of a kept sample comes by, its
 * true path: walking backward from the sample to the hist_len-th
 * conditional branch before it.
 *
 * A path is a sequence of nodes, identified by a hash of it.  The walks
 * backward from the sampled pc follow the same rules for the true path and for
 * the reconstructions: at a return site the walk enters the callee through its
 * returns (the history holds the callee's branches) and leaves it at its entry
 * through a call site whose return site is the one it came from; at the entry
 * of the sampled instruction's own routine the intraprocedural walk ends, the
 * interprocedural one goes on into any caller.  Scheme 1 takes the most
 * frequent predecessor at each merge; scheme 2 keeps every path whose
 * conditional-branch directions are the history bits; scheme 3 also drops the
 * paths that do not hold the pc of the pair's first member within d nodes (d,
 * in fetches, bounds the committed distance; consecutive steps of one pc are
 * one node, so the node distance is at most d; an earlier step of the sampled
 * rep instruction is in the sampled node itself).  The enumeration stops at the
 * second distinct path, or after BUDGET node visits (ambiguous).  Results are
 * memoized by (mode, scheme, pc, history, partner, d).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pairs/pairs.h"
#include "trace/trace.h"

#define RING (1u << 16)		/* nodes of the true-path ring */
#define MAXSTEPS 4096		/* nodes of one path */
#define MAXDEPTH 32		/* nested callees entered by one walk */
#define BUDGET (1u << 17)	/* node visits of one enumeration */
#define SSTACK 4096		/* shadow call stack of the trace */
#define NONE UINT32_MAX

enum { K_SEQ = 0, K_TAKEN = 1, K_SUMMARY = 2 };

struct edge {
	uint32_t from, to;
	uint8_t kind;		/* K_SEQ: fall-through or not a transfer,
				 * K_TAKEN, K_SUMMARY: call -> return site */
	uint64_t n;		/* whole prefix read */
	uint64_t meas;		/* measured region */
};

struct pred {
	uint32_t from;
	uint8_t kind;
	uint64_t n;
};

struct cfg {
	uint64_t *pc;		/* per node */
	uint8_t *cls;
	size_t nn, capn;
	uint32_t *nh;		/* node hash: index + 1 */
	size_t nhcap;
	struct edge *e;
	size_t ne, cape;
	uint32_t *eh;
	size_t ehcap;
	uint32_t *poff;		/* CSR of predecessors, by node */
	struct pred *pr;
};

struct memo {
	uint64_t key[4];
	uint8_t status;		/* 1 unique, 2 ambiguous, 3 none, 4 bound */
	uint64_t h;
};

struct memotab {
	struct memo *m;
	size_t n, cap;
};

static uint64_t
mix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 29;
	return h;
}

static int
grow(void **p, size_t *cap, size_t need, size_t sz)
{
	size_t c = *cap ? *cap : 1024;
	void *np;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	if ((np = realloc(*p, c * sz)) == NULL)
		return PMR_ENOMEM;
	*p = np;
	*cap = c;
	return 0;
}

static int
node_rehash(struct cfg *g, size_t cap)
{
	uint32_t *h;
	size_t i, j;

	if ((h = calloc(cap, sizeof(*h))) == NULL)
		return PMR_ENOMEM;
	for (i = 0; i < g->nn; i++) {
		j = mix(0, g->pc[i]) & (cap - 1);
		while (h[j] != 0)
			j = (j + 1) & (cap - 1);
		h[j] = (uint32_t)(i + 1);
	}
	free(g->nh);
	g->nh = h;
	g->nhcap = cap;
	return 0;
}

/* Returns the node of pc (created with class cls if new), or NONE. */
static uint32_t
node_get(struct cfg *g, uint64_t pc, uint8_t cls, int create)
{
	size_t j, cap;

	if (g->nhcap == 0 && node_rehash(g, 1024) != 0)
		return NONE;
	j = mix(0, pc) & (g->nhcap - 1);
	while (g->nh[j] != 0) {
		if (g->pc[g->nh[j] - 1] == pc)
			return g->nh[j] - 1;
		j = (j + 1) & (g->nhcap - 1);
	}
	if (!create)
		return NONE;
	cap = g->capn;
	if (grow((void **)&g->pc, &cap, g->nn + 1, sizeof(*g->pc)) != 0)
		return NONE;
	cap = g->capn;
	if (grow((void **)&g->cls, &cap, g->nn + 1, sizeof(*g->cls)) != 0)
		return NONE;
	g->capn = cap;
	g->pc[g->nn] = pc;
	g->cls[g->nn] = cls;
	g->nh[j] = (uint32_t)(++g->nn);
	if (2 * g->nn > g->nhcap && node_rehash(g, 2 * g->nhcap) != 0)
		return NONE;
	return (uint32_t)(g->nn - 1);
}

static uint64_t
ekey(uint32_t from, uint32_t to, uint8_t kind)
{
	return mix(mix(from, to), kind);
}

static int
edge_rehash(struct cfg *g, size_t cap)
{
	uint32_t *h;
	size_t i, j;

	if ((h = calloc(cap, sizeof(*h))) == NULL)
		return PMR_ENOMEM;
	for (i = 0; i < g->ne; i++) {
		j = ekey(g->e[i].from, g->e[i].to, g->e[i].kind) & (cap - 1);
		while (h[j] != 0)
			j = (j + 1) & (cap - 1);
		h[j] = (uint32_t)(i + 1);
	}
	free(g->eh);
	g->eh = h;
	g->ehcap = cap;
	return 0;
}

/* Returns the edge (from, to, kind), created if create, or NULL. */
static struct edge *
edge_get(struct cfg *g, uint32_t from, uint32_t to, uint8_t kind, int create)
{
	struct edge *e;
	size_t j;

	if (g->ehcap == 0 && edge_rehash(g, 1024) != 0)
		return NULL;
	j = ekey(from, to, kind) & (g->ehcap - 1);
	while (g->eh[j] != 0) {
		e = &g->e[g->eh[j] - 1];
		if (e->from == from && e->to == to && e->kind == kind)
			return e;
		j = (j + 1) & (g->ehcap - 1);
	}
	if (!create)
		return NULL;
	if (grow((void **)&g->e, &g->cape, g->ne + 1, sizeof(*g->e)) != 0)
		return NULL;
	e = &g->e[g->ne];
	memset(e, 0, sizeof(*e));
	e->from = from;
	e->to = to;
	e->kind = kind;
	g->eh[j] = (uint32_t)(++g->ne);
	if (2 * g->ne > g->ehcap && edge_rehash(g, 2 * g->ehcap) != 0)
		return NULL;
	return &g->e[g->ne - 1];
}

static int
is_call(uint8_t cls)
{
	return cls == PMR_OP_CALL || cls == PMR_OP_CALL_IND;
}

static int
cmp_pred(const void *x, const void *y)
{
	const struct pred *a = x, *b = y;

	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	return a->kind < b->kind ? -1 : a->kind > b->kind;
}

/* Builds the predecessor lists, most frequent first. */
static int
build_preds(struct cfg *g)
{
	size_t i, np = 0;
	uint32_t *fill;

	if ((g->poff = calloc(g->nn + 1, sizeof(*g->poff))) == NULL ||
	    (fill = calloc(g->nn + 1, sizeof(*fill))) == NULL)
		return PMR_ENOMEM;
	for (i = 0; i < g->ne; i++)
		if (g->e[i].kind != K_SUMMARY) {
			g->poff[g->e[i].to + 1]++;
			np++;
		}
	for (i = 0; i < g->nn; i++)
		g->poff[i + 1] += g->poff[i];
	if ((g->pr = calloc(np + 1, sizeof(*g->pr))) == NULL) {
		free(fill);
		return PMR_ENOMEM;
	}
	for (i = 0; i < g->ne; i++) {
		const struct edge *e = &g->e[i];
		struct pred *q;

		if (e->kind == K_SUMMARY)
			continue;
		q = &g->pr[g->poff[e->to] + fill[e->to]++];
		q->from = e->from;
		q->kind = e->kind;
		q->n = e->n;
	}
	for (i = 0; i < g->nn; i++)
		qsort(g->pr + g->poff[i], g->poff[i + 1] - g->poff[i],
		    sizeof(*g->pr), cmp_pred);
	free(fill);
	return 0;
}

/* --- backward walks --------------------------------------------------- */

struct walk {
	struct cfg *g;
	int inter, scheme;
	uint64_t hist;
	unsigned n;		/* history bits to match */
	uint32_t partner;	/* node, or NONE */
	uint32_t d;
	uint32_t stk[MAXDEPTH];	/* return sites of the callees entered */
	unsigned depth;
	uint64_t budget;
	unsigned found;
	uint64_t h1;
	int over;
};

static void
complete(struct walk *w, uint64_t h)
{

	if (w->found == 0) {
		w->found = 1;
		w->h1 = h;
	} else if (h != w->h1)
		w->found = 2;
}

/* Whether a path with pfound, steps long, passes the pair constraint. */
static int
pair_ok(const struct walk *w, int pfound, unsigned steps)
{
	return w->scheme != PMR_PAIRS_RB_PAIR || w->partner == NONE || pfound ||
	    steps < w->d;
}

/* Enumerates the history-consistent paths backward from node q. */
static void
dfs(struct walk *w, uint32_t q, unsigned nb, unsigned steps, uint64_t h,
    int pfound)
{
	struct cfg *g = w->g;
	uint32_t i;

	if (w->found >= 2 || w->over)
		return;
	if (w->budget-- == 0 || steps >= MAXSTEPS) {
		w->over = 1;
		return;
	}
	if (!pair_ok(w, pfound, steps))
		return;
	for (i = g->poff[q]; i < g->poff[q + 1] && w->found < 2 && !w->over;
	    i++) {
		const struct pred *e = &g->pr[i];
		uint32_t p = e->from, top = 0;
		uint8_t pc = g->cls[p];
		unsigned nb2 = nb, popped = 0, pushed = 0;
		int pf2;

		if (is_call(pc) && e->kind == K_TAKEN) {
			if (w->depth == 0 && !w->inter) {
				/* the routine's entry: the path ends here */
				if (pair_ok(w, pfound, steps))
					complete(w, h);
				continue;
			}
			if (w->depth > 0) {
				top = w->stk[w->depth - 1];
				if (edge_get(g, p, top, K_SUMMARY, 0) == NULL)
					continue;
				w->depth--;
				popped = 1;
			}
		} else if (pc == PMR_OP_RET) {
			if (w->depth == MAXDEPTH) {
				w->over = 1;
				continue;
			}
			w->stk[w->depth++] = q;
			pushed = 1;
		}
		if (pc == PMR_OP_BR_COND) {
			if (w->scheme != PMR_PAIRS_RB_COUNTS &&
			    e->kind != ((w->hist >> nb) & 1))
				goto next;
			nb2++;
		}
		pf2 = pfound || (p == w->partner && steps + 1 <= w->d);
		if (nb2 == w->n) {
			if (pair_ok(w, pf2, steps + 1))
				complete(w, mix(h, p));
		} else
			dfs(w, p, nb2, steps + 1, mix(h, p), pf2);
next:
		if (popped)
			w->stk[w->depth++] = top;
		if (pushed)
			w->depth--;
	}
}

/*
 * Scheme 1: the most frequent predecessor that the call structure allows,
 * until n conditional branches (or the routine entry).  Returns 1 with *h
 * the path, 0 when the walk dead-ends, 2 when it gets too long or deep.
 */
static int
greedy(struct walk *w, uint32_t q, uint64_t *h)
{
	struct cfg *g = w->g;
	unsigned nb = 0, steps = 0;
	uint64_t hh = mix(0x5eed, q);
	uint32_t i;

	if (w->n == 0) {
		*h = hh;
		return 1;
	}
	for (;;) {
		const struct pred *best = NULL;

		if (++steps >= MAXSTEPS)
			return 2;
		for (i = g->poff[q]; i < g->poff[q + 1]; i++) {
			const struct pred *e = &g->pr[i];
			uint8_t c = g->cls[e->from];

			if (is_call(c) && e->kind == K_TAKEN && w->depth > 0 &&
			    edge_get(g, e->from, w->stk[w->depth - 1],
			    K_SUMMARY, 0) == NULL)
				continue;
			if (c == PMR_OP_RET && w->depth == MAXDEPTH)
				continue;
			best = e;	/* sorted: the first allowed */
			break;
		}
		if (best == NULL)
			return 0;
		if (is_call(g->cls[best->from]) && best->kind == K_TAKEN) {
			if (w->depth == 0 && !w->inter)
				break;
			if (w->depth > 0)
				w->depth--;
		} else if (g->cls[best->from] == PMR_OP_RET)
			w->stk[w->depth++] = q;
		q = best->from;
		hh = mix(hh, q);
		if (g->cls[q] == PMR_OP_BR_COND && ++nb == w->n)
			break;
	}
	*h = hh;
	return 1;
}

/* --- the trace pass --------------------------------------------------- */

struct rent {
	uint32_t node;
	uint8_t taken;		/* of this execution, conditional branches */
};

/*
 * Walks the true path back from the newest ring entry (the sample); sets
 * *h and, for the history check, *bits (directions, bit 0 newest) and
 * *nbits.  Returns 1, or 0 if the path leaves the ring or is too long.
 */
static int
true_path(const struct cfg *g, const struct rent *ring, uint64_t nring,
    unsigned n, int inter, uint64_t *h, uint64_t *bits, unsigned *nbits)
{
	uint64_t i = nring - 1, hh;
	uint32_t stk[MAXDEPTH], q;
	unsigned depth = 0, nb = 0, steps = 0;

	q = ring[i % RING].node;
	hh = mix(0x5eed, q);
	*bits = 0;
	while (nb < n) {
		const struct rent *pe;
		uint8_t c;

		if (i == 0 || nring - i >= RING || ++steps >= MAXSTEPS)
			return 0;
		pe = &ring[--i % RING];
		c = g->cls[pe->node];
		if (is_call(c)) {
			if (depth == 0 && !inter)
				break;
			if (depth > 0)
				depth--;
		} else if (c == PMR_OP_RET) {
			if (depth == MAXDEPTH)
				return 0;
			stk[depth++] = q;
		}
		q = pe->node;
		hh = mix(hh, q);
		if (c == PMR_OP_BR_COND)
			*bits |= (uint64_t)pe->taken << nb++;
	}
	(void)stk;
	*h = hh;
	*nbits = nb;
	return 1;
}

static int
cmp_cpos(const void *x, const void *y)
{
	const struct pmr_pairs_psamp *a =
	    *(const struct pmr_pairs_psamp *const *)x;
	const struct pmr_pairs_psamp *b =
	    *(const struct pmr_pairs_psamp *const *)y;

	return a->cpos < b->cpos ? -1 : a->cpos > b->cpos;
}

static struct memo *
memo_get(struct memotab *t, const uint64_t key[4], int *isnew)
{
	size_t j, i;
	uint64_t hv = mix(mix(mix(key[0], key[1]), key[2]), key[3]);

	if (t->n * 2 >= t->cap) {
		size_t nc = t->cap ? 2 * t->cap : 4096;
		struct memo *nm;

		if ((nm = calloc(nc, sizeof(*nm))) == NULL)
			return NULL;
		for (i = 0; i < t->cap; i++) {
			uint64_t hk;

			if (t->m[i].status == 0)
				continue;
			hk = mix(mix(mix(t->m[i].key[0], t->m[i].key[1]),
			    t->m[i].key[2]), t->m[i].key[3]);
			j = hk & (nc - 1);
			while (nm[j].status != 0)
				j = (j + 1) & (nc - 1);
			nm[j] = t->m[i];
		}
		free(t->m);
		t->m = nm;
		t->cap = nc;
	}
	j = hv & (t->cap - 1);
	while (t->m[j].status != 0) {
		if (memcmp(t->m[j].key, key, sizeof(t->m[j].key)) == 0) {
			*isnew = 0;
			return &t->m[j];
		}
		j = (j + 1) & (t->cap - 1);
	}
	*isnew = 1;
	memcpy(t->m[j].key, key, sizeof(t->m[j].key));
	t->n++;
	return &t->m[j];
}

/* Reconstructs the path of s with scheme sc in mode inter; memoized. */
static int
reconstruct(struct cfg *g, struct memotab *mt, const struct pmr_pairs_psamp *s,
    uint32_t x, int inter, int sc, uint64_t *h)
{
	uint64_t key[4], mask;
	struct memo *m;
	struct walk w;
	int isnew, r;
	unsigned n = s->hist_len > 64 ? 64 : s->hist_len;

	mask = n >= 64 ? UINT64_MAX : ((uint64_t)1 << n) - 1;
	memset(&w, 0, sizeof(w));
	w.g = g;
	w.inter = inter;
	w.scheme = sc;
	w.n = n;
	w.hist = s->history & mask;
	w.partner = NONE;
	if (sc == PMR_PAIRS_RB_PAIR && s->has_partner) {
		w.partner = node_get(g, s->partner, 0, 0);
		w.d = s->dist;
		if (w.partner == NONE)
			w.d = 0;	/* not in the CFG: no constraint */
	}
	if (sc == PMR_PAIRS_RB_PAIR && !s->has_partner)
		sc = w.scheme = PMR_PAIRS_RB_HIST;
	key[0] = (uint64_t)x << 8 | (uint64_t)inter << 4 | (uint64_t)sc;
	key[1] = sc == PMR_PAIRS_RB_COUNTS ? 0 : w.hist;
	key[2] = (uint64_t)n << 32 | (sc == PMR_PAIRS_RB_PAIR ? w.d : 0);
	key[3] = sc == PMR_PAIRS_RB_PAIR ? w.partner : 0;
	if ((m = memo_get(mt, key, &isnew)) == NULL)
		return PMR_ENOMEM;
	if (!isnew) {
		*h = m->h;
		return m->status;
	}
	if (sc == PMR_PAIRS_RB_COUNTS) {
		r = greedy(&w, x, &m->h);
		m->status = r == 1 ? 1 : r == 2 ? 4 : 3;
	} else {
		w.budget = BUDGET;
		if (n == 0)
			complete(&w, mix(0x5eed, x));
		else
			dfs(&w, x, 0, 0, mix(0x5eed, x), x == w.partner);
		m->h = w.h1;
		m->status = w.over ? 4 : w.found >= 2 ? 2 : w.found == 1 ? 1 :
		    3;
	}
	*h = m->h;
	return m->status;
}

/* Counts of the rows: (tag, pc, key2) -> index of the row. */
struct rowtab {
	uint32_t *h;
	size_t cap;
};

static uint64_t
rkey(uint64_t pc, uint64_t k2, int fall)
{
	return mix(mix(pc, k2), (uint64_t)fall);
}

static int
row_index(const struct pmr_pairs_prow *rows, size_t n, struct rowtab *t)
{
	size_t i, j;

	for (t->cap = 1024; t->cap < 2 * n + 2; t->cap *= 2)
		;
	if ((t->h = calloc(t->cap, sizeof(*t->h))) == NULL)
		return PMR_ENOMEM;
	for (i = 0; i < n; i++) {
		j = rkey(rows[i].key, rows[i].key2, rows[i].fallthru) &
		    (t->cap - 1);
		while (t->h[j] != 0)
			j = (j + 1) & (t->cap - 1);
		t->h[j] = (uint32_t)(i + 1);
	}
	return 0;
}

static struct pmr_pairs_prow *
row_find(struct pmr_pairs_prow *rows, const struct rowtab *t, uint64_t pc,
    uint64_t k2, int fall)
{
	size_t j = rkey(pc, k2, fall) & (t->cap - 1);

	while (t->h[j] != 0) {
		struct pmr_pairs_prow *r = &rows[t->h[j] - 1];

		if (r->key == pc && r->key2 == k2 && r->fallthru == fall)
			return r;
		j = (j + 1) & (t->cap - 1);
	}
	return NULL;
}

int
pmr_pairs_rebuild_run(const struct pmr_pairs *p, const char *path,
enum pmr_pairs_prof what, unsigned bits, struct pmr_pairs_prow *rows,
    size_t nrows, struct pmr_pairs_rebuild *res, char *err, size_t errlen)
{
	const struct pmr_pairs_info *in = pmr_pairs_info(p);
	const struct pmr_pairs_psamp *ps, **ord = NULL;
	struct cfg g;
	struct memotab mt;
	struct rowtab rt;
	struct rent *ring = NULL;
	struct pmr_trace *t = NULL;
	struct pmr_dinsn di;
	uint32_t *sstk = NULL, prev = NONE, pending = NONE;
	uint64_t nring = 0, seq, end = UINT64_MAX, lo = 0, hist = 0, mask;
	uint64_t *th = NULL, *tb = NULL;
	uint8_t prevcls = 0, prevtaken = 0;
	size_t nps, i, next = 0, sdepth = 0;
	int rc, e, doedges = rows != NULL && what == PMR_PAIRS_PROF_EDGE;
	int dopaths = rows != NULL && what == PMR_PAIRS_PROF_RPATH;

	memset(res, 0, sizeof(*res));
	memset(&g, 0, sizeof(g));
	memset(&mt, 0, sizeof(mt));
	memset(&rt, 0, sizeof(rt));
	mask = bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
	ps = pmr_pairs_psamples(p, &nps);
	res->samples = nps;
	rc = PMR_ENOMEM;
	if ((ord = calloc(nps + 1, sizeof(*ord))) == NULL ||
	    (ring = calloc(RING, sizeof(*ring))) == NULL ||
	    (sstk = calloc(SSTACK, sizeof(*sstk))) == NULL ||
	    (th = calloc(2 * (nps + 1), sizeof(*th))) == NULL ||
	    (tb = calloc(2 * (nps + 1), sizeof(*tb))) == NULL)
		goto nomem;
	for (i = 0; i < nps; i++)
		ord[i] = &ps[i];
	qsort(ord, nps, sizeof(*ord), cmp_cpos);
	if (rows != NULL && (doedges || dopaths)) {
		if (row_index(rows, nrows, &rt) != 0)
			goto nomem;
		for (i = 0; i < nrows; i++)
			rows[i].exact = 0;
	}
	/* the measured region, from the STATS records */
	if (in->nstats > 0) {
		lo = in->warmup;
		end = in->warmup + in->retired;
	}
	if (nps > 0 && ord[nps - 1]->cpos + 1 > end)
		end = ord[nps - 1]->cpos + 1;
	if ((t = pmr_trace_open(path, PMR_TF_AUTO, &e, err, errlen)) == NULL) {
		rc = e;
		goto out;
	}
	for (seq = 0; seq < end; seq++) {
		uint32_t x;
		uint8_t cls, taken;

		if ((e = pmr_trace_next(t, &di)) <= 0) {
			if (e < 0) {
				snprintf(err, errlen, "%s",
				    pmr_trace_errmsg(t));
				rc = e;
				goto out;
			}
			break;
		}
		cls = di.si->cls;
		taken = cls == PMR_OP_BR_COND ? (di.flags & PMR_DI_TAKEN) != 0 :
		    cls > PMR_OP_BR_COND && cls <= PMR_OP_RET;
		if ((x = node_get(&g, di.pc, cls, 1)) == NONE)
			goto nomem;
		if (seq >= lo && (doedges || dopaths)) {
			struct pmr_pairs_prow *r;

			if (dopaths && (r = row_find(rows, &rt, di.pc,
			    hist & mask, 0)) != NULL)
				r->exact++;
			if (doedges && cls >= PMR_OP_BR_COND &&
			    cls <= PMR_OP_RET && (r = row_find(rows, &rt, di.pc,
			    taken ? di.next_pc : 0, !taken)) != NULL)
				r->exact++;
		}
		if (cls == PMR_OP_BR_COND)
			hist = hist << 1 | taken;
		if (prev != NONE && pending != NONE) {
			struct edge *se;

			if ((se = edge_get(&g, pending, x, K_SUMMARY,
			    1)) == NULL)
				goto nomem;
			se->n++;
			pending = NONE;
		}
		if (prev != NONE && !(prev == x && cls != PMR_OP_BR_COND)) {
			struct edge *ed;
			uint8_t kind = prevcls == PMR_OP_BR_COND ? prevtaken :
			    prevcls > PMR_OP_BR_COND && prevcls <= PMR_OP_RET ?
			    K_TAKEN : K_SEQ;

			if ((ed = edge_get(&g, prev, x, kind, 1)) == NULL)
				goto nomem;
			ed->n++;
			ed->meas += seq >= lo;
		}
		if (prev != x || cls == PMR_OP_BR_COND || nring == 0) {
			ring[nring % RING].node = x;
			nring++;
		}
		ring[(nring - 1) % RING].taken = taken;
		/* the shadow stack pairs calls with their return sites */
		if (is_call(cls)) {
			if (sdepth == SSTACK) {
				memmove(sstk, sstk + SSTACK / 2,
				    SSTACK / 2 * sizeof(*sstk));
				sdepth = SSTACK / 2;
			}
			sstk[sdepth++] = x;
		} else if (cls == PMR_OP_RET && sdepth > 0)
			pending = sstk[--sdepth];
		prev = x;
		prevcls = cls;
		prevtaken = taken;
		/* true paths of the samples retired here */
		while (next < nps && ord[next]->cpos == seq) {
			const struct pmr_pairs_psamp *s = ord[next];
			size_t k = (size_t)(s - ps);
			uint64_t tbits;
			unsigned nb, n = s->hist_len > 64 ? 64 : s->hist_len;
			int m;

			next++;
			if (di.pc != s->pc) {
				res->badpc++;
				continue;
			}
			for (m = 0; m < PMR_PAIRS_RB_NMODE; m++) {
				if (!true_path(&g, ring, nring, n, m, &th[2 *
				    k + m], &tbits, &nb)) {
					th[2 * k] = th[2 * k + 1] = 0;
					break;
				}
				if (m == 0)
					tb[2 * k] = (tbits != (s->history &
					    (nb >= 64 ? UINT64_MAX :
					    ((uint64_t)1 << nb) - 1))) + 1;
			}
			if (m == PMR_PAIRS_RB_NMODE)
				tb[2 * k + 1] = 1;	/* scored */
		}
		while (next < nps && ord[next]->cpos < seq)
			next++;	/* duplicates of a shard */
	}
	res->insns = seq;
	res->nodes = g.nn;
	if (build_preds(&g) != 0)
		goto nomem;
	for (i = 0; i < g.ne; i++)
		res->edges += g.e[i].kind != K_SUMMARY;
	for (i = 0; i < nps; i++) {
		const struct pmr_pairs_psamp *s = &ps[i];
		uint32_t x;
		int m, sc;

		if (tb[2 * i + 1] == 0) {
			res->notrue++;	/* less the badpc ones, below */
			continue;
		}
		res->scored++;
		res->histbad += tb[2 * i] == 2;
		res->paired += s->has_partner;
		x = node_get(&g, s->pc, 0, 0);
		for (m = 0; m < PMR_PAIRS_RB_NMODE; m++)
			for (sc = 0; sc < PMR_PAIRS_RB_NSCHEME; sc++) {
				uint64_t h = 0;
				struct pmr_pairs_rb_count *c = &res->c[m][sc];
				int st = reconstruct(&g, &mt, s, x, m, sc, &h);

				if (st < 0)
					goto nomem;
				if (st == 1 && h == th[2 * i + m])
					c->ok++;
				else if (st == 1)
					c->wrong++;
				else if (st == 2 || st == 4) {
					c->ambig++;
					c->bound += st == 4;
				}
				else
					c->none++;
			}
	}
	res->notrue -= res->badpc < res->notrue ? res->badpc : res->notrue;
	rc = 0;
	goto out;
nomem:
	snprintf(err, errlen, "out of memory");
	rc = PMR_ENOMEM;
out:
	if (t != NULL)
		pmr_trace_close(t);
	free(ord);
	free(ring);
	free(sstk);
	free(th);
	free(tb);
	free(rt.h);
	free(mt.m);
	free(g.pc);
	free(g.cls);
	free(g.nh);
	free(g.e);
	free(g.eh);
	free(g.poff);
	free(g.pr);
	return rc;
}
