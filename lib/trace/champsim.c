/*
 * champsim.c: ChampSim traces as pmr dynamic instructions.
 *
 * A ChampSim trace is a headerless sequence of 64-byte input_instr
 * records, little-endian:
 *
 *	off  size
 *	  0     8  ip
 *	  8     1  is_branch
 *	  9     1  branch_taken
 *	 10     2  destination_registers[2]   (0 = none)
 *	 12     4  source_registers[4]        (0 = none)
 *	 16    16  destination_memory[2]      (u64 each, 0 = none)
 *	 32    32  source_memory[4]           (u64 each, 0 = none)
 *
 * raw or compressed (xz, gzip, zstd: struct pmr_in decodes them; a
 * concatenation of compressed streams is one trace, but uncompressed
 * bytes after them are an error, not more records).  The
 * branch kind is derived from the registers exactly as ChampSim's
 * ooo_model_instr constructor does (inc/instruction.h, 2023 and later),
 * with its convention 6 = stack pointer, 25 = flags, 26 = instruction
 * pointer; the branch target is the next record's ip.  Registers 6 and 25
 * become rsp and flags; every other number is converter-specific and is
 * kept as the opaque PMR_REG_FOREIGN + n.  ChampSim cannot express
 * multiplies, divides or fp: those are class "other" (ChampSim executes
 * every instruction in one cycle), like every non-memory, non-branch
 * instruction.  Lengths are learned from fall-through successors and
 * targets from taken successors (0 until then).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace/decode.h"

#define CS_REC 64
#define CS_SP 6
#define CS_FLAGS 25
#define CS_IP 26

struct cs_src {
	struct pmr_in *in;
	char *path;
	uint64_t nrec;
	int zcodec;		/* codec of the compressed data, 0 none */
};

int
pmr_champsim_class(const unsigned char rec[64], int *taken)
{
	int writes_sp = 0, writes_ip = 0, reads_sp = 0, reads_flags = 0;
	int reads_ip = 0, reads_other = 0, i, nl = 0, ns = 0;

	for (i = 0; i < 2; i++) {
		writes_sp |= rec[10 + i] == CS_SP;
		writes_ip |= rec[10 + i] == CS_IP;
	}
	for (i = 0; i < 4; i++) {
		unsigned r = rec[12 + i];

		if (r == 0)
			continue;
		reads_sp |= r == CS_SP;
		reads_flags |= r == CS_FLAGS;
		reads_ip |= r == CS_IP;
		reads_other |= r != CS_SP && r != CS_FLAGS && r != CS_IP;
	}
	for (i = 0; i < 2; i++)
		ns += pmr_le64(rec + 16 + 8 * i) != 0;
	for (i = 0; i < 4; i++)
		nl += pmr_le64(rec + 32 + 8 * i) != 0;

	*taken = 1;
	if (!reads_sp && !reads_flags && writes_ip && !reads_other)
		return PMR_OP_JMP;
	if (!reads_sp && !reads_ip && !reads_flags && writes_ip && reads_other)
		return PMR_OP_JMP_IND;
	*taken = rec[9] != 0;
	if (!reads_sp && reads_ip && !writes_sp && writes_ip &&
	    (reads_flags || reads_other))
		return PMR_OP_BR_COND;
	*taken = 1;
	if (reads_sp && reads_ip && writes_sp && writes_ip && !reads_flags &&
	    !reads_other)
		return PMR_OP_CALL;
	if (reads_sp && reads_ip && writes_sp && writes_ip && !reads_flags &&
	    reads_other)
		return PMR_OP_CALL_IND;
	if (reads_sp && !reads_ip && writes_sp && writes_ip)
		return PMR_OP_RET;
	*taken = rec[9] != 0;
	if (writes_ip)
		return PMR_OP_OTHER;	/* ChampSim's BRANCH_OTHER */
	*taken = 0;
	if (nl > 0 && ns > 0)
		return PMR_OP_LDST;
	if (nl > 0)
		return PMR_OP_LOAD;
	if (ns > 0)
		return PMR_OP_STORE;
	return PMR_OP_OTHER;
}

static unsigned
map_reg(unsigned r)
{
	if (r == CS_SP)
		return PMR_X86_RSP;
	if (r == CS_FLAGS)
		return PMR_X86_FLAGS;
	return PMR_REG_FOREIGN + r;
}

/* Fills the static part of record rec into *si; returns its class. */
static void
static_of(const unsigned char *rec, struct pmr_sinsn *si, int *taken)
{
	unsigned i;

	memset(si, 0, sizeof(*si));
	si->isa = PMR_ISA_X86_64;
	si->pc = pmr_le64(rec);
	si->cls = (uint8_t)pmr_champsim_class(rec, taken);
	for (i = 0; i < 4; i++)
		if (rec[12 + i] != 0 && rec[12 + i] != CS_IP)
			si->src[si->nsrc++] = (uint16_t)map_reg(rec[12 + i]);
	for (i = 0; i < 2; i++)
		if (rec[10 + i] != 0 && rec[10 + i] != CS_IP)
			si->dst[si->ndst++] = (uint16_t)map_reg(rec[10 + i]);
	for (i = 0; i < 4; i++)
		if (pmr_le64(rec + 32 + 8 * i) != 0)
			si->nload++;
	si->nmem = si->nload;
	for (i = 0; i < 2; i++)
		if (pmr_le64(rec + 16 + 8 * i) != 0)
			si->nmem++;
}

/* Returns 1 if a and b have the same static shape (len/target aside). */
static int
same_static(const struct pmr_sinsn *a, const struct pmr_sinsn *b)
{
	return a->cls == b->cls && a->nsrc == b->nsrc && a->ndst == b->ndst &&
	    a->nmem == b->nmem && a->nload == b->nload &&
	    memcmp(a->src, b->src, a->nsrc * sizeof(a->src[0])) == 0 &&
	    memcmp(a->dst, b->dst, a->ndst * sizeof(a->dst[0])) == 0;
}

static int
cs_next(struct pmr_trace *t, struct pmr_dinsn *di)
{
	struct cs_src *s = t->src;
	const unsigned char *p;
	struct pmr_sinsn tmp, *si;
	size_t avail = 0;
	uint64_t next = 0, d;
	int err = 0, taken, have_next;
	unsigned i;

	if ((p = pmr_in_peek(s->in, 2 * CS_REC, &avail, &err)) == NULL)
		return pmr_trace_fail(t, err, "'%s': %s", s->path,
		    pmr_in_errmsg(s->in));
	/* concatenated compressed streams are one trace, but raw bytes
	 * after them are no records (64 zero bytes would look like one) */
	if (pmr_in_codec(s->in) != PMR_C_RAW)
		s->zcodec = (int)pmr_in_codec(s->in);
	else if (s->zcodec != 0)
		return pmr_trace_fail(t, PMR_ECORRUPT, "'%s': uncompressed "
		    "bytes after the %s data", s->path,
		    s->zcodec == PMR_C_XZ ? "xz" : s->zcodec == PMR_C_GZIP ?
		    "gzip" : "zstd");
	if (avail == 0) {
		/* the format has no header: an empty input is the one sign
		 * of a trace that was never written, so it is no trace */
		if (s->nrec == 0)
			return pmr_trace_fail(t, PMR_ECORRUPT, "'%s': empty "
			    "ChampSim trace (no records)", s->path);
		return 0;
	}
	if (avail < CS_REC || (avail > CS_REC && avail < 2 * CS_REC))
		return pmr_trace_fail(t, PMR_ETRUNC, "'%s': ChampSim trace "
		    "ends %zu bytes into record %llu (its size is not a "
		    "multiple of 64)", s->path, avail % CS_REC,
		    (unsigned long long)(s->nrec + (avail > CS_REC)));
	have_next = avail >= 2 * CS_REC;
	if (have_next)
		next = pmr_le64(p + CS_REC);

	static_of(p, &tmp, &taken);
	si = pmr_sitab_lookup(t->tab, tmp.pc);
	if (si == NULL || !same_static(si, &tmp)) {
		if ((si = pmr_sitab_add(t->tab, &tmp)) == NULL)
			return pmr_trace_fail(t, PMR_ENOMEM, "'%s': out of "
			    "memory for static instructions", s->path);
	}
	/* Learn what the successor tells (len, direct target). */
	if (have_next) {
		d = next - tmp.pc;
		if (!taken && si->len == 0 && d >= 1 && d <= 15)
			si->len = (uint8_t)d;
		if (taken && si->target == 0 && (si->cls == PMR_OP_JMP ||
		    si->cls == PMR_OP_CALL || si->cls == PMR_OP_BR_COND))
			si->target = next;
	}

	di->si = si;
	di->pc = tmp.pc;
	di->flags = taken ? PMR_DI_TAKEN : 0;
	di->tid = 0;
	di->value = 0;
	di->reserved = 0;
	if (have_next) {
		di->next_pc = next;
	} else {
		di->next_pc = tmp.pc + si->len;
		di->flags |= PMR_DI_NEXTUNK;
	}
	di->nmem = di->nload = 0;
	for (i = 0; i < 4; i++)
		if ((d = pmr_le64(p + 32 + 8 * i)) != 0) {
			di->msize[di->nmem] = 0;
			di->addr[di->nmem++] = d;
		}
	di->nload = di->nmem;
	for (i = 0; i < 2; i++)
		if ((d = pmr_le64(p + 16 + 8 * i)) != 0) {
			di->msize[di->nmem] = 0;
			di->addr[di->nmem++] = d;
		}
	pmr_in_skip(s->in, CS_REC);
	s->nrec++;
	return 1;
}

static void
cs_close(struct pmr_trace *t)
{
	struct cs_src *s = t->src;

	if (s == NULL)
		return;
	pmr_in_close(s->in);
	free(s->path);
	free(s);
	t->src = NULL;
}

static const struct pmr_trace_ops cs_ops = { cs_next, cs_close };

int
pmr_trace_champsim_open(struct pmr_trace *t, const char *path)
{
	struct cs_src *s;
	int err = 0;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return pmr_trace_fail(t, PMR_ENOMEM, "out of memory");
	if ((s->path = strdup(path != NULL ? path : "-")) == NULL) {
		free(s);
		return pmr_trace_fail(t, PMR_ENOMEM, "out of memory");
	}
	if ((s->in = pmr_in_open(path, &err)) == NULL) {
		pmr_trace_fail(t, err, "cannot open '%s': %s", s->path,
		    pmr_strerror(err));
		free(s->path);
		free(s);
		return err;
	}
	t->src = s;
	t->ops = &cs_ops;
	return 0;
}
