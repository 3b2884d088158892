/*
 * test_shotgun.c: unit tests of lib/shotgun/shotgun.c on a program,
 * signature and detailed samples built here: a walk that meets an
 * indirect jump no sample names starts again at an anchor (--resync),
 * exactly where the hand-worked context says, and nowhere when the anchor
 * is ambiguous, too thinly sampled, or leaves too short a tail; what a
 * walk built before it stopped kept as a piece (--pieces); a pc
 * without samples has its stand-in drawn among its class's samples with
 * its own bits, not matched by context; a producer before the fragment
 * is the sample's own distance; a partial miss waits for the latest
 * full miss within the ROB, else has a full miss's cycles.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shotgun/shotgun.h"
#include "sim/sim.h"
#include "unit.h"

/*
 * The program: four ints at 0x1000, an indirect jump at 0x1010, and 40
 * instructions from 0x2000, ints but for two loads at 0x2010 and 0x2014.
 * The signature (45 instructions, no prefix) runs 0x1000 .. 0x1010, then
 * 0x2000 .. 0x209c: positions 0-3 ints (0,0), 4 the jump, taken (b1),
 * 5 + k the instruction at 0x2000 + 4k, the loads at positions 9 and 10
 * hitting (b1).  With ctx 2 the window of position p is positions p - 2
 * .. p + 2, p - 2 lowest: position 10's is b1 at 9 and 10, 0x14, and no
 * other position's is (9: 0x50, 11: 0x05, 8: 0x140, 4: 0x10).
 */
enum { SIGLEN = 45, TAIL0 = 10 };

static void
program(struct pmr_shotgun *g)
{
	struct pmr_sinsn si;
	unsigned k;

	memset(&si, 0, sizeof(si));
	si.len = 4;
	for (k = 0; k < 5; k++) {
		si.pc = 0x1000 + 4 * k;
		si.cls = k < 4 ? PMR_OP_INT : PMR_OP_JMP_IND;
		CHECK_EQ(pmr_shotgun_add_insn(g, &si), 0);
	}
	for (k = 0; k < 40; k++) {
		si.pc = 0x2000 + 4 * k;
		si.cls = k == 4 || k == 5 ? PMR_OP_LOAD : PMR_OP_INT;
		si.nmem = si.nload = si.cls == PMR_OP_LOAD;
		CHECK_EQ(pmr_shotgun_add_insn(g, &si), 0);
	}
}

/* A signature of len instructions from start_pc, no prefix: bits, nb
 * bytes of them. */
static void
add_sig(struct pmr_shotgun *g, uint64_t start_pc, uint32_t len,
    const unsigned char *bits, size_t nb)
{
	struct pmr_sim_sig s;

	memset(&s, 0, sizeof(s));
	s.seq = 1000;
	s.start_pc = start_pc;
	s.len = len;
	s.bits.p = bits;
	s.bits.n = (uint32_t)nb;
	CHECK_EQ(pmr_shotgun_add_sig(g, &s), 0);
}

static void
signature(struct pmr_shotgun *g)
{
	static unsigned char bits[(SIGLEN + 3) / 4];
	unsigned j;

	memset(bits, 0, sizeof(bits));
	for (j = 0; j < SIGLEN; j++)
		if (j == 4 || j == 9 || j == 10)
			bits[j / 4] |= (unsigned char)(1u << (2 * (j % 4)));
	add_sig(g, 0x1000, SIGLEN, bits, sizeof(bits));
}

/* A DET of the load at pc with context window sig of +-ctx. */
static void
det_ctx(struct pmr_shotgun *g, uint64_t pc, uint64_t sig, uint64_t seq,
    unsigned ctx)
{
	struct pmr_sim_det d;

	memset(&d, 0, sizeof(d));
	d.seq = seq;
	d.pc = pc;
	d.cls = PMR_OP_LOAD;
	d.ctx = (uint8_t)ctx;
	d.sig = sig;
	d.ep_fu = 1;
	d.ep_mem = 3;
	CHECK_EQ(pmr_shotgun_add_det(g, &d), 0);
}

/* A DET of the load at pc with context window sig (ctx 2). */
static void
det(struct pmr_shotgun *g, uint64_t pc, uint64_t sig, uint64_t seq)
{
	det_ctx(g, pc, sig, seq, 2);
}

/* The tests' options: fragments, +-2 context, both bits, the
 * look-ahead, seed 1. */
static struct pmr_shotgun_opts
opts(unsigned fragments)
{
	struct pmr_shotgun_opts so;

	memset(&so, 0, sizeof(so));
	so.fragments = fragments;
	so.ctx = 2;
	so.bits = 2;
	so.lookahead = 64;
	so.seed = 1;
	return so;
}

/* A builder for fields03 with options so (the test cannot go on
 * without it). */
static struct pmr_shotgun *
builder(const struct pmr_shotgun_opts *so)
{
	struct pmr_sim_config c;
	struct pmr_shotgun *g;
	int err = 0;

	CHECK_EQ(pmr_sim_config_preset(&c, "fields03"), 0);
	g = pmr_shotgun_new(so, &c, &err);
	CHECK(g != NULL);
	if (g == NULL)
		exit(1);
	return g;
}

struct got {
	unsigned n, bad;
	uint64_t frags;
};

/* Each node must be the tail's: pc 0x2014 + 4 pos, fragments of 35. */
static int
collect(void *arg, const struct pmr_sim_gnode *n, uint64_t frag, uint32_t pos)
{
	struct got *o = arg;

	o->n++;
	if (n->pc != 0x2000 + 4 * (TAIL0 - 5 + (uint64_t)pos) ||
	    pos >= SIGLEN - TAIL0)
		o->bad++;
	if (frag + 1 > o->frags)
		o->frags = frag + 1;
	return 0;
}

/* Builds 3 fragments with resync percent; dets: 0 the two DETs of
 * 0x2014 at position 10's window, 1 only one of them, 2 the two and one
 * of 0x2010 with the same window, 3 the two of resync_anchor_ctx (ctx
 * 12; else 2). */
static const struct pmr_shotgun_stats *
run(struct pmr_shotgun **gp, uint32_t resync, int dets, struct got *o,
    uint32_t warm)
{
	struct pmr_shotgun_opts so = opts(3);
	struct pmr_shotgun *g;

	so.ctx = dets == 3 ? 12 : 2;
	so.resync = resync;
	so.warm = warm;
	g = builder(&so);
	program(g);
	signature(g);
	if (dets == 3) {
		det_ctx(g, 0x2014, 0x140100ull << 4 | 0x1, 500, 12);
		det_ctx(g, 0x2014, 0x140100ull << 4 | 0x4, 700, 12);
	} else {
		det(g, 0x2014, 0x14, 500);
		if (dets != 1)
			det(g, 0x2014, 0x14, 700);
		if (dets == 2)
			det(g, 0x2010, 0x14, 900);
	}
	memset(o, 0, sizeof(*o));
	CHECK_EQ(pmr_shotgun_build(g, collect, o), 0);
	*gp = g;
	return pmr_shotgun_stats(g);
}

/*
 * The anchor at position 10: every fragment the tail from it, 35 nodes.
 * Three fragments are asked for in nodes past the warm-up: with none,
 * 3 x 45 = 135 nodes, so four tails (140); past 10, 3 x 35 = 105 where a
 * tail counts 25, so five (125).
 */
UNIT_TEST(resync_anchor)
{
	static const struct {
		uint32_t warm, tails;
	} t[] = { { 0, 4 }, { 10, 5 } };
	const struct pmr_shotgun_stats *st;
	struct pmr_shotgun *g;
	struct got o;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		st = run(&g, 50, 0, &o, t[i].warm);
		CHECK_EQ(st->kept, t[i].tails);
		CHECK_EQ(st->tried, t[i].tails);
		CHECK_EQ(st->resyncs, t[i].tails);
		CHECK_EQ(st->resync_kept, t[i].tails);
		CHECK_EQ(st->kept_whole, 0);
		CHECK_EQ(st->truncated, 0);
		CHECK_EQ(st->worth, 3);
		CHECK_EQ(st->nodes, t[i].tails * (SIGLEN - TAIL0));
		CHECK_EQ(o.n, t[i].tails * (SIGLEN - TAIL0));
		CHECK_EQ(o.frags, t[i].tails);
		CHECK_EQ(o.bad, 0);
		pmr_shotgun_free(g);
	}
}

/* No anchor: without --resync the walk aborts at the jump, every try; a
 * window two pcs' DETs share, or one DET alone, is no anchor; nor is one
 * that leaves less than resync percent (position 10 of 45 leaves 78%). */
UNIT_TEST(resync_none)
{
	static const struct {
		uint32_t resync;
		int dets;
	} t[] = { { 0, 0 }, { 50, 2 }, { 50, 1 }, { 80, 0 } };
	const struct pmr_shotgun_stats *st;
	struct pmr_shotgun *g;
	struct got o;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		st = run(&g, t[i].resync, t[i].dets, &o, 0);
		CHECK_EQ(st->kept, 0);
		CHECK_EQ(st->worth, 0);
		CHECK_EQ(st->resyncs, 0);
		CHECK_EQ(st->aborted[PMR_SG_NOTARGET], st->tried);
		CHECK(st->tried > 3);
		CHECK_EQ(o.n, 0);
		pmr_shotgun_free(g);
	}
	/* 77% is enough: the tail is 35 of 45 */
	st = run(&g, 77, 0, &o, 0);
	CHECK_EQ(st->resync_kept, 4);
	pmr_shotgun_free(g);
}

/*
 * An anchor compares +-10 at most, however wide the match (--ctx 12
 * here).  Position 10's +-10 window (positions 0 .. 20, 0 lowest: b1 at
 * 4, 9 and 10) is 0x140100; the two DETs of 0x2014 have it in the middle
 * of their +-12 and differ in the outer positions (-12 and -11): the
 * anchor at position 10 as with ctx 2, each fragment the tail from it.
 * Compared over +-12, as before 2026-11-29, no two DETs shared a window
 * and the walk never started again.
 */
UNIT_TEST(resync_anchor_ctx)
{
	const struct pmr_shotgun_stats *st;
	struct pmr_shotgun *g;
	struct got o;

	st = run(&g, 50, 3, &o, 0);
	CHECK_EQ(st->kept, 4);
	CHECK_EQ(st->resync_kept, 4);
	CHECK_EQ(st->kept_whole, 0);
	CHECK_EQ(o.n, 4 * (SIGLEN - TAIL0));
	CHECK_EQ(o.bad, 0);
	pmr_shotgun_free(g);
}

/* The nodes of --pieces' fragments: the head piece's (0x1000 + 4 pos,
 * the 4 ints before the jump) or the tail's from the anchor. */
struct pieces_got {
	unsigned heads, tails, bad;
	uint64_t last;
	uint32_t len;
};

static void
pieces_end(struct pieces_got *o)
{
	if (o->len == 4)
		o->heads++;
	else if (o->len == SIGLEN - TAIL0)
		o->tails++;
	else if (o->len != 0)
		o->bad++;
	o->len = 0;
}

static int
pieces_node(void *arg, const struct pmr_sim_gnode *n, uint64_t frag,
    uint32_t pos)
{
	struct pieces_got *o = arg;

	if (pos == 0)
		pieces_end(o);
	if (frag != o->last && pos != 0)
		o->bad++;
	o->last = frag;
	o->len++;
	if (n->pc >= 0x2000 ? n->pc != 0x2000 + 4 * (TAIL0 - 5 +
	    (uint64_t)pos) : n->pc != 0x1000 + 4 * (uint64_t)pos || pos >= 4)
		o->bad++;
	return 0;
}

static const struct pmr_shotgun_stats *
run_pieces(struct pmr_shotgun **gp, uint32_t resync, uint32_t pieces,
    struct pieces_got *o)
{
	struct pmr_shotgun_opts so = opts(3);
	struct pmr_shotgun *g;

	so.resync = resync;
	so.pieces = pieces;
	g = builder(&so);
	program(g);
	signature(g);
	det(g, 0x2014, 0x14, 500);
	det(g, 0x2014, 0x14, 700);
	memset(o, 0, sizeof(*o));
	o->last = UINT64_MAX;
	CHECK_EQ(pmr_shotgun_build(g, pieces_node, o), 0);
	pieces_end(o);
	*gp = g;
	return pmr_shotgun_stats(g);
}

/*
 * --pieces: the walk stops at the jump no sample names (position 4),
 * after the 4 ints, which agreed with the signature.  With pieces 4 (no
 * warm-up) those 4 are a piece, and the window goes on in the next try
 * from the anchor at position 10, its 35-node tail: 135 nodes asked for
 * (3 x 45) come as 4 heads and 4 tails, 156 nodes.  With 5 the head is
 * too short and the tails come alone, as without pieces (4, 140 nodes);
 * and a tail of 35 of 45, under --resync 80, is kept for the room it
 * leaves a piece (resync_none: not without).
 */
UNIT_TEST(pieces)
{
	static const struct {
		uint32_t resync, pieces;
		unsigned heads, tails;
	} t[] = { { 50, 4, 4, 4 }, { 50, 5, 0, 4 }, { 80, 5, 0, 4 },
	    { 80, 4, 4, 4 }, { 0, 4, 4, 4 } };
	const struct pmr_shotgun_stats *st;
	struct pmr_shotgun *g;
	struct pieces_got o;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		st = run_pieces(&g, t[i].resync, t[i].pieces, &o);
		CHECK_EQ(o.bad, 0);
		CHECK_EQ(o.heads, t[i].heads);
		CHECK_EQ(o.tails, t[i].tails);
		CHECK_EQ(st->kept, t[i].heads + t[i].tails);
		CHECK_EQ(st->pieces, t[i].heads);
		CHECK_EQ(st->resync_kept, t[i].tails);
		CHECK_EQ(st->kept_whole, 0);
		CHECK_EQ(st->truncated, 0);
		CHECK_EQ(st->nodes, 4 * t[i].heads + (SIGLEN - TAIL0) *
		    t[i].tails);
		CHECK_EQ(st->aborted[PMR_SG_NOTARGET], t[i].heads);
		pmr_shotgun_free(g);
	}
}

/*
 * Stand-ins.  A straight path of 20 instructions from 0x3000, ints but
 * for a load at 0x3020 (position 8, b1: a hit) that has no sample; three
 * loads off the path, each sampled once: A (0x4000) a hit with the
 * path's own context at position 8 (ctx 2: b1 at the middle alone,
 * 0x10) and ep_mem 3, B (0x4004) a hit with another context (b1 two
 * before too, 0x11) and ep_mem 50, C (0x4008) the path's context but a
 * miss (b1 b2, 0x30) and ep_mem 90.  The unsampled load's stand-in is
 * drawn among the class's samples with its own bits, whatever their
 * context: A or B, each about half the time, never C (matched by
 * context, as before 2026-11-29, it was A every time).
 */
enum { SLEN = 20, SPOS = 8, SFRAGS = 400 };

struct standin {
	unsigned a, b, other;
};

static int
standin_node(void *arg, const struct pmr_sim_gnode *n, uint64_t frag,
    uint32_t pos)
{
	struct standin *o = arg;

	(void)frag;
	if (pos != SPOS)
		return 0;
	if (n->pc == 0x3000 + 4 * SPOS && n->ep_mem == 3)
		o->a++;
	else if (n->pc == 0x3000 + 4 * SPOS && n->ep_mem == 50)
		o->b++;
	else
		o->other++;
	return 0;
}

UNIT_TEST(standin_drawn)
{
	static unsigned char bits[(SLEN + 3) / 4];
	static const struct {
		uint64_t pc, sig;
		uint16_t ep_mem;
	} d[] = { { 0x4000, 0x10, 3 }, { 0x4004, 0x11, 50 },
	    { 0x4008, 0x30, 90 } };
	struct pmr_shotgun_opts so;
	struct pmr_shotgun *g;
	struct pmr_sinsn si;
	struct pmr_sim_det dt;
	struct standin o;
	unsigned k;

	so = opts(SFRAGS);
	g = builder(&so);
	memset(&si, 0, sizeof(si));
	si.len = 4;
	for (k = 0; k < SLEN + 3; k++) {
		si.pc = k < SLEN ? 0x3000 + 4 * k : 0x4000 + 4 * (k - SLEN);
		si.cls = k == SPOS || k >= SLEN ? PMR_OP_LOAD : PMR_OP_INT;
		si.nmem = si.nload = si.cls == PMR_OP_LOAD;
		CHECK_EQ(pmr_shotgun_add_insn(g, &si), 0);
	}
	memset(bits, 0, sizeof(bits));
	bits[SPOS / 4] |= (unsigned char)(1u << (2 * (SPOS % 4)));
	add_sig(g, 0x3000, SLEN, bits, sizeof(bits));
	for (k = 0; k < sizeof(d) / sizeof(d[0]); k++) {
		memset(&dt, 0, sizeof(dt));
		dt.seq = 500 + 100 * k;
		dt.pc = d[k].pc;
		dt.cls = PMR_OP_LOAD;
		dt.ctx = 2;
		dt.sig = d[k].sig;
		dt.ep_fu = 1;
		dt.ep_mem = d[k].ep_mem;
		if (d[k].sig & 0x20)
			dt.events = PMR_SIM_EV_DCACHE_MISS;
		CHECK_EQ(pmr_shotgun_add_det(g, &dt), 0);
	}
	memset(&o, 0, sizeof(o));
	CHECK_EQ(pmr_shotgun_build(g, standin_node, &o), 0);
	CHECK_EQ(pmr_shotgun_stats(g)->kept, SFRAGS);
	CHECK_EQ(o.a + o.b, SFRAGS);
	CHECK_EQ(o.other, 0);
	/* binomial(400, 1/2): 200 +- 10; 5 standard deviations */
	CHECK(o.a >= 150 && o.a <= 250);
	pmr_shotgun_free(g);
}

/*
 * Producers before the fragment.  A straight path of 8 instructions from
 * 0x5000, ints but for a load at position 4 (b1: a hit); the registers:
 * 0 reads r1, 1 writes r2, 2 reads r2 and r3, 3 reads r2, 4 (the load)
 * reads r2, 5 reads r4; r1, r3 and r4 are written before the fragment.
 * Each of 0, 2, 3, 4 and 5 has one DET, whose register producers are its
 * own instance's.  A source written before the fragment takes the DET's
 * distance that reaches further back than its position (0: 7; 2: 9
 * beside the fragment's 1), one source one distance; a source the
 * fragment writes keeps the fragment's distance and takes none of the
 * DET's (3: 2, not the DET's 40; 4: 3, not 25); a DET's distance within
 * the fragment that its dataflow does not give is not taken (5: 3, r4
 * unwritten, none).  The load's forwarding store 30 back is kept; icost
 * --chain reads such an edge, and icost without it drops it, as the
 * paper's fragments do.
 */
enum { PLEN = 8 };

static int
before_node(void *arg, const struct pmr_sim_gnode *n, uint64_t frag,
    uint32_t pos)
{
	struct pmr_sim_gnode *o = arg;

	if (frag == 0 && pos < PLEN)
		o[pos] = *n;
	return 0;
}

/* The first MLEN nodes of the first fragment (partial_merge). */
static int
before_node_m(void *arg, const struct pmr_sim_gnode *n, uint64_t frag,
    uint32_t pos)
{
	struct pmr_sim_gnode *o = arg;

	if (frag == 0 && pos < 80)
		o[pos] = *n;
	return 0;
}

UNIT_TEST(producers_before)
{
	static unsigned char bits[(PLEN + 3) / 4];
	static const struct {
		unsigned nsrc, src[2], ndst, dst;
	} r[PLEN] = { { 1, { 1 }, 0, 0 }, { 0, { 0 }, 1, 2 },
	    { 2, { 2, 3 }, 0, 0 }, { 1, { 2 }, 0, 0 }, { 1, { 2 }, 0, 0 },
	    { 1, { 4 }, 0, 0 }, { 0, { 0 }, 0, 0 }, { 0, { 0 }, 0, 0 } };
	/* the DETs: position, context (ctx 2), register producers, store */
	static const struct {
		unsigned pos;
		uint64_t sig;
		uint32_t a, b, mem;
	} d[] = { { 0, 0, 7, 0, 0 }, { 2, 0x100, 1, 9, 0 },
	    { 3, 0x40, 40, 0, 0 }, { 4, 0x10, 25, 0, 30 },
	    { 5, 0x4, 3, 0, 0 } };
	/* what the fragment's nodes hold: a, b, c, pr_mem */
	static const uint32_t want[PLEN][4] = { { 7, 0, 0, 0 },
	    { 0, 0, 0, 0 }, { 1, 9, 0, 0 }, { 2, 0, 0, 0 }, { 3, 0, 0, 30 },
	    { 0, 0, 0, 0 }, { 0, 0, 0, 0 }, { 0, 0, 0, 0 } };
	struct pmr_sim_gnode got[PLEN];
	struct pmr_shotgun_opts so;
	struct pmr_shotgun *g;
	struct pmr_sinsn si;
	struct pmr_sim_det dt;
	unsigned k;

	so = opts(1);
	g = builder(&so);
	for (k = 0; k < PLEN; k++) {
		memset(&si, 0, sizeof(si));
		si.len = 4;
		si.pc = 0x5000 + 4 * k;
		si.cls = k == 4 ? PMR_OP_LOAD : PMR_OP_INT;
		si.nmem = si.nload = k == 4;
		si.nsrc = (uint8_t)r[k].nsrc;
		si.src[0] = (uint16_t)r[k].src[0];
		si.src[1] = (uint16_t)r[k].src[1];
		si.ndst = (uint8_t)r[k].ndst;
		si.dst[0] = (uint16_t)r[k].dst;
		CHECK_EQ(pmr_shotgun_add_insn(g, &si), 0);
	}
	memset(bits, 0, sizeof(bits));
	bits[4 / 4] |= (unsigned char)(1u << (2 * (4 % 4)));
	add_sig(g, 0x5000, PLEN, bits, sizeof(bits));
	for (k = 0; k < sizeof(d) / sizeof(d[0]); k++) {
		memset(&dt, 0, sizeof(dt));
		dt.seq = 500 + 100 * k;
		dt.pc = 0x5000 + 4 * d[k].pos;
		dt.cls = d[k].pos == 4 ? PMR_OP_LOAD : PMR_OP_INT;
		dt.ctx = 2;
		dt.sig = d[k].sig;
		dt.ep_fu = 1;
		dt.ep_mem = d[k].pos == 4 ? 3 : 0;
		dt.pr_reg_a = d[k].a;
		dt.pr_reg_b = d[k].b;
		dt.pr_mem = d[k].mem;
		CHECK_EQ(pmr_shotgun_add_det(g, &dt), 0);
	}
	memset(got, 0, sizeof(got));
	CHECK_EQ(pmr_shotgun_build(g, before_node, got), 0);
	CHECK_EQ(pmr_shotgun_stats(g)->kept, 1);
	for (k = 0; k < PLEN; k++) {
		CHECK_EQ(got[k].pc, 0x5000 + 4 * k);
		CHECK_EQ(got[k].pr_reg_a, want[k][0]);
		CHECK_EQ(got[k].pr_reg_b, want[k][1]);
		CHECK_EQ(got[k].pr_reg_c, want[k][2]);
		CHECK_EQ(got[k].pr_mem, want[k][3]);
	}
	pmr_shotgun_free(g);
}

/*
 * A straight line of len instructions from pc0, ints but for the loads
 * at pos[0 .. nl), whose signature bits are lb[k] (the others 00), and
 * its signature (partial_merge, level_graft).
 */
static void
load_line(struct pmr_shotgun *g, uint64_t pc0, unsigned len,
    const unsigned *pos, const unsigned *lb, unsigned nl,
    unsigned char *bits, size_t nb)
{
	struct pmr_sinsn si;
	unsigned k, j;

	memset(bits, 0, nb);
	for (k = 0; k < len; k++) {
		int load = 0;

		for (j = 0; j < nl; j++)
			if (pos[j] == k) {
				load = 1;
				bits[k / 4] |= (unsigned char)(lb[j] <<
				    (2 * (k % 4)));
			}
		memset(&si, 0, sizeof(si));
		si.len = 4;
		si.pc = pc0 + 4 * k;
		si.cls = load ? PMR_OP_LOAD : PMR_OP_INT;
		si.nmem = si.nload = (uint8_t)load;
		CHECK_EQ(pmr_shotgun_add_insn(g, &si), 0);
	}
	add_sig(g, pc0, len, bits, nb);
}

/* A load's DET (ctx 2) at pc with own bits own and events ev: an L1-D
 * miss of miss cycles, partial with distance pp if partial. */
static void
load_det(struct pmr_shotgun *g, uint64_t seq, uint64_t pc, unsigned own,
    uint32_t ev, unsigned miss, unsigned partial, unsigned pp)
{
	struct pmr_sim_det dt;

	memset(&dt, 0, sizeof(dt));
	dt.seq = seq;
	dt.pc = pc;
	dt.cls = PMR_OP_LOAD;
	dt.ctx = 2;
	dt.sig = (uint64_t)own << 4;
	dt.events = ev;
	dt.ep_fu = 1;
	dt.ep_mem = 3;
	dt.ep_miss = (uint16_t)miss;
	dt.partial = (uint8_t)partial;
	dt.pp = pp;
	CHECK_EQ(pmr_shotgun_add_det(g, &dt), 0);
}

/*
 * Partial misses (GNODE partial, ep_miss 0: a wait for a miss in flight,
 * the PP edge) on a straight line of MLEN ints and four loads, each an
 * L1-D miss (b1 b2 = 11), one DET a load (ctx 2, own bits 11 at bits 4
 * and 5: 0x30): a full miss at position 2 (12 cycles); at 5 a partial
 * miss whose distance 1 is an int (no miss): made to wait for position
 * 2, distance 3; at 7 one whose distance 2 is the load at 5, a miss: left
 * as it is; at 70 one whose distance 1 is an int, the latest full miss 68
 * back, out of fields03's 64-entry ROB: given the full miss's cycles.
 */
enum { MLEN = 80 };

UNIT_TEST(partial_merge)
{
	static unsigned char bits[(MLEN + 3) / 4];
	/* the loads and their signature bits; their DETs */
	static const unsigned pos[] = { 2, 5, 7, 70 }, lb[] = { 3, 3, 3, 3 };
	static const struct {
		unsigned partial, pp, miss;
	} d[] = { { 0, 0, 12 }, { 1, 1, 0 }, { 1, 2, 0 }, { 1, 1, 0 } };
	/* position, partial, pp, ep_miss of the fragment's nodes */
	static const unsigned want[][4] = { { 2, 0, 0, 12 }, { 5, 1, 3, 0 },
	    { 7, 1, 2, 0 }, { 70, 0, 0, 12 } };
	static struct pmr_sim_gnode got[MLEN];
	const struct pmr_shotgun_stats *st;
	struct pmr_shotgun_opts so;
	struct pmr_shotgun *g;
	unsigned j;

	so = opts(1);
	g = builder(&so);
	load_line(g, 0x6000, MLEN, pos, lb, 4, bits, sizeof(bits));
	for (j = 0; j < sizeof(d) / sizeof(d[0]); j++)
		load_det(g, 500 + 100 * j, 0x6000 + 4 * pos[j], 3,
		    PMR_SIM_EV_DCACHE_MISS, d[j].miss, d[j].partial, d[j].pp);
	memset(got, 0, sizeof(got));
	CHECK_EQ(pmr_shotgun_build(g, before_node_m, got), 0);
	st = pmr_shotgun_stats(g);
	CHECK_EQ(st->kept, 1);
	CHECK_EQ(st->merged, 1);
	CHECK_EQ(st->unmerged, 1);
	for (j = 0; j < sizeof(want) / sizeof(want[0]); j++) {
		const struct pmr_sim_gnode *n = &got[want[j][0]];

		CHECK_EQ(n->pc, 0x6000 + 4 * want[j][0]);
		CHECK_EQ(n->partial, want[j][1]);
		CHECK_EQ(n->pp, want[j][2]);
		CHECK_EQ(n->ep_miss, want[j][3]);
		CHECK((n->events & PMR_SIM_EV_DCACHE_MISS) != 0);
	}
	pmr_shotgun_free(g);
}

/*
 * The level of a load's miss (a last-level miss resets b1): a straight
 * line of LLEN ints and three loads, each one DET (ctx 2).  At 3 the
 * signature says a last-level miss (b1 b2 = 01) but the pc's sample hit
 * the L2 (12 cycles): it takes a class sample's with its own bits, a
 * last-level miss (150).  At 8 the sample agrees (150): left.  At 12 the
 * signature says an L2 hit (11) but the sample went to memory: the class
 * sample of its bits, 12 cycles, and no LLC_MISS.
 */
enum { LLEN = 16 };

UNIT_TEST(level_graft)
{
	static unsigned char bits[(LLEN + 3) / 4];
	/* the loads and their signature bits; their DETs' own bits and
	 * miss cycles */
	static const unsigned pos[] = { 3, 8, 12 }, lb[] = { 2, 2, 3 };
	static const struct {
		unsigned det_own, miss;
	} d[] = { { 3, 12 }, { 2, 150 }, { 2, 150 } };
	/* position, ep_miss, LLC_MISS of the fragment's nodes */
	static const unsigned want[][3] = { { 3, 150, 1 }, { 8, 150, 1 },
	    { 12, 12, 0 } };
	static struct pmr_sim_gnode got[MLEN];
	const struct pmr_shotgun_stats *st;
	struct pmr_shotgun_opts so;
	struct pmr_shotgun *g;
	unsigned j;

	so = opts(1);
	g = builder(&so);
	load_line(g, 0x7000, LLEN, pos, lb, 3, bits, sizeof(bits));
	for (j = 0; j < sizeof(d) / sizeof(d[0]); j++)
		load_det(g, 500 + 100 * j, 0x7000 + 4 * pos[j], d[j].det_own,
		    PMR_SIM_EV_DCACHE_MISS | (d[j].det_own == 2 ?
		    PMR_SIM_EV_LLC_MISS : 0), d[j].miss, 0, 0);
	memset(got, 0, sizeof(got));
	CHECK_EQ(pmr_shotgun_build(g, before_node_m, got), 0);
	st = pmr_shotgun_stats(g);
	CHECK_EQ(st->kept, 1);
	CHECK_EQ(st->grafted_level, 2);
	for (j = 0; j < sizeof(want) / sizeof(want[0]); j++) {
		const struct pmr_sim_gnode *n = &got[want[j][0]];

		CHECK_EQ(n->pc, 0x7000 + 4 * want[j][0]);
		CHECK_EQ(n->ep_miss, want[j][1]);
		CHECK_EQ((n->events & PMR_SIM_EV_LLC_MISS) != 0, want[j][2]);
		CHECK((n->events & PMR_SIM_EV_DCACHE_MISS) != 0);
	}
	pmr_shotgun_free(g);
}

UNIT_MAIN(UNIT_ENTRY(resync_anchor), UNIT_ENTRY(resync_none),
    UNIT_ENTRY(resync_anchor_ctx), UNIT_ENTRY(pieces),
    UNIT_ENTRY(standin_drawn), UNIT_ENTRY(producers_before),
    UNIT_ENTRY(partial_merge), UNIT_ENTRY(level_graft))
