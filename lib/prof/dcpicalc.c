/*
 * dcpicalc.c: DCPI's stall analysis of one procedure (Anderson et al.,
 * SOSP '97 §6): from the CYCLES samples of an in-order core and the code
 * alone, how often each instruction ran and why it stalled (calc.h).
 *
 * Phase 1 (§6.1): the CFG from the code, equivalence classes, each
 * class's frequency from its issue points (calc.c), local propagation.
 * Phase 2 (§6.3): static stalls from the block's schedule on the machine
 * pmsim ran (sched.h), and dynamic stalls by elimination, "guilty until
 * proven innocent", with rules matched to what pmsim can do:
 *
 *   i, I   I-cache, ITLB: only where a new line (page) starts: an
 *          instruction whose first byte starts a line the one before did
 *          not, or a block head some predecessor of which ends in another
 *          line, or the return point after a call, or the entry;
 *   d, D   D-cache, DTLB: an operand comes from a recent load (in the
 *          block, or in a predecessor within 16 instructions); d also on
 *          a load itself (no MSHR free);
 *   p      mispredict: a block head entered from a conditional or
 *          indirect branch, the return point after a call, the entry;
 *   w      write buffer: stores;
 *   f      unit busy: a divide of the same pool within 64 instructions.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof/calc.h"
#include "sym/sym.h"
#include "util/mix.h"

const char pmr_calc_letter[PMR_CALC_NCAUSE + 1] = "iIdDpwf";
const char *const pmr_calc_cause_name[PMR_CALC_NCAUSE] = { "I-cache",
	"ITLB", "D-cache", "DTLB", "Branch mispredict", "Write buffer",
	"FU busy" };
const char *const pmr_calc_truth_name[PMR_CALC_NTRUTH] = { "issue",
	"static", "icache", "itlb", "dcache", "dtlb", "misp", "wbuf", "fu",
	"other" };

#define BACK_D 16		/* instructions back for a recent load */
#define BACK_F 64		/* for a divide */

struct cfg {
	struct pmr_calc_proc *cp;
	uint32_t *ein, *eout;	/* edge indices by block: CSR */
	uint32_t *oin, *oout;	/* offsets, nb + 1 */
	uint32_t *idom, *ipdom;	/* NOWHERE: unreached */
	uint32_t *dpre, *dpost, *ppre, *ppost;	/* tree intervals */
	uint64_t *sig;		/* loops the block is in, hashed */
};

static int
cmp_pc(const void *k, const void *e)
{
	uint64_t pc = *(const uint64_t *)k;
	const struct pmr_calc_insn *in = e;

	return pc < in->pc ? -1 : pc > in->pc;
}

static long
insn_at(const struct pmr_calc_proc *cp, uint64_t pc)
{
	const struct pmr_calc_insn *in = bsearch(&pc, cp->in, cp->ni,
	    sizeof(*cp->in), cmp_pc);

	return in != NULL ? in - cp->in : -1;
}

static int
ends_block(const struct pmr_calc_insn *in)
{
	unsigned c = in->si.cls;

	return in->len == 0 || c == PMR_OP_BR_COND || c == PMR_OP_JMP ||
	    c == PMR_OP_JMP_IND || c == PMR_OP_RET;
}

static int
add_edge(struct pmr_calc_proc *cp, size_t *cap, uint32_t from, uint32_t to,
    double truth)
{
	struct pmr_calc_edge *e;

	if (cp->ne == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		if ((e = realloc(cp->e, *cap * sizeof(*e))) == NULL)
			return PMR_ENOMEM;
		cp->e = e;
	}
	e = &cp->e[cp->ne++];
	memset(e, 0, sizeof(*e));
	e->from = from;
	e->to = to;
	e->truth = truth;
	return 0;
}

/* Blocks and edges (edge 0: the entry into block 0). */
static int
build_cfg(struct pmr_calc_proc *cp, int truth)
{
	size_t i, cap = 0, nb = 0;
	char *lead;
	uint32_t b;

	if ((lead = calloc(cp->ni + 1, 1)) == NULL)
		return PMR_ENOMEM;
	for (i = 0; i < cp->ni; i++) {
		const struct pmr_calc_insn *in = &cp->in[i];
		long t;

		if (i == 0 || ends_block(&cp->in[i - 1]))
			lead[i] = 1;
		/* after alignment padding: a jump target, if only of an
		 * indirect jump (the padding runs rarely if ever) */
		if (i > 0 && cp->in[i - 1].si.cls == PMR_OP_NOP &&
		    in->si.cls != PMR_OP_NOP)
			lead[i] = 1;
		if ((in->si.cls == PMR_OP_BR_COND || in->si.cls ==
		    PMR_OP_JMP) && in->len > 0 && (t = insn_at(cp,
		    in->si.target)) >= 0)
			lead[t] = 1;
	}
	for (i = 0; i < cp->ni; i++)
		nb += lead[i];
	if ((cp->b = calloc(nb ? nb : 1, sizeof(*cp->b))) == NULL) {
		free(lead);
		return PMR_ENOMEM;
	}
	for (i = 0, b = 0; i < cp->ni; i++) {
		if (lead[i]) {
			if (i > 0)
				b++;
			cp->b[b].first = (uint32_t)i;
			cp->b[b].cls = b;
		}
		cp->b[b].n++;
		cp->in[i].block = b;
	}
	cp->nb = nb;
	free(lead);
	if (add_edge(cp, &cap, PMR_CALC_NOWHERE, 0, -1) != 0)
		return PMR_ENOMEM;
	for (b = 0; b < nb; b++) {
		const struct pmr_calc_insn *l = &cp->in[cp->b[b].first +
		    cp->b[b].n - 1];
		uint32_t next = b + 1 < nb ? b + 1 : PMR_CALC_NOWHERE;
		double ret = truth ? l->t_ret : -1;
		long t;

		switch (l->len == 0 ? PMR_OP_JMP_IND : l->si.cls) {
		case PMR_OP_BR_COND:
			t = insn_at(cp, l->si.target);
			if (t < 0 && l->si.target >= cp->lo &&
			    l->si.target < cp->hi)
				cp->missing = 1;	/* into an insn */
			if (add_edge(cp, &cap, b, t >= 0 ? cp->in[t].block :
			    PMR_CALC_NOWHERE, truth ? l->t_taken : -1) != 0 ||
			    add_edge(cp, &cap, b, next, truth ? l->t_ret -
			    l->t_taken : -1) != 0)
				return PMR_ENOMEM;
			break;
		case PMR_OP_JMP:
			t = insn_at(cp, l->si.target);
			if (t < 0 && l->si.target >= cp->lo &&
			    l->si.target < cp->hi)
				cp->missing = 1;
			if (add_edge(cp, &cap, b, t >= 0 ? cp->in[t].block :
			    PMR_CALC_NOWHERE, ret) != 0)
				return PMR_ENOMEM;
			break;
		case PMR_OP_JMP_IND:
			cp->missing = 1;
			/* FALLTHROUGH */
		case PMR_OP_RET:
			if (add_edge(cp, &cap, b, PMR_CALC_NOWHERE, ret) != 0)
				return PMR_ENOMEM;
			break;
		default:
			if (add_edge(cp, &cap, b, next, ret) != 0)
				return PMR_ENOMEM;
		}
	}
	return 0;
}

/* CSR adjacency of the edges between blocks (and to/from NOWHERE). */
static int
adjacency(struct cfg *g)
{
	struct pmr_calc_proc *cp = g->cp;
	size_t nb = cp->nb, k;
	uint32_t *fi, *fo;

	g->oin = calloc(nb + 2, sizeof(uint32_t));
	g->oout = calloc(nb + 2, sizeof(uint32_t));
	g->ein = calloc(cp->ne + 1, sizeof(uint32_t));
	g->eout = calloc(cp->ne + 1, sizeof(uint32_t));
	fi = calloc(nb + 1, sizeof(uint32_t));
	fo = calloc(nb + 1, sizeof(uint32_t));
	if (g->oin == NULL || g->oout == NULL || g->ein == NULL ||
	    g->eout == NULL || fi == NULL || fo == NULL) {
		free(fi);
		free(fo);
		return PMR_ENOMEM;
	}
	for (k = 0; k < cp->ne; k++) {
		if (cp->e[k].to != PMR_CALC_NOWHERE)
			g->oin[cp->e[k].to + 1]++;
		if (cp->e[k].from != PMR_CALC_NOWHERE)
			g->oout[cp->e[k].from + 1]++;
	}
	for (k = 0; k < nb; k++) {
		g->oin[k + 1] += g->oin[k];
		g->oout[k + 1] += g->oout[k];
	}
	for (k = 0; k < cp->ne; k++) {
		uint32_t t = cp->e[k].to, f = cp->e[k].from;

		if (t != PMR_CALC_NOWHERE)
			g->ein[g->oin[t] + fi[t]++] = (uint32_t)k;
		if (f != PMR_CALC_NOWHERE)
			g->eout[g->oout[f] + fo[f]++] = (uint32_t)k;
	}
	free(fi);
	free(fo);
	return 0;
}

/*
 * Immediate dominators (Cooper, Harvey and Kennedy's iteration) over n
 * nodes from root; succ/pred give a node's neighbours through the edge
 * lists (rev: the reverse graph, node n the exit).  Fills idom (NOWHERE:
 * unreached) and the dominator tree's DFS intervals pre/post.
 */
struct dg {
	const struct cfg *g;
	int rev;
	uint32_t n;		/* nodes: blocks, + 1 exit if rev */
};

static uint32_t
dg_nsucc(const struct dg *d, uint32_t v, uint32_t k, int pred)
{
	/* returns the k-th neighbour of v, NOWHERE past the end */
	const struct cfg *g = d->g;
	const struct pmr_calc_proc *cp = g->cp;
	int out = d->rev ? pred : !pred;
	uint32_t nb = (uint32_t)cp->nb, i, j, w;

	if (d->rev && v == nb) {	/* the exit: its preds in rev are
					 * the blocks with an exit edge */
		if (pred)
			return PMR_CALC_NOWHERE;
		for (i = 0, j = 0; i < cp->ne; i++)
			if (cp->e[i].to == PMR_CALC_NOWHERE &&
			    cp->e[i].from != PMR_CALC_NOWHERE && j++ == k)
				return cp->e[i].from;
		return PMR_CALC_NOWHERE;
	}
	if (out) {
		if (g->oout[v] + k >= g->oout[v + 1])
			return PMR_CALC_NOWHERE;
		w = cp->e[g->eout[g->oout[v] + k]].to;
		return w == PMR_CALC_NOWHERE ? (d->rev ? nb : v) : w;
	}
	if (g->oin[v] + k >= g->oin[v + 1])
		return PMR_CALC_NOWHERE;
	w = cp->e[g->ein[g->oin[v] + k]].from;
	return w == PMR_CALC_NOWHERE ? v : w;	/* the entry: itself */
}

static int
dominators(const struct dg *d, uint32_t root, uint32_t *idom, uint32_t *pre,
    uint32_t *post)
{
	uint32_t n = d->n, *order = NULL, *num = NULL, *st = NULL, *it = NULL;
	uint32_t *kid = NULL, *kofs = NULL, no = 0, sp = 0, v, w, k, i, c;
	int changed, rc = PMR_ENOMEM;

	order = malloc(n * sizeof(*order));
	num = malloc(n * sizeof(*num));
	st = malloc(n * sizeof(*st));
	it = calloc(n, sizeof(*it));
	kid = malloc(n * sizeof(*kid));
	kofs = calloc(n + 1, sizeof(*kofs));
	if (order == NULL || num == NULL || st == NULL || it == NULL ||
	    kid == NULL || kofs == NULL)
		goto out;
	for (v = 0; v < n; v++) {
		num[v] = PMR_CALC_NOWHERE;
		idom[v] = PMR_CALC_NOWHERE;
	}
	/* post-order by an explicit-stack DFS */
	st[sp++] = root;
	num[root] = 0;
	while (sp > 0) {
		v = st[sp - 1];
		w = dg_nsucc(d, v, it[v]++, 0);
		if (w == PMR_CALC_NOWHERE) {
			order[no++] = v;
			sp--;
		} else if (w != v && num[w] == PMR_CALC_NOWHERE) {
			num[w] = 0;
			st[sp++] = w;
		}
	}
	for (i = 0; i < no; i++)
		num[order[i]] = i;	/* post-order number */
	idom[root] = root;
	do {
		changed = 0;
		for (i = no; i-- > 0;) {	/* reverse post-order */
			uint32_t nd = PMR_CALC_NOWHERE;

			v = order[i];
			if (v == root)
				continue;
			for (k = 0; (w = dg_nsucc(d, v, k, 1)) !=
			    PMR_CALC_NOWHERE; k++) {
				uint32_t a, b;

				if (w == v)
					continue;	/* a self loop, the entry */
				if (num[w] == PMR_CALC_NOWHERE ||
				    idom[w] == PMR_CALC_NOWHERE)
					continue;
				if (nd == PMR_CALC_NOWHERE) {
					nd = w;
					continue;
				}
				a = w;
				b = nd;
				while (a != b) {
					while (num[a] < num[b])
						a = idom[a];
					while (num[b] < num[a])
						b = idom[b];
				}
				nd = a;
			}
			if (nd != PMR_CALC_NOWHERE && idom[v] != nd) {
				idom[v] = nd;
				changed = 1;
			}
		}
	} while (changed);
	/* tree intervals: children lists, then a DFS */
	for (v = 0; v < n; v++)
		if (idom[v] != PMR_CALC_NOWHERE && v != root)
			kofs[idom[v] + 1]++;
	for (v = 0; v < n; v++)
		kofs[v + 1] += kofs[v];
	memset(it, 0, n * sizeof(*it));
	for (v = 0; v < n; v++)
		if (idom[v] != PMR_CALC_NOWHERE && v != root)
			kid[kofs[idom[v]] + it[idom[v]]++] = v;
	for (v = 0; v < n; v++) {
		pre[v] = post[v] = PMR_CALC_NOWHERE;
		it[v] = 0;
	}
	c = 0;
	sp = 0;
	st[sp++] = root;
	pre[root] = c++;
	while (sp > 0) {
		v = st[sp - 1];
		if (kofs[v] + it[v] < kofs[v + 1]) {
			w = kid[kofs[v] + it[v]++];
			pre[w] = c++;
			st[sp++] = w;
		} else {
			post[v] = c++;
			sp--;
		}
	}
	rc = 0;
out:
	free(order);
	free(num);
	free(st);
	free(it);
	free(kid);
	free(kofs);
	return rc;
}

/* a dominates b in the tree with intervals pre/post */
static int
above(const uint32_t *pre, const uint32_t *post, uint32_t a, uint32_t b)
{
	return pre[a] != PMR_CALC_NOWHERE && pre[b] != PMR_CALC_NOWHERE &&
	    pre[a] <= pre[b] && post[b] <= post[a];
}

static uint32_t
find(uint32_t *par, uint32_t x)
{
	while (par[x] != x)
		x = par[x] = par[par[x]];
	return x;
}

/*
 * Equivalence classes: b joins the nearest dominator a that it post-
 * dominates in the same loops (the natural loops of back edges h <- t,
 * h dominating t).  A graph with a retreating edge that is no back edge
 * (irreducible), or missing edges, keeps one class per block.
 */
static int
classes(struct cfg *g)
{
	struct pmr_calc_proc *cp = g->cp;
	uint32_t nb = (uint32_t)cp->nb, v, k, *st = NULL, *par = NULL;
	char *in = NULL;
	struct dg d = { g, 0, nb }, r = { g, 1, nb + 1 };
	int rc = PMR_ENOMEM;
	size_t i;

	g->idom = malloc(nb * sizeof(uint32_t));
	g->dpre = malloc(nb * sizeof(uint32_t));
	g->dpost = malloc(nb * sizeof(uint32_t));
	g->ipdom = malloc((nb + 1) * sizeof(uint32_t));
	g->ppre = malloc((nb + 1) * sizeof(uint32_t));
	g->ppost = malloc((nb + 1) * sizeof(uint32_t));
	g->sig = calloc(nb, sizeof(uint64_t));
	st = malloc(nb * sizeof(uint32_t));
	par = malloc(nb * sizeof(uint32_t));
	in = malloc(nb);
	if (g->idom == NULL || g->dpre == NULL || g->dpost == NULL ||
	    g->ipdom == NULL || g->ppre == NULL || g->ppost == NULL ||
	    g->sig == NULL || st == NULL || par == NULL || in == NULL)
		goto out;
	if ((rc = dominators(&d, 0, g->idom, g->dpre, g->dpost)) != 0 ||
	    (rc = dominators(&r, nb, g->ipdom, g->ppre, g->ppost)) != 0)
		goto out;
	if (cp->missing)
		goto out;
	/* natural loops */
	for (i = 0; i < cp->ne; i++) {
		uint32_t h = cp->e[i].to, t = cp->e[i].from, sp = 0;

		if (h == PMR_CALC_NOWHERE || t == PMR_CALC_NOWHERE ||
		    g->dpre[t] == PMR_CALC_NOWHERE)
			continue;
		if (h == t) {	/* a one-block loop */
			g->sig[h] ^= pmr_mix64(h + 1);
			continue;
		}
		if (!above(g->dpre, g->dpost, h, t))
			continue;	/* no back edge */
		/* h dominates t: the body reaches t without h */
		memset(in, 0, nb);
		in[h] = 1;
		g->sig[h] ^= pmr_mix64(h + 1);
		if (!in[t]) {
			in[t] = 1;
			g->sig[t] ^= pmr_mix64(h + 1);
			st[sp++] = t;
		}
		while (sp > 0) {
			v = st[--sp];
			for (k = g->oin[v]; k < g->oin[v + 1]; k++) {
				uint32_t u = cp->e[g->ein[k]].from;

				if (u == PMR_CALC_NOWHERE || in[u] ||
				    g->dpre[u] == PMR_CALC_NOWHERE)
					continue;
				in[u] = 1;
				g->sig[u] ^= pmr_mix64(h + 1);
				st[sp++] = u;
			}
		}
	}
	for (v = 0; v < nb; v++)
		par[v] = v;
	for (v = 1; v < nb; v++) {
		uint32_t a;

		if (g->dpre[v] == PMR_CALC_NOWHERE ||
		    g->ppre[v] == PMR_CALC_NOWHERE)
			continue;
		for (a = g->idom[v]; a != PMR_CALC_NOWHERE;
		    a = a == 0 ? PMR_CALC_NOWHERE : g->idom[a])
			if (above(g->ppre, g->ppost, v, a) &&
			    g->sig[a] == g->sig[v]) {
				par[find(par, v)] = find(par, a);
				break;
			}
	}
	for (v = 0; v < nb; v++)
		cp->b[v].cls = find(par, v);
	rc = 0;
out:
	free(st);
	free(par);
	free(in);
	return rc;
}

/* Sets b's frequency (and its class's unknown blocks'). */
static void
set_freq(struct pmr_calc_proc *cp, uint32_t b, double f)
{
	uint32_t c = cp->b[b].cls, k;

	if (f < 0)
		f = 0;
	for (k = 0; k < cp->nb; k++)
		if (cp->b[k].cls == c && !cp->b[k].known) {
			cp->b[k].known = 1;
			cp->b[k].propagated = 1;
			cp->b[k].F = f;
			cp->b[k].conf = PMR_CALC_LOW;
		}
}

/* One side's flow (out: the out-edges) of block b: returns 1 if it
 * learned something. */
static int
flow(struct pmr_calc_proc *cp, const struct cfg *g, uint32_t b, int out)
{
	const uint32_t *o = out ? g->oout : g->oin, *e = out ? g->eout :
	    g->ein;
	double sum = 0;
	uint32_t k, nu = 0, u = 0;

	if (o[b] == o[b + 1])
		return 0;
	for (k = o[b]; k < o[b + 1]; k++) {
		if (cp->e[e[k]].known)
			sum += cp->e[e[k]].F;
		else {
			nu++;
			u = e[k];
		}
	}
	if (cp->b[b].known && nu == 1) {
		double f = cp->b[b].F - sum;

		cp->e[u].F = f > 0 ? f : 0;
		cp->e[u].known = 1;
		return 1;
	}
	if (!cp->b[b].known && nu == 0) {
		set_freq(cp, b, sum);
		return 1;
	}
	return 0;
}

static void
propagate(struct pmr_calc_proc *cp, const struct cfg *g)
{
	int changed;
	uint32_t b;

	do {
		changed = 0;
		for (b = 0; b < cp->nb; b++) {
			changed |= flow(cp, g, b, 1);
			/* with edges missing, any block may have more in */
			if (!cp->missing)
				changed |= flow(cp, g, b, 0);
		}
	} while (changed);
}

/*
 * The samples and minimum cycles issue point i stands for (§6.1.3's
 * overlap): a point that waits for an earlier j (a register or a unit)
 * sees its wait overlapped by any dynamic stall after j, so it counts
 * with the instructions from j + 1 (the block's first, j before it).
 * Other instructions: their own samples and M (0 for all but points).
 */
static void
window(const struct pmr_calc_proc *cp, size_t i, double *S, double *M)
{
	const struct pmr_calc_insn *in = &cp->in[i];
	size_t first = cp->b[in->block].first, j;

	*S = in->S;
	*M = in->sc.M;
	if (in->sc.M == 0 || (in->sc.why != PMR_SCHED_DEP && in->sc.why !=
	    PMR_SCHED_FU) || in->sc.culprit < 0)
		return;
	j = (size_t)in->sc.culprit + 1;
	if (j < first || j > i)
		j = first;
	for (*S = 0, *M = 0; j <= i; j++) {
		*S += cp->in[j].S;
		*M += cp->in[j].sc.M;
	}
}

/* Estimates each class's frequency from its issue points. */
static int
estimate(struct pmr_calc_proc *cp)
{
	double *S, *M;
	uint32_t *ord, b, c;
	size_t n, k, i;

	S = malloc((cp->ni + 1) * sizeof(*S));
	M = malloc((cp->ni + 1) * sizeof(*M));
	ord = malloc((cp->nb + 1) * sizeof(*ord));
	if (S == NULL || M == NULL || ord == NULL) {
		free(S);
		free(M);
		free(ord);
		return PMR_ENOMEM;
	}
	for (c = 0; c < cp->nb; c++) {
		struct pmr_calc_freq fr;

		if (cp->b[c].cls != c)
			continue;	/* not a class's first block */
		for (b = 0, n = 0, k = 0; b < cp->nb; b++) {
			if (cp->b[b].cls != c)
				continue;
			ord[k++] = b;
			for (i = cp->b[b].first; i < cp->b[b].first +
			    cp->b[b].n; i++)
				window(cp, i, &S[n], &M[n]), n++;
		}
		if (pmr_calc_class_freq(S, M, n, &fr) != 0)
			continue;
		for (i = 0; i < k; i++) {
			cp->b[ord[i]].F = fr.f;
			cp->b[ord[i]].conf = fr.conf;
			/* a low-confidence estimate (few samples, which
			 * count every stall in, or one issue point, which
			 * may stall every time: the paper's gcc): the flow
			 * from better ones first, this only if none comes */
			cp->b[ord[i]].known = fr.conf > PMR_CALC_LOW;
			cp->b[ord[i]].sparse = fr.conf <= PMR_CALC_LOW;
		}
	}
	free(S);
	free(M);
	free(ord);
	return 0;
}

/* Walks back from instruction i (not included) over the block and its
 * predecessors, at most budget instructions; calls fn on each until it
 * returns non-zero (then returns that).  An unknown predecessor (the
 * entry) ends the walk. */
static long
walk_back(const struct pmr_calc_proc *cp, const struct cfg *g, size_t i,
    unsigned budget, long (*fn)(const struct pmr_calc_proc *, size_t,
    const void *), const void *arg)
{
	uint32_t stack[32], sp = 0, b = cp->in[i].block, k;
	unsigned left[32];
	long r;
	size_t j;

	/* own block first */
	for (j = i; j > cp->b[b].first && budget > 0; budget--)
		if ((r = fn(cp, --j, arg)) != 0)
			return r;
	if (budget == 0)
		return 0;
	stack[sp] = b;
	left[sp++] = budget;
	while (sp > 0) {
		uint32_t v = stack[--sp];
		unsigned bud = left[sp];

		for (k = g->oin[v]; k < g->oin[v + 1]; k++) {
			uint32_t u = cp->e[g->ein[k]].from, m;

			if (u == PMR_CALC_NOWHERE || u == v)
				continue;
			m = bud;
			for (j = cp->b[u].first + cp->b[u].n; j >
			    cp->b[u].first && m > 0; m--)
				if ((r = fn(cp, --j, arg)) != 0)
					return r;
			if (m > 0 && sp < 32) {
				stack[sp] = u;
				left[sp++] = m;
			}
		}
	}
	return 0;
}

/* the writer of register *arg: its index + 1 if a load, else -1 (stop) */
static long
find_load(const struct pmr_calc_proc *cp, size_t j, const void *arg)
{
	unsigned r = *(const unsigned *)arg, k;
	const struct pmr_sinsn *si = &cp->in[j].si;

	for (k = 0; k < si->ndst && k < PMR_INSN_MAXDST; k++)
		if (si->dst[k] == r)
			return si->nload > 0 || si->cls == PMR_OP_LOAD ||
			    si->cls == PMR_OP_LDST ? (long)j + 1 : -1;
	return 0;
}

/* what count_mem counts: loads (store 0) or stores, up to need */
struct memcount {
	int store;
	unsigned need;
	unsigned *seen;
};

static long
count_mem(const struct pmr_calc_proc *cp, size_t j, const void *arg)
{
	const struct memcount *m = arg;
	const struct pmr_sinsn *si = &cp->in[j].si;
	unsigned nl = si->nload, ns = (unsigned)(si->nmem - si->nload);

	/* as pmr_sim_optime counts them */
	if (nl == 0 && (si->cls == PMR_OP_LOAD || si->cls == PMR_OP_LDST))
		nl = 1;
	if (ns == 0 && (si->cls == PMR_OP_STORE || si->cls == PMR_OP_LDST))
		ns = 1;
	*m->seen += m->store ? ns : nl;
	return *m->seen >= m->need;
}

/* a divide of pool *arg */
static long
find_div(const struct pmr_calc_proc *cp, size_t j, const void *arg)
{
	const struct pmr_sim_optime *want = arg;
	const struct pmr_sinsn *si = &cp->in[j].si;

	if (si->cls != PMR_OP_IDIV && si->cls != PMR_OP_FDIV)
		return 0;
	/* both divides sit in the multiplier pools */
	return (si->cls == PMR_OP_IDIV) == (want->pool == PMR_SIM_POOL_IMUL);
}

/* i may start fetching a new line of bytes gran: its predecessors in
 * the flow end elsewhere, or are unknown */
static int
new_unit(const struct pmr_calc_proc *cp, const struct cfg *g, size_t i,
    uint64_t gran, int ret_same)
{
	const struct pmr_calc_insn *in = &cp->in[i];
	uint32_t b = in->block, k;
	uint64_t u = in->pc / gran;

	if (in->len > 0 && (in->pc + in->len - 1) / gran != u)
		return 1;	/* spans into the next */
	if (i > cp->b[b].first) {
		const struct pmr_calc_insn *p = &cp->in[i - 1];

		return p->pc / gran != u || ((p->si.cls == PMR_OP_CALL ||
		    p->si.cls == PMR_OP_CALL_IND || p->si.cls ==
		    PMR_OP_SYSCALL) && !ret_same);
	}
	if (i > 0 && (cp->in[i - 1].si.cls == PMR_OP_CALL ||
	    cp->in[i - 1].si.cls == PMR_OP_CALL_IND))
		return !ret_same || cp->in[i - 1].pc / gran != u;
	for (k = g->oin[b]; k < g->oin[b + 1]; k++) {
		uint32_t f = cp->e[g->ein[k]].from;
		const struct pmr_calc_insn *l;

		if (f == PMR_CALC_NOWHERE)
			return 1;
		l = &cp->in[cp->b[f].first + cp->b[f].n - 1];
		if (l->pc / gran != u)
			return 1;
	}
	return cp->missing;	/* an indirect jump may come */
}

/* Phase 2 for instruction i. */
static void
culprits(struct pmr_calc_proc *cp, const struct cfg *g,
    const struct pmr_sim_config *c, int itlb_fits, size_t i)
{
	struct pmr_calc_insn *in = &cp->in[i];
	uint32_t b = in->block, k;
	unsigned causes = 0, j, seen;
	struct pmr_sim_optime ot;
	int head = i == cp->b[b].first;

	in->dload = -1;
	/* a callee may evict the line of the call (a small, direct-mapped
	 * I-cache) but hardly its page's ITLB entry */
	if (new_unit(cp, g, i, c->line ? c->line : 64, 0))
		causes |= 1u << PMR_CALC_ICACHE;
	if (!itlb_fits && new_unit(cp, g, i, c->page ? c->page : 4096, 1))
		causes |= 1u << PMR_CALC_ITLB;
	for (j = 0; j < in->si.nsrc && j < PMR_INSN_MAXSRC; j++) {
		unsigned r = in->si.src[j];
		long w = walk_back(cp, g, i, BACK_D, find_load, &r);

		if (w > 0) {
			causes |= 1u << PMR_CALC_DCACHE | 1u << PMR_CALC_DTLB;
			if (in->dload < 0 || w - 1 > in->dload)
				in->dload = w - 1;
		}
	}
	pmr_sim_optime(c, in->si.cls, in->si.nload,
	    (unsigned)(in->si.nmem - in->si.nload), &ot);
	/* a load waits for an MSHR, a store for the write buffer, only
	 * behind as many recent loads (stores) as there are */
	if (ot.nload > 0) {
		struct memcount m = { 0, c->mshr ? c->mshr : 1, &seen };

		seen = 0;
		if (walk_back(cp, g, i, 2 * BACK_D, count_mem, &m) > 0)
			causes |= 1u << PMR_CALC_DCACHE;
	}
	if (ot.nstore > 0) {
		struct memcount m = { 1, c->sq ? c->sq : 1, &seen };

		seen = 0;
		if (walk_back(cp, g, i, 2 * BACK_D, count_mem, &m) > 0)
			causes |= 1u << PMR_CALC_WBUF;
	}
	/* a return is predicted by the return stack: not a return point */
	if (head) {
		int p = b == 0 || cp->missing;

		for (k = g->oin[b]; k < g->oin[b + 1] && !p; k++) {
			uint32_t f = cp->e[g->ein[k]].from;
			unsigned cl;

			if (f == PMR_CALC_NOWHERE) {
				p = 1;
				break;
			}
			cl = cp->in[cp->b[f].first + cp->b[f].n - 1].si.cls;
			p = cl == PMR_OP_BR_COND || cl == PMR_OP_JMP_IND ||
			    cl == PMR_OP_RET;
		}
		if (p)
			causes |= 1u << PMR_CALC_MISP;
	}
	if ((ot.pool == PMR_SIM_POOL_IMUL || ot.pool == PMR_SIM_POOL_FMUL) &&
	    walk_back(cp, g, i, BACK_F, find_div, &ot) > 0)
		causes |= 1u << PMR_CALC_FU;
	in->causes = causes;
}

#define NPRE 8			/* a context's instructions */
#define NCTX 8			/* contexts at most, else none as well */

/* Schedules block b after context (the last npre instructions of block u,
 * taken or not), keeping for each instruction the smallest M so far. */
/* The memory operand of an instruction's text, its segment if any and
 * brackets ("fs:[rax + 8]", whatever the size: pmsim forwards by the
 * 8-byte word), or NULL. */
static const char *
mem_operand(const char *text, size_t *len)
{
	const char *b = strchr(text, '['), *e;

	if (b == NULL || (e = strchr(b, ']')) == NULL)
		return NULL;
	if (b - text >= 3 && b[-1] == ':')
		b -= 3;
	*len = (size_t)(e + 1 - b);
	return b;
}

/*
 * memdep[k] of the instructions idx[0..n) (procedure indices): for a load,
 * the latest store before it of the same memory operand, with no register
 * of the operand written in between (the same address: pmsim forwards
 * the store's data and the load waits for it); -1 else.
 */
static void
memdeps(const struct pmr_calc_proc *cp, const uint32_t *idx, size_t n,
    int32_t *memdep)
{
	size_t k, j, len, l2, d;
	char reg[16];

	for (k = 0; k < n; k++) {
		const struct pmr_calc_insn *in = &cp->in[idx[k]];
		const char *op;

		memdep[k] = -1;
		if (in->si.nload == 0 || (op = mem_operand(in->text, &len)) ==
		    NULL || strstr(op, "rip") != NULL)
			continue;
		for (j = k; j-- > 0;) {
			const struct pmr_calc_insn *p = &cp->in[idx[j]];
			const char *o2;
			int clob = 0;

			if (p->si.nmem > p->si.nload && (o2 = mem_operand(
			    p->text, &l2)) != NULL && l2 == len &&
			    memcmp(o2, op, len) == 0) {
				memdep[k] = (int32_t)j;
				break;
			}
			for (d = 0; d < p->si.ndst && d < PMR_INSN_MAXDST; d++)
				if (p->si.dst[d] < 16 && strstr(op,
				    pmr_insn_reg_name(PMR_ISA_X86_64,
				    p->si.dst[d], reg, sizeof(reg))) != NULL)
					clob = 1;
			if (clob)
				break;
		}
	}
}

/* Schedules block b after context (the last npre instructions of block u,
 * taken or not), keeping for each instruction the smallest M so far. */
static void
sched_ctx(struct pmr_calc_proc *cp, const struct pmr_sim_config *c,
    uint32_t b, uint32_t u, int taken, int first, struct pmr_sinsn *blk,
    struct pmr_sched *sc)
{
	uint32_t f = cp->b[b].first, n = cp->b[b].n, npre = 0, pf = 0, i, j;
	uint32_t *idx = (uint32_t *)(sc + cp->ni + NPRE + 1);
	int32_t *md = (int32_t *)(idx + cp->ni + NPRE + 1);

	if (u != PMR_CALC_NOWHERE) {
		npre = cp->b[u].n < NPRE ? cp->b[u].n : NPRE;
		pf = cp->b[u].first + cp->b[u].n - npre;
		for (i = 0; i < npre; i++) {
			blk[i] = cp->in[pf + i].si;
			idx[i] = pf + i;
		}
	}
	for (i = 0; i < n; i++) {
		blk[npre + i] = cp->in[f + i].si;
		idx[npre + i] = f + i;
	}
	memdeps(cp, idx, npre + n, md);
	pmr_sim_sched(c, blk, npre + n, npre, taken, md, sc);
	for (i = 0; i < n; i++) {
		struct pmr_sched x = sc[npre + i];

		if (!first && x.M >= cp->in[f + i].sc.M)
			continue;
		/* indices in the procedure: the context's are u's */
		if (x.culprit >= 0)
			x.culprit = x.culprit < (int32_t)npre ? (int32_t)pf +
			    x.culprit : (int32_t)f + x.culprit - (int32_t)npre;
		for (j = 0; j < PMR_INSN_MAXSRC; j++)
			if (x.src_from[j] >= 0)
				x.src_from[j] = x.src_from[j] < (int32_t)npre ?
				    (int32_t)pf + x.src_from[j] : (int32_t)f +
				    x.src_from[j] - (int32_t)npre;
		cp->in[f + i].sc = x;
	}
}

static int
block_sampled(const struct pmr_calc_proc *cp, uint32_t u)
{
	uint32_t i;

	for (i = cp->b[u].first; i < cp->b[u].first + cp->b[u].n; i++)
		if (cp->in[i].S > 0)
			return 1;
	return 0;
}

/*
 * M_i of block b: the smallest over its ways in, after each predecessor
 * (entered by fall-through, or by a taken transfer), or with no context
 * where some way in is unknown (the entry, an indirect jump, too many).
 * A predecessor without a sample is left out: it ran rarely if ever
 * (§6.1.3: "predecessors that run much less often can be ignored"), and
 * alignment padding before a loop, which falls through into it, never.
 */
static void
schedule(struct pmr_calc_proc *cp, const struct cfg *g,
    const struct pmr_sim_config *c, uint32_t b, struct pmr_sinsn *blk,
    struct pmr_sched *sc)
{
	uint64_t pc = cp->in[cp->b[b].first].pc;
	uint32_t k, nctx = 0;
	int fresh = b == 0 || cp->missing || g->oin[b] == g->oin[b + 1] ||
	    g->oin[b + 1] - g->oin[b] > NCTX;

	if (fresh)
		sched_ctx(cp, c, b, PMR_CALC_NOWHERE, 0, nctx++ == 0, blk, sc);
	for (k = g->oin[b]; k < g->oin[b + 1] && k - g->oin[b] < NCTX; k++) {
		uint32_t u = cp->e[g->ein[k]].from;
		const struct pmr_calc_insn *l;

		if (u == PMR_CALC_NOWHERE) {
			if (!fresh)
				sched_ctx(cp, c, b, u, 0, nctx++ == 0, blk,
				    sc);
			fresh = 1;
			continue;
		}
		if (!block_sampled(cp, u))
			continue;	/* never seen to run: padding, ... */
		l = &cp->in[cp->b[u].first + cp->b[u].n - 1];
		if (u + 1 == b && l->si.cls != PMR_OP_JMP)
			sched_ctx(cp, c, b, u, 0, nctx++ == 0, blk, sc);
		/* pmsim's fetch runs ahead of an in-order issue, so a
		 * taken transfer's target may issue with it: no new cycle */
		if ((l->si.cls == PMR_OP_BR_COND || l->si.cls == PMR_OP_JMP) &&
		    l->si.target == pc && !(u + 1 == b && l->si.cls !=
		    PMR_OP_JMP))
			sched_ctx(cp, c, b, u, 0, nctx++ == 0, blk, sc);
	}
	if (nctx == 0)
		sched_ctx(cp, c, b, PMR_CALC_NOWHERE, 0, 1, blk, sc);
}

static void
cfg_free(struct cfg *g)
{
	free(g->ein);
	free(g->eout);
	free(g->oin);
	free(g->oout);
	free(g->idom);
	free(g->ipdom);
	free(g->dpre);
	free(g->dpost);
	free(g->ppre);
	free(g->ppost);
	free(g->sig);
}

void
pmr_calc_proc_free(struct pmr_calc_proc *cp)
{
	free(cp->in);
	free(cp->b);
	free(cp->e);
	memset(cp, 0, sizeof(*cp));
}

/*
 * Drops the code after the last block that runs: reached from the entry
 * or sampled, or reached from one that was (a symbol without a size
 * reaches to the section's end, over data and padding), and builds the
 * CFG again over what is left.
 */
static int
trim(struct pmr_calc_proc *cp, struct cfg *g, int truth)
{
	uint32_t nb = (uint32_t)cp->nb, *st, sp = 0, v, k, last = 0;
	char *seen;
	size_t i;

	if (nb == 0)
		return 0;
	st = malloc(nb * sizeof(*st));
	seen = calloc(nb, 1);
	if (st == NULL || seen == NULL) {
		free(st);
		free(seen);
		return PMR_ENOMEM;
	}
	for (v = 0; v < nb; v++)
		if (v == 0 || block_sampled(cp, v)) {
			seen[v] = 1;
			st[sp++] = v;
		}
	while (sp > 0) {
		v = st[--sp];
		if (v > last)
			last = v;
		for (k = g->oout[v]; k < g->oout[v + 1]; k++) {
			uint32_t w = cp->e[g->eout[k]].to;

			if (w != PMR_CALC_NOWHERE && !seen[w]) {
				seen[w] = 1;
				st[sp++] = w;
			}
		}
	}
	free(st);
	free(seen);
	if (last + 1 == nb)
		return 0;
	cp->ni = cp->b[last].first + cp->b[last].n;
	cp->hi = cp->in[cp->ni - 1].pc + (cp->in[cp->ni - 1].len ?
	    cp->in[cp->ni - 1].len : 1);
	free(cp->b);
	free(cp->e);
	cp->b = NULL;
	cp->e = NULL;
	cp->nb = cp->ne = 0;
	cp->missing = 0;
	for (i = 0; i < cp->ni; i++)
		cp->in[i].block = 0;
	cfg_free(g);
	memset(g, 0, sizeof(*g));
	g->cp = cp;
	if (build_cfg(cp, truth) != 0 || adjacency(g) != 0)
		return PMR_ENOMEM;
	return 0;
}

int
pmr_calc_proc(struct pmr_prof *p, const struct pmr_calc_opts *o,
    const char *name, size_t img, uint64_t lo, uint64_t hi,
    struct pmr_calc_proc *cp, char *err, size_t errlen)
{
	struct pmr_prof_insn *code = NULL;
	struct pmr_prof_row *rows;
	struct pmr_sinsn *blk = NULL;
	struct pmr_sched *sc = NULL;
	struct cfg g;
	size_t ni, nr, i, j, nev = pmr_prof_nevent(p), nrun = pmr_prof_nrun(p);
	uint32_t b;
	int rc, truth = o->ev_ret >= 0;

	memset(cp, 0, sizeof(*cp));
	memset(&g, 0, sizeof(g));
	g.cp = cp;
	cp->name = name;
	cp->img = img;
	cp->lo = lo;
	cp->hi = hi;
	cp->P = o->period;
	if ((rc = pmr_prof_code(p, img, lo, hi, &code, &ni)) != 0) {
		snprintf(err, errlen, "'%s': %s", pmr_images_get(
		    pmr_prof_images(p), img)->path, pmr_sym_strerror(rc));
		return rc;
	}
	rc = PMR_ENOMEM;
	if ((cp->in = calloc(ni ? ni : 1, sizeof(*cp->in))) == NULL)
		goto out;
	cp->ni = ni;
	for (i = 0; i < ni; i++) {
		cp->in[i].pc = code[i].pc;
		cp->in[i].len = code[i].len;
		memcpy(cp->in[i].text, code[i].text, sizeof(code[i].text));
		cp->in[i].si = code[i].si;
		if (code[i].len == 0)
			memset(&cp->in[i].si, 0, sizeof(cp->in[i].si));
	}
	if (o->rows != NULL) {
		/* the first row at lo or after */
		size_t a = 0, z = o->nrows;

		while (a < z) {
			size_t m = (a + z) / 2;

			if (o->rows[m].lo < lo)
				a = m + 1;
			else
				z = m;
		}
		rows = (struct pmr_prof_row *)o->rows + a;
		for (nr = 0; a + nr < o->nrows && rows[nr].lo < hi; nr++)
			;
	} else if ((rc = pmr_prof_group(p, PMR_PROF_BY_INSN, 1, lo, hi,
	    &rows, &nr, NULL)) != 0)
		goto out;
	for (j = 0, i = 0; j < nr; j++) {
		size_t r;
		long k = insn_at(cp, rows[j].lo);
		struct pmr_calc_insn *in;

		if (k < 0)
			continue;	/* a pc inside an instruction */
		in = &cp->in[k];
		for (r = 0; r < nrun; r++) {
			const double *v = rows[j].v + r * nev;
			unsigned t;

			if (o->run >= 0 && (long)r != o->run)
				continue;
			in->S += v[o->ev_s];
			if (o->ev_ret >= 0)
				in->t_ret += v[o->ev_ret];
			if (o->ev_taken >= 0)
				in->t_taken += v[o->ev_taken];
			if (o->ev_head >= 0)
				in->t_head += v[o->ev_head];
			for (t = 0; t < PMR_CALC_NTRUTH; t++)
				if (o->ev_hd[t] >= 0)
					in->t_hd[t] += v[o->ev_hd[t]];
		}
	}
	rc = PMR_ENOMEM;
	if (build_cfg(cp, truth) != 0 || adjacency(&g) != 0)
		goto out;
	if ((rc = trim(cp, &g, truth)) != 0)
		goto out;
	ni = cp->ni;
	rc = PMR_ENOMEM;
	if ((rc = classes(&g)) != 0)
		goto out;
	rc = PMR_ENOMEM;
	/* the static schedule of each block, after each predecessor */
	/* sc, then the blocks' indices and memdep (sched_ctx) */
	if ((blk = malloc((ni + NPRE + 1) * sizeof(*blk))) == NULL ||
	    (sc = malloc((ni + NPRE + 1) * (sizeof(*sc) + 2 *
	    sizeof(uint32_t)))) == NULL)
		goto out;
	for (b = 0; b < cp->nb; b++)
		schedule(cp, &g, o->cfg, b, blk, sc);
	if (estimate(cp) != 0)
		goto out;
	propagate(cp, &g);
	/* the classes the flow left unknown: their own sparse estimates,
	 * then the flow again from them */
	for (b = 0; b < cp->nb; b++)
		if (!cp->b[b].known && cp->b[b].sparse) {
			cp->b[b].known = 1;
			cp->b[b].conf = PMR_CALC_LOW;
		}
	propagate(cp, &g);
	for (i = 0; i < ni; i++) {
		struct pmr_calc_insn *in = &cp->in[i];
		const struct pmr_calc_block *bb = &cp->b[in->block];

		in->F = bb->known ? bb->F : 0;
		in->conf = bb->known ? bb->conf : PMR_CALC_NONE;
		in->dyn = bb->known ? in->S - in->F * in->sc.M : 0;
		culprits(cp, &g, o->cfg, o->itlb_fits, i);
	}
	rc = 0;
out:
	if (rc != 0 && rc != PMR_ENOMEM && *err == '\0')
		snprintf(err, errlen, "%s", pmr_strerror(rc));
	else if (rc == PMR_ENOMEM)
		snprintf(err, errlen, "out of memory");
	free(code);
	free(blk);
	free(sc);
	cfg_free(&g);
	if (rc != 0)
		pmr_calc_proc_free(cp);
	return rc;
}

void
pmr_calc_sum_add(struct pmr_calc_sum *s, const struct pmr_calc_proc *cp)
{
	size_t i;
	unsigned c;

	for (i = 0; i < cp->ni; i++) {
		const struct pmr_calc_insn *in = &cp->in[i];
		unsigned n = (unsigned)__builtin_popcount(in->causes);

		s->samples += in->S;
		if (in->conf == PMR_CALC_NONE)
			continue;
		s->tallied += in->S;
		s->actual += in->S;
		s->best += in->F * in->sc.M;
		s->insns += in->F;
		if (in->sc.M == 0) {
			s->dual += in->S;
			continue;
		}
		/* of its M head cycles, one issues: the rest waited */
		s->exec += in->F;
		s->st[in->sc.why ? in->sc.why : PMR_SCHED_WIDTH] += in->F *
		    (in->sc.M - 1);
		if (in->dyn < 0) {
			s->gain += in->dyn;
			continue;
		}
		if (n == 0) {
			s->unexpl += in->dyn;
			continue;
		}
		s->dynpos += in->dyn;
		for (c = 0; c < PMR_CALC_NCAUSE; c++)
			if (in->causes & 1u << c) {
				s->hi[c] += in->dyn;
				if (n == 1)
					s->lo[c] += in->dyn;
			}
	}
}
