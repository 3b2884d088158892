/*
 * fields.c: the generic field codec of the record stream.
 *
 * Each record type has a field table in lib/records (name, kind, the
 * minor version that appended it, its offset in the decoded struct),
 * which man/pmr.5 lists as the normative layout.  The codec here walks a
 * table to decode a payload into the struct, to size and encode a struct,
 * and drives pmr_rec_decode() and pmr_write(); the printer and the parser
 * (fmt.c) walk the same tables.  Hot records (DINSN, EVENT) are also read
 * by hand with the pmr_le* helpers; the tables stay their reference.
 */
#include <stddef.h>

#include "stream/pmr_internal.h"

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
