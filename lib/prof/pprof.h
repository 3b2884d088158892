/*
 * pprof.h: a writer of Google pprof profiles (the perftools.profiles.Profile
 * message of pprof's proto/profile.proto, gzip-compressed as pprof expects
 * on disk), for flat per-address profiles: one sample per location, each
 * with its own values and numeric labels.  The schema the tests decode the
 * output with is tests/data/pprof/profile.proto.
 *
 * What goes where in the profile:
 * - sample_type[i] is {type_name[i], type_unit[i]}; every sample has ntype
 *   values (a packed field).  default_sample_type names
 *   type_name[default_type]; period_type is that type too (type 0 when
 *   default_type is -1), written only when period is not 0.
 * - mapping k gets id k + 1; build_id is stored as the hex text given.
 *   has_functions is set on a mapping when one of its locations has a name.
 * - location k gets id k + 1, its address, its mapping's id (none when
 *   mapping is -1) and, when func is not NULL, one line naming the function
 *   with line number 0 (no source lines are known).
 * - function: one per distinct (func, mapping) pair, name and system_name
 *   both func, no filename.  profile.proto has no field for a function's
 *   address, so start_line holds func_lo (the first nonzero one seen for
 *   the pair): an address, not a source line.
 * - sample k: location_id [k + 1], value, and a label
 *   {key label_key[j], num, num_unit label_unit[j]} for every label j whose
 *   value is not NaN.  Label values are doubles rounded to the nearest
 *   int64 (halves away from zero: 2.5 -> 3, -2.5 -> -3); a caller
 *   wanting fractions scales first and says so in the unit (e.g. CPI x
 *   1000 with unit "millicycles").  A num of 0 is left out of the label
 *   (a proto3 default), so pprof's reader drops a label that rounds to 0
 *   and has no unit; give such labels a unit.
 * - comment, when not NULL, is the profile's one comment; time_nanos and
 *   duration_nanos are copied.
 * Strings are stored once in the string table (string_table[0] is "").
 */
#ifndef PMR_PPROF_H
#define PMR_PPROF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stream/pmr.h"

struct pmr_pprof_mapping {
	uint64_t start, limit, offset;	/* memory_start, memory_limit, file_offset */
	const char *path;		/* filename, or NULL */
	const char *build_id;		/* hex text, or NULL */
};

struct pmr_pprof_loc {
	uint64_t addr;			/* one location per address */
	int mapping;			/* index into mappings, -1 none */
	const char *func;		/* function name, NULL unknown (no line then) */
	uint64_t func_lo;		/* the function's start address (for start_line, may be 0) */
	const int64_t *value;		/* ntype values */
	const double *label;		/* nlabel numeric labels, NaN = absent; may be NULL */
};

struct pmr_pprof {
	size_t ntype;
	const char *const *type_name;	/* ntype sample type names */
	const char *const *type_unit;	/* ntype units ("count", "cycles") */
	size_t nlabel;
	const char *const *label_key;	/* nlabel label keys */
	const char *const *label_unit;	/* nlabel num_units; NULL, or NULL/"" items: none */
	size_t nmap;
	const struct pmr_pprof_mapping *map;
	size_t nloc;
	const struct pmr_pprof_loc *loc;
	const char *comment;		/* may be NULL; e.g. the run's command line */
	int64_t period;
	int default_type;		/* index into the types, -1 none */
	int64_t time_nanos, duration_nanos;
};

/*
 * Writes p to out as a gzipped profile.proto Profile, in one pass, and
 * flushes out; the caller opens and closes out, and keeps every string and
 * array of p alive during the call.  Returns PMR_OK (0); PMR_EINVAL when p
 * is inconsistent (two locations with the same addr, a mapping index out of
 * range, default_type out of range, a missing name or unit, a NULL value
 * array with ntype > 0, a label that is infinite or outside int64 after
 * rounding, more than 2^31 strings); PMR_ENOMEM; or PMR_EIO when writing
 * fails (errno says why).  On an error, out may hold part of a profile.
 */
int pmr_pprof_write(FILE *out, const struct pmr_pprof *p) PMR_RESULT_USED;

#endif /* PMR_PPROF_H */
