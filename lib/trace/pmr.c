/*
 * pmr.c: the native instruction trace records IMAGE, SINSN and
 * DINSN (laid out in man/pmr.5, INSTRUCTION TRACES):
 * the writer (struct pmr_trace_writer) and the pmr source of the trace
 * reader.
 *
 * A SINSN describes the static instruction at a pc and precedes the first
 * DINSN that executes it; a later SINSN at the same pc replaces it.  A
 * DINSN is a block of up to 4096 executed instructions.  It names the pc
 * of the first; the rest follow from the static instructions and five
 * token streams, each filled only by the instructions that need it:
 *
 *	br   one byte per conditional branch: 1 taken, 0 not
 *	tgt  one varint per indirect jump/call, return and rep instruction:
 *	     0 = the predicted next pc (return: the return-address stack;
 *	     others: this instruction's previous next pc), else
 *	     zigzag(next - pc) + 1
 *	mem  one varint per memory access: 0 = last address of this access
 *	     slot plus its last stride, else zigzag(addr - last) + 1
 *	val  (blocks with PMR_DB_VALUES) one varint per instruction with a
 *	     load: 0 = no value, else zigzag(value - previous value) + 1
 *	exc  the instructions whose accesses differ from the static shape:
 *	     varint index gap, u8 nload, u8 nmem, u8 PMR_DI_* flags
 *
 * Non-branches fall through; an instruction whose successor is not the one
 * these rules give ends its block, and end_pc carries the successor.  The
 * writer runs the same predictors as the reader, so the stream holds only
 * what they miss: loops cost almost nothing before zstd.  Predictor state
 * is per static instruction (by SINSN order) and restarts with each
 * concatenated stream.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/decode.h"

#define BLOCK_MAX 4096u		/* instructions per DINSN */
#define RAS_N 32u		/* return-address stack depth */
#define SINSN_FIXED 25u		/* pc, 5 u8, target, bytes length */
#define DINSN_FIXED 28u		/* n, flags, tid, pc, end_pc */

/* --- state shared by writer and reader ------------------------------- */

#define MEM_HOT 2u		/* access slots kept in struct pred */

/* The last address of one access slot and its last stride. */
struct mslot {
	uint64_t last, stride;
};

/*
 * Per static instruction, one cache line: the reader touches it for
 * every instruction, and a trace's static instructions do not fit in
 * the L1-D.  Access slots past MEM_HOT (rare) are in codec.mcold.
 */
struct pred {
	/* the instruction that followed last time, while the table's
	 * mapping generation is succ_gen: saves a hash lookup per
	 * instruction (decode_one) */
	struct pmr_sinsn *succ;
	uint32_t succ_gen;
	uint64_t next;		/* previous next pc (indirect, rep), 0 none */
	uint64_t value;
	struct mslot m[MEM_HOT];
} __attribute__((aligned(64)));

struct codec {
	struct pmr_sitab *tab;	/* the stream's static instructions */
	struct pred *pred;	/* by static id, on a cache-line boundary */
	struct mslot (*mcold)[PMR_INSN_MAXMEM - MEM_HOT];	/* by id */
	uint32_t npred;
	uint64_t ras[RAS_N];
	unsigned ras_top, ras_n;
};

static int
codec_grow(struct codec *c, uint32_t id)
{
	struct pred *np;
	struct mslot (*nc)[PMR_INSN_MAXMEM - MEM_HOT];
	void *v;
	uint32_t n;

	if (id < c->npred)
		return 0;
	n = c->npred ? c->npred : 1024;
	while (n <= id)
		n *= 2;
	if ((nc = realloc(c->mcold, n * sizeof(*nc))) == NULL)
		return -1;
	memset(nc + c->npred, 0, (n - c->npred) * sizeof(*nc));
	c->mcold = nc;
	if (posix_memalign(&v, 64, n * sizeof(*np)) != 0)
		return -1;
	np = v;
	if (c->npred > 0)
		memcpy(np, c->pred, c->npred * sizeof(*np));
	memset(np + c->npred, 0, (n - c->npred) * sizeof(*np));
	free(c->pred);
	c->pred = np;
	c->npred = n;
	return 0;
}

/* Access slot i of the static instruction id, whose pred is p. */
static inline struct mslot *
mslot(const struct codec *c, struct pred *p, uint32_t id, unsigned i)
{
	return i < MEM_HOT ? &p->m[i] : &c->mcold[id][i - MEM_HOT];
}

static void
codec_reset(struct codec *c)
{
	c->ras_top = c->ras_n = 0;
}

static int
needs_tgt(const struct pmr_sinsn *si)
{
	return si->cls == PMR_OP_JMP_IND || si->cls == PMR_OP_CALL_IND ||
	    si->cls == PMR_OP_RET || (si->flags & PMR_SI_REP);
}

/* Returns the next pc the predictors expect for an explicit-target insn. */
static uint64_t
predict_next(const struct codec *c, const struct pmr_sinsn *si,
    const struct pred *p)
{
	if (si->cls == PMR_OP_RET)
		return c->ras_n > 0 ? c->ras[(c->ras_top - 1) % RAS_N] : 0;
	return p->next != 0 ? p->next : si->pc + si->len;
}

/* Updates the control-flow predictors after si went to next. */
static inline void
commit_next(struct codec *c, const struct pmr_sinsn *si, struct pred *p,
    uint64_t next)
{
	if (si->cls == PMR_OP_RET && c->ras_n > 0) {
		c->ras_top = (c->ras_top + RAS_N - 1) % RAS_N;
		c->ras_n--;
	}
	if (si->cls == PMR_OP_CALL || si->cls == PMR_OP_CALL_IND) {
		c->ras[c->ras_top] = si->pc + si->len;
		c->ras_top = (c->ras_top + 1) % RAS_N;
		if (c->ras_n < RAS_N)
			c->ras_n++;
	}
	if (needs_tgt(si))
		p->next = next;
}

static inline uint64_t
zz(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t
unzz(uint64_t u)
{
	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

/* --- growable byte buffers ------------------------------------------- */

struct buf {
	unsigned char *p;
	size_t n, cap;
};

static int
buf_need(struct buf *b, size_t more)
{
	unsigned char *np;
	size_t cap;

	if (b->n + more <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 4096;
	while (cap < b->n + more)
		cap *= 2;
	if ((np = realloc(b->p, cap)) == NULL)
		return -1;
	b->p = np;
	b->cap = cap;
	return 0;
}

/* Appends varint v; the caller reserved 10 bytes. */
static inline void
put_var(struct buf *b, uint64_t v)
{
	while (v >= 0x80) {
		b->p[b->n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	b->p[b->n++] = (unsigned char)v;
}

/* A read cursor over one token stream. */
struct cur {
	const unsigned char *p, *end;
};

/* Reads a varint; returns 0, or -1 past the end or on overlong input. */
static inline int
get_var(struct cur *c, uint64_t *v)
{
	uint64_t r = 0;
	unsigned sh = 0;

	if (c->p < c->end && !(*c->p & 0x80)) {
		*v = *c->p++;	/* the common one-byte token */
		return 0;
	}
	while (c->p < c->end) {
		unsigned char b = *c->p++;

		r |= (uint64_t)(b & 0x7f) << sh;
		if (!(b & 0x80)) {
			*v = r;
			return 0;
		}
		if ((sh += 7) > 63)
			return -1;
	}
	return -1;
}

/* --- SINSN encoding ---------------------------------------------------- */

static size_t
sinsn_size(const struct pmr_sinsn *si)
{
	return SINSN_FIXED + si->len + 4 + 2u * si->nsrc + 4 + 2u * si->ndst +
	    2 + 4 + 2u * si->nmem;
}

static void
sinsn_put(unsigned char *p, const struct pmr_sinsn *si)
{
	unsigned i;

	pmr_put64(p, si->pc);
	p[8] = si->isa;
	p[9] = si->cls;
	p[10] = si->len;
	p[11] = si->flags;
	p[12] = si->nload;
	pmr_put64(p + 13, si->target);
	pmr_put32(p + 21, si->len);
	memcpy(p + 25, si->bytes, si->len);
	p += 25 + si->len;
	pmr_put32(p, 2u * si->nsrc);	/* BLOB lengths count bytes */
	for (i = 0, p += 4; i < si->nsrc; i++, p += 2)
		pmr_put16(p, si->src[i]);
	pmr_put32(p, 2u * si->ndst);
	for (i = 0, p += 4; i < si->ndst; i++, p += 2)
		pmr_put16(p, si->dst[i]);
	pmr_put16(p, si->src_addr);
	pmr_put32(p + 2, 2u * si->nmem);
	for (i = 0, p += 6; i < si->nmem; i++, p += 2)
		pmr_put16(p, si->msize[i]);
}

/* Decodes a SINSN payload; returns NULL or a reason for rejecting it. */
static const char *
sinsn_get(const unsigned char *p, uint32_t len, struct pmr_sinsn *si)
{
	const unsigned char *end = p + len;
	uint32_t n, i;

	memset(si, 0, sizeof(*si));
	if (len < SINSN_FIXED)
		return "SINSN shorter than its fixed part";
	si->pc = pmr_le64(p);
	si->isa = p[8];
	si->cls = p[9];
	si->len = p[10];
	si->flags = p[11];
	si->nload = p[12];
	si->target = pmr_le64(p + 13);
	n = pmr_le32(p + 21);
	if (n > PMR_INSN_MAXBYTES || n != si->len ||
	    (size_t)(end - p) < 25 + (size_t)n + 4)
		return "bad SINSN bytes field";
	memcpy(si->bytes, p + 25, n);
	p += 25 + n;
	n = pmr_le32(p) / 2;
	if (n > PMR_INSN_MAXSRC || (pmr_le32(p) & 1) ||
	    (size_t)(end - p) < 4 + 2 * (size_t)n + 4)
		return "bad SINSN src field";
	for (i = 0, p += 4; i < n; i++, p += 2)
		si->src[i] = pmr_le16(p);
	si->nsrc = (uint8_t)n;
	n = pmr_le32(p) / 2;
	if (n > PMR_INSN_MAXDST || (pmr_le32(p) & 1) ||
	    (size_t)(end - p) < 4 + 2 * (size_t)n + 6)
		return "bad SINSN dst field";
	for (i = 0, p += 4; i < n; i++, p += 2)
		si->dst[i] = pmr_le16(p);
	si->ndst = (uint8_t)n;
	si->src_addr = pmr_le16(p);
	n = pmr_le32(p + 2) / 2;
	if (n > PMR_INSN_MAXMEM || si->nload > n || (pmr_le32(p + 2) & 1) ||
	    (size_t)(end - p) < 6 + 2 * (size_t)n)
		return "bad SINSN msize field";
	for (i = 0, p += 6; i < n; i++, p += 2)
		si->msize[i] = pmr_le16(p);
	si->nmem = (uint8_t)n;
	if (si->cls >= PMR_OP_NCLASS)
		return "unknown SINSN class";
	return NULL;
}

/* Returns 1 if a and b describe the same static instruction. */
static int
sinsn_same(const struct pmr_sinsn *a, const struct pmr_sinsn *b)
{
	return a->pc == b->pc && a->isa == b->isa && a->cls == b->cls &&
	    a->len == b->len && a->flags == b->flags && a->nload == b->nload &&
	    a->target == b->target && a->nsrc == b->nsrc &&
	    a->ndst == b->ndst && a->nmem == b->nmem &&
	    a->src_addr == b->src_addr &&
	    memcmp(a->bytes, b->bytes, a->len) == 0 &&
	    memcmp(a->src, b->src, a->nsrc * sizeof(a->src[0])) == 0 &&
	    memcmp(a->dst, b->dst, a->ndst * sizeof(a->dst[0])) == 0 &&
	    memcmp(a->msize, b->msize, a->nmem * sizeof(a->msize[0])) == 0;
}

/* --- the writer -------------------------------------------------------- */

enum { S_BR, S_TGT, S_MEM, S_VAL, S_EXC, NSTREAM };

struct pmr_trace_writer {
	struct pmr_writer *w;
	struct codec c;
	const struct pmr_sinsn **src;	/* by id: the source's instruction */
	uint32_t nsrc;
	struct buf s[NSTREAM];
	uint32_t n;		/* instructions in the block */
	uint32_t flags, tid;
	uint64_t pc;		/* first pc of the block */
	uint64_t last_next;	/* next pc of the last instruction */
	int64_t last_exc;	/* index of the block's last exception */
	uint64_t count;
	int err;
	char msg[256];
};

static int
tw_fail(struct pmr_trace_writer *tw, int code, const char *what)
{
	if (tw->err == 0) {
		tw->err = code;
		pmr_msg(tw->msg, sizeof(tw->msg), "%s", what);
	}
	return code;
}

struct pmr_trace_writer *
pmr_trace_writer_new(struct pmr_writer *w, int *err)
{
	struct pmr_trace_writer *tw;

	if ((tw = calloc(1, sizeof(*tw))) == NULL ||
	    (tw->c.tab = pmr_sitab_new()) == NULL) {
		free(tw);
		*err = PMR_ENOMEM;
		return NULL;
	}
	tw->w = w;
	return tw;
}

uint64_t
pmr_trace_writer_count(const struct pmr_trace_writer *tw)
{
	return tw->count;
}

const char *
pmr_trace_writer_errmsg(const struct pmr_trace_writer *tw)
{
	return tw->msg;
}

static int
flush_block(struct pmr_trace_writer *tw, uint64_t end_pc, int nextunk)
{
	unsigned char *p;
	size_t len = DINSN_FIXED;
	unsigned i;

	if (tw->n == 0)
		return PMR_OK;
	for (i = 0; i < NSTREAM; i++)
		len += 4 + tw->s[i].n;
	if (len > PMR_REC_MAX - 8 ||
	    (p = pmr_write_reserve(tw->w, PMR_REC_DINSN, (uint32_t)len)) ==
	    NULL)
		return tw_fail(tw, PMR_EIO, pmr_writer_errmsg(tw->w));
	pmr_put32(p, tw->n);
	pmr_put32(p + 4, tw->flags | (nextunk ? PMR_DB_NEXTUNK : 0));
	pmr_put32(p + 8, tw->tid);
	pmr_put64(p + 12, tw->pc);
	pmr_put64(p + 20, end_pc);
	p += DINSN_FIXED;
	for (i = 0; i < NSTREAM; i++) {
		pmr_put32(p, (uint32_t)tw->s[i].n);
		memcpy(p + 4, tw->s[i].p, tw->s[i].n);
		p += 4 + tw->s[i].n;
		tw->s[i].n = 0;
	}
	tw->n = 0;
	return PMR_OK;
}

int
pmr_trace_write_image(struct pmr_trace_writer *tw, const struct pmr_image *im)
{
	unsigned char *p;
	size_t len = 24 + 4 + (size_t)im->path.n + 4 + im->build_id.n;

	if (len > 65536 ||
	    (p = pmr_write_reserve(tw->w, PMR_REC_IMAGE, (uint32_t)len)) ==
	    NULL)
		return tw_fail(tw, PMR_EIO, "cannot write IMAGE record");
	pmr_put64(p, im->start);
	pmr_put64(p + 8, im->size);
	pmr_put64(p + 16, im->offset);
	pmr_put32(p + 24, im->path.n);
	memcpy(p + 28, im->path.p, im->path.n);
	p += 28 + im->path.n;
	pmr_put32(p, im->build_id.n);
	memcpy(p + 4, im->build_id.p, im->build_id.n);
	return PMR_OK;
}

/*
 * Returns the writer's copy of di's static instruction, writing a SINSN
 * (after flushing the block, if it replaces one) when the stream does not
 * hold it; NULL on error.
 */
static struct pmr_sinsn *
tw_sinsn(struct pmr_trace_writer *tw, const struct pmr_dinsn *di,
    uint64_t prev_next)
{
	const struct pmr_sinsn *si = di->si;
	struct pmr_sinsn *ws;
	unsigned char *p;
	const void **np;
	uint32_t n;

	ws = pmr_sitab_lookup(tw->c.tab, si->pc);
	if (ws != NULL && ws->id < tw->nsrc && tw->src[ws->id] == si &&
	    ws->len == si->len && ws->target == si->target)
		return ws;	/* the usual case */
	if (ws != NULL && sinsn_same(ws, si)) {
		tw->src[ws->id] = si;
		return ws;
	}
	if (ws != NULL && flush_block(tw, prev_next, 0) < 0)
		return NULL;	/* a replacement must not reach back */
	if ((p = pmr_write_reserve(tw->w, PMR_REC_SINSN,
	    (uint32_t)sinsn_size(si))) == NULL) {
		tw_fail(tw, PMR_EIO, pmr_writer_errmsg(tw->w));
		return NULL;
	}
	sinsn_put(p, si);
	if ((ws = pmr_sitab_add(tw->c.tab, si)) == NULL ||
	    codec_grow(&tw->c, ws->id) < 0) {
		tw_fail(tw, PMR_ENOMEM, "out of memory");
		return NULL;
	}
	if (ws->id >= tw->nsrc) {
		n = tw->nsrc ? tw->nsrc * 2 : 1024;
		if ((np = realloc(tw->src, n * sizeof(*np))) == NULL) {
			tw_fail(tw, PMR_ENOMEM, "out of memory");
			return NULL;
		}
		tw->src = (const struct pmr_sinsn **)np;
		tw->nsrc = n;
	}
	tw->src[ws->id] = si;
	return ws;
}

int
pmr_trace_write(struct pmr_trace_writer *tw, const struct pmr_dinsn *di)
{
	struct pmr_sinsn *ws;
	struct pred *p;
	uint64_t next, pred;
	unsigned i, has_value, shape;
	int r;

	if (tw->err != 0)
		return tw->err;
	if ((ws = tw_sinsn(tw, di, tw->last_next)) == NULL)
		return tw->err;
	has_value = (di->flags & PMR_DI_VALUE) && di->nload > 0;
	/* A new block for a new thread, for values, or when the source's
	 * previous next pc was not this instruction. */
	if (tw->n > 0 && (di->tid != tw->tid || di->pc != tw->last_next ||
	    (has_value && !(tw->flags & PMR_DB_VALUES)))) {
		if ((r = flush_block(tw, tw->last_next, 0)) < 0)
			return r;
	}
	if (tw->n == 0) {
		tw->pc = di->pc;
		tw->tid = di->tid;
		tw->flags = has_value ? PMR_DB_VALUES : 0;
		tw->last_exc = -1;
	}
	for (i = 0; i < NSTREAM; i++)
		if (buf_need(&tw->s[i], 16 + 10u * PMR_INSN_MAXMEM) < 0)
			return tw_fail(tw, PMR_ENOMEM, "out of memory");
	p = &tw->c.pred[ws->id];

	/* Control flow, exactly as the reader will recompute it. */
	if (ws->cls == PMR_OP_BR_COND) {
		i = (di->flags & PMR_DI_TAKEN) != 0;
		tw->s[S_BR].p[tw->s[S_BR].n++] = (unsigned char)i;
		next = i ? ws->target : ws->pc + ws->len;
	} else if (ws->cls == PMR_OP_JMP || ws->cls == PMR_OP_CALL) {
		next = ws->target;
	} else if (needs_tgt(ws)) {
		pred = predict_next(&tw->c, ws, p);
		put_var(&tw->s[S_TGT], di->next_pc == pred ? 0 :
		    zz((int64_t)(di->next_pc - ws->pc)) + 1);
		next = di->next_pc;
	} else
		next = ws->pc + ws->len;
	commit_next(&tw->c, ws, p, next);

	/* Accesses: an exception when their shape is not the static one. */
	shape = di->nload != ws->nload || di->nmem != ws->nmem ||
	    (di->flags & PMR_DI_MEMTRUNC);
	if (shape) {
		put_var(&tw->s[S_EXC], (uint64_t)((int64_t)tw->n -
		    tw->last_exc - 1));
		tw->last_exc = tw->n;
		tw->s[S_EXC].p[tw->s[S_EXC].n++] = di->nload;
		tw->s[S_EXC].p[tw->s[S_EXC].n++] = di->nmem;
		tw->s[S_EXC].p[tw->s[S_EXC].n++] = di->flags & PMR_DI_MEMTRUNC;
	}
	for (i = 0; i < di->nmem && i < PMR_INSN_MAXMEM; i++) {
		struct mslot *m = mslot(&tw->c, p, ws->id, i);

		if (di->addr[i] == m->last + m->stride)
			put_var(&tw->s[S_MEM], 0);
		else
			put_var(&tw->s[S_MEM], zz((int64_t)(di->addr[i] -
			    m->last)) + 1);
		m->stride = di->addr[i] - m->last;
		m->last = di->addr[i];
	}
	if ((tw->flags & PMR_DB_VALUES) && di->nload > 0) {
		if (has_value) {
			put_var(&tw->s[S_VAL], zz((int64_t)(di->value -
			    p->value)) + 1);
			p->value = di->value;
		} else
			put_var(&tw->s[S_VAL], 0);
	}
	tw->n++;
	tw->count++;
	tw->last_next = di->next_pc;
	if (next != di->next_pc || (di->flags & PMR_DI_NEXTUNK) ||
	    tw->n == BLOCK_MAX)
		return flush_block(tw, di->next_pc,
		    (di->flags & PMR_DI_NEXTUNK) != 0);
	return PMR_OK;
}

int
pmr_trace_writer_finish(struct pmr_trace_writer *tw, char *errbuf,
    size_t errlen)
{
	int r = tw->err;
	unsigned i;

	if (r == 0)
		r = flush_block(tw, tw->last_next, 0);
	if (r < 0 && errbuf != NULL)
		pmr_msg(errbuf, errlen, "%s", tw->msg);
	for (i = 0; i < NSTREAM; i++)
		free(tw->s[i].p);
	free(tw->src);
	free(tw->c.pred);
	free(tw->c.mcold);
	pmr_sitab_free(tw->c.tab);
	free(tw);
	return r;
}

/* --- the reader -------------------------------------------------------- */

struct pm_src {
	struct pmr_reader *rd;
	struct codec c;
	uint64_t nstreams;
	unsigned char *blk;	/* copy of the current DINSN payload */
	size_t blkcap;
	uint64_t recno;		/* record index of the block, for messages */
	uint32_t left;		/* instructions left in the block */
	uint32_t exc_left;	/* left at the next exception, 0 none */
	uint32_t stop;		/* pmr_trace_pmr_next() leaves to
				 * pm_slow() at left <= stop:
				 * max(exc_left, 1), the next exception
				 * or the block's last instruction */
	uint32_t flags, tid;
	uint64_t pc, end_pc;
	struct cur s[NSTREAM];
	struct pmr_sinsn *hint;	/* the instruction at pc, or NULL */
	uint32_t hint_gen;	/* the mapping generation it is valid in */
	uint32_t prev;		/* id + 1 of the last one decoded, 0 none */
	uint32_t gen;		/* pmr_sitab_gen(c.tab), taken in
				 * pm_slow(), the only place the table
				 * changes (pm_refill) */
	char *name;		/* the file, for messages ("<stdin>") */
};

/* Sets the sticky error of t, its message prefixed by the file's name. */
static int __attribute__((cold)) PMR_FORMAT(4, 5)
pm_fail(struct pmr_trace *t, struct pm_src *s, int code, const char *fmt,
    ...)
{
	char msg[224];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return pmr_trace_fail(t, code, "'%s': %s", s->name, msg);
}

static int __attribute__((cold))
pm_corrupt(struct pmr_trace *t, struct pm_src *s, const char *why)
{
	return pm_fail(t, s, PMR_ECORRUPT, "DINSN record %llu: %s",
	    (unsigned long long)s->recno, why);
}

/*
 * Reads the next exception gap into s->exc_left, for the exception after
 * the one at left value l (start_block: n + 1); returns 0 or -1.  An index
 * past the block never matches: its bytes are left over at the end.
 */
static int
next_exception(struct pm_src *s, uint32_t l)
{
	uint64_t gap;

	s->exc_left = 0;
	if (s->s[S_EXC].p == s->s[S_EXC].end)
		return 0;
	if (get_var(&s->s[S_EXC], &gap) < 0 || gap >= BLOCK_MAX)
		return -1;
	if (gap + 1 < l)
		s->exc_left = l - 1 - (uint32_t)gap;
	return 0;
}

static int
start_block(struct pmr_trace *t, struct pm_src *s, const struct pmr_rec *rec)
{
	const unsigned char *p, *end;
	unsigned i;
	uint32_t n;

	if (rec->len < DINSN_FIXED + 4 * NSTREAM)
		return pm_corrupt(t, s, "shorter than its fixed part");
	if (rec->len > s->blkcap) {
		unsigned char *nb = realloc(s->blk, rec->len);

		if (nb == NULL)
			return pm_fail(t, s, PMR_ENOMEM, "out of memory");
		s->blk = nb;
		s->blkcap = rec->len;
	}
	memcpy(s->blk, rec->p, rec->len);
	p = s->blk;
	end = p + rec->len;
	s->left = pmr_le32(p);
	s->flags = pmr_le32(p + 4);
	s->tid = pmr_le32(p + 8);
	s->pc = pmr_le64(p + 12);
	s->end_pc = pmr_le64(p + 20);
	if (s->left > BLOCK_MAX)
		return pm_corrupt(t, s, "too many instructions");
	if (s->flags & ~PMR_DB_KNOWN)
		return pm_fail(t, s, PMR_EVERSION, "DINSN record %llu: "
		    "unknown block flags 0x%x", (unsigned long long)s->recno,
		    s->flags & ~PMR_DB_KNOWN);
	p += DINSN_FIXED;
	for (i = 0; i < NSTREAM; i++) {
		if (end - p < 4)
			return pm_corrupt(t, s, "truncated stream lengths");
		n = pmr_le32(p);
		if ((size_t)(end - p - 4) < n)
			return pm_corrupt(t, s, "stream longer than the record");
		s->s[i].p = p + 4;
		s->s[i].end = p + 4 + n;
		p += 4 + n;
	}
	if (next_exception(s, s->left + 1) < 0)
		return pm_corrupt(t, s, "bad exception list");
	return 0;
}

/* pmr_insn_class_is_branch(), without a call into x86dec.c. */
static inline int
is_branch(unsigned cls)
{
	return cls >= PMR_OP_BR_COND && cls <= PMR_OP_RET;
}

/*
 * The control flow of si, whose pred is p: sets *next and returns the
 * PMR_DI_TAKEN flag, or -1 with *why when a token stream ends early.
 */
static inline __attribute__((always_inline)) int
decode_flow(struct pm_src *s, const struct pmr_sinsn *si, struct pred *p,
    uint64_t *next, const char **why)
{
	uint64_t tok;
	int taken;

	if (!is_branch(si->cls) && !(si->flags & PMR_SI_REP)) {
		*next = si->pc + si->len;	/* commit_next() has nothing
						 * to do */
		return 0;
	}
	if (si->cls == PMR_OP_BR_COND) {
		if (s->s[S_BR].p == s->s[S_BR].end) {
			*why = "br stream ends early";
			return -1;
		}
		taken = *s->s[S_BR].p++ & 1;
		*next = taken ? si->target : si->pc + si->len;
	} else if (si->cls == PMR_OP_JMP || si->cls == PMR_OP_CALL) {
		taken = 1;
		*next = si->target;
	} else {
		/* needs_tgt(si): the branches left and rep */
		if (get_var(&s->s[S_TGT], &tok) < 0) {
			*why = "tgt stream ends early";
			return -1;
		}
		*next = tok == 0 ? predict_next(&s->c, si, p) :
		    si->pc + (uint64_t)unzz(tok - 1);
		taken = is_branch(si->cls);
	}
	commit_next(&s->c, si, p, *next);
	return taken ? PMR_DI_TAKEN : 0;
}

/*
 * The addresses and the value of di, whose counts are set.  Returns NULL
 * or why the streams are bad.  pm_access() is the same for the counts of
 * si.
 */
static const char *
decode_mem(struct pm_src *s, const struct pmr_sinsn *si, struct pred *p,
    struct pmr_dinsn *di)
{
	uint64_t tok;
	unsigned i, n = di->nmem;

	for (i = 0; i < n; i++) {
		struct mslot *m = mslot(&s->c, p, si->id, i);

		if (get_var(&s->s[S_MEM], &tok) < 0)
			return "mem stream ends early";
		di->addr[i] = tok == 0 ? m->last + m->stride :
		    m->last + (uint64_t)unzz(tok - 1);
		di->msize[i] = i < si->nmem && di->nload == si->nload ?
		    si->msize[i] : 0;
		m->stride = di->addr[i] - m->last;
		m->last = di->addr[i];
	}
	di->value = 0;
	if ((s->flags & PMR_DB_VALUES) && di->nload > 0) {
		if (get_var(&s->s[S_VAL], &tok) < 0)
			return "val stream ends early";
		if (tok != 0) {
			p->value += (uint64_t)unzz(tok - 1);
			di->value = p->value;
			di->flags |= PMR_DI_VALUE;
		}
	}
	return NULL;
}

/* Fills the fields of di that come from si, the thread and the flow. */
static inline void
di_head(struct pmr_dinsn *di, const struct pm_src *s,
    const struct pmr_sinsn *si, int taken)
{
	di->si = si;
	di->pc = si->pc;
	di->tid = s->tid;
	di->reserved = 0;
	di->flags = (uint8_t)taken;
	di->nload = si->nload;
	di->nmem = si->nmem;
}

/* Makes si the successor hint of the instruction decoded last. */
static inline void
set_succ(struct pm_src *s, struct pmr_sinsn *si)
{
	if (s->prev != 0 && s->prev - 1 < s->c.npred) {
		s->c.pred[s->prev - 1].succ = si;
		s->c.pred[s->prev - 1].succ_gen = s->gen;
	}
}

/*
 * Decodes the instruction at s->pc in full: a hint miss, an exception or
 * the end of the block (pm_slow's part).
 */
static int
decode_one(struct pmr_trace *t, struct pm_src *s, struct pmr_dinsn *di)
{
	struct pmr_sinsn *si;
	struct pred *p;
	uint64_t next;
	const char *why;
	unsigned i;
	int taken;
	uint32_t gen = s->gen;

	if ((si = s->hint) == NULL || si->pc != s->pc || s->hint_gen != gen) {
		if ((si = pmr_sitab_lookup(s->c.tab, s->pc)) == NULL)
			return pm_fail(t, s, PMR_ECORRUPT, "DINSN record "
			    "%llu: instruction at 0x%llx has no SINSN before "
			    "it", (unsigned long long)s->recno,
			    (unsigned long long)s->pc);
		set_succ(s, si);
	}
	p = &s->c.pred[si->id];
	if ((taken = decode_flow(s, si, p, &next, &why)) < 0)
		return pm_corrupt(t, s, why);
	di_head(di, s, si, taken);
	if (s->left == s->exc_left) {
		if (s->s[S_EXC].end - s->s[S_EXC].p < 3)
			return pm_corrupt(t, s, "exc stream ends early");
		di->nload = s->s[S_EXC].p[0];
		di->nmem = s->s[S_EXC].p[1];
		di->flags |= s->s[S_EXC].p[2] & PMR_DI_MEMTRUNC;
		s->s[S_EXC].p += 3;
		if (di->nmem > PMR_INSN_MAXMEM || di->nload > di->nmem)
			return pm_corrupt(t, s, "bad access counts");
		if (next_exception(s, s->left) < 0)
			return pm_corrupt(t, s, "bad exception list");
	}
	if ((why = decode_mem(s, si, p, di)) != NULL)
		return pm_corrupt(t, s, why);
	if (--s->left == 0) {
		next = s->end_pc;
		if (s->flags & PMR_DB_NEXTUNK)
			di->flags |= PMR_DI_NEXTUNK;
		for (i = 0; i < NSTREAM; i++)
			if (s->s[i].p != s->s[i].end)
				return pm_corrupt(t, s, "unused stream bytes");
	}
	di->next_pc = next;
	s->pc = next;
	s->prev = si->id + 1;
	s->hint = p->succ_gen == gen ? p->succ : NULL;
	s->hint_gen = gen;
	return 1;
}

/*
 * Reads records up to the next DINSN block with instructions left.
 * Returns 1, 0 at the end or a negative code.
 */
static int
pm_refill(struct pmr_trace *t, struct pm_src *s)
{
	struct pmr_sinsn si;
	struct pmr_rec rec;
	const char *why;
	int r;

	while (s->left == 0) {
		if ((r = pmr_reader_next(s->rd, &rec)) <= 0) {
			if (r < 0)
				pm_fail(t, s, r, "%s",
				    pmr_reader_errmsg(s->rd));
			return r;
		}
		if (pmr_reader_nstreams(s->rd) != s->nstreams) {
			/* a concatenated stream: its writer started afresh */
			s->nstreams = pmr_reader_nstreams(s->rd);
			pmr_sitab_clear_map(s->c.tab);
			codec_reset(&s->c);
		}
		s->recno = rec.index;
		if (rec.type == PMR_REC_SINSN) {
			if ((why = sinsn_get(rec.p, rec.len, &si)) != NULL)
				return pm_fail(t, s, PMR_ECORRUPT, "record "
				    "%llu: %s", (unsigned long long)rec.index,
				    why);
			if (pmr_sitab_add(s->c.tab, &si) == NULL ||
			    codec_grow(&s->c, pmr_sitab_count(s->c.tab)) < 0)
				return pm_fail(t, s, PMR_ENOMEM,
				    "out of memory for static instructions");
		} else if (rec.type == PMR_REC_DINSN) {
			if ((r = start_block(t, s, &rec)) < 0)
				return r;
		} else if (t->side != NULL)
			t->side(t->sidectx, &rec);
	}
	return 1;
}

/*
 * The slow path of pmr_trace_pmr_next(), kept out of line: refills, then
 * decodes in full.  Errors leave left at 0, so that pmr_trace_pmr_next()
 * comes back here, where they are sticky.  It keeps t->err and t->seq as
 * pmr_trace_next() does for other sources.
 */
static int __attribute__((noinline))
pm_slow(struct pmr_trace *t, struct pmr_dinsn *di)
{
	struct pm_src *s = t->src;
	int r;

	if (t->err != 0)
		return t->err;
	if ((r = pm_refill(t, s)) == 1) {
		s->gen = pmr_sitab_gen(s->c.tab);
		r = decode_one(t, s, di);
	}
	if (r == 1)
		di->seq = t->seq++;
	else if (r < 0) {
		s->left = 0;
		if (t->err == 0)
			pm_fail(t, s, r, "%s", pmr_strerror(r));
	}
	s->stop = s->exc_left > 1 ? s->exc_left : 1;
	return r;
}

/* Fails on a bad stream in pmr_trace_pmr_next(). */
static int __attribute__((noinline, cold))
pm_bad(struct pmr_trace *t, const char *why)
{
	struct pm_src *s = t->src;

	s->left = 0;
	return pm_corrupt(t, s, why);
}

/*
 * The accesses and value of an instruction of pmr_trace_pmr_next(), in a
 * frame of their own, so that the instructions without them (most) need
 * no registers saved.
 */
static int __attribute__((noinline))
pm_access(struct pmr_trace *t, struct pmr_dinsn *di, struct pred *p)
{
	struct pm_src *s = t->src;
	const struct pmr_sinsn *si = di->si;
	struct cur mc = s->s[S_MEM];
	uint64_t tok;
	unsigned i, n = si->nmem;
	struct mslot *m = p->m;

	for (i = 0; i < n; i++, m++) {
		if (i == MEM_HOT)
			m = s->c.mcold[si->id];
		if (get_var(&mc, &tok) < 0)
			return pm_bad(t, "mem stream ends early");
		tok = tok == 0 ? m->stride : (uint64_t)unzz(tok - 1);
		m->last += tok;
		m->stride = tok;
		di->addr[i] = m->last;
		di->msize[i] = si->msize[i];
	}
	s->s[S_MEM].p = mc.p;
	di->value = 0;
	if ((s->flags & PMR_DB_VALUES) && si->nload > 0) {
		if (get_var(&s->s[S_VAL], &tok) < 0)
			return pm_bad(t, "val stream ends early");
		if (tok != 0) {
			p->value += (uint64_t)unzz(tok - 1);
			di->value = p->value;
			di->flags |= PMR_DI_VALUE;
		}
	}
	return 1;
}

/*
 * The rest of pmr_trace_pmr_next() once the control flow is known: the
 * end of decode_one() for an instruction that is no exception and not
 * the last of its block.
 */
static inline __attribute__((always_inline)) int
pm_finish(struct pmr_trace *t, struct pmr_dinsn *di, struct pm_src *s,
    struct pmr_sinsn *si, struct pred *p, uint64_t next, int taken)
{
	di_head(di, s, si, taken);
	di->next_pc = next;
	di->seq = t->seq++;
	s->left--;
	s->pc = next;
	s->prev = si->id + 1;
	s->hint = p->succ_gen == s->gen ? p->succ : NULL;
	/* an error in pm_access() leaves all this behind for good */
	if (si->nmem > 0 || (si->nload > 0 && (s->flags & PMR_DB_VALUES)))
		return pm_access(t, di, p);
	di->value = 0;
	return 1;
}

/* pmr_trace_pmr_next() of a branch or rep instruction, the hint's. */
static int __attribute__((noinline))
pm_branch(struct pmr_trace *t, struct pmr_dinsn *di)
{
	struct pm_src *s = t->src;
	struct pmr_sinsn *si = s->hint;
	struct pred *p = &s->c.pred[si->id];
	uint64_t next;
	const char *why;
	int taken;

	if ((taken = decode_flow(s, si, p, &next, &why)) < 0)
		return pm_bad(t, why);
	return pm_finish(t, di, s, si, p, next, taken);
}

/*
 * pmr_trace_pmr_next() when the hint is not the instruction at s->pc:
 * looks it up as decode_one() does and goes back with it as the hint.
 */
static int __attribute__((noinline))
pm_miss(struct pmr_trace *t, struct pmr_dinsn *di)
{
	struct pm_src *s = t->src;
	struct pmr_sinsn *si;

	if ((si = pmr_sitab_lookup(s->c.tab, s->pc)) == NULL)
		return pm_slow(t, di);	/* its error */
	set_succ(s, si);
	s->hint = si;
	s->hint_gen = s->gen;
	return pmr_trace_pmr_next(t, di);
}

/*
 * The one call per instruction, which pmr_trace_next() jumps to directly
 * (so it sets di->seq and keeps t->err sticky itself).  The common
 * instruction (its pc is the successor hint, it is no exception and not
 * the block's last) is decoded here, as decode_one() would; the rest goes
 * to pm_slow().  Branches, accesses and hint misses have functions of
 * their own, so that an instruction without them needs no frame and about
 * 45 host instructions.
 */
int
pmr_trace_pmr_next(struct pmr_trace *t, struct pmr_dinsn *di)
{
	struct pm_src *s = t->src;
	struct pmr_sinsn *si = s->hint;

	/* s->gen has not changed since the hint was taken (pm_slow), so
	 * hint_gen is gen and stays so */
	if (s->left <= s->stop)
		return pm_slow(t, di);
	if (si == NULL || si->pc != s->pc)
		return pm_miss(t, di);
	if (is_branch(si->cls) || (si->flags & PMR_SI_REP))
		return pm_branch(t, di);
	/* as decode_flow(), where commit_next() has nothing to do */
	return pm_finish(t, di, s, si, &s->c.pred[si->id], si->pc + si->len,
	    0);
}

static void
pm_close(struct pmr_trace *t)
{
	struct pm_src *s = t->src;

	if (s == NULL)
		return;
	pmr_reader_close(s->rd);
	free(s->name);
	free(s->c.pred);
	free(s->c.mcold);
	free(s->blk);
	free(s);
	t->src = NULL;
}

const struct pmr_trace_ops pmr_trace_pmr_ops = { pmr_trace_pmr_next,
	pm_close };

int
pmr_trace_pmr_open(struct pmr_trace *t, const char *path)
{
	struct pm_src *s;
	int err = 0;

	if ((s = calloc(1, sizeof(*s))) == NULL ||
	    (s->name = strdup(path == NULL || strcmp(path, "-") == 0 ?
	    "<stdin>" : path)) == NULL) {
		free(s);
		return pmr_trace_fail(t, PMR_ENOMEM, "out of memory");
	}
	if ((s->rd = pmr_reader_open(path, 0, &err)) == NULL) {
		pmr_trace_fail(t, err, "cannot open '%s': %s", s->name,
		    pmr_strerror(err));
		free(s->name);
		free(s);
		return err;
	}
	s->c.tab = t->tab;	/* ids are the stream's SINSN order */
	t->src = s;
	t->ops = &pmr_trace_pmr_ops;
	return 0;
}
