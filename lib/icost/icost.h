/*
 * icost.h: costs and interaction costs of event classes on an out-of-order
 * core (Fields, Bodik, Hill, Newburn, "Using Interaction Costs for
 * Microarchitectural Bottleneck Analysis", MICRO-36, 2003), from the
 * dependence graph pmsim writes (GNODE records) or from one simulation per
 * idealized subset (multisim).
 *
 * The graph (graph.c) evaluates the critical path of every requested
 * configuration (a subset of the categories, idealized together) in one
 * pass over the nodes, the configurations in lock-step lanes; memory is a
 * ring of the last 20 windows of node times, independent of trace length.
 * mobius.c picks the subsets of each mode; bd.c turns their t(S) into
 * costs and interaction costs (the Moebius sum).  The library never prints and never exits.
 */
#ifndef PMR_ICOST_H
#define PMR_ICOST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "records/records.h"
#include "sim/sim.h"

/* Categories at most; subsets are uint32_t masks of them. */
#define PMR_ICOST_MAXCAT 16
/* Categories at most with --all (2^n lanes). */
#define PMR_ICOST_MAXALL 10

/* The paper's eight base categories (§4.1, Table 4), as pmsim --ideal. */
struct pmr_icost_base {
	const char *name;
	unsigned ideal;		/* PMR_SIM_IDEAL_* */
	const char *what;	/* the graph change, for --help and icost(1) */
};
extern const struct pmr_icost_base pmr_icost_bases[];
extern const unsigned pmr_icost_nbases;
/* Returns the base category named name (or the paper's long names
 * shortalu, longalu), or NULL. */
const struct pmr_icost_base *pmr_icost_base_byname(const char *name);

/* Which instructions a category idealizes: all (no filter), or those
 * whose pc lies in one of the ranges or whose class is in clsmask. */
struct pmr_icost_range {
	uint64_t lo, hi;	/* [lo, hi) */
};

struct pmr_icost_cat {
	char name[64];
	unsigned ideal;		/* PMR_SIM_IDEAL_* bits it idealizes */
	int filtered;		/* 0: every instruction */
	uint32_t clsmask;	/* bit c: class c matches */
	struct pmr_icost_range *ranges;	/* sorted, disjoint */
	size_t nranges;
	const char *proc;	/* a procedure: ranges come from the IMAGE
				 * records' symbols, per stream (input.c) */
};

/* Returns the mask of the filtered categories among cat[0..n) that pc
 * and class cls match. */
uint32_t pmr_icost_match(const struct pmr_icost_cat *cat, unsigned n,
    uint64_t pc, unsigned cls);

/* Options of the graph where the paper leaves a choice (§2.5, §7). */
struct pmr_icost_gopts {
	int re_lgalu;		/* 1: the unit contention (RE) of the long
				 * classes (imul, idiv, fadd, fmul, fdiv)
				 * is lgalu's; 0 (default): bw's, as all RE */
	int win_inf;		/* win deletes the window edges (default 0:
				 * the window x 20, as pmsim --ideal=win) */
	int issue_sched;	/* 1: each lane schedules its own issue
				 * slots and unit pools (width, n_alu ...),
				 * oldest first, keeping of the observed
				 * issue wait (RE) only what the base
				 * lane's schedule does not explain; 0
				 * (default): every lane keeps RE */
	int chain;		/* the fragments laid end to end: each one's
				 * machine goes on from the previous one's
				 * (window, widths, MSHRs, issue slots, a
				 * redirect), and a producer before its
				 * first node is the node that far back */
	uint32_t warm;		/* a fragment's time counts from the commit
				 * of its warm-th node (0: from its start);
				 * shorter fragments count nothing */
};

/* Diagnostics of the base lane against the observed cycles. */
struct pmr_icost_diag {
	uint64_t late[5];	/* nodes D R E P C later than observed */
	int64_t late_max;	/* the largest lateness, cycles */
	uint64_t late_seq;	/* seq of the first late node */
	uint64_t dropped;	/* producer edges beyond the ring */
	int64_t t_obs;		/* observed: last commit - first node start */
	uint64_t gaps;		/* seq jumps (a stream of fragments) */
	uint64_t measured;	/* nodes whose time counts (all but warm-ups) */
	uint64_t short_frags;	/* fragments no longer than the warm-up */
	uint64_t rebases;	/* times the lanes' times moved to a new base */
};

struct pmr_icost_graph;

/*
 * Creates a graph evaluator for machine c (the configuration the GNODE
 * records came from) with ncat categories and nlanes lanes, lane k
 * idealizing the categories in lanes[k] (lane 0 must be 0, the base).
 * Returns 0 or PMR_ENOMEM / PMR_EINVAL (bad arguments).
 */
int pmr_icost_graph_new(struct pmr_icost_graph **gp,
    const struct pmr_sim_config *c, const struct pmr_icost_cat *cat,
    unsigned ncat, const uint32_t *lanes, unsigned nlanes,
    const struct pmr_icost_gopts *o);
void pmr_icost_graph_free(struct pmr_icost_graph *g);
/* Adds the next node in commit order. */
void pmr_icost_graph_node(struct pmr_icost_graph *g,
    const struct pmr_sim_gnode *n);
/*
 * Adds the nodes of n GNODE payloads of pmsim's layout (PMR_SIM_GNODE_LEN
 * bytes, stride apart from p on), as pmr_icost_graph_node() one by one,
 * while each one's seq follows *prev (which it updates); returns how many
 * it took (it stops before a gap, or at once if *prev is UINT64_MAX).
 */
size_t pmr_icost_graph_run(struct pmr_icost_graph *g, const unsigned char *p,
    size_t n, size_t stride, uint64_t *prev);
/* Starts a new fragment: the nodes that follow have no edges into the
 * ones before (shotgun fragments, or a seq gap in the input). */
void pmr_icost_graph_restart(struct pmr_icost_graph *g);
/* From now on prints each node's times in the first lane (F D R E P C,
 * graph cycles from the fragment's first fetch) beside the observed ones
 * (D R E P C, on the fragment's first dispatch) on f, a TSV line each;
 * NULL stops.  Write errors show in ferror(f). */
void pmr_icost_graph_trace(struct pmr_icost_graph *g, FILE *f);
/*
 * --top: from now on, for each node, an upper bound in the base lane of
 * what idealizing ideal (PMR_SIM_IDEAL_* bits: dl1, dmiss, imiss, bmisp,
 * shalu, lgalu; not win or bw, which have no instances) at that one
 * instance saves; pmr_icost_graph_gain gives, after each node, the bound
 * of this node (*cur) and of the one before it (*prev: its mispredict
 * redirect and BTB bubble, which land on this node's fetch).  Summed over
 * a static instruction's instances, an upper bound of its cost.
 */
void pmr_icost_graph_gain_on(struct pmr_icost_graph *g, unsigned ideal);
void pmr_icost_graph_gain(const struct pmr_icost_graph *g, int64_t *cur,
    int64_t *prev);
/* Whether the nodes to come carry observed cycles (at_*) to check the
 * graph against (1, the default), or not (shotgun's fragments). */
void pmr_icost_graph_observed(struct pmr_icost_graph *g, int on);
/* Whether the nodes to come are sampled (shotgun's fragments: each
 * node's fields are another instance's), so that --issue sched's base
 * lane schedules its issue as the others do instead of keeping the
 * node's issue wait (1), or are the run's own (0, the default). */
void pmr_icost_graph_sampled(struct pmr_icost_graph *g, int on);
/* Nodes added so far. */
uint64_t pmr_icost_graph_nodes(const struct pmr_icost_graph *g);
/* Stores the critical-path length of each lane in t[0..nlanes): the sum
 * over fragments of the last commit time, from 0 at the first fetch. */
void pmr_icost_graph_times(const struct pmr_icost_graph *g, int64_t *t);
void pmr_icost_graph_diag(const struct pmr_icost_graph *g,
    struct pmr_icost_diag *d);

/* Lanes for a mode: all 2^n subsets, or order <= k plus the full set, or
 * the focus category's shape (singles, the pairs with focus, all).  Fills
 * lanes (lane 0 = 0) and returns their number. */
unsigned pmr_icost_lanes_all(unsigned n, uint32_t *lanes);
unsigned pmr_icost_lanes_order(unsigned n, unsigned k, uint32_t *lanes);
unsigned pmr_icost_lanes_focus(unsigned n, unsigned focus, uint32_t *lanes);
/* The number of lanes the modes need (for allocating lanes). */
size_t pmr_icost_lanes_max(unsigned n, unsigned order, int all);

#endif /* PMR_ICOST_H */
