/*
 * export.c: instruction traces out as ChampSim traces.
 *
 * "pmtrace export" writes the dynamic instructions of any trace pmtools
 * reads as the 64-byte input_instr records that ChampSim reads (the
 * layout is in champsim.c and pmtrace(1)), raw or compressed with
 * xz, gzip or zstd, into a file that appears under its name only when
 * complete (struct pmr_textout).
 *
 * ChampSim has no instruction bytes: it derives the branch kind from the
 * registers an instruction reads and writes, with 6 the stack pointer, 25
 * the flags and 26 the instruction pointer (ChampSim's
 * inc/trace_instruction.h and the ooo_model_instr constructor in
 * inc/instruction.h).  So the registers of a branch are written in the
 * pattern ChampSim recognises as its class, and the instruction pointer
 * appears nowhere else:
 *
 *	class		destinations		sources
 *	jmp		26, others		none
 *	jmp_ind		26, others		others (at least one)
 *	br_cond		26, others but 6	25 if read (or no other), 26, others
 *	call		6, 26			6, 26
 *	call_ind	6, 26			6, 26, others (at least one)
 *	ret		6, 26			6, others
 *	taken "other"	26, others		6, 25, 26, others (BRANCH_OTHER)
 *
 * where "others" are the instruction's other registers and an indirect
 * branch without one (jmp *disp(%rip)) reads CS_TARGET, which nothing
 * writes.  pmtools x86-64 register r becomes CS_BASE + r, the stack
 * pointer 6 and the flags 25; a ChampSim register n read by pmtrace import
 * (PMR_REG_FOREIGN + n) becomes n again, so that a ChampSim trace comes
 * back with the registers, classes and outcomes it had.
 */
#include <errno.h>
#include <lzma.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "stream/pmr_internal.h"
#include "trace/trace.h"

#define CS_REC 64		/* bytes per input_instr record */
#define CS_NDST 2		/* destination registers */
#define CS_NSRC 4		/* source registers */
#define CS_NSTORE 2		/* destination_memory */
#define CS_NLOAD 4		/* source_memory */
#define CS_SP 6			/* ChampSim's special registers */
#define CS_FLAGS 25
#define CS_IP 26
#define CS_TARGET 31		/* the source of a register-less indirect branch */
#define CS_BASE 32		/* pmtools register r is CS_BASE + r */

#define CS_BUFREC 1024		/* records encoded before each compression */

/* Returns the ChampSim number of pmtools register r; 0 drops it. */
static unsigned
cs_reg(unsigned r)
{
	unsigned n;

	if (r == PMR_X86_RSP)
		return CS_SP;
	if (r == PMR_X86_FLAGS)
		return CS_FLAGS;
	if (r == PMR_X86_RIP)
		return 0;	/* only branches write it, by their class */
	if (r >= PMR_REG_FOREIGN && r < PMR_REG_FOREIGN + 256) {
		n = r - PMR_REG_FOREIGN;
		if (n != 0 && n != CS_SP && n != CS_FLAGS && n != CS_IP)
			return n;
	}
	return CS_BASE + r % (256 - CS_BASE);
}

/* A register list being built: at most cap distinct non-zero numbers. */
struct cs_regs {
	unsigned char r[CS_NSRC];
	unsigned n, cap;
	int lost;		/* a register did not fit */
};

static void
regs_add(struct cs_regs *l, unsigned reg)
{
	unsigned i;

	if (reg == 0)
		return;
	for (i = 0; i < l->n; i++)
		if (l->r[i] == reg)
			return;
	if (l->n == l->cap)
		l->lost = 1;
	else
		l->r[l->n++] = (unsigned char)reg;
}

/*
 * Adds the registers of list (n of them; addr marks those forming an
 * address, which go first) that are not special, or also the stack
 * pointer if keep_sp.  Sets *nother to how many such registers there
 * were, whether or not they fitted.
 */
static void
regs_others(struct cs_regs *l, const uint16_t *list, unsigned n,
    unsigned addr, int keep_sp, unsigned *nother)
{
	unsigned i, pass, reg;

	*nother = 0;
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < n; i++) {
			if (((addr >> i) & 1) != (pass == 0))
				continue;
			reg = cs_reg(list[i]);
			if (reg == 0 || reg == CS_FLAGS || reg == CS_IP ||
			    (reg == CS_SP && !keep_sp))
				continue;
			++*nother;
			regs_add(l, reg);
		}
}

/* Returns 1 if a register of list (n of them) maps to ChampSim's cs. */
static int
reads(const uint16_t *list, unsigned n, unsigned cs)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (cs_reg(list[i]) == cs)
			return 1;
	return 0;
}

int
pmr_champsim_encode(const struct pmr_dinsn *di, unsigned char rec[64],
    struct pmr_champsim_counts *cnt)
{
	const struct pmr_sinsn *si = di->si;
	struct cs_regs d = { { 0 }, 0, CS_NDST, 0 };
	struct cs_regs s = { { 0 }, 0, CS_NSRC, 0 };
	unsigned i, k, nother, dummy;
	int branch = 1, taken = 1, lost = 0;

	memset(rec, 0, CS_REC);
	pmr_put64(rec, di->pc);
	switch (si->cls) {
	case PMR_OP_JMP:
		regs_add(&d, CS_IP);
		regs_others(&d, si->dst, si->ndst, 0, 1, &dummy);
		break;
	case PMR_OP_JMP_IND:
		regs_add(&d, CS_IP);
		regs_others(&d, si->dst, si->ndst, 0, 1, &dummy);
		regs_others(&s, si->src, si->nsrc, si->src_addr, 0, &nother);
		if (nother == 0)
			regs_add(&s, CS_TARGET);
		break;
	case PMR_OP_BR_COND:
		taken = (di->flags & PMR_DI_TAKEN) != 0;
		regs_add(&d, CS_IP);
		regs_others(&d, si->dst, si->ndst, 0, 0, &dummy);
		regs_others(&s, si->src, si->nsrc, si->src_addr, 0, &nother);
		s.n = 0;	/* counted: now in ChampSim's order */
		s.lost = 0;
		if (nother == 0 || reads(si->src, si->nsrc, CS_FLAGS))
			regs_add(&s, CS_FLAGS);
		regs_add(&s, CS_IP);
		regs_others(&s, si->src, si->nsrc, si->src_addr, 0, &dummy);
		break;
	case PMR_OP_CALL:
	case PMR_OP_CALL_IND:
		regs_add(&d, CS_SP);
		regs_add(&d, CS_IP);
		regs_others(&d, si->dst, si->ndst, 0, 0, &dummy);
		regs_add(&s, CS_SP);
		regs_add(&s, CS_IP);
		if (si->cls == PMR_OP_CALL_IND) {
			regs_others(&s, si->src, si->nsrc, si->src_addr, 0,
			    &nother);
			if (nother == 0)
				regs_add(&s, CS_TARGET);
		}
		/* A direct call reads nothing else: ChampSim would call it
		 * indirect.  Its other registers are not "lost". */
		d.lost = 0;
		break;
	case PMR_OP_RET:
		regs_add(&d, CS_SP);
		regs_add(&d, CS_IP);
		regs_others(&d, si->dst, si->ndst, 0, 0, &dummy);
		regs_add(&s, CS_SP);
		regs_others(&s, si->src, si->nsrc, si->src_addr, 0, &dummy);
		break;
	default:
		if (si->cls == PMR_OP_OTHER && (di->flags & PMR_DI_TAKEN)) {
			/* ChampSim's BRANCH_OTHER, as pmtrace import reads
			 * it: taken, with none of the patterns above. */
			regs_add(&d, CS_IP);
			regs_others(&d, si->dst, si->ndst, 0, 1, &dummy);
			regs_add(&s, CS_SP);
			regs_add(&s, CS_FLAGS);
			regs_add(&s, CS_IP);
			regs_others(&s, si->src, si->nsrc, si->src_addr, 0,
			    &dummy);
			break;
		}
		branch = taken = 0;
		for (i = 0; i < si->ndst; i++) {
			k = cs_reg(si->dst[i]);
			if (k != CS_IP)
				regs_add(&d, k);
		}
		for (k = 0; k < 2; k++)	/* address registers first */
			for (i = 0; i < si->nsrc; i++)
				if (((si->src_addr >> i) & 1) == (k == 0) &&
				    cs_reg(si->src[i]) != CS_IP)
					regs_add(&s, cs_reg(si->src[i]));
	}
	rec[8] = (unsigned char)branch;
	rec[9] = (unsigned char)taken;
	memcpy(rec + 10, d.r, CS_NDST);
	memcpy(rec + 12, s.r, CS_NSRC);

	/* Loads into source_memory, stores into destination_memory. */
	for (i = k = 0; i < di->nload && i < di->nmem; i++) {
		if (di->addr[i] == 0)
			cnt->zero++;
		else if (k == CS_NLOAD) {
			cnt->loads++;
			lost = 1;
		} else
			pmr_put64(rec + 32 + 8 * k++, di->addr[i]);
	}
	for (k = 0; i < di->nmem; i++) {
		if (di->addr[i] == 0)
			cnt->zero++;
		else if (k == CS_NSTORE) {
			cnt->stores++;
			lost = 1;
		} else
			pmr_put64(rec + 16 + 8 * k++, di->addr[i]);
	}
	cnt->n++;
	cnt->memlost += lost;
	cnt->reglost += d.lost || s.lost || (si->flags & PMR_SI_REGTRUNC);
	return PMR_OK;
}

int
pmr_champsim_comp_byname(const char *path)
{
	size_t n;

	if (path == NULL)
		return PMR_CS_RAW;
	n = strlen(path);
	if (n >= 3 && strcmp(path + n - 3, ".xz") == 0)
		return PMR_CS_XZ;
	if (n >= 3 && strcmp(path + n - 3, ".gz") == 0)
		return PMR_CS_GZIP;
	if (n >= 4 && strcmp(path + n - 4, ".zst") == 0)
		return PMR_CS_ZSTD;
	return PMR_CS_RAW;
}

struct pmr_champsim_writer {
	struct pmr_textout out;
	int comp;		/* PMR_CS_* */
	lzma_stream xz;
	z_stream gz;
	ZSTD_CStream *zs;
	unsigned char buf[CS_BUFREC * CS_REC];
	size_t len;
	unsigned char obuf[1 << 16];
	struct pmr_champsim_counts cnt;
	uint64_t outbytes;
	int err;
	char msg[256];
};

static int
cw_fail(struct pmr_champsim_writer *w, int code, const char *fmt, ...)
    PMR_FORMAT(3, 4);

static int
cw_fail(struct pmr_champsim_writer *w, int code, const char *fmt, ...)
{
	va_list ap;

	if (w->err != 0)
		return w->err;
	va_start(ap, fmt);
	vsnprintf(w->msg, sizeof(w->msg), fmt, ap);
	va_end(ap);
	w->err = code;
	return code;
}

static int
cw_put(struct pmr_champsim_writer *w, const unsigned char *p, size_t n)
{
	if (n > 0 && fwrite(p, 1, n, w->out.f) != n)
		return cw_fail(w, PMR_EIO, "write error: %s", strerror(errno));
	w->outbytes += n;
	return PMR_OK;
}

/* Compresses and writes the n bytes at p; with fin, ends the stream. */
static int
cw_emit(struct pmr_champsim_writer *w, const unsigned char *p, size_t n,
    int fin)
{
	lzma_ret lr;
	size_t zr;
	int zret;

	switch (w->comp) {
	case PMR_CS_XZ:
		w->xz.next_in = p;
		w->xz.avail_in = n;
		do {
			w->xz.next_out = w->obuf;
			w->xz.avail_out = sizeof(w->obuf);
			lr = lzma_code(&w->xz, fin ? LZMA_FINISH : LZMA_RUN);
			if (lr != LZMA_OK && lr != LZMA_STREAM_END)
				return cw_fail(w, PMR_EIO, "xz compression "
				    "failed (%d)", (int)lr);
			if (cw_put(w, w->obuf, sizeof(w->obuf) -
			    w->xz.avail_out) < 0)
				return w->err;
		} while (w->xz.avail_in > 0 || (fin && lr != LZMA_STREAM_END));
		return PMR_OK;
	case PMR_CS_GZIP:
		w->gz.next_in = (unsigned char *)(uintptr_t)p;
		w->gz.avail_in = (unsigned)n;
		do {
			w->gz.next_out = w->obuf;
			w->gz.avail_out = sizeof(w->obuf);
			zret = deflate(&w->gz, fin ? Z_FINISH : Z_NO_FLUSH);
			if (zret == Z_STREAM_ERROR)
				return cw_fail(w, PMR_EIO, "gzip compression "
				    "failed");
			if (cw_put(w, w->obuf, sizeof(w->obuf) -
			    w->gz.avail_out) < 0)
				return w->err;
		} while (w->gz.avail_in > 0 || (fin && zret != Z_STREAM_END));
		return PMR_OK;
	case PMR_CS_ZSTD: {
		ZSTD_inBuffer in = { p, n, 0 };
		ZSTD_outBuffer out;

		do {
			out.dst = w->obuf;
			out.size = sizeof(w->obuf);
			out.pos = 0;
			zr = ZSTD_compressStream2(w->zs, &out, &in,
			    fin ? ZSTD_e_end : ZSTD_e_continue);
			if (ZSTD_isError(zr))
				return cw_fail(w, PMR_EIO, "zstd: %s",
				    ZSTD_getErrorName(zr));
			if (cw_put(w, w->obuf, out.pos) < 0)
				return w->err;
		} while (in.pos < in.size || (fin && zr != 0));
		return PMR_OK;
	}
	default:
		return cw_put(w, p, n);
	}
}

struct pmr_champsim_writer *
pmr_champsim_writer_open(const char *path, int comp, int level, int *err,
    char *errbuf, size_t errlen)
{
	struct pmr_champsim_writer *w;
	lzma_mt mt = { 0 };
	const char *what = NULL;

	if ((w = calloc(1, sizeof(*w))) == NULL) {
		*err = PMR_ENOMEM;
		snprintf(errbuf, errlen, "out of memory");
		return NULL;
	}
	w->comp = comp;
	switch (comp) {
	case PMR_CS_XZ:
		/*
		 * xz at its default preset runs near 7 MB/s a thread, slower
		 * than everything else here: the multi-threaded encoder uses
		 * every core on blocks of its own choosing, and its output is
		 * one ordinary .xz stream, which xz -d (and so ChampSim) reads.
		 */
		w->xz = (lzma_stream)LZMA_STREAM_INIT;
		mt.threads = lzma_cputhreads();
		if (mt.threads == 0)
			mt.threads = 1;
		mt.preset = level > 0 ? (uint32_t)level : LZMA_PRESET_DEFAULT;
		mt.check = LZMA_CHECK_CRC64;
		if (lzma_stream_encoder_mt(&w->xz, &mt) != LZMA_OK)
			what = "xz";
		break;
	case PMR_CS_GZIP:
		if (deflateInit2(&w->gz, level > 0 ? level :
		    Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8,
		    Z_DEFAULT_STRATEGY) != Z_OK)
			what = "gzip";
		break;
	case PMR_CS_ZSTD:
		if ((w->zs = ZSTD_createCStream()) == NULL ||
		    ZSTD_isError(ZSTD_CCtx_setParameter(w->zs,
		    ZSTD_c_compressionLevel, level > 0 ? level :
		    ZSTD_CLEVEL_DEFAULT)) ||
		    ZSTD_isError(ZSTD_CCtx_setParameter(w->zs,
		    ZSTD_c_checksumFlag, 1)))
			what = "zstd";
		break;
	}
	if (what != NULL) {
		*err = PMR_ENOMEM;
		snprintf(errbuf, errlen, "cannot start the %s compressor", what);
		w->comp = comp == PMR_CS_GZIP ? PMR_CS_RAW : comp;
		pmr_champsim_writer_abort(w);
		return NULL;
	}
	if (pmr_textout_open(&w->out, path) != PMR_OK) {
		*err = PMR_EIO;
		snprintf(errbuf, errlen, "cannot create '%s': %s", path,
		    strerror(errno));
		pmr_champsim_writer_abort(w);
		return NULL;
	}
	return w;
}

int
pmr_champsim_write(struct pmr_champsim_writer *w, const struct pmr_dinsn *di)
{
	if (w->err != 0)
		return w->err;
	if (w->len == sizeof(w->buf)) {
		if (cw_emit(w, w->buf, w->len, 0) < 0)
			return w->err;
		w->len = 0;
	}
	pmr_champsim_encode(di, w->buf + w->len, &w->cnt);
	w->len += CS_REC;
	return PMR_OK;
}

const struct pmr_champsim_counts *
pmr_champsim_writer_counts(const struct pmr_champsim_writer *w)
{
	return &w->cnt;
}

uint64_t
pmr_champsim_writer_bytes(const struct pmr_champsim_writer *w)
{
	return w->outbytes;
}

const char *
pmr_champsim_writer_errmsg(const struct pmr_champsim_writer *w)
{
	return w->msg;
}

/* Frees the compressor state of w and w. */
static void
cw_free(struct pmr_champsim_writer *w)
{
	if (w->comp == PMR_CS_XZ)
		lzma_end(&w->xz);
	else if (w->comp == PMR_CS_GZIP)
		deflateEnd(&w->gz);
	else if (w->comp == PMR_CS_ZSTD)
		ZSTD_freeCStream(w->zs);
	free(w);
}

int
pmr_champsim_writer_close(struct pmr_champsim_writer *w, char *errbuf,
    size_t errlen)
{
	int ret;

	if (cw_emit(w, w->buf, w->len, 1) == PMR_OK && w->out.f != NULL &&
	    fflush(w->out.f) != 0)
		cw_fail(w, PMR_EIO, "write error: %s", strerror(errno));
	if (pmr_textout_close(&w->out, w->err == PMR_OK) != PMR_OK)
		cw_fail(w, PMR_EIO, "write error: %s", strerror(errno));
	ret = w->err;
	if (ret != PMR_OK && errbuf != NULL)
		snprintf(errbuf, errlen, "%s", w->msg);
	cw_free(w);
	return ret;
}

void
pmr_champsim_writer_abort(struct pmr_champsim_writer *w)
{
	if (w == NULL)
		return;
	if (w->out.f != NULL)
		(void)pmr_textout_close(&w->out, 0);
	cw_free(w);
}
