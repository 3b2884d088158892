/*
 * records.h: every record type of the pmr stream, at the bottom of lib.
 *
 * This module owns what man/pmr.5 specifies record by record: the type
 * numbers, the decoded struct of each record (the form pmr_rec_decode()
 * fills and pmr_write() encodes), and the field tables that give each
 * field's name, kind, minor version and offset in that struct.  The
 * tables are split by family as the page is: rec_core.c (HEADER, END,
 * PROV, META, EVENT, HOT), rec_trace.c (INSTRUCTION TRACES), rec_sim.c
 * (SIMULATION RECORDS) and rec_pairs.c (PROFILE METRICS); registry.c
 * looks types up over all of them.  man/pmr.5 is normative: change a
 * table and the page together (tests/pmr-tables prints a table for the
 * page, and tests/12-pmr-spec.bats checks that they agree).
 *
 * Nothing here calls into the rest of lib: the stream library (stream/)
 * encodes, decodes and prints records through these tables, and the
 * trace reader, the simulator and the analyses use the structs.
 */
#ifndef PMR_RECORDS_H
#define PMR_RECORDS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Record types.  Type 0 never appears on the wire: the reader uses it for
 * the stream header when PMR_RD_FRAMING is set.  Bit 31 marks a
 * must-understand type: a reader that does not know such a type rejects the
 * stream, while unknown ordinary types are skipped or passed through.
 * Core types are below 64; tool-private types are 64 and up.  The ranges:
 * 1-7 framing and metadata; 8-15 the instruction trace; 16-23 simulation
 * output; 24-31 events and profiles; 32-47 graphs, fragments, costs,
 * metrics (man/pmr.5, TYPE NUMBERS).
 */
#define PMR_REC_HEADER 0u
#define PMR_REC_END 1u
#define PMR_REC_PROV 2u
#define PMR_REC_META 3u
#define PMR_REC_IMAGE 8u
#define PMR_REC_SINSN 9u
#define PMR_REC_DINSN 10u
#define PMR_REC_STATS 16u
#define PMR_REC_SAMPLE 17u
#define PMR_REC_PAIR 18u
#define PMR_REC_TRUTH 19u
#define PMR_REC_ATRUTH 20u	/* exact D-cache misses per pc and line */
#define PMR_REC_EVENT 24u
#define PMR_REC_HOT 25u
#define PMR_REC_GNODE 32u
#define PMR_REC_SIG 33u		/* shotgun signature sample */
#define PMR_REC_DET 34u		/* shotgun detailed sample */
#define PMR_REC_COST 35u	/* icost: t and t(S) of one subset */
#define PMR_REC_METRIC 40u	/* pairs' accumulators */
#define PMR_REC_CRITICAL 0x80000000u
#define PMR_REC_USER 64u

/* --- the field tables -------------------------------------------------- */

/* Field kinds, with their wire encoding (all little-endian). */
enum pmr_kind {
	PMR_K_U8 = 1,	/* 1 byte, uint8_t */
	PMR_K_U16,	/* 2 bytes, uint16_t */
	PMR_K_U32,	/* 4 bytes, uint32_t */
	PMR_K_U64,	/* 8 bytes, uint64_t, printed in decimal */
	PMR_K_X64,	/* 8 bytes, uint64_t, printed 0x-hex (pcs, addresses) */
	PMR_K_I64,	/* 8 bytes two's complement, int64_t */
	PMR_K_F64,	/* 8 bytes IEEE-754 binary64, double */
	PMR_K_STR,	/* u32 length + UTF-8 bytes, struct pmr_bytes */
	PMR_K_BLOB,	/* u32 length + bytes, struct pmr_bytes, printed hex */
	PMR_K_A64	/* u32 count + count u64, struct pmr_bytes (n = count) */
};

/* A borrowed run of bytes inside a record; valid until the next read. */
struct pmr_bytes {
	const unsigned char *p;
	uint32_t n;
};

struct pmr_field {
	const char *name;
	unsigned char kind;	/* enum pmr_kind */
	unsigned char since;	/* minor version that appended the field */
	unsigned short off;	/* offset in the decoded struct */
	const char *desc;
};

struct pmr_rtype {
	uint32_t type;
	const char *name;
	const char *desc;
	const struct pmr_field *fields;
	unsigned nfields;
	size_t size;		/* sizeof the decoded struct */
};

/* --- core records (rec_core.c) ----------------------------------------- */

/* EVENT kinds (mhash's tuples). */
#define PMR_EV_VALUE 1u	 /* (load pc, loaded value) */
#define PMR_EV_EDGE 2u	 /* (branch pc, target) */

/* Decoded forms of the core records. */
struct pmr_header {
	uint16_t minor;		/* minor version of the writer */
	uint16_t reserved;
	uint32_t must_flags;
	uint32_t ign_flags;
	struct pmr_bytes creator;
};

struct pmr_end {
	uint64_t nrec;		/* records in this stream before END */
};

struct pmr_prov {
	uint64_t seed;
	uint32_t flags;		/* bit 0: seed was given or drawn */
	struct pmr_bytes prog, version, cmdline;
};

struct pmr_meta {
	struct pmr_bytes key, value;
};

struct pmr_event {
	uint8_t kind;		/* PMR_EV_* */
	uint64_t pc;
	uint64_t value;
};

/* HOT: one candidate of an interval profile (mhash). */
struct pmr_hot {
	uint64_t interval;	/* interval index, from 0 */
	uint64_t pc;
	uint64_t value;		/* value or branch target */
	uint64_t count;		/* the profiler's count */
	uint64_t exact;		/* exact count, 0 unless evaluated */
	uint8_t cls;		/* 0 exact, 1 NP, 2 NN, 3 FP, 4 FN, 255 none */
};

/* --- instruction trace records (rec_trace.c) --------------------------- */

/* IMAGE: one executable or shared library mapped by the traced program. */
struct pmr_image {
	uint64_t start;		/* load address */
	uint64_t size;		/* bytes mapped */
	uint64_t offset;	/* file offset mapped at start */
	struct pmr_bytes path;
	struct pmr_bytes build_id;	/* ELF NT_GNU_BUILD_ID, may be empty */
};

/* SINSN as decoded by the registry (pmview); readers use pmr_sinsn. */
struct pmr_sinsn_rec {
	uint64_t pc;
	uint8_t isa, cls, len, flags, nload;
	uint64_t target;
	struct pmr_bytes bytes;
	struct pmr_bytes src, dst;	/* u16 LE register numbers */
	uint16_t src_addr;
	struct pmr_bytes msize;		/* u16 LE bytes per access */
};

/* DINSN block flags (must-understand: a reader rejects unknown bits). */
#define PMR_DB_VALUES 0x1u	/* the val stream has one token per load */
#define PMR_DB_NEXTUNK 0x2u	/* end_pc is not known (end of the trace) */
#define PMR_DB_KNOWN 0x3u

/* DINSN: a block of n dynamic instructions, as decoded by the registry. */
struct pmr_dinsn_rec {
	uint32_t n;		/* instructions in the block */
	uint32_t flags;		/* PMR_DB_* */
	uint32_t tid;
	uint64_t pc;		/* pc of the first instruction */
	uint64_t end_pc;	/* pc that follows the last instruction */
	struct pmr_bytes br, tgt, mem, val, exc;	/* token streams */
};

/* --- simulation records (rec_sim.c) ------------------------------------ */

/* STATS record (decoded form).  Counts are since the end of warm-up. */
struct pmr_sim_stats {
	uint8_t final;		/* 1 at the end, 0 for --interval records */
	uint64_t cycles;
	uint64_t retired;
	double ipc;
	uint64_t fetched;	/* predicted-path fetches, bad path included */
	uint64_t aborted;
	uint64_t branches;	/* retired control transfers */
	uint64_t cond;		/* retired conditional branches */
	uint64_t mispredicts;	/* retired transfers that redirected */
	uint64_t cond_misp;
	uint64_t btb_miss;
	uint64_t loads, stores;
	uint64_t icache_miss, itlb_miss;
	uint64_t dcache_miss;
	union {			/* l2_miss: the field's first name */
		uint64_t llc_miss;
		uint64_t l2_miss;
	};
	uint64_t dtlb_miss;
	uint64_t forwarded;
	uint64_t st_icache, st_redirect, st_fetchq;
	uint64_t st_rob, st_iq, st_regs, st_lsq, st_mshr;
	uint64_t samples;	/* SAMPLE records written */
	uint64_t pairs;
	uint64_t dropped;	/* selections lost (tag busy, run end) */
	uint64_t warmup;	/* instructions retired in warm-up */
	uint64_t wrongpath;	/* fetched on a wrong path */
	uint64_t mem_traps;	/* memory-order replay traps */
	/* windowed IPC (since 1): consecutive win_len-cycle windows */
	uint64_t win_len;	/* window length, cycles */
	uint64_t win_n;		/* complete windows */
	uint64_t win_zero;	/* of those, windows that retired nothing */
	uint64_t win_sum, win_sumsq, win_sumcube;	/* sums of c, c^2, c^3 */
	uint64_t win_max, win_min;	/* retires per window; min over c > 0 */
	/* Top-Down level 1 slots (since 4): map slots (map_width a cycle) */
	uint64_t td_slots;	/* map_width x cycles */
	uint64_t td_mapped;	/* instructions mapped, bad path included */
	uint64_t td_fe;		/* slots empty, back end ready: front end */
	uint64_t td_bad;	/* slots empty while refilling after a squash */
	uint64_t pc_hash;	/* (since 4) hash of the retired pcs in order:
				 * equal for runs of the same instructions */
};

/* SAMPLE record, and each member of a PAIR. */
struct pmr_sim_sample {
	uint8_t sampler;	/* PMR_SIM_SAMPLER_* */
	uint8_t cls;		/* enum pmr_opclass */
	uint8_t trap;		/* enum pmr_sim_trap */
	uint8_t hist_len;	/* bits valid in history */
	uint32_t events;	/* PMR_SIM_EV_* */
	uint32_t context;	/* thread id from the trace */
	uint64_t seq;		/* sample number */
	uint64_t pos;		/* fetch index, bad path included */
	uint64_t pc;
	uint64_t addr;		/* effective address or transfer target */
	uint64_t history;	/* global history at fetch, bit 0 newest */
	uint64_t fetch_cycle;
	uint32_t lat_fm;	/* fetch -> map */
	uint32_t lat_md;	/* map -> data ready */
	uint32_t lat_dx;	/* data ready -> issue */
	uint32_t lat_xr;	/* issue -> retire ready */
	uint32_t lat_rr;	/* retire ready -> retire */
	uint32_t lat_ld;	/* load issue -> completion */
	uint32_t lat_total;	/* fetch -> retire or abort */
	uint8_t kind;		/* PMR_SIM_KIND_* (fetch-opportunity mode) */
	uint64_t cpos;		/* commit index if retired, else ~0 (since 1) */
};

struct pmr_sim_pair {
	uint64_t seq;
	uint32_t fetch_lat;	/* F(b) - F(a) */
	uint32_t dist;		/* d = pos(b) - pos(a) */
	struct pmr_sim_sample a, b;
};

/*
 * The causes TRUTH splits head_cycles by (since 1.6), in the order of its
 * hd_* fields: why the head of the issue queue of an in-order core spent
 * the cycle there (man/pmr.5, TRUTH).
 */
enum pmr_sim_hd {
	PMR_SIM_HD_ISSUE,	/* it issued */
	PMR_SIM_HD_STATIC,	/* a fixed latency, a fetch break */
	PMR_SIM_HD_ICACHE,	/* the front end: an I-cache miss */
	PMR_SIM_HD_ITLB,	/* the front end: an ITLB miss */
	PMR_SIM_HD_DCACHE,	/* a load that missed the L1-D; no MSHR */
	PMR_SIM_HD_DTLB,	/* a load that missed the DTLB */
	PMR_SIM_HD_MISP,	/* a mispredict: wrong path and refill */
	PMR_SIM_HD_WBUF,	/* a store with the store queue full */
	PMR_SIM_HD_FU,		/* ready, its unit busy */
	PMR_SIM_HD_OTHER,
	PMR_SIM_HD_N
};

/* TRUTH record: exact aggregates of one static pc. */
struct pmr_sim_truth {
	/* what --truth adds to at every fetch and retire, first: four
	 * cache lines in pmsim's table of 64-byte aligned entries (the
	 * record's field order is the registry's, not this one) */
	uint64_t fetched, retired;
	uint64_t sum_fm, sum_md, sum_dx, sum_xr, sum_rr, sum_ld;
	uint64_t sq_fm, sq_md, sq_dx, sq_xr, sq_rr, sq_ld;
	uint64_t n_ld;		/* retired loads with a completion */
	uint64_t icache_miss, itlb_miss, dcache_miss, dtlb_miss;
	union {			/* l2_miss: the field's first name */
		uint64_t llc_miss;
		uint64_t l2_miss;
	};
	uint64_t taken, br_misp, jmp_misp, fu_conflict, map_stall;
	uint64_t forwarded;
	uint64_t inprog;	/* L: sum of (RR or A) - F, all fetched */
	uint64_t aborted;
	uint64_t ab_misp;	/* aborted by a mispredict */
	uint64_t ab_other;
	uint64_t useful;	/* sum of retiring issues during [F, RR) */
	uint64_t inflight;	/* instruction-cycles of the others in flight
				 * during each instance's [F, RR or abort) */
	uint64_t inflight_ret;	/* the same, of those that retire */
	uint64_t local;		/* since 1: per retired instance, the other
				 * instructions retired within +-delta cycles */
	int64_t wasted;		/* C * inprog - useful */
	double tp_cycles;	/* time-proportional oracle share */
	uint64_t pc;
	uint8_t cls;
	uint64_t head_cycles;	/* since 1.5: cycles at the head of the
				 * issue queue (inorder = 1, else 0) */
	union {			/* since 1.6: head_cycles by cause */
		struct {
			uint64_t hd_issue, hd_static, hd_icache, hd_itlb;
			uint64_t hd_dcache, hd_dtlb, hd_misp, hd_wbuf;
			uint64_t hd_fu, hd_other;
		};
		uint64_t hd[PMR_SIM_HD_N];	/* by enum pmr_sim_hd */
	};
};

/*
 * ATRUTH record (since 1.1, with --truth): the retired loads and stores of
 * one pc that missed the L1-D, by the line of their first effective
 * address (SAMPLE addr), so that the address profiles of pairs (-b page,
 * -b set) have an exact value.
 */
struct pmr_sim_atruth {
	uint64_t pc;
	uint64_t line;		/* address of the line: addr & ~(bytes - 1) */
	uint32_t bytes;		/* line size (configuration key line) */
	uint64_t misses;
};

/*
 * GNODE record: one retired instruction as a node of the dependence graph
 * of Fields et al. (MICRO'03 §3, Table 3), in commit order.  Latency
 * components are kept apart so that each idealization can zero its own
 * part; the producer distances are in commit order (seq - seq of the
 * producer).
 */
struct pmr_sim_gnode {
	uint64_t seq;		/* commit index, warm-up included */
	uint64_t pc;
	uint8_t cls;		/* enum pmr_opclass */
	uint8_t partial;	/* load merged with an outstanding miss */
	uint32_t events;	/* PMR_SIM_EV_* */
	uint16_t dd_fetch;	/* DD: I-cache/ITLB stall cycles */
	uint32_t re;		/* RE: data ready -> issue, cycles */
	uint16_t ep_fu;		/* EP: functional-unit latency */
	uint16_t ep_mem;	/* EP: L1-D hit latency (loads) */
	uint16_t ep_miss;	/* EP: further cycles of a miss */
	uint16_t ep_tlb;	/* EP: DTLB miss and first-touch cycles */
	uint16_t cc;		/* CC: store-commit contention (always 0) */
	uint32_t pr_reg_a, pr_reg_b, pr_reg_c;	/* register producers */
	uint32_t pr_mem;	/* forwarding store */
	uint32_t pp;		/* missing load of the same line */
	uint64_t at_d, at_r, at_e, at_p, at_c;	/* observed cycles */
	uint16_t dd_itlb;	/* since 1: ITLB/first-touch part of dd_fetch */
	uint16_t dd_brk;	/* since 1: DD fetch-break cycles */
	uint32_t rs;		/* since 2: seq distance to the instruction
				 * whose issue or retire freed what map
				 * waited for, 0 none */
	uint8_t rk;		/* since 2: PMR_SIM_RK_* */
	uint16_t dd_dec;	/* since 2: DD: decode cycles of a miss in the
				 * decoded-instruction buffer */
	uint16_t dd_wp;		/* since 3: DD: I-side stall cycles a
				 * wrong-path fetch spared (it brought the
				 * line into the L1-I or L2) */
	uint32_t pl;		/* since 3: an L1-D hit: seq distance to the
				 * load whose miss brought the line, 0 none */
};

/* GNODE/DET rk: the resource edge into D of the waiting instruction. */
#define PMR_SIM_RK_NONE 0u
#define PMR_SIM_RK_ISSUE 1u	/* an issue-queue entry: E_j -> D_i */
#define PMR_SIM_RK_RETIRE 2u	/* registers, load or store queue: C_j -> D_i */

/*
 * SIG record: a shotgun signature sample (Fields et al. MICRO'03 §5.1,
 * "long and narrow"): the 2 signature bits (pmr_sim_sig_bits) of prefix +
 * len consecutive committed instructions, the prefix first.  Instruction
 * j of the blob (from 0) is bits 2j (b1) and 2j + 1 (b2), little-endian:
 * byte j / 4, bits 2 (j % 4) and 2 (j % 4) + 1.
 */
struct pmr_sim_sig {
	uint64_t seq;		/* commit index of the start (oracle) */
	uint64_t start_pc;	/* pc of the start, the first graph node */
	uint32_t prefix;	/* instructions before the start */
	uint32_t len;		/* instructions from the start on */
	struct pmr_bytes bits;	/* (prefix + len + 3) / 4 bytes; the
				 * sampler's buffer, valid during the call */
};

/*
 * DET record: a shotgun detailed sample (Fields et al. MICRO'03 §5.1,
 * "short and wide"): the GNODE content of one committed instruction
 * (without the observed cycles), the target it transferred to if it is an
 * indirect jump, an indirect call or a return, and the signature bits of
 * the 2 ctx + 1 instructions around it: position -ctx + j is bits 2j (b1)
 * and 2j + 1 (b2) of sig, so the sampled instruction is at bits 2 ctx
 * and 2 ctx + 1.
 */
struct pmr_sim_det {
	uint64_t seq;		/* commit index (oracle) */
	uint64_t pc;
	uint8_t cls;
	uint8_t partial;
	uint8_t ctx;		/* context width */
	uint32_t events;
	uint16_t dd_fetch, dd_itlb, dd_brk;
	uint32_t re;
	uint16_t ep_fu, ep_mem, ep_miss, ep_tlb;
	uint16_t cc;
	uint32_t pr_reg_a, pr_reg_b, pr_reg_c;
	uint32_t pr_mem;
	uint32_t pp;
	uint64_t target;	/* next pc of an indirect transfer, else 0 */
	uint64_t sig;		/* 2-bit signatures of -ctx..+ctx */
	uint32_t rs;		/* since 2: as GNODE rs */
	uint8_t rk;		/* since 2: as GNODE rk */
	uint16_t dd_dec;	/* since 2: as GNODE dd_dec */
	uint16_t dd_wp;		/* since 3: as GNODE dd_wp */
	uint32_t pl;		/* since 3: as GNODE pl */
};

/* --- profile metrics (rec_pairs.c) ------------------------------------- */

/* METRIC record (pairs -f pmr), decoded form; PMR_PAIRS_MK_* are in
 * pairs/pairs.h. */
struct pmr_pairs_metric_rec {
	uint64_t key;		/* pc; 0 for the global record */
	uint8_t kind;		/* PMR_PAIRS_MK_* */
	uint8_t cls;		/* operation class of the pc */
	uint64_t samples;	/* samples (or pair members) of the pc */
	double execs;		/* estimates of this stream alone */
	double retires;
	double wasted;		/* NaN without pairs */
	struct pmr_bytes acc;	/* A64: the accumulator vector */
};

/* --- costs (rec_icost.c) ------------------------------------------------ */

/* COST sources. */
#define PMR_COST_GRAPH 0u	/* the critical path of GNODE records */
#define PMR_COST_MULTISIM 1u	/* one pmsim run per subset */
#define PMR_COST_SHOTGUN 2u	/* graph fragments rebuilt from samples */

/*
 * COST record (icost -f pmr): the execution time of one configuration, a
 * subset of the categories idealized together, beside the base time of
 * the same instructions, so that shards and fragments merge by adding t
 * and ts (a ratio of sums).
 */
struct pmr_cost_rec {
	uint8_t source;		/* PMR_COST_* */
	uint32_t mask;		/* bit k: category k of cats */
	struct pmr_bytes cats;	/* the categories, comma-separated */
	uint64_t t;		/* base time, cycles */
	uint64_t ts;		/* time with the subset idealized, cycles */
	uint64_t insns;		/* instructions (graph nodes) */
	uint64_t frags;		/* fragments (runs, for multisim) */
	uint64_t digest;	/* (since 4) the machine's config digest, 0
				 * unknown: breakdowns of two machines do
				 * not merge */
};

/* --- the registry (registry.c) ----------------------------------------- */

/* The tables of each family, in man/pmr.5 order. */
extern const struct pmr_rtype pmr_rtypes_core[];
extern const unsigned pmr_rtypes_core_n;
extern const struct pmr_rtype pmr_rtypes_trace[];
extern const unsigned pmr_rtypes_trace_n;
extern const struct pmr_rtype pmr_rtypes_sim[];
extern const unsigned pmr_rtypes_sim_n;
extern const struct pmr_rtype pmr_rtypes_pairs[];
extern const unsigned pmr_rtypes_pairs_n;
extern const struct pmr_rtype pmr_rtypes_icost[];
extern const unsigned pmr_rtypes_icost_n;

/* Returns the registry entry of type, or NULL if unknown. */
const struct pmr_rtype *pmr_rtype_find(uint32_t type);
/* Returns the entry named name (case-insensitive), or NULL. */
const struct pmr_rtype *pmr_rtype_byname(const char *name);
/* Returns the i-th registered type (from 0), or NULL past the last. */
const struct pmr_rtype *pmr_rtype_at(unsigned i);

#endif /* PMR_RECORDS_H */
