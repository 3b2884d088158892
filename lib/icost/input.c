/*
 * input.c: icost's readers (input.h): the files as one record sequence,
 * GNODE records into the graph and its breakdown, the --top passes,
 * multisim runs, COST records in and out, and the symbols of IMAGE
 * records for -e proc= and --top.  Each reader checks that the input
 * holds what it needs (one machine, no idealized graph, no mix of
 * fragments and a full graph, of GNODE and COST records) and says what is
 * wrong in ip->errmsg; warnings go to ip->warn.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icost/input.h"
#include "util/cli.h"

/* The input as one record sequence over every file. */
struct in {
	char **files;
	int nfiles, next;
	struct pmr_reader *r;
	const char *name;
	uint64_t streams;	/* streams begun, over all files */
	uint64_t last_ns;
};

/* Sets ip's message; returns code. */
static int fail(struct pmr_icost_input *ip, int code, const char *fmt, ...)
    PMR_FORMAT(3, 4);

static int
fail(struct pmr_icost_input *ip, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ip->errmsg, sizeof(ip->errmsg), fmt, ap);
	va_end(ap);
	return code;
}

/* Hands a warning, note or -v line to ip->warn. */
static void say(struct pmr_icost_input *ip, enum pmr_icost_say level,
    const char *fmt, ...) PMR_FORMAT(3, 4);

static void
say(struct pmr_icost_input *ip, enum pmr_icost_say level, const char *fmt,
    ...)
{
	char msg[512];
	va_list ap;

	if (ip->warn == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ip->warn(ip->warnarg, level, msg);
}

static void
in_open(struct in *in, char **files, int nfiles)
{
	memset(in, 0, sizeof(*in));
	in->files = files;
	in->nfiles = nfiles;
}

/* Closes the file being read, if any (after an error). */
static void
in_close(struct in *in)
{
	if (in->r != NULL)
		pmr_reader_close(in->r);
	in->r = NULL;
}

/* Reads the next record; returns 1, 0 after the last file, or a PMR_E*
 * code (ip->errmsg).  *newstream is set at the first record of each
 * stream. */
static int
in_next(struct pmr_icost_input *ip, struct in *in, struct pmr_rec *rec,
    int *newstream)
{
	int err, rc;

	for (;;) {
		if (in->r == NULL) {
			const char *p;

			if (in->next >= in->nfiles)
				return 0;
			p = in->files[in->next++];
			in->name = pmr_display(p);
			in->r = pmr_reader_open(strcmp(p, "-") ? p : NULL, 0,
			    &err);
			if (in->r == NULL)
				return fail(ip, err == PMR_EINVAL ? PMR_EIO :
				    err, "%s: %s", in->name, pmr_strerror(err));
			in->last_ns = 0;
		}
		rc = pmr_reader_next(in->r, rec);
		if (rc == 1) {
			uint64_t ns = pmr_reader_nstreams(in->r);

			*newstream = ns != in->last_ns;
			if (*newstream)
				in->streams++;
			in->last_ns = ns;
			return 1;
		}
		if (rc < 0)
			return fail(ip, rc == PMR_EINVAL ? PMR_ECORRUPT : rc,
			    "%s: %s", in->name, pmr_reader_errmsg(in->r));
		pmr_reader_close(in->r);
		in->r = NULL;
	}
}

/* Decodes rec into out; returns 0, or says which record of the input is
 * bad and returns PMR_ECORRUPT. */
static int
decode(struct pmr_icost_input *ip, const struct in *in,
    const struct pmr_rec *rec, void *out)
{
	const char *why;

	if (pmr_rec_decode(rec, out, &why) != 0)
		return fail(ip, PMR_ECORRUPT, "%s: record %" PRIu64 ": %s",
		    in->name, rec->index, why);
	return 0;
}

static int
meta_is(const struct pmr_meta *m, const char *key)
{
	return m->key.n == strlen(key) && memcmp(m->key.p, key, m->key.n) == 0;
}

/* Sets c from a META config value ("key = value" lines). */
static int
config_parse(struct pmr_icost_input *ip, struct pmr_sim_config *c,
    const struct pmr_meta *m, const char *where)
{
	char eb[256];
	int rc = pmr_sim_config_text(c, m->value.p, m->value.n, eb,
	    sizeof(eb));

	if (rc != 0)
		return fail(ip, rc == PMR_ENOMEM ? PMR_ENOMEM : PMR_ECORRUPT,
		    "%s: META config: %s", where, rc == PMR_ENOMEM ?
		    pmr_strerror(rc) : eb);
	return 0;
}

/* Adds a base run's final STATS to ip->td. */
static void
td_add(struct pmr_icost_input *ip, const struct pmr_sim_stats *st)
{
	ip->td.runs++;
	ip->td.slots += st->td_slots;
	ip->td.retired += st->retired;
	ip->td.mapped += st->td_mapped;
	ip->td.fe += st->td_fe;
	ip->td.bad += st->td_bad;
}

void
pmr_icost_input_init(struct pmr_icost_input *ip)
{
	memset(ip, 0, sizeof(*ip));
}

void
pmr_icost_input_free(struct pmr_icost_input *ip)
{
	unsigned i;

	for (i = 0; i < ip->top_nst; i++)
		pmr_symtab_free(ip->top_st[i]);
	ip->top_nst = 0;
	pmr_icost_top_free(ip->top_tab);
	ip->top_tab = NULL;
}

int
pmr_icost_input_cat_add(struct pmr_icost_input *ip, const char *name,
    unsigned ideal, struct pmr_icost_cat **cp)
{
	struct pmr_icost_cat *c;
	unsigned k;

	if (ip->ncat == PMR_ICOST_MAXCAT)
		return fail(ip, PMR_EINVAL, "more than %d categories",
		    PMR_ICOST_MAXCAT);
	for (k = 0; k < ip->ncat; k++)
		if (strcmp(ip->cats[k].name, name) == 0)
			return fail(ip, PMR_EINVAL, "category '%s' given twice",
			    name);
	c = &ip->cats[ip->ncat++];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->ideal = ideal;
	if (cp != NULL)
		*cp = c;
	return 0;
}

int
pmr_icost_config_stated(struct pmr_sim_config *c, const char *preset,
    const char *const *kvs, unsigned nkv, unsigned *bad, char *eb,
    size_t eblen)
{
	unsigned k;

	if (pmr_sim_config_preset(c, preset != NULL ? preset :
	    "alpha21264") != 0) {
		*bad = nkv;
		snprintf(eb, eblen, "unknown");
		return PMR_EINVAL;
	}
	for (k = 0; k < nkv; k++)
		if (pmr_sim_config_setkv(c, kvs[k], eb, eblen) != 0) {
			*bad = k;
			return PMR_EINVAL;
		}
	return 0;
}

/* Notes the first image whose symbols could not be read, and why. */
static void
sym_failed(struct pmr_icost_input *ip, const char *path, int rc)
{
	if (ip->sym_note[0] == '\0')
		snprintf(ip->sym_note, sizeof(ip->sym_note), "no symbols for "
		    "'%.200s'%s%.100s (%s)", path, ip->sysroot != NULL ?
		    " under " : "", ip->sysroot != NULL ? ip->sysroot : "",
		    pmr_sym_strerror(rc));
}

/* Loads the symbols of the file IMAGE record rec maps into *st (NULL if
 * it has none, the first such file noted). */
static int
image_symtab(struct pmr_icost_input *ip, const struct in *in,
    const struct pmr_rec *rec, struct pmr_symtab **st)
{
	struct pmr_image im;
	char *path;
	int rc;

	if ((rc = decode(ip, in, rec, &im)) != 0)
		return rc;
	if ((path = strndup((const char *)im.path.p, im.path.n)) == NULL)
		return fail(ip, PMR_ENOMEM, "out of memory");
	rc = pmr_symtab_load(path, ip->sysroot, im.start, im.size, im.offset,
	    im.build_id.p, im.build_id.n, st);
	if (rc == PMR_ENOMEM) {
		free(path);
		return fail(ip, PMR_ENOMEM, "out of memory");
	}
	if (rc != 0)
		sym_failed(ip, path, rc);
	free(path);
	return 0;
}

/* --top: keeps the symbols of the first stream's images, for the proc
 * column (an image whose file cannot be read has none). */
static int
top_image(struct pmr_icost_input *ip, const struct in *in,
    const struct pmr_rec *rec)
{
	int rc;

	if (ip->top_nst == sizeof(ip->top_st) / sizeof(ip->top_st[0]))
		return 0;
	ip->top_st[ip->top_nst] = NULL;
	if ((rc = image_symtab(ip, in, rec, &ip->top_st[ip->top_nst])) != 0)
		return rc;
	if (ip->top_st[ip->top_nst] != NULL)
		ip->top_nst++;
	return 0;
}

const char *
pmr_icost_input_proc(uint64_t pc, void *arg)
{
	const struct pmr_icost_input *ip = arg;
	unsigned i;
	uint64_t lo;
	const char *s;

	for (i = 0; i < ip->top_nst; i++)
		if ((s = pmr_symtab_find(ip->top_st[i], pc, &lo)) != NULL)
			return s;
	return NULL;
}

/* Looks the procedures of the -e proc= sets not yet found up in the
 * symbols of the file an IMAGE record maps (the first image that has one
 * wins, as pairs --proc).  The ranges hold for this stream only: another
 * run may map the file elsewhere. */
static int
procs_image(struct pmr_icost_input *ip, const struct in *in,
    const struct pmr_rec *rec)
{
	struct pmr_icost_cat *cats = ip->cats;
	struct pmr_symtab *st = NULL;
	unsigned k;
	int rc;

	for (k = 0; k < ip->ncat; k++)
		if (cats[k].proc != NULL && cats[k].nranges == 0)
			break;
	if (k == ip->ncat)
		return 0;
	if ((rc = image_symtab(ip, in, rec, &st)) != 0)
		return rc;
	if (st == NULL)
		return 0;	/* unreadable or not ELF: not this image */
	for (; k < ip->ncat; k++) {
		uint64_t lo, hi;

		if (cats[k].proc == NULL || cats[k].nranges != 0 ||
		    !pmr_symtab_range(st, cats[k].proc, &lo, &hi))
			continue;
		cats[k].ranges[0].lo = lo;
		cats[k].ranges[0].hi = hi;
		cats[k].nranges = 1;
	}
	pmr_symtab_free(st);
	return 0;
}

/* At a stream's first GNODE: every procedure must have been found. */
static int
procs_check(struct pmr_icost_input *ip, const struct in *in, int images)
{
	unsigned k;

	for (k = 0; k < ip->ncat; k++)
		if (ip->cats[k].proc != NULL && ip->cats[k].nranges == 0)
			return fail(ip, PMR_ECORRUPT, "%s: no procedure '%s' "
			    "in the symbols of the %s%s%s", in->name,
			    ip->cats[k].proc, images ? "IMAGE records' files" :
			    "input (it has no IMAGE records before its GNODE "
			    "records)", ip->sym_note[0] ? "; " : "",
			    ip->sym_note);
	return 0;
}

/* Adds COST record rec to bd (initialized from the first record). */
static int
cost_add(struct pmr_icost_input *ip, const struct in *in,
    const struct pmr_rec *rec, struct pmr_icost_bd *bd, int *init)
{
	struct pmr_cost_rec c;
	char buf[PMR_ICOST_MAXCAT * 65];
	int rc;

	if ((rc = decode(ip, in, rec, &c)) != 0)
		return rc;
	if (!*init) {
		const char *names[PMR_ICOST_MAXCAT];
		char tmp[sizeof(buf)], *p, *sp;
		unsigned n = 0;

		if (c.cats.n >= sizeof(tmp))
			return fail(ip, PMR_ECORRUPT, "%s: record %" PRIu64
			    ": too many categories", in->name, rec->index);
		memcpy(tmp, c.cats.p, c.cats.n);
		tmp[c.cats.n] = '\0';
		for (p = strtok_r(tmp, ",", &sp); p != NULL; p = strtok_r(NULL,
		    ",", &sp)) {
			if (n == PMR_ICOST_MAXCAT)
				return fail(ip, PMR_ECORRUPT, "%s: record %"
				    PRIu64 ": too many categories", in->name,
				    rec->index);
			names[n++] = p;
		}
		if (c.source > PMR_COST_SHOTGUN ||
		    pmr_icost_bd_init(bd, c.source, names, n) != 0)
			return fail(ip, PMR_ECORRUPT, "%s: record %" PRIu64
			    ": bad source or categories", in->name,
			    rec->index);
		*init = 1;
	}
	if (c.digest != 0 && bd->digest != 0 && c.digest != bd->digest)
		return fail(ip, PMR_ECORRUPT, "%s: record %" PRIu64 ": COST of "
		    "another machine than the first (config digest %016"
		    PRIx64 ", first %016" PRIx64 ")", in->name, rec->index,
		    c.digest, bd->digest);
	if (bd->digest == 0)
		bd->digest = c.digest;
	pmr_icost_bd_cats(bd, buf, sizeof(buf));
	if (c.source != bd->source || c.cats.n != strlen(buf) ||
	    memcmp(c.cats.p, buf, c.cats.n) != 0)
		return fail(ip, PMR_ECORRUPT, "%s: record %" PRIu64 ": COST of "
		    "another source or category list than the first",
		    in->name, rec->index);
	if (c.mask >> bd->ncat != 0)
		return fail(ip, PMR_ECORRUPT, "%s: record %" PRIu64 ": COST "
		    "mask beyond its categories", in->name, rec->index);
	/* cycles a run, and sums of runs, that the signed arithmetic of
	 * costs and icosts holds (2^48 cycles: 3 days at 1 GHz) */
	if (c.t >= 1ull << 48 || c.ts >= 1ull << 48 || bd->t[c.mask] +
	    c.t >= 1ull << 60 || bd->ts[c.mask] + c.ts >= 1ull << 60)
		return fail(ip, PMR_ECORRUPT, "%s: record %" PRIu64 ": COST "
		    "of %" PRIu64 " and %" PRIu64 " cycles, or sums, beyond "
		    "2^48 a record and 2^60 in all", in->name, rec->index,
		    c.t, c.ts);
	pmr_icost_bd_add(bd, c.mask, c.t, c.ts);
	if (c.mask == 0) {
		bd->insns += c.insns;
		bd->frags += c.frags;
	}
	return 0;
}

/* The state of one reading of GNODE records (read_graph). */
struct gread {
	struct pmr_sim_config cfg;
	struct pmr_icost_graph *g;
	uint64_t digest, nodes, prev, gaps, frags;
	uint64_t nodes_here;	/* of this stream (billions in a long run) */
	int have_cfg, images;
	/* this stream's GNODEs are fragments (shotgun's), with no observed
	 * cycles; any such stream makes the breakdown shotgun's */
	int frag_here, shotgun, full;
	/* shotgun's --warm (META shotgun-build) if it differs from ours,
	 * + 1 (0: the same, or not said); said once */
	uint64_t sg_warm1;
	int warm_said;
};

/* Tells the graph what its nodes to come are: a graph cut into fragments
 * restarts cold, so its times are no longer the machine's to check; and
 * shotgun's fragments are sampled, each node another instance's. */
static void
graph_kind(const struct pmr_icost_input *ip, const struct gread *s)
{
	pmr_icost_graph_observed(s->g, !s->frag_here && !ip->fragments &&
	    ip->cut == 0);
	pmr_icost_graph_sampled(s->g, s->frag_here);
}

/*
 * The value of key (as "key=") among the space-separated tokens of a META
 * value, into *v; 0 if it is there and a number.
 */
static int
meta_num(const struct pmr_meta *m, const char *key, uint64_t *v)
{
	size_t kl = strlen(key), i = 0, n = m->value.n;
	const char *p = (const char *)m->value.p;

	while (i < n) {
		size_t j = i;

		while (j < n && p[j] != ' ')
			j++;
		if (j - i > kl + 1 && memcmp(p + i, key, kl) == 0 &&
		    p[i + kl] == '=') {
			uint64_t x = 0;
			size_t k;

			for (k = i + kl + 1; k < j; k++) {
				if (p[k] < '0' || p[k] > '9' ||
				    x > (UINT64_MAX - 9) / 10)
					return -1;
				x = x * 10 + (uint64_t)(p[k] - '0');
			}
			*v = x;
			return 0;
		}
		i = j + 1;
	}
	return -1;
}

/* A META record of a graph's stream. */
static int
graph_meta(struct pmr_icost_input *ip, struct in *in, struct gread *s,
    const struct pmr_rec *rec)
{
	const struct pmr_sim_config *stated = ip->stated;
	struct pmr_meta m;
	int rc;

	if ((rc = decode(ip, in, rec, &m)) != 0)
		return rc;
	if (meta_is(&m, "config")) {
		struct pmr_sim_config c;
		uint64_t d;

		pmr_sim_config_preset(&c, "fields03");
		if ((rc = config_parse(ip, &c, &m, in->name)) != 0)
			return rc;
		d = pmr_sim_config_digest(&c);
		if (stated != NULL && d != pmr_sim_config_digest(stated))
			return fail(ip, PMR_ECORRUPT, "%s: the GNODE records "
			    "come from another machine than -m/-O state "
			    "(config digest %016" PRIx64 ", stated %016" PRIx64
			    ")", in->name, d, pmr_sim_config_digest(stated));
		if (s->digest != 0 && d != s->digest)
			return fail(ip, PMR_ECORRUPT, "%s: stream %" PRIu64
			    " comes from another machine than the first "
			    "(config digest %016" PRIx64 ", first %016" PRIx64
			    ")", in->name, in->streams, d, s->digest);
		s->digest = d;
		s->cfg = c;
		s->have_cfg = 1;
	} else if (meta_is(&m, "gnode")) {
		s->frag_here = m.value.n >= 9 && memcmp(m.value.p,
		    "fragments", 9) == 0;
		s->shotgun |= s->frag_here;
		if (s->g != NULL)
			graph_kind(ip, s);
	} else if (meta_is(&m, "shotgun-build")) {
		uint64_t w;

		s->sg_warm1 = meta_num(&m, "warm", &w) == 0 &&
		    w != ip->go.warm ? w + 1 : 0;
	} else if (meta_is(&m, "shotgun-stats")) {
		uint64_t cut, tails;

		/* shotgun -n and its strata count the nodes past its --warm:
		 * with another warm-up here, a fragment shorter than the
		 * whole (a tail from an anchor, one cut at a choice) weighs
		 * more or less than the share it was drawn for; whole ones
		 * alone weigh alike either way */
		if (!s->warm_said && s->sg_warm1 != 0 &&
		    meta_num(&m, "truncated", &cut) == 0 &&
		    meta_num(&m, "resync_kept", &tails) == 0 &&
		    cut + tails > 0) {
			say(ip, PMR_ICOST_WARNING, "warning: %s: shotgun drew "
			    "its fragments counting the nodes past --warm %"
			    PRIu64 " (shotgun --warm), icost counts from "
			    "--warm %u: the %" PRIu64 " short ones (tails, "
			    "cut) weigh other than their share (give both the "
			    "same)", in->name, s->sg_warm1 - 1, ip->go.warm,
			    cut + tails);
			s->warm_said = 1;
		}
	} else if (meta_is(&m, "ideal"))
		return fail(ip, PMR_ECORRUPT, "%s: the GNODE records come "
		    "from an idealized run (pmsim --ideal): its graph is not "
		    "the base machine's", in->name);
	return 0;
}

/* A GNODE record: the next node of the graph. */
static int
graph_gnode(struct pmr_icost_input *ip, struct in *in, struct gread *s,
    const struct pmr_rec *rec, const uint32_t *lanes, unsigned nl)
{
	struct pmr_sim_gnode n;
	const char *why;
	int rc;

	if (s->nodes_here++ == 0) {
		if ((rc = procs_check(ip, in, s->images)) != 0)
			return rc;
		s->full |= !s->frag_here;
	}
	if (!s->have_cfg) {
		if (ip->stated == NULL)
			return fail(ip, PMR_ECORRUPT, "%s: GNODE records "
			    "without the machine (META config): give it with "
			    "-m and -O", in->name);
		s->cfg = *ip->stated;
		s->digest = pmr_sim_config_digest(ip->stated);
		s->have_cfg = 1;
	}
	if (pmr_sim_gnode_decode(rec, &n, &why) != 0)
		return fail(ip, PMR_ECORRUPT, "%s: record %" PRIu64 ": %s",
		    in->name, rec->index, why);
	if (s->g == NULL) {
		rc = pmr_icost_graph_new(&s->g, &s->cfg, ip->cats, ip->ncat,
		    lanes, nl, &ip->go);
		if (rc != 0)	/* never a usage error */
			return fail(ip, rc == PMR_ENOMEM ? rc : PMR_ECORRUPT,
			    "%s", pmr_strerror(rc));
		if (ip->top_gain != 0)
			pmr_icost_graph_gain_on(s->g, ip->top_gain);
		graph_kind(ip, s);
		if (ip->nodes_out != NULL) {
			fputs("#seq\tpc\tF\tD\tR\tE\tP\tC\tobs_D\tobs_R\t"
			    "obs_E\tobs_P\tobs_C\n", ip->nodes_out);
			pmr_icost_graph_trace(s->g, ip->nodes_out);
		}
	}
	if (s->prev != UINT64_MAX && n.seq != s->prev + 1) {
		if (!ip->fragments && !s->frag_here)
			return fail(ip, PMR_ECORRUPT, "%s: record %" PRIu64
			    ": GNODE seq %" PRIu64 " after %" PRIu64 ": "
			    "records are missing (--fragments reads a stream "
			    "of fragments)", in->name, rec->index, n.seq,
			    s->prev);
		s->gaps++;
		pmr_icost_graph_restart(s->g);
		if (ip->top_tab != NULL)
			pmr_icost_top_restart(ip->top_tab);
	}
	if (ip->cut != 0 && n.seq % ip->cut == 0 && s->prev != UINT64_MAX &&
	    n.seq == s->prev + 1) {
		pmr_icost_graph_restart(s->g);
		s->frags++;
	}
	if (s->prev == UINT64_MAX || n.seq != s->prev + 1)
		s->frags++;
	s->prev = n.seq;
	pmr_icost_graph_node(s->g, &n);
	s->nodes++;
	if (ip->top_gain != 0) {
		int64_t cur, prev;

		pmr_icost_graph_gain(s->g, &cur, &prev);
		if (pmr_icost_top_node(ip->top_tab, n.pc, n.cls, cur,
		    prev) != 0)
			return fail(ip, PMR_ENOMEM, "out of memory");
	}
	return 0;
}

/* The end of a graph's input: its breakdown into bd. */
static int
graph_end(struct pmr_icost_input *ip, struct in *in, struct gread *s,
    struct pmr_icost_bd *bd, const uint32_t *lanes, unsigned nl)
{
	const char *what = in->nfiles == 1 ? in->name : "the input";
	int64_t *t;
	unsigned k;

	if (s->g == NULL)
		return fail(ip, PMR_ECORRUPT, "%s: no GNODE or COST records "
		    "(pmsim --graph writes GNODE records)", what);
	if ((t = calloc(nl, sizeof(*t))) == NULL)
		return fail(ip, PMR_ENOMEM, "out of memory");
	pmr_icost_graph_times(s->g, t);
	for (k = 0; k < nl; k++)
		pmr_icost_bd_add(bd, lanes[k], (uint64_t)t[0],
		    t[k] < 0 ? 0 : (uint64_t)t[k]);
	free(t);
	bd->insns = s->nodes;
	bd->frags = s->frags;
	bd->digest = s->digest;
	if (s->shotgun && s->full)
		return fail(ip, PMR_ECORRUPT, "%s: shotgun fragments and a "
		    "full graph in one input: read them apart", what);
	if (s->shotgun)
		bd->source = PMR_COST_SHOTGUN;
	/* a fragment shorter than twice the window win idealizes cannot
	 * show what that window overlaps, unless it goes on from the
	 * previous one's (--chain): say so */
	if ((s->shotgun || ip->fragments || ip->cut != 0) && s->frags > 0 &&
	    !ip->go.win_inf && !ip->go.chain) {
		/* signatures of twice that, rounded up to a thousand and
		 * 4000 at least (fields03's 1280: the paper's 4000) */
		unsigned w2 = 20 * s->cfg.rob, len = (2 * w2 + 999) / 1000 *
		    1000;

		for (k = 0; k < ip->ncat; k++)
			if (ip->cats[k].ideal & PMR_SIM_IDEAL_WIN)
				break;
		if (len < 4000)
			len = 4000;
		if (k < ip->ncat && s->nodes / s->frags < 2 * (uint64_t)w2)
			say(ip, PMR_ICOST_WARNING, "warning: fragments of %"
			    PRIu64 " instructions on average, under twice the "
			    "window win idealizes (2 x %u): win and its "
			    "interactions are understated (--chain, or longer "
			    "signatures, pmsim --shotgun=len=%u, and --warm=%u "
			    "avoid it)", s->nodes / s->frags, w2, len, w2);
	}
	pmr_icost_graph_diag(s->g, &ip->dg);
	ip->graph_read = 1;
	ip->graph_wp = s->cfg.wrong_path != 0;
	bd->insns = ip->dg.measured;
	if (ip->dg.measured == 0)
		return fail(ip, PMR_ECORRUPT, "%s: no fragment longer than "
		    "--warm %u", what, ip->go.warm);
	ip->dg.gaps = s->gaps;
	return 0;
}

int
pmr_icost_read_graph(struct pmr_icost_input *ip, char **files, int nfiles,
    struct pmr_icost_bd *bd, const uint32_t *lanes, unsigned nl)
{
	struct gread s;
	struct in in;
	struct pmr_rec rec;
	struct pmr_icost_bd cb;
	int ns, rc, cinit = 0;
	unsigned k;

	memset(&s, 0, sizeof(s));
	in_open(&in, files, nfiles);
	while ((rc = in_next(ip, &in, &rec, &ns)) == 1) {
		if (ns) {
			if (ip->top_tab != NULL)
				pmr_icost_top_restart(ip->top_tab);
			for (k = 0; k < ip->ncat; k++)
				if (ip->cats[k].proc != NULL)
					ip->cats[k].nranges = 0;
			s.images = s.nodes_here = s.frag_here = 0;
			s.have_cfg = 0;
			if (s.g != NULL && pmr_icost_graph_nodes(s.g) > 0)
				pmr_icost_graph_restart(s.g);
			s.prev = UINT64_MAX;
		}
		if (rec.type == PMR_REC_GNODE) {
			rc = graph_gnode(ip, &in, &s, &rec, lanes, nl);
			/* the next ones while they are pmsim's GNODEs, read
			 * ahead: the reader's fast path (nothing else
			 * changes within them) */
			while (rc == 0) {
				const unsigned char *p;
				uint64_t i0;
				size_t j, nr = pmr_reader_run(in.r,
				    PMR_REC_GNODE, PMR_SIM_GNODE_LEN, 4096, &p,
				    &i0);

				if (nr == 0)
					break;
				j = 0;
				/* the common node, nothing of it kept here: in
				 * the graph's own loop */
				if (s.g != NULL && ip->cut == 0 &&
				    ip->top_gain == 0) {
					j = pmr_icost_graph_run(s.g, p, nr,
					    PMR_SIM_GNODE_LEN + 8, &s.prev);
					s.nodes += j;
					s.nodes_here += j;
				}
				for (; j < nr && rc == 0; j++) {
					rec.p = p + j * (PMR_SIM_GNODE_LEN + 8);
					rec.index = i0 + j;
					rc = graph_gnode(ip, &in, &s, &rec,
					    lanes, nl);
				}
			}
		} else if (rec.type == PMR_REC_META)
			rc = graph_meta(ip, &in, &s, &rec);
		else if (rec.type == PMR_REC_IMAGE) {
			s.images++;
			rc = 0;
			if (s.nodes_here == 0)
				rc = procs_image(ip, &in, &rec);
			if (rc == 0 && ip->top_gain != 0 && in.streams == 1)
				rc = top_image(ip, &in, &rec);
		} else if (rec.type == PMR_REC_STATS) {
			struct pmr_sim_stats st;

			rc = decode(ip, &in, &rec, &st);
			if (rc == 0 && st.final)
				td_add(ip, &st);
		} else if (rec.type == PMR_REC_COST) {
			if (s.g != NULL)
				rc = fail(ip, PMR_ECORRUPT, "%s: COST records "
				    "among GNODE records: read them apart",
				    in.name);
			else
				rc = cost_add(ip, &in, &rec, &cb, &cinit);
		}
		if (rc < 0)
			break;
	}
	if (rc < 0)
		goto out;
	if (cinit) {		/* COST streams, merged */
		pmr_icost_bd_free(bd);
		*bd = cb;
		cinit = 0;
		goto out;
	}
	rc = graph_end(ip, &in, &s, bd, lanes, nl);
out:
	if (cinit)
		pmr_icost_bd_free(&cb);
	in_close(&in);
	pmr_icost_graph_free(s.g);
	return rc;
}

/* The pcs a --top pass measures at once: lanes for the base, the
 * partner, and each pc alone and with the partner (with the partner, the
 * categories of a breakdown). */
#define TOP_BATCH (PMR_ICOST_MAXCAT - 1)

/* One --top pass after the first: the np pcs measured, alone and with the
 * partner, into the table. */
static int
top_pass(struct pmr_icost_input *ip, char **files, int nfiles,
    const struct pmr_icost_base *cat, const struct pmr_icost_base *with,
    const uint64_t *pcs, unsigned np)
{
	uint32_t lanes[2 * TOP_BATCH + 2];
	const char *names[PMR_ICOST_MAXCAT];
	struct pmr_icost_bd bd;
	unsigned i, nl, w = with != NULL;
	int rc;

	ip->ncat = 0;
	if (with != NULL &&
	    (rc = pmr_icost_input_cat_add(ip, with->name, with->ideal,
	    NULL)) != 0)
		return rc;
	nl = 0;
	lanes[nl++] = 0;
	if (with != NULL)
		lanes[nl++] = 1;
	for (i = 0; i < np; i++) {
		char nm[32];
		struct pmr_icost_cat *c;

		snprintf(nm, sizeof(nm), "0x%" PRIx64, pcs[i]);
		if ((rc = pmr_icost_input_cat_add(ip, nm, cat->ideal,
		    &c)) != 0)
			return rc;
		c->filtered = 1;
		ip->top_rng[i].lo = pcs[i];
		ip->top_rng[i].hi = pcs[i] + 1;
		c->ranges = &ip->top_rng[i];
		c->nranges = 1;
		lanes[nl++] = 1u << (i + w);
		if (with != NULL)
			lanes[nl++] = 1u << (i + w) | 1;
	}
	for (i = 0; i < ip->ncat; i++)
		names[i] = ip->cats[i].name;
	if (pmr_icost_bd_init(&bd, PMR_COST_GRAPH, names, ip->ncat) != 0)
		return fail(ip, PMR_ENOMEM, "out of memory");
	if ((rc = pmr_icost_read_graph(ip, files, nfiles, &bd, lanes,
	    nl)) != 0)
		goto out;
	if ((int64_t)bd.t[0] != ip->top_t) {
		rc = fail(ip, PMR_ECORRUPT, "--top: the input changed between "
		    "two readings (t = %" PRId64 ", then %" PRIu64 ")",
		    ip->top_t, bd.t[0]);
		goto out;
	}
	for (i = 0; i < np; i++) {
		uint32_t m = 1u << (i + w);
		int64_t ic = 0, cost, b;
		double fr;

		if (with != NULL)
			pmr_icost_bd_icost(&bd, m | 1, &fr, &ic);
		cost = (int64_t)bd.t[0] - (int64_t)bd.ts[m];
		if (!pmr_icost_top_set(ip->top_tab, pcs[i], cost, ic, &b))
			say(ip, PMR_ICOST_WARNING, "warning: pc 0x%" PRIx64
			    " costs %" PRId64 " cycles, above its bound %"
			    PRId64 ": the ranking may miss pcs (a bug)",
			    pcs[i], cost, b);
	}
out:
	pmr_icost_bd_free(&bd);
	return rc;
}

int
pmr_icost_top_run(struct pmr_icost_input *ip, char **files, int nfiles,
    const struct pmr_icost_base *cat, const struct pmr_icost_base *with,
    unsigned k)
{
	uint64_t pcs[TOP_BATCH];
	uint32_t lane0 = 0;
	const char *names[1];
	struct pmr_icost_bd bd;
	unsigned np;
	int rc;

	if ((ip->top_tab = pmr_icost_top_new()) == NULL)
		return fail(ip, PMR_ENOMEM, "out of memory");
	/* pass 1: the base graph and the bounds */
	ip->ncat = 0;
	if ((rc = pmr_icost_input_cat_add(ip, cat->name, cat->ideal,
	    NULL)) != 0)	/* in no lane */
		return rc;
	names[0] = cat->name;
	memset(&ip->dg, 0, sizeof(ip->dg));
	if (pmr_icost_bd_init(&bd, PMR_COST_GRAPH, names, 1) != 0)
		return fail(ip, PMR_ENOMEM, "out of memory");
	ip->top_gain = cat->ideal;
	rc = pmr_icost_read_graph(ip, files, nfiles, &bd, &lane0, 1);
	ip->top_gain = 0;
	if (rc == 0 && !ip->graph_read)
		rc = fail(ip, PMR_ECORRUPT, "--top: the input has COST "
		    "records, no graph");
	ip->top_t = (int64_t)bd.t[0];
	pmr_icost_bd_free(&bd);
	if (rc != 0)
		return rc;
	ip->top_passes = 0;
	while ((np = pmr_icost_top_next(ip->top_tab, k, pcs, TOP_BATCH)) > 0) {
		if ((rc = top_pass(ip, files, nfiles, cat, with, pcs, np)) != 0)
			return rc;
		ip->top_passes++;
	}
	return 0;
}

/*
 * A window of read_multisim: the runs of one stretch of the trace (pmsim
 * --skip; one window when there is none), each subset's cycles, and the
 * path every run of it must have retired.
 */
struct mwin {
	uint64_t skip, insns, hash;
	uint64_t cycles[1u << PMR_ICOST_MAXALL];
	uint8_t seen[1u << PMR_ICOST_MAXALL];
};

/* The run being read (a stream), and what the runs so far share. */
struct mrun {
	uint32_t mask;
	int have_stats, ideal_run;
	uint64_t skip, cycles, insns, hash, cdig, bdig;
	uint64_t dig1, runs;
	struct mwin *w;
	size_t nw, cap;
};

/* The end of a run (at the next stream, or the input's end): its cycles
 * go to its window's subset. */
static int
multisim_end(struct pmr_icost_input *ip, const struct in *in,
    struct mrun *s)
{
	struct mwin *w;
	uint64_t dig;
	size_t k;

	if (s->runs == 0 && !s->have_stats)
		return 0;
	if (!s->have_stats)
		return fail(ip, PMR_ECORRUPT, "%s: a run without its final "
		    "STATS record", in->name);
	dig = s->ideal_run ? s->bdig : s->cdig;
	if (dig != 0 && s->dig1 != 0 && dig != s->dig1)
		return fail(ip, PMR_ECORRUPT, "%s: run %" PRIu64 " idealizes "
		    "another machine than the first (config digest %016"
		    PRIx64 ", first %016" PRIx64 ")", in->name, s->runs, dig,
		    s->dig1);
	if (s->dig1 == 0)
		s->dig1 = dig;
	for (k = 0; k < s->nw && s->w[k].skip != s->skip; k++)
		;
	if (k == s->nw) {
		if (s->nw == s->cap) {
			size_t cap = s->cap ? 2 * s->cap : 4;
			struct mwin *nw = realloc(s->w, cap * sizeof(*nw));

			if (nw == NULL)
				return fail(ip, PMR_ENOMEM, "out of memory");
			s->w = nw, s->cap = cap;
		}
		w = &s->w[s->nw++];
		memset(w, 0, sizeof(*w));
		w->skip = s->skip, w->insns = s->insns, w->hash = s->hash;
	}
	w = &s->w[k];
	if (s->insns != w->insns)
		return fail(ip, PMR_ECORRUPT, "%s: the runs simulated "
		    "different numbers of instructions (%" PRIu64 " and %"
		    PRIu64 ")", in->name, w->insns, s->insns);
	if (s->hash != 0 && w->hash != 0 && s->hash != w->hash)
		return fail(ip, PMR_ECORRUPT, "%s: the runs retired different "
		    "instructions (another trace, --warmup or --max): pc hash "
		    "%016" PRIx64 ", first %016" PRIx64, in->name, s->hash,
		    w->hash);
	if (w->seen[s->mask])
		return fail(ip, PMR_ECORRUPT, "%s: two runs idealize the same "
		    "subset%s", in->name, s->nw > 1 || s->skip != 0 ?
		    " in the same window" : "");
	w->seen[s->mask] = 1;
	w->cycles[s->mask] = s->cycles;
	return 0;
}

/* A META record of a run: its digests, what it idealizes, its window. */
static int
multisim_meta(struct pmr_icost_input *ip, const struct in *in,
    struct mrun *s, const struct pmr_rec *rec)
{
	struct pmr_meta m2;
	int rc;

	if ((rc = decode(ip, in, rec, &m2)) != 0)
		return rc;
	if (meta_is(&m2, "config-digest") ||
	    meta_is(&m2, "base-config-digest")) {
		char hx[24];
		uint64_t d;

		snprintf(hx, sizeof(hx), "%.*s", (int)m2.value.n,
		    (const char *)m2.value.p);
		d = strtoull(hx, NULL, 16);
		*(meta_is(&m2, "config-digest") ? &s->cdig : &s->bdig) = d;
	} else if (meta_is(&m2, "skip")) {
		if (pmr_sim_window_skip(m2.value.p, m2.value.n, &s->skip) != 0)
			return fail(ip, PMR_ECORRUPT, "%s: META skip '%.*s' "
			    "names no window", in->name, (int)m2.value.n,
			    (const char *)m2.value.p);
	} else if (meta_is(&m2, "ideal")) {
		char *str, *p, *sp;
		unsigned k;

		s->ideal_run = 1;
		if ((str = strndup((const char *)m2.value.p,
		    m2.value.n)) == NULL)
			return fail(ip, PMR_ENOMEM, "out of memory");
		for (p = strtok_r(str, ",", &sp); p != NULL;
		    p = strtok_r(NULL, ",", &sp)) {
			for (k = 0; k < ip->ncat; k++)
				if (ip->cats[k].ideal ==
				    pmr_sim_ideal_byname(p))
					break;
			if (k == ip->ncat) {
				rc = fail(ip, PMR_ECORRUPT, "%s: a run "
				    "idealizes %s, not among the categories",
				    in->name, p);
				free(str);
				return rc;
			}
			s->mask |= 1u << k;
		}
		free(str);
	}
	return 0;
}

/* A STATS record of a run: its cycles, if final. */
static int
multisim_stats(struct pmr_icost_input *ip, const struct in *in,
    struct mrun *s, const struct pmr_rec *rec)
{
	struct pmr_sim_stats st;
	int rc;

	if ((rc = decode(ip, in, rec, &st)) != 0)
		return rc;
	if (!st.final)
		return 0;
	s->cycles = st.cycles;
	s->insns = st.retired;
	s->hash = st.pc_hash;
	if (s->mask == 0)
		td_add(ip, &st);
	s->have_stats = 1;
	return 0;
}

/*
 * Runs of several windows (pmsim --skip, cat-merged) combine as shards
 * do, by sums: each subset's cycles over the windows against the base
 * runs' (Fields et al. measure one stretch; a long trace is measured as
 * many).  Every window must have the same subsets.
 */
int
pmr_icost_read_multisim(struct pmr_icost_input *ip, char **files,
    int nfiles, struct pmr_icost_bd *bd)
{
	struct mrun *s;
	struct pmr_rec rec;
	struct in in;
	uint32_t m;
	uint64_t insns = 0;
	size_t k;
	int ns, more, rc = 0;

	if (ip->ncat > PMR_ICOST_MAXALL)
		return fail(ip, PMR_EINVAL, "--multisim takes at most %d "
		    "categories", PMR_ICOST_MAXALL);
	for (m = 0; m < ip->ncat; m++)
		if (ip->cats[m].filtered)
			return fail(ip, PMR_EINVAL, "--multisim: '%s' has a "
			    "filter: pmsim --ideal idealizes whole categories",
			    ip->cats[m].name);
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return fail(ip, PMR_ENOMEM, "out of memory");
	in_open(&in, files, nfiles);
	for (;;) {
		if ((more = in_next(ip, &in, &rec, &ns)) < 0) {
			rc = more;
			goto out;
		}
		if (!more || ns) {
			if ((rc = multisim_end(ip, &in, s)) != 0)
				goto out;
			if (!more)
				break;
			s->runs++;
			s->mask = 0;
			s->have_stats = 0;
			s->ideal_run = 0;
			s->cdig = s->bdig = 0;
			s->skip = s->cycles = s->insns = s->hash = 0;
		}
		if (rec.type == PMR_REC_META)
			rc = multisim_meta(ip, &in, s, &rec);
		else if (rec.type == PMR_REC_STATS)
			rc = multisim_stats(ip, &in, s, &rec);
		if (rc != 0)
			goto out;
	}
	if (s->runs == 0) {
		rc = fail(ip, PMR_ECORRUPT, "no pmsim runs in the input");
		goto out;
	}
	for (k = 0; k < s->nw; k++) {
		if (!s->w[k].seen[0]) {
			rc = s->nw == 1 ? fail(ip, PMR_ECORRUPT, "no base run "
			    "(pmsim without --ideal) among the %" PRIu64
			    " runs", s->runs) : fail(ip, PMR_ECORRUPT, "no "
			    "base run (pmsim without --ideal) of the window "
			    "at --skip=%" PRIu64, s->w[k].skip);
			goto out;
		}
		if (memcmp(s->w[k].seen, s->w[0].seen,
		    sizeof(s->w[0].seen)) != 0) {
			rc = fail(ip, PMR_ECORRUPT, "the window at --skip=%"
			    PRIu64 " has other subsets than the one at "
			    "--skip=%" PRIu64 ": every window needs a run of "
			    "each", s->w[k].skip, s->w[0].skip);
			goto out;
		}
	}
	for (k = 0; k < s->nw; k++) {
		for (m = 0; m < 1u << ip->ncat; m++)
			if (s->w[k].seen[m])
				pmr_icost_bd_add(bd, m, s->w[k].cycles[0],
				    s->w[k].cycles[m]);
		insns += s->w[k].insns;
	}
	bd->insns = insns;
	bd->frags = s->runs;
	bd->digest = s->dig1;
out:
	in_close(&in);
	free(s->w);
	free(s);
	return rc;
}

/* Reads the COST records of one file into bd; returns 1 if there was
 * one, 0 if none, or a PMR_E* code. */
static int
read_costs(struct pmr_icost_input *ip, char **file,
    struct pmr_icost_bd *bd)
{
	struct pmr_rec rec;
	struct in in;
	int ns, rc, init = 0;

	in_open(&in, file, 1);
	while ((rc = in_next(ip, &in, &rec, &ns)) == 1)
		if (rec.type == PMR_REC_COST &&
		    (rc = cost_add(ip, &in, &rec, bd, &init)) != 0)
			break;
	in_close(&in);
	if (rc < 0) {
		if (init)
			pmr_icost_bd_free(bd);
		return rc;
	}
	return init;
}

int
pmr_icost_read_compare(struct pmr_icost_input *ip, char **files,
    int nfiles, struct pmr_icost_bd *b)
{
	int i, rc = 0;

	for (i = 0; i < nfiles; i++) {
		if ((rc = read_costs(ip, &files[i], &b[i])) < 0)
			break;
		if (rc == 0) {
			rc = fail(ip, PMR_ECORRUPT, "%s: no COST records "
			    "(icost -f pmr writes them)",
			    pmr_display(files[i]));
			break;
		}
		rc = 0;
		if (i > 0 && b[i].digest != 0 && b[0].digest != 0 &&
		    b[i].digest != b[0].digest)
			rc = fail(ip, PMR_ECORRUPT, "%s: a breakdown of "
			    "another machine than %s (config digest %016"
			    PRIx64 ", %016" PRIx64 ")", pmr_display(files[i]),
			    pmr_display(files[0]), b[i].digest, b[0].digest);
		else if (i > 0 && (b[i].ncat != b[0].ncat ||
		    memcmp(b[i].names, b[0].names, sizeof(b[0].names)) != 0))
			rc = fail(ip, PMR_ECORRUPT, "%s: other categories "
			    "than %s", pmr_display(files[i]),
			    pmr_display(files[0]));
		if (rc != 0) {
			i++;
			break;
		}
	}
	if (rc != 0)
		while (i-- > 0)
			pmr_icost_bd_free(&b[i]);
	return rc;
}

void
pmr_icost_input_title(const struct pmr_icost_input *ip,
    const struct pmr_icost_bd *bd, char *buf, size_t len)
{
	const struct pmr_icost_diag *dg = &ip->dg;

	buf[0] = '\0';
	if (ip->graph_read && (bd->source == PMR_COST_SHOTGUN ||
	    ip->fragments || ip->cut != 0))
		snprintf(buf, len, "t = %" PRIu64 " cycles over %" PRIu64
		    " %sfragments (%" PRIu64 " nodes timed, %" PRIu64
		    " fragments within --warm; not checked against observed "
		    "cycles); producers beyond the ring %" PRIu64, bd->t[0],
		    bd->frags, bd->source == PMR_COST_SHOTGUN ? "shotgun " :
		    "", dg->measured, dg->short_frags, dg->dropped);
	else if (ip->graph_read)
		snprintf(buf, len, "t = %" PRIu64 " cycles, observed %" PRId64
		    " (graph/observed %.4f); nodes later than observed: D %"
		    PRIu64 " R %" PRIu64 " E %" PRIu64 " P %" PRIu64 " C %"
		    PRIu64 "; producers beyond the ring %" PRIu64, bd->t[0],
		    dg->t_obs, dg->t_obs > 0 ? (double)bd->t[0] /
		    (double)dg->t_obs : 0.0, dg->late[0], dg->late[1],
		    dg->late[2], dg->late[3], dg->late[4], dg->dropped);
}

/* The masks of bd's categories that idealize mispredicts (bm) and that
 * idealize every instruction's I-side misses (im), by name: ip's
 * categories, or the base ones for names ip does not have (COST
 * records). */
static void
wp_masks(const struct pmr_icost_input *ip, const struct pmr_icost_bd *bd,
    uint32_t *bm, uint32_t *im)
{
	unsigned i, k;

	*bm = *im = 0;
	for (i = 0; i < bd->ncat; i++) {
		const struct pmr_icost_base *base;
		unsigned ideal = 0;
		int filtered = 0;

		for (k = 0; k < ip->ncat; k++)
			if (strcmp(ip->cats[k].name, bd->names[i]) == 0)
				break;
		if (k < ip->ncat) {
			ideal = ip->cats[k].ideal;
			filtered = ip->cats[k].filtered;
		} else if ((base = pmr_icost_base_byname(bd->names[i])) !=
		    NULL)
			ideal = base->ideal;
		if (ideal & PMR_SIM_IDEAL_BMISP)
			*bm |= 1u << i;
		if ((ideal & PMR_SIM_IDEAL_IMISS) && !filtered)
			*im |= 1u << i;
	}
}

/* "c joining a+b", the category c joining the subset m; "c alone". */
static const char *
fall_name(const struct pmr_icost_bd *bd, unsigned c, uint32_t m, char *buf,
    size_t len)
{
	size_t n;
	unsigned i;

	n = (size_t)snprintf(buf, len, "%s %s", bd->names[c],
	    m ? "joining " : "alone");
	for (i = 0; i < bd->ncat && n < len; i++)
		if (m & (1u << i))
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
			    (m & ((1u << i) - 1)) ? "+" : "", bd->names[i]);
	return buf;
}

int
pmr_icost_input_check(struct pmr_icost_input *ip,
    const struct pmr_icost_bd *bd, int want_td)
{
	const struct pmr_icost_diag *dg = &ip->dg;
	struct pmr_icost_checks ck;
	uint64_t late;
	uint32_t bm, im;
	char a[256];

	if (ip->graph_read)
		say(ip, PMR_ICOST_VERBOSE, "%" PRIu64 " nodes, %" PRIu64
		    " timed, %" PRIu64 " fragments, times rebased %" PRIu64
		    " times", bd->insns, dg->measured, bd->frags, dg->rebases);
	if (want_td && ip->td.runs == 0)
		return fail(ip, PMR_ECORRUPT, "--topdown: no final STATS "
		    "record of a base run in the input (pmsim writes one; "
		    "COST records carry none)");
	if (want_td && ip->td.slots == 0)
		return fail(ip, PMR_ECORRUPT, "--topdown: the STATS records "
		    "have no Top-Down slots (written before pmr 1.4): run "
		    "pmsim again");
	wp_masks(ip, bd, &bm, &im);
	/* COST records do not say the machine: their graph may have
	 * fetched wrong paths */
	pmr_icost_bd_check(bd, bm, im, bd->source != PMR_COST_MULTISIM &&
	    (!ip->graph_read || ip->graph_wp), &ck);
	if (ck.badsum != 0)
		return fail(ip, PMR_ECORRUPT, "the icosts of %u subsets do "
		    "not sum to their cost: a bug", ck.badsum);
	if (bd->source != PMR_COST_MULTISIM && ip->go.warm != 0 &&
	    (ck.negative + ck.nonmono + ck.wp_negative + ck.wp_nonmono) != 0)
		say(ip, PMR_ICOST_NOTE, "note: %u negative costs and %u costs "
		    "below a subset's (with --warm a time is a difference of "
		    "two commits, which need not be monotone)", ck.negative +
		    ck.wp_negative, ck.nonmono + ck.wp_nonmono);
	else if (bd->source != PMR_COST_MULTISIM) {
		if (ck.wp_negative != 0 || ck.wp_nonmono != 0)
			say(ip, PMR_ICOST_NOTE, "note: idealizing mispredicts "
			    "made %u costs negative and %u costs fall (the "
			    "most: %s, %.1f points less): the lines wrong paths "
			    "brought miss without them, unless imiss is "
			    "idealized too", ck.wp_negative, ck.wp_nonmono,
			    fall_name(bd, ck.wp_worst_cat, ck.wp_worst_sub, a,
			    sizeof(a)), 100 * ck.wp_worst);
		if ((ck.negative != 0 || ck.nonmono != 0) &&
		    ip->go.issue_sched)
			say(ip, PMR_ICOST_NOTE, "note: the graph gave %u "
			    "negative costs and %u costs below a subset's "
			    "(the most: %s, %.1f points less; with --issue "
			    "sched a lane that runs ahead can contend more)",
			    ck.negative, ck.nonmono, fall_name(bd,
			    ck.worst_cat, ck.worst_sub, a, sizeof(a)),
			    100 * ck.worst);
		else if (ck.negative != 0 || ck.nonmono != 0)
			say(ip, PMR_ICOST_WARNING, "warning: the graph gave %u "
			    "negative costs and %u costs below a subset's "
			    "(the most: %s, %.1f points less; the critical "
			    "path should be monotone)", ck.negative,
			    ck.nonmono, fall_name(bd, ck.worst_cat,
			    ck.worst_sub, a, sizeof(a)), 100 * ck.worst);
	} else if ((ck.negative + ck.nonmono) != 0)
		say(ip, PMR_ICOST_NOTE, "note: multisim gave %u negative costs "
		    "and %u costs below a subset's (simulation is not "
		    "monotone)", ck.negative, ck.nonmono);
	late = dg->late[0] + dg->late[1] + dg->late[2] + dg->late[3] +
	    dg->late[4];
	if (late != 0)
		say(ip, PMR_ICOST_WARNING, "warning: %" PRIu64 " graph node "
		    "times are later than observed, by up to %" PRId64
		    " cycles (first at seq %" PRIu64 "): the graph holds an "
		    "edge the machine does not", late, dg->late_max,
		    dg->late_seq);
	return 0;
}

int
pmr_icost_costs_write(struct pmr_writer *w, const struct pmr_icost_bd *bd,
    char *eb, size_t eblen)
{
	char cats_s[PMR_ICOST_MAXCAT * 65];
	uint32_t m;
	int err = 0, rc;

	pmr_icost_bd_cats(bd, cats_s, sizeof(cats_s));
	for (m = 0; m < 1u << bd->ncat; m++) {
		struct pmr_cost_rec c;

		if (!bd->have[m])
			continue;
		c.source = (uint8_t)bd->source;
		c.mask = m;
		c.cats.p = (const unsigned char *)cats_s;
		c.cats.n = (uint32_t)strlen(cats_s);
		c.t = bd->t[m];
		c.ts = bd->ts[m];
		c.insns = m == 0 ? bd->insns : 0;
		c.frags = m == 0 ? bd->frags : 0;
		c.digest = bd->digest;
		if ((err = pmr_write(w, PMR_REC_COST, &c)) != 0)
			break;
	}
	if (err != 0) {
		pmr_writer_abort(w);
		snprintf(eb, eblen, "%s", pmr_strerror(err));
		return err;
	}
	if ((rc = pmr_writer_close(w, eb, eblen)) != 0)
		return rc < 0 ? rc : PMR_EIO;
	return 0;
}
