/*
 * sim_internal.h: what the files of the simulator share, and nothing
 * outside lib/sim sees: the window entry, struct pmr_sim, the helpers
 * every stage calls (static inline, so that the split into one file per
 * stage costs nothing), and the functions each stage file exports to the
 * others (sim_ prefix).
 *
 * Every in-flight instruction lives in one ring, the window, from fetch to
 * retire: [head, map) is the ROB (mapped), [map, tail) the fetch queue.
 * Each cycle runs, in this order: mispredict resolution (squash.c),
 * retire (retire.c), issue (issue.c), map (rename.c), fetch (fetch.c), so
 * an instruction advances at most one stage per cycle; run.c drives them.
 * Nothing scans the window: register dependences are renamed to producer
 * slots; a consumer waits on its producers' wake-up lists and, once every
 * operand time is known, goes into a timing wheel bucket for the cycle
 * its data is ready (or, for the next cycle, the commonest case, into the
 * soon bitmap); the issue stage takes ready instructions oldest first from
 * a bitmap over the ring.  List nodes come from one pool, so the steady
 * state allocates nothing.  The stages keep their rare paths (options
 * that are off, pool growth, sample starts) in functions of their own,
 * out of the inlined main loop.
 *
 * Wrong-path fetch follows the predicted path through the static
 * instructions seen so far (the per-pc table); unknown pcs become nops.
 * Each instruction's stamps F, M, D, X, RR, R|A and LC give the ProfileMe
 * latencies (Dean et al., MICRO-30, §4.1) and the truth.  The retire stage
 * is the one place that sees an instruction complete with all its stamps
 * and latency parts, which is where the GNODE records are built.
 */
#ifndef PMR_SIM_INTERNAL_H
#define PMR_SIM_INTERNAL_H

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define PMR_SIM_INTERNAL
#include "stream/pmr_internal.h"
#include "sim/sim.h"
#include "sim/sched.h"

#define WHEEL 8192u		/* timing wheel, cycles (power of 2) */
#define CRING 65536u		/* per-cycle issue counters, cycles */
#define NREG 1024u		/* architectural register numbers kept */
#define MAXD 6			/* destinations renamed per instruction */
#define MAXL 4			/* load addresses timed per instruction */
#define STAB 1024u		/* store address table (forwarding) */
#define PCC 4096u		/* pc -> per-pc index cache */
#define NONE32 0xffffffffu
#define TP_UNIT 720720u		/* lcm(1..16): a cycle shared exactly */
#define WAIT_CLEAR 16384u	/* the 21264 clears its store-wait table */

/* Entry flags. */
#define E_WP 0x0001u		/* on a wrong path */
#define E_MISP 0x0002u		/* mispredicted, redirects at resolve */
#define E_TAKEN 0x0004u
#define E_FP 0x0008u		/* uses the FP queue */
#define E_ISSUED 0x0010u
#define E_MAPPED 0x0020u
#define E_SCHED 0x0040u		/* operand times all known (D valid) */
#define E_FWD 0x0080u		/* load fed by a store */
#define E_VALUE 0x0100u
#define E_BRANCH 0x0200u
#define E_LIVE 0x0400u		/* slot holds an in-flight instruction */
#define E_READYBIT 0x0800u	/* in the ready bitmap */
#define E_LDCNT 0x1000u		/* counted in ldcnt (mem_order) */
#define E_NPC 0x2000u		/* ecold next_pc set, else fall-through */
#define E_NZVAL 0x4000u		/* ecold value set (else 0) */
#define E_TID 0x8000u		/* ecold tid set (else 0) */
#define E_DIBMISS 0x10000u	/* missed the DIB (wrong_path 0) */
#define E_IPREG 0x20000u	/* a transfer renaming the pc (ip_reg) */

/*
 * wrong_path 0, ChampSim's front end (src/ooo_cpu.cc): a decoded-
 * instruction buffer of 32 sets x 8 ways of 16-byte windows, checked
 * when an instruction is read and filled at its decode; a miss goes
 * through the L1-I and the decoder, 7 cycles from read to dispatch
 * instead of 4 (champsim-core.md 4): DIB_MISS more cycles to map.
 */
#define DIB_BYTES 4096u
#define DIB_WAYS 8u
#define DIB_SHIFT 4u
#define DIB_MISS 3u

/* the unit pools, sched.h's */
enum pool { P_ALU = PMR_SIM_POOL_ALU, P_IMUL = PMR_SIM_POOL_IMUL,
	P_FADD = PMR_SIM_POOL_FADD, P_FMUL = PMR_SIM_POOL_FMUL,
	P_MEM = PMR_SIM_POOL_MEM, P_N = PMR_SIM_NPOOL };

/* The rename undo of one destination. */
struct undo {
	uint32_t prev;		/* previous producer of dreg, slot+1 */
	/* seq minus the previous producer's seq, saturated: a producer
	 * 2^32 - 1 back is long retired, so any value that far back
	 * behaves the same in map_one() */
	uint32_t prevd;
	uint16_t dreg;
};

/*
 * The window's per-slot state, split by use: struct ent holds what the
 * stages touch for every instruction, in two cache lines (the first
 * all that a wake-up or an operand check reads); struct ewarm two
 * fields every fetch writes but few read, packed densely; struct ecold
 * what only some need (a trap's replay, a load's return-stack repair,
 * several loads, an instruction that does not fall through); struct
 * eundo the rename undo of destinations after the first (one in six
 * instructions has one); struct egn the latency parts only a dependence
 * graph or the hook reads, written only then (gn).  The ring is swept
 * once per wsize fetches: at 312 bytes a slot, or with three lines of
 * 64, it did not stay in the L1-D beside the other tables.
 */
struct ent {
	/* line 1: what the scheduler reads of any entry (wake-up,
	 * operands, wheel, issue, retire) */
	uint64_t seq;		/* fetch index (pos), bad path included */
	uint32_t flags;
	int32_t waiters;	/* wake-up list (node index), -1 none */
	uint8_t pending, pool, lat, nload, nstore, cls, ndst, trap;
	uint64_t res;		/* result ready */
	uint64_t M, D, RR;
	uint32_t events;
	uint32_t tag;		/* sample slot + 1, 0 none */
	/* line 2: the other stamps, the addresses, the pc's index, the
	 * rename undo of the first destination (more: eundo) */
	uint64_t F, X, LC;
	uint64_t pc;
	uint64_t addr;		/* first memory address, or target */
	uint64_t laddr0;	/* first load address (more: ecold) */
	uint32_t pcx;		/* per-pc table index */
	struct undo u0;
} __attribute__((aligned(64)));
_Static_assert(sizeof(struct ent) == 128, "struct ent: two cache lines");

/* Written at every fetch, read by map (si) or rarely (hist). */
struct ewarm {
	const struct pmr_sinsn *si;	/* NULL: synthetic nop */
	uint64_t hist;		/* global history at fetch */
};

/* Rename undo of destinations 1.. (0: ent u0). */
struct eundo {
	struct undo u[MAXD - 1];
};

struct ecold {
	uint64_t next_pc;	/* the path actually followed, if E_NPC */
	uint64_t value;		/* if E_NZVAL, else 0 */
	uint64_t laddr[MAXL - 1];	/* load addresses 2.., if nload > 1 */
	/* return stack at fetch, for the repair after a replay trap (of
	 * a correct-path load, the only kind that traps) */
	uint64_t ras_val;
	uint32_t ras_top, ras_pcx;
	uint32_t tid;		/* if E_TID, else 0 */
} __attribute__((aligned(64)));

/* latency components kept apart for a dependence graph (GNODE) */
struct egn {
	uint16_t dd_fetch, ep_mem, ep_miss, ep_tlb;
	uint16_t dd_itlb;	/* ITLB and first-touch part of dd_fetch */
	uint16_t dd_brk;	/* fetch break before it: taken transfer,
				 * block end, BTB bubble (cycles) */
	uint16_t dd_wp;		/* I-side stall spared by wrong-path fetch */
	uint32_t preg[3], pmem;	/* pos distances to producers */
	uint32_t ppp;		/* pos distance to the line's missing load */
	uint32_t pfill;		/* a hit: pos distance to the line's filler */
	uint32_t rsrc;		/* pos distance to the releaser (GNODE rs) */
	uint8_t rwhy;		/* last map stall: PMR_SIM_ST_* + 1, 0 none */
};

/*
 * A list node: an entry (slot, and seq to tell a reused slot) waiting in
 * a wheel bucket or on a producer.  One struct, so that a list walk
 * touches one line per node.
 */
struct node {
	int32_t next;		/* next node, -1 none */
	uint32_t slot;
	uint64_t seq;
};

/*
 * ent_setup()'s result for one static instruction, by its id (ids are
 * never reused), beside the index of its pc: a dense table that the
 * fetch of every instruction reads, where the per-pc table is sparse.
 */
struct sdec {
	uint32_t x;		/* per-pc index + 1, 0 not known yet */
	uint32_t flags;		/* entry flags it adds */
	uint8_t set, cls, pool, lat, nload, nstore;
	uint8_t nd;		/* destinations map() counts, <= MAXD */
};

/* A pc and its per-pc index + 1 (0: empty), in pt_find()'s cache. */
struct phent {
	uint64_t pc;
	uint32_t x;
};

struct pcent {
	uint64_t pc;
	const struct pmr_sinsn *si;
	uint8_t calllen;	/* learned call size (ChampSim: no length) */
	uint8_t cls;		/* of si at the pc's first fetch */
	uint32_t wait;		/* load waits for older stores (mem_order)
				 * while this is now / WAIT_CLEAR + 1 */
	uint64_t tp;		/* time-proportional charge, TP_UNIT a cycle */
};

/* One sample in progress (both members of a pair use one each). */
struct psamp {
	struct pmr_sim_sample s;
	uint64_t done_at;
	uint32_t pair;		/* pair slot + 1, 0 single */
	uint8_t member;		/* 0 a, 1 b */
	uint8_t state;		/* 0 free, 1 in flight, 2 waiting, 3 done */
	uint8_t sampler;	/* PMR_SIM_SAMPLER_* */
	int32_t next;		/* free list / waiting list */
};

struct ppair {
	uint64_t seq, posa;
	uint32_t a, b;		/* sample slots + 1 */
	uint32_t d;
	uint8_t done;		/* members complete */
	int32_t next;
};

/*
 * One cycle of the useful-concurrency truth: what useful_advance() reads
 * and writes for a cycle sits together, in one or two lines, not seven.
 */
struct cring {
	uint64_t pref, pocc, poccr;	/* prefix sums before the cycle */
	uint32_t iss;		/* issues less aborted ones (mod 2^32) */
	int32_t occ, occr;	/* in-flight count changes */
};

struct uq {			/* instance waiting for its useful count */
	uint64_t F, end, push;
	uint32_t pcx;
	uint8_t self;
};

struct pmr_sim {
	struct pmr_sim_config c;
	struct pmr_sim_opts o;
	struct pmr_writer *w;
	void (*hook)(void *, uint32_t, const void *);
	void *hookarg;
	int (*src)(void *, struct pmr_dinsn *);
	void *srcarg;
	char errmsg[256];
	int err;

	/* window ring */
	struct ent *ents;
	struct ewarm *warm;	/* beside ents, by slot */
	struct ecold *cold;	/* beside ents, by slot */
	struct eundo *undo;	/* beside ents, by slot */
	struct egn *gnodes;	/* beside ents, by slot; written if graph_on */
	int graph_on;		/* a graph or the hook reads gnodes */
	uint64_t sg_sigs, sg_dets;	/* SIG and DET records written */
	uint32_t wsize, wmask;
	uint64_t head, map, tail;	/* absolute counters, slot = & wmask */
	uint64_t *ready;	/* bitmap over slots */
	/* ready from the next cycle on, filled during issue and map (in
	 * place of the wheel bucket for now + 1) and moved into ready at
	 * the end of map: empty outside those two stages */
	uint64_t *soon;
	int soon_any;
	uint32_t nwords;

	/* node pool: wake-up lists and wheel buckets */
	struct node *node;
	uint32_t ncap;
	int32_t nfree;
	int32_t wheel[WHEEL];

	/* rename */
	uint32_t rat[NREG];	/* producer slot + 1 */
	uint64_t ratseq[NREG];
	/* per word hash: the youngest in-flight store to the word, for
	 * forwarding, and the issued unforwarded loads (mem_order); one
	 * line a word, where three arrays took three misses a look-up */
	struct stab {
		uint64_t addr;	/* word address, if slot != 0 */
		uint64_t seq;
		uint32_t slot;	/* store's slot + 1, 0 none */
		uint16_t ldcnt;
	} __attribute__((aligned(32))) stab[STAB];
	/* free entries: issue queues, rename registers, load and store
	 * queues */
	unsigned iq_int_free, iq_fp_free, regs_int_free, regs_fp_free;
	unsigned lq_free, sq_free;

	/*
	 * functional units: the units of a pool are alike, so a pool is
	 * counts: fu_used units taken this cycle by pipelined operations
	 * (issue() clears them), and nlong units held past it, each free
	 * from its fu[] cycle on (a divide)
	 */
	uint64_t *fu[P_N];
	unsigned nfu[P_N], nlong[P_N], fu_used[P_N];

	/* front end */
	uint64_t now;
	uint64_t fetch_at;	/* fetch may run from this cycle */
	int fetch_why;		/* stall reason while now < fetch_at */
	int wrongpath;		/* fetching down a wrong path */
	int wp_stuck;		/* wrong path with no pc to follow */
	uint64_t wp_pc;
	uint64_t ghist, ghist_fix;
	uint64_t *ras;
	uint32_t *ras_pcx;	/* per entry: the call's pc index */
	uint32_t ras_n, ras_top, ras_fix_top;	/* ras_top < ras_n */
	uint64_t ras_fix_val;
	uint32_t ras_fix_pcx;
	uint64_t cur_line;	/* last I-cache line fetched + 1 */
	/* wrong_path 0 (ChampSim's IFETCH buffer, src/ooo_cpu.cc): fetch
	 * reads on past an I-cache or ITLB miss; by slot, the cycle from
	 * which the entry's line (and every older one) is there; NULL with
	 * wrong_path 1, whose fetch waits for the line */
	uint64_t *fready;
	uint64_t fready_last;	/* the latest line arrival so far */
	struct pmr_sim_cache dib;	/* with fready */
	/* bp champsim: transfers write the instruction pointer and
	 * conditional branches and calls read it, renamed like any
	 * register, as ChampSim renames register 26 (its traces list it;
	 * src/ooo_cpu.cc drops only the stack pointer) */
	int ip_reg;
	uint32_t pend_ev;	/* I-side events for the next fetch */
	unsigned pend_dd;	/* I-side stall cycles for the next fetch */
	unsigned pend_itlb;	/* their ITLB / first-touch part */
	unsigned pend_wp;	/* I-side stall cycles wrong-path fetch spared
				 * the next fetch (GNODE dd_wp) */
	unsigned pend_brk;	/* fetch-break cycles for the next fetch */
	unsigned last_itl;	/* ITLB part of the last ifetch */
	unsigned last_tl;	/* TLB part of the last load_access */
	struct pmr_dinsn nxt;
	int have_nxt, src_done;
	uint64_t pos;		/* next fetch index */

	uint64_t nissued;	/* issues so far (activity test) */
	/* inorder = 1: everything in [head, iss) has issued (sim_io_head);
	 * hd_pending measured cycles with no instruction to issue, for the
	 * next one to come (TRUTH head_cycles), hd_pend the same by cause
	 * (enum pmr_sim_hd); the cause the last issue stage found, hd_why
	 * before cycle hd_until and hd_then from it on (issue.c), hd_wait
	 * the seq + 1 of the head it is that of, if one not ready; hd_redir
	 * the cause of the refill after the last squash (a mispredict or a
	 * replay trap) */
	uint64_t iss, hd_pending;
	uint64_t hd_pend[PMR_SIM_HD_N];
	uint64_t hd_until, hd_wait;
	int hd_why, hd_then, hd_redir;
	int map_why;		/* this cycle's map stall reason, -1 none */
	int td_recov;		/* a squash emptied the front end, and no
				 * instruction of the redirected path has
				 * mapped yet (STATS td_bad) */
	/* pos of the last instruction to free each structure (GNODE rs):
	 * issue queues int/fp by issue, registers int/fp, load and store
	 * queue entries by retire */
	uint64_t rel_iq[2], rel_regs[2], rel_lq, rel_sq;
	uint64_t skipped;	/* idle cycles jumped over */
	uint64_t nskipped;	/* trace instructions skipped (opts skip) */

	/* pending memory-order trap, and the instructions to fetch again */
	int mo_pending;
	uint32_t mo_slot;
	uint64_t mo_seq, mo_at;
	struct pmr_dinsn *rpl;	/* deque of wsize + 2 */
	uint32_t rpl_head, rpl_n;

	/* pending mispredict */
	int res_pending;
	uint32_t res_slot;
	uint64_t res_seq, res_at;

	/* memory */
	struct pmr_sim_cache l1i, l1d, l2, l3, itlb, dtlb;
	struct pmr_sim_way *l2_way;	/* lower_levels(): the line's L2 way */
	int l2_hit;			/* and whether it hit */
	uint64_t *mshr_line, *mshr_fill;
	uint64_t *mshr_pos;	/* the load that allocated each MSHR */
	uint64_t mshr_until;	/* every MSHR is free from this cycle on */
	uint64_t access_pos;	/* the load being timed (load_access) */
	uint32_t merged_dist;	/* its distance to the MSHR's load, or 0 */
	uint32_t fill_dist;	/* a hit: its distance to the load whose miss
				 * filled the line, or 0 */
	uint64_t *dram_open;	/* per bank: open row + 1, 0 closed */
	uint64_t bus_free;	/* the memory bus carried its last line */
	unsigned rshift;	/* log2 dram_row */
	uint64_t *pages;	/* first-touch set (fault_lat) */
	uint64_t npages, pagecap;
	unsigned lshift, pshift;
	unsigned fbshift;	/* log2 fetch_block */
	struct pmr_sim_bpred bp;

	/* per-pc table */
	struct pcent *pcs;
	/* per-pc truth, beside pcs (cold): entries on line boundaries */
	struct trent {
		struct pmr_sim_truth t;
	} __attribute__((aligned(64))) *truth;
	char *truth_raw;	/* the block truth is in */
	/* address truth (ATRUTH): misses per (pc, line), open addressing */
	struct aslot {
		uint64_t line;	/* line number + 1, 0 empty */
		uint64_t n;
		uint32_t pcx;
	} *atruth;
	size_t atruth_cap, atruth_n;
	uint64_t *last_addr;	/* by index: for wrong-path memory accesses
				 * (dense: every correct-path access of a
				 * pc writes it) */
	uint32_t npcs, pcs_cap;
	uint32_t *pcs_hash;	/* hash: index + 1 */
	uint32_t pcs_hash_cap;
	struct sdec *idx;	/* by si->id: a cache of pt_get, and more */
	struct sdec nopdec;	/* ent_setup() of the synthetic nop */
	struct phent pc_cache[PCC];	/* a direct-mapped cache of pt_find */
	uint32_t nidx;
	struct pcent synth;	/* template for unknown pcs */

	/* statistics */
	struct pmr_sim_stats st;
	uint64_t start;		/* cycle measurement started */
	uint64_t retired_all;
	int measuring;
	uint64_t next_interval;
	uint64_t retire_watch;	/* st.retired from which retire() looks
				 * at next_interval and --max */
	uint32_t last_pcx;
	uint64_t tp_pending;	/* TP_UNIT cycles before the first fetch */
	int stop;

	/* useful-concurrency truth */
	struct cring *conc;	/* by cycle modulo CRING */
	uint64_t fin, pfin, pocc_fin, poccr_fin;
	int64_t occ_run, occr_run;	/* in flight during cycle fin */
	struct uq *useful_q;
	size_t useful_qh, useful_qt, useful_qcap;	/* ring: [qh, qt),
	    qcap a power of 2 */

	/* ProfileMe */
	uint64_t rng[4];
	uint64_t pm_left;	/* fetches until the next selection */
	int pm_at_fetch;	/* pm on, selecting at fetch (pm_fetch) */
	int pm_armed;
	uint64_t pm_arm_at;
	struct psamp *pm_samples;
	uint32_t pm_nsamples;
	int32_t pm_sample_free, pm_sample_wait;
	struct ppair *pm_pairs;
	uint32_t pm_npairs;
	int32_t pm_pair_free;
	uint32_t *minor;	/* pos -> pair slot + 1 awaiting member b */
	uint64_t *minor_pos;
	uint32_t minor_mask;
	uint64_t sample_seq, pair_seq;
	unsigned outstanding;

	/* baseline samplers */
	uint64_t bs_left;	/* events (or cycles) to the next overflow */
	uint64_t bs_fire_at;	/* counter: delivery cycle */
	int bs_pending;		/* counter: overflowed, not delivered */
	/* counter, in order: the delivery cycles of the overflows not yet
	 * due, bs_qn from bs_qh in a ring of skid + 2 cycles' overflows
	 * (bs_fire_at the first), and the due ones that wait for a head */
	uint64_t *bs_q, bs_due;
	unsigned bs_qcap, bs_qh, bs_qn;
	int bs_cycles;		/* the interval is counted in cycles */
	int pebs_next;		/* pebs: sample the next retiring one */

	/* GNODE (--graph): commit index of each retired fetch index, by
	 * fetch index modulo gmask + 1, to turn producer distances in
	 * fetch order into distances in commit order */
	uint64_t *gpos, *gseq;
	uint64_t gmask;
	struct pmr_sim_shotgun *sg;	/* --shotgun (shotgun.c), or NULL */

	/* windowed IPC: the current window ends before cycle win_end */
	uint64_t win_end, win_cur;

	/* local-IPC truth: lipc_retired[c & lipc_rmask] = measured retires
	 * up to the end of cycle c, filled up to lipc_upto; lipc_pcx/lipc_at
	 * a FIFO of the retired instances (pc index, retire cycle) waiting
	 * for cycle R + delta */
	uint64_t *lipc_retired, lipc_rmask, lipc_upto, lipc_cum;
	uint32_t *lipc_pcx;
	uint64_t *lipc_at, lipc_mask, lipc_head, lipc_tail;
};

/* --- what each file exports to the others ---------------------------- */

/* common.c */
void *sim_zalloc64(size_t n);
int sim_fail(struct pmr_sim *s, int code, const char *fmt, ...);
uint64_t sim_rnd(struct pmr_sim *s);
void sim_seed_rng(struct pmr_sim *s, uint64_t seed);
double sim_rnd01(struct pmr_sim *s);
int sim_node_grow(struct pmr_sim *s);
void sim_node_free(struct pmr_sim *s, int32_t n);
uint32_t sim_pc_hash(uint64_t pc);
uint32_t sim_pt_find(struct pmr_sim *s, uint64_t pc);
void sim_emit(struct pmr_sim *s, uint32_t type, const void *rec);
void sim_emit_event(struct pmr_sim *s, unsigned kind, uint64_t pc, uint64_t v);

/* fetch.c */
void sim_ent_derive(struct pmr_sim *s, struct ent *e,
    const struct pmr_sinsn *si, struct sdec *d);
uint64_t sim_fe_map_at(const struct pmr_sim *s, uint64_t c);
void sim_fetch(struct pmr_sim *s);
int sim_warm_insn(struct pmr_sim *s, const struct pmr_dinsn *d);

/* rename.c */
void sim_stall(struct pmr_sim *s, int why);
int sim_is_fp_reg(uint16_t r);
void sim_map_one(struct pmr_sim *s, struct ent *e, uint32_t slot);
void sim_map(struct pmr_sim *s);

/* issue.c */
void sim_soon_merge(struct pmr_sim *s);
uint64_t sim_io_head(struct pmr_sim *s);
void sim_head_idle(struct pmr_sim *s, uint64_t c, uint64_t k);
void sim_head_flush(struct pmr_sim *s, uint32_t pcx);
void sim_issue(struct pmr_sim *s);

/* mem.c */
unsigned sim_page_touch(struct pmr_sim *s, uint64_t addr);
int sim_load_access(struct pmr_sim *s, uint64_t addr, uint32_t *ev, int must);
unsigned sim_ifetch(struct pmr_sim *s, uint64_t pc, uint32_t *ev);
void sim_page_mark(struct pmr_sim *s, uint64_t addr);
void sim_warm_ifetch(struct pmr_sim *s, uint64_t pc);
void sim_warm_load(struct pmr_sim *s, uint64_t addr);
void sim_warm_store(struct pmr_sim *s, uint64_t addr);

/* retire.c */
void sim_measure_start(struct pmr_sim *s);
void sim_retire(struct pmr_sim *s);

/* squash.c */
uint64_t sim_slot_abs(const struct pmr_sim *s, uint32_t slot);
void sim_ldcnt_drop(struct pmr_sim *s, struct ent *e);
void sim_unready(struct pmr_sim *s, uint32_t slot);
void sim_hook_insn(struct pmr_sim *s, const struct ent *e, int retired);
void sim_abort_ent(struct pmr_sim *s, struct ent *e, uint8_t trap);
void sim_resolve(struct pmr_sim *s);
void sim_mo_trap(struct pmr_sim *s);

/* profileme.c */
uint64_t sim_draw_interval(struct pmr_sim *s);
uint32_t sim_ps_new(struct pmr_sim *s);
void sim_ps_free(struct pmr_sim *s, uint32_t id);
void sim_pm_rearm(struct pmr_sim *s);
void sim_ps_fill(struct pmr_sim *s, struct ent *e);
void sim_ps_poll(struct pmr_sim *s);
void sim_pm_member(struct pmr_sim *s, struct ent *e);
void sim_pm_select(struct pmr_sim *s, struct ent *e);
void sim_pm_opportunities(struct pmr_sim *s, unsigned nf);

/* samplers.c */
uint64_t sim_bs_interval(struct pmr_sim *s);
void sim_bs_tag(struct pmr_sim *s, struct ent *e, int id);
void sim_bs_count(struct pmr_sim *s, const struct ent *e);
void sim_bs_cycle(struct pmr_sim *s, unsigned n);
void sim_retire_tp(struct pmr_sim *s, unsigned n, unsigned m);

/* truth.c */
uint32_t sim_pt_get(struct pmr_sim *s, uint64_t pc, const struct pmr_sinsn *si);
uint32_t sim_si_index(struct pmr_sim *s, const struct pmr_sinsn *si);
int sim_uq_grow(struct pmr_sim *s);
void sim_occ_add(struct pmr_sim *s, uint64_t F, uint64_t end, int retired);
void sim_useful_advance(struct pmr_sim *s, int force);
void sim_atruth_emit(struct pmr_sim *s);
void sim_retire_truth(struct pmr_sim *s, struct ent *e);
void sim_win_close(struct pmr_sim *s, uint64_t now);
void sim_local_drain(struct pmr_sim *s, uint64_t c);
void sim_local_step(struct pmr_sim *s, unsigned m);
void sim_emit_stats(struct pmr_sim *s, int final);

/* graph.c */
void sim_gnode_retire(struct pmr_sim *s, unsigned n);
void sim_shotgun_emit(void *s, uint32_t type, const void *rec);
void sim_gn_preg(struct pmr_sim *s, const struct ent *e, uint32_t slot,
    uint16_t r);
void sim_gn_fetch(struct pmr_sim *s, uint32_t slot);

/* --- helpers every stage inlines ------------------------------------- */

/* The cold part of entry e. */
static inline struct ecold *
ecold(const struct pmr_sim *s, const struct ent *e)
{
	return &s->cold[e - s->ents];
}

/* The static instruction of entry e, NULL for a synthetic nop. */
static inline const struct pmr_sinsn *
ent_si(const struct pmr_sim *s, const struct ent *e)
{
	return s->warm[e - s->ents].si;
}

/* Load address i of entry e (i < MAXL, i < e->nload). */
static inline uint64_t
ent_laddr(const struct pmr_sim *s, const struct ent *e, unsigned i)
{
	return i == 0 ? e->laddr0 : ecold(s, e)->laddr[i - 1];
}

/* The next pc of correct-path entry e. */
static inline uint64_t
ent_next_pc(const struct pmr_sim *s, const struct ent *e)
{
	return (e->flags & E_NPC) ? ecold(s, e)->next_pc :
	    e->pc + ent_si(s, e)->len;
}

static inline int32_t
node_new(struct pmr_sim *s, uint32_t slot, uint64_t seq)
{
	int32_t n;

	if (s->nfree < 0 && sim_node_grow(s) < 0)
		return -1;
	n = s->nfree;
	s->nfree = s->node[n].next;
	s->node[n].slot = slot;
	s->node[n].seq = seq;
	return n;
}

/*
 * Returns the extra cycles of a first touch of addr's page (fault_lat).
 * Inline: most machines have no fault_lat, and this runs on every load
 * and line fetch.
 */
static inline unsigned
first_touch(struct pmr_sim *s, uint64_t addr)
{
	if (s->c.fault_lat == 0)
		return 0;
	return sim_page_touch(s, addr);
}

/*
 * Decides at fetch whether the instruction at pos is selected.  Inline:
 * the counter runs on every fetch, and selects one in S.
 */
static inline void
pm_fetch(struct pmr_sim *s, struct ent *e)
{
	if (s->o.pm == PMR_SIM_PM_PAIRED && s->minor != NULL)
		sim_pm_member(s, e);
	if (!s->pm_armed || s->now < s->pm_arm_at)
		return;
	if (--s->pm_left > 0)
		return;
	sim_pm_select(s, e);
}

/* Queues an instance for sim_useful_advance(); inline: one a retire. */
static inline void
uq_push(struct pmr_sim *s, uint32_t pcx, uint64_t F, uint64_t end, int self)
{
	struct uq *u;
	size_t qt = s->useful_qt;

	if (qt - s->useful_qh == s->useful_qcap) {
		if (sim_uq_grow(s) != 0)
			return;
		qt = s->useful_qt;
	}
	u = &s->useful_q[qt & (s->useful_qcap - 1)];
	s->useful_qt = qt + 1;
	u->pcx = pcx;
	u->F = F;
	u->end = end;
	u->push = s->now;
	u->self = (uint8_t)self;
}

/*
 * The prefix sums before cycle c (c in [fin - CRING, fin]): cur (the
 * running ones) from fin on, zero before the ring.
 */
static inline const struct cring *
ring_at(const struct cring *cr, const struct cring *cur, uint64_t fin,
    uint64_t c)
{
	static const struct cring zero;

	if (c >= fin)
		return cur;
	if (fin - c >= CRING)
		return &zero;
	return &cr[c & (CRING - 1)];
}

static inline void
schedule(struct pmr_sim *s, uint32_t slot, uint64_t at)
{
	struct ent *e = &s->ents[slot];
	int32_t n;

	e->flags |= E_SCHED;
	if (at <= s->now) {
		s->ready[slot >> 6] |= 1ull << (slot & 63);
		e->flags |= E_READYBIT;
		return;
	}
	if (at == s->now + 1) {
		/* the common case: a bit instead of a wheel node */
		e->res = at;
		s->soon[slot >> 6] |= 1ull << (slot & 63);
		s->soon_any = 1;
		e->flags |= E_READYBIT;
		return;
	}
	if (at - s->now >= WHEEL)
		at = s->now + WHEEL - 1;	/* re-filed when popped */
	if ((n = node_new(s, slot, e->seq)) < 0) {
		sim_fail(s, PMR_ENOMEM, "out of memory");
		return;
	}
	e->res = at;		/* reused as "issuable at" until issue */
	s->node[n].next = s->wheel[at & (WHEEL - 1)];
	s->wheel[at & (WHEEL - 1)] = n;
}

/* Adds producer slot/seq as an operand of consumer e. */
static inline void
depend(struct pmr_sim *s, struct ent *e, uint32_t cslot, uint32_t pslot,
    uint64_t pseq)
{
	struct ent *p = &s->ents[pslot];
	uint32_t f = p->flags;
	/* in flight (else retired: the value is in the registers once its
	 * result time has passed; a load that retired before its data
	 * (load_early) keeps its consumers waiting until res, as long as
	 * its slot holds it); tests the host cannot predict, so evaluated
	 * without branches */
	unsigned same = p->seq == pseq;
	unsigned live = ((f & E_LIVE) != 0) & same;
	uint64_t r;
	int32_t n;

	if (!live | ((f & E_ISSUED) != 0)) {
		r = same ? p->res : 0;	/* issued or retired: result time */
		e->D = r > e->D ? r : e->D;
		return;
	}
	if ((n = node_new(s, cslot, e->seq)) < 0) {
		sim_fail(s, PMR_ENOMEM, "out of memory");
		return;
	}
	s->node[n].next = p->waiters;
	p->waiters = n;
	e->pending++;
}

/* Copies the class-derived fields of a new entry out of d. */
static inline void
ent_fill(struct ent *e, const struct sdec *d)
{
	e->ndst = d->nd;	/* until sim_map_one() counts them */
	e->cls = d->cls;
	e->pool = d->pool;
	e->lat = d->lat;
	e->nload = d->nload;
	e->nstore = d->nstore;
	e->flags |= d->flags;
}

/*
 * Fills the class-derived fields of a new entry: a function of si and
 * the configuration only, so kept per static instruction.  (The fetch
 * keeps si itself, in ewarm.)
 */
static inline void
ent_setup(struct pmr_sim *s, struct ent *e, const struct pmr_sinsn *si)
{
	struct sdec *d, tmp;

	if (si == NULL)
		d = &s->nopdec;
	else if (si->id < s->nidx)
		d = &s->idx[si->id];
	else
		d = &tmp;	/* no table entry (out of memory, huge id) */
	if (d == &tmp || !d->set) {
		sim_ent_derive(s, e, si, d);
		return;
	}
	ent_fill(e, d);
}

#endif /* PMR_SIM_INTERNAL_H */
