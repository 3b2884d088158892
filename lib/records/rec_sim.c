/*
 * rec_sim.c: the field tables of the records pmsim writes (STATS, SAMPLE,
 * PAIR, TRUTH, ATRUTH, GNODE, SIG, DET), as man/pmr.5 (SIMULATION
 * RECORDS) lists them field by field: change both together.  Records grow
 * only by appending fields (with a higher "since" minor version).
 */
#include "records/records.h"

#define F(st, name, kind, desc) \
	{ #name, PMR_K_##kind, 0, offsetof(struct st, name), desc }
#define F1(st, name, kind, desc) \
	{ #name, PMR_K_##kind, 1, offsetof(struct st, name), desc }
#define F2(st, name, kind, desc) \
	{ #name, PMR_K_##kind, 2, offsetof(struct st, name), desc }
#define F3(st, name, kind, desc) \
	{ #name, PMR_K_##kind, 3, offsetof(struct st, name), desc }
#define F4(st, name, kind, desc) \
	{ #name, PMR_K_##kind, 4, offsetof(struct st, name), desc }
#define F5(st, name, kind, desc) \
	{ #name, PMR_K_##kind, 5, offsetof(struct st, name), desc }
#define F6(st, name, kind, desc) \
	{ #name, PMR_K_##kind, 6, offsetof(struct st, name), desc }
#define NF(a) (sizeof(a) / sizeof((a)[0]))

static const struct pmr_field stats_fields[] = {
	F(pmr_sim_stats, final, U8, "1: end of run, 0: --interval record"),
	F(pmr_sim_stats, cycles, U64, "cycles since the end of warm-up"),
	F(pmr_sim_stats, retired, U64, "instructions retired"),
	F(pmr_sim_stats, ipc, F64, "retired / cycles"),
	F(pmr_sim_stats, fetched, U64, "instructions fetched, bad path "
	    "included"),
	F(pmr_sim_stats, aborted, U64, "fetched instructions aborted"),
	F(pmr_sim_stats, branches, U64, "retired control transfers"),
	F(pmr_sim_stats, cond, U64, "retired conditional branches"),
	F(pmr_sim_stats, mispredicts, U64, "retired transfers mispredicted"),
	F(pmr_sim_stats, cond_misp, U64, "retired conditional branches "
	    "mispredicted"),
	F(pmr_sim_stats, btb_miss, U64, "taken direct transfers missing in "
	    "the BTB"),
	F(pmr_sim_stats, loads, U64, "retired instructions that load"),
	F(pmr_sim_stats, stores, U64, "retired instructions that store"),
	F(pmr_sim_stats, icache_miss, U64, "L1-I line misses"),
	F(pmr_sim_stats, itlb_miss, U64, "ITLB misses"),
	F(pmr_sim_stats, dcache_miss, U64, "L1-D misses of retired loads"),
	F(pmr_sim_stats, llc_miss, U64, "retired loads missing in every "
	    "cache"),
	F(pmr_sim_stats, dtlb_miss, U64, "DTLB misses of retired loads"),
	F(pmr_sim_stats, forwarded, U64, "retired loads fed by a store"),
	F(pmr_sim_stats, st_icache, U64, "cycles fetch waited for the L1-I"),
	F(pmr_sim_stats, st_redirect, U64, "cycles fetch waited for a "
	    "redirect"),
	F(pmr_sim_stats, st_fetchq, U64, "cycles the fetch queue was full"),
	F(pmr_sim_stats, st_rob, U64, "cycles map stalled: in-flight limit"),
	F(pmr_sim_stats, st_iq, U64, "cycles map stalled: issue queue"),
	F(pmr_sim_stats, st_regs, U64, "cycles map stalled: registers"),
	F(pmr_sim_stats, st_lsq, U64, "cycles map stalled: LQ/SQ"),
	F(pmr_sim_stats, st_mshr, U64, "cycles a ready load waited for an "
	    "MSHR"),
	F(pmr_sim_stats, samples, U64, "SAMPLE records written"),
	F(pmr_sim_stats, pairs, U64, "PAIR records written"),
	F(pmr_sim_stats, dropped, U64, "selections lost (tag busy, end)"),
	F(pmr_sim_stats, warmup, U64, "instructions retired in warm-up"),
	F(pmr_sim_stats, wrongpath, U64, "instructions fetched on a wrong "
	    "path"),
	F(pmr_sim_stats, mem_traps, U64, "memory-order replay traps"),
	F1(pmr_sim_stats, win_len, U64, "windowed IPC: window length, "
	    "cycles"),
	F1(pmr_sim_stats, win_n, U64, "complete windows"),
	F1(pmr_sim_stats, win_zero, U64, "windows that retired nothing"),
	F1(pmr_sim_stats, win_sum, U64, "sum over windows of c, the "
	    "instructions retired in the window"),
	F1(pmr_sim_stats, win_sumsq, U64, "sum of c squared"),
	F1(pmr_sim_stats, win_sumcube, U64, "sum of c cubed"),
	F1(pmr_sim_stats, win_max, U64, "largest c"),
	F1(pmr_sim_stats, win_min, U64, "smallest c above 0"),
	F4(pmr_sim_stats, td_slots, U64, "map slots: map_width x cycles"),
	F4(pmr_sim_stats, td_mapped, U64, "instructions mapped, bad path "
	    "included"),
	F4(pmr_sim_stats, td_fe, U64, "map slots left empty with the back "
	    "end ready: front end bound"),
	F4(pmr_sim_stats, td_bad, U64, "map slots left empty from a squash "
	    "until the redirected path maps"),
	F4(pmr_sim_stats, pc_hash, X64, "hash of the retired pcs in order: "
	    "runs of the same instructions (any --ideal) have the same"),
};

#define SAMPLE_FIELDS(st, pre, m)                                           \
	{ pre "sampler", PMR_K_U8, 0, offsetof(struct st, m sampler),        \
	    "0 ProfileMe, 1 counter, 2 ibs, 3 pebs, 4 tip" },                \
	{ pre "cls", PMR_K_U8, 0, offsetof(struct st, m cls),                \
	    "operation class (trace.h pmr_opclass)" },                       \
	{ pre "trap", PMR_K_U8, 0, offsetof(struct st, m trap),              \
	    "0 retired, 1 branch mispredict, 2 jump mispredict, "            \
	    "3 memory order, 7 end of run" },                                \
	{ pre "hist_len", PMR_K_U8, 0, offsetof(struct st, m hist_len),      \
	    "valid bits in history" },                                       \
	{ pre "events", PMR_K_U32, 0, offsetof(struct st, m events),         \
	    "event bits (pmr(5), SIMULATION RECORDS)" },                     \
	{ pre "context", PMR_K_U32, 0, offsetof(struct st, m context),       \
	    "thread id" },                                                   \
	{ pre "seq", PMR_K_U64, 0, offsetof(struct st, m seq),               \
	    "sample number" },                                               \
	{ pre "pos", PMR_K_U64, 0, offsetof(struct st, m pos),               \
	    "fetch index, bad path included" },                              \
	{ pre "pc", PMR_K_X64, 0, offsetof(struct st, m pc),                 \
	    "profiled pc" },                                                 \
	{ pre "addr", PMR_K_X64, 0, offsetof(struct st, m addr),             \
	    "effective address, or target of a transfer" },                  \
	{ pre "history", PMR_K_X64, 0, offsetof(struct st, m history),       \
	    "global branch history at fetch, bit 0 newest" },                \
	{ pre "fetch_cycle", PMR_K_U64, 0,                                   \
	    offsetof(struct st, m fetch_cycle), "cycle of fetch" },          \
	{ pre "lat_fm", PMR_K_U32, 0, offsetof(struct st, m lat_fm),         \
	    "fetch to map" },                                                \
	{ pre "lat_md", PMR_K_U32, 0, offsetof(struct st, m lat_md),         \
	    "map to data ready" },                                           \
	{ pre "lat_dx", PMR_K_U32, 0, offsetof(struct st, m lat_dx),         \
	    "data ready to issue" },                                         \
	{ pre "lat_xr", PMR_K_U32, 0, offsetof(struct st, m lat_xr),         \
	    "issue to retire ready" },                                       \
	{ pre "lat_rr", PMR_K_U32, 0, offsetof(struct st, m lat_rr),         \
	    "retire ready to retire" },                                      \
	{ pre "lat_ld", PMR_K_U32, 0, offsetof(struct st, m lat_ld),         \
	    "load issue to completion" },                                    \
	{ pre "lat_total", PMR_K_U32, 0, offsetof(struct st, m lat_total),   \
	    "fetch to retire or abort" },                                    \
	{ pre "kind", PMR_K_U8, 0, offsetof(struct st, m kind),              \
	    "0 instruction, 1 off-path slot, 2 empty slot" }

static const struct pmr_field sample_fields[] = {
	SAMPLE_FIELDS(pmr_sim_sample, "", ),
	{ "cpos", PMR_K_U64, 1, offsetof(struct pmr_sim_sample, cpos),
	    "commit index (as GNODE seq) if retired, else all ones" },
};

static const struct pmr_field pair_fields[] = {
	F(pmr_sim_pair, seq, U64, "pair number"),
	F(pmr_sim_pair, fetch_lat, U32, "intra-pair fetch latency F(b)-F(a)"),
	F(pmr_sim_pair, dist, U32, "fetch distance d = pos(b)-pos(a)"),
	SAMPLE_FIELDS(pmr_sim_pair, "a_", a.),
	SAMPLE_FIELDS(pmr_sim_pair, "b_", b.),
	{ "a_cpos", PMR_K_U64, 1, offsetof(struct pmr_sim_pair, a.cpos),
	    "commit index of a if retired, else all ones" },
	{ "b_cpos", PMR_K_U64, 1, offsetof(struct pmr_sim_pair, b.cpos),
	    "commit index of b if retired, else all ones" },
};

static const struct pmr_field truth_fields[] = {
	F(pmr_sim_truth, pc, X64, "static pc"),
	F(pmr_sim_truth, cls, U8, "operation class"),
	F(pmr_sim_truth, fetched, U64, "fetched instances"),
	F(pmr_sim_truth, retired, U64, "retired instances"),
	F(pmr_sim_truth, aborted, U64, "aborted instances"),
	F(pmr_sim_truth, ab_misp, U64, "aborted by a mispredict"),
	F(pmr_sim_truth, ab_other, U64, "aborted for another reason"),
	F(pmr_sim_truth, sum_fm, U64, "sum of fetch to map, retired"),
	F(pmr_sim_truth, sum_md, U64, "sum of map to data ready, retired"),
	F(pmr_sim_truth, sum_dx, U64, "sum of data ready to issue, retired"),
	F(pmr_sim_truth, sum_xr, U64, "sum of issue to retire ready"),
	F(pmr_sim_truth, sum_rr, U64, "sum of retire ready to retire"),
	F(pmr_sim_truth, sum_ld, U64, "sum of load issue to completion"),
	F(pmr_sim_truth, sq_fm, U64, "sum of squares of lat_fm"),
	F(pmr_sim_truth, sq_md, U64, "sum of squares of lat_md"),
	F(pmr_sim_truth, sq_dx, U64, "sum of squares of lat_dx"),
	F(pmr_sim_truth, sq_xr, U64, "sum of squares of lat_xr"),
	F(pmr_sim_truth, sq_rr, U64, "sum of squares of lat_rr"),
	F(pmr_sim_truth, sq_ld, U64, "sum of squares of lat_ld"),
	F(pmr_sim_truth, n_ld, U64, "retired instances with a load latency"),
	F(pmr_sim_truth, icache_miss, U64, "retired with ICACHE_MISS"),
	F(pmr_sim_truth, itlb_miss, U64, "retired with ITLB_MISS"),
	F(pmr_sim_truth, dcache_miss, U64, "retired with DCACHE_MISS"),
	F(pmr_sim_truth, dtlb_miss, U64, "retired with DTLB_MISS"),
	F(pmr_sim_truth, llc_miss, U64, "retired with LLC_MISS"),
	F(pmr_sim_truth, taken, U64, "retired with TAKEN"),
	F(pmr_sim_truth, br_misp, U64, "retired with BR_MISP"),
	F(pmr_sim_truth, jmp_misp, U64, "retired with JMP_MISP"),
	F(pmr_sim_truth, fu_conflict, U64, "retired with FU_CONFLICT"),
	F(pmr_sim_truth, map_stall, U64, "retired with a MAP_* stall"),
	F(pmr_sim_truth, forwarded, U64, "retired with FORWARD"),
	F(pmr_sim_truth, tp_cycles, F64, "cycles charged by the "
	    "time-proportional oracle"),
	F(pmr_sim_truth, inprog, U64, "L: sum over fetched instances of "
	    "(RR or abort) - F"),
	F(pmr_sim_truth, useful, U64, "retiring issues during [F, RR) of "
	    "each instance, itself excluded"),
	F(pmr_sim_truth, wasted, I64, "issue_width * inprog - useful"),
	F(pmr_sim_truth, inflight, U64, "cycles of other instructions in "
	    "flight during [F, RR) of each instance"),
	F(pmr_sim_truth, inflight_ret, U64, "the same, counting only "
	    "instructions that retire"),
	F1(pmr_sim_truth, local, U64, "per retired instance, the other "
	    "instructions retired within +-delta cycles of it, summed"),
	F5(pmr_sim_truth, head_cycles, U64, "inorder = 1: cycles this pc "
	    "was the oldest instruction not yet issued (the head of the "
	    "issue queue), or was the next to come while none was there; "
	    "0 out of order"),
	/* head_cycles by cause: the ten sum to it (pmr.5, TRUTH) */
	F6(pmr_sim_truth, hd_issue, U64, "head cycles in which it issued"),
	F6(pmr_sim_truth, hd_static, U64, "head cycles waiting for an "
	    "operand of fixed latency (no cache or TLB miss), a fetch break "
	    "or the front end's pipeline"),
	F6(pmr_sim_truth, hd_icache, U64, "head cycles of the front end "
	    "after an I-cache miss"),
	F6(pmr_sim_truth, hd_itlb, U64, "head cycles of the front end "
	    "after an ITLB miss, its walk"),
	F6(pmr_sim_truth, hd_dcache, U64, "head cycles waiting for a load "
	    "that missed the L1-D (after its DTLB walk), or for an MSHR"),
	F6(pmr_sim_truth, hd_dtlb, U64, "head cycles waiting for a load's "
	    "DTLB walk"),
	F6(pmr_sim_truth, hd_misp, U64, "head cycles of a mispredict: down "
	    "the wrong path, and the redirected front end"),
	F6(pmr_sim_truth, hd_wbuf, U64, "head cycles of a store waiting for "
	    "the store queue"),
	F6(pmr_sim_truth, hd_fu, U64, "head cycles ready, its unit busy"),
	F6(pmr_sim_truth, hd_other, U64, "head cycles of any other cause: a "
	    "full ROB, register file or load queue not held by a load miss, "
	    "a replay trap, the run's end"),
};

static const struct pmr_field atruth_fields[] = {
	F(pmr_sim_atruth, pc, X64, "static pc"),
	F(pmr_sim_atruth, line, X64, "line address: the first effective "
	    "address (SAMPLE addr) with its low bits cleared"),
	F(pmr_sim_atruth, bytes, U32, "line size, bytes"),
	F(pmr_sim_atruth, misses, U64, "retired loads and stores (classes "
	    "load, store, load-store) of pc with DCACHE_MISS whose first "
	    "address is in the line"),
};

static const struct pmr_field gnode_fields[] = {
	F(pmr_sim_gnode, seq, U64, "commit index: instructions retired "
	    "before this one, warm-up included"),
	F(pmr_sim_gnode, pc, X64, "pc"),
	F(pmr_sim_gnode, cls, U8, "operation class (trace.h pmr_opclass)"),
	F(pmr_sim_gnode, partial, U8, "1: a load that merged with an "
	    "outstanding miss to its line (partial miss)"),
	F(pmr_sim_gnode, events, U32, "event bits as in SAMPLE: taken, "
	    "mispredicts (PD edge to the next), I/D cache, LLC and TLB misses"),
	F(pmr_sim_gnode, dd_fetch, U16, "DD: cycles fetch stalled for I-cache, "
	    "ITLB and first-touch misses before this instruction"),
	F(pmr_sim_gnode, re, U32, "RE: cycles from ready (data ready, and "
	    "one cycle after map) to issue (unit and issue-width contention)"),
	F(pmr_sim_gnode, ep_fu, U16, "EP: functional-unit latency, cycles"),
	F(pmr_sim_gnode, ep_mem, U16, "EP: L1-D hit latency of a load, "
	    "cycles (0 if no load)"),
	F(pmr_sim_gnode, ep_miss, U16, "EP: further cycles of a data miss "
	    "(L2, L3, memory); 0 for a partial miss with a PP producer, whose "
	    "wait for the line is the PP edge"),
	F(pmr_sim_gnode, ep_tlb, U16, "EP: DTLB miss and first-touch cycles "
	    "of a load"),
	F(pmr_sim_gnode, cc, U16, "CC: store-commit contention cycles "
	    "(pmsim models none: 0)"),
	F(pmr_sim_gnode, pr_reg_a, U32, "PR: seq distance to a register "
	    "producer, 0 none"),
	F(pmr_sim_gnode, pr_reg_b, U32, "PR: a second register producer, "
	    "0 none"),
	F(pmr_sim_gnode, pr_reg_c, U32, "PR: a third register producer, "
	    "0 none"),
	F(pmr_sim_gnode, pr_mem, U32, "PR: seq distance to the store "
	    "forwarding to this load, 0 none"),
	F(pmr_sim_gnode, pp, U32, "PP: seq distance to the missing load "
	    "whose line this load waited for, 0 none"),
	F(pmr_sim_gnode, at_d, U64, "observed cycle of dispatch (map)"),
	F(pmr_sim_gnode, at_r, U64, "observed cycle data was ready"),
	F(pmr_sim_gnode, at_e, U64, "observed cycle of issue"),
	F(pmr_sim_gnode, at_p, U64, "observed cycle the result was ready"),
	F(pmr_sim_gnode, at_c, U64, "observed cycle of retire"),
	F1(pmr_sim_gnode, dd_itlb, U16, "DD: the ITLB and first-touch part "
	    "of dd_fetch"),
	F1(pmr_sim_gnode, dd_brk, U16, "DD: fetch-break cycles before this "
	    "instruction (a taken transfer or a fetch-block end closed the "
	    "fetch cycle: 1; a BTB-miss bubble: 1 + btb_penalty)"),
	F2(pmr_sim_gnode, rs, U32, "resource edge: seq distance to the "
	    "instruction whose issue (rk 1: an issue-queue entry) or retire "
	    "(rk 2: rename registers, a load or store queue entry) let this "
	    "one map after waiting for it, 0 none"),
	F2(pmr_sim_gnode, rk, U8, "resource edge kind: 0 none, 1 issue "
	    "(E to D), 2 retire (C to D)"),
	F2(pmr_sim_gnode, dd_dec, U16, "DD: decode cycles added by a miss in "
	    "the decoded-instruction buffer (front end without wrong-path "
	    "fetch, as the champsim preset)"),
	F3(pmr_sim_gnode, dd_wp, U16, "DD: I-side stall cycles a wrong-path "
	    "fetch spared this instruction (it brought the line into the L1-I "
	    "or L2); not part of dd_fetch"),
	F3(pmr_sim_gnode, pl, U32, "PL: a load that hit the L1-D: seq "
	    "distance to the load whose miss brought the line, 0 none"),
};

static const struct pmr_field sig_fields[] = {
	F(pmr_sim_sig, seq, U64, "commit index of the start (as GNODE seq; "
	    "an oracle a graph builder must not need)"),
	F(pmr_sim_sig, start_pc, X64, "pc of the start instruction, the "
	    "first node of the fragment"),
	F(pmr_sim_sig, prefix, U32, "instructions before the start"),
	F(pmr_sim_sig, len, U32, "instructions from the start on"),
	F(pmr_sim_sig, bits, BLOB, "2 signature bits per instruction, "
	    "prefix + len of them, the prefix first: instruction j is bits "
	    "2j (b1) and 2j+1 (b2), little-endian"),
};

static const struct pmr_field det_fields[] = {
	F(pmr_sim_det, seq, U64, "commit index (as GNODE seq; an oracle)"),
	F(pmr_sim_det, pc, X64, "pc"),
	F(pmr_sim_det, cls, U8, "operation class (trace.h pmr_opclass)"),
	F(pmr_sim_det, partial, U8, "as GNODE partial"),
	F(pmr_sim_det, ctx, U8, "context width: sig covers -ctx..+ctx"),
	F(pmr_sim_det, events, U32, "as GNODE events"),
	F(pmr_sim_det, dd_fetch, U16, "as GNODE dd_fetch (DD)"),
	F(pmr_sim_det, dd_itlb, U16, "as GNODE dd_itlb (DD)"),
	F(pmr_sim_det, dd_brk, U16, "as GNODE dd_brk (DD)"),
	F(pmr_sim_det, re, U32, "as GNODE re (RE)"),
	F(pmr_sim_det, ep_fu, U16, "as GNODE ep_fu (EP)"),
	F(pmr_sim_det, ep_mem, U16, "as GNODE ep_mem (EP)"),
	F(pmr_sim_det, ep_miss, U16, "as GNODE ep_miss (EP)"),
	F(pmr_sim_det, ep_tlb, U16, "as GNODE ep_tlb (EP)"),
	F(pmr_sim_det, cc, U16, "as GNODE cc (CC)"),
	F(pmr_sim_det, pr_reg_a, U32, "as GNODE pr_reg_a"),
	F(pmr_sim_det, pr_reg_b, U32, "as GNODE pr_reg_b"),
	F(pmr_sim_det, pr_reg_c, U32, "as GNODE pr_reg_c"),
	F(pmr_sim_det, pr_mem, U32, "as GNODE pr_mem (PR-mem)"),
	F(pmr_sim_det, pp, U32, "as GNODE pp (PP)"),
	F(pmr_sim_det, target, X64, "next pc of an indirect jump, indirect "
	    "call or return; 0 for other classes"),
	F(pmr_sim_det, sig, X64, "2 signature bits of each of the 2ctx+1 "
	    "instructions around: position -ctx+j is bits 2j (b1) and 2j+1 "
	    "(b2)"),
	F2(pmr_sim_det, rs, U32, "as GNODE rs (resource edge)"),
	F2(pmr_sim_det, rk, U8, "as GNODE rk"),
	F2(pmr_sim_det, dd_dec, U16, "as GNODE dd_dec (DD)"),
	F3(pmr_sim_det, dd_wp, U16, "as GNODE dd_wp (DD)"),
	F3(pmr_sim_det, pl, U32, "as GNODE pl (PL)"),
};

#define T(num, name, st, fields, desc) \
	{ num, name, desc, fields, NF(fields), sizeof(struct st) }

const struct pmr_rtype pmr_rtypes_sim[] = {
	T(PMR_REC_STATS, "STATS", pmr_sim_stats, stats_fields,
	    "pmsim counters, at the end and every --interval"),
	T(PMR_REC_SAMPLE, "SAMPLE", pmr_sim_sample, sample_fields,
	    "one ProfileMe sample"),
	T(PMR_REC_PAIR, "PAIR", pmr_sim_pair, pair_fields,
	    "one ProfileMe paired sample"),
	T(PMR_REC_TRUTH, "TRUTH", pmr_sim_truth, truth_fields,
	    "exact per-pc aggregates of a pmsim run"),
	T(PMR_REC_ATRUTH, "ATRUTH", pmr_sim_atruth, atruth_fields,
	    "exact D-cache misses of one pc in one line"),
	T(PMR_REC_GNODE, "GNODE", pmr_sim_gnode, gnode_fields,
	    "one retired instruction as a dependence-graph node"),
	T(PMR_REC_SIG, "SIG", pmr_sim_sig, sig_fields,
	    "one shotgun signature sample"),
	T(PMR_REC_DET, "DET", pmr_sim_det, det_fields,
	    "one shotgun detailed sample"),
};
const unsigned pmr_rtypes_sim_n = NF(pmr_rtypes_sim);
