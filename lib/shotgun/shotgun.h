/*
 * shotgun.h: shotgun profiling's graph builder (Fields, Bodik, Hill,
 * Newburn, MICRO-36 2003, §5 and Fig. 5a): from signature samples (SIG,
 * 2 bits for each of a long run of retired instructions) and detailed
 * samples (DET, one instruction's latencies and producers with the
 * signature bits around it) of pmsim --shotgun, and the static program,
 * assemble graph fragments: GNODE records that icost reads as it reads
 * pmsim's own.  For cmd/shotgun.c.
 *
 * For each fragment: pick a signature at random; walk its instructions
 * from its start pc, each time taking among the detailed samples of the
 * pc the one whose context bits best match the signature's around that
 * position (ties at random), inferring the next pc from the program
 * (fall-through, a direct target when b1 says taken, a return stack) or,
 * for an indirect transfer, from the chosen sample; register producers
 * come from the program's register dataflow along the path.  Signature
 * bits that the inferred instruction could not have abort the fragment
 * (an errant path).
 */
#ifndef PMR_SHOTGUN_H
#define PMR_SHOTGUN_H

#include <stdint.h>
#include <stdio.h>

#include "records/records.h"
#include "sim/sim.h"
#include "trace/trace.h"

/* Why a fragment was discarded. */
enum pmr_shotgun_abort {
	PMR_SG_NOPC,		/* the pc is not in the program */
	PMR_SG_B1,		/* b1 on an instruction that neither accesses
				 * memory nor transfers control */
	PMR_SG_MEM00,		/* a load or store with b1 = b2 = 0 */
	PMR_SG_TAKEN,		/* a transfer that is always taken, b1 = b2 = 0,
				 * or a direct one with b1 = 0 */
	PMR_SG_NOTARGET,	/* an indirect transfer without a sample of
				 * its pc, or a branch without a target */
	PMR_SG_NOPATH,		/* no target a sample names agrees with the
				 * signature after it (look-ahead) */
	PMR_SG_MIDLINE,		/* b2 on an instruction that touches no
				 * memory and is not the first of its line
				 * on the path (an I-side miss is charged to
				 * the first) */
	PMR_SG_NABORT
};

struct pmr_shotgun_opts {
	unsigned fragments;	/* good fragments wanted [1000] */
	unsigned sig_len;	/* instructions of each signature used, 0 all */
	unsigned ctx;		/* match window: +-ctx [10], <= the DETs' */
	unsigned bits;		/* signature bits compared and checked: 1 or 2 */
	int oracle;		/* the true pcs (the trace) and the sample of
				 * each instruction by its seq, if there is one */
	int every;		/* each signature once, in commit order, instead
				 * of fragments drawn at random */
	unsigned lookahead;	/* an indirect transfer's target: the one whose
				 * next lookahead instructions agree with the
				 * signature (0: the best match alone) [64] */
	uint32_t keep;		/* if too few fragments can be built whole,
				 * a second pass keeps one that cannot go on
				 * up to its last choice (an indirect target,
				 * a rep step) if that leaves keep percent of
				 * its length or more (0: no second pass, as
				 * the paper's); with every, the one pass
				 * does [50] */
	unsigned strata;	/* signatures drawn by stratum of their (0,1)
				 * bits (b2 without b1), each stratum its
				 * share of the fragments (0: uniformly, as
				 * the paper's; at most PMR_SG_MAXSTRATA) [8] */
	/* [ours] a walk that cannot go on starts again at the next
	 * position whose context is a DET's of one pc alone, if that
	 * leaves resync percent of the signature or more (0: never, as
	 * the paper's) */
	uint32_t resync;
	/* [ours] a walk that cannot go on keeps what it built as a piece
	 * if pieces nodes or more of it are past warm: up to the node
	 * before an indirect transfer no sample names, else up to its last
	 * choice; and the walk starts again at the next anchor after the
	 * failure, where a piece or the tail is kept on the same terms
	 * (0: only a tail that leaves resync percent) [0 here, 800 in
	 * shotgun(1)] */
	uint32_t pieces;
	/* [ours] the nodes icost skips at each fragment's start (icost
	 * --warm): -n and the strata's shares count the nodes past them,
	 * so a short fragment (a tail from an anchor) counts for the part
	 * of a whole one it is [0 here, 1280 in shotgun(1)] */
	uint32_t warm;
	/* [ours] the wrong path's prefetch cycles (GNODE dd_wp): 0 as the
	 * sample has them (the paper's way), 1 at the DETs' rate on the
	 * nodes at a line start without an I-side miss [0] */
	uint32_t wp;
	/* [ours] at most this many percent more counted nodes, of
	 * fragments richer in I-side misses than the DETs, until the kept
	 * ones have the DETs' rate [0 here, 50 in shotgun(1)] */
	uint32_t calib;
	/* [ours] a return on an empty stack whose samples' targets the
	 * signature disagrees with goes to its function's return sites,
	 * as one without a sample [0 here, 1 in shotgun(1)] */
	int ret_sites;
	uint64_t seed;
};

/* shotgun(1)'s defaults, an initializer: the [bracketed] values above
 * where they say shotgun(1)'s */
#define PMR_SHOTGUN_OPTS_CMD { .fragments = 1000, .ctx = 10, .bits = 2, \
	.lookahead = 64, .keep = 50, .strata = 8, .resync = 50, .pieces = 800, \
	.warm = 1280, .wp = 0, .calib = 50, .ret_sites = 1 }

#define PMR_SG_MAXSTRATA 64

struct pmr_shotgun_stats {
	uint64_t sigs, dets;	/* samples read */
	uint64_t dets_nopc;	/* DETs of pcs not in the program (dropped) */
	uint64_t tried, kept;	/* fragments */
	uint64_t truncated;	/* of those kept, cut at a choice (--keep) */
	uint64_t pieces;	/* of those kept, pieces of a walk that could
				 * not go on (--pieces) */
	uint64_t kept_whole;	/* kept from the start of their
				 * signatures, whole (kept = kept_whole +
				 * resync_kept + the truncated and the
				 * pieces from the start) */
	uint64_t worth;		/* the kept ones' nodes past warm, in whole
				 * fragments' worth (-n asks for so many) */
	uint64_t sigs_tried;	/* the signatures drawn */
	uint64_t sigs_kept;	/* the signatures the kept ones are of: the
				 * windows of the run the breakdown samples */
	uint64_t aborted[PMR_SG_NABORT];
	uint64_t nodes;		/* nodes of kept fragments */
	uint64_t missing;	/* of those, without a sample of their pc */
	uint64_t proxied;	/* of those, with a proxy of their class */
	uint64_t matched;	/* with one: chosen by the match score */
	uint64_t ties;		/* of those, with more than one best */
	uint64_t own_miss;	/* of those, none with the node's own bits */
	/* nodes whose own b2 bit (a miss) the chosen sample or proxy left
	 * unexplained or contradicted: the miss cycles of a sample of the
	 * class that missed, or none */
	uint64_t grafted_miss, grafted_hit;
	/* loads and stores whose b1 (a last-level miss resets it) said the
	 * other level than their sample's miss: a class sample's of theirs */
	uint64_t grafted_level;
	uint64_t grafted_dir;	/* branches given a minority direction's outcome */
	uint64_t stripped_i;	/* nodes after another of their line whose
				 * sample's I-side miss was dropped */
	/* L1-D misses without cycles of their own or a PP edge that fits:
	 * made to wait for the latest full miss within the ROB, or given a
	 * full miss's cycles */
	uint64_t merged, unmerged;
	double score;		/* sum of score / bits compared */
	uint64_t indirect;	/* next pcs taken from a sample's target */
	uint64_t lookaheads;	/* of those, chosen among 2 or more targets */
	uint64_t lookahead_changed;	/* not the best match's target */
	/* --resync: walks started again at an anchor, fragments kept from
	 * one, and anchors on the true pc of those checked */
	uint64_t resyncs, resync_kept, resync_true, resync_checked;
	uint64_t return_sites;	/* a return's callers' return sites looked
				 * up (empty stack; no sample, or samples
				 * the signature disagrees with) */
	uint64_t ret_unsampled;	/* of those, taken where the return's
				 * samples' targets disagreed */
	/* strata (--strata): how many; those given up (no fragment in
	 * many tries), the fragments of their quotas moved to the stratum
	 * nearest in misses, and the fragments left short at the end */
	uint64_t strata, strata_out, strata_moved, strata_short;
	/* the b2 bits (misses) a signature instruction: over every
	 * signature, and over the kept fragments' nodes (a kept share far
	 * below the whole is windows with misses left out) */
	uint64_t sig_b2, sig_insns, kept_b2;
	uint64_t sig_i, kept_i;	/* their (0, 1) bits (the strata's key) */
	double sig_b2_sd;	/* the standard deviation of a signature's b2
				 * bits a 1000 instructions */
	/* with the true pcs (the trace, -p): fragments whose path left the
	 * true one (errant), of those aborted (detected); kept ones that
	 * stayed on it (consistent); indirect targets that were true */
	uint64_t truth;		/* fragments checked against the truth */
	uint64_t errant, detected, consistent;
	uint64_t off_nodes;	/* nodes of kept fragments off the true path */
	/* the wrong path's prefetch cycles (dd_wp): summed over the DETs
	 * of the program's pcs, and over the kept fragments' nodes */
	uint64_t wp_dets, wp_kept;
	uint64_t indirect_true, indirect_checked;
	/* --calibrate: the kept fragments' I-side stall cycles (GNODE
	 * dd_fetch + dd_itlb of the nodes past --warm) a 1000 counted
	 * nodes before it, the counted nodes it added, the fragments it
	 * built and did not keep (too few of them) */
	double calib_before;
	uint64_t calib_extra, calib_rejected;
	/* the DETs' I-side stall cycles a 1000 and the kept fragments' at
	 * the end (both 0 under --every and --oracle, or with fewer than
	 * 30 DETs that missed I-side); calib_short: the fragments' rate is
	 * below the DETs' by more than twice its standard error (what the
	 * calibration could not bring, or no calibration) */
	double calib_target, calib_after;
	int calib_short;
	/* the DETs' mispredicts (direction or target) and D-side misses
	 * (L1D, DTLB, last level) a 1000 and the kept fragments' counted nodes' (0
	 * under --every and --oracle, or with fewer than 30 such DETs);
	 * *_off: -1 or 1, the fragments' rate below or above the DETs' by
	 * more than twice its standard error and 15% of it */
	double misp_det, misp_kept, dmiss_det, dmiss_kept;
	int misp_off, dmiss_off;
};

struct pmr_shotgun;

/*
 * Returns a builder for the machine c (the GNODE defaults: unit and L1
 * latencies, the stack engine, the pc register), or NULL with *err set
 * (PMR_ENOMEM, PMR_EINVAL for bad options).
 */
struct pmr_shotgun *pmr_shotgun_new(const struct pmr_shotgun_opts *o,
    const struct pmr_sim_config *c, int *err);
void pmr_shotgun_free(struct pmr_shotgun *g);
/* Adds a sample; returns 0, PMR_ENOMEM, or PMR_ECORRUPT (a SIG shorter
 * than its bits, a DET whose ctx differs from the first's) with a message
 * in pmr_shotgun_errmsg(). */
int pmr_shotgun_add_sig(struct pmr_shotgun *g, const struct pmr_sim_sig *s);
int pmr_shotgun_add_det(struct pmr_shotgun *g, const struct pmr_sim_det *d);
/*
 * The program from a decoder instead (or beside): fetch(arg, pc, si)
 * fills *si with the instruction at pc and returns 0, or returns non-zero
 * if there is none; the builder asks for each pc it meets that it does
 * not know.
 */
void pmr_shotgun_set_fetch(struct pmr_shotgun *g,
    int (*fetch)(void *arg, uint64_t pc, struct pmr_sinsn *si), void *arg);
/* Adds a static instruction of the program; returns 0 or PMR_ENOMEM. */
int pmr_shotgun_add_insn(struct pmr_shotgun *g, const struct pmr_sinsn *si);
/*
 * Adds a dynamic instruction of the trace the run read, in order: its
 * static instruction, the fall-through of an instruction of unknown
 * length (ChampSim's), and, after pmr_shotgun_truth_begin(), its pc as
 * the truth of the signatures' windows (di->seq is the commit index).
 * Returns 0 or PMR_ENOMEM.
 */
int pmr_shotgun_add_dyn(struct pmr_shotgun *g, const struct pmr_dinsn *di);
/* The static instruction of a trace's dynamic one, and its fall-through,
 * without the path (an instruction before the run's window). */
int pmr_shotgun_add_static(struct pmr_shotgun *g,
    const struct pmr_dinsn *di);
/* The longest fragment the signatures give (instructions). */
uint32_t pmr_shotgun_longest(const struct pmr_shotgun *g);
/*
 * The true path: after the samples, the pcs of the retired instructions
 * in order, from commit index first on (the trace the run read); the
 * builder keeps those of the signatures' windows.  Returns 0 or
 * PMR_ENOMEM.
 */
int pmr_shotgun_truth_begin(struct pmr_shotgun *g);
int pmr_shotgun_truth_pc(struct pmr_shotgun *g, uint64_t seq, uint64_t pc);
/* The smallest and the end of the commit indexes the truth needs. */
void pmr_shotgun_truth_span(const struct pmr_shotgun *g, uint64_t *lo,
    uint64_t *hi);
/*
 * Builds the fragments, calling emit (if not NULL) for each node of each
 * kept fragment in order (frag from 0, pos from 0); returns 0, the first
 * non-zero value emit returns, or PMR_EINVAL (no signature, no program),
 * PMR_ECORRUPT (a signature that starts off the true path: another
 * trace) or PMR_ENOMEM with a message.
 */
int pmr_shotgun_build(struct pmr_shotgun *g,
    int (*emit)(void *arg, const struct pmr_sim_gnode *n, uint64_t frag,
    uint32_t pos), void *arg);
const struct pmr_shotgun_stats *pmr_shotgun_stats(const struct pmr_shotgun *g);
const char *pmr_shotgun_errmsg(const struct pmr_shotgun *g);
const char *pmr_shotgun_abort_name(unsigned why);
/*
 * Prints the per-pc sample coverage: each pc of the program met in the
 * kept fragments, its class, its nodes there, its DETs and the nodes
 * built without one, most nodes first; returns 0 or -1 (write error).
 */
int pmr_shotgun_coverage(const struct pmr_shotgun *g, FILE *f, int tsv);

#endif /* PMR_SHOTGUN_H */
