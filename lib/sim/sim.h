/*
 * sim.h: the pmsim out-of-order core model, its ProfileMe samplers and its
 * exact per-pc truth, as a library for cmd/pmsim.c and the unit tests.
 *
 * A simulator is built from a machine configuration (struct
 * pmr_sim_config: a compiled-in preset, then "key = value" overrides) and
 * run options (struct pmr_sim_opts: sampling, truth, events, graph,
 * shotgun, warm-up).  It pulls dynamic instructions from a caller-supplied
 * source (any function filling a struct pmr_dinsn, e.g. a wrapper of
 * pmr_trace_next()) and emits STATS, SAMPLE, PAIR, TRUTH, GNODE, SIG, DET
 * and EVENT records into an optional pmr_writer and to an optional hook
 * that sees the decoded structs.  The records' numbers, structs and
 * field tables are in lib/records (rec_sim.c), as man/pmr.5 (SIMULATION
 * RECORDS) lists them.
 *
 * The library never prints and never exits.  Names are pmr_sim_*; there
 * are no typedefs.
 */
#ifndef PMR_SIM_H
#define PMR_SIM_H

#include <stdint.h>
#include <stdio.h>

#include "records/records.h"
#include "stream/pmr.h"
#include "trace/trace.h"

/* SAMPLE/TRUTH event bits (the Profiled Event Register, ProfileMe
 * §4.1.3). */
#define PMR_SIM_EV_ICACHE_MISS 0x00000001u
#define PMR_SIM_EV_ITLB_MISS 0x00000002u
#define PMR_SIM_EV_DCACHE_MISS 0x00000004u
#define PMR_SIM_EV_DTLB_MISS 0x00000008u
#define PMR_SIM_EV_LLC_MISS 0x00000010u	/* data from memory: missed all */
#define PMR_SIM_EV_L2_MISS PMR_SIM_EV_LLC_MISS	/* its first name */
#define PMR_SIM_EV_TAKEN 0x00000020u
#define PMR_SIM_EV_BR_MISP 0x00000040u	/* conditional direction */
#define PMR_SIM_EV_JMP_MISP 0x00000080u	/* target of a taken transfer */
#define PMR_SIM_EV_MAP_REGS 0x00000100u	/* map stalled: no free register */
#define PMR_SIM_EV_MAP_IQ 0x00000200u	/* map stalled: issue queue full */
#define PMR_SIM_EV_MAP_ROB 0x00000400u	/* map stalled: in-flight limit */
#define PMR_SIM_EV_FU_CONFLICT 0x00000800u	/* ready, waited for a unit */
#define PMR_SIM_EV_LSQ_FULL 0x00001000u	/* map stalled: LQ or SQ full */
#define PMR_SIM_EV_MEM_TRAP 0x00002000u
#define PMR_SIM_EV_RETIRED 0x00004000u
#define PMR_SIM_EV_NONINT 0x00008000u	/* never set: no PAL regions */
#define PMR_SIM_EV_BAD_PATH 0x00010000u	/* fetched on a wrong path */
#define PMR_SIM_EV_FORWARD 0x00020000u	/* load fed by an in-flight store */
#define PMR_SIM_EV_MSHR_FULL 0x00040000u	/* issue waited for an MSHR */
#define PMR_SIM_EV_BTB_MISS 0x00080000u	/* taken, target not predicted */
#define PMR_SIM_EV_SYNTH 0x00100000u	/* wrong-path pc never seen: nop */
#define PMR_SIM_EV_ALL 0x001fffffu	/* every bit defined above */

/* Trap reasons of aborted instructions. */
enum pmr_sim_trap {
	PMR_SIM_TRAP_NONE = 0,		/* retired */
	PMR_SIM_TRAP_BR_MISP = 1,	/* younger than a mispredicted branch */
	PMR_SIM_TRAP_JMP_MISP = 2,	/* younger than a mispredicted jump */
	PMR_SIM_TRAP_MEM_ORDER = 3,
	PMR_SIM_TRAP_INTERRUPT = 4,
	PMR_SIM_TRAP_EXCEPTION = 5,
	PMR_SIM_TRAP_SELF = 6,
	PMR_SIM_TRAP_END = 7		/* in flight when the run stopped */
};

/* Latency value of a stage the instruction never reached. */
#define PMR_SIM_NOLAT 0xffffffffu

/* Branch predictors. */
enum pmr_sim_bp {
	PMR_SIM_BP_BIMODAL = 0,
	PMR_SIM_BP_GSHARE,
	PMR_SIM_BP_TOURNAMENT,
	PMR_SIM_BP_PERFECT,
	PMR_SIM_BP_COMBINED,	/* bimodal + gshare + meta (McFarling) */
	PMR_SIM_BP_CHAMPSIM	/* ChampSim's bimodal and basic_btb */
};

/* Idealizations (icost Table 1), bits of struct pmr_sim_opts.ideal. */
#define PMR_SIM_IDEAL_DL1 0x01u	  /* L1-D hit latency 0 */
#define PMR_SIM_IDEAL_DMISS 0x02u  /* data misses (and DTLB) hit */
#define PMR_SIM_IDEAL_IMISS 0x04u  /* instruction misses (and ITLB) hit */
#define PMR_SIM_IDEAL_BMISP 0x08u  /* perfect branch prediction */
#define PMR_SIM_IDEAL_WIN 0x10u	  /* window structures x20 */
#define PMR_SIM_IDEAL_BW 0x20u	  /* fetch/map/issue/retire width, FUs */
#define PMR_SIM_IDEAL_SHALU 0x40u  /* 1-cycle integer ops: latency 0 */
#define PMR_SIM_IDEAL_LGALU 0x80u  /* multi-cycle int and FP ops: 0 */

/*
 * A machine.  Every field is a "key = value" setting of the same name
 * (pmr_sim_config_set); units are cycles, entries, bytes or instructions.
 */
struct pmr_sim_config {
	char name[32];		/* the preset it started from */
	/* front end */
	unsigned fetch_width;	/* instructions per cycle */
	unsigned fetch_block;	/* aligned fetch block, bytes */
	unsigned fetch_taken;	/* taken transfers per fetch cycle */
	unsigned fetchq;	/* fetch queue entries */
	unsigned frontend;	/* fetch to map, cycles (decode stages) */
	unsigned wrong_path;	/* 1: fetch down the predicted path */
	unsigned bp;		/* enum pmr_sim_bp */
	unsigned bp_bimodal;	/* bimodal/meta counters (2-bit) */
	unsigned bp_gshare;	/* gshare counters */
	unsigned bp_ghist;	/* global history bits */
	unsigned bp_local;	/* local histories (tournament) */
	unsigned bp_lhist;	/* bits per local history */
	unsigned bp_choice;	/* choice counters (tournament) */
	unsigned btb;		/* BTB entries */
	unsigned btb_assoc;
	unsigned btb_penalty;	/* decode redirect when a taken direct
				 * transfer misses in the BTB */
	unsigned ras;		/* return stack entries */
	unsigned redirect;	/* mispredict resolve to refetch, cycles */
	/* map and window */
	unsigned map_width;
	unsigned rob;		/* in-flight (mapped, unretired) limit */
	unsigned iq_int;	/* integer issue queue */
	unsigned iq_fp;		/* floating-point issue queue */
	unsigned regs_int;	/* rename (non-architectural) registers */
	unsigned regs_fp;
	unsigned lq, sq;
	/* issue and execute */
	unsigned issue_width;
	unsigned n_alu, lat_alu;
	unsigned n_imul, lat_imul;
	unsigned lat_idiv;
	unsigned n_fadd, lat_fadd;
	unsigned n_fmul, lat_fmul;
	unsigned lat_fdiv;
	unsigned n_mem;		/* load/store ports */
	unsigned load_early;	/* loads ready to retire before data */
	unsigned sp_fold;	/* push/pop/call/ret do not rename rsp */
	unsigned mem_order;	/* 0 perfect disambiguation; 1 loads pass
				 * older stores and replay-trap (21264) */
	unsigned inorder;	/* 1: issue in program order (21164) */
	/* retire */
	unsigned retire_width;
	/* memory */
	unsigned line;		/* cache line bytes (all levels) */
	unsigned page;		/* page bytes */
	unsigned l1i_size, l1i_assoc;	/* hits are pipelined into fetch */
	/* a level's latency is the load-to-use time of data found there */
	unsigned l1d_size, l1d_assoc, l1d_lat;
	unsigned l2_size, l2_assoc, l2_lat;
	unsigned l3_size, l3_assoc, l3_lat;	/* l3_size 0: none */
	unsigned mem_lat;	/* with dram_banks: the latency of a row hit */
	unsigned mem_bus;	/* cycles the memory bus carries a line (0:
				 * unlimited bandwidth) */
	unsigned dram_banks;	/* banks with an open row (0: no rows) */
	unsigned dram_row;	/* bytes of address space per row number */
	unsigned dram_closed;	/* extra cycles: the bank has no open row */
	unsigned dram_conflict;	/* extra cycles: another row is open */
	unsigned mshr;		/* L1-D outstanding line misses */
	unsigned itlb, dtlb, tlb_assoc, tlb_lat;
	unsigned fault_lat;	/* first touch of a page (0: off) */
};

/* SAMPLE.sampler: who took the sample. */
#define PMR_SIM_SAMPLER_PROFILEME 0
#define PMR_SIM_SAMPLER_COUNTER 1	/* event-counter overflow + skid */
#define PMR_SIM_SAMPLER_IBS 2		/* op tagged at dispatch (map) */
#define PMR_SIM_SAMPLER_PEBS 3		/* next instruction to retire */
#define PMR_SIM_SAMPLER_TIP 4		/* time-proportional, at commit */
#define PMR_SIM_SAMPLER_LAST 5		/* the last instruction committed */

/* Events a baseline counter counts. */
#define PMR_SIM_BSEV_CYCLES 0
#define PMR_SIM_BSEV_RETIRED 1
#define PMR_SIM_BSEV_DMISS 2		/* retired loads missing the L1-D */
#define PMR_SIM_BSEV_MISP 3		/* retired mispredicted transfers */

/* Sampling modes. */
enum pmr_sim_pm { PMR_SIM_PM_OFF = 0, PMR_SIM_PM_SINGLE, PMR_SIM_PM_PAIRED };
/* The distribution of the interval between selections. */
enum pmr_sim_pm_dist {
	PMR_SIM_DIST_GEOM = 0,	/* geometric with mean S */
	PMR_SIM_DIST_UNIFORM	/* uniform on [S-J, S+J] */
};
/* When the next interval starts: when the sample is delivered (the
 * paper's hardware: nothing is selected while one is in flight), or at
 * selection (an ideal sampler). */
enum pmr_sim_pm_rearm { PMR_SIM_REARM_INTERRUPT = 0, PMR_SIM_REARM_SELECT };
/* What the interval counts. */
enum pmr_sim_pm_select {
	PMR_SIM_SELECT_FETCH = 0,	/* fetched instructions */
	PMR_SIM_SELECT_OPPORTUNITY,	/* fetch slots, fetch_width a cycle
					 * (single sampling only) */
	PMR_SIM_SELECT_MAPPED		/* mapped instructions: the ibs
					 * sampler */
};

/* Run options. */
struct pmr_sim_opts {
	int pm;			/* enum pmr_sim_pm */
	uint64_t pm_s;		/* mean interval S, fetched instructions */
	unsigned pm_w;		/* pair window W (d uniform in 1..W); 0:
				 * rob + fetchq + fetch_width * frontend */
	int pm_dist;		/* enum pmr_sim_pm_dist */
	uint64_t pm_jitter;	/* J */
	int pm_rearm;		/* enum pmr_sim_pm_rearm */
	int pm_select;		/* enum pmr_sim_pm_select */
	int sampler;		/* baseline PMR_SIM_SAMPLER_* besides pm */
	uint64_t bs_s;		/* its mean interval (events or cycles) */
	unsigned bs_skid;	/* counter: overflow to delivery, cycles */
	int bs_event;		/* PMR_SIM_BSEV_*: what the counter counts */
	unsigned pm_irq;	/* interrupt latency before re-arm, cycles */
	int truth;		/* emit TRUTH */
	unsigned events;	/* bit 0 value, bit 1 edge */
	/*
	 * skip: trace instructions read before the warm-up and not timed;
	 * the last warm of them (capped at skip by pmr_sim_new) train the
	 * caches, TLBs, predictor, BTB and return stack functionally
	 * (sim_warm_insn); the run's seed is pmr_sim_window_seed(seed,
	 * skip)
	 */
	uint64_t skip;
	uint64_t warm;		/* [PMR_SIM_WARM_DEFAULT] */
	uint64_t warmup;	/* instructions retired before measuring */
	uint64_t max;		/* stop after this many measured; 0 all */
	uint64_t interval;	/* STATS every this many retired; 0 none */
	uint64_t seed;
	unsigned ideal;		/* PMR_SIM_IDEAL_* */
	int noskip;		/* simulate idle cycles one by one (tests:
				 * the stream must not change) */
	int graph;		/* emit a GNODE per retired instruction */
	unsigned delta;		/* local-IPC truth: +-delta cycles [15] */
	unsigned win_len;	/* windowed IPC window, cycles [30] */
	/* shotgun profiling (Fields et al. MICRO-36 §5): SIG and DET */
	int shotgun;		/* 1: sample; the rest set by opts_init */
	uint64_t sg_sig;	/* mean SIG interval M, committed insns */
	unsigned sg_len;	/* SIG: instructions from the start on */
	unsigned sg_prefix;	/* SIG: instructions before the start */
	uint64_t sg_det;	/* mean DET interval N, committed insns */
	unsigned sg_ctx;	/* DET: signature context +-ctx */
};

/* The functional warm-up of a skip, in instructions, by default. */
#define PMR_SIM_WARM_DEFAULT 1000000u

/* Limits of the shotgun parameters (pmr_sim_new checks them). */
#define PMR_SIM_SG_MAXLEN 100000u	/* SIG len */
#define PMR_SIM_SG_MAXPREFIX 1000u	/* SIG prefix */
#define PMR_SIM_SG_MAXCTX 15u		/* DET ctx: 2 * (2 ctx + 1) <= 62 */
#define PMR_SIM_SG_MAXMEAN (1ull << 40)	/* sig and det means */

/* Stall reasons counted in cycles (STATS). */
enum pmr_sim_stall {
	PMR_SIM_ST_ICACHE,	/* fetch waits for an I-cache/ITLB miss */
	PMR_SIM_ST_REDIRECT,	/* fetch waits for a redirect */
	PMR_SIM_ST_FETCHQ,	/* fetch queue full */
	PMR_SIM_ST_ROB,		/* map: in-flight limit */
	PMR_SIM_ST_IQ,		/* map: issue queue full */
	PMR_SIM_ST_REGS,	/* map: no rename register */
	PMR_SIM_ST_LSQ,		/* map: load or store queue full */
	PMR_SIM_ST_MSHR,	/* issue: a load waited for an MSHR */
	PMR_SIM_ST_N
};

/* What a selected fetch opportunity held. */
#define PMR_SIM_KIND_INSN 0	/* an instruction on the predicted path */
#define PMR_SIM_KIND_OFFPATH 1	/* a slot of the block off the path */
#define PMR_SIM_KIND_EMPTY 2	/* nothing: fetch stalled */

/* The signature bits of one committed instruction (icost Table 5). */
#define PMR_SIM_SIG_B1 0x1u	/* taken or memory access, no LLC miss */
#define PMR_SIM_SIG_B2 0x2u	/* I-side, L1-D or TLB miss */

struct pmr_sim;

/*
 * What the hook sees of every measured instruction when it retires or aborts
 * (type PMR_SIM_HOOK_INSN, never written to a stream): the stamps and, apart,
 * the latency components a dependence-graph (GNODE) record needs (Fields et al.
 * MICRO-36 §2).  Stamps not reached are ~0.  Producer distances are in fetch
 * positions (pos, bad path included); cpos numbers the retired instructions, so
 * a graph builder maps pos to commit order with a ring of the last window's
 * (pos, cpos), as the GNODE records (--graph, struct pmr_sim_gnode) already do.
 */
#define PMR_SIM_HOOK_INSN 0x7fff0001u

struct pmr_sim_insn {
	uint64_t pos, pc;
	uint64_t cpos;		/* retire index (retired only) */
	uint64_t F, M, D, X, RR, end, LC;
	uint32_t events;
	uint8_t cls, trap, retired;
	uint16_t dd_fetch;	/* cycles fetch waited for I-side misses */
	uint16_t ep_fu;		/* functional-unit latency */
	uint16_t ep_mem;	/* load-to-use of an L1-D hit (loads) */
	uint16_t ep_miss;	/* further cycles of a miss (L2, L3, memory) */
	uint16_t ep_tlb;	/* DTLB miss and first-touch cycles */
	uint32_t preg[3];	/* pos distance to register producers, 0 none */
	uint32_t pmem;		/* pos distance to the forwarding store */
	uint32_t ppp;		/* pos distance to the load whose miss to the
				 * same line it merged with (PP edge) */
};

/* --- configuration (config.c) ------------------------------------------ */

/* Fills *c with preset name.  Returns PMR_OK or PMR_EINVAL if unknown. */
int pmr_sim_config_preset(struct pmr_sim_config *c, const char *name);
/* Returns the name of preset i (from 0), or NULL past the last. */
const char *pmr_sim_preset_name(unsigned i);
/*
 * Sets key to value (a number, or a predictor name for "bp").  Returns
 * PMR_OK, or PMR_EINVAL with a message in errbuf.
 */
int pmr_sim_config_set(struct pmr_sim_config *c, const char *key,
    const char *value, char *errbuf, size_t errlen) PMR_RESULT_USED;
/* Parses "key=value" and sets it.  Returns as pmr_sim_config_set. */
int pmr_sim_config_setkv(struct pmr_sim_config *c, const char *kv,
    char *errbuf, size_t errlen) PMR_RESULT_USED;
/*
 * Reads "key = value" lines ('#' starts a comment) from path.  Returns
 * PMR_OK, PMR_EIO (errno set), or PMR_EINVAL with "LINE: message" in
 * errbuf.
 */
int pmr_sim_config_load(struct pmr_sim_config *c, const char *path,
    char *errbuf, size_t errlen) PMR_RESULT_USED;
/* The same from f (a META config value, through fmemopen(3)). */
int pmr_sim_config_read(struct pmr_sim_config *c, FILE *f, char *errbuf,
    size_t errlen) PMR_RESULT_USED;
/* The same from the n bytes at text (a META config value): fields03's
 * settings under the text's; also PMR_ECORRUPT if the text is empty. */
int pmr_sim_config_text(struct pmr_sim_config *c, const void *text,
    size_t n, char *errbuf, size_t errlen) PMR_RESULT_USED;
/* Checks the configuration.  Returns PMR_OK or PMR_EINVAL + message. */
int pmr_sim_config_check(const struct pmr_sim_config *c, char *errbuf,
    size_t errlen) PMR_RESULT_USED;
/*
 * Writes the canonical "key = value" text of c (with a comment per key
 * when comments is set) into f.  Returns 0 or -1 on a write error.
 */
int pmr_sim_config_write(const struct pmr_sim_config *c, FILE *f,
    int comments);
/* Returns the FNV-1a 64 digest of the canonical text of c. */
uint64_t pmr_sim_config_digest(const struct pmr_sim_config *c);
/* Applies the idealizations in mask (PMR_SIM_IDEAL_*) to c. */
void pmr_sim_config_idealize(struct pmr_sim_config *c, unsigned mask);
/* Returns the PMR_SIM_IDEAL_* bit named name, or 0. */
unsigned pmr_sim_ideal_byname(const char *name);
/* Returns the name of the one idealization bit, or "?". */
const char *pmr_sim_ideal_name(unsigned bit);

/* --- the simulator (core.c) -------------------------------------------- */

/* Fills *o with the defaults (no sampling, no truth, no events). */
void pmr_sim_opts_init(struct pmr_sim_opts *o);
/*
 * Creates a simulator for machine c (copied; idealizations in o applied)
 * and options o.  Returns it, or NULL with *err set (PMR_EINVAL for a bad
 * configuration, PMR_ENOMEM).  Caller frees with pmr_sim_free().
 */
struct pmr_sim *pmr_sim_new(const struct pmr_sim_config *c,
    const struct pmr_sim_opts *o, int *err) PMR_RESULT_USED;
/* Sends records to w (may be NULL); the caller keeps owning w. */
void pmr_sim_set_writer(struct pmr_sim *s, struct pmr_writer *w);
/*
 * Calls fn(arg, type, decoded struct) for every record emitted (EVENT as
 * a struct pmr_event), and with PMR_SIM_HOOK_INSN for every measured
 * instruction that retires or aborts (a struct pmr_sim_insn).
 */
void pmr_sim_set_hook(struct pmr_sim *s,
    void (*fn)(void *arg, uint32_t type, const void *rec), void *arg);
/*
 * Runs the simulation over the instructions from src (which returns 1, 0
 * at the end, or a negative PMR_E* code) until it ends or
 * --max is reached, then writes the final STATS and the TRUTH records.
 * Returns PMR_OK, the source's negative code, or a writer error; the
 * message is in pmr_sim_errmsg().
 */
int pmr_sim_run(struct pmr_sim *s,
    int (*src)(void *arg, struct pmr_dinsn *di), void *arg) PMR_RESULT_USED;
/*
 * Returns the instructions the run skipped (opts skip), fewer when the
 * source ended first.
 */
uint64_t pmr_sim_skipped(const struct pmr_sim *s);
/*
 * Returns the seed of a run that skips skip instructions of its trace:
 * seed itself when skip is 0, else the splitmix64 finalizer of seed XOR
 * skip * 0x9e3779b97f4a7c15, so that the windows of one trace, one seed,
 * draw independent samples.
 */
uint64_t pmr_sim_window_seed(uint64_t seed, uint64_t skip);
/*
 * Reads the window of a run from the value of its META skip record
 * ("skip=N warm-caches=W seed=S", pmsim --skip) into *skip: 0, or -1 if
 * the value names none.
 */
int pmr_sim_window_skip(const void *value, size_t n, uint64_t *skip);
/* Returns the statistics so far (valid after pmr_sim_run). */
const struct pmr_sim_stats *pmr_sim_stats(const struct pmr_sim *s);
/* The SIG and DET records the shotgun sampler wrote so far. */
void pmr_sim_shotgun_counts(const struct pmr_sim *s, uint64_t *sigs,
    uint64_t *dets);
/* Returns the effective configuration (idealizations applied). */
const struct pmr_sim_config *pmr_sim_config(const struct pmr_sim *s);
/* Returns the effective options (defaults resolved: W, S). */
const struct pmr_sim_opts *pmr_sim_opts(const struct pmr_sim *s);
/* Returns the message of the last error ("" if none). */
const char *pmr_sim_errmsg(const struct pmr_sim *s);
void pmr_sim_free(struct pmr_sim *s);

/* --- shotgun sampling (shotgun.c) ---------------------------------------- */

/*
 * Returns the 2 signature bits (PMR_SIM_SIG_B1 | PMR_SIM_SIG_B2) of a committed
 * instruction of class cls with event bits ev (Fields et al. MICRO-36 §5, Table
 * 5): b1 for a taken transfer or a load/store class, cleared by an LLC
 * (last-level) data miss; b2 for an I-cache, ITLB, L1-D or DTLB miss.
 */
unsigned pmr_sim_sig_bits(unsigned cls, uint32_t ev);

/* --- records (field tables: lib/records/rec_sim.c) ------------------- */

extern const struct pmr_rtype pmr_rtypes_sim[];
extern const unsigned pmr_rtypes_sim_n;
/* Returns the registry entry of sim record type, or NULL. */
const struct pmr_rtype *pmr_sim_rtype(uint32_t type);
/* Bytes of a GNODE record with every field up to minor 3's (pmsim's). */
#define PMR_SIM_GNODE_LEN 115

/* Decodes the PMR_SIM_GNODE_LEN payload bytes at p of a GNODE record in
 * the field table's order (lib/records/rec_sim.c; test_sim checks that
 * the two agree on random records); inlined even into a function built
 * for another ISA (icost's clones), which GCC would not do of itself. */
__attribute__((always_inline)) static inline void
pmr_sim_gnode_decode_at(const unsigned char *p, struct pmr_sim_gnode *g)
{
	g->seq = pmr_le64(p);
	g->pc = pmr_le64(p + 8);
	g->cls = p[16];
	g->partial = p[17];
	g->events = pmr_le32(p + 18);
	g->dd_fetch = pmr_le16(p + 22);
	g->re = pmr_le32(p + 24);
	g->ep_fu = pmr_le16(p + 28);
	g->ep_mem = pmr_le16(p + 30);
	g->ep_miss = pmr_le16(p + 32);
	g->ep_tlb = pmr_le16(p + 34);
	g->cc = pmr_le16(p + 36);
	g->pr_reg_a = pmr_le32(p + 38);
	g->pr_reg_b = pmr_le32(p + 42);
	g->pr_reg_c = pmr_le32(p + 46);
	g->pr_mem = pmr_le32(p + 50);
	g->pp = pmr_le32(p + 54);
	g->at_d = pmr_le64(p + 58);
	g->at_r = pmr_le64(p + 66);
	g->at_e = pmr_le64(p + 74);
	g->at_p = pmr_le64(p + 82);
	g->at_c = pmr_le64(p + 90);
	g->dd_itlb = pmr_le16(p + 98);
	g->dd_brk = pmr_le16(p + 100);
	g->rs = pmr_le32(p + 102);
	g->rk = p[106];
	g->dd_dec = pmr_le16(p + 107);
	g->dd_wp = pmr_le16(p + 109);
	g->pl = pmr_le32(p + 111);
}

/* Decodes a GNODE record as pmr_rec_decode() does (same result, same
 * errors), several times faster for the records of the current minor. */
int pmr_sim_gnode_decode(const struct pmr_rec *rec, struct pmr_sim_gnode *g,
    const char **why);
/* The GNODE content of a detailed sample (the inverse of what pmsim's
 * shotgun sampler keeps of a GNODE; observed cycles 0): what a graph
 * builder starts a node from. */
void pmr_sim_gnode_of_det(const struct pmr_sim_det *d,
    struct pmr_sim_gnode *n);

#ifdef PMR_SIM_INTERNAL
/*
 * Internal to lib/sim: set-associative caches and TLBs (cache.c) and the
 * branch predictors, BTB and return stack (bpred.c).
 */
/* A way: key + 1 (0 = invalid) beside its LRU stamp, one read a probe. */
struct pmr_sim_way {
	uint64_t tag;
	uint32_t use;
	union {
		/* L1-I and L2, with a graph: the miss cycles a wrong-path
		 * fetch paid to bring the line here, until the correct path
		 * touches it (GNODE dd_wp); 0 on every other fill */
		uint32_t wp;
		/* L1-D: fetch position + 1 (low 32 bits) of the load whose
		 * miss filled the line (GNODE pl), 0 another fill */
		uint32_t filler;
	};
};

struct pmr_sim_cache {
	struct pmr_sim_way *way;	/* sets * ways */
	uint32_t clock;
	unsigned sets, ways;
	unsigned shift;		/* key = addr >> shift */
};

/* Sets up c with bytes/unit sets x ways; returns 0 or PMR_ENOMEM. */
int pmr_sim_cache_init(struct pmr_sim_cache *c, uint64_t units,
    unsigned ways, unsigned shift);
void pmr_sim_cache_fini(struct pmr_sim_cache *c);
/* Returns 1 on a hit; on a miss installs the block if install is set. */
int pmr_sim_cache_access(struct pmr_sim_cache *c, uint64_t addr,
    int install);
/* The same, returning the way that hit or was filled (NULL: a miss
 * without install) and the hit in *hit. */
struct pmr_sim_way *pmr_sim_cache_way(struct pmr_sim_cache *c,
    uint64_t addr, int install, int *hit);
/* The way that holds addr, or NULL; no LRU update. */
struct pmr_sim_way *pmr_sim_cache_probe(const struct pmr_sim_cache *c,
    uint64_t addr);

struct pmr_sim_bpred {
	int kind;		/* enum pmr_sim_bp */
	uint8_t *bim, *gsh, *cho, *lpred;
	uint16_t *lhist;
	uint32_t bim_mask, gsh_mask, cho_mask, lh_mask, lp_mask;
	uint32_t gmask;		/* global history bits in use */
	/* BTB: sets x ways of (pc, target) */
	uint64_t *btb_pc, *btb_tgt;
	uint32_t *btb_use, btb_clock;
	unsigned btb_sets, btb_ways;
	/*
	 * bp champsim (ChampSim's branch/bimodal and btb/basic_btb): the
	 * bimodal index is pc mod cs_prime; BTB entries carry a kind
	 * (enum pmr_sim_cs_kind); indirect targets by (pc >> 2) XOR the
	 * conditional-outcome history; a return stack of call pcs plus
	 * learned call sizes
	 */
	uint32_t cs_prime;
	uint8_t *btb_kind;
	uint64_t *cs_ind;
	uint32_t cs_ind_mask, cs_hist;
	uint64_t *cs_ras;	/* ring of call pcs */
	unsigned cs_ras_max, cs_ras_n, cs_ras_top;
	uint64_t cs_csize[1024];
};

int pmr_sim_bpred_init(struct pmr_sim_bpred *b,
    const struct pmr_sim_config *c);
void pmr_sim_bpred_fini(struct pmr_sim_bpred *b);
/*
 * Predicts the direction of the conditional branch at pc under global
 * history ghist; when train is set, trains with the outcome taken.
 */
int pmr_sim_bpred_cond(struct pmr_sim_bpred *b, uint64_t pc, uint64_t ghist,
    int taken, int train);
/* Returns the BTB target of pc, or 0 on a miss. */
uint64_t pmr_sim_btb_lookup(struct pmr_sim_bpred *b, uint64_t pc);
void pmr_sim_btb_update(struct pmr_sim_bpred *b, uint64_t pc,
    uint64_t target);
/*
 * bp champsim: predicts the transfer of class cls (PMR_OP_*) at pc as
 * ChampSim does when it reads the instruction: *taken is the bimodal
 * direction or an always-taken BTB kind; returns the predicted target,
 * 0 when predicted not taken or unknown.
 */
uint64_t pmr_sim_cs_predict(struct pmr_sim_bpred *b, uint64_t pc,
    unsigned cls, int *taken);
/* bp champsim: trains with the outcome (target 0 when not taken). */
void pmr_sim_cs_update(struct pmr_sim_bpred *b, uint64_t pc, unsigned cls,
    int taken, uint64_t target);

/*
 * The shotgun sampler (shotgun.c): state made by pmr_sim_new when
 * o->shotgun is set, fed every measured committed instruction in commit
 * order; it writes SIG and DET records through emit(arg, type, rec).
 */
struct pmr_sim_shotgun;

/* Sets the shotgun defaults (sig 1e6, len 1000, prefix 10, det 1000,
 * ctx 10) in o; sampling stays off. */
void pmr_sim_shotgun_defaults(struct pmr_sim_opts *o);
/*
 * Creates the sampler for o.  Returns it, or NULL with *err set
 * (PMR_EINVAL for a parameter out of range, PMR_ENOMEM).
 */
struct pmr_sim_shotgun *pmr_sim_shotgun_new(const struct pmr_sim_opts *o,
    void (*emit)(void *arg, uint32_t type, const void *rec), void *arg,
    int *err);
/*
 * Takes the next measured committed instruction: its commit index, pc,
 * class and event bits; writes the records it completes.  Returns 1 if
 * the instruction is selected for a detailed sample: the caller then
 * passes its GNODE content to pmr_sim_shotgun_take(), before the next
 * instruction.  Returns 0 otherwise.
 */
int pmr_sim_shotgun_retire(struct pmr_sim_shotgun *sg, uint64_t seq,
    uint64_t pc, unsigned cls, uint32_t ev);
/* Takes the detailed sample of the instruction just selected: its GNODE
 * content g and the pc it went on to (next_pc). */
void pmr_sim_shotgun_take(struct pmr_sim_shotgun *sg,
    const struct pmr_sim_gnode *g, uint64_t next_pc);
void pmr_sim_shotgun_free(struct pmr_sim_shotgun *sg);
#endif /* PMR_SIM_INTERNAL */

#endif /* PMR_SIM_H */
