/*
 * import.c: perf script text of AMD IBS op and Arm SPE samples to the
 * SAMPLE, IMAGE and META records of man/pmr.5.  The accepted text, the
 * mapping and the limits are in import.h.  The input is read one line at a
 * time into one buffer, and every record is written as soon as its line is
 * parsed, so memory does not depend on the input's length.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "prof/import.h"
#include "sim/sim.h"
#include "trace/trace.h"

/*
 * perf_mem_data_src (uapi linux/perf_event.h): field shifts and widths,
 * and the bits used here.
 */
#define DS_OP(v) ((v) & 0x1fu)			/* mem_op, bits 0-4 */
#define DS_LVL(v) (((v) >> 5) & 0x3fffu)	/* mem_lvl, bits 5-18 */
#define DS_TLB(v) (((v) >> 26) & 0x7fu)		/* mem_dtlb, bits 26-32 */
#define DS_LVLNUM(v) (((v) >> 33) & 0xfu)	/* mem_lvl_num, 33-36 */
#define DS_REMOTE(v) (((v) >> 37) & 0x1u)	/* mem_remote, bit 37 */
#define DS_HOPS(v) (((v) >> 43) & 0x7u)		/* mem_hops, bits 43-45 */

#define HOPS_0 0x1u		/* remote core, same node */

#define OP_NA 0x01u
#define OP_LOAD 0x02u
#define OP_STORE 0x04u
#define OP_PFETCH 0x08u
#define OP_EXEC 0x10u

#define LVL_NA 0x0001u
#define LVL_HIT 0x0002u
#define LVL_MISS 0x0004u
#define LVL_L1 0x0008u
#define LVL_LFB 0x0010u
#define LVL_L2 0x0020u
#define LVL_L3 0x0040u
#define LVL_LOC_RAM 0x0080u
#define LVL_REM_RAM1 0x0100u
#define LVL_REM_RAM2 0x0200u
#define LVL_REM_CCE1 0x0400u
#define LVL_REM_CCE2 0x0800u
#define LVL_IO 0x1000u
#define LVL_UNC 0x2000u

#define TLB_MISS 0x04u

#define LVLNUM_L1 0x1u
#define LVLNUM_L2 0x2u
#define LVLNUM_L3 0x3u
#define LVLNUM_L4 0x4u
#define LVLNUM_L2_MHB 0x5u	/* L2 miss-handling buffer */
#define LVLNUM_MSC 0x6u		/* memory-side cache */
#define LVLNUM_UNC 0x8u
#define LVLNUM_CXL 0x9u
#define LVLNUM_IO 0xau
#define LVLNUM_ANY_CACHE 0xbu
#define LVLNUM_LFB 0xcu
#define LVLNUM_RAM 0xdu
#define LVLNUM_PMEM 0xeu
#define LVLNUM_NA 0xfu

/* Where the data came from, nearest first. */
enum src { S_NONE, S_L1, S_LFB, S_CACHE, S_MEM };

#define LIMITS "one op per sample, no pairs; skid-free tags but not " \
	"time-proportional: sample counts estimate op counts, not cycles; " \
	"fetch position, history and stage latencies unknown"

#define HASH_SLOTS (2 * PMR_IMPORT_DSO_MAX)	/* a power of two */

#define DSO_WRITTEN 0x1		/* its zero-extent IMAGE is written */
#define DSO_MAPPED 0x2		/* an executable mapping line names it */

/* One executable mapping of a PERF_RECORD_MMAP or MMAP2 line. */
struct map {
	uint64_t start, size, offset;	/* addr, len, pgoff */
	char *path;
	unsigned char bid[PMR_IMPORT_BID_MAX];	/* build-id, nbid bytes */
	size_t nbid;
	int written;			/* its IMAGE is written */
};

struct imp {
	FILE *in;
	const char *name;
	struct pmr_writer *w;
	struct pmr_prof_import_stats st;
	char *err;
	size_t errlen;
	enum pmr_prof_import_kind kind;
	char *line;
	uint64_t lineno;
	int started;		/* METAs written */
	int ncol;		/* numeric columns before SYM, 0 unknown yet */
	int has_event;		/* event column seen on the first line */
	char *event;		/* event name of the first sample line */
	char *dso[HASH_SLOTS];	/* DSO names seen (open addressing) */
	unsigned char dso_flag[HASH_SLOTS];	/* DSO_* of each name */
	unsigned ndso;
	struct map *map;	/* executable mappings, in input order */
	unsigned nmap, mapcap;
	long last;		/* mapping of the previous sample, or -1 */
};

static int
fail(struct imp *m, int code, const char *fmt, ...) PMR_FORMAT(3, 4);

/* Formats "NAME:LINE: what" (or "NAME: what" before any line) into err. */
static int
fail(struct imp *m, int code, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (m->errlen == 0)
		return code;
	if (m->lineno > 0)
		n = snprintf(m->err, m->errlen, "%s:%llu: ", m->name,
		    (unsigned long long)m->lineno);
	else
		n = snprintf(m->err, m->errlen, "%s: ", m->name);
	if (n < 0 || (size_t)n >= m->errlen)
		return code;
	va_start(ap, fmt);
	vsnprintf(m->err + n, m->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return code;
}

static int
is_hex(const char *s, size_t n)
{
	size_t i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

static int
is_dec(const char *s, size_t n)
{
	size_t i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* Parses n hex digits at s (at most 16).  Returns 0, or -1. */
static int
parse_hex(const char *s, size_t n, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (!is_hex(s, n) || n > 16)
		return -1;
	for (i = 0; i < n; i++) {
		int c = (unsigned char)s[i];

		x = x << 4 | (uint64_t)(isdigit(c) ? c - '0' :
		    tolower(c) - 'a' + 10);
	}
	*v = x;
	return 0;
}

/* Parses n decimal digits at s, at most max.  Returns 0, or -1. */
static int
parse_dec(const char *s, size_t n, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (!is_dec(s, n))
		return -1;
	for (i = 0; i < n; i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (x > (max - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

/* One whitespace-separated token of the line. */
struct tok {
	const char *s;
	size_t n;
};

/* Returns the token at or after *p and moves *p past it; n 0 at the end. */
static struct tok
next_tok(const char **p)
{
	struct tok t;
	const char *q = *p;

	while (*q == ' ' || *q == '\t')
		q++;
	t.s = q;
	while (*q != '\0' && *q != ' ' && *q != '\t')
		q++;
	t.n = (size_t)(q - t.s);
	*p = q;
	return t;
}

/* Returns a quoted copy of t for a message (in buf). */
static const char *
q(char *buf, size_t len, struct tok t)
{
	return pmr_quote(buf, len, t.s, t.n);
}

static int
is_time(struct tok t)
{
	const char *dot;

	if (t.n < 4 || t.s[t.n - 1] != ':')
		return 0;
	dot = memchr(t.s, '.', t.n);
	return dot != NULL && is_dec(t.s, (size_t)(dot - t.s)) &&
	    is_dec(dot + 1, (size_t)(t.s + t.n - 1 - (dot + 1)));
}

static int
is_event(struct tok t)
{
	return t.n >= 2 && t.s[t.n - 1] == ':' && !is_time(t);
}

/* Returns 1 if the width - t.n characters before t are spaces, in line. */
static int
right_aligned(const char *line, struct tok t, size_t width)
{
	size_t i;

	if (t.n >= width)
		return t.s > line && t.s[-1] == ' ';
	if ((size_t)(t.s - line) < width - t.n)
		return 0;
	for (i = 1; i <= width - t.n; i++)
		if (t.s[-(ptrdiff_t)i] != ' ')
			return 0;
	return 1;
}

static enum src
src_of_lvlnum(unsigned n)
{
	switch (n) {
	case LVLNUM_L1:
		return S_L1;
	case LVLNUM_LFB:
		return S_LFB;
	case LVLNUM_L2:
	case LVLNUM_L3:
	case LVLNUM_L4:
	case LVLNUM_L2_MHB:
	case LVLNUM_MSC:
	case LVLNUM_ANY_CACHE:
		return S_CACHE;
	case LVLNUM_RAM:
	case LVLNUM_PMEM:
	case LVLNUM_CXL:
	case LVLNUM_IO:
	case LVLNUM_UNC:
		return S_MEM;
	default:
		return S_NONE;
	}
}

/* The nearest source that the mem_lvl bits name ("L1 or L2": L1). */
static enum src
src_of_lvl(unsigned l)
{
	if (l & LVL_L1)
		return S_L1;
	if (l & LVL_LFB)
		return S_LFB;
	if (l & (LVL_L2 | LVL_L3 | LVL_REM_CCE1 | LVL_REM_CCE2))
		return S_CACHE;
	if (l & (LVL_LOC_RAM | LVL_REM_RAM1 | LVL_REM_RAM2 | LVL_IO |
	    LVL_UNC))
		return S_MEM;
	return S_NONE;
}

uint32_t
pmr_prof_import_events(uint64_t ds)
{
	unsigned op = (unsigned)DS_OP(ds), lvl = (unsigned)DS_LVL(ds);
	unsigned num = (unsigned)DS_LVLNUM(ds);
	int remote, miss, beyond_l3;
	uint32_t ev = 0;
	enum src s;

	if (!(op & (OP_LOAD | OP_STORE)) || (op & OP_NA))
		return 0;
	if (DS_TLB(ds) & TLB_MISS)
		ev |= PMR_SIM_EV_DTLB_MISS;
	/* another core of the same node is not beyond the node's LLC */
	remote = DS_REMOTE(ds) && DS_HOPS(ds) != HOPS_0;
	if (num != 0 && num != LVLNUM_NA) {
		s = src_of_lvlnum(num);
		beyond_l3 = num == LVLNUM_L3 || num == LVLNUM_L4 ||
		    s == S_MEM;
	} else {
		s = src_of_lvl(lvl);
		remote |= (lvl & (LVL_REM_RAM1 | LVL_REM_RAM2 |
		    LVL_REM_CCE1 | LVL_REM_CCE2)) != 0;
		beyond_l3 = (lvl & ~(LVL_NA | LVL_HIT | LVL_MISS | LVL_L1 |
		    LVL_LFB | LVL_L2)) != 0;
	}
	if (s == S_NONE)
		return ev;
	miss = (lvl & LVL_MISS) && !(lvl & LVL_HIT);
	if (miss) {
		/* a miss at any level is at least an L1 miss */
		ev |= PMR_SIM_EV_DCACHE_MISS;
		if (beyond_l3 || remote)
			ev |= PMR_SIM_EV_LLC_MISS;
		return ev;
	}
	if (s != S_L1)
		ev |= PMR_SIM_EV_DCACHE_MISS;
	if (s == S_MEM || remote)
		ev |= PMR_SIM_EV_LLC_MISS | PMR_SIM_EV_DCACHE_MISS;
	return ev;
}

static int
spe_name(const char *s, size_t n)
{
	static const char *const names[] = {
		"l1d-miss", "l1d-access", "llc-miss", "llc-access",
		"tlb-miss", "tlb-access", "branch", "branch-miss",
		"remote-access", "memory", "instructions", "all",
	};
	size_t i;

	if (n >= 7 && strncmp(s, "arm_spe", 7) == 0)
		return 1;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == n && memcmp(names[i], s, n) == 0)
			return 1;
	return 0;
}

static uint32_t
fnv(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/*
 * Returns the slot of name s (n bytes) in the DSO table, added if new, or
 * <0 (the table is full, or no memory).
 */
static long
dso_slot(struct imp *m, const char *s, size_t n)
{
	uint32_t h;
	char *d;

	for (h = fnv(s, n) & (HASH_SLOTS - 1); m->dso[h] != NULL;
	    h = (h + 1) & (HASH_SLOTS - 1))
		if (strlen(m->dso[h]) == n && memcmp(m->dso[h], s, n) == 0)
			return (long)h;
	if (m->ndso == PMR_IMPORT_DSO_MAX)
		return fail(m, PMR_EFORMAT, "more than %u distinct dsos and "
		    "mapped paths", PMR_IMPORT_DSO_MAX);
	if ((d = strndup(s, n)) == NULL)
		return fail(m, PMR_ENOMEM, "out of memory");
	m->dso[h] = d;
	m->ndso++;
	return (long)h;
}

/*
 * Writes the zero-extent IMAGE of dso unless written already or some
 * executable mapping line names it.  Returns 0 or <0.
 */
static int
see_dso(struct imp *m, const char *s, size_t n)
{
	struct pmr_image im;
	long h;
	int rc;

	if (n == 9 && memcmp(s, "[unknown]", 9) == 0)
		return 0;
	if ((h = dso_slot(m, s, n)) < 0)
		return (int)h;
	if (m->dso_flag[h] & (DSO_WRITTEN | DSO_MAPPED))
		return 0;
	m->dso_flag[h] |= DSO_WRITTEN;
	memset(&im, 0, sizeof(im));
	im.path.p = (const unsigned char *)m->dso[h];
	im.path.n = (uint32_t)n;
	if ((rc = pmr_write(m->w, PMR_REC_IMAGE, &im)) < 0)
		return fail(m, rc, "%s", pmr_writer_errmsg(m->w));
	m->st.dso++;
	return 0;
}

static int
map_covers(const struct map *p, uint64_t pc)
{
	return pc >= p->start && pc - p->start < p->size;
}

static int
map_is(const struct map *p, const char *s, size_t n)
{
	return strlen(p->path) == n && memcmp(p->path, s, n) == 0;
}

/*
 * Writes the IMAGE of the mapping that holds pc, once; the dso's zero
 * IMAGE if no mapping holds pc.  Of several mappings that hold pc, the
 * latest one of the dso's path wins, else the latest one.  Returns 0 or
 * <0.
 */
static int
see_pc(struct imp *m, uint64_t pc, const char *dso, size_t n)
{
	struct pmr_image im;
	struct map *p;
	long i, any = -1, pick = -1;
	int rc;

	if (m->last >= 0 && map_covers(&m->map[m->last], pc) &&
	    map_is(&m->map[m->last], dso, n))
		pick = m->last;
	for (i = (long)m->nmap - 1; pick < 0 && i >= 0; i--) {
		if (!map_covers(&m->map[i], pc))
			continue;
		if (any < 0)
			any = i;
		if (map_is(&m->map[i], dso, n))
			pick = i;
	}
	if (pick < 0)
		pick = any;
	if (pick < 0)
		return see_dso(m, dso, n);
	m->last = pick;
	p = &m->map[pick];
	if (p->written)
		return 0;
	p->written = 1;
	memset(&im, 0, sizeof(im));
	im.start = p->start;
	im.size = p->size;
	im.offset = p->offset;
	im.path.p = (const unsigned char *)p->path;
	im.path.n = (uint32_t)strlen(p->path);
	im.build_id.p = p->bid;
	im.build_id.n = (uint32_t)p->nbid;
	if ((rc = pmr_write(m->w, PMR_REC_IMAGE, &im)) < 0)
		return fail(m, rc, "%s", pmr_writer_errmsg(m->w));
	m->st.dso++;
	return 0;
}

/* Adds a mapping unless one with the same start, size, offset and path
 * is there.  Returns 0 or <0. */
static int
add_map(struct imp *m, const struct map *nm, const char *path, size_t n)
{
	struct map *p;
	unsigned i;
	long h;

	for (i = 0; i < m->nmap; i++) {
		p = &m->map[i];
		if (p->start == nm->start && p->size == nm->size &&
		    p->offset == nm->offset && map_is(p, path, n))
			return 0;
	}
	if (m->nmap == PMR_IMPORT_MAP_MAX)
		return fail(m, PMR_EFORMAT, "more than %u distinct executable "
		    "mappings", PMR_IMPORT_MAP_MAX);
	if ((h = dso_slot(m, path, n)) < 0)
		return (int)h;
	m->dso_flag[h] |= DSO_MAPPED;
	if (m->nmap == m->mapcap) {
		unsigned cap = m->mapcap == 0 ? 16 : 2 * m->mapcap;

		if (cap > PMR_IMPORT_MAP_MAX)
			cap = PMR_IMPORT_MAP_MAX;
		p = realloc(m->map, cap * sizeof(*p));
		if (p == NULL)
			return fail(m, PMR_ENOMEM, "out of memory");
		m->map = p;
		m->mapcap = cap;
	}
	p = &m->map[m->nmap];
	*p = *nm;
	p->written = 0;
	if ((p->path = strndup(path, n)) == NULL)
		return fail(m, PMR_ENOMEM, "out of memory");
	m->nmap++;
	m->st.maps++;
	m->last = -1;
	return 0;
}

/* Moves *p past the literal lit if it is there.  Returns 1 if it was. */
static int
lit(const char **p, const char *lit)
{
	size_t n = strlen(lit);

	if (strncmp(*p, lit, n) != 0)
		return 0;
	*p += n;
	return 1;
}

/* Parses perf's "%#" PRIx64 at *p ("0x1f", or "0" for zero), moves *p
 * past it.  Returns 0, or -1. */
static int
map_hex(const char **p, uint64_t *v)
{
	const char *s = *p;
	size_t n;

	if (s[0] == '0' && s[1] == 'x') {
		s += 2;
		for (n = 0; isxdigit((unsigned char)s[n]); n++)
			;
		if (parse_hex(s, n, v) != 0)
			return -1;
		*p = s + n;
		return 0;
	}
	if (s[0] == '0' && !isxdigit((unsigned char)s[1])) {
		*v = 0;
		*p = s + 1;
		return 0;
	}
	return -1;
}

/* Parses a decimal of at most max at *p, "-1" too if neg; moves *p past
 * it.  Returns 0, or -1. */
static int
map_dec(const char **p, uint64_t max, int neg, uint64_t *v)
{
	const char *s = *p;
	size_t n;

	if (neg && s[0] == '-' && s[1] == '1' &&
	    !isdigit((unsigned char)s[2])) {
		*v = 0;
		*p = s + 2;
		return 0;
	}
	for (n = 0; isdigit((unsigned char)s[n]); n++)
		;
	if (parse_dec(s, n, max, v) != 0)
		return -1;
	*p = s + n;
	return 0;
}

/*
 * Parses the text after "PERF_RECORD_MMAP" (mmap2 0) or "PERF_RECORD_MMAP2"
 * (mmap2 1) and adds the mapping if it is executable.  Returns 0 or <0.
 */
static int
mmap_line(struct imp *m, const char *s, int mmap2)
{
	const char *kind = mmap2 ? "PERF_RECORD_MMAP2" : "PERF_RECORD_MMAP";
	const char *p = s, *what, *end;
	struct map nm;
	uint64_t v;
	size_t n;
	int exec;
	char b[64];

	memset(&nm, 0, sizeof(nm));
	what = "pid/tid";
	if (!lit(&p, " ") || map_dec(&p, UINT32_MAX, 1, &v) != 0 ||
	    !lit(&p, "/") || map_dec(&p, UINT32_MAX, 1, &v) != 0)
		goto bad;
	what = "': [' and the start";
	if (!lit(&p, ": [") || map_hex(&p, &nm.start) != 0)
		goto bad;
	what = "'(' and the length";
	if (!lit(&p, "(") || map_hex(&p, &nm.size) != 0 || !lit(&p, ")"))
		goto bad;
	what = "' @ ' and the page offset";
	if (!lit(&p, " @ ") || map_hex(&p, &nm.offset) != 0)
		goto bad;
	if (mmap2 && lit(&p, " <")) {
		what = "a build-id of at most " PMR_IMPORT_BID_MAX_S " bytes";
		for (n = 0; isxdigit((unsigned char)p[n]); n++)
			;
		if (n % 2 != 0 || n / 2 > PMR_IMPORT_BID_MAX || p[n] != '>')
			goto bad;
		for (nm.nbid = 0; nm.nbid < n / 2; nm.nbid++) {
			if (parse_hex(p + 2 * nm.nbid, 2, &v) != 0)
				goto bad;
			nm.bid[nm.nbid] = (unsigned char)v;
		}
		p += n + 1;
	} else if (mmap2) {
		what = "maj:min ino ino_generation";
		for (n = 0; isxdigit((unsigned char)p[n + 1]); n++)
			;
		if (!lit(&p, " ") || parse_hex(p, n, &v) != 0)
			goto bad;
		p += n;
		for (n = 0; isxdigit((unsigned char)p[n + 1]); n++)
			;
		if (!lit(&p, ":") || parse_hex(p, n, &v) != 0)
			goto bad;
		p += n;
		if (!lit(&p, " ") || map_dec(&p, UINT64_MAX, 0, &v) != 0 ||
		    !lit(&p, " ") || map_dec(&p, UINT64_MAX, 0, &v) != 0)
			goto bad;
	}
	what = "']: ' and the protection";
	if (!lit(&p, "]: "))
		goto bad;
	if (mmap2) {
		if (strchr("r-", p[0]) == NULL || p[0] == '\0' ||
		    strchr("w-", p[1]) == NULL || p[1] == '\0' ||
		    strchr("x-", p[2]) == NULL || p[2] == '\0' ||
		    strchr("sp", p[3]) == NULL || p[3] == '\0')
			goto bad;
		exec = p[2] == 'x';
		p += 4;
	} else {
		if (p[0] != 'x' && p[0] != 'r')
			goto bad;
		exec = p[0] == 'x';
		p++;
	}
	what = "' ' and the path";
	end = p + strlen(p);
	if (!lit(&p, " ") || p == end)
		goto bad;
	if (nm.size > UINT64_MAX - nm.start)
		return fail(m, PMR_EFORMAT, "%s: mapping [%#llx, +%#llx) "
		    "wraps", kind, (unsigned long long)nm.start,
		    (unsigned long long)nm.size);
	if (!exec)
		return 0;
	return add_map(m, &nm, p, (size_t)(end - p));
bad:
	n = strlen(p);
	return fail(m, PMR_EFORMAT, "cannot parse %s: expected %s at '%s'",
	    kind, what, pmr_quote(b, sizeof(b), p, n > 24 ? 24 : n));
}

/*
 * Returns the "PERF_RECORD_" that starts a token of line before any
 * "|OP " (a sample's data_src text, after which a symbol may hold any
 * text), or NULL: the line is a sample.
 */
static const char *
sideband(const char *line)
{
	const char *r = strstr(line, "PERF_RECORD_"), *op;

	if (r == NULL || (r > line && r[-1] != ' ' && r[-1] != '\t'))
		return NULL;
	op = strstr(line, "|OP ");
	return op == NULL || r < op ? r : NULL;
}

/*
 * Parses a side-band line at r ("PERF_RECORD_..."): MMAP and MMAP2 add a
 * mapping, the other kinds are skipped.  Returns 0 or <0.
 */
static int
sideband_line(struct imp *m, const char *r)
{
	const char *k = r + 12;
	size_t n;
	char b[64];

	for (n = 0; isupper((unsigned char)k[n]) ||
	    isdigit((unsigned char)k[n]) || k[n] == '_'; n++)
		;
	if (n == 0 || strchr(" \t:(", k[n]) == NULL) {
		n = strcspn(r, " \t");
		return fail(m, PMR_EFORMAT, "cannot parse '%s': not a "
		    "PERF_RECORD_ kind", pmr_quote(b, sizeof(b), r,
		    n > 40 ? 40 : n));
	}
	if (n == 4 && memcmp(k, "MMAP", 4) == 0)
		return mmap_line(m, k + 4, 0);
	if (n == 5 && memcmp(k, "MMAP2", 5) == 0)
		return mmap_line(m, k + 5, 1);
	m->st.skipped++;
	return 0;
}

/* Writes the METAs once the kind is known.  Returns 0 or <0. */
static int
start(struct imp *m)
{
	int rc;

	rc = pmr_write_meta(m->w, "source", m->kind == PMR_IMPORT_IBS ?
	    "perf ibs_op" : "perf arm_spe");
	if (rc == 0)
		rc = pmr_write_meta(m->w, "import-limits", LIMITS);
	if (rc == 0 && m->event != NULL)
		rc = pmr_write_meta(m->w, "perf-event", m->event);
	if (rc < 0)
		return fail(m, rc, "%s", pmr_writer_errmsg(m->w));
	m->started = 1;
	return 0;
}

/*
 * Skips the decoded data_src text at *p ("|OP LOAD|LVL L1 hit|...")
 * and checks that its OP agrees with ds.  Returns 0 or <0.
 */
static int
skip_decode(struct imp *m, const char **p, uint64_t ds)
{
	static const char *const keys[] = { "|LVL ", "|SNP ", "|TLB ",
		"|LCK " };
	const char *s = *p, *e, *want;
	unsigned op = (unsigned)DS_OP(ds);
	struct tok t;
	size_t i;
	char b[64];

	while (*s == ' ')
		s++;
	if (strncmp(s, "|OP ", 4) != 0)
		return fail(m, PMR_EFORMAT, "data_src lacks perf's decoded "
		    "text '|OP ...|LVL ...'");
	if (op & OP_NA)
		want = "N/A";
	else if (op & OP_LOAD)
		want = "LOAD";
	else if (op & OP_STORE)
		want = "STORE";
	else if (op & OP_PFETCH)
		want = "PFETCH";
	else if (op & OP_EXEC)
		want = "EXEC";
	else
		want = "No";
	e = s + 4;
	t.s = e;
	t.n = strcspn(e, "|");
	if (t.n != strlen(want) || memcmp(e, want, t.n) != 0)
		return fail(m, PMR_EFORMAT, "data_src text '|OP %s' does not "
		    "match the value %llx (OP %s)", q(b, sizeof(b), t),
		    (unsigned long long)ds, want);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		e = strstr(e, keys[i]);
		if (e == NULL)
			return fail(m, PMR_EFORMAT, "data_src text lacks '%.4s'",
			    keys[i]);
	}
	/* the text ends before the first token that is a bare number:
	 * none of its words is hex digits alone */
	for (;;) {
		const char *before = e;

		t = next_tok(&e);
		if (t.n == 0 || (memchr(t.s, '|', t.n) == NULL &&
		    is_hex(t.s, t.n))) {
			*p = before;
			return 0;
		}
	}
}

/* Parses one sample line (without its newline) and writes its records. */
static int
sample_line(struct imp *m, char *line)
{
	struct pmr_sim_sample r;
	struct tok t, ev = { NULL, 0 }, num[4];
	const char *p = line, *ipend, *sym, *open, *end;
	uint64_t tid = 0, addr, ds, v, w = 0, il = 0;
	size_t len;
	int has_tid = 0, nnum, ncol, rc, i;
	char b[64];

	/* leading columns, up to the event name or the address */
	for (;;) {
		const char *save = p, *after;
		const char *slash;

		t = next_tok(&p);
		if (t.n == 0)
			return fail(m, PMR_EFORMAT, "cannot parse a line that "
			    "ends before addr");
		slash = memchr(t.s, '/', t.n);
		if (slash != NULL && !has_tid && ev.s == NULL &&
		    is_dec(t.s, (size_t)(slash - t.s)) &&
		    parse_dec(slash + 1, (size_t)(t.s + t.n - slash - 1),
		    UINT32_MAX, &tid) == 0) {
			has_tid = 1;
			continue;
		}
		if (t.n >= 3 && t.s[0] == '[' && t.s[t.n - 1] == ']' &&
		    is_dec(t.s + 1, t.n - 2))
			continue;
		if (is_time(t))
			continue;
		if (is_event(t)) {
			ev = t;
			ev.n--;
			break;
		}
		after = p;
		if (is_dec(t.s, t.n) && is_event(next_tok(&after)))
			continue;	/* the period */
		p = save;
		break;
	}
	if (m->has_event != (ev.s != NULL) && m->ncol != 0)
		return fail(m, PMR_EFORMAT, ev.s != NULL ? "event column where "
		    "the first sample line had none" : "no event column "
		    "where the first sample line had one");
	t = next_tok(&p);
	if (parse_hex(t.s, t.n, &addr) != 0)
		return fail(m, PMR_EFORMAT, "cannot parse addr '%s'",
		    q(b, sizeof(b), t));
	t = next_tok(&p);
	if (parse_hex(t.s, t.n, &ds) != 0)
		return fail(m, PMR_EFORMAT, "cannot parse data_src '%s'",
		    q(b, sizeof(b), t));
	if ((rc = skip_decode(m, &p, ds)) < 0)
		return rc;

	/* WEIGHT, INS_LAT, IP: told apart by perf's column widths */
	for (nnum = 0; nnum < 4; nnum++) {
		const char *save = p;

		num[nnum] = next_tok(&p);
		if (!is_hex(num[nnum].s, num[nnum].n)) {
			p = save;
			break;
		}
	}
	if (nnum == 0)
		return fail(m, PMR_EFORMAT, "cannot parse ip: no hex number "
		    "after data_src");
	for (ncol = 1; ncol < nnum && ncol < 3; ncol++) {
		size_t d = (size_t)(num[ncol].s + num[ncol].n -
		    (num[ncol - 1].s + num[ncol - 1].n));

		if (d != 16 && d != 17)
			break;
	}
	if (ncol == 2 && (size_t)(num[1].s + num[1].n - num[0].s -
	    num[0].n) != 17)
		return fail(m, PMR_EFORMAT, "cannot parse weight, ins_lat and "
		    "ip: not in perf's 16-column layout");
	if (ncol == 3 && ((size_t)(num[1].s + num[1].n - num[0].s -
	    num[0].n) != 16 || (size_t)(num[2].s + num[2].n - num[1].s -
	    num[1].n) != 17))
		return fail(m, PMR_EFORMAT, "cannot parse weight, ins_lat and "
		    "ip: not in perf's 16-column layout");
	/* each right-aligned in its 16 columns, the ip after a space */
	for (i = 0; i < ncol; i++)
		if (!right_aligned(line, num[i], i == ncol - 1 ? 17 : 16))
			return fail(m, PMR_EFORMAT, "cannot parse weight, "
			    "ins_lat and ip: not in perf's 16-column layout");
	if (m->ncol != 0 && ncol != m->ncol)
		return fail(m, PMR_EFORMAT, "%d number columns after "
		    "data_src where the first sample line had %d", ncol,
		    m->ncol);
	if (ncol >= 2 && parse_dec(num[0].s, num[0].n, UINT32_MAX, &w) != 0)
		return fail(m, PMR_EFORMAT, "cannot parse weight '%s'",
		    q(b, sizeof(b), num[0]));
	if (ncol == 3 && parse_dec(num[1].s, num[1].n, UINT32_MAX, &il) != 0)
		return fail(m, PMR_EFORMAT, "cannot parse ins_lat '%s'",
		    q(b, sizeof(b), num[1]));
	if (parse_hex(num[ncol - 1].s, num[ncol - 1].n, &v) != 0)
		return fail(m, PMR_EFORMAT, "cannot parse ip '%s'",
		    q(b, sizeof(b), num[ncol - 1]));

	/* SYM (DSO): the DSO is the last parenthesized text */
	ipend = num[ncol - 1].s + num[ncol - 1].n;
	len = strlen(ipend);
	while (len > 0 && (ipend[len - 1] == ' ' || ipend[len - 1] == '\t'))
		len--;
	end = ipend + len;
	if (len < 2 || end[-1] != ')')
		return fail(m, PMR_EFORMAT, "cannot parse dso: the line does "
		    "not end with '(DSO)'");
	for (open = end - 2; open > ipend && !(open[0] == '(' &&
	    open[-1] == ' '); open--)
		;
	sym = ipend + 1;
	if (ipend[0] != ' ' || open <= sym + 1 || sym[0] == ' ')
		return fail(m, PMR_EFORMAT, "cannot parse sym: expected 'IP "
		    "SYM (DSO)'");
	if (open + 1 == end - 1)
		return fail(m, PMR_EFORMAT, "cannot parse dso: empty");

	/* the kind, from the event column if asked to */
	if (m->ncol == 0) {
		m->ncol = ncol;
		m->has_event = ev.s != NULL;
		if (ev.s != NULL && (m->event = strndup(ev.s, ev.n)) == NULL)
			return fail(m, PMR_ENOMEM, "out of memory");
		if (m->kind == PMR_IMPORT_AUTO) {
			if (ev.s == NULL)
				return fail(m, PMR_EFORMAT, "no event column "
				    "to tell IBS from SPE: give the kind");
			if (ev.n >= 6 && memcmp(ev.s, "ibs_op", 6) == 0)
				m->kind = PMR_IMPORT_IBS;
			else if (spe_name(ev.s, ev.n))
				m->kind = PMR_IMPORT_SPE;
			else
				return fail(m, PMR_EFORMAT, "event '%s' is "
				    "neither ibs_op nor arm_spe: give the kind",
				    q(b, sizeof(b), ev));
		}
	} else if (ev.s != NULL && (strlen(m->event) != ev.n ||
	    memcmp(m->event, ev.s, ev.n) != 0))
		return fail(m, PMR_EFORMAT, "event '%s' after '%s': one event "
		    "per input (SPE: select one with --itrace)",
		    q(b, sizeof(b), ev), m->event);
	if (!m->started && (rc = start(m)) < 0)
		return rc;
	if ((rc = see_pc(m, v, open + 1, (size_t)(end - 1 - (open + 1)))) <
	    0)
		return rc;

	memset(&r, 0, sizeof(r));
	r.sampler = PMR_SIM_SAMPLER_IBS;
	switch (DS_OP(ds) & (OP_NA | OP_LOAD | OP_STORE)) {
	case OP_LOAD:
		r.cls = PMR_OP_LOAD;
		m->st.loads++;
		break;
	case OP_STORE:
		r.cls = PMR_OP_STORE;
		m->st.stores++;
		break;
	case OP_LOAD | OP_STORE:
		r.cls = PMR_OP_LDST;
		m->st.loads++;
		m->st.stores++;
		break;
	default:
		r.cls = PMR_OP_OTHER;
		break;
	}
	r.events = PMR_SIM_EV_RETIRED | pmr_prof_import_events(ds);
	r.context = (uint32_t)tid;
	r.seq = m->st.samples;
	r.pc = v;
	r.addr = addr;
	r.lat_fm = r.lat_md = r.lat_dx = r.lat_xr = r.lat_rr = PMR_SIM_NOLAT;
	r.lat_ld = ncol >= 2 && w > 0 && w < PMR_SIM_NOLAT ? (uint32_t)w :
	    PMR_SIM_NOLAT;
	r.lat_total = ncol == 3 && il > 0 && il < PMR_SIM_NOLAT ?
	    (uint32_t)il : PMR_SIM_NOLAT;
	r.cpos = ~(uint64_t)0;
	if ((rc = pmr_write(m->w, PMR_REC_SAMPLE, &r)) < 0)
		return fail(m, rc, "%s", pmr_writer_errmsg(m->w));
	m->st.samples++;
	return 0;
}

static int
run(struct imp *m)
{
	const char *r;
	size_t n;
	int rc;

	while (fgets(m->line, PMR_IMPORT_LINE_MAX, m->in) != NULL) {
		char *s = m->line;

		m->lineno++;
		m->st.lines++;
		n = strlen(s);
		if (n > 0 && s[n - 1] == '\n')
			s[--n] = '\0';
		else if (!feof(m->in))
			return fail(m, PMR_EFORMAT, "line longer than %d bytes",
			    PMR_IMPORT_LINE_MAX - 1);
		if (n > 0 && s[n - 1] == '\r')
			s[--n] = '\0';
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0' || *s == '#')
			continue;
		if ((r = sideband(m->line)) != NULL) {
			if ((rc = sideband_line(m, r)) < 0)
				return rc;
			continue;
		}
		if ((rc = sample_line(m, m->line)) < 0)
			return rc;
	}
	if (ferror(m->in)) {
		m->lineno = 0;
		return fail(m, PMR_EIO, "read error: %s", strerror(errno));
	}
	if (m->st.samples == 0) {
		m->lineno = 0;
		return fail(m, PMR_EFORMAT, "no samples");
	}
	return 0;
}

int
pmr_prof_import_perf(FILE *in, const char *name,
    enum pmr_prof_import_kind kind, struct pmr_writer *w,
    struct pmr_prof_import_stats *st, char *err, size_t errlen)
{
	struct imp *m;
	size_t i;
	int rc;

	if (errlen > 0)
		err[0] = '\0';
	if ((m = calloc(1, sizeof(*m))) == NULL ||
	    (m->line = malloc(PMR_IMPORT_LINE_MAX)) == NULL) {
		if (errlen > 0)
			snprintf(err, errlen, "%s: out of memory",
			    name != NULL ? name : "-");
		free(m);
		return PMR_ENOMEM;
	}
	m->in = in;
	m->name = name != NULL ? name : "-";
	m->w = w;
	m->kind = kind;
	m->err = err;
	m->errlen = errlen;
	m->last = -1;
	rc = run(m);
	if (st != NULL)
		*st = m->st;
	for (i = 0; i < HASH_SLOTS; i++)
		free(m->dso[i]);
	for (i = 0; i < m->nmap; i++)
		free(m->map[i].path);
	free(m->map);
	free(m->event);
	free(m->line);
	free(m);
	return rc;
}
