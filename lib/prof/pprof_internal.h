/*
 * pprof_internal.h: the protobuf encoding primitives and the string table
 * behind pmr_pprof_write (lib/prof/pprof.c), exposed for the unit tests
 * (tests/unit/test_pprof.c); not part of the public API in pprof.h.
 */
#ifndef PMR_PPROF_INTERNAL_H
#define PMR_PPROF_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "stream/pmr.h"

#define PMR_PB_VARINT_MAX 10	/* bytes of a 64-bit varint */

/*
 * A string table: distinct strings in order of first use, entry 0 "".  The
 * strings are the caller's (not copied); the table holds at most the
 * capacity given to pmr_pprof_strtab_init.
 */
struct pmr_pprof_strtab {
	const char **str;	/* n strings, str[0] = "" */
	size_t n, cap;
	size_t *slot;		/* open addressing: 0 empty, else index + 1 */
	size_t nslot;		/* a power of two, at least 2 * cap */
};

/*
 * Encodes v as a protobuf base-128 varint into out (room for
 * PMR_PB_VARINT_MAX bytes).  Returns the number of bytes written, 1 to 10;
 * a negative int64 cast to uint64_t takes 10.
 */
size_t pmr_pb_varint(unsigned char *out, uint64_t v);

/*
 * Makes t an empty table ("" only) for up to cap strings besides "".
 * Returns PMR_OK or PMR_ENOMEM; pmr_pprof_strtab_free releases t either way.
 */
int pmr_pprof_strtab_init(struct pmr_pprof_strtab *t, size_t cap)
    PMR_RESULT_USED;

/*
 * Finds s (NULL counts as "") in t, adding it if new.  Returns its index,
 * or -1 when the table is full.  s must outlive t.
 */
int64_t pmr_pprof_strtab_intern(struct pmr_pprof_strtab *t, const char *s);

/* Frees t's arrays (not the strings); t may be zeroed or half made. */
void pmr_pprof_strtab_free(struct pmr_pprof_strtab *t);

#endif /* PMR_PPROF_INTERNAL_H */
