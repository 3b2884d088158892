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
	unsigned ndso;
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

/* Writes the IMAGE of dso unless written already.  Returns 0 or <0. */
static int
see_dso(struct imp *m, const char *s, size_t n)
{
	struct pmr_image im;
	uint32_t h;
	char *d;
	int rc;

	if (n == 9 && memcmp(s, "[unknown]", 9) == 0)
		return 0;
	for (h = fnv(s, n) & (HASH_SLOTS - 1); m->dso[h] != NULL;
	    h = (h + 1) & (HASH_SLOTS - 1))
		if (strlen(m->dso[h]) == n && memcmp(m->dso[h], s, n) == 0)
			return 0;
	if (m->ndso == PMR_IMPORT_DSO_MAX)
		return fail(m, PMR_EFORMAT, "more than %u distinct dsos",
		    PMR_IMPORT_DSO_MAX);
	if ((d = strndup(s, n)) == NULL)
		return fail(m, PMR_ENOMEM, "out of memory");
	m->dso[h] = d;
	m->ndso++;
	memset(&im, 0, sizeof(im));
	im.path.p = (const unsigned char *)d;
	im.path.n = (uint32_t)n;
	if ((rc = pmr_write(m->w, PMR_REC_IMAGE, &im)) < 0)
		return fail(m, rc, "%s", pmr_writer_errmsg(m->w));
	m->st.dso++;
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
	if ((rc = see_dso(m, open + 1, (size_t)(end - 1 - (open + 1)))) < 0)
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
	rc = run(m);
	if (st != NULL)
		*st = m->st;
	for (i = 0; i < HASH_SLOTS; i++)
		free(m->dso[i]);
	free(m->event);
	free(m->line);
	free(m);
	return rc;
}
