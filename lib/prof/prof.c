/*
 * prof.c: pmprof's profile (prof.h): counts keyed by (run, event, pc) in
 * one open-addressing table, the events named from each run's META
 * records, and the grouping of pcs into images, procedures, basic blocks
 * and instructions with the symbols and code of the images.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof/prof.h"
#include "records/records.h"
#include "sim/sim.h"
#include "sym/sym.h"
#include "trace/trace.h"

struct ent {
	uint64_t pc;
	uint32_t run, ev;
	double v;
};

struct event {
	char *name;
	enum pmr_prof_evkind kind;
};

/* The event bits a full-record sample is counted under, by name. */
static const struct {
	const char *name;
	uint32_t bits;
} bitev[] = {
	{ "dmiss", PMR_SIM_EV_DCACHE_MISS },
	{ "imiss", PMR_SIM_EV_ICACHE_MISS },
	{ "misp", PMR_SIM_EV_BR_MISP | PMR_SIM_EV_JMP_MISP },
	{ "dtlb", PMR_SIM_EV_DTLB_MISS },
	{ "llc", PMR_SIM_EV_LLC_MISS },
};
#define NBITEV (sizeof(bitev) / sizeof(bitev[0]))
#define NSAMPLER 8
/* the latency sums, in stage order, then their count */
static const char *const latev[] = { "lat:fm", "lat:md", "lat:dx",
	"lat:xr", "lat:rr", "lat:n" };
#define NLAT 5
#define NTRUTH 5
/* TRUTH's head-cycle causes, in enum pmr_sim_hd's order (the names of
 * pmprof calc's pmr_calc_truth_name) */
static const char *const hdname[PMR_SIM_HD_N] = { "issue", "static",
	"icache", "itlb", "dcache", "dtlb", "misp", "wbuf", "fu", "other" };

struct pmr_prof {
	struct ent *ent;
	size_t nent, capent;
	uint32_t *hash;		/* entry index + 1, 0 empty */
	size_t hcap;
	struct event *ev;
	size_t nev;
	struct pmr_prof_run *run;
	size_t nrun;
	struct pmr_images *img;
	uint64_t nsamples;
	/* the current run's event indices, -1 not made yet */
	long ev_sampler[NSAMPLER];
	long ev_bit[NSAMPLER][NBITEV + 1];	/* + 1: abort */
	long ev_lat[NLAT + 1];
	long ev_truth[NTRUTH];
	long ev_hd[PMR_SIM_HD_N];	/* truth:hd:NAME */
	char counter_ev[16], pebs_ev[16];	/* from META sampler */
	/* pmr_prof_group's rows */
	struct pmr_prof_row *rows;
	double *rowv;
	size_t nrows;
	char note[512];
	struct pmr_insn_decoder *dec;
	int dec_rc;
	char err[256];
};

static int PMR_FORMAT(3, 4)
fail(struct pmr_prof *p, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->err, sizeof(p->err), fmt, ap);
	va_end(ap);
	return code;
}

static void
reset_run_cache(struct pmr_prof *p)
{
	size_t i, j;

	for (i = 0; i < NSAMPLER; i++) {
		p->ev_sampler[i] = -1;
		for (j = 0; j <= NBITEV; j++)
			p->ev_bit[i][j] = -1;
	}
	for (i = 0; i <= NLAT; i++)
		p->ev_lat[i] = -1;
	for (i = 0; i < NTRUTH; i++)
		p->ev_truth[i] = -1;
	for (i = 0; i < PMR_SIM_HD_N; i++)
		p->ev_hd[i] = -1;
	strcpy(p->counter_ev, "cycles");
	strcpy(p->pebs_ev, "retired");
}

struct pmr_prof *
pmr_prof_new(const char *sysroot)
{
	struct pmr_prof *p;

	if ((p = calloc(1, sizeof(*p))) == NULL)
		return NULL;
	if ((p->img = pmr_images_new(sysroot)) == NULL) {
		free(p);
		return NULL;
	}
	reset_run_cache(p);
	return p;
}

void
pmr_prof_free(struct pmr_prof *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nev; i++)
		free(p->ev[i].name);
	for (i = 0; i < p->nrun; i++) {
		free(p->run[i].name);
		free(p->run[i].config);
	}
	free(p->ev);
	free(p->run);
	free(p->ent);
	free(p->hash);
	free(p->rows);
	free(p->rowv);
	pmr_images_free(p->img);
	if (p->dec != NULL)
		pmr_insn_decoder_close(p->dec);
	free(p);
}

const char *
pmr_prof_errmsg(const struct pmr_prof *p)
{
	return p->err;
}

int
pmr_prof_begin_run(struct pmr_prof *p, const char *name)
{
	struct pmr_prof_run *r;

	if ((r = realloc(p->run, (p->nrun + 1) * sizeof(*r))) == NULL)
		return PMR_ENOMEM;
	p->run = r;
	r += p->nrun;
	memset(r, 0, sizeof(*r));
	if ((r->name = strdup(name)) == NULL)
		return PMR_ENOMEM;
	p->nrun++;
	reset_run_cache(p);
	return 0;
}

/* The current run, made ("-") if none was begun. */
static int
cur_run(struct pmr_prof *p, uint32_t *r)
{
	if (p->nrun == 0 && pmr_prof_begin_run(p, "-") != 0)
		return PMR_ENOMEM;
	*r = (uint32_t)(p->nrun - 1);
	return 0;
}

static long
event_make(struct pmr_prof *p, const char *name, enum pmr_prof_evkind kind)
{
	struct event *e;
	long k;

	if ((k = pmr_prof_event_find(p, name)) >= 0)
		return k;
	if ((e = realloc(p->ev, (p->nev + 1) * sizeof(*e))) == NULL)
		return -1;
	p->ev = e;
	if ((e[p->nev].name = strdup(name)) == NULL)
		return -1;
	e[p->nev].kind = kind;
	return (long)p->nev++;
}

static inline size_t
hash_key(uint64_t pc, uint32_t run, uint32_t ev)
{
	uint64_t h = pc * 0x9e3779b97f4a7c15ull ^
	    ((uint64_t)run << 32 | ev) * 0xc2b2ae3d27d4eb4full;

	return (size_t)(h ^ h >> 29);
}

static int
grow(struct pmr_prof *p)
{
	size_t cap = p->hcap ? p->hcap * 2 : 4096, i;
	uint32_t *h;

	if ((h = calloc(cap, sizeof(*h))) == NULL)
		return PMR_ENOMEM;
	for (i = 0; i < p->nent; i++) {
		size_t j = hash_key(p->ent[i].pc, p->ent[i].run,
		    p->ent[i].ev) & (cap - 1);

		while (h[j] != 0)
			j = (j + 1) & (cap - 1);
		h[j] = (uint32_t)(i + 1);
	}
	free(p->hash);
	p->hash = h;
	p->hcap = cap;
	return 0;
}

/* Adds v to (run, ev, pc). */
static int
bump(struct pmr_prof *p, uint32_t run, long ev, uint64_t pc, double v)
{
	size_t j;
	struct ent *e;

	if (ev < 0)
		return fail(p, PMR_ENOMEM, "out of memory");
	if (2 * (p->nent + 1) > p->hcap && grow(p) != 0)
		return fail(p, PMR_ENOMEM, "out of memory");
	j = hash_key(pc, run, (uint32_t)ev) & (p->hcap - 1);
	while (p->hash[j] != 0) {
		e = &p->ent[p->hash[j] - 1];
		if (e->pc == pc && e->run == run && e->ev == (uint32_t)ev) {
			e->v += v;
			return 0;
		}
		j = (j + 1) & (p->hcap - 1);
	}
	if (p->nent == p->capent) {
		size_t cap = p->capent ? p->capent * 2 : 4096;

		if (cap > UINT32_MAX - 1 ||
		    (e = realloc(p->ent, cap * sizeof(*e))) == NULL)
			return fail(p, PMR_ENOMEM, "out of memory");
		p->ent = e;
		p->capent = cap;
	}
	e = &p->ent[p->nent];
	e->pc = pc;
	e->run = run;
	e->ev = (uint32_t)ev;
	e->v = v;
	p->hash[j] = (uint32_t)++p->nent;
	return 0;
}

int
pmr_prof_count(struct pmr_prof *p, const char *event, uint64_t pc, double v)
{
	uint32_t r;
	long k;

	if (cur_run(p, &r) != 0)
		return fail(p, PMR_ENOMEM, "out of memory");
	k = event_make(p, event, strncmp(event, "truth:", 6) == 0 ?
	    PMR_PROF_EV_TRUTH : strncmp(event, "lat:", 4) == 0 ?
	    PMR_PROF_EV_LAT : strchr(event, ':') != NULL &&
	    strncmp(event, "counter:", 8) != 0 &&
	    strncmp(event, "pebs:", 5) != 0 ? PMR_PROF_EV_BIT :
	    PMR_PROF_EV_SAMPLE);
	if (k >= 0 && p->ev[k].kind == PMR_PROF_EV_SAMPLE)
		p->nsamples += (uint64_t)v;
	return bump(p, r, k, pc, v);
}

int
pmr_prof_image(struct pmr_prof *p, const struct pmr_image *im)
{
	uint32_t r;

	if (cur_run(p, &r) != 0 || pmr_images_add(p->img, im) != 0)
		return fail(p, PMR_ENOMEM, "out of memory");
	return 0;
}

/* The name of sampler id's sample event in this run. */
static void
sampler_name(const struct pmr_prof *p, unsigned id, char *buf, size_t len)
{
	static const char *const names[] = { "profileme", "counter", "ibs",
		"pebs", "tip", "last" };

	if (id == PMR_SIM_SAMPLER_COUNTER)
		snprintf(buf, len, "counter:%s", p->counter_ev);
	else if (id == PMR_SIM_SAMPLER_PEBS)
		snprintf(buf, len, "pebs:%s", p->pebs_ev);
	else if (id < sizeof(names) / sizeof(names[0]))
		snprintf(buf, len, "%s", names[id]);
	else
		snprintf(buf, len, "sampler%u", id);
}

/* Counts one sample (a SAMPLE, or a member of a PAIR).  The event
 * indices of samplers 0 .. NSAMPLER - 1 are cached per run, so that a
 * sample costs no name lookup; a sampler beyond them (a newer writer's)
 * is looked up by name. */
static int
add_sample(struct pmr_prof *p, const struct pmr_sim_sample *s)
{
	char name[48], base[32];
	int cached = s->sampler < NSAMPLER;
	long ev = cached ? p->ev_sampler[s->sampler] : -1;
	uint32_t r;
	size_t b;
	int rc;

	if (s->kind != PMR_SIM_KIND_INSN)
		return 0;	/* an empty or off-path fetch slot: no pc */
	if (cur_run(p, &r) != 0)
		return fail(p, PMR_ENOMEM, "out of memory");
	base[0] = '\0';
	if (ev < 0) {
		sampler_name(p, s->sampler, base, sizeof(base));
		ev = event_make(p, base, PMR_PROF_EV_SAMPLE);
		if (cached)
			p->ev_sampler[s->sampler] = ev;
	}
	if ((rc = bump(p, r, ev, s->pc, 1)) != 0)
		return rc;
	p->nsamples++;
	if (s->lat_total == PMR_SIM_NOLAT)
		return 0;	/* a pc only: nothing more to count */
	for (b = 0; b <= NBITEV; b++) {
		int hit = b < NBITEV ? (s->events & bitev[b].bits) != 0 :
		    s->trap != PMR_SIM_TRAP_NONE;
		long bev = cached ? p->ev_bit[s->sampler][b] : -1;

		if (!hit)
			continue;
		if (bev < 0) {
			if (base[0] == '\0')
				sampler_name(p, s->sampler, base,
				    sizeof(base));
			snprintf(name, sizeof(name), "%s:%s", base,
			    b < NBITEV ? bitev[b].name : "abort");
			bev = event_make(p, name, PMR_PROF_EV_BIT);
			if (cached)
				p->ev_bit[s->sampler][b] = bev;
		}
		if ((rc = bump(p, r, bev, s->pc, 1)) != 0)
			return rc;
	}
	if ((s->sampler == PMR_SIM_SAMPLER_PROFILEME ||
	    s->sampler == PMR_SIM_SAMPLER_IBS) &&
	    s->trap == PMR_SIM_TRAP_NONE && s->lat_rr != PMR_SIM_NOLAT) {
		const uint32_t lat[NLAT] = { s->lat_fm, s->lat_md, s->lat_dx,
			s->lat_xr, s->lat_rr };

		for (b = 0; b <= NLAT; b++) {
			if (p->ev_lat[b] < 0)
				p->ev_lat[b] = event_make(p, latev[b],
				    PMR_PROF_EV_LAT);
			if ((rc = bump(p, r, p->ev_lat[b], s->pc,
			    b < NLAT ? lat[b] : 1)) != 0)
				return rc;
		}
	}
	return 0;
}

static int
add_truth(struct pmr_prof *p, const struct pmr_sim_truth *t)
{
	static const char *const names[NTRUTH] = { "truth:cycles",
		"truth:retired", "truth:fetched", "truth:taken", "truth:head" };
	const double v[NTRUTH] = { t->tp_cycles, (double)t->retired,
		(double)t->fetched, (double)t->taken, (double)t->head_cycles };
	uint32_t r;
	int k, rc;

	if (cur_run(p, &r) != 0)
		return fail(p, PMR_ENOMEM, "out of memory");
	p->run[r].has_truth = 1;
	for (k = 0; k < PMR_SIM_HD_N && t->head_cycles > 0; k++) {
		char name[32];

		if (t->hd[k] == 0)
			continue;
		if (p->ev_hd[k] < 0) {
			snprintf(name, sizeof(name), "truth:hd:%s", hdname[k]);
			if ((p->ev_hd[k] = event_make(p, name,
			    PMR_PROF_EV_TRUTH)) < 0)
				return fail(p, PMR_ENOMEM, "out of memory");
		}
		if ((rc = bump(p, r, p->ev_hd[k], t->pc, (double)t->hd[k])) !=
		    0)
			return rc;
	}
	for (k = 0; k < NTRUTH; k++) {
		if (v[k] == 0)
			continue;
		if (p->ev_truth[k] < 0 && (p->ev_truth[k] = event_make(p,
		    names[k], PMR_PROF_EV_TRUTH)) < 0)
			return fail(p, PMR_ENOMEM, "out of memory");
		if ((rc = bump(p, r, p->ev_truth[k], t->pc, v[k])) != 0)
			return rc;
	}
	return 0;
}

/* META sampler: "counter S=4096 skid=6 event=dmiss" names the event. */
static void
add_meta(struct pmr_prof *p, const struct pmr_meta *m)
{
	char val[256], *e;
	size_t n = m->value.n < sizeof(val) - 1 ? m->value.n : sizeof(val) - 1;

	if (m->key.n != 7 || memcmp(m->key.p, "sampler", 7) != 0)
		return;
	if (n > 0)
		memcpy(val, m->value.p, n);
	val[n] = '\0';
	if ((e = strstr(val, "event=")) == NULL)
		return;
	e += 6;
	e[strcspn(e, " ")] = '\0';
	if (strncmp(val, "counter", 7) == 0)
		snprintf(p->counter_ev, sizeof(p->counter_ev), "%s", e);
	else if (strncmp(val, "pebs", 4) == 0)
		snprintf(p->pebs_ev, sizeof(p->pebs_ev), "%s", e);
	p->ev_sampler[PMR_SIM_SAMPLER_COUNTER] = -1;
	p->ev_sampler[PMR_SIM_SAMPLER_PEBS] = -1;
	memset(p->ev_bit[PMR_SIM_SAMPLER_PEBS], 0xff,
	    sizeof(p->ev_bit[PMR_SIM_SAMPLER_PEBS]));
}

int
pmr_prof_add(struct pmr_prof *p, const struct pmr_rec *rec)
{
	const char *why;
	uint32_t r;
	int rc;

	switch (rec->type) {
	case PMR_REC_SAMPLE: {
		struct pmr_sim_sample s;

		if (pmr_rec_decode(rec, &s, &why) != 0)
			return fail(p, PMR_ECORRUPT, "bad SAMPLE record: %s",
			    why);
		return (rc = add_sample(p, &s)) < 0 ? rc : 1;
	}
	case PMR_REC_PAIR: {
		struct pmr_sim_pair x;

		if (pmr_rec_decode(rec, &x, &why) != 0)
			return fail(p, PMR_ECORRUPT, "bad PAIR record: %s",
			    why);
		if ((rc = add_sample(p, &x.a)) < 0 ||
		    (rc = add_sample(p, &x.b)) < 0)
			return rc;
		return 1;
	}
	case PMR_REC_TRUTH: {
		struct pmr_sim_truth t;

		if (pmr_rec_decode(rec, &t, &why) != 0)
			return fail(p, PMR_ECORRUPT, "bad TRUTH record: %s",
			    why);
		return (rc = add_truth(p, &t)) < 0 ? rc : 1;
	}
	case PMR_REC_IMAGE: {
		struct pmr_image im;

		if (pmr_rec_decode(rec, &im, &why) != 0)
			return fail(p, PMR_ECORRUPT, "bad IMAGE record: %s",
			    why);
		return (rc = pmr_prof_image(p, &im)) < 0 ? rc : 1;
	}
	case PMR_REC_STATS: {
		struct pmr_sim_stats st;

		if (pmr_rec_decode(rec, &st, &why) != 0)
			return fail(p, PMR_ECORRUPT, "bad STATS record: %s",
			    why);
		if (!st.final)
			return 0;
		if (cur_run(p, &r) != 0)
			return fail(p, PMR_ENOMEM, "out of memory");
		p->run[r].cycles += st.cycles;
		p->run[r].retired += st.retired;
		return 1;
	}
	case PMR_REC_META: {
		struct pmr_meta m;

		if (pmr_rec_decode(rec, &m, &why) != 0)
			return fail(p, PMR_ECORRUPT, "bad META record: %s",
			    why);
		if (m.key.n == 6 && memcmp(m.key.p, "config", 6) == 0) {
			char *c;

			if (cur_run(p, &r) != 0 ||
			    (c = malloc(m.value.n + 1)) == NULL)
				return fail(p, PMR_ENOMEM, "out of memory");
			memcpy(c, m.value.p, m.value.n);
			c[m.value.n] = '\0';
			free(p->run[r].config);
			p->run[r].config = c;
			p->run[r].nconfig = m.value.n;
			return 1;
		}
		add_meta(p, &m);
		return 1;
	}
	case PMR_REC_PROV: {
		struct pmr_prov pv;

		if (pmr_rec_decode(rec, &pv, &why) != 0)
			return fail(p, PMR_ECORRUPT, "bad PROV record: %s",
			    why);
		if (cur_run(p, &r) != 0)
			return fail(p, PMR_ENOMEM, "out of memory");
		if (pv.prog.n == 5 && memcmp(pv.prog.p, "pmsim", 5) == 0)
			p->run[r].seed = pv.seed;
		return 1;
	}
	default:
		return 0;
	}
}

int
pmr_prof_each(const struct pmr_prof *p, int (*fn)(void *arg, size_t run,
    size_t ev, uint64_t pc, double v), void *arg)
{
	size_t i;
	int rc;

	for (i = 0; i < p->nent; i++)
		if ((rc = fn(arg, p->ent[i].run, p->ent[i].ev, p->ent[i].pc,
		    p->ent[i].v)) != 0)
			return rc;
	return 0;
}

size_t
pmr_prof_nevent(const struct pmr_prof *p)
{
	return p->nev;
}

const char *
pmr_prof_event(const struct pmr_prof *p, size_t k)
{
	return p->ev[k].name;
}

enum pmr_prof_evkind
pmr_prof_evkind(const struct pmr_prof *p, size_t k)
{
	return p->ev[k].kind;
}

long
pmr_prof_event_find(const struct pmr_prof *p, const char *name)
{
	size_t k;

	for (k = 0; k < p->nev; k++)
		if (strcmp(p->ev[k].name, name) == 0)
			return (long)k;
	return -1;
}

size_t
pmr_prof_nrun(const struct pmr_prof *p)
{
	return p->nrun;
}

const struct pmr_prof_run *
pmr_prof_runinfo(const struct pmr_prof *p, size_t r)
{
	return &p->run[r];
}

uint64_t
pmr_prof_nsamples(const struct pmr_prof *p)
{
	return p->nsamples;
}

struct pmr_images *
pmr_prof_images(struct pmr_prof *p)
{
	return p->img;
}

/* --- code ------------------------------------------------------------ */

/* Code read for one procedure at most: beyond it, a listing is no use. */
#define CODE_MAX (4u << 20)

static int
cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

static int
ends_block(unsigned cls)
{
	return cls >= PMR_OP_BR_COND && cls <= PMR_OP_SYSCALL;
}

int
pmr_prof_code(struct pmr_prof *p, size_t img, uint64_t lo, uint64_t hi,
    struct pmr_prof_insn **out, size_t *n)
{
	unsigned char *buf = NULL;
	struct pmr_prof_insn *in = NULL, *t;
	uint64_t *tg = NULL, pc;
	size_t got = 0, ni = 0, cap = 0, nt = 0, off, i;
	struct pmr_sinsn si;
	int rc;

	*out = NULL;
	*n = 0;
	if (hi <= lo)
		return 0;
	if (hi - lo > CODE_MAX)
		hi = lo + CODE_MAX;
	if (p->dec == NULL && p->dec_rc == 0 &&
	    (p->dec = pmr_insn_decoder_open(PMR_ISA_X86_64, &p->dec_rc)) ==
	    NULL && p->dec_rc == 0)
		p->dec_rc = PMR_ENOMEM;
	if (p->dec == NULL)
		return p->dec_rc;
	if ((buf = malloc(hi - lo)) == NULL)
		return PMR_ENOMEM;
	if ((rc = pmr_images_read(p->img, img, lo, buf, hi - lo, &got)) != 0)
		goto out;
	rc = PMR_ENOMEM;
	if ((tg = malloc((got + 1) * sizeof(*tg))) == NULL)
		goto out;
	for (off = 0; off < got; off += in[ni - 1].len ? in[ni - 1].len : 1) {
		int len;

		if (ni == cap) {
			cap = cap ? 2 * cap : 256;
			if ((t = realloc(in, cap * sizeof(*t))) == NULL)
				goto out;
			in = t;
		}
		pc = lo + off;
		t = &in[ni++];
		memset(t, 0, sizeof(*t));
		t->pc = pc;
		len = pmr_insn_decode(p->dec, pc, buf + off, got - off, &si);
		if (len <= 0) {
			snprintf(t->text, sizeof(t->text), "(bad)");
			continue;
		}
		t->len = (unsigned)len;
		t->cls = si.cls;
		t->si = si;
		snprintf(t->text, sizeof(t->text), "%s",
		    pmr_insn_decoder_text(p->dec));
		if (si.target >= lo && si.target < hi && si.target != 0 &&
		    si.cls >= PMR_OP_BR_COND && si.cls <= PMR_OP_JMP)
			tg[nt++] = si.target;
	}
	qsort(tg, nt, sizeof(*tg), cmp_u64);
	for (i = 0; i < ni; i++) {
		in[i].leader = i == 0 || ends_block(in[i - 1].cls) ||
		    in[i - 1].len == 0 ||
		    bsearch(&in[i].pc, tg, nt, sizeof(*tg), cmp_u64) != NULL;
	}
	*out = in;
	*n = ni;
	in = NULL;
	rc = 0;
out:
	free(buf);
	free(tg);
	free(in);
	return rc;
}

/* --- grouping -------------------------------------------------------- */

struct pcg {
	uint64_t pc;
	size_t row;
};

static int
cmp_pcg(const void *x, const void *y)
{
	const struct pcg *a = x, *b = y;

	return a->pc < b->pc ? -1 : a->pc > b->pc;
}

/* The current procedure's blocks (BY_BLOCK). */
struct blocks {
	long img;
	uint64_t lo, hi;	/* the procedure */
	uint64_t *lead;		/* leader pcs, sorted */
	size_t n;
	int ok;
};

static int
blocks_load(struct pmr_prof *p, struct blocks *b, long img, uint64_t lo,
    uint64_t hi)
{
	struct pmr_prof_insn *in;
	size_t n, i;
	int rc;

	free(b->lead);
	b->lead = NULL;
	b->n = 0;
	b->img = img;
	b->lo = lo;
	b->hi = hi;
	b->ok = 0;
	if ((rc = pmr_prof_code(p, (size_t)img, lo, hi, &in, &n)) != 0)
		return rc == PMR_ENOMEM ? rc : 0;
	if ((b->lead = malloc((n + 1) * sizeof(*b->lead))) == NULL) {
		free(in);
		return PMR_ENOMEM;
	}
	for (i = 0; i < n; i++)
		if (in[i].leader)
			b->lead[b->n++] = in[i].pc;
	free(in);
	b->ok = b->n > 0;
	return 0;
}

/* Sets the extent of pc's group under by. */
static int
group_of(struct pmr_prof *p, enum pmr_prof_by by, struct blocks *bl,
    uint64_t pc, struct pmr_prof_row *g, int *nosym, int *nocode)
{
	uint64_t lo, hi;
	const char *name = NULL;
	long im = pmr_images_find(p->img, pc);
	int rc;

	memset(g, 0, sizeof(*g));
	g->img = im;
	g->lo = pc;
	g->hi = pc + 1;
	if (im < 0) {
		if (by == PMR_PROF_BY_IMAGE || by == PMR_PROF_BY_PROC) {
			g->lo = 0;	/* one row: every unknown pc */
			g->hi = 0;
		} else if (by == PMR_PROF_BY_BLOCK)
			*nocode |= 2;	/* no code to find blocks in */
		return 0;
	}
	if (by == PMR_PROF_BY_IMAGE) {
		const struct pmr_images_ent *e = pmr_images_get(p->img,
		    (size_t)im);

		g->lo = e->start;
		g->hi = e->start + e->size;
		return 0;
	}
	if ((name = pmr_images_sym(p->img, (size_t)im, pc, &lo, &hi)) ==
	    NULL) {
		if (pmr_images_status(p->img, (size_t)im) != 0)
			*nosym = 1;
		if (by == PMR_PROF_BY_PROC) {
			const struct pmr_images_ent *e = pmr_images_get(p->img,
			    (size_t)im);

			/* no symbol: the image's pcs make one row */
			g->lo = e->start;
			g->hi = e->start + e->size;
		}
		return 0;
	}
	g->proc = name;
	g->proc_lo = lo;
	if (by == PMR_PROF_BY_PROC) {
		g->lo = lo;
		g->hi = hi;
		return 0;
	}
	if (by == PMR_PROF_BY_BLOCK) {
		size_t a = 0, b;

		if ((bl->img != im || bl->lo != lo) &&
		    (rc = blocks_load(p, bl, im, lo, hi)) != 0)
			return rc;
		if (!bl->ok) {
			*nocode |= 1;
			return 0;
		}
		b = bl->n;
		while (a < b) {	/* the last leader at or below pc */
			size_t m = (a + b) / 2;

			if (bl->lead[m] <= pc)
				a = m + 1;
			else
				b = m;
		}
		if (a > 0) {
			g->lo = bl->lead[a - 1];
			g->hi = a < bl->n ? bl->lead[a] : hi;
		}
	}
	return 0;
}

int
pmr_prof_group(struct pmr_prof *p, enum pmr_prof_by by, int per_run,
    uint64_t lo, uint64_t hi, struct pmr_prof_row **rows, size_t *n,
    const char **note)
{
	struct pcg *pg = NULL;
	size_t *unnamed = NULL;
	struct blocks bl = { -1, 0, 0, NULL, 0, 0 };
	size_t npc = 0, i, nr = 0, unk = (size_t)-1, nrun, stride;
	int nosym = 0, nocode = 0, rc = PMR_ENOMEM;

	free(p->rows);
	free(p->rowv);
	p->rows = NULL;
	p->rowv = NULL;
	p->nrows = 0;
	*rows = NULL;
	*n = 0;
	if (note != NULL)
		*note = NULL;
	nrun = per_run ? (p->nrun ? p->nrun : 1) : 1;
	stride = nrun * p->nev;
	if ((pg = malloc((p->nent + 1) * sizeof(*pg))) == NULL)
		goto out;
	for (i = 0; i < p->nent; i++)
		if (p->ent[i].pc >= lo && p->ent[i].pc < hi)
			pg[npc++].pc = p->ent[i].pc;
	qsort(pg, npc, sizeof(*pg), cmp_pcg);
	for (i = 0; i < npc; i++)	/* distinct pcs */
		if (i == 0 || pg[i].pc != pg[nr - 1].pc)
			pg[nr++].pc = pg[i].pc;
	npc = nr;
	nr = 0;
	if ((p->rows = calloc(npc + 1, sizeof(*p->rows))) == NULL ||
	    (unnamed = malloc((pmr_images_count(p->img) + 1) *
	    sizeof(*unnamed))) == NULL)
		goto out;
	for (i = 0; i < pmr_images_count(p->img); i++)
		unnamed[i] = (size_t)-1;
	for (i = 0; i < npc; i++) {
		struct pmr_prof_row g;

		if ((rc = group_of(p, by, &bl, pg[i].pc, &g, &nosym,
		    &nocode)) != 0)
			goto out;
		if (g.img < 0 && g.hi == 0) {	/* the unknown row */
			if (unk == (size_t)-1) {
				unk = nr;
				p->rows[nr++] = g;
			}
			pg[i].row = unk;
			continue;
		}
		if (by == PMR_PROF_BY_PROC && g.proc == NULL) {
			/* an image's pcs outside its symbols: one row */
			if (unnamed[g.img] == (size_t)-1) {
				unnamed[g.img] = nr;
				p->rows[nr++] = g;
			}
			pg[i].row = unnamed[g.img];
			continue;
		}
		if (nr == 0 || p->rows[nr - 1].lo != g.lo ||
		    p->rows[nr - 1].img != g.img || nr - 1 == unk ||
		    (by == PMR_PROF_BY_PROC && p->rows[nr - 1].proc == NULL))
			p->rows[nr++] = g;
		pg[i].row = nr - 1;
	}
	rc = PMR_ENOMEM;
	if ((p->rowv = calloc(nr * stride + 1, sizeof(double))) == NULL)
		goto out;
	for (i = 0; i < nr; i++)
		p->rows[i].v = p->rowv + i * stride;
	for (i = 0; i < p->nent; i++) {
		const struct ent *e = &p->ent[i];
		struct pcg key, *f;

		if (e->pc < lo || e->pc >= hi)
			continue;
		key.pc = e->pc;
		f = bsearch(&key, pg, npc, sizeof(*pg), cmp_pcg);
		p->rows[f->row].v[(per_run ? e->run : 0) * p->nev + e->ev] +=
		    e->v;
	}
	if (unk != (size_t)-1 && unk + 1 != nr) {	/* unknown last */
		struct pmr_prof_row u = p->rows[unk];

		memmove(&p->rows[unk], &p->rows[unk + 1],
		    (nr - unk - 1) * sizeof(*p->rows));
		p->rows[nr - 1] = u;
	}
	if (note != NULL && (nosym || nocode)) {
		size_t k, len = 0;

		for (k = 0; k < pmr_images_count(p->img) && len <
		    sizeof(p->note) - 1; k++) {
			int st = pmr_images_status(p->img, k);

			if (st == 0)
				continue;
			len += (size_t)snprintf(p->note + len,
			    sizeof(p->note) - len, "%sno symbols for '%s' "
			    "(%s)", len ? "; " : "",
			    pmr_images_get(p->img, k)->path,
			    pmr_sym_strerror(st));
		}
		if ((nocode & 1) && len < sizeof(p->note) - 1)
			len += (size_t)snprintf(p->note + len,
			    sizeof(p->note) - len, "%sthe code of some "
			    "procedures could not be read: their instructions "
			    "are blocks", len ? "; " : "");
		if ((nocode & 2) && len < sizeof(p->note) - 1)
			len += (size_t)snprintf(p->note + len,
			    sizeof(p->note) - len, "%spcs in no image (the "
			    "trace names no binary for them): each is a block "
			    "of its own", len ? "; " : "");
		if (len > sizeof(p->note) - 1)
			memcpy(p->note + sizeof(p->note) - 4, "...", 4);
		*note = p->note;
	}
	*rows = p->rows;
	*n = p->nrows = nr;
	rc = 0;
out:
	free(pg);
	free(unnamed);
	free(bl.lead);
	return rc;
}

/* --- scoring --------------------------------------------------------- */

double
pmr_prof_error(const double *est, const double *truth, size_t n)
{
	double E = 0, C = 0, s = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		E += est[i];
		C += truth[i];
	}
	if (E <= 0 || C <= 0)
		return NAN;
	for (i = 0; i < n; i++)
		s += fabs(est[i] / E - truth[i] / C);
	return s;
}

/*
 * The mean absolute deviation of a binomial(m, p) count, by de Moivre's
 * formula: E|X - mp| = 2 v C(m, v) p^v (1 - p)^(m - v + 1), v = floor(mp)
 * + 1, in logarithms.
 */
static double
binom_mad(double m, double p)
{
	double v, l;

	if (p <= 0 || p >= 1 || m <= 0)
		return 0;
	v = floor(m * p) + 1;
	if (v > m)
		return 0;
	l = log(2 * v) + lgamma(m + 1) - lgamma(v + 1) - lgamma(m - v + 1) +
	    v * log(p) + (m - v + 1) * log1p(-p);
	return exp(l);
}

double
pmr_prof_floor(const double *truth, size_t n, uint64_t m)
{
	double C = 0, s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		C += truth[i] > 0 ? truth[i] : 0;
	if (C <= 0 || m == 0)
		return NAN;
	/* each group's count of an ideal sample is binomial(m, c/C): the
	 * expected error is the sum of their mean deviations over m */
	for (i = 0; i < n; i++)
		if (truth[i] > 0)
			s += binom_mad((double)m, truth[i] / C);
	return s / (double)m;
}
