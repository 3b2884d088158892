/*
 * rtypes.c: the registry of record types and the generic field codec.
 *
 * Each record type that libpmr knows has a field table (name, kind, the
 * minor version that appended it, its offset in the decoded struct).  The
 * tables drive pmr_rec_decode(), pmr_write(), the printer and the parser,
 * and are the source of the field tables in man/pmr.5, which is normative:
 * change both together.  Hot records (DINSN, EVENT) are also read by hand
 * with the pmr_le* helpers; the tables stay their reference.
 */
#include <stddef.h>
#include <strings.h>

#include "stream/pmr_internal.h"
#include "trace/trace.h"

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

static const struct pmr_rtype core_types[] = {
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

/* The simulator's records (lib/sim/sim_rtypes.c). */
extern const struct pmr_rtype pmr_rtypes_sim[];
extern const unsigned pmr_rtypes_sim_n;
/* pairs' METRIC record (lib/pairs_rtypes.c). */
extern const struct pmr_rtype pmr_rtypes_pairs[];
extern const unsigned pmr_rtypes_pairs_n;

#define NTYPES_MAX 128
static const struct pmr_rtype *all[NTYPES_MAX];
static unsigned nall;
static const struct pmr_rtype *direct[PMR_REC_USER];	/* types < 64 */

static void
add_table(const struct pmr_rtype *tab, unsigned n)
{
	unsigned j;

	for (j = 0; j < n && nall < NTYPES_MAX; j++) {
		all[nall++] = &tab[j];
		if (tab[j].type < PMR_REC_USER)
			direct[tab[j].type] = &tab[j];
	}
}

/* Builds the registry: the core types, then each family's table. */
static void
registry_init(void)
{
	if (nall > 0)
		return;
	add_table(core_types, NF(core_types));
	add_table(pmr_rtypes_trace, PMR_RTYPES_TRACE_N);
	add_table(pmr_rtypes_sim, pmr_rtypes_sim_n);
	add_table(pmr_rtypes_pairs, pmr_rtypes_pairs_n);
}

const struct pmr_rtype *
pmr_rtype_find(uint32_t type)
{
	unsigned i;

	registry_init();
	if (type < PMR_REC_USER)
		return direct[type];
	for (i = 0; i < nall; i++)
		if (all[i]->type == type)
			return all[i];
	return NULL;
}

const struct pmr_rtype *
pmr_rtype_byname(const char *name)
{
	unsigned i;

	registry_init();
	for (i = 0; i < nall; i++)
		if (strcasecmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

/* Returns the i-th registry entry, for iteration. */
const struct pmr_rtype *
pmr_rtype_at(unsigned i)
{
	registry_init();
	return i < nall ? all[i] : NULL;
}

/* Returns the wire size of a fixed-size kind, or 0 for variable ones. */
static unsigned
kind_size(unsigned kind)
{
	switch (kind) {
	case PMR_K_U8:
		return 1;
	case PMR_K_U16:
		return 2;
	case PMR_K_U32:
		return 4;
	case PMR_K_U64:
	case PMR_K_X64:
	case PMR_K_I64:
	case PMR_K_F64:
		return 8;
	default:
		return 0;
	}
}

size_t
pmr_rtype_minlen(const struct pmr_rtype *t)
{
	size_t n = 0;
	unsigned i;

	for (i = 0; i < t->nfields; i++) {
		unsigned k = kind_size(t->fields[i].kind);

		if (t->fields[i].since > 0)
			break;
		n += k ? k : 4;
	}
	return n;
}

int
pmr_fields_decode(const struct pmr_rtype *t, const unsigned char *p,
    size_t len, void *out, const char **why)
{
	unsigned char *o = out;
	size_t pos = 0;
	unsigned i;

	memset(out, 0, t->size);
	for (i = 0; i < t->nfields; i++) {
		const struct pmr_field *f = &t->fields[i];
		unsigned k = kind_size(f->kind);
		unsigned char *d = o + f->off;

		if (pos == len && f->since > 0)
			break;	/* appended later; the writer was older */
		if (k > 0) {
			if (len - pos < k)
				goto short_;
			switch (f->kind) {
			case PMR_K_U8:
				*d = p[pos];
				break;
			case PMR_K_U16: {
				uint16_t v = pmr_le16(p + pos);
				memcpy(d, &v, 2);
				break;
			}
			case PMR_K_U32: {
				uint32_t v = pmr_le32(p + pos);
				memcpy(d, &v, 4);
				break;
			}
			default: {	/* all 8-byte kinds share the bits */
				uint64_t v = pmr_le64(p + pos);
				memcpy(d, &v, 8);
				break;
			}
			}
			pos += k;
		} else {
			struct pmr_bytes b;
			uint64_t n, bytes;

			if (len - pos < 4)
				goto short_;
			n = pmr_le32(p + pos);
			pos += 4;
			bytes = f->kind == PMR_K_A64 ? n * 8 : n;
			if (bytes > len - pos) {
				if (why != NULL)
					*why = f->name;
				return PMR_ECORRUPT;
			}
			b.p = p + pos;
			b.n = (uint32_t)n;
			memcpy(d, &b, sizeof(b));
			pos += (size_t)bytes;
		}
	}
	return PMR_OK;
short_:
	if (why != NULL)
		*why = t->fields[i].name;
	return PMR_ECORRUPT;
}

size_t
pmr_fields_size(const struct pmr_rtype *t, const void *in)
{
	const unsigned char *o = in;
	size_t n = 0;
	unsigned i;

	for (i = 0; i < t->nfields; i++) {
		const struct pmr_field *f = &t->fields[i];
		unsigned k = kind_size(f->kind);

		if (k > 0)
			n += k;
		else {
			struct pmr_bytes b;

			memcpy(&b, o + f->off, sizeof(b));
			n += 4 + (f->kind == PMR_K_A64 ? (size_t)b.n * 8 : b.n);
		}
	}
	return n;
}

void
pmr_fields_encode(const struct pmr_rtype *t, const void *in,
    unsigned char *p)
{
	const unsigned char *o = in;
	unsigned i;

	for (i = 0; i < t->nfields; i++) {
		const struct pmr_field *f = &t->fields[i];
		const unsigned char *s = o + f->off;

		switch (f->kind) {
		case PMR_K_U8:
			*p++ = *s;
			break;
		case PMR_K_U16: {
			uint16_t v;
			memcpy(&v, s, 2);
			pmr_put16(p, v);
			p += 2;
			break;
		}
		case PMR_K_U32: {
			uint32_t v;
			memcpy(&v, s, 4);
			pmr_put32(p, v);
			p += 4;
			break;
		}
		case PMR_K_U64:
		case PMR_K_X64:
		case PMR_K_I64:
		case PMR_K_F64: {
			uint64_t v;
			memcpy(&v, s, 8);
			pmr_put64(p, v);
			p += 8;
			break;
		}
		default: {
			struct pmr_bytes b;
			size_t bytes;

			memcpy(&b, s, sizeof(b));
			bytes = f->kind == PMR_K_A64 ? (size_t)b.n * 8 : b.n;
			pmr_put32(p, b.n);
			if (bytes > 0)
				memcpy(p + 4, b.p, bytes);
			p += 4 + bytes;
			break;
		}
		}
	}
}

int
pmr_rec_decode(const struct pmr_rec *rec, void *out, const char **why)
{
	const struct pmr_rtype *t = pmr_rtype_find(rec->type);

	if (t == NULL) {
		if (why != NULL)
			*why = "unknown record type";
		return PMR_EINVAL;
	}
	return pmr_fields_decode(t, rec->p, rec->len, out, why);
}
