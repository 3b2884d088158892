/*
 * dcpi.h: DCPI's sample-aggregation hash table (Anderson et al., SOSP '97
 * §4.2 and §5.4), a model of the per-CPU driver structure that counts
 * samples by (PID, PC, EVENT) before the user-level daemon sees them.
 *
 * A table of entries counters in buckets of ways entries (DCPI: 16K
 * entries, 4 ways of 16 bytes, one 64-byte line a bucket).  A sample that
 * matches an entry of its bucket increments it; otherwise one entry of
 * the bucket is evicted into an overflow buffer and the sample takes its
 * place with a count of 1.  Two overflow buffers (DCPI: 8K entries each)
 * alternate: a full one is handed to the daemon (the sink) while the
 * other fills.  The final flush hands over the partial buffer and then
 * every entry left in the table, so the counts handed over always sum to
 * the samples seen.  The library never prints and never exits.
 */
#ifndef PMR_DCPI_H
#define PMR_DCPI_H

#include <stddef.h>
#include <stdint.h>

#include "stream/pmr.h"

/* Which entry of a full bucket a miss evicts. */
enum pmr_dcpi_policy {
	PMR_DCPI_RR,		/* DCPI: way (mod-ways counter), advanced on
				 * every eviction, one counter a table */
	PMR_DCPI_SWAPFRONT	/* §5.4: a hit swaps to the front, a new entry
				 * goes in front, the last one is evicted */
};

/* How (pid, pc, event) picks its bucket. */
enum pmr_dcpi_hashfn {
	PMR_DCPI_HMIX,		/* multiply the fields in, murmur3's fmix64 */
	PMR_DCPI_HXOR		/* (pc >> 2) ^ event ^ pid << 12, mod buckets:
				 * what a handler can afford in a few cycles */
};

#define PMR_DCPI_ENTRY_BYTES 16	/* DCPI's entry: PID, PC, EVENT, count */
#define PMR_DCPI_MAXWAYS 64

struct pmr_dcpi_cfg {
	uint32_t entries;	/* table entries, a multiple of ways [16384] */
	uint32_t ways;		/* entries a bucket [4] */
	uint32_t overflow;	/* entries of each of the two buffers [8192] */
	enum pmr_dcpi_policy policy;	/* [rr] */
	enum pmr_dcpi_hashfn hash;	/* [mix] */
};

/* One aggregated sample, in the table or handed to the daemon. */
struct pmr_dcpi_entry {
	uint64_t pc;
	uint64_t ev;		/* the event (or the tuple's value) */
	uint64_t count;		/* 0: an empty entry */
	uint32_t pid;
};

struct pmr_dcpi_stats {
	uint64_t samples;	/* samples in */
	uint64_t hits;		/* samples that matched an entry */
	uint64_t misses;	/* samples that took a new entry */
	uint64_t evictions;	/* entries evicted into an overflow buffer */
	uint64_t handoffs;	/* full overflow buffers handed over */
	uint64_t flushed;	/* table entries handed over by the final flush */
	uint64_t records;	/* entries handed over: evictions + flushed */
	uint64_t counted;	/* Σ counts handed over (= samples once
				 * finished) */
};

struct pmr_dcpi;

/* Sets c to DCPI's configuration: 16K entries, 4 ways, rr, two 8K
 * buffers, the mix hash. */
void pmr_dcpi_cfg_init(struct pmr_dcpi_cfg *c);
/*
 * Checks c.  Returns 0, or -1 with a message in err (errlen bytes).
 */
int pmr_dcpi_cfg_check(const struct pmr_dcpi_cfg *c, char *err,
    size_t errlen);
/* Returns the bytes of the table and both buffers at DCPI's 16 bytes an
 * entry (512 KB for the defaults, §4.2). */
uint64_t pmr_dcpi_bytes(const struct pmr_dcpi_cfg *c);
/* Returns the names of the policies and of the hashes, by enum value,
 * NULL-terminated. */
const char *const *pmr_dcpi_policy_names(void);
const char *const *pmr_dcpi_hash_names(void);

/*
 * Creates a table of the configuration c (copied).  sink (may be NULL)
 * is the daemon: it receives the n entries handed over, a full overflow
 * buffer, the partial one at the final flush, then the table's entries;
 * the array is valid during the call only.  Returns the table, or NULL
 * with a message in err (a bad configuration, out of memory).  Caller
 * frees it with pmr_dcpi_free().
 */
struct pmr_dcpi *pmr_dcpi_new(const struct pmr_dcpi_cfg *c,
    void (*sink)(void *arg, const struct pmr_dcpi_entry *e, size_t n),
    void *arg, char *err, size_t errlen) PMR_RESULT_USED;
/* Frees d; NULL is allowed. */
void pmr_dcpi_free(struct pmr_dcpi *d);
/* Counts one sample.  Returns 1 on a hit, 0 on a miss. */
int pmr_dcpi_add(struct pmr_dcpi *d, uint32_t pid, uint64_t pc,
    uint64_t ev);
/* The final flush: hands over the partial buffer, then every entry of the
 * table, and empties the table.  The table can take samples again. */
void pmr_dcpi_finish(struct pmr_dcpi *d);
/* Returns the counters so far. */
const struct pmr_dcpi_stats *pmr_dcpi_stats(const struct pmr_dcpi *d);
/* Returns the bucket of (pid, pc, ev). */
uint32_t pmr_dcpi_bucket(const struct pmr_dcpi *d, uint32_t pid,
    uint64_t pc, uint64_t ev);
/* Returns entry way of bucket b (for tests); count 0 if empty. */
const struct pmr_dcpi_entry *pmr_dcpi_way(const struct pmr_dcpi *d,
    uint32_t b, unsigned way);

#endif /* PMR_DCPI_H */
