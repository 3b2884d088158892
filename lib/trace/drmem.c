/*
 * drmem.c: DynamoRIO drmemtrace offline traces as pmr dynamic
 * instructions.
 *
 * A drmemtrace file is a sequence of 12-byte entries (DynamoRIO's
 * clients/drcachesim/common/trace_entry.h), little-endian:
 *
 *	off  size
 *	  0     2  type   (READ 0, WRITE 1, PREFETCH* 2-9 and 32-46, INSTR 10,
 *	                   DIRECT_JUMP 11 ... RETURN 16, BUNDLE 17, THREAD 22,
 *	                   THREAD_EXIT 23, PID 24, HEADER 25, FOOTER 26,
 *	                   MARKER 28, NO_FETCH 29, MAYBE_FETCH 30, SYSENTER 31,
 *	                   ENCODING 47, TAKEN_JUMP 48, UNTAKEN_JUMP 49)
 *	  2     2  size   (instruction length, access size, marker kind, or
 *	                   encoding bytes in this entry)
 *	  4     8  addr   (pc, data address, value, or up to 8 encoding bytes)
 *
 * stored either as the chunk.NNNN members of a zip archive (read in the
 * order of their numbers with libzip, each to its end so that libzip
 * checks its CRC-32) or as one raw or gzip/zstd/xz stream (.trace.gz).
 * ENCODING entries precede an instruction whose bytes the reader has not
 * seen in the current chunk; they are decoded by the same x86-64 decoder
 * as pmtrace's.  Memory entries follow their instruction, so an
 * instruction is complete when the next one of its thread starts, which
 * also gives its next pc.  Conditional branches are TAKEN_JUMP or
 * UNTAKEN_JUMP in current traces; the older CONDITIONAL_JUMP type is
 * resolved from the next pc.  The later steps of a rep string instruction
 * (INSTR_NO_FETCH at the same pc) belong to the first one, as in
 * drcachesim's instruction counts and the ChampSim converters: their
 * accesses are appended to it, up to PMR_INSN_MAXMEM.
 *
 * A per-thread trace holds one thread: HEADER, THREAD, its entries,
 * THREAD_EXIT, FOOTER.  A core-sharded trace (-core_sharded: what one
 * core ran) holds several, one after another and interleaved: each
 * thread has its own HEADER, THREAD_EXIT and FOOTER, a THREAD entry
 * switches threads, and idle markers may follow the last FOOTER.  The
 * whole input is read, and each instruction carries the id of the THREAD
 * entry before it.  An instruction followed by a thread switch, an exit
 * or the end of the input has no known successor: it is passed on with
 * PMR_DI_NEXTUNK and the successor its outcome or a BRANCH_TARGET marker
 * gives.  Nothing is skipped silently: an unknown entry type, an
 * instruction outside a thread, a member that does not end with its
 * chunk footer or the input with a FOOTER, a missing chunk and a bad
 * CRC-32 are errors.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

#include "trace/decode.h"

enum {
	DR_READ = 0, DR_WRITE = 1, DR_PREFETCH_FIRST = 2, DR_PREFETCH_LAST = 9,
	DR_INSTR = 10, DR_COND_JUMP = 13, DR_RETURN = 16, DR_BUNDLE = 17,
	DR_THREAD = 22, DR_THREAD_EXIT = 23, DR_HEADER = 25, DR_FOOTER = 26,
	DR_MARKER = 28, DR_NO_FETCH = 29, DR_SYSENTER = 31,
	DR_PREFETCH2_FIRST = 32, DR_PREFETCH2_LAST = 46, DR_ENCODING = 47,
	DR_TAKEN = 48, DR_UNTAKEN = 49,
	DR_NTYPE = 50			/* types past the last known one */
};

/* Marker kinds (the size field of a MARKER entry). */
enum {
	DR_M_CHUNK_FOOTER = 21,		/* value: the chunk's number */
	DR_M_BRANCH_TARGET = 29		/* value: the next indirect
					 * branch's target */
};

/* No THREAD entry is in force (at the start, after an exit or FOOTER). */
#define DR_NOTID UINT64_MAX

#define DR_ENT 12
#define ZBUF (64u * 1024 - 64u * 1024 % DR_ENT)

struct dr_src {
	char *path;
	/* zip input */
	zip_t *zip;
	zip_file_t *zf;
	zip_uint64_t *member;	/* chunk members by number */
	unsigned nmember, cur;
	uint64_t mbytes;	/* bytes read of the current member */
	unsigned char *buf;
	size_t bpos, blen;
	/* stream input */
	struct pmr_in *in;
	int zseen;		/* a compressed segment was read */

	struct pmr_insn_decoder *dec;
	unsigned char enc[PMR_INSN_MAXBYTES];
	unsigned nenc;
	int ended;
	uint64_t tid;		/* of the last THREAD entry, or DR_NOTID */
	uint64_t nent;
	unsigned char last[DR_ENT];	/* the last entry read */
	uint64_t btgt;		/* BRANCH_TARGET marker before the next */
	int has_btgt;		/* instruction */

	/* the pending instruction, complete when the next one starts */
	int have;
	struct pmr_sinsn *si;
	int outcome;		/* 1 taken, 0 not, -1 from next pc */
	uint32_t ptid;		/* its thread */
	int has_ptgt;		/* its BRANCH_TARGET marker, if any */
	uint64_t ptgt;
	unsigned nrd, nwr, memtrunc;
	uint64_t rd[PMR_INSN_MAXMEM], wr[PMR_INSN_MAXMEM];
	uint16_t rdsz[PMR_INSN_MAXMEM], wrsz[PMR_INSN_MAXMEM];
};

static int
is_instr(unsigned type)
{
	return (type >= DR_INSTR && type <= DR_RETURN) ||
	    (type >= DR_NO_FETCH && type <= DR_SYSENTER) ||
	    type == DR_TAKEN || type == DR_UNTAKEN;
}

static int
is_prefetch(unsigned type)
{
	return (type >= DR_PREFETCH_FIRST && type <= DR_PREFETCH_LAST) ||
	    (type >= DR_PREFETCH2_FIRST && type <= DR_PREFETCH2_LAST);
}

static const char *
member_name(struct dr_src *s)
{
	const char *name = zip_get_name(s->zip, s->member[s->cur - 1], 0);

	return name != NULL ? name : "?";
}

/*
 * Checks the end of the member just read to its end: it holds entries
 * and, unless it is the last, ends with the footer of its chunk.
 */
static int
member_end(struct pmr_trace *t, struct dr_src *s)
{
	if (s->mbytes == 0)
		return pmr_trace_fail(t, PMR_ECORRUPT, "'%s': member '%s' is "
		    "empty", s->path, member_name(s));
	if (s->cur < s->nmember && (pmr_le16(s->last) != DR_MARKER ||
	    pmr_le16(s->last + 2) != DR_M_CHUNK_FOOTER ||
	    pmr_le64(s->last + 4) != s->cur - 1))
		return pmr_trace_fail(t, PMR_ETRUNC, "'%s': member '%s' does "
		    "not end with the footer of chunk %u (truncated?)",
		    s->path, member_name(s), s->cur - 1);
	return 0;
}

/* Opens the next chunk member; returns 1, 0 when none is left, or <0. */
static int
next_member(struct pmr_trace *t, struct dr_src *s)
{
	if (s->zf != NULL) {
		zip_fclose(s->zf);
		s->zf = NULL;
	}
	if (s->cur == s->nmember)
		return 0;
	s->mbytes = 0;
	if ((s->zf = zip_fopen_index(s->zip, s->member[s->cur], 0)) == NULL)
		return pmr_trace_fail(t, PMR_ECORRUPT, "'%s': cannot read "
		    "member '%s': %s", s->path,
		    zip_get_name(s->zip, s->member[s->cur], 0),
		    zip_strerror(s->zip));
	s->cur++;
	return 1;
}

/*
 * Copies the next entry into e.  Returns 1, 0 at the end of the input, or
 * a negative code.
 */
static int
get_entry(struct pmr_trace *t, struct dr_src *s, unsigned char e[DR_ENT])
{
	const unsigned char *p;
	size_t avail = 0, rem;
	zip_int64_t n;
	int err = 0, r;

	if (s->in != NULL) {
		if ((p = pmr_in_peek(s->in, DR_ENT, &avail, &err)) == NULL)
			return pmr_trace_fail(t, err, "'%s': %s", s->path,
			    pmr_in_errmsg(s->in));
		if (pmr_in_codec(s->in) != PMR_C_RAW)
			s->zseen = 1;
		else if (s->zseen)
			return pmr_trace_fail(t, PMR_ECORRUPT, "'%s': "
			    "uncompressed bytes after the compressed data",
			    s->path);
		if (avail == 0)
			return 0;
		if (avail < DR_ENT)
			return pmr_trace_fail(t, PMR_ETRUNC, "'%s': drmemtrace "
			    "ends inside an entry", s->path);
		memcpy(e, p, DR_ENT);
		memcpy(s->last, p, DR_ENT);
		pmr_in_skip(s->in, DR_ENT);
		return 1;
	}
	while (s->blen - s->bpos < DR_ENT) {
		rem = s->blen - s->bpos;
		memmove(s->buf, s->buf + s->bpos, rem);
		s->bpos = 0;
		s->blen = rem;
		n = s->zf != NULL ? zip_fread(s->zf, s->buf + rem, ZBUF - rem) :
		    0;
		if (n < 0)
			return pmr_trace_fail(t, PMR_ECORRUPT, "'%s': member "
			    "'%s': %s", s->path, member_name(s),
			    zip_file_strerror(s->zf));
		if (n > 0) {
			s->blen += (size_t)n;
			s->mbytes += (uint64_t)n;
			continue;
		}
		/* libzip has checked the member's CRC-32: it was read to
		 * its end */
		if (rem != 0)
			return pmr_trace_fail(t, PMR_ETRUNC, "'%s': member "
			    "'%s' ends inside an entry", s->path,
			    member_name(s));
		if ((r = member_end(t, s)) < 0 ||
		    (r = next_member(t, s)) <= 0)
			return r;
	}
	memcpy(e, s->buf + s->bpos, DR_ENT);
	memcpy(s->last, e, DR_ENT);
	s->bpos += DR_ENT;
	return 1;
}

/* Makes the instruction of entry (type, len, pc) the pending one. */
static int
start_insn(struct pmr_trace *t, struct dr_src *s, unsigned type,
    unsigned len, uint64_t pc)
{
	struct pmr_sinsn tmp, *si;
	int r;

	si = pmr_sitab_lookup(t->tab, pc);
	if (s->nenc > 0) {
		if (s->nenc != len)
			return pmr_trace_fail(t, PMR_ECORRUPT, "'%s': entry %llu:"
			    " %u encoding bytes for a %u-byte instruction at "
			    "0x%llx", s->path, (unsigned long long)s->nent,
			    s->nenc, len, (unsigned long long)pc);
		if (si == NULL || si->len != len ||
		    memcmp(si->bytes, s->enc, len) != 0) {
			tmp.id = 0;
			r = pmr_insn_decode(s->dec, pc, s->enc, s->nenc, &tmp);
			if (r > 0 && (unsigned)r != len)
				return pmr_trace_fail(t, PMR_ECORRUPT, "'%s': "
				    "instruction at 0x%llx decodes to %d bytes,"
				    " the trace says %u", s->path,
				    (unsigned long long)pc, r, len);
			if (r < 0) {	/* unknown to capstone: "other" */
				tmp.len = (uint8_t)len;
				memcpy(tmp.bytes, s->enc, len);
			}
			if ((si = pmr_sitab_add(t->tab, &tmp)) == NULL)
				return pmr_trace_fail(t, PMR_ENOMEM, "'%s': out "
				    "of memory for static instructions",
				    s->path);
		}
		s->nenc = 0;
	} else if (si == NULL) {
		return pmr_trace_fail(t, PMR_EFORMAT, "'%s': drmemtrace has "
		    "no instruction encodings (none for pc 0x%llx); this "
		    "reader needs the ENCODING entries that raw2trace of "
		    "recent DynamoRIO releases writes", s->path,
		    (unsigned long long)pc);
	} else if (si->len != len) {
		return pmr_trace_fail(t, PMR_ECORRUPT, "'%s': instruction at "
		    "0x%llx is %u bytes, its encoding had %u", s->path,
		    (unsigned long long)pc, len, si->len);
	}
	s->si = si;
	s->have = 1;
	s->ptid = (uint32_t)s->tid;
	s->has_ptgt = s->has_btgt;
	s->ptgt = s->btgt;
	s->has_btgt = 0;
	s->nrd = s->nwr = s->memtrunc = 0;
	if (type == DR_TAKEN)
		s->outcome = 1;
	else if (type == DR_UNTAKEN)
		s->outcome = 0;
	else if (type == DR_COND_JUMP || si->cls == PMR_OP_BR_COND)
		s->outcome = -1;
	else
		s->outcome = pmr_insn_class_is_branch(si->cls);
	return 0;
}

/*
 * Fills di from the pending instruction, whose successor is at next if
 * known, else unknown (a thread switch or exit, the end of the input).
 */
static void
finish_insn(struct dr_src *s, struct pmr_dinsn *di, uint64_t next,
    int known)
{
	const struct pmr_sinsn *si = s->si;
	unsigned i;
	int taken = s->outcome;

	if (taken < 0)
		taken = known && next != si->pc + si->len;
	di->si = si;
	di->pc = si->pc;
	di->next_pc = known ? next : si->pc + si->len;
	di->flags = (uint8_t)((taken ? PMR_DI_TAKEN : 0) |
	    (known ? 0 : PMR_DI_NEXTUNK) | (s->memtrunc ? PMR_DI_MEMTRUNC : 0));
	if (!known && taken && si->target != 0)
		di->next_pc = si->target;
	if (!known && s->has_ptgt && taken)
		di->next_pc = s->ptgt;
	di->tid = s->ptid;
	di->value = 0;
	di->reserved = 0;
	for (i = 0; i < s->nrd; i++) {
		di->addr[i] = s->rd[i];
		di->msize[i] = s->rdsz[i];
	}
	for (i = 0; i < s->nwr; i++) {
		di->addr[s->nrd + i] = s->wr[i];
		di->msize[s->nrd + i] = s->wrsz[i];
	}
	di->nload = (uint8_t)s->nrd;
	di->nmem = (uint8_t)(s->nrd + s->nwr);
	s->have = 0;
}

/*
 * Ends the pending instruction's thread segment (a thread switch or exit,
 * a FOOTER or HEADER): the instruction goes into di with an unknown
 * successor.  Returns 1 if there was one, else 0.
 */
static int
end_segment(struct dr_src *s, struct pmr_dinsn *di)
{
	if (!s->have)
		return 0;
	finish_insn(s, di, 0, 0);
	return 1;
}

static int
dr_next(struct pmr_trace *t, struct pmr_dinsn *di)
{
	struct dr_src *s = t->src;
	unsigned char e[DR_ENT];
	unsigned type, size;
	uint64_t addr;
	int r;

	for (;;) {
		r = s->ended ? 0 : get_entry(t, s, e);
		if (r < 0)
			return r;
		if (r == 0) {
			if (!s->ended && (s->nent == 0 ||
			    pmr_le16(s->last) != DR_FOOTER))
				return pmr_trace_fail(t, PMR_ETRUNC, "'%s': "
				    "drmemtrace ends without a FOOTER entry "
				    "(truncated?)", s->path);
			s->ended = 1;
			return end_segment(s, di);
		}
		s->nent++;
		type = pmr_le16(e);
		size = pmr_le16(e + 2);
		addr = pmr_le64(e + 4);
		if (s->nent == 1 && type != DR_HEADER)
			return pmr_trace_fail(t, PMR_EFORMAT, "'%s': not a "
			    "drmemtrace (it does not start with a HEADER "
			    "entry)", s->path);
		if (type == DR_NO_FETCH && s->have && addr == s->si->pc)
			continue;	/* next step of a rep string instruction */
		if (is_instr(type)) {
			int had = s->have;

			if (s->tid == DR_NOTID)
				return pmr_trace_fail(t, PMR_ECORRUPT, "'%s': "
				    "entry %llu: instruction outside any "
				    "thread (no THREAD entry since the start, "
				    "a THREAD_EXIT or a FOOTER)", s->path,
				    (unsigned long long)s->nent);
			if (had)
				finish_insn(s, di, addr, 1);
			if ((r = start_insn(t, s, type, size, addr)) < 0)
				return r;
			if (had)
				return 1;
			continue;
		}
		if (type >= DR_NTYPE)
			return pmr_trace_fail(t, PMR_EVERSION, "'%s': entry "
			    "%llu: unknown entry type %u (a newer drmemtrace "
			    "version?)", s->path, (unsigned long long)s->nent,
			    type);
		switch (type) {
		case DR_READ:
		case DR_WRITE:
			if (!s->have)
				return pmr_trace_fail(t, PMR_ECORRUPT, "'%s': "
				    "entry %llu: memory access with no "
				    "instruction before it", s->path,
				    (unsigned long long)s->nent);
			if (s->nrd + s->nwr == PMR_INSN_MAXMEM) {
				s->memtrunc = 1;
				break;
			}
			if (type == DR_WRITE) {
				s->wrsz[s->nwr] = (uint16_t)size;
				s->wr[s->nwr++] = addr;
			} else {
				s->rdsz[s->nrd] = (uint16_t)size;
				s->rd[s->nrd++] = addr;
			}
			break;
		case DR_ENCODING:
			if (size > 8 || s->nenc + size > 15)
				return pmr_trace_fail(t, PMR_ECORRUPT, "'%s': "
				    "entry %llu: bad encoding entry (%u bytes "
				    "after %u)", s->path,
				    (unsigned long long)s->nent, size,
				    s->nenc);
			memcpy(s->enc + s->nenc, e + 4, size);
			s->nenc += size;
			break;
		case DR_BUNDLE:
			return pmr_trace_fail(t, PMR_EVERSION, "'%s': entry "
			    "%llu: instruction bundles are not supported "
			    "(convert the trace with raw2trace)", s->path,
			    (unsigned long long)s->nent);
		case DR_THREAD:
			if (addr == s->tid)
				break;
			s->tid = addr;	/* a switch */
			if (end_segment(s, di))
				return 1;
			break;
		case DR_HEADER:
		case DR_THREAD_EXIT:
		case DR_FOOTER:
			/* a thread ends (or, HEADER, the next one starts) */
			s->tid = DR_NOTID;
			if (end_segment(s, di))
				return 1;
			break;
		case DR_MARKER:
			if (size == DR_M_BRANCH_TARGET) {
				s->btgt = addr;
				s->has_btgt = 1;
			}
			break;
		default:
			if (!is_prefetch(type))
				break;	/* flushes, PID, ... */
			if (!s->have)
				return pmr_trace_fail(t, PMR_ECORRUPT, "'%s': "
				    "entry %llu: prefetch with no instruction "
				    "before it", s->path,
				    (unsigned long long)s->nent);
			if (s->nrd + s->nwr < PMR_INSN_MAXMEM) {
				s->rdsz[s->nrd] = (uint16_t)size;
				s->rd[s->nrd++] = addr;
			}
			break;
		}
	}
}

static void
dr_close(struct pmr_trace *t)
{
	struct dr_src *s = t->src;

	if (s == NULL)
		return;
	if (s->zf != NULL)
		zip_fclose(s->zf);
	if (s->zip != NULL)
		zip_discard(s->zip);
	pmr_in_close(s->in);
	pmr_insn_decoder_close(s->dec);
	free(s->member);
	free(s->buf);
	free(s->path);
	free(s);
	t->src = NULL;
}

static const struct pmr_trace_ops dr_ops = { dr_next, dr_close };

/* Returns the code and message of libzip error zerr. */
static int
zip_fail(struct pmr_trace *t, const char *path, int zerr)
{
	zip_error_t ze;
	int code;

	code = zerr == ZIP_ER_NOZIP ? PMR_EFORMAT : zerr == ZIP_ER_OPEN ||
	    zerr == ZIP_ER_READ ? PMR_EIO : PMR_ECORRUPT;
	zip_error_init_with_code(&ze, zerr);
	pmr_trace_fail(t, code, "'%s': %s", path, zerr == ZIP_ER_NOZIP ?
	    "not a zip archive (or a truncated one)" :
	    zip_error_strerror(&ze));
	zip_error_fini(&ze);
	return code;
}

struct member {
	unsigned long num;	/* NNNN of chunk.NNNN */
	zip_uint64_t index;
};

static int
cmp_member(const void *a, const void *b)
{
	unsigned long x = ((const struct member *)a)->num;
	unsigned long y = ((const struct member *)b)->num;

	return (x > y) - (x < y);
}

/*
 * Returns the number of the chunk member called name, -1 if name is no
 * chunk.NNNN (members of other names are not part of the trace), -2 if it
 * is chunk. followed by something else.
 */
static long
chunk_number(const char *name)
{
	const char *p;
	long v = 0;

	if (strncmp(name, "chunk.", 6) != 0)
		return -1;
	for (p = name + 6; *p >= '0' && *p <= '9' && v < 100000000; p++)
		v = v * 10 + (*p - '0');
	return p == name + 6 || *p != '\0' ? -2 : v;
}

/*
 * Opens the zip archive and lists its chunk members by number (chunk.9999
 * comes before chunk.10000), which must run from 0 without a gap.
 */
static int
open_zip(struct pmr_trace *t, struct dr_src *s)
{
	struct member *m;
	zip_int64_t n, i;
	const char *name;
	unsigned k;
	long num;
	int zerr = 0;

	if ((s->zip = zip_open(s->path, ZIP_RDONLY, &zerr)) == NULL)
		return zip_fail(t, s->path, zerr);
	n = zip_get_num_entries(s->zip, 0);
	if (n < 0 || n > 1000000)
		return zip_fail(t, s->path, ZIP_ER_INCONS);
	if ((m = calloc((size_t)n + 1, sizeof(*m))) == NULL ||
	    (s->member = calloc((size_t)n + 1, sizeof(*s->member))) == NULL ||
	    (s->buf = malloc(ZBUF)) == NULL) {
		free(m);
		return pmr_trace_fail(t, PMR_ENOMEM, "out of memory");
	}
	for (i = 0; i < n; i++) {
		if ((name = zip_get_name(s->zip, (zip_uint64_t)i, 0)) == NULL)
			continue;
		if ((num = chunk_number(name)) == -2) {
			free(m);
			return pmr_trace_fail(t, PMR_EFORMAT, "'%s': member "
			    "'%s' is not named chunk.NNNN", s->path, name);
		}
		if (num >= 0) {
			m[s->nmember].num = (unsigned long)num;
			m[s->nmember++].index = (zip_uint64_t)i;
		}
	}
	qsort(m, s->nmember, sizeof(*m), cmp_member);
	for (k = 0; k < s->nmember; k++) {
		if (m[k].num < k) {
			free(m);
			return pmr_trace_fail(t, PMR_ECORRUPT, "'%s': two "
			    "members are chunk %u", s->path, k - 1);
		}
		if (m[k].num > k) {
			num = (long)m[s->nmember - 1].num;
			free(m);
			return pmr_trace_fail(t, PMR_ECORRUPT, "'%s': member "
			    "chunk.%04u is missing (the last is chunk.%04ld)",
			    s->path, k, num);
		}
		s->member[k] = m[k].index;
	}
	free(m);
	if (s->nmember == 0)
		return pmr_trace_fail(t, PMR_EFORMAT, "'%s': zip archive has "
		    "no chunk.NNNN members (not a drmemtrace)", s->path);
	return next_member(t, s) < 0 ? t->err : 0;
}

int
pmr_trace_drmem_open(struct pmr_trace *t, const char *path)
{
	struct dr_src *s;
	unsigned char b[4] = { 0 };
	FILE *f;
	int err = 0, r;

	if (path == NULL || strcmp(path, "-") == 0)
		return pmr_trace_fail(t, PMR_EINVAL, "drmemtrace input must "
		    "be a file, not standard input");
	if ((s = calloc(1, sizeof(*s))) == NULL ||
	    (s->path = strdup(path)) == NULL) {
		free(s);
		return pmr_trace_fail(t, PMR_ENOMEM, "out of memory");
	}
	s->tid = DR_NOTID;
	t->src = s;
	t->ops = &dr_ops;
	if ((s->dec = pmr_insn_decoder_open(PMR_ISA_X86_64, &err)) == NULL) {
		r = pmr_trace_fail(t, err, "cannot start the x86-64 decoder");
		goto fail;
	}
	if ((f = fopen(path, "rb")) == NULL) {
		r = pmr_trace_fail(t, PMR_EIO, "cannot open '%s': %s", path,
		    strerror(errno));
		goto fail;
	}
	if (fread(b, 1, 4, f) != 4)
		b[0] = 0;
	fclose(f);
	if (memcmp(b, "PK", 2) == 0) {
		if ((r = open_zip(t, s)) < 0)
			goto fail;
	} else if ((s->in = pmr_in_open(path, &err)) == NULL) {
		r = pmr_trace_fail(t, err, "cannot open '%s': %s", path,
		    pmr_strerror(err));
		goto fail;
	}
	return 0;
fail:
	dr_close(t);
	t->ops = NULL;
	return r;
}
