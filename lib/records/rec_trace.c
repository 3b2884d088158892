/*
 * rec_trace.c: the field tables of the instruction trace records IMAGE
 * (8), SINSN (9) and DINSN (10), as man/pmr.5 (INSTRUCTION TRACES) lists
 * them.  The trace reader and writer (lib/trace/pmr.c) encode and decode
 * them by hand with the pmr_le* helpers, for speed; these tables stay
 * their reference and drive pmview: change both together.
 */
#include "records/records.h"

#define F(st, name, kind, since, desc) \
	{ #name, PMR_K_##kind, since, offsetof(struct st, name), desc }
#define NF(a) (sizeof(a) / sizeof((a)[0]))

static const struct pmr_field image_fields[] = {
	F(pmr_image, start, X64, 0, "load address"),
	F(pmr_image, size, U64, 0, "bytes mapped"),
	F(pmr_image, offset, X64, 0, "file offset mapped at start"),
	F(pmr_image, path, STR, 0, "path of the file"),
	F(pmr_image, build_id, BLOB, 0, "ELF build-id, may be empty"),
};

static const struct pmr_field sinsn_fields[] = {
	F(pmr_sinsn_rec, pc, X64, 0, "address"),
	F(pmr_sinsn_rec, isa, U8, 0, "1 x86-64, 2 aarch64, 3 riscv64"),
	F(pmr_sinsn_rec, cls, U8, 0, "operation class (pmr.5 table)"),
	F(pmr_sinsn_rec, len, U8, 0, "length in bytes, 0 unknown"),
	F(pmr_sinsn_rec, flags, U8, 0, "1 rep, 2 lock, 4 registers "
	    "truncated, 8 undecodable, 16 conditional move/set, 32 accesses "
	    "truncated"),
	F(pmr_sinsn_rec, nload, U8, 0, "the first nload accesses are loads"),
	F(pmr_sinsn_rec, target, X64, 0, "direct branch target, 0 none"),
	F(pmr_sinsn_rec, bytes, BLOB, 0, "instruction bytes"),
	F(pmr_sinsn_rec, src, BLOB, 0, "source registers, u16 LE each"),
	F(pmr_sinsn_rec, dst, BLOB, 0, "destination registers, u16 LE each"),
	F(pmr_sinsn_rec, src_addr, U16, 0, "bit i: src[i] forms an address"),
	F(pmr_sinsn_rec, msize, BLOB, 0, "bytes per access, u16 LE each "
	    "(loads first); their number is the access count"),
};

static const struct pmr_field dinsn_fields[] = {
	F(pmr_dinsn_rec, n, U32, 0, "instructions in the block"),
	F(pmr_dinsn_rec, flags, U32, 0, "1 values present, 2 end_pc "
	    "unknown; other bits must be understood"),
	F(pmr_dinsn_rec, tid, U32, 0, "thread id"),
	F(pmr_dinsn_rec, pc, X64, 0, "pc of the first instruction"),
	F(pmr_dinsn_rec, end_pc, X64, 0, "pc after the last instruction"),
	F(pmr_dinsn_rec, br, BLOB, 0, "conditional branch outcomes"),
	F(pmr_dinsn_rec, tgt, BLOB, 0, "indirect successor tokens"),
	F(pmr_dinsn_rec, mem, BLOB, 0, "address tokens"),
	F(pmr_dinsn_rec, val, BLOB, 0, "loaded value tokens"),
	F(pmr_dinsn_rec, exc, BLOB, 0, "access-shape exceptions"),
};

#define T(num, name, st, fields, desc) \
	{ num, name, desc, fields, NF(fields), sizeof(struct st) }

const struct pmr_rtype pmr_rtypes_trace[] = {
	T(PMR_REC_IMAGE, "IMAGE", pmr_image, image_fields,
	    "an executable or library mapped by the traced program"),
	T(PMR_REC_SINSN, "SINSN", pmr_sinsn_rec, sinsn_fields,
	    "a static instruction, before its first execution"),
	T(PMR_REC_DINSN, "DINSN", pmr_dinsn_rec, dinsn_fields,
	    "a block of executed instructions"),
};

const unsigned pmr_rtypes_trace_n = NF(pmr_rtypes_trace);
