/*
 * decode.h: internal to lib/trace.  The reader object that every trace
 * source fills (struct pmr_trace and its operations), and what every
 * source decodes into or reports through, implemented in decode.c: the
 * table of static instructions and the sticky error.
 *
 * The files stand in layers, each calling only into the ones below it,
 * never back up:
 *
 *	trace.c (pmr_trace_open, pmr_trace_next: picks and calls a source)
 *	champsim.c drmem.c pmr.c qemu.c (the sources)
 *	decode.c (this header)
 */
#ifndef PMR_TRACE_DECODE_H
#define PMR_TRACE_DECODE_H

#include "stream/pmr_internal.h"
#include "trace/trace.h"

struct pmr_sitab;

/* --- the reader object ----------------------------------------------- */

struct pmr_trace_ops {
	int (*next)(struct pmr_trace *, struct pmr_dinsn *);
	void (*close)(struct pmr_trace *);
};

struct pmr_trace {
	int fmt;
	int err;		/* sticky error code, 0 if none */
	uint64_t seq;
	const struct pmr_trace_ops *ops;
	void *src;		/* the source's state */
	struct pmr_sitab *tab;
	/* pmr_trace_set_side(): other records of a native trace */
	void (*side)(void *, const struct pmr_rec *);
	void *sidectx;
	char errmsg[256];
};

/*
 * Returns a new trace with an empty table and no source, or NULL with
 * *err set to PMR_ENOMEM (and a message in errbuf if not NULL).  A source
 * then sets ops and src; pmr_trace_close() frees it.
 */
struct pmr_trace *pmr_trace_new(int *err, char *errbuf, size_t errlen);
/* Sets the sticky error of t; returns code. */
int pmr_trace_fail(struct pmr_trace *t, int code, const char *fmt, ...)
    PMR_FORMAT(3, 4);

/* --- the table of static instructions -------------------------------- */

/* Returns a new table, or NULL.  */
struct pmr_sitab *pmr_sitab_new(void);
void pmr_sitab_free(struct pmr_sitab *tab);
/* Returns the current static instruction at pc, or NULL. */
struct pmr_sinsn *pmr_sitab_lookup(struct pmr_sitab *tab, uint64_t pc);
/*
 * Adds a copy of *si as the new static instruction at si->pc (replacing
 * the mapping of an older one, which stays allocated) and returns it with
 * its id set, or NULL when out of memory or ids.
 */
struct pmr_sinsn *pmr_sitab_add(struct pmr_sitab *tab,
    const struct pmr_sinsn *si);
uint32_t pmr_sitab_count(const struct pmr_sitab *tab);
/* Forgets every pc mapping (a new stream starts); entries stay valid. */
void pmr_sitab_clear_map(struct pmr_sitab *tab);
/*
 * Returns the mapping generation: it changes whenever a pc's mapping is
 * replaced or forgotten, so a caller may keep "pc -> entry" answers of
 * pmr_sitab_lookup() while it stays the same.
 */
uint32_t pmr_sitab_gen(const struct pmr_sitab *tab);
const struct pmr_sinsn *pmr_sitab_get(const struct pmr_sitab *tab,
    uint32_t id);

/* --- the sources, opened and read by trace.c ------------------------- */

/* Source constructors: take over nothing on failure (message in t). */
int pmr_trace_champsim_open(struct pmr_trace *t, const char *path);
int pmr_trace_drmem_open(struct pmr_trace *t, const char *path);
int pmr_trace_pmr_open(struct pmr_trace *t, const char *path);
/*
 * The pmr source (pmr.c), which pmr_trace_next() calls directly:
 * pmr_trace_pmr_next() keeps the trace's sticky error and its sequence
 * numbers itself, unlike other sources' ops->next.
 */
extern const struct pmr_trace_ops pmr_trace_pmr_ops;
int pmr_trace_pmr_next(struct pmr_trace *t, struct pmr_dinsn *di);

#endif /* PMR_TRACE_DECODE_H */
