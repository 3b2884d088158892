/*
 * rec_pairs.c: the field table of the METRIC record (type 40) that pairs
 * writes with -f pmr, as man/pmr.5 (PROFILE METRICS) and pairs(1) list it.
 *
 * A METRIC record of kind 0 holds the accumulators of one pc: acc is the
 * vector of sums that pairs adds up (sample counts, event counts, latency
 * sums, squares and histograms, pair overlaps, and the TRUTH fields), so
 * that METRIC streams of several shards merge by addition.  execs, retires
 * and wasted are the estimates of the stream alone, for reading with
 * pmview.  The single record of kind 1 holds the sampling scale (mode, S,
 * W, C, fetched, samples, pairs, ...).  Records grow only by appending
 * fields, and acc only by appending elements.
 */
#include <stddef.h>

#include "records/records.h"

#define F(name, kind, desc) \
	{ #name, PMR_K_##kind, 0, offsetof(struct pmr_pairs_metric_rec, name), \
	    desc }

static const struct pmr_field metric_fields[] = {
	F(key, X64, "pc (kind 0), 0 (kind 1)"),
	F(kind, U8, "0 accumulators of a pc, 1 sampling scale, 2 address, "
	    "edge or path counts"),
	F(cls, U8, "operation class of the pc"),
	F(samples, U64, "samples of the pc, pair members included"),
	F(execs, F64, "estimated executions (this stream alone)"),
	F(retires, F64, "estimated retires (this stream alone)"),
	F(wasted, F64, "estimated wasted issue slots, nan without pairs"),
	F(acc, A64, "accumulator vector (pairs(1))"),
};

const struct pmr_rtype pmr_rtypes_pairs[] = {
	{ PMR_REC_METRIC, "METRIC", "ProfileMe accumulators of a pc (pairs)",
	    metric_fields, sizeof(metric_fields) / sizeof(metric_fields[0]),
	    sizeof(struct pmr_pairs_metric_rec) },
};

const unsigned pmr_rtypes_pairs_n =
    sizeof(pmr_rtypes_pairs) / sizeof(pmr_rtypes_pairs[0]);
