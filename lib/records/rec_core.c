/*
 * rec_core.c: the field tables of the core records, HEADER, END, PROV and
 * META (the stream's framing and metadata), and EVENT and HOT (mhash's
 * input and output), as man/pmr.5 (RECORD TYPES) lists them.
 */
#include "records/records.h"

#define F(st, name, kind, since, desc) \
	{ #name, PMR_K_##kind, since, offsetof(struct st, name), desc }
#define NF(a) (sizeof(a) / sizeof((a)[0]))

static const struct pmr_field header_fields[] = {
	F(pmr_header, minor, U16, 0, "minor version of the writer"),
	F(pmr_header, reserved, U16, 0, "written 0"),
	F(pmr_header, must_flags, U32, 0, "must-understand flag bits"),
	F(pmr_header, ign_flags, U32, 0, "ignorable flag bits"),
	F(pmr_header, creator, STR, 0, "program that wrote the stream"),
};

static const struct pmr_field end_fields[] = {
	F(pmr_end, nrec, U64, 0, "records in the stream before END"),
};

static const struct pmr_field prov_fields[] = {
	F(pmr_prov, seed, U64, 0, "random seed used"),
	F(pmr_prov, flags, U32, 0, "bit 0: the program used a seed"),
	F(pmr_prov, prog, STR, 0, "program name"),
	F(pmr_prov, version, STR, 0, "program version"),
	F(pmr_prov, cmdline, STR, 0, "full command line, shell-quoted"),
};

static const struct pmr_field meta_fields[] = {
	F(pmr_meta, key, STR, 0, "key"),
	F(pmr_meta, value, STR, 0, "value"),
};

static const struct pmr_field event_fields[] = {
	F(pmr_event, kind, U8, 0, "1 value (load pc, value), 2 edge "
	    "(branch pc, target)"),
	F(pmr_event, pc, X64, 0, "instruction address"),
	F(pmr_event, value, X64, 0, "loaded value or branch target"),
};

static const struct pmr_field hot_fields[] = {
	F(pmr_hot, interval, U64, 0, "interval index, from 0"),
	F(pmr_hot, pc, X64, 0, "instruction address"),
	F(pmr_hot, value, X64, 0, "value or branch target"),
	F(pmr_hot, count, U64, 0, "the profiler's count of the tuple"),
	F(pmr_hot, exact, U64, 0, "exact count in the interval, 0 unless "
	    "evaluated"),
	F(pmr_hot, cls, U8, 0, "0 exact, 1 neutral positive, 2 neutral "
	    "negative, 3 false positive, 4 false negative, 255 not "
	    "evaluated"),
};

#define T(num, name, st, fields, desc) \
	{ num, name, desc, fields, NF(fields), sizeof(struct st) }

const struct pmr_rtype pmr_rtypes_core[] = {
	T(PMR_REC_HEADER, "HEADER", pmr_header, header_fields,
	    "stream header (not a record on the wire)"),
	T(PMR_REC_END, "END", pmr_end, end_fields, "end of a stream"),
	T(PMR_REC_PROV, "PROV", pmr_prov, prov_fields,
	    "provenance: one per program that wrote or filtered the stream"),
	T(PMR_REC_META, "META", pmr_meta, meta_fields,
	    "key/value metadata"),
	T(PMR_REC_EVENT, "EVENT", pmr_event, event_fields,
	    "a profiled tuple for mhash"),
	T(PMR_REC_HOT, "HOT", pmr_hot, hot_fields,
	    "a hot tuple of an interval, found by mhash"),
};

const unsigned pmr_rtypes_core_n = NF(pmr_rtypes_core);
