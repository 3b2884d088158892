/*
 * sched.h: the issue timing of pmsim's machine, for whoever needs it
 * outside a run: each operation's unit pool and latencies (what pmsim's
 * issue uses), and the static schedule of a basic block on an in-order
 * core (inorder = 1), which gives DCPI's M_i, the fewest cycles an
 * instruction spends at the head of the issue queue when nothing stalls
 * dynamically (Anderson et al., SOSP '97 §6.1.3, §6.3).  pmsim's fetch
 * derives its entries' timing from pmr_sim_optime(), so M_i means the
 * same in pmprof calc as in pmsim's TRUTH head_cycles.
 */
#ifndef PMR_SIM_SCHED_H
#define PMR_SIM_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"
#include "trace/trace.h"

/* Unit pools (pmsim's issue: one count of units each, in this order). */
enum pmr_sim_pool {
	PMR_SIM_POOL_ALU, PMR_SIM_POOL_IMUL, PMR_SIM_POOL_FADD,
	PMR_SIM_POOL_FMUL, PMR_SIM_POOL_MEM, PMR_SIM_NPOOL
};

/* The issue timing of one operation. */
struct pmr_sim_optime {
	uint8_t cls;		/* the class used (unknown: other) */
	uint8_t pool;		/* enum pmr_sim_pool */
	uint8_t lat;		/* issue to result, memory access excluded */
	uint8_t nload, nstore;	/* accesses (a load or store class has 1) */
	uint8_t occupy;		/* cycles the unit stays taken: 1 pipelined,
				 * lat for a divide */
	uint16_t hit;		/* issue to result when loads hit the L1-D
				 * and DTLB: lat, + l1d_lat with a load */
};

/*
 * Fills *t for an operation of class cls with nload loads and nstore
 * stores (si's: nload, nmem - nload) on machine c: pool and latency by
 * class (lat_alu, lat_imul, ... ; loads and stores to the memory pool,
 * a store's result after 1 cycle, an ALU operation with a memory source
 * in the memory pool with its latency after the load's).
 */
void pmr_sim_optime(const struct pmr_sim_config *c, unsigned cls,
    unsigned nload, unsigned nstore, struct pmr_sim_optime *t);

/* Why an instruction issued later than the one before allowed. */
enum pmr_sched_why {
	PMR_SCHED_NONE,		/* no static stall */
	PMR_SCHED_DEP,		/* a source register of an earlier one */
	PMR_SCHED_FU,		/* its unit pool full (a divide, or the
				 * cycle's units taken) */
	PMR_SCHED_WIDTH		/* the cycle's issue slots taken */
};

/* One instruction of a block's static schedule. */
struct pmr_sched {
	uint32_t t;		/* issue cycle, the block's first cycle 0 */
	uint32_t M;		/* head cycles: t - t of the one before;
				 * the first: t + 1 */
	uint32_t stall;		/* static stall cycles: t minus the earliest
				 * cycle order and width allowed */
	uint8_t why;		/* enum pmr_sched_why of the stall */
	int32_t culprit;	/* index of the instruction waited for, -1 */
	int32_t src_from[PMR_INSN_MAXSRC];	/* per source: index of
				 * the earlier writer in the block, -1 */
};

/*
 * Schedules the n instructions si[0..n) of a block on in-order machine c
 * as pmsim's in-order issue does with no dynamic stall: in program order,
 * each in the first cycle, from the cycle of the one before, at which its
 * sources are ready (writers in the block: their issue cycle + hit
 * latency; others: ready), its pool has a unit free and the cycle has an
 * issue slot (issue_width).  The first npre instructions are a context:
 * the end of a predecessor, whose writers and units the block then sees
 * (what DCPI's analysis left out, §6.1.3's ldq example); with taken, the
 * block starts in a cycle after the context's last (a taken transfer
 * ends a fetch group).  With no context the block starts in a new cycle.
 * memdep, if not NULL, gives for each load the index of the earlier store
 * of its address (-1 none): the load waits for the store's result and
 * takes its data, as pmsim forwards it.  Fills out[0..n); the block's M_i
 * are out[npre..n).
 */
void pmr_sim_sched(const struct pmr_sim_config *c,
    const struct pmr_sinsn *si, size_t n, size_t npre, int taken,
    const int32_t *memdep, struct pmr_sched *out);

#endif /* PMR_SIM_SCHED_H */
