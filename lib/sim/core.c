/*
 * core.c: the pmsim cycle-level out-of-order core, its ProfileMe sampler
 * and its exact per-pc truth.
 *
 * Every in-flight instruction lives in one ring, the window, from fetch to
 * retire: [head, map) is the ROB (mapped), [map, tail) the fetch queue.
 * Each cycle runs, in this order: mispredict resolution (squash and
 * redirect), retire, issue, map, fetch, so an instruction advances at most
 * one stage per cycle.  Nothing scans the window: register dependences are
 * renamed to producer slots; a consumer waits on its producers' wake-up
 * lists and, once every operand time is known, goes into a timing wheel
 * bucket for the cycle its data is ready (or, for the next cycle, the
 * commonest case, into the soon bitmap); the issue stage takes ready
 * instructions oldest first from a bitmap over the ring.  List nodes come
 * from one pool, so the steady state allocates nothing.  The stages keep
 * their rare paths (options that are off, pool growth, sample starts)
 * in functions of their own, out of the inlined main loop.
 *
 * Wrong-path fetch follows the predicted path through the static
 * instructions seen so far (the per-pc table); unknown pcs become nops.
 * Each instruction's stamps F, M, D, X, RR, R|A and LC give the ProfileMe
 * latencies (spec profileme 2.2) and the truth.  The retire stage is the
 * one place that sees an instruction complete with all its stamps and
 * latency parts, which is where the GNODE records (icost 6.1) are built.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define PMR_SIM_INTERNAL
#include "stream/pmr_internal.h"
#include "sim/sim.h"

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

enum pool { P_ALU, P_IMUL, P_FADD, P_FMUL, P_MEM, P_N };

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
	uint32_t preg[3], pmem;	/* pos distances to producers */
	uint32_t ppp;		/* pos distance to the line's missing load */
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
	struct ent *e;
	struct ewarm *ew;	/* beside e, by slot */
	struct ecold *ec;	/* beside e, by slot */
	struct eundo *eu;	/* beside e, by slot */
	struct egn *eg;		/* beside e, by slot; written if gn */
	int gn;			/* a graph or the hook reads eg */
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
	unsigned iq_int, iq_fp, regs_int, regs_fp, lq, sq;

	/*
	 * functional units: the units of a pool are alike, so a pool is
	 * counts: fu_used units taken this cycle by pipelined operations
	 * (issue() clears them), and nlong units held past it, each free
	 * from its fu[] cycle on (a divide)
	 */
	uint64_t *fu[P_N];
	unsigned nfu[P_N], nlong[P_N], fu_used[P_N];
	unsigned lat_of[PMR_OP_NCLASS];
	uint8_t pool_of[PMR_OP_NCLASS];

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
	unsigned pend_brk;	/* fetch-break cycles for the next fetch */
	unsigned last_itl;	/* ITLB part of the last ifetch */
	unsigned last_tl;	/* TLB part of the last load_access */
	struct pmr_dinsn nxt;
	int have_nxt, src_done;
	uint64_t pos;		/* next fetch index */

	uint64_t nissued;	/* issues so far (activity test) */
	int map_why;		/* this cycle's map stall reason, -1 none */
	uint64_t skipped;	/* idle cycles jumped over */

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
	uint64_t *mshr_line, *mshr_fill;
	uint64_t *mshr_pos;	/* the load that allocated each MSHR */
	uint64_t mshr_until;	/* every MSHR is free from this cycle on */
	uint64_t access_pos;	/* the load being timed (load_access) */
	uint32_t merged_dist;	/* its distance to the MSHR's load, or 0 */
	uint64_t *dram_open;	/* per bank: open row + 1, 0 closed */
	uint64_t bus_free;	/* the memory bus carried its last line */
	unsigned rshift;	/* log2 dram_row */
	uint64_t *pages;	/* first-touch set (fault_lat) */
	uint64_t npages, pagecap;
	unsigned lshift, pshift;
	unsigned fbshift;	/* log2 fetch_block */
	struct pmr_sim_bpred bp;

	/* per-pc table */
	struct pcent *pt;
	/* per-pc truth, beside pt (cold): entries on line boundaries */
	struct trent {
		struct pmr_sim_truth t;
	} __attribute__((aligned(64))) *tr;
	char *tr_raw;		/* the block tr is in */
	/* address truth (ATRUTH): misses per (pc, line), open addressing */
	struct aslot {
		uint64_t line;	/* line number + 1, 0 empty */
		uint64_t n;
		uint32_t pcx;
	} *at;
	size_t atcap, atn;
	uint64_t *last_addr;	/* by index: for wrong-path memory accesses
				 * (dense: every correct-path access of a
				 * pc writes it) */
	uint32_t npt, ptcap;
	uint32_t *ph;		/* hash: index + 1 */
	uint32_t phcap;
	struct sdec *idx;	/* by si->id: a cache of pt_get, and more */
	struct sdec nopdec;	/* ent_setup() of the synthetic nop */
	struct phent pcc[PCC];	/* a direct-mapped cache of pt_find */
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
	struct cring *cr;	/* by cycle modulo CRING */
	uint64_t fin, pfin, pocc_fin, poccr_fin;
	int64_t occ_run, occr_run;	/* in flight during cycle fin */
	struct uq *q;
	size_t qh, qt, qcap;	/* ring: [qh, qt), qcap a power of 2 */

	/* ProfileMe */
	uint64_t rng[4];
	uint64_t pm_left;	/* fetches until the next selection */
	int pm_at_fetch;	/* pm on, selecting at fetch (pm_fetch) */
	int pm_armed;
	uint64_t pm_arm_at;
	struct psamp *ps;
	uint32_t nps;
	int32_t psfree, pswait;
	struct ppair *pp;
	uint32_t npp;
	int32_t ppfree;
	uint32_t *minor;	/* pos -> pair slot + 1 awaiting member b */
	uint64_t *minor_pos;
	uint32_t minor_mask;
	uint64_t sample_seq, pair_seq;
	unsigned outstanding;

	/* baseline samplers */
	uint64_t bs_left;	/* events (or cycles) to the next overflow */
	uint64_t bs_fire_at;	/* counter: delivery cycle */
	int bs_pending;		/* counter: overflowed, not delivered */
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

	/* local-IPC truth: lr[c & lrmask] = measured retires up to the end
	 * of cycle c, filled up to lr_upto; lq a FIFO of the retired
	 * instances (pc index, retire cycle) waiting for cycle R + delta */
	uint64_t *lr, lrmask, lr_upto, lr_cum;
	uint32_t *lq_pcx;
	uint64_t *lq_at, lqmask, lqh, lqt;
};

/* --- small helpers ----------------------------------------------------- */

/* Returns n zeroed bytes on a cache-line boundary, or NULL. */
static void *
zalloc64(size_t n)
{
	void *p;

	if (posix_memalign(&p, 64, n) != 0)
		return NULL;
	memset(p, 0, n);
	return p;
}

/* The cold part of entry e. */
static inline struct ecold *
ecold(const struct pmr_sim *s, const struct ent *e)
{
	return &s->ec[e - s->e];
}

/* The static instruction of entry e, NULL for a synthetic nop. */
static inline const struct pmr_sinsn *
ent_si(const struct pmr_sim *s, const struct ent *e)
{
	return s->ew[e - s->e].si;
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

static int
fail(struct pmr_sim *s, int code, const char *fmt, ...)
{
	va_list ap;

	if (s->err == 0) {
		va_start(ap, fmt);
		vsnprintf(s->errmsg, sizeof(s->errmsg), fmt, ap);
		va_end(ap);
		s->err = code;
	}
	return code;
}

static uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256**: the run's only random source, seeded by --seed. */
static uint64_t
rnd(struct pmr_sim *s)
{
	uint64_t *r = s->rng, res = rotl(r[1] * 5, 7) * 9, t = r[1] << 17;

	r[2] ^= r[0];
	r[3] ^= r[1];
	r[1] ^= r[2];
	r[0] ^= r[3];
	r[2] ^= t;
	r[3] = rotl(r[3], 45);
	return res;
}

static void
seed_rng(struct pmr_sim *s, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++) {	/* splitmix64 */
		uint64_t z = (seed += 0x9e3779b97f4a7c15ull);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		s->rng[i] = z ^ (z >> 31);
	}
}

/* Returns a uniform double in (0, 1). */
static double
rnd01(struct pmr_sim *s)
{
	return ((double)(rnd(s) >> 11) + 0.5) / 9007199254740992.0;
}

/* Draws a sampling interval (fetched instructions, >= 1). */
static uint64_t
draw_interval(struct pmr_sim *s)
{
	uint64_t S = s->o.pm_s, J = s->o.pm_jitter, v;

	if (S <= 1)
		return 1;
	if (s->o.pm_dist == 1) {
		if (J >= S)
			J = S - 1;
		v = S - J + rnd(s) % (2 * J + 1);
		return v == 0 ? 1 : v;
	}
	/* geometric on 1, 2, ...: each fetch selected with probability 1/S */
	v = (uint64_t)floor(log(rnd01(s)) / log1p(-1.0 / (double)S)) + 1;
	return v;
}

/* --- node pool --------------------------------------------------------- */

/*
 * Doubles the pool, whose free list is empty; returns 0 or -1.  Kept out
 * of line so that node_new(), called several times per instruction, stays
 * a few instructions long.
 */
static int __attribute__((noinline))
node_grow(struct pmr_sim *s)
{
	uint32_t cap = s->ncap * 2, i;
	struct node *nn = realloc(s->node, cap * sizeof(*nn));

	if (nn == NULL)
		return -1;
	s->node = nn;
	for (i = s->ncap; i < cap; i++)
		s->node[i].next = i + 1 < cap ? (int32_t)(i + 1) : -1;
	s->nfree = (int32_t)s->ncap;
	s->ncap = cap;
	return 0;
}

static inline int32_t
node_new(struct pmr_sim *s, uint32_t slot, uint64_t seq)
{
	int32_t n;

	if (s->nfree < 0 && node_grow(s) < 0)
		return -1;
	n = s->nfree;
	s->nfree = s->node[n].next;
	s->node[n].slot = slot;
	s->node[n].seq = seq;
	return n;
}

static void
node_free(struct pmr_sim *s, int32_t n)
{
	s->node[n].next = s->nfree;
	s->nfree = n;
}

/* --- per-pc table ------------------------------------------------------ */

static uint32_t
pc_hash(uint64_t pc)
{
	pc ^= pc >> 29;
	pc *= 0xbf58476d1ce4e5b9ull;
	return (uint32_t)(pc ^ (pc >> 32));
}

/* Returns the index of pc, or NONE32 if it has none yet. */
static uint32_t
pt_find(struct pmr_sim *s, uint64_t pc)
{
	uint32_t m = s->phcap - 1, i = pc_hash(pc) & m;
	uint32_t c = (uint32_t)(pc ^ (pc >> 12)) & (PCC - 1);

	if (s->pcc[c].x != 0 && s->pcc[c].pc == pc)
		return s->pcc[c].x - 1;
	for (;;) {
		uint32_t x = s->ph[i];

		if (x == 0)
			return NONE32;
		if (s->pt[x - 1].pc == pc) {
			s->pcc[c].pc = pc;
			s->pcc[c].x = x;
			return x - 1;
		}
		i = (i + 1) & m;
	}
}

/*
 * Grows the truth table to cap entries on line boundaries.  realloc(),
 * not a new block and a copy: a large block moves by remapping its pages,
 * where a copy would fault in the old and the new (cc1: 20 K faults, 8%
 * of a --truth run); the entries move only if their offset from the
 * block's start has to change.  Returns 0 or -1.
 */
static int
tr_grow(struct pmr_sim *s, uint32_t cap)
{
	size_t was = s->tr != NULL ? (size_t)((char *)s->tr - s->tr_raw) : 0;
	size_t off;
	char *p;

	if ((p = realloc(s->tr_raw, (size_t)cap * sizeof(*s->tr) + 64)) ==
	    NULL)
		return -1;
	off = (64 - (uintptr_t)p % 64) % 64;
	if (off != was && s->npt > 0)
		memmove(p + off, p + was, (size_t)s->npt * sizeof(*s->tr));
	s->tr_raw = p;
	s->tr = (void *)(p + off);
	return 0;
}

/* Returns the index of pc, adding it (with si) if new; NONE32 on ENOMEM. */
static uint32_t
pt_get(struct pmr_sim *s, uint64_t pc, const struct pmr_sinsn *si)
{
	uint32_t x = pt_find(s, pc), m, i;

	if (x != NONE32) {
		if (si != NULL)
			s->pt[x].si = si;
		return x;
	}
	if (s->npt == s->ptcap) {
		uint32_t cap = s->ptcap ? s->ptcap * 2 : 1024;
		struct pcent *p = realloc(s->pt, cap * sizeof(*p));
		uint64_t *la;

		if (p == NULL)
			return NONE32;
		s->pt = p;
		if ((la = realloc(s->last_addr, cap * sizeof(*la))) == NULL)
			return NONE32;
		s->last_addr = la;
		/* 320 bytes a pc: only for --truth (cc1 spent 3% of its
		 * time in page faults on it) */
		if (s->o.truth && tr_grow(s, cap) < 0)
			return NONE32;
		s->ptcap = cap;
	}
	if ((s->npt + 1) * 2 > s->phcap) {
		uint32_t cap = s->phcap * 2, j;
		uint32_t *h = calloc(cap, sizeof(*h));

		if (h == NULL)
			return NONE32;
		for (j = 0; j < s->npt; j++) {
			i = pc_hash(s->pt[j].pc) & (cap - 1);
			while (h[i] != 0)
				i = (i + 1) & (cap - 1);
			h[i] = j + 1;
		}
		free(s->ph);
		s->ph = h;
		s->phcap = cap;
	}
	x = s->npt++;
	memset(&s->pt[x], 0, sizeof(s->pt[x]));
	s->last_addr[x] = 0;
	s->pt[x].pc = pc;
	s->pt[x].si = si;
	s->pt[x].cls = si != NULL ? si->cls : PMR_OP_NOP;
	if (s->tr != NULL) {
		memset(&s->tr[x], 0, sizeof(s->tr[x]));
		s->tr[x].t.pc = pc;
		s->tr[x].t.cls = s->pt[x].cls;
	}
	s->pt[x].calllen = si != NULL ? si->len : 0;
	m = s->phcap - 1;
	i = pc_hash(pc) & m;
	while (s->ph[i] != 0)
		i = (i + 1) & m;
	s->ph[i] = x + 1;
	/* a wrong path that reached a new pc tends to come back to it */
	i = (uint32_t)(pc ^ (pc >> 12)) & (PCC - 1);
	s->pcc[i].pc = pc;
	s->pcc[i].x = x + 1;
	return x;
}

/* Returns the index of the pc of si (through the id cache). */
static uint32_t
si_index(struct pmr_sim *s, const struct pmr_sinsn *si)
{
	uint32_t x = pt_get(s, si->pc, si);

	if (x == NONE32 || si->id >= (1u << 26))
		return x;
	if (si->id >= s->nidx) {
		uint32_t n = s->nidx ? s->nidx : 1024;
		struct sdec *p;

		while (n <= si->id)
			n *= 2;
		if ((p = realloc(s->idx, n * sizeof(*p))) == NULL)
			return NONE32;
		memset(p + s->nidx, 0, (n - s->nidx) * sizeof(*p));
		s->idx = p;
		s->nidx = n;
	}
	s->idx[si->id].x = x + 1;
	return x;
}

/* --- records ----------------------------------------------------------- */

static void
emit(struct pmr_sim *s, uint32_t type, const void *rec)
{
	const struct pmr_rtype *t;
	unsigned char *p;
	uint32_t n;

	if (s->hook != NULL)
		s->hook(s->hookarg, type, rec);
	if (s->w == NULL || s->err != 0)
		return;
	/* The generic field codec (SIG.bits is the one variable field). */
	t = pmr_sim_rtype(type);
	n = (uint32_t)pmr_fields_size(t, rec);
	if ((p = pmr_write_reserve(s->w, type, n)) == NULL) {
		fail(s, PMR_EIO, "%s", pmr_writer_errmsg(s->w));
		return;
	}
	pmr_fields_encode(t, rec, p);
}

static void
emit_event(struct pmr_sim *s, unsigned kind, uint64_t pc, uint64_t v)
{
	unsigned char *p;

	if (s->hook != NULL) {
		struct pmr_event ev = { (uint8_t)kind, pc, v };

		s->hook(s->hookarg, PMR_REC_EVENT, &ev);
	}
	if (s->w == NULL || s->err != 0)
		return;
	if ((p = pmr_write_reserve(s->w, PMR_REC_EVENT, 17)) == NULL) {
		fail(s, PMR_EIO, "%s", pmr_writer_errmsg(s->w));
		return;
	}
	p[0] = (unsigned char)kind;
	pmr_put64(p + 1, pc);
	pmr_put64(p + 9, v);
}

static void win_close(struct pmr_sim *, uint64_t);

static void
emit_stats(struct pmr_sim *s, int final)
{
	if (final && s->measuring && s->now + 1 >= s->win_end)
		win_close(s, s->now + 1);	/* the last cycle ended one */
	s->st.final = (uint8_t)final;
	s->st.cycles = s->now - s->start + 1;
	s->st.ipc = s->st.cycles ? (double)s->st.retired / s->st.cycles : 0;
	emit(s, PMR_REC_STATS, &s->st);
}

/* --- memory ------------------------------------------------------------ */

/*
 * Finds key in the first-touch set, adding it (*fresh set) if it was not
 * there; returns its cycle field (when its walk is done), or NULL when
 * out of memory.  The set holds (key, cycle) pairs.
 */
static uint64_t *
touch_key(struct pmr_sim *s, uint64_t pg, int *fresh)
{
	uint64_t m, i;

	*fresh = 0;
	if ((s->npages + 1) * 2 > s->pagecap) {
		uint64_t cap = s->pagecap ? s->pagecap * 2 : 4096, j;
		uint64_t *h = calloc(cap, 2 * sizeof(*h));

		if (h == NULL)
			return NULL;
		for (j = 0; j < s->pagecap; j++)
			if (s->pages[2 * j] != 0) {
				i = pc_hash(s->pages[2 * j]) & (cap - 1);
				while (h[2 * i] != 0)
					i = (i + 1) & (cap - 1);
				h[2 * i] = s->pages[2 * j];
				h[2 * i + 1] = s->pages[2 * j + 1];
			}
		free(s->pages);
		s->pages = h;
		s->pagecap = cap;
	}
	m = s->pagecap - 1;
	for (i = pc_hash(pg) & m; s->pages[2 * i] != 0; i = (i + 1) & m)
		if (s->pages[2 * i] == pg)
			return &s->pages[2 * i + 1];
	s->pages[2 * i] = pg;
	s->pages[2 * i + 1] = 0;
	s->npages++;
	*fresh = 1;
	return &s->pages[2 * i + 1];
}

/*
 * first_touch() with fault_lat set: looks addr's page up, adding it.
 * A first touch costs fault_lat, ChampSim's minor fault of the data page
 * and of the new leaf table page (src/vmem.cc makes one per 4 KiB
 * page), plus the walk's read of that table page, a line no cache holds
 * (mem_lat).  A new 2 MiB, 1 GiB or 512 GiB region adds a table page of
 * its own: half fault_lat and another read from memory.  An access to
 * the page while its walk runs waits for it, as ChampSim merges
 * same-page translations in the TLB's queue (src/ptw.cc).
 */
static unsigned __attribute__((noinline))
page_touch(struct pmr_sim *s, uint64_t addr)
{
	unsigned lat, k;
	int fresh;
	uint64_t *done = touch_key(s, (addr >> s->pshift) + 1, &fresh), *d2;

	if (done == NULL)
		return 0;
	if (!fresh)
		return *done > s->now ? (unsigned)(*done - s->now) : 0;
	lat = s->c.fault_lat + s->c.mem_lat;
	for (k = 1; k <= 3; k++) {	/* 2 MiB, 1 GiB, 512 GiB regions */
		int f;

		d2 = touch_key(s, ((uint64_t)k << 61) |
		    (addr >> (12 + 9 * k)), &f);
		if (d2 != NULL && f)
			lat += s->c.fault_lat / 2 + s->c.mem_lat;
	}
	/* the region keys may have moved the set */
	if ((done = touch_key(s, (addr >> s->pshift) + 1, &fresh)) != NULL)
		*done = s->now + lat;
	return lat;
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
	return page_touch(s, addr);
}

/*
 * Latency of a line read from memory, requested now.  With dram_banks,
 * an open-page row model: the bank of the line (its low line-number
 * bits, XOR-folded with the row number, as ChampSim maps addresses)
 * keeps its last row open, and a closed row or a row conflict adds
 * dram_closed or dram_conflict to mem_lat.  With mem_bus, one bus
 * carries the lines one after the other, in request order: a line
 * arrives no earlier than mem_bus cycles after the previous one.  Bank
 * busy times, refresh and write traffic are not modelled.
 */
static unsigned
dram(struct pmr_sim *s, uint64_t addr)
{
	uint64_t lat = s->c.mem_lat, done;

	if (s->c.dram_banks != 0) {
		uint64_t row = addr >> s->rshift;
		uint32_t b = (uint32_t)(((addr >> s->lshift) ^ row) &
		    (s->c.dram_banks - 1));

		if (s->dram_open[b] != row + 1)
			lat += s->dram_open[b] == 0 ? s->c.dram_closed :
			    s->c.dram_conflict;
		s->dram_open[b] = row + 1;
	}
	if (s->c.mem_bus == 0)
		return (unsigned)lat;
	done = s->now + lat;
	if (done < s->bus_free + s->c.mem_bus)
		done = s->bus_free + s->c.mem_bus;
	s->bus_free = done;
	return (unsigned)(done - s->now);
}

/* Latency of a line that missed the L1 (L2, L3, memory); sets LLC_MISS. */
static unsigned
lower_levels(struct pmr_sim *s, uint64_t addr, uint32_t *ev)
{
	if (pmr_sim_cache_access(&s->l2, addr, 1))
		return s->c.l2_lat;
	if (s->c.l3_size != 0 && pmr_sim_cache_access(&s->l3, addr, 1))
		return s->c.l3_lat;
	*ev |= PMR_SIM_EV_LLC_MISS;
	return dram(s, addr);
}

/*
 * Times a data load of addr issued now.  Returns its load-to-use latency,
 * or -1 when it misses and no MSHR is free (the load must wait).
 */
static int
load_access(struct pmr_sim *s, uint64_t addr, uint32_t *ev, int must)
{
	uint64_t line = addr >> s->lshift;
	unsigned i, tl = 0, lat;
	int freem = -1, hit;

	s->last_tl = 0;
	if (s->o.ideal & PMR_SIM_IDEAL_DMISS)
		return (int)s->c.l1d_lat;
	if (s->now >= s->mshr_until)	/* none outstanding */
		freem = 0;
	else for (i = 0; i < s->c.mshr; i++) {
		if (s->mshr_fill[i] > s->now && s->mshr_line[i] == line) {
			/* a miss to this line is outstanding: merge */
			*ev |= PMR_SIM_EV_DCACHE_MISS;
			if (s->access_pos > s->mshr_pos[i])
				s->merged_dist = (uint32_t)(s->access_pos -
				    s->mshr_pos[i]);
			lat = (unsigned)(s->mshr_fill[i] - s->now);
			return (int)(lat > s->c.l1d_lat ? lat : s->c.l1d_lat);
		}
		if (freem < 0 && s->mshr_fill[i] <= s->now)
			freem = (int)i;
	}
	/* a miss that finds no MSHR waits, leaving no trace */
	hit = pmr_sim_cache_access(&s->l1d, addr, 0);
	if (!hit && freem < 0 && !must)
		return -1;
	if (!pmr_sim_cache_access(&s->dtlb, addr, 1)) {
		*ev |= PMR_SIM_EV_DTLB_MISS;
		tl = s->c.tlb_lat;
	}
	tl += first_touch(s, addr);
	s->last_tl = tl;
	if (hit)
		return (int)(s->c.l1d_lat + tl);
	pmr_sim_cache_access(&s->l1d, addr, 1);
	*ev |= PMR_SIM_EV_DCACHE_MISS;
	lat = lower_levels(s, addr, ev) + tl;
	if (freem >= 0) {
		s->mshr_line[freem] = line;
		s->mshr_fill[freem] = s->now + lat;
		if (s->now + lat > s->mshr_until)
			s->mshr_until = s->now + lat;
		s->mshr_pos[freem] = s->access_pos;
	}
	return (int)lat;
}

/* Fetches the line of pc through the ITLB and L1-I; returns stall cycles. */
static unsigned
ifetch(struct pmr_sim *s, uint64_t pc, uint32_t *ev)
{
	unsigned lat = 0;

	s->last_itl = 0;
	if (s->o.ideal & PMR_SIM_IDEAL_IMISS)
		return 0;
	if (!pmr_sim_cache_access(&s->itlb, pc, 1)) {
		*ev |= PMR_SIM_EV_ITLB_MISS;
		lat += s->c.tlb_lat;
		if (s->measuring)
			s->st.itlb_miss++;
	}
	lat += first_touch(s, pc);
	s->last_itl = lat;
	if (!pmr_sim_cache_access(&s->l1i, pc, 1)) {
		*ev |= PMR_SIM_EV_ICACHE_MISS;
		lat += lower_levels(s, pc, ev);
		*ev &= ~PMR_SIM_EV_LLC_MISS;
		if (s->measuring)
			s->st.icache_miss++;
	}
	return lat;
}

/* --- ProfileMe --------------------------------------------------------- */

static uint32_t
ps_new(struct pmr_sim *s)
{
	int32_t i;

	if (s->psfree < 0) {
		uint32_t cap = s->nps ? s->nps * 2 : 64, j;
		struct psamp *p = realloc(s->ps, cap * sizeof(*p));

		if (p == NULL)
			return 0;
		s->ps = p;
		for (j = s->nps; j < cap; j++) {
			memset(&p[j], 0, sizeof(p[j]));
			p[j].next = j + 1 < cap ? (int32_t)(j + 1) : -1;
		}
		s->psfree = (int32_t)s->nps;
		s->nps = cap;
	}
	i = s->psfree;
	s->psfree = s->ps[i].next;
	memset(&s->ps[i], 0, sizeof(s->ps[i]));
	s->ps[i].state = 1;
	s->ps[i].next = -1;
	return (uint32_t)i + 1;
}

static void
ps_free(struct pmr_sim *s, uint32_t id)
{
	s->ps[id - 1].state = 0;
	s->ps[id - 1].next = s->psfree;
	s->psfree = (int32_t)(id - 1);
}

static uint32_t
pp_new(struct pmr_sim *s)
{
	int32_t i;

	if (s->ppfree < 0) {
		uint32_t cap = s->npp ? s->npp * 2 : 32, j;
		struct ppair *p = realloc(s->pp, cap * sizeof(*p));

		if (p == NULL)
			return 0;
		s->pp = p;
		for (j = s->npp; j < cap; j++)
			p[j].next = j + 1 < cap ? (int32_t)(j + 1) : -1;
		s->ppfree = (int32_t)s->npp;
		s->npp = cap;
	}
	i = s->ppfree;
	s->ppfree = s->pp[i].next;
	memset(&s->pp[i], 0, sizeof(s->pp[i]));
	return (uint32_t)i + 1;
}

static void
pp_free(struct pmr_sim *s, uint32_t id)
{
	s->pp[id - 1].next = s->ppfree;
	s->ppfree = (int32_t)(id - 1);
}

/* Re-arms the fetched-instruction counter (faithful re-arm). */
static void
pm_rearm(struct pmr_sim *s)
{
	s->pm_armed = 1;
	s->pm_arm_at = s->now + s->o.pm_irq;
	s->pm_left = draw_interval(s);
}

/* A sample (or pair member) is complete: emit what is whole. */
static void
ps_complete(struct pmr_sim *s, uint32_t id)
{
	struct psamp *p = &s->ps[id - 1];

	if (p->pair == 0) {
		int pm = p->sampler == PMR_SIM_SAMPLER_PROFILEME ||
		    p->sampler == PMR_SIM_SAMPLER_IBS;

		p->s.seq = s->sample_seq++;
		s->st.samples++;
		emit(s, PMR_REC_SAMPLE, &p->s);
		ps_free(s, id);
		if (pm && s->o.pm_rearm == 0) {
			s->outstanding--;
			pm_rearm(s);
		}
		return;
	}
	p->state = 3;
	{
		struct ppair *q = &s->pp[p->pair - 1];
		uint32_t pid = p->pair;

		if (++q->done < 2)
			return;
		{
			struct pmr_sim_pair r;
			struct psamp *a = &s->ps[q->a - 1];
			struct psamp *b = &s->ps[q->b - 1];

			memset(&r, 0, sizeof(r));
			r.seq = s->pair_seq++;
			r.a = a->s;
			r.b = b->s;
			r.a.seq = r.b.seq = r.seq;
			r.dist = q->d;
			r.fetch_lat = (uint32_t)(b->s.fetch_cycle -
			    a->s.fetch_cycle);
			s->st.pairs++;
			emit(s, PMR_REC_PAIR, &r);
		}
		ps_free(s, q->a);
		ps_free(s, q->b);
		pp_free(s, pid);
		if (s->o.pm_rearm == 0) {
			s->outstanding--;
			pm_rearm(s);
		}
	}
}

static uint32_t
lat32(uint64_t a, uint64_t b)
{
	return b - a >= PMR_SIM_NOLAT ? PMR_SIM_NOLAT - 1 : (uint32_t)(b - a);
}

/* Fills the sample of tagged entry e, which retired or aborted now. */
static void
ps_fill(struct pmr_sim *s, struct ent *e)
{
	struct psamp *p = &s->ps[e->tag - 1];
	struct pmr_sim_sample *r = &p->s;
	int ret = e->trap == PMR_SIM_TRAP_NONE;

	r->sampler = p->sampler;
	r->cls = e->cls;
	r->trap = e->trap;
	r->hist_len = (uint8_t)(s->c.bp_ghist > 64 ? 64 : s->c.bp_ghist);
	r->events = e->events | (ret ? PMR_SIM_EV_RETIRED : 0);
	r->context = (e->flags & E_TID) ? ecold(s, e)->tid : 0;
	r->pos = e->seq;
	r->pc = e->pc;
	r->addr = e->addr;
	r->history = s->ew[e - s->e].hist & (r->hist_len >= 64 ? ~0ull :
	    (1ull << r->hist_len) - 1);
	r->fetch_cycle = e->F;
	r->lat_fm = r->lat_md = r->lat_dx = r->lat_xr = PMR_SIM_NOLAT;
	r->lat_rr = r->lat_ld = PMR_SIM_NOLAT;
	if (e->flags & E_MAPPED)
		r->lat_fm = lat32(e->F, e->M);
	if (e->flags & E_SCHED)
		r->lat_md = lat32(e->M, e->D);
	if (e->flags & E_ISSUED) {
		r->lat_dx = lat32(e->D, e->X);
		r->lat_xr = lat32(e->X, e->RR);
		if (e->nload > 0)
			r->lat_ld = lat32(e->X, e->LC);
	}
	r->cpos = ~0ull;
	if (ret) {
		r->lat_rr = lat32(e->RR, s->now);
		r->cpos = s->retired_all;
	}
	r->lat_total = lat32(e->F, s->now);
	p->done_at = s->now;
	if ((e->flags & E_ISSUED) && e->nload > 0 && e->LC > s->now)
		p->done_at = e->LC;	/* the load's data is still out */
	if (p->done_at <= s->now)
		ps_complete(s, e->tag);
	else {
		p->state = 2;
		p->next = s->pswait;
		s->pswait = (int32_t)(e->tag - 1);
	}
	e->tag = 0;
}

/* Completes waiting samples whose loads have returned. */
static void
ps_poll(struct pmr_sim *s)
{
	int32_t *pp = &s->pswait;

	while (*pp >= 0) {
		int32_t i = *pp;

		if (s->ps[i].done_at <= s->now) {
			*pp = s->ps[i].next;
			ps_complete(s, (uint32_t)i + 1);
		} else
			pp = &s->ps[i].next;
	}
}

/* Tags e if it is the second member of a pair that waits for it. */
static void __attribute__((noinline))
pm_member(struct pmr_sim *s, struct ent *e)
{
	uint32_t k = (uint32_t)(e->seq & s->minor_mask), id, pid;

	if (s->minor[k] != 0 && s->minor_pos[k] == e->seq) {
		pid = s->minor[k];
		s->minor[k] = 0;
		if ((id = ps_new(s)) != 0) {
			s->ps[id - 1].pair = pid;
			s->ps[id - 1].member = 1;
			s->pp[pid - 1].b = id;
			e->tag = id;
		}
	}
}

/* Starts a sample (or pair) on e, which the counter selected. */
static void __attribute__((noinline))
pm_select(struct pmr_sim *s, struct ent *e)
{
	uint32_t id, pid;

	if (e->tag != 0) {	/* already the second member of a pair */
		s->st.dropped++;
		s->pm_left = draw_interval(s);
		return;
	}
	if ((id = ps_new(s)) == 0)
		return;
	e->tag = id;
	s->ps[id - 1].sampler = s->o.pm_select == 2 ? PMR_SIM_SAMPLER_IBS :
	    PMR_SIM_SAMPLER_PROFILEME;
	if (s->o.pm == PMR_SIM_PM_PAIRED) {
		uint32_t d = 1 + (uint32_t)(rnd(s) % s->o.pm_w);
		uint32_t k = (uint32_t)((e->seq + d) & s->minor_mask);

		if ((pid = pp_new(s)) == 0)
			return;
		s->pp[pid - 1].a = id;
		s->pp[pid - 1].d = d;
		s->pp[pid - 1].posa = e->seq;
		s->ps[id - 1].pair = pid;
		if (s->minor[k] != 0) {
			/* another pair waits for that fetch: keep it */
			s->st.dropped++;
			s->ps[id - 1].pair = 0;
			pp_free(s, pid);
			ps_free(s, id);
			e->tag = 0;
			s->pm_left = draw_interval(s);
			return;
		}
		s->minor[k] = pid;
		s->minor_pos[k] = e->seq + d;
	}
	if (s->o.pm_rearm == 0) {
		s->pm_armed = 0;
		s->outstanding++;
	} else
		s->pm_left = draw_interval(s);
}

/*
 * Decides at fetch whether the instruction at pos is selected.  Inline:
 * the counter runs on every fetch, and selects one in S.
 */
static inline void
pm_fetch(struct pmr_sim *s, struct ent *e)
{
	if (s->o.pm == PMR_SIM_PM_PAIRED && s->minor != NULL)
		pm_member(s, e);
	if (!s->pm_armed || s->now < s->pm_arm_at)
		return;
	if (--s->pm_left > 0)
		return;
	pm_select(s, e);
}

/* --- truth ------------------------------------------------------------- */

/* Doubles the queue of uq_push(); returns 0 or PMR_ENOMEM. */
static int __attribute__((noinline))
uq_grow(struct pmr_sim *s)
{
	size_t cap = s->qcap ? s->qcap * 2 : 4096, i;
	struct uq *n = malloc(cap * sizeof(*n));

	if (n == NULL)
		return fail(s, PMR_ENOMEM, "out of memory");
	for (i = 0; i < s->qt - s->qh; i++)
		n[i] = s->q[(s->qh + i) & (s->qcap - 1)];
	free(s->q);
	s->q = n;
	s->qt -= s->qh;
	s->qh = 0;
	s->qcap = cap;
	return 0;
}

/* Queues an instance for useful_advance(); inline: one a retire. */
static inline void
uq_push(struct pmr_sim *s, uint32_t pcx, uint64_t F, uint64_t end, int self)
{
	struct uq *u;
	size_t qt = s->qt;

	if (qt - s->qh == s->qcap) {
		if (uq_grow(s) != 0)
			return;
		qt = s->qt;
	}
	u = &s->q[qt & (s->qcap - 1)];
	s->qt = qt + 1;
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

/* Counts [F, end) in the in-flight occupancy (retiring ones apart). */
static void
occ_add(struct pmr_sim *s, uint64_t F, uint64_t end, int retired)
{
	struct cring *f, *e;

	if (!s->o.truth || end <= F || F < s->fin)
		return;
	f = &s->cr[F & (CRING - 1)];
	e = &s->cr[end & (CRING - 1)];
	f->occ++;
	e->occ--;
	if (retired) {
		f->occr++;
		e->occr--;
	}
}

/*
 * Moves the finalized-cycle frontier up to the fetch of the oldest
 * instruction in flight (everything issued or in flight before it has
 * retired or aborted, so its counts are final; force: up to now), then
 * settles the queued instances: the retiring issues in their [F, end)
 * (useful), and the others in flight, all and retiring ones.
 *
 * The state is copied to locals: the stores to the rings and the truth
 * table are uint64_t, which the compiler must otherwise assume can
 * change s->fin and the rest at every step.
 */
static void
useful_advance(struct pmr_sim *s, int force)
{
	struct cring *cr = s->cr, cur;
	uint64_t lim = s->now, fin = s->fin, qh, qt = s->qt;
	uint64_t qmask = s->qcap - 1;

	if (!force && s->head != s->tail && s->e[s->head & s->wmask].F < lim)
		lim = s->e[s->head & s->wmask].F;
	if (s->now - fin >= CRING - 1 && lim <= fin)
		lim = fin + 1;	/* never wrap: approximate instead */
	cur.pref = s->pfin;
	cur.pocc = s->pocc_fin;
	cur.poccr = s->poccr_fin;
	if (fin < lim) {
		int64_t run = s->occ_run, runr = s->occr_run;

		do {
			struct cring *r = &cr[fin & (CRING - 1)];

			r->pref = cur.pref;
			r->pocc = cur.pocc;
			r->poccr = cur.poccr;
			cur.pref += r->iss;
			run += r->occ;
			runr += r->occr;
			cur.pocc += (uint64_t)run;
			cur.poccr += (uint64_t)runr;
			r->iss = 0;
			r->occ = r->occr = 0;
		} while (++fin < lim);
		s->fin = fin;
		s->pfin = cur.pref;
		s->pocc_fin = cur.pocc;
		s->poccr_fin = cur.poccr;
		s->occ_run = run;
		s->occr_run = runr;
	}
	for (qh = s->qh; qh != qt; qh++) {
		const struct uq *u = &s->q[qh & qmask];
		const struct cring *a, *b;
		struct pmr_sim_truth *t;
		uint64_t d, len = u->end - u->F;

		if (u->push >= fin && !force)
			break;
		t = &s->tr[u->pcx].t;
		a = ring_at(cr, &cur, fin, u->F);
		b = ring_at(cr, &cur, fin, u->end);
		d = b->pref - a->pref;
		t->useful += d - (d >= u->self ? u->self : 0);
		d = b->pocc - a->pocc;
		t->inflight += d >= len ? d - len : 0;
		d = b->poccr - a->poccr;
		len = u->self ? len : 0;
		t->inflight_ret += d >= len ? d - len : 0;
	}
	s->qh = qh;
}

/* --- squash ------------------------------------------------------------ */

/* Returns the absolute index of window slot (which holds an entry). */
static uint64_t
slot_abs(const struct pmr_sim *s, uint32_t slot)
{
	return s->head + ((slot - (uint32_t)(s->head & s->wmask)) & s->wmask);
}

/* Forgets issued load e in the memory-order filter (mem_order). */
static void
ldcnt_drop(struct pmr_sim *s, struct ent *e)
{
	/* without a branch: any instruction comes here, few counted */
	unsigned c = (e->flags & E_LDCNT) != 0;
	uint32_t k = c ? (uint32_t)((e->laddr0 >> 3) & (STAB - 1)) : 0;

	s->stab[k].ldcnt = (uint16_t)(s->stab[k].ldcnt - c);
	e->flags &= ~E_LDCNT;
}

static void
unready(struct pmr_sim *s, uint32_t slot)
{
	s->ready[slot >> 6] &= ~(1ull << (slot & 63));
}

/* Releases the resources of mapped entry e (squash path). */
static void
unmap(struct pmr_sim *s, struct ent *e, uint32_t slot)
{
	int i;
	int32_t n;

	for (i = e->ndst - 1; i >= 0; i--) {
		const struct undo *u = i == 0 ? &e->u0 : &s->eu[slot].u[i - 1];

		s->rat[u->dreg] = u->prev;
		s->ratseq[u->dreg] = e->seq - u->prevd;
	}
	if (e->flags & E_FP)
		s->regs_fp += e->ndst;
	else
		s->regs_int += e->ndst;
	if (!(e->flags & E_ISSUED)) {
		if (e->flags & E_FP)
			s->iq_fp++;
		else
			s->iq_int++;
	}
	if (e->nload)
		s->lq++;
	if (e->nstore)
		s->sq++;
	if (e->flags & E_READYBIT)
		unready(s, slot);
	for (n = e->waiters; n >= 0;) {
		int32_t nx = s->node[n].next;

		node_free(s, n);
		n = nx;
	}
	e->waiters = -1;
}

/*
 * Shows the hook a finished instruction, with every stamp and latency
 * component (the content of a GNODE record, icost 6.1).
 */
static void
hook_insn(struct pmr_sim *s, const struct ent *e, int retired)
{
	struct pmr_sim_insn r;
	const struct egn *g = &s->eg[e - s->e];
	int issued = (e->flags & E_ISSUED) != 0;

	memset(&r, 0, sizeof(r));
	r.pos = e->seq;
	r.pc = e->pc;
	r.F = e->F;
	r.M = (e->flags & E_MAPPED) ? e->M : ~0ull;
	r.D = (e->flags & E_SCHED) ? e->D : ~0ull;
	r.X = issued ? e->X : ~0ull;
	r.RR = issued ? e->RR : ~0ull;
	r.LC = issued ? e->LC : ~0ull;
	r.end = s->now;
	r.events = e->events | (retired ? PMR_SIM_EV_RETIRED : 0);
	r.cls = e->cls;
	r.trap = retired ? 0 : e->trap;
	r.retired = (uint8_t)retired;
	r.dd_fetch = g->dd_fetch;
	r.ep_fu = e->lat;
	r.ep_mem = g->ep_mem;
	r.ep_miss = g->ep_miss;
	r.ep_tlb = g->ep_tlb;
	memcpy(r.preg, g->preg, sizeof(r.preg));
	r.pmem = g->pmem;
	r.ppp = g->ppp;
	r.cpos = retired ? s->retired_all : 0;
	s->hook(s->hookarg, PMR_SIM_HOOK_INSN, &r);
}

/*
 * Returns the commit-order distance of the producer d fetch positions
 * before e, which retires as number seq, or 0 if that producer did not
 * retire or is too far back.
 */
static uint32_t
gnode_dist(const struct pmr_sim *s, const struct ent *e, uint64_t seq,
    uint32_t d)
{
	uint64_t p;

	if (d == 0 || d > e->seq || d > s->gmask)
		return 0;
	p = e->seq - d;
	if (s->gpos[p & s->gmask] != p + 1)
		return 0;
	return (uint32_t)(seq - s->gseq[p & s->gmask]);
}

/* Fills *g with the GNODE content of e, retired as number seq. */
static void
gnode_fill(const struct pmr_sim *s, const struct ent *e, uint64_t seq,
    struct pmr_sim_gnode *g)
{
	const struct egn *x = &s->eg[e - s->e];

	memset(g, 0, sizeof(*g));
	g->seq = seq;
	g->pc = e->pc;
	g->cls = e->cls;
	g->partial = x->ppp != 0;
	g->events = e->events | PMR_SIM_EV_RETIRED;
	g->dd_fetch = x->dd_fetch;
	g->re = (uint32_t)(e->X - e->D);
	g->ep_fu = e->lat;
	g->ep_mem = x->ep_mem;
	g->ep_miss = x->ep_miss;
	g->ep_tlb = x->ep_tlb;
	g->pr_reg_a = gnode_dist(s, e, seq, x->preg[0]);
	g->pr_reg_b = gnode_dist(s, e, seq, x->preg[1]);
	g->pr_reg_c = gnode_dist(s, e, seq, x->preg[2]);
	g->pr_mem = gnode_dist(s, e, seq, x->pmem);
	g->pp = gnode_dist(s, e, seq, x->ppp);
	if (g->pp != 0)		/* the wait for the line is the PP edge */
		g->ep_miss = 0;
	g->dd_itlb = x->dd_itlb;
	g->dd_brk = x->dd_brk;
	g->at_d = e->M;
	g->at_r = e->D;
	g->at_e = e->X;
	g->at_p = e->res;
	g->at_c = s->now;
}

/*
 * Records the commit indices of the n instructions retired this cycle
 * and writes the GNODE records of the measured ones (--graph), and
 * shows them to the shotgun sampler (--shotgun).  Called once a cycle,
 * after the retire loop, so that the loop pays nothing.
 */
static void __attribute__((noinline))
gnode_retire(struct pmr_sim *s, unsigned n)
{
	struct pmr_sim_gnode g;
	uint64_t i, seq;

	for (i = s->head - n; i < s->head; i++) {
		const struct ent *e = &s->e[i & s->wmask];

		seq = s->retired_all - (s->head - i);
		if (seq >= s->o.warmup && s->o.graph) {
			gnode_fill(s, e, seq, &g);
			emit(s, PMR_REC_GNODE, &g);
		}
		if (seq >= s->o.warmup && s->sg != NULL &&
		    pmr_sim_shotgun_retire(s->sg, seq, e->pc, e->cls,
		    e->events | PMR_SIM_EV_RETIRED)) {
			if (!s->o.graph)
				gnode_fill(s, e, seq, &g);
			pmr_sim_shotgun_take(s->sg, &g, ent_next_pc(s, e));
		}
		s->gpos[e->seq & s->gmask] = e->seq + 1;
		s->gseq[e->seq & s->gmask] = seq;
	}
}

/* The shotgun sampler's way to emit(). */
static void
shotgun_emit(void *s, uint32_t type, const void *rec)
{
	emit(s, type, rec);
}

/* Common bookkeeping of an aborted entry. */
static void
abort_ent(struct pmr_sim *s, struct ent *e, uint8_t trap)
{
	e->trap = trap;
	/* the issue counts are for the useful-concurrency truth alone */
	if (s->o.truth && (e->flags & E_ISSUED) && e->X >= s->fin)
		s->cr[e->X & (CRING - 1)].iss--;
	occ_add(s, e->F, s->now, 0);
	ldcnt_drop(s, e);
	if (s->measuring && trap != PMR_SIM_TRAP_END) {
		if (s->hook != NULL)
			hook_insn(s, e, 0);
		s->st.aborted++;
		if (s->o.truth) {
			struct pmr_sim_truth *t = &s->tr[e->pcx].t;

			t->aborted++;
			if (trap == PMR_SIM_TRAP_BR_MISP ||
			    trap == PMR_SIM_TRAP_JMP_MISP)
				t->ab_misp++;
			else
				t->ab_other++;
			t->inprog += s->now - e->F;
			uq_push(s, e->pcx, e->F, s->now, 0);
		}
	}
	if (e->tag != 0) {
		if (trap == PMR_SIM_TRAP_END) {
			s->st.dropped++;
			e->tag = 0;
		} else
			ps_fill(s, e);
	}
	e->flags &= ~E_LIVE;
}

/* Aborts every entry younger than the mispredicted one and redirects. */
static void __attribute__((noinline))
resolve(struct pmr_sim *s)
{
	uint32_t bslot = s->res_slot;
	struct ent *b = &s->e[bslot];
	uint64_t keep = s->head, i;
	uint8_t trap;

	s->res_pending = 0;
	/* absolute index of the branch */
	keep = slot_abs(s, bslot);
	trap = (b->events & PMR_SIM_EV_BR_MISP) ? PMR_SIM_TRAP_BR_MISP :
	    PMR_SIM_TRAP_JMP_MISP;
	for (i = s->tail; i-- > keep + 1;) {
		uint32_t slot = (uint32_t)(i & s->wmask);
		struct ent *e = &s->e[slot];

		if (e->flags & E_MAPPED)
			unmap(s, e, slot);
		abort_ent(s, e, trap);
	}
	s->tail = keep + 1;
	if (s->map > s->tail)
		s->map = s->tail;
	s->wrongpath = 0;
	s->wp_stuck = 0;
	s->ghist = s->ghist_fix;
	s->ras_top = s->ras_fix_top;
	s->ras[s->ras_top] = s->ras_fix_val;
	s->ras_pcx[s->ras_top] = s->ras_fix_pcx;
	s->fetch_at = s->now + s->c.redirect;
	s->fetch_why = PMR_SIM_ST_REDIRECT;
	s->cur_line = 0;
	/* stalls and events of the wrong path are not the next one's */
	s->pend_dd = s->pend_itlb = s->pend_brk = s->pend_ev = 0;
	b->flags &= ~E_MISP;
}

/* Puts d at the front of the replay deque (fetched before the rest). */
static void
rpl_front(struct pmr_sim *s, const struct pmr_dinsn *d)
{
	uint32_t cap = s->wsize + 2;

	if (s->rpl_n == cap)
		return;		/* cannot happen: see pmr_sim_new */
	s->rpl_head = (s->rpl_head + cap - 1) % cap;
	s->rpl[s->rpl_head] = *d;
	s->rpl_n++;
}

/* Rebuilds the dynamic instruction of correct-path entry e. */
static void
ent_dinsn(const struct pmr_sim *s, const struct ent *e, struct pmr_dinsn *d)
{
	const struct ecold *c = ecold(s, e);
	unsigned i, nl = e->nload < MAXL ? e->nload : MAXL;

	memset(d, 0, sizeof(*d));
	d->si = ent_si(s, e);
	d->seq = e->seq;
	d->pc = e->pc;
	d->next_pc = ent_next_pc(s, e);
	d->tid = (e->flags & E_TID) ? c->tid : 0;
	d->value = (e->flags & E_NZVAL) ? c->value : 0;
	d->flags = (uint8_t)(((e->flags & E_TAKEN) ? PMR_DI_TAKEN : 0) |
	    ((e->flags & E_VALUE) ? PMR_DI_VALUE : 0));
	for (i = 0; i < nl; i++)
		d->addr[i] = ent_laddr(s, e, i);
	d->nload = (uint8_t)nl;
	d->nmem = (uint8_t)nl;
	if (e->nstore > 0)
		d->addr[d->nmem++] = e->addr;
	else if (nl == 0 && e->addr != 0 && !(e->flags & E_BRANCH))
		d->addr[d->nmem++] = e->addr;
}

/*
 * A memory-order replay trap: aborts the load that read too early and
 * everything younger, and fetches them again (the correct-path ones, from
 * the replay deque) after the redirect.  The load's pc learns to wait for
 * older stores from now on.
 */
static void __attribute__((noinline))
mo_trap(struct pmr_sim *s)
{
	struct ent *l = &s->e[s->mo_slot];
	uint64_t L = s->head, i;

	s->mo_pending = 0;
	if (!(l->flags & E_LIVE) || l->seq != s->mo_seq)
		return;		/* squashed meanwhile */
	L = slot_abs(s, s->mo_slot);
	l->events |= PMR_SIM_EV_MEM_TRAP;
	s->pt[l->pcx].wait = (uint32_t)(s->now / WAIT_CLEAR) + 1;
	if (s->measuring)
		s->st.mem_traps++;
	if (s->have_nxt) {
		rpl_front(s, &s->nxt);
		s->have_nxt = 0;
	}
	s->ghist = s->ew[s->mo_slot].hist;
	/* the return stack as the load found it, as resolve() repairs it */
	s->ras_top = ecold(s, l)->ras_top;
	s->ras[s->ras_top] = ecold(s, l)->ras_val;
	s->ras_pcx[s->ras_top] = ecold(s, l)->ras_pcx;

	for (i = s->tail; i-- > L;) {
		uint32_t slot = (uint32_t)(i & s->wmask);
		struct ent *e = &s->e[slot];

		if (!(e->flags & E_WP)) {
			struct pmr_dinsn d;

			ent_dinsn(s, e, &d);
			rpl_front(s, &d);
		}
		if (e->flags & E_MAPPED) {
			unmap(s, e, slot);
			/* the store table may name squashed stores, hiding
			 * older ones: only a mapped correct-path store
			 * wrote it, at its address's word */
			if (e->nstore > 0 && !(e->flags & E_WP)) {
				uint32_t k = (uint32_t)((e->addr >> 3) &
				    (STAB - 1));

				if (s->stab[k].slot != 0 &&
				    s->stab[k].seq >= s->mo_seq)
					s->stab[k].slot = 0;
			}
		}
		abort_ent(s, e, PMR_SIM_TRAP_MEM_ORDER);
	}
	/* a mispredicted branch after the load goes too; it is refetched */
	if (s->res_pending && s->res_seq >= s->mo_seq)
		s->res_pending = 0;
	s->tail = L;
	if (s->map > s->tail)
		s->map = s->tail;
	for (i = s->head; i < s->map; i++) {
		struct ent *e = &s->e[i & s->wmask];
		uint32_t k = (uint32_t)((e->addr >> 3) & (STAB - 1));

		if (e->nstore == 0 || (e->flags & E_WP))
			continue;
		s->stab[k].slot = (uint32_t)(i & s->wmask) + 1;
		s->stab[k].seq = e->seq;
		s->stab[k].addr = e->addr >> 3;
	}
	s->wrongpath = 0;
	s->wp_stuck = 0;
	s->fetch_at = s->now + s->c.redirect;
	s->fetch_why = PMR_SIM_ST_REDIRECT;
	s->cur_line = 0;
	s->pend_dd = s->pend_itlb = s->pend_brk = s->pend_ev = 0;
}

/* --- retire ------------------------------------------------------------ */

static uint64_t bs_interval(struct pmr_sim *);

/* Sets retire_watch, the lower of next_interval and --max in use. */
static void
watch_set(struct pmr_sim *s)
{
	s->retire_watch = ~0ull;
	if (s->o.interval && s->next_interval < s->retire_watch)
		s->retire_watch = s->next_interval;
	if (s->o.max && s->o.max < s->retire_watch)
		s->retire_watch = s->o.max;
}

static void
measure_start(struct pmr_sim *s)
{
	uint32_t i;

	s->measuring = 1;
	memset(&s->st, 0, sizeof(s->st));
	s->st.warmup = s->retired_all;
	s->start = s->now;
	for (i = 0; i < s->npt; i++) {
		s->pt[i].tp = 0;
		if (s->tr != NULL) {
			struct pmr_sim_truth *t = &s->tr[i].t;

			memset(t, 0, sizeof(*t));
			t->pc = s->pt[i].pc;
			t->cls = s->pt[i].cls;
		}
	}
	s->qh = s->qt = 0;
	s->st.win_len = s->o.win_len;
	s->win_end = s->now + s->o.win_len;
	s->win_cur = 0;
	s->lr_upto = s->now - 1;
	s->lr_cum = 0;
	s->lqh = s->lqt = 0;
	if (s->o.pm != PMR_SIM_PM_OFF)
		pm_rearm(s);
	if (s->o.sampler != 0) {
		if (s->o.bs_s == 0)
			s->o.bs_s = 1;
		s->bs_left = bs_interval(s);
		/* counted in cycles: tip always, the counter and pebs with
		 * event=cycles (pebs on cycles is the TIP paper's time-based,
		 * next-committing PEBS); one flag for the run loop */
		s->bs_cycles = s->o.sampler == PMR_SIM_SAMPLER_TIP ||
		    ((s->o.sampler == PMR_SIM_SAMPLER_COUNTER ||
		    s->o.sampler == PMR_SIM_SAMPLER_PEBS) &&
		    s->o.bs_event == PMR_SIM_BSEV_CYCLES);
	}
	if (s->o.interval)
		s->next_interval = s->o.interval;
	watch_set(s);
}

/* Hash slot of (pcx, line number ln) in a table of cap (a power of 2). */
static size_t
atruth_hash(uint32_t pcx, uint64_t ln, size_t cap)
{
	uint64_t h = (ln ^ (uint64_t)pcx << 40) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 32) & (cap - 1);
}

/*
 * Counts a retired D-cache miss of pc index pcx at addr in the address
 * truth.  The table grows with the data footprint that misses, not with
 * the trace length.
 */
static void
atruth_add(struct pmr_sim *s, uint32_t pcx, uint64_t addr)
{
	uint64_t ln = addr / s->c.line + 1;
	struct aslot *a;
	size_t i;

	if (2 * (s->atn + 1) > s->atcap) {
		size_t cap = s->atcap ? 2 * s->atcap : 1024, j;
		struct aslot *na = calloc(cap, sizeof(*na));

		if (na == NULL) {
			fail(s, PMR_ENOMEM, "out of memory");
			return;
		}
		for (j = 0; j < s->atcap; j++) {
			if (s->at[j].line == 0)
				continue;
			i = atruth_hash(s->at[j].pcx, s->at[j].line, cap);
			while (na[i].line != 0)
				i = (i + 1) & (cap - 1);
			na[i] = s->at[j];
		}
		free(s->at);
		s->at = na;
		s->atcap = cap;
	}
	for (i = atruth_hash(pcx, ln, s->atcap);;
	    i = (i + 1) & (s->atcap - 1)) {
		a = &s->at[i];
		if (a->line == ln && a->pcx == pcx)
			break;
		if (a->line == 0) {
			a->line = ln;
			a->pcx = pcx;
			s->atn++;
			break;
		}
	}
	a->n++;
}

static int
cmp_atruth(const void *x, const void *y)
{
	const struct pmr_sim_atruth *a = x, *b = y;

	if (a->pc != b->pc)
		return a->pc < b->pc ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

/* Writes the ATRUTH records, ordered by pc and line. */
static void
atruth_emit(struct pmr_sim *s)
{
	struct pmr_sim_atruth *r;
	size_t i, n = 0;

	if (s->atn == 0)
		return;
	if ((r = calloc(s->atn, sizeof(*r))) == NULL) {
		fail(s, PMR_ENOMEM, "out of memory");
		return;
	}
	for (i = 0; i < s->atcap; i++) {
		const struct aslot *a = &s->at[i];

		if (a->line == 0)
			continue;
		r[n].pc = s->pt[a->pcx].pc;
		r[n].line = (a->line - 1) * s->c.line;
		r[n].bytes = s->c.line;
		r[n].misses = a->n;
		n++;
	}
	qsort(r, n, sizeof(*r), cmp_atruth);
	for (i = 0; i < n; i++)
		emit(s, PMR_REC_ATRUTH, &r[i]);
	free(r);
}

/* Adds retired entry e to its per-pc truth (--truth). */
static void __attribute__((noinline))
truth_retired(struct pmr_sim *s, struct ent *e)
{
	/* locals: the stores to t could otherwise alias e and s */
	uint32_t ev = e->events, pcx = e->pcx;
	struct pmr_sim_truth *t = &s->tr[pcx].t;
	uint64_t F = e->F, M = e->M, D = e->D, X = e->X, RR = e->RR;
	uint64_t v;

#define ACC(sum, sq, a, b) do {                                            \
		v = (b) - (a);                                               \
		t->sum += v;                                                 \
		t->sq += v * v;                                              \
	} while (0)
	t->retired++;
	ACC(sum_fm, sq_fm, F, M);
	ACC(sum_md, sq_md, M, D);
	ACC(sum_dx, sq_dx, D, X);
	ACC(sum_xr, sq_xr, X, RR);
	ACC(sum_rr, sq_rr, RR, s->now);
	if (e->nload > 0) {
		ACC(sum_ld, sq_ld, X, e->LC);
		t->n_ld++;
	}
#undef ACC
	/* misses and mispredicts are rare (a few in a hundred retires):
	 * one test for the seven */
	if (ev & (PMR_SIM_EV_ICACHE_MISS | PMR_SIM_EV_ITLB_MISS |
	    PMR_SIM_EV_DCACHE_MISS | PMR_SIM_EV_DTLB_MISS |
	    PMR_SIM_EV_LLC_MISS | PMR_SIM_EV_BR_MISP | PMR_SIM_EV_JMP_MISP)) {
		t->icache_miss += !!(ev & PMR_SIM_EV_ICACHE_MISS);
		t->itlb_miss += !!(ev & PMR_SIM_EV_ITLB_MISS);
		t->dcache_miss += !!(ev & PMR_SIM_EV_DCACHE_MISS);
		if ((ev & PMR_SIM_EV_DCACHE_MISS) && (e->cls == PMR_OP_LOAD ||
		    e->cls == PMR_OP_STORE || e->cls == PMR_OP_LDST))
			atruth_add(s, pcx, e->addr);
		t->dtlb_miss += !!(ev & PMR_SIM_EV_DTLB_MISS);
		t->llc_miss += !!(ev & PMR_SIM_EV_LLC_MISS);
		t->br_misp += !!(ev & PMR_SIM_EV_BR_MISP);
		t->jmp_misp += !!(ev & PMR_SIM_EV_JMP_MISP);
	}
	t->taken += !!(ev & PMR_SIM_EV_TAKEN);
	t->fu_conflict += !!(ev & PMR_SIM_EV_FU_CONFLICT);
	t->map_stall += !!(ev & (PMR_SIM_EV_MAP_REGS | PMR_SIM_EV_MAP_IQ |
	    PMR_SIM_EV_MAP_ROB | PMR_SIM_EV_LSQ_FULL));
	t->forwarded += !!(ev & PMR_SIM_EV_FORWARD);
	t->inprog += RR - F;
	uq_push(s, pcx, F, RR, 1);
}

/* Counts retired entry e in the statistics (and the truth). */
static void
retire_truth(struct pmr_sim *s, struct ent *e)
{
	uint32_t ev = e->events;

	if (s->o.truth)
		truth_retired(s, e);
	s->st.retired++;
	if (e->flags & E_BRANCH) {
		s->st.branches++;
		if (e->cls == PMR_OP_BR_COND) {
			s->st.cond++;
			s->st.cond_misp += !!(ev & PMR_SIM_EV_BR_MISP);
		}
		s->st.mispredicts += !!(ev & (PMR_SIM_EV_BR_MISP |
		    PMR_SIM_EV_JMP_MISP));
		s->st.btb_miss += !!(ev & PMR_SIM_EV_BTB_MISS);
		if (s->o.events & 2)
			emit_event(s, PMR_EV_EDGE, e->pc, ent_next_pc(s, e));
	}
	if (e->nload > 0) {
		s->st.loads++;
		s->st.dcache_miss += !!(ev & PMR_SIM_EV_DCACHE_MISS);
		s->st.llc_miss += !!(ev & PMR_SIM_EV_LLC_MISS);
		s->st.dtlb_miss += !!(ev & PMR_SIM_EV_DTLB_MISS);
		s->st.forwarded += !!(ev & PMR_SIM_EV_FORWARD);
		if ((s->o.events & 1) && (e->flags & E_VALUE))
			emit_event(s, PMR_EV_VALUE, e->pc,
			    (e->flags & E_NZVAL) ? ecold(s, e)->value : 0);
	}
	s->st.stores += e->nstore > 0;
}

/* --- windowed IPC and local-IPC truth ---------------------------------- */

/*
 * Closes the window that ended before now and counts the empty windows
 * skipped over since (spec profileme 4.7: consecutive, non-overlapping
 * windows of win_len cycles).  STATS keeps raw sums, so records merge.
 */
static void
win_close(struct pmr_sim *s, uint64_t now)
{
	uint64_t c = s->st.retired - s->win_cur, k;

	s->st.win_n++;
	if (c == 0)
		s->st.win_zero++;
	else {
		s->st.win_sum += c;
		s->st.win_sumsq += c * c;
		s->st.win_sumcube += c * c * c;
		if (c > s->st.win_max)
			s->st.win_max = c;
		if (s->st.win_min == 0 || c < s->st.win_min)
			s->st.win_min = c;
	}
	k = (now - s->win_end) / s->o.win_len;	/* empty ones */
	s->st.win_n += k;
	s->st.win_zero += k;
	s->win_end += (k + 1) * s->o.win_len;
	s->win_cur = s->st.retired;
}

/* Counts, for the retired instances whose +-delta span ends at cycle c,
 * the others retired within it. */
static void
local_drain(struct pmr_sim *s, uint64_t c)
{
	uint64_t d = s->o.delta, h = s->lqh, qt = s->lqt;
	uint64_t qmask = s->lqmask, rmask = s->lrmask;
	const uint64_t *at = s->lq_at, *lr = s->lr;

	/* locals: the stores to the truth could otherwise alias them */
	while (h != qt && at[h & qmask] + d <= c) {
		uint64_t r = at[h & qmask], before = 0;
		uint32_t x = s->lq_pcx[h & qmask];

		if (r >= s->start + d + 1)
			before = lr[(r - d - 1) & rmask];
		s->tr[x].t.local += lr[(r + d) & rmask] - before - 1;
		h++;
	}
	s->lqh = h;
}

/* Records this cycle's m measured retires for the local-IPC truth. */
static void
local_step(struct pmr_sim *s, unsigned m)
{
	uint64_t c, i, now = s->now, qt = s->lqt, qmask = s->lqmask;
	uint64_t *lr = s->lr, rmask = s->lrmask;

	for (c = s->lr_upto + 1; c < now; c++) {
		lr[c & rmask] = s->lr_cum;
		local_drain(s, c);
	}
	s->lr_cum += m;
	lr[now & rmask] = s->lr_cum;
	for (i = s->head - m; i < s->head; i++, qt++) {
		s->lq_at[qt & qmask] = now;
		s->lq_pcx[qt & qmask] = s->e[i & s->wmask].pcx;
	}
	s->lqt = qt;
	/* nothing due (most cycles): no call */
	if (s->lqh != qt && s->lq_at[s->lqh & qmask] + s->o.delta <= now)
		local_drain(s, now);
	s->lr_upto = now;
}

/* --- baseline samplers ------------------------------------------------- */

static uint64_t
bs_interval(struct pmr_sim *s)
{
	uint64_t S = s->o.pm_s, v;

	s->o.pm_s = s->o.bs_s;	/* same distributions as ProfileMe */
	v = draw_interval(s);
	s->o.pm_s = S;
	return v;
}

/* Samples entry e (retired now) for sampler id: a full record. */
static void
bs_tag(struct pmr_sim *s, struct ent *e, int id)
{
	uint32_t k;

	s->pebs_next = 0;
	if ((k = ps_new(s)) == 0)
		return;
	s->ps[k - 1].sampler = (uint8_t)id;
	e->tag = k;
}

/* Emits a record that only names a pc (counter, tip on a stall). */
static void
bs_emit_pc(struct pmr_sim *s, int id, uint64_t pc, unsigned cls,
    uint32_t events)
{
	struct pmr_sim_sample r;

	memset(&r, 0, sizeof(r));
	r.sampler = (uint8_t)id;
	r.cls = (uint8_t)cls;
	r.pc = pc;
	r.events = events;
	r.seq = s->sample_seq++;
	r.pos = s->pos;
	r.fetch_cycle = s->now;
	r.lat_fm = r.lat_md = r.lat_dx = r.lat_xr = r.lat_rr = r.lat_ld =
	    r.lat_total = PMR_SIM_NOLAT;
	s->st.samples++;
	emit(s, PMR_REC_SAMPLE, &r);
}

/* The oldest instruction in flight, else the last one retired. */
static void
bs_head(struct pmr_sim *s, uint64_t *pc, unsigned *cls)
{
	*pc = 0;
	*cls = PMR_OP_NOP;
	if (s->head != s->tail) {
		*pc = s->e[s->head & s->wmask].pc;
		*cls = s->e[s->head & s->wmask].cls;
	} else if (s->last_pcx != NONE32) {
		*pc = s->pt[s->last_pcx].pc;
		*cls = s->pt[s->last_pcx].cls;
	}
}

static void
bs_overflow(struct pmr_sim *s)
{
	s->bs_left = bs_interval(s);
	if (s->o.sampler == PMR_SIM_SAMPLER_PEBS) {
		if (s->pebs_next)
			s->st.dropped++;	/* nothing retired since */
		s->pebs_next = 1;
	} else if (!s->bs_pending) {
		s->bs_pending = 1;
		s->bs_fire_at = s->now + s->o.bs_skid;
	} else
		s->st.dropped++;	/* the interrupt is still pending */
}

/* Counts the retire-time event of e for the counter and pebs samplers. */
static void __attribute__((noinline))
bs_count(struct pmr_sim *s, const struct ent *e)
{
	int hit;

	switch (s->o.bs_event) {
	case PMR_SIM_BSEV_RETIRED:
		hit = 1;
		break;
	case PMR_SIM_BSEV_DMISS:
		hit = e->nload > 0 && (e->events & PMR_SIM_EV_DCACHE_MISS);
		break;
	case PMR_SIM_BSEV_MISP:
		hit = (e->events & (PMR_SIM_EV_BR_MISP |
		    PMR_SIM_EV_JMP_MISP)) != 0;
		break;
	default:
		return;		/* cycles: counted in bs_cycle */
	}
	if (hit && --s->bs_left == 0)
		bs_overflow(s);
}

/* Per cycle: cycle counting, counter delivery, tip selection. */
static void __attribute__((noinline))
bs_cycle(struct pmr_sim *s, unsigned n)
{
	uint64_t pc;
	unsigned cls;

	if (s->o.sampler == PMR_SIM_SAMPLER_TIP) {
		if (--s->bs_left > 0)
			return;
		s->bs_left = bs_interval(s);
		if (n > 0) {
			/* one of the n retiring, at random: each gets its
			 * 1/n share of the cycle in expectation */
			uint64_t i = s->head - n + rnd(s) % n;
			struct ent *e = &s->e[i & s->wmask];

			if (e->tag == 0) {
				bs_tag(s, e, PMR_SIM_SAMPLER_TIP);
				ps_fill(s, e);
			} else
				s->st.dropped++;
			return;
		}
		bs_head(s, &pc, &cls);
		bs_emit_pc(s, PMR_SIM_SAMPLER_TIP, pc, cls, 0);
		return;
	}
	if (s->o.sampler == PMR_SIM_SAMPLER_PEBS) {
		/* event=cycles: arm, and the next to retire is sampled */
		if (s->o.bs_event == PMR_SIM_BSEV_CYCLES && --s->bs_left == 0)
			bs_overflow(s);
		return;
	}
	if (s->o.sampler == PMR_SIM_SAMPLER_COUNTER) {
		if (s->o.bs_event == PMR_SIM_BSEV_CYCLES && --s->bs_left == 0)
			bs_overflow(s);
		if (s->bs_pending && s->now >= s->bs_fire_at) {
			s->bs_pending = 0;
			bs_head(s, &pc, &cls);
			bs_emit_pc(s, PMR_SIM_SAMPLER_COUNTER, pc, cls, 0);
		}
	}
}

/*
 * The truth's part of the retire stage (--truth), once a cycle: the n
 * instructions retired, m of them measured.
 */
static void __attribute__((noinline))
retire_tp(struct pmr_sim *s, unsigned n, unsigned m)
{
	local_step(s, m);
	/* time-proportional oracle: charge this cycle */
	if (n > 0) {
		/* locals: the tp stores could otherwise alias s */
		const struct ent *ev = s->e;
		struct pcent *pt = s->pt;
		uint64_t i, head = s->head, wmask = s->wmask;
		uint64_t share = TP_UNIT / n;

		pt[ev[(head - n) & wmask].pcx].tp += TP_UNIT - share * (n - 1);
		for (i = head - n + 1; i < head; i++)
			pt[ev[i & wmask].pcx].tp += share;
	} else if (s->head != s->tail)
		s->pt[s->e[s->head & s->wmask].pcx].tp += TP_UNIT;
	else if (s->last_pcx != NONE32)
		s->pt[s->last_pcx].tp += TP_UNIT;
	else
		s->tp_pending += TP_UNIT;	/* nothing fetched yet */
}

static void
retire(struct pmr_sim *s)
{
	unsigned n = 0, m = 0;

	if (s->measuring && s->now >= s->win_end)
		win_close(s, s->now);
	while (n < s->c.retire_width && s->head != s->map) {
		uint32_t slot = (uint32_t)(s->head & s->wmask);
		struct ent *e = &s->e[slot];

		if (!(e->flags & E_ISSUED) || e->RR > s->now)
			break;
		if (e->nstore > 0) {
			/* the store writes the L1-D (write-allocate) */
			pmr_sim_cache_access(&s->l1d, e->addr, 1);
			s->sq++;
		}
		s->lq += e->nload > 0;	/* no branch: loads come at random */
		if (e->flags & E_FP)
			s->regs_fp += e->ndst;
		else
			s->regs_int += e->ndst;
		occ_add(s, e->F, s->now, 1);
		ldcnt_drop(s, e);
		e->trap = PMR_SIM_TRAP_NONE;
		if (s->measuring) {
			m++;
			retire_truth(s, e);
			if (s->hook != NULL)
				hook_insn(s, e, 1);
			/* pebs_next is only ever set by the pebs sampler */
			if (s->o.sampler != 0) {
				if (s->pebs_next && e->tag == 0)
					bs_tag(s, e, PMR_SIM_SAMPLER_PEBS);
				if (s->o.sampler == PMR_SIM_SAMPLER_COUNTER ||
				    s->o.sampler == PMR_SIM_SAMPLER_PEBS)
					bs_count(s, e);
			}
		}
		if (e->tag != 0)
			ps_fill(s, e);
		e->flags &= ~E_LIVE;
		s->last_pcx = e->pcx;
		s->head++;
		n++;
		s->retired_all++;
		if (!s->measuring && s->retired_all >= s->o.warmup)
			measure_start(s);
		else if (s->measuring && s->st.retired >= s->retire_watch) {
			if (s->o.interval &&
			    s->st.retired >= s->next_interval) {
				emit_stats(s, 0);
				s->next_interval += s->o.interval;
				watch_set(s);
			}
			if (s->o.max && s->st.retired >= s->o.max) {
				s->stop = 1;
				break;
			}
		}
	}
	if (s->gpos != NULL && n > 0)
		gnode_retire(s, n);
	if (!s->measuring)
		return;
	if (s->o.sampler != 0)
		bs_cycle(s, n);
	if (s->o.truth)
		retire_tp(s, n, m);
}

/* --- issue ------------------------------------------------------------- */

static inline void
schedule(struct pmr_sim *s, uint32_t slot, uint64_t at)
{
	struct ent *e = &s->e[slot];
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
		fail(s, PMR_ENOMEM, "out of memory");
		return;
	}
	e->res = at;		/* reused as "issuable at" until issue */
	s->node[n].next = s->wheel[at & (WHEEL - 1)];
	s->wheel[at & (WHEEL - 1)] = n;
}

/*
 * Moves the soon bitmap into the ready bitmap, at the end of map (which
 * always runs right after issue, and neither looks at ready bits).
 */
static void
soon_merge(struct pmr_sim *s)
{
	uint32_t k;

	if (!s->soon_any)
		return;
	for (k = 0; k < s->nwords; k++) {
		s->ready[k] |= s->soon[k];
		s->soon[k] = 0;
	}
	s->soon_any = 0;
}

/* Moves this cycle's wheel bucket into the ready bitmap. */
static void
wheel_pop(struct pmr_sim *s)
{
	uint32_t b = (uint32_t)(s->now & (WHEEL - 1));
	int32_t n = s->wheel[b];

	s->wheel[b] = -1;
	while (n >= 0) {
		int32_t nx = s->node[n].next;
		uint32_t slot = s->node[n].slot;
		struct ent *e = &s->e[slot];

		if ((e->flags & E_LIVE) && e->seq == s->node[n].seq &&
		    !(e->flags & E_ISSUED)) {
			if (e->res > s->now) {
				node_free(s, n);
				schedule(s, slot, e->res);
			} else {
				s->ready[slot >> 6] |= 1ull << (slot & 63);
				e->flags |= E_READYBIT;
				node_free(s, n);
			}
		} else
			node_free(s, n);
		n = nx;
	}
}

/* Wakes the consumers of producer e, whose result is ready at e->res. */
static void
wake(struct pmr_sim *s, struct ent *e)
{
	int32_t n = e->waiters;

	e->waiters = -1;
	while (n >= 0) {
		int32_t nx = s->node[n].next;
		uint32_t cs = s->node[n].slot;
		struct ent *c = &s->e[cs];

		if ((c->flags & E_LIVE) && c->seq == s->node[n].seq) {
			if (e->res > c->D)
				c->D = e->res;
			if (--c->pending == 0)
				schedule(s, cs, c->D > c->M + 1 ? c->D :
				    c->M + 1);
		}
		node_free(s, n);
		n = nx;
	}
}

/* Returns 0 if pool p has a free unit now, else -1. */
static int
fu_get(struct pmr_sim *s, unsigned p)
{
	unsigned busy = s->fu_used[p], i;

	if (s->nlong[p] > 0) {
		for (i = 0; i < s->nlong[p];)
			if (s->fu[p][i] <= s->now)
				s->fu[p][i] = s->fu[p][--s->nlong[p]];
			else
				i++;
		busy += s->nlong[p];
	}
	return busy < s->nfu[p] ? 0 : -1;
}

/*
 * Memory order (mem_order = 1): store e, issuing now, looks for a younger
 * load of its address that has already issued: that load read stale data
 * and must be replayed with everything after it (trap next cycle).
 */
static void
order_check(struct pmr_sim *s, const struct ent *e, uint32_t slot)
{
	uint64_t i, a = e->addr >> 3;

	if (s->stab[a & (STAB - 1)].ldcnt == 0)
		return;		/* no issued load of that word in flight */
	for (i = slot_abs(s, slot) + 1; i < s->map; i++) {
		const struct ent *l = &s->e[i & s->wmask];

		if (l->nload == 0 || !(l->flags & E_ISSUED) ||
		    (l->flags & (E_WP | E_FWD)) || (l->laddr0 >> 3) != a)
			continue;
		if (!s->mo_pending || l->seq < s->mo_seq) {
			s->mo_pending = 1;
			s->mo_slot = (uint32_t)(i & s->wmask);
			s->mo_seq = l->seq;
			s->mo_at = s->now + 1;
		}
		return;
	}
}

/* Tries to issue e now; returns 1 if issued. */
static int
issue_one(struct pmr_sim *s, struct ent *e, uint32_t slot)
{
	int u = fu_get(s, e->pool), lat;
	uint32_t ev = 0;
	unsigned i;

	if (u < 0) {
		e->events |= PMR_SIM_EV_FU_CONFLICT;
		return 0;
	}
	lat = e->lat;
	s->access_pos = e->seq;
	s->merged_dist = 0;
	if (e->nload > 0 && !(e->flags & E_FWD)) {
		int l = load_access(s, e->laddr0, &ev, 0), l2;

		if (l < 0) {
			e->events |= PMR_SIM_EV_MSHR_FULL;
			return -1;
		}
		for (i = 1; i < e->nload && i < MAXL; i++)
			if ((l2 = load_access(s, ent_laddr(s, e, i), &ev,
			    1)) > l)
				l = l2;
		e->events |= ev;
		e->LC = s->now + (unsigned)l;
		lat += l;
		if (s->gn) {
			struct egn *g = &s->eg[slot];

			g->ep_tlb = (uint16_t)s->last_tl;
			g->ppp = s->merged_dist;
			g->ep_mem = (uint16_t)s->c.l1d_lat;
			g->ep_miss = (uint16_t)((unsigned)l > s->c.l1d_lat +
			    s->last_tl ? (unsigned)l - s->c.l1d_lat -
			    s->last_tl : 0);
		}
	} else if (e->nload > 0) {
		e->LC = s->now + s->c.l1d_lat;
		lat += (int)s->c.l1d_lat;
		e->events |= PMR_SIM_EV_FORWARD;
		if (s->gn)
			s->eg[slot].ep_mem = (uint16_t)s->c.l1d_lat;
	}
	if (e->nstore > 0 && !(s->o.ideal & PMR_SIM_IDEAL_DMISS) &&
	    !pmr_sim_cache_access(&s->dtlb, e->addr, 1))
		e->events |= PMR_SIM_EV_DTLB_MISS;
	/* divides occupy their unit; everything else is pipelined */
	if ((e->cls == PMR_OP_IDIV || e->cls == PMR_OP_FDIV) && e->lat > 1)
		s->fu[e->pool][s->nlong[e->pool]++] = s->now + e->lat;
	else
		s->fu_used[e->pool]++;
	e->X = s->now;
	s->nissued++;
	e->flags |= E_ISSUED;
	e->flags &= ~E_READYBIT;
	unready(s, slot);
	if (e->flags & E_FP)
		s->iq_fp++;
	else
		s->iq_int++;
	e->res = s->now + (unsigned)lat;
	if (e->nload > 0 && s->c.load_early && e->LC > s->now +
	    s->c.l1d_lat + e->lat)
		e->RR = s->now + s->c.l1d_lat + e->lat;
	else
		e->RR = e->res;
	if (e->RR == s->now)
		e->RR = s->now + 1;	/* retire is earlier in the cycle */
	if (e->nload == 0)
		e->LC = e->res;
	if (s->o.truth)
		s->cr[s->now & (CRING - 1)].iss++;
	if (s->res_pending && s->res_slot == slot && s->res_seq == e->seq)
		s->res_at = e->RR;
	wake(s, e);
	if (s->c.mem_order && !(e->flags & E_WP)) {
		if (e->nload > 0 && !(e->flags & E_FWD)) {
			s->stab[(e->laddr0 >> 3) & (STAB - 1)].ldcnt++;
			e->flags |= E_LDCNT;
		}
		if (e->nstore > 0)
			order_check(s, e, slot);
	}
	return 1;
}

static void
issue(struct pmr_sim *s)
{
	unsigned n = 0, k, mshr_wait = 0;
	uint64_t w, w1 = (s->map - 1) >> 6;

	wheel_pop(s);
	for (k = 0; k < P_N; k++)
		s->fu_used[k] = 0;
	/*
	 * age order: ready bits are only ever set in the ROB, [head, map),
	 * so the words it covers, in absolute slot numbers (head's word
	 * may come again as the last one, for the slots below head)
	 */
	for (w = s->head >> 6; s->map != s->head && w <= w1 &&
	    n < s->c.issue_width; w++) {
		uint32_t wi = (uint32_t)w & (s->nwords - 1);
		uint64_t bits = s->ready[wi];

		if (w == s->head >> 6)
			bits &= ~0ull << (s->head & 63);
		if (w == w1)
			bits &= ~0ull >> (63 - ((s->map - 1) & 63));
		while (bits != 0 && n < s->c.issue_width) {
			uint32_t b = (uint32_t)__builtin_ctzll(bits);
			uint32_t slot = wi * 64 + b;
			int r;

			bits &= bits - 1;
			r = issue_one(s, &s->e[slot], slot);
			if (r > 0)
				n++;
			else if (r < 0)
				mshr_wait = 1;
		}
	}
	if (n == s->c.issue_width) {
		/* whoever is still ready lost to the width limit */
		for (k = 0; k < s->nwords; k++) {
			uint64_t bits = s->ready[k];

			while (bits != 0) {
				uint32_t b = (uint32_t)__builtin_ctzll(bits);

				bits &= bits - 1;
				s->e[k * 64 + b].events |=
				    PMR_SIM_EV_FU_CONFLICT;
			}
		}
	}
	if (mshr_wait && s->measuring)
		s->st.st_mshr++;
}

/* --- map --------------------------------------------------------------- */

static void
stall(struct pmr_sim *s, int why)
{
	switch (why) {
	case PMR_SIM_ST_ICACHE:
		s->st.st_icache++;
		break;
	case PMR_SIM_ST_REDIRECT:
		s->st.st_redirect++;
		break;
	case PMR_SIM_ST_ROB:
		s->st.st_rob++;
		break;
	case PMR_SIM_ST_IQ:
		s->st.st_iq++;
		break;
	case PMR_SIM_ST_REGS:
		s->st.st_regs++;
		break;
	default:
		s->st.st_lsq++;
		break;
	}
}

static int
is_fp_reg(uint16_t r)
{
	return r >= PMR_X86_XMM0 && r < PMR_X86_K0;
}

/* Adds producer slot/seq as an operand of consumer e. */
static inline void
depend(struct pmr_sim *s, struct ent *e, uint32_t cslot, uint32_t pslot,
    uint64_t pseq)
{
	struct ent *p = &s->e[pslot];
	uint32_t f = p->flags;
	/* in flight (else retired: the value is in the registers); tests
	 * the host cannot predict, so evaluated without branches */
	unsigned live = ((f & E_LIVE) != 0) & (p->seq == pseq);
	uint64_t r;
	int32_t n;

	if (!live | ((f & E_ISSUED) != 0)) {
		r = live ? p->res : 0;	/* issued: its result time */
		e->D = r > e->D ? r : e->D;
		return;
	}
	if ((n = node_new(s, cslot, e->seq)) < 0) {
		fail(s, PMR_ENOMEM, "out of memory");
		return;
	}
	s->node[n].next = p->waiters;
	p->waiters = n;
	e->pending++;
}

/* Notes the fetch distance to the producer of register r (GNODE). */
static void
gn_preg(struct pmr_sim *s, const struct ent *e, uint32_t slot, uint16_t r)
{
	struct egn *g = &s->eg[slot];
	uint64_t dist = e->seq - s->ratseq[r];
	unsigned k;

	for (k = 0; k < 3; k++)
		if (g->preg[k] == 0 || g->preg[k] == dist)
			break;
	if (k < 3 && dist < 0xffffffffu)
		g->preg[k] = (uint32_t)dist;
}

/*
 * ip_reg: a conditional branch or call reads the instruction pointer,
 * and every transfer writes it (after its other destinations).
 */
static void __attribute__((noinline))
ip_map(struct pmr_sim *s, struct ent *e, uint32_t slot)
{
	struct undo *u;

	if ((e->cls == PMR_OP_BR_COND || e->cls == PMR_OP_CALL ||
	    e->cls == PMR_OP_CALL_IND) && s->rat[PMR_X86_RIP] != 0)
		depend(s, e, slot, s->rat[PMR_X86_RIP] - 1,
		    s->ratseq[PMR_X86_RIP]);
	if (e->ndst >= MAXD)
		return;
	u = e->ndst == 0 ? &e->u0 : &s->eu[slot].u[e->ndst - 1];
	u->dreg = PMR_X86_RIP;
	u->prev = s->rat[PMR_X86_RIP];
	u->prevd = e->seq - s->ratseq[PMR_X86_RIP] < 0xffffffffu ?
	    (uint32_t)(e->seq - s->ratseq[PMR_X86_RIP]) : 0xffffffffu;
	e->ndst++;
	s->rat[PMR_X86_RIP] = slot + 1;
	s->ratseq[PMR_X86_RIP] = e->seq;
}

static void
map_one(struct pmr_sim *s, struct ent *e, uint32_t slot)
{
	const struct pmr_sinsn *si = s->ew[slot].si;
	unsigned i;

	e->M = s->now;
	e->D = s->now;
	e->pending = 0;
	e->waiters = -1;
	e->flags |= E_MAPPED;
	if (si != NULL) {
		for (i = 0; i < si->nsrc; i++) {
			uint16_t r = si->src[i] % NREG;

			if (r == PMR_X86_RIP)
				continue;
			if (s->rat[r] != 0) {
				depend(s, e, slot, s->rat[r] - 1, s->ratseq[r]);
				if (s->gn)
					gn_preg(s, e, slot, r);
			}
		}
		if (e->nload > 0 && !(e->flags & E_WP)) {
			/* a younger load of an in-flight store's address
			 * waits for the store and takes its data */
			uint64_t a = e->laddr0 >> 3;
			uint32_t k = (uint32_t)(a & (STAB - 1));

			if (s->stab[k].slot != 0 && s->stab[k].addr == a) {
				struct ent *p = &s->e[s->stab[k].slot - 1];

				if ((p->flags & E_LIVE) &&
				    p->seq == s->stab[k].seq &&
				    (!s->c.mem_order || (p->flags & E_ISSUED) ||
				    s->pt[e->pcx].wait ==
				    (uint32_t)(s->now / WAIT_CLEAR) + 1)) {
					e->flags |= E_FWD;
					if (s->gn)
						s->eg[slot].pmem =
						    (uint32_t)(e->seq - p->seq);
					depend(s, e, slot, s->stab[k].slot - 1,
					    s->stab[k].seq);
				}
			}
		}
		e->ndst = 0;
		for (i = 0; i < si->ndst && e->ndst < MAXD; i++) {
			uint16_t r = si->dst[i] % NREG;
			struct undo *u;

			if (r == PMR_X86_RIP || (r == PMR_X86_RSP &&
			    s->c.sp_fold && ((e->flags & E_BRANCH) ||
			    si->nmem > 0)))
				continue;	/* stack engine */

			u = e->ndst == 0 ? &e->u0 : &s->eu[slot].u[e->ndst - 1];
			u->dreg = r;
			u->prev = s->rat[r];
			u->prevd = e->seq - s->ratseq[r] < 0xffffffffu ?
			    (uint32_t)(e->seq - s->ratseq[r]) : 0xffffffffu;
			e->ndst++;
			s->rat[r] = slot + 1;
			s->ratseq[r] = e->seq;
		}
		if (e->flags & E_IPREG)
			ip_map(s, e, slot);
		if (e->nstore > 0 && !(e->flags & E_WP)) {
			uint64_t a = e->addr >> 3;
			uint32_t k = (uint32_t)(a & (STAB - 1));

			s->stab[k].slot = slot + 1;
			s->stab[k].seq = e->seq;
			s->stab[k].addr = a;
		}
	}
	if (e->flags & E_FP) {
		s->iq_fp--;
		s->regs_fp -= e->ndst;
	} else {
		s->iq_int--;
		s->regs_int -= e->ndst;
	}
	/* no branches: loads and stores come at random */
	s->lq -= e->nload != 0;
	s->sq -= e->nstore != 0;
	if (e->pending == 0)
		schedule(s, slot, e->D > s->now + 1 ? e->D : s->now + 1);
	if (s->o.pm_select == 2 && s->measuring && s->o.pm != PMR_SIM_PM_OFF)
		pm_fetch(s, e);	/* ibs: counting dispatched ops */
}

/* wrong_path 0: 1 if e must wait for its line or the DIB-miss decode. */
static int __attribute__((noinline))
fe_wait(const struct pmr_sim *s, const struct ent *e, uint32_t slot)
{
	return s->fready[slot] + s->c.frontend +
	    ((e->flags & E_DIBMISS) ? DIB_MISS : 0) > s->now;
}

static void __attribute__((noinline))
dib_fill(struct pmr_sim *s, const struct ent *e)
{
	pmr_sim_cache_access(&s->dib, e->pc, 1);
}

static void
map(struct pmr_sim *s)
{
	unsigned n = 0;
	int why = -1;

	while (n < s->c.map_width && s->map != s->tail) {
		uint32_t slot = (uint32_t)(s->map & s->wmask);
		struct ent *e = &s->e[slot];
		unsigned nd;
		uint32_t ev = 0;

		if (e->F + s->c.frontend > s->now)
			break;
		if (s->fready != NULL && fe_wait(s, e, slot))
			break;
		nd = e->ndst;	/* set at fetch (ent_setup) */
		if (s->map - s->head >= s->c.rob) {
			why = PMR_SIM_ST_ROB;
			ev = PMR_SIM_EV_MAP_ROB;
		} else if ((e->flags & E_FP) ? s->iq_fp == 0 : s->iq_int == 0) {
			why = PMR_SIM_ST_IQ;
			ev = PMR_SIM_EV_MAP_IQ;
		} else if ((e->flags & E_FP) ? s->regs_fp < nd :
		    s->regs_int < nd) {
			why = PMR_SIM_ST_REGS;
			ev = PMR_SIM_EV_MAP_REGS;
		} else if (((e->nload != 0) & (s->lq == 0)) |
		    ((e->nstore != 0) & (s->sq == 0))) {
			why = PMR_SIM_ST_LSQ;
			ev = PMR_SIM_EV_LSQ_FULL;
		}
		if (why >= 0) {
			e->events |= ev;
			break;
		}
		if (e->flags & E_DIBMISS)	/* decoded: fill the DIB */
			dib_fill(s, e);
		map_one(s, e, slot);
		s->map++;
		n++;
	}
	s->map_why = why;
	if (why >= 0 && s->measuring)
		stall(s, why);
	soon_merge(s);
}

/* --- fetch ------------------------------------------------------------- */

static unsigned
class_lat(struct pmr_sim *s, unsigned cls)
{
	return cls < PMR_OP_NCLASS ? s->lat_of[cls] : s->c.lat_alu;
}

/*
 * Works out the class-derived fields of a new entry for ent_setup() and
 * keeps them in d for the next fetch of si.
 */
static void __attribute__((noinline))
ent_derive(struct pmr_sim *s, struct ent *e, const struct pmr_sinsn *si,
    struct sdec *d)
{
	unsigned cls = si != NULL ? si->cls : PMR_OP_NOP;
	uint32_t f0 = e->flags;

	if (cls >= PMR_OP_NCLASS)
		cls = PMR_OP_OTHER;
	e->cls = (uint8_t)cls;
	e->pool = s->pool_of[cls];
	e->lat = (uint8_t)class_lat(s, cls);
	e->flags |= (cls == PMR_OP_FADD || cls == PMR_OP_FMUL ||
	    cls == PMR_OP_FDIV) ? E_FP : 0;
	if (si != NULL && si->ndst > 0 && cls != PMR_OP_LOAD &&
	    is_fp_reg(si->dst[0]))
		e->flags |= E_FP;
	if (pmr_insn_class_is_branch(cls))
		e->flags |= E_BRANCH | (s->ip_reg ? E_IPREG : 0);
	e->nload = si != NULL ? si->nload : 0;
	e->nstore = si != NULL ? (uint8_t)(si->nmem - si->nload) : 0;
	if (cls == PMR_OP_LOAD || cls == PMR_OP_LDST) {
		if (e->nload == 0)
			e->nload = 1;
	}
	if ((cls == PMR_OP_STORE || cls == PMR_OP_LDST) && e->nstore == 0)
		e->nstore = 1;
	if (e->nload > 0 && cls != PMR_OP_LOAD && cls != PMR_OP_LDST &&
	    e->pool != P_MEM) {
		/* an ALU op with a memory source: load, then operate */
		e->pool = P_MEM;
	} else if (e->nload > 0 || e->nstore > 0) {
		e->pool = P_MEM;
		e->lat = 0;
	}
	if (e->nstore > 0 && e->nload == 0)
		e->lat = 1;
	d->set = 1;
	e->ndst = d->nd = (uint8_t)(si == NULL ? 0 : si->ndst < MAXD ?
	    si->ndst : MAXD);
	if ((e->flags & E_IPREG) && d->nd < MAXD)
		e->ndst = ++d->nd;	/* the pc's rename register */
	d->cls = e->cls;
	d->pool = e->pool;
	d->lat = e->lat;
	d->nload = e->nload;
	d->nstore = e->nstore;
	d->flags = e->flags & ~f0;
}

/* Copies the class-derived fields of a new entry out of d. */
static inline void
ent_fill(struct ent *e, const struct sdec *d)
{
	e->ndst = d->nd;	/* until map_one() counts the renamed ones */
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
		ent_derive(s, e, si, d);
		return;
	}
	ent_fill(e, d);
}

static uint64_t
fallthru(const struct pmr_sim *s, uint64_t pc, const struct pmr_sinsn *si)
{
	(void)s;
	return pc + (si != NULL && si->len ? si->len : 4);
}

/* Return address predicted for a call at pc (pcx). */
static uint64_t
ret_addr(const struct pmr_sim *s, uint64_t pc, uint32_t pcx)
{
	unsigned l = s->pt[pcx].calllen;

	return pc + (l ? l : 4);
}

static void
ras_push(struct pmr_sim *s, uint64_t a, uint32_t pcx)
{
	s->ras_top = s->ras_top + 1 == s->ras_n ? 0 : s->ras_top + 1;
	s->ras[s->ras_top] = a;
	s->ras_pcx[s->ras_top] = pcx;
}

static uint64_t
ras_pop(struct pmr_sim *s)
{
	uint64_t a = s->ras[s->ras_top];

	s->ras_top = s->ras_top == 0 ? s->ras_n - 1 : s->ras_top - 1;
	return a;
}

/*
 * predict() for bp champsim, as ChampSim's O3_CPU::do_predict_branch()
 * and decode_instruction() (src/ooo_cpu.cc): the BTB and bimodal
 * predict, then train at once with the outcome.  A miss whose target
 * decode computes (a direct jump or call, or a conditional branch with
 * the right direction but no target) is a mispredict resolved at decode
 * when the instruction missed the DIB: returned as the correct target
 * with *bubble set (btb_penalty), the event JMP_MISP and BTB_MISS.  Any
 * other miss is resolved at execute.
 */
static uint64_t __attribute__((noinline))
predict_cs(struct pmr_sim *s, struct ent *e, int correct, int taken,
    uint64_t target, int *bubble, int *ptaken)
{
	unsigned cls = e->cls;
	uint64_t ft = fallthru(s, e->pc, ent_si(s, e)), pt;
	int pd;

	pt = pmr_sim_cs_predict(&s->bp, e->pc, cls, &pd);
	if (cls == PMR_OP_BR_COND)
		s->ghist = (s->ghist << 1) | (uint64_t)pd;
	*ptaken = pd;
	if (!correct)
		return pd ? pt : ft;
	pmr_sim_cs_update(&s->bp, e->pc, cls, taken, taken ? target : 0);
	if ((pd == taken && (!taken || pt == target)) ||
	    !(cls == PMR_OP_JMP || cls == PMR_OP_CALL ||
	    (cls == PMR_OP_BR_COND && pd == taken)) ||
	    (s->fready != NULL && !(e->flags & E_DIBMISS)))
		return pd ? pt : ft;
	*bubble = 1;
	*ptaken = taken;
	e->events |= PMR_SIM_EV_JMP_MISP | PMR_SIM_EV_BTB_MISS;
	return taken ? target : ft;
}

/*
 * Predicts the transfer of e (whose si is set) and returns the predicted
 * next pc; trains the predictor on the correct path.  *bubble is set when
 * a taken direct transfer missed in the BTB (decode redirect).
 */
static uint64_t
predict(struct pmr_sim *s, struct ent *e, int correct, int taken,
    uint64_t target, int *bubble, int *ptaken)
{
	const struct pmr_sinsn *si = ent_si(s, e);
	unsigned cls = e->cls;
	uint64_t ft = fallthru(s, e->pc, si), bt, pt = 0;
	int pd = 1, perfect = s->c.bp == PMR_SIM_BP_PERFECT;

	*bubble = 0;
	if (s->c.bp == PMR_SIM_BP_CHAMPSIM)
		return predict_cs(s, e, correct, taken, target, bubble,
		    ptaken);
	if (cls == PMR_OP_BR_COND) {
		if (perfect && correct)
			pd = taken;
		else
			pd = pmr_sim_bpred_cond(&s->bp, e->pc, s->ghist, taken,
			    correct);
		s->ghist = (s->ghist << 1) | (uint64_t)pd;
	}
	*ptaken = pd;
	if (!pd)
		return ft;
	if (cls == PMR_OP_RET) {
		uint32_t cx = s->ras_pcx[s->ras_top];

		pt = ras_pop(s);
		if (correct && cx < s->npt && target - s->pt[cx].pc >= 1 &&
		    target - s->pt[cx].pc <= 15 && pt != target &&
		    s->pt[cx].si != NULL && s->pt[cx].si->len == 0)
			/* learn the call's size (no lengths in the trace) */
			s->pt[cx].calllen = (uint8_t)(target - s->pt[cx].pc);
		if (perfect && correct)
			pt = target;
	} else {
		bt = pmr_sim_btb_lookup(&s->bp, e->pc);
		if (cls == PMR_OP_JMP_IND || cls == PMR_OP_CALL_IND)
			pt = perfect && correct ? target : bt;
		else {
			/* direct: decode knows the target; a BTB miss
			 * costs a fetch bubble, not a mispredict */
			uint64_t dt = si != NULL && si->target ? si->target :
			    (correct ? target : bt);

			if (bt != dt && !perfect) {
				*bubble = 1;
				e->events |= PMR_SIM_EV_BTB_MISS;
			}
			pt = dt;
		}
		if (cls == PMR_OP_CALL || cls == PMR_OP_CALL_IND)
			ras_push(s, ret_addr(s, e->pc, e->pcx), e->pcx);
	}
	if (correct && taken && cls != PMR_OP_RET)
		pmr_sim_btb_update(&s->bp, e->pc, target);
	return pt;
}

/* Gets the next correct-path instruction into s->nxt; 0 at the end. */
static int
peek(struct pmr_sim *s)
{
	int r;

	if (s->have_nxt)
		return 1;
	if (s->rpl_n > 0) {
		s->nxt = s->rpl[s->rpl_head];
		s->rpl_head = (s->rpl_head + 1) % (s->wsize + 2);
		s->rpl_n--;
		s->have_nxt = 1;
		return 1;
	}
	if (s->src_done)
		return 0;
	r = s->src(s->srcarg, &s->nxt);
	if (r < 0) {
		fail(s, r, "%s", "trace read error");
		s->src_done = 1;
		return 0;
	}
	if (r == 0 || s->nxt.si == NULL) {
		s->src_done = 1;
		return 0;
	}
	s->have_nxt = 1;
	return 1;
}

/* Takes the I-side latency parts for the new entry in slot (GNODE). */
static void
gn_fetch(struct pmr_sim *s, uint32_t slot)
{
	struct egn *g = &s->eg[slot];

	g->dd_fetch = (uint16_t)(s->pend_dd > 0xffff ? 0xffff : s->pend_dd);
	g->dd_itlb = (uint16_t)(s->pend_itlb > g->dd_fetch ? g->dd_fetch :
	    s->pend_itlb);
	g->dd_brk = (uint16_t)s->pend_brk;
	g->ep_mem = g->ep_miss = g->ep_tlb = 0;
	g->preg[0] = g->preg[1] = g->preg[2] = g->pmem = g->ppp = 0;
}

/* Takes the accesses of correct-path entry e from d. */
static void
ent_mem(struct pmr_sim *s, struct ent *e, const struct pmr_dinsn *d)
{
	unsigned i;

	e->addr = d->nmem > 0 ? d->addr[0] : 0;
	if (d->nload > 0)
		e->laddr0 = d->addr[0];
	/* laddr 2.. as the one-array layout left them: a load without
	 * accesses reads the old ones */
	for (i = 1; i < d->nload && i < MAXL; i++)
		ecold(s, e)->laddr[i - 1] = d->addr[i];
	if (d->nload < e->nload && d->nmem > 0)
		for (i = d->nload; i < e->nload && i < MAXL; i++) {
			if (i == 0)
				e->laddr0 = d->addr[0];
			else
				ecold(s, e)->laddr[i - 1] = d->addr[0];
		}
	if (d->nmem == 0 && e->nload > 0)
		e->laddr0 = 0;
	if (e->nstore > 0 && d->nmem > d->nload)
		e->addr = d->addr[d->nload];
	if (d->nmem > 0)
		s->last_addr[e->pcx] = d->addr[0];
}

/*
 * Keeps what correct-path entry e needs beyond the hot fields: the rare
 * ones (thread, value, a next pc that is not the fall-through) and, for
 * a load, the return stack a replay trap restores.  Out of line: the
 * run loop keeps retire() inline within the compiler's growth limits.
 */
static void __attribute__((noinline))
ent_cold(struct pmr_sim *s, struct ent *e, const struct pmr_dinsn *d)
{
	struct ecold *c = ecold(s, e);

	if (d->tid != 0) {
		c->tid = d->tid;
		e->flags |= E_TID;
	}
	if (d->value != 0) {
		c->value = d->value;
		e->flags |= E_NZVAL;
	}
	if (d->next_pc != e->pc + d->si->len) {
		c->next_pc = d->next_pc;
		e->flags |= E_NPC;
	}
	if (e->nload > 0) {
		c->ras_top = s->ras_top;
		c->ras_val = s->ras[s->ras_top];
		c->ras_pcx = s->ras_pcx[s->ras_top];
	}
}

/* wrong_path 0: the cycle the entry at map may map, or c if later. */
static uint64_t __attribute__((noinline))
fe_map_at(const struct pmr_sim *s, uint64_t c)
{
	const struct ent *m = &s->e[s->map & s->wmask];
	uint64_t r = s->fready[s->map & s->wmask] + s->c.frontend +
	    ((m->flags & E_DIBMISS) ? DIB_MISS : 0);

	return r > c ? r : c;
}

/*
 * wrong_path 0: fetch reads on past a line that is not there yet (set
 * in fetch_at); the line's entries and those after wait at map.
 */
static void __attribute__((noinline))
fe_miss(struct pmr_sim *s)
{
	if (s->fetch_at > s->fready_last)
		s->fready_last = s->fetch_at;
	s->fetch_at = s->now;
}

/* wrong_path 0: when e's line is there; its DIB look-up. */
static void __attribute__((noinline))
fe_read(struct pmr_sim *s, struct ent *e, uint32_t slot, uint64_t pc)
{
	s->fready[slot] = s->fready_last > s->now ? s->fready_last : s->now;
	if (!pmr_sim_cache_access(&s->dib, pc, 0))
		e->flags |= E_DIBMISS;
}

static void
fetch_body(struct pmr_sim *s)
{
	unsigned n = 0, taken = 0;
	uint64_t block = 0;

	if (s->now < s->fetch_at) {
		if (s->measuring)
			stall(s, s->fetch_why);
		return;
	}
	while (n < s->c.fetch_width) {
		uint64_t pc, npc, line, npc_c = 0;
		uint32_t slot;
		struct ent *e;
		int correct = !s->wrongpath, bubble = 0, ptaken = 0;
		unsigned lat;

		if (s->tail - s->map >= s->c.fetchq) {
			if (n == 0 && s->measuring)
				s->st.st_fetchq++;
			break;
		}
		if (s->tail - s->head >= s->wsize)
			break;
		if (correct) {
			if (!peek(s))
				break;
			pc = s->nxt.pc;
		} else {
			if (s->wp_stuck || !s->c.wrong_path)
				break;
			pc = s->wp_pc;
		}
		if (s->c.fetch_block) {
			uint64_t b = pc >> s->fbshift;

			if ((n != 0) & (b != block)) {
				s->pend_brk = 1;
				break;
			}
			block = b;	/* sets it at n == 0, else the same */
		}
		line = (pc >> s->lshift) + 1;
		if (line != s->cur_line) {
			s->cur_line = line;
			if ((lat = ifetch(s, pc, &s->pend_ev)) > 0) {
				s->pend_dd += lat;
				s->pend_itlb += s->last_itl;
				s->fetch_at = s->now + lat;
				s->fetch_why = PMR_SIM_ST_ICACHE;
				if (s->fready == NULL)
					break;
				fe_miss(s);
			}
		}
		slot = (uint32_t)(s->tail & s->wmask);
		e = &s->e[slot];
		e->flags = E_LIVE;
		if (s->fready != NULL)
			fe_read(s, e, slot, pc);
		e->events = s->pend_ev;
		s->pend_ev = 0;
		if (s->gn)
			gn_fetch(s, slot);
		s->pend_dd = s->pend_itlb = s->pend_brk = 0;
		e->tag = 0;
		e->seq = s->pos++;
		e->pc = pc;
		e->F = s->now;
		s->ew[slot].hist = s->ghist;
		e->waiters = -1;
		e->ndst = 0;
		e->trap = 0;
		if (correct) {
			const struct pmr_dinsn *d = &s->nxt;

			const struct sdec *sd = d->si->id < s->nidx ?
			    &s->idx[d->si->id] : NULL;

			s->ew[slot].si = d->si;
			if (sd != NULL && (sd->x != 0) & sd->set) {
				/* the common case: one look-up for both */
				e->pcx = sd->x - 1;
				ent_fill(e, sd);
			} else {
				e->pcx = si_index(s, d->si);
				if (e->pcx == NONE32) {
					fail(s, PMR_ENOMEM, "out of memory");
					return;
				}
				ent_setup(s, e, d->si);
			}
			npc_c = d->next_pc;
			if (d->nmem == 0 && e->nload == 0)
				e->addr = 0;	/* most instructions */
			else
				ent_mem(s, e, d);
			if (d->flags & PMR_DI_VALUE)
				e->flags |= E_VALUE;
			if (d->tid != 0 || d->value != 0 ||
			    npc_c != pc + d->si->len || e->nload > 0)
				ent_cold(s, e, d);
			s->have_nxt = 0;
		} else {
			uint32_t x = pt_find(s, pc);
			const struct pmr_sinsn *si = x != NONE32 ?
			    s->pt[x].si : NULL;

			if (x == NONE32 &&
			    (x = pt_get(s, pc, NULL)) == NONE32) {
				fail(s, PMR_ENOMEM, "out of memory");
				return;
			}
			e->pcx = x;
			e->flags |= E_WP;
			e->events |= PMR_SIM_EV_BAD_PATH;
			if (si == NULL)
				e->events |= PMR_SIM_EV_SYNTH;
			s->ew[slot].si = si;
			ent_setup(s, e, si);
			e->addr = s->last_addr[x];
			e->laddr0 = e->addr;
			{
				struct ecold *c = ecold(s, e);

				c->laddr[0] = c->laddr[1] = c->laddr[2] =
				    e->addr;
			}
			if (s->measuring)
				s->st.wrongpath++;
		}
		s->tail++;
		if (s->measuring) {
			s->st.fetched++;
			if (s->o.truth) {
				char *tl = (char *)&s->tr[e->pcx];

				s->tr[e->pcx].t.fetched++;
				/* its retire, tens of cycles on, writes the
				 * next four lines: not a miss then */
				__builtin_prefetch(tl + 64, 1);
				__builtin_prefetch(tl + 128, 1);
				__builtin_prefetch(tl + 192, 1);
				__builtin_prefetch(tl + 256, 1);
				if (s->tp_pending != 0) {	/* the first fetch */
					s->pt[e->pcx].tp += s->tp_pending;
					s->tp_pending = 0;
				}
			}
			if (s->pm_at_fetch)
				pm_fetch(s, e);
		}
		n++;
		if (!(e->flags & E_BRANCH)) {
			if (!correct)
				s->wp_pc = fallthru(s, pc, s->ew[slot].si);
			continue;
		}
		if (correct) {
			int t = (s->nxt.flags & PMR_DI_TAKEN) != 0 ||
			    e->cls != PMR_OP_BR_COND;
			uint64_t tgt = npc_c;
			uint64_t h0 = s->ghist;

			npc = predict(s, e, 1, t, tgt, &bubble, &ptaken);
			if (t)
				e->events |= PMR_SIM_EV_TAKEN;
			e->flags |= t ? E_TAKEN : 0;
			if (t && e->cls != PMR_OP_BR_COND)
				e->addr = tgt;
			else if (t)
				e->addr = tgt;
			if (ptaken != t || (t && npc != tgt)) {
				e->events |= ptaken != t ?
				    PMR_SIM_EV_BR_MISP : PMR_SIM_EV_JMP_MISP;
				e->flags |= E_MISP;
				s->res_pending = 1;
				s->res_slot = slot;
				s->res_seq = e->seq;
				s->res_at = ~0ull;
				s->ghist_fix = e->cls == PMR_OP_BR_COND ?
				    (h0 << 1) | (uint64_t)t : s->ghist;
				/* repair: undo the wrong-path pushes/pops
				 * after this one */
				s->ras_fix_top = s->ras_top;
				s->ras_fix_val = s->ras[s->ras_top];
				s->ras_fix_pcx =
				    s->ras_pcx[s->ras_top];
				s->wrongpath = 1;
				s->wp_pc = npc;
				s->wp_stuck = npc == 0;
				s->cur_line = 0;
				break;
			}
		} else {
			npc = predict(s, e, 0, 0, 0, &bubble, &ptaken);
			e->addr = npc;
			if (ptaken && npc == 0) {
				s->wp_stuck = 1;
				break;
			}
			s->wp_pc = npc;
		}
		if (bubble) {
			s->pend_brk = 1 + s->c.btb_penalty;
			s->fetch_at = (s->fready != NULL ? s->fready[slot] :
			    s->now) + 1 + s->c.btb_penalty;
			s->fetch_why = PMR_SIM_ST_REDIRECT;
			s->cur_line = 0;
			break;
		}
		if (ptaken) {
			if (++taken >= s->c.fetch_taken) {
				s->pend_brk = 1;
				break;
			}
			if (s->c.fetch_block)
				block = (correct ? npc_c : npc) >>
				    s->fbshift;
		}
	}
}

/*
 * Fetch-opportunity selection (ProfileMe 4.1.1): the counter counts the
 * fetch_width slots of every cycle; a selected slot holds one of the nf
 * instructions fetched this cycle, a slot of the block off the predicted
 * path (the rest of a cycle that fetched something) or nothing.
 */
static void
pm_opportunities(struct pmr_sim *s, unsigned nf)
{
	unsigned i, w = s->c.fetch_width;

	if (!s->pm_armed || s->now < s->pm_arm_at)
		return;
	if (s->pm_left > w) {
		s->pm_left -= w;
		return;
	}
	for (i = 0; i < w; i++) {
		if (--s->pm_left > 0)
			continue;
		if (i < nf) {
			struct ent *e = &s->e[(s->tail - nf + i) & s->wmask];
			uint32_t id;

			if ((id = ps_new(s)) == 0)
				return;
			e->tag = id;
			if (s->o.pm_rearm == 0) {
				s->pm_armed = 0;
				s->outstanding++;
				return;
			}
		} else {
			struct pmr_sim_sample r;

			memset(&r, 0, sizeof(r));
			r.kind = nf > 0 ? PMR_SIM_KIND_OFFPATH :
			    PMR_SIM_KIND_EMPTY;
			r.seq = s->sample_seq++;
			r.pos = s->pos;
			r.history = s->ghist & (s->c.bp_ghist >= 64 ? ~0ull :
			    (1ull << s->c.bp_ghist) - 1);
			r.hist_len = (uint8_t)(s->c.bp_ghist > 64 ? 64 :
			    s->c.bp_ghist);
			r.pc = s->wrongpath ? s->wp_pc : s->have_nxt ?
			    s->nxt.pc : 0;
			r.fetch_cycle = s->now;
			r.lat_fm = r.lat_md = r.lat_dx = r.lat_xr = r.lat_rr =
			    r.lat_ld = r.lat_total = PMR_SIM_NOLAT;
			if (nf == 0 && s->now < s->fetch_at &&
			    s->fetch_why == PMR_SIM_ST_ICACHE)
				r.events = PMR_SIM_EV_ICACHE_MISS;
			s->st.samples++;
			emit(s, PMR_REC_SAMPLE, &r);
			if (s->o.pm_rearm == 0) {
				pm_rearm(s);	/* delivered at once */
				return;
			}
		}
		s->pm_left = draw_interval(s);
	}
}

static void
fetch(struct pmr_sim *s)
{
	uint64_t t0 = s->tail;

	fetch_body(s);
	if (s->o.pm_select == 1 && s->measuring &&
	    s->o.pm == PMR_SIM_PM_SINGLE)
		pm_opportunities(s, (unsigned)(s->tail - t0));
}

/* --- run --------------------------------------------------------------- */

void
pmr_sim_opts_init(struct pmr_sim_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->pm_s = 1000;
	o->pm_w = 0;
	o->delta = 15;
	o->win_len = 30;
	pmr_sim_shotgun_defaults(o);
}

const struct pmr_sim_stats *
pmr_sim_stats(const struct pmr_sim *s)
{
	return &s->st;
}

const struct pmr_sim_config *
pmr_sim_config(const struct pmr_sim *s)
{
	return &s->c;
}

const struct pmr_sim_opts *
pmr_sim_opts(const struct pmr_sim *s)
{
	return &s->o;
}

const char *
pmr_sim_errmsg(const struct pmr_sim *s)
{
	return s->errmsg;
}

void
pmr_sim_set_writer(struct pmr_sim *s, struct pmr_writer *w)
{
	s->w = w;
}

void
pmr_sim_set_hook(struct pmr_sim *s,
    void (*fn)(void *, uint32_t, const void *), void *arg)
{
	s->hook = fn;
	s->hookarg = arg;
	s->gn = s->gpos != NULL || fn != NULL;
}

void
pmr_sim_free(struct pmr_sim *s)
{
	int i;

	if (s == NULL)
		return;
	free(s->e);
	free(s->ew);
	free(s->fready);
	pmr_sim_cache_fini(&s->dib);
	free(s->ec);
	free(s->eu);
	free(s->eg);
	free(s->rpl);
	free(s->ready);
	free(s->soon);
	free(s->node);
	for (i = 0; i < P_N; i++)
		free(s->fu[i]);
	free(s->ras);
	free(s->ras_pcx);
	pmr_sim_cache_fini(&s->l1i);
	pmr_sim_cache_fini(&s->l1d);
	pmr_sim_cache_fini(&s->l2);
	pmr_sim_cache_fini(&s->l3);
	pmr_sim_cache_fini(&s->itlb);
	pmr_sim_cache_fini(&s->dtlb);
	pmr_sim_bpred_fini(&s->bp);
	free(s->mshr_line);
	free(s->mshr_fill);
	free(s->mshr_pos);
	free(s->gpos);
	free(s->gseq);
	pmr_sim_shotgun_free(s->sg);
	free(s->dram_open);
	free(s->lr);
	free(s->lq_at);
	free(s->lq_pcx);
	free(s->pages);
	free(s->pt);
	free(s->last_addr);
	free(s->tr_raw);
	free(s->at);
	free(s->ph);
	free(s->idx);
	free(s->cr);
	free(s->q);
	free(s->ps);
	free(s->pp);
	free(s->minor);
	free(s->minor_pos);
	free(s);
}

static unsigned
log2u(uint64_t v)
{
	unsigned n = 0;

	while (v > 1) {
		v >>= 1;
		n++;
	}
	return n;
}

struct pmr_sim *
pmr_sim_new(const struct pmr_sim_config *c, const struct pmr_sim_opts *o,
    int *err)
{
	struct pmr_sim *s;
	char msg[128];
	uint32_t i, ws;
	int e = PMR_ENOMEM;

	if ((s = zalloc64(sizeof(*s))) == NULL) {
		*err = PMR_ENOMEM;
		return NULL;
	}
	s->c = *c;
	s->o = *o;
	pmr_sim_config_idealize(&s->c, o->ideal);
	if (pmr_sim_config_check(&s->c, msg, sizeof(msg)) != PMR_OK) {
		free(s);
		*err = PMR_EINVAL;
		return NULL;
	}
	if (s->o.pm_w == 0)
		s->o.pm_w = s->c.rob + s->c.fetchq + s->c.fetch_width *
		    s->c.frontend;
	if (s->o.pm_s == 0)
		s->o.pm_s = 1;
	s->pm_at_fetch = s->o.pm != PMR_SIM_PM_OFF && !s->o.pm_select;
	ws = 64;
	while (ws < s->c.rob + s->c.fetchq + 2 * s->c.fetch_width)
		ws *= 2;
	s->wsize = ws;
	s->wmask = ws - 1;
	s->nwords = ws / 64;
	s->e = zalloc64((size_t)ws * sizeof(*s->e));
	s->ew = zalloc64((size_t)ws * sizeof(*s->ew));
	s->ec = zalloc64((size_t)ws * sizeof(*s->ec));
	s->eu = calloc(ws, sizeof(*s->eu));
	s->eg = calloc(ws, sizeof(*s->eg));
	if (!s->c.wrong_path &&
	    ((s->fready = calloc(ws, sizeof(*s->fready))) == NULL ||
	    pmr_sim_cache_init(&s->dib, DIB_BYTES >> DIB_SHIFT, DIB_WAYS,
	    DIB_SHIFT) != PMR_OK))
		goto bad;
	/* replay deque: a trap moves at most the window, plus the next
	 * instruction, in front of what an earlier trap left there; the
	 * window and the deque together never hold more than wsize + 1 */
	s->rpl = calloc(ws + 2, sizeof(*s->rpl));
	s->ready = calloc(s->nwords, sizeof(*s->ready));
	s->soon = calloc(s->nwords, sizeof(*s->soon));
	s->ncap = ws * 8 + 1024;
	s->node = malloc(s->ncap * sizeof(*s->node));
	if (s->e == NULL || s->ew == NULL || s->ec == NULL ||
	    s->eu == NULL || s->eg == NULL ||
	    s->rpl == NULL || s->ready == NULL ||
	    s->soon == NULL || s->node == NULL)
		goto bad;
	for (i = 0; i < s->ncap; i++)
		s->node[i].next = i + 1 < s->ncap ? (int32_t)(i + 1) : -1;
	s->nfree = 0;
	for (i = 0; i < WHEEL; i++)
		s->wheel[i] = -1;
	s->nfu[P_ALU] = s->c.n_alu;
	s->nfu[P_IMUL] = s->c.n_imul;
	s->nfu[P_FADD] = s->c.n_fadd;
	s->nfu[P_FMUL] = s->c.n_fmul;
	s->nfu[P_MEM] = s->c.n_mem;
	for (i = 0; i < P_N; i++)
		if ((s->fu[i] = calloc(s->nfu[i], sizeof(uint64_t))) == NULL)
			goto bad;
	for (i = 0; i < PMR_OP_NCLASS; i++) {
		s->pool_of[i] = P_ALU;
		s->lat_of[i] = s->c.lat_alu;
	}
	s->pool_of[PMR_OP_IMUL] = s->pool_of[PMR_OP_IDIV] = P_IMUL;
	s->lat_of[PMR_OP_IMUL] = s->c.lat_imul;
	s->lat_of[PMR_OP_IDIV] = s->c.lat_idiv;
	s->pool_of[PMR_OP_FADD] = P_FADD;
	s->lat_of[PMR_OP_FADD] = s->c.lat_fadd;
	s->pool_of[PMR_OP_FMUL] = s->pool_of[PMR_OP_FDIV] = P_FMUL;
	s->lat_of[PMR_OP_FMUL] = s->c.lat_fmul;
	s->lat_of[PMR_OP_FDIV] = s->c.lat_fdiv;
	s->pool_of[PMR_OP_LOAD] = s->pool_of[PMR_OP_STORE] =
	    s->pool_of[PMR_OP_LDST] = P_MEM;
	for (i = 0; i < PMR_OP_NCLASS; i++)
		if (s->lat_of[i] > 255)
			s->lat_of[i] = 255;
	s->iq_int = s->c.iq_int;
	s->iq_fp = s->c.iq_fp;
	s->regs_int = s->c.regs_int;
	s->regs_fp = s->c.regs_fp;
	s->lq = s->c.lq;
	s->sq = s->c.sq;
	s->ras_n = s->c.ras;
	s->ras = calloc(s->ras_n, sizeof(*s->ras));
	s->ras_pcx = calloc(s->ras_n, sizeof(*s->ras_pcx));
	if (s->ras == NULL || s->ras_pcx == NULL)
		goto bad;
	s->lshift = log2u(s->c.line);
	s->fbshift = s->c.fetch_block ? log2u(s->c.fetch_block) : 0;
	s->pshift = log2u(s->c.page);
	if (pmr_sim_cache_init(&s->l1i, s->c.l1i_size / s->c.line,
	    s->c.l1i_assoc, s->lshift) != 0 ||
	    pmr_sim_cache_init(&s->l1d, s->c.l1d_size / s->c.line,
	    s->c.l1d_assoc, s->lshift) != 0 ||
	    pmr_sim_cache_init(&s->l2, s->c.l2_size / s->c.line,
	    s->c.l2_assoc, s->lshift) != 0 ||
	    pmr_sim_cache_init(&s->l3, s->c.l3_size ? s->c.l3_size /
	    s->c.line : 1, s->c.l3_size ? s->c.l3_assoc : 1, s->lshift) != 0 ||
	    pmr_sim_cache_init(&s->itlb, s->c.itlb, s->c.tlb_assoc,
	    s->pshift) != 0 ||
	    pmr_sim_cache_init(&s->dtlb, s->c.dtlb, s->c.tlb_assoc,
	    s->pshift) != 0 ||
	    pmr_sim_bpred_init(&s->bp, &s->c) != 0)
		goto bad;
	s->mshr_line = calloc(s->c.mshr, sizeof(uint64_t));
	s->mshr_fill = calloc(s->c.mshr, sizeof(uint64_t));
	s->mshr_pos = calloc(s->c.mshr, sizeof(uint64_t));
	s->phcap = 4096;
	s->ph = calloc(s->phcap, sizeof(*s->ph));
	s->cr = calloc(CRING, sizeof(*s->cr));
	if (s->mshr_line == NULL || s->mshr_fill == NULL ||
	    s->mshr_pos == NULL || s->ph == NULL || s->cr == NULL)
		goto bad;
	if (s->o.graph || s->o.shotgun) {
		/* fetch distances up to 32 windows: commit distances past
		 * 20 windows (icost's idealized window) do not matter */
		uint64_t m = (uint64_t)ws * 32;

		while (m < (uint64_t)s->c.rob * 20 + ws)
			m *= 2;
		s->gmask = m - 1;
		s->gpos = calloc(m, sizeof(*s->gpos));
		s->gseq = calloc(m, sizeof(*s->gseq));
		if (s->gpos == NULL || s->gseq == NULL)
			goto bad;
	}
	if (s->o.shotgun && (s->sg = pmr_sim_shotgun_new(&s->o, shotgun_emit,
	    s, &e)) == NULL)
		goto bad;
	s->gn = s->gpos != NULL;
	s->ip_reg = s->c.bp == PMR_SIM_BP_CHAMPSIM;
	s->rshift = log2u(s->c.dram_row);
	if (s->c.dram_banks != 0 && (s->dram_open = calloc(s->c.dram_banks,
	    sizeof(*s->dram_open))) == NULL)
		goto bad;
	if (s->o.win_len == 0 || s->o.delta > 65536) {
		e = PMR_EINVAL;
		goto bad;
	}
	if (s->o.truth) {
		uint64_t m = 1;

		while (m < 2ull * s->o.delta + 2)
			m <<= 1;
		s->lrmask = m - 1;
		s->lr = calloc(m, sizeof(*s->lr));
		m = 1;
		while (m < (uint64_t)s->c.retire_width * (s->o.delta + 2))
			m <<= 1;
		s->lqmask = m - 1;
		s->lq_at = calloc(m, sizeof(*s->lq_at));
		s->lq_pcx = calloc(m, sizeof(*s->lq_pcx));
		if (s->lr == NULL || s->lq_at == NULL || s->lq_pcx == NULL)
			goto bad;
	}
	s->psfree = s->pswait = s->ppfree = -1;
	if (s->o.pm == PMR_SIM_PM_PAIRED) {
		uint32_t m = 1;

		if (s->o.pm_w > 65536) {
			e = PMR_EINVAL;
			goto bad;
		}
		while (m <= s->o.pm_w)
			m *= 2;
		s->minor_mask = m - 1;
		s->minor = calloc(m, sizeof(*s->minor));
		s->minor_pos = calloc(m, sizeof(*s->minor_pos));
		if (s->minor == NULL || s->minor_pos == NULL)
			goto bad;
	}
	seed_rng(s, s->o.seed);
	s->last_pcx = NONE32;
	return s;
bad:
	pmr_sim_free(s);
	*err = e;
	return NULL;
}

/*
 * After an idle cycle (nothing resolved, retired, issued, mapped or
 * fetched, and nothing ready), returns the next cycle at which anything
 * can happen: a fetch stall ending, a fetch-queue entry reaching map, the
 * head becoming ready to retire, a wheel bucket, a redirect, a sample's
 * load data, a baseline sampler's cycle event.  Returns now + 1 when it
 * cannot tell.
 */
static uint64_t
next_event(struct pmr_sim *s)
{
	uint64_t t = s->now + CRING / 2, c, i;
	int32_t k;

#define SOON(x) do { if ((x) < t) t = (x); } while (0)
	if (s->o.noskip || (s->o.pm_select == 1 && s->measuring))
		return s->now + 1;
	for (i = 0; i < s->nwords; i++)
		if (s->ready[i] != 0)
			return s->now + 1;
	/* fetch: a time stall ends, or a state block lifts on its own
	 * only through other events */
	if (s->now + 1 < s->fetch_at)
		SOON(s->fetch_at);
	else if (!(s->tail - s->map >= s->c.fetchq) &&
	    !(s->tail - s->head >= s->wsize) &&
	    (s->wrongpath ? !s->wp_stuck && s->c.wrong_path :
	    !s->src_done || s->have_nxt || s->rpl_n > 0))
		return s->now + 1;
	if (s->mo_pending)
		return s->now + 1;
	if (s->map != s->tail) {
		c = s->e[s->map & s->wmask].F + s->c.frontend;
		if (s->fready != NULL)
			c = fe_map_at(s, c);
		if (c > s->now)
			SOON(c);
		else if (s->map_why < 0)
			return s->now + 1;
	}
	if (s->head != s->map && (s->e[s->head & s->wmask].flags & E_ISSUED))
		SOON(s->e[s->head & s->wmask].RR);
	if (s->res_pending && s->res_at != ~0ull)
		SOON(s->res_at);
	for (k = s->pswait; k >= 0; k = s->ps[k].next)
		SOON(s->ps[k].done_at);
	if (s->measuring && s->bs_cycles)
		SOON(s->now + s->bs_left);
	if (s->bs_pending)
		SOON(s->bs_fire_at);
	if (s->pm_armed && s->pm_arm_at > s->now)
		SOON(s->pm_arm_at);
	for (c = s->now + 1; c < t && c < s->now + WHEEL; c++)
		if (s->wheel[c & (WHEEL - 1)] >= 0) {
			t = c;
			break;
		}
#undef SOON
	return t > s->now ? t : s->now + 1;
}

/*
 * Jumps over the idle cycles now+1 .. to-1, counting for each what the
 * stages would have counted: stall reasons, the time-proportional charge
 * and the baseline samplers' cycle counters.
 */
static void
skip_to(struct pmr_sim *s, uint64_t to)
{
	uint64_t k = to - s->now - 1;

	if (k == 0)
		return;
	s->skipped += k;
	if (s->measuring) {
		if (s->now + 1 < s->fetch_at) {
			switch (s->fetch_why) {
			case PMR_SIM_ST_ICACHE:
				s->st.st_icache += k;
				break;
			default:
				s->st.st_redirect += k;
				break;
			}
		} else if (s->tail - s->map >= s->c.fetchq)
			s->st.st_fetchq += k;
		switch (s->map_why) {
		case PMR_SIM_ST_ROB:
			s->st.st_rob += k;
			break;
		case PMR_SIM_ST_IQ:
			s->st.st_iq += k;
			break;
		case PMR_SIM_ST_REGS:
			s->st.st_regs += k;
			break;
		case PMR_SIM_ST_LSQ:
			s->st.st_lsq += k;
			break;
		}
		if (s->bs_cycles)
			s->bs_left -= k;
		if (s->o.truth) {
			if (s->head != s->tail)
				s->pt[s->e[s->head & s->wmask].pcx].tp +=
				    k * TP_UNIT;
			else if (s->last_pcx != NONE32)
				s->pt[s->last_pcx].tp += k * TP_UNIT;
			else
				s->tp_pending += k * TP_UNIT;
		}
	}
	s->now += k;
}

/* Returns 1 while anything is still in flight or pending. */
static int
busy(const struct pmr_sim *s)
{
	return s->head != s->tail || s->pswait >= 0 || s->res_pending ||
	    s->mo_pending;
}

int
pmr_sim_run(struct pmr_sim *s, int (*src)(void *, struct pmr_dinsn *),
    void *arg)
{
	uint32_t i;

	s->src = src;
	s->srcarg = arg;
	if (s->o.warmup == 0)
		measure_start(s);
	for (;;) {
		uint64_t h0 = s->head, m0 = s->map, t0 = s->tail;
		uint64_t i0 = s->nissued, n0 = s->st.samples + s->st.pairs;
		int r0 = s->res_pending;

		if (s->mo_pending && s->now >= s->mo_at)
			mo_trap(s);
		if (s->res_pending && s->now >= s->res_at)
			resolve(s);
		retire(s);
		if (s->stop || s->err)
			break;
		if (s->pswait >= 0)
			ps_poll(s);
		issue(s);
		map(s);
		fetch(s);
		if (s->o.truth)
			useful_advance(s, 0);
		if (s->err)
			break;
		if (s->src_done && !s->have_nxt && s->rpl_n == 0 && !busy(s))
			break;
		if (s->src_done && s->head == s->tail && s->res_pending &&
		    s->res_at == ~0ull)
			s->res_pending = 0;	/* the branch was the last */
		/* one test, not six branches */
		if ((s->head == h0) & (s->map == m0) & (s->tail == t0) &
		    (s->nissued == i0) & (s->res_pending == r0) &
		    (s->st.samples + s->st.pairs == n0))
			skip_to(s, next_event(s));
		s->now++;
	}
	if (s->err)
		return s->err;
	/* instructions left in flight by --max are not counted */
	while (s->tail > s->head) {
		uint64_t k = --s->tail;
		struct ent *e = &s->e[k & s->wmask];

		abort_ent(s, e, PMR_SIM_TRAP_END);
	}
	while (s->pswait >= 0) {
		int32_t k = s->pswait;

		s->pswait = s->ps[k].next;
		s->st.dropped++;
		ps_free(s, (uint32_t)k + 1);
	}
	if (s->minor != NULL)	/* pairs whose second member never came */
		for (i = 0; i <= s->minor_mask; i++)
			s->st.dropped += s->minor[i] != 0;
	if (s->o.truth)
		useful_advance(s, 1);
	if (!s->measuring)	/* the warm-up took the whole trace */
		measure_start(s);
	else if (s->o.truth) {	/* nothing retires after the end */
		uint64_t c, end = s->lr_upto + s->o.delta;

		for (c = s->lr_upto + 1; c <= end; c++) {
			s->lr[c & s->lrmask] = s->lr_cum;
			local_drain(s, c);
		}
	}
	{
		emit_stats(s, 1);
		if (s->o.truth)
			for (i = 0; i < s->npt; i++) {
				struct pmr_sim_truth *t = &s->tr[i].t;

				if (t->fetched == 0 && t->retired == 0)
					continue;
				t->wasted = (int64_t)(s->c.issue_width *
				    t->inprog) - (int64_t)t->useful;
				t->tp_cycles = (double)s->pt[i].tp / TP_UNIT;
				emit(s, PMR_REC_TRUTH, t);
			}
		if (s->o.truth)
			atruth_emit(s);
	}
	return s->err;
}
