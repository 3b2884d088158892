/*
 * icost: costs and interaction costs of event classes on an out-of-order
 * core (Fields, Bodik, Hill, Newburn, MICRO-36 2003): the critical path of
 * pmsim's dependence graph (GNODE records) under every requested subset of
 * idealizations in one pass, or the cycles of one pmsim run per subset
 * (--multisim); the paper's breakdown table, COST records that merge,
 * and the comparison of breakdowns (--compare, the paper's Table 7).
 *
 * The graph, the algebra and the reports live in lib/icost/; this file
 * reads the inputs, checks that they hold what it needs and says what
 * went wrong.  See icost(1).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "icost/bd.h"
#include "icost/icost.h"
#include "icost/top.h"
#include "sim/sim.h"
#include "sym/sym.h"
#include "stream/pmr.h"
#include "util/cli.h"

enum {
	O_ORDER = PMR_OPT_PRIVATE, O_ALL, O_FOCUS, O_MULTISIM, O_COMPARE,
	O_BAR, O_WIN_INF, O_FU, O_FRAGMENTS, O_SUBSETS, O_TOPDOWN,
	O_SYSROOT, O_NODES, O_TOP, O_TOP_K, O_WITH, O_WARM, O_CUT
};

static const char synopsis[] =
    "usage: icost [-qv] [-c cats] [-e name=cats:filter] [-f format] "
    "[-m preset]\n"
    "             [-O key=value] [-o file] [-t percent] [--all | --focus=cat "
    "| --order=k]\n"
    "             [--bar] [--compare | --multisim] [file ...]\n";

static void
help(void)
{
	unsigned i;

	printf("usage: icost [options] [file ...]\n"
	    "Costs and interaction costs of event categories (Fields et al., "
	    "MICRO-36):\nthe critical path of pmsim's dependence graph (GNODE "
	    "records, pmsim --graph)\nunder every subset of idealizations in "
	    "one pass, or one pmsim run per subset\n(--multisim); the "
	    "paper's breakdown table or COST records that merge.\n\n"
	    "Categories:\n"
	    "  -c, --cats=LIST      categories, comma-separated, in order "
	    "[dl1,win,bw,bmisp,\n"
	    "                       dmiss,shalu,lgalu,imiss]\n"
	    "  -e, --set=NAME=CATS:FILTER  a category of its own: CATS "
	    "(joined by +) on the\n"
	    "                       instructions FILTER names: pc=ADDR, "
	    "pc=LO-HI, cls=CLASS,\n"
	    "                       proc=NAME (a procedure of the IMAGE "
	    "records' files)\n"
	    "      --sysroot=DIR    look the absolute paths of IMAGE records "
	    "up under DIR\n"
	    "Subsets:\n"
	    "      --order=K        singles, pairs ... up to K, and all "
	    "together [2]\n"
	    "      --all            every subset (2^n; n <= %d)\n"
	    "      --focus=CAT      singles, the pairs with CAT, all "
	    "(the paper's Table 4)\n"
	    "Graph:\n"
	    "  -m, --machine=PRESET the machine the GNODE records must come "
	    "from\n"
	    "  -O, --set-config=K=V a setting of that machine (as pmsim -O)\n"
	    "      --win-inf        win deletes the window edges [window x "
	    "20]\n"
	    "      --fu-contention=bw|lgalu  who owns the unit contention of "
	    "long ops [bw]\n"
	    "      --fragments      the input is fragments: a seq gap starts "
	    "a new one\n"
	    "      --warm=N         a fragment's time counts from its N-th "
	    "node's commit [0]\n"
	    "      --cut=N          a new fragment at each seq that N "
	    "divides\n"
	    "Other inputs:\n"
	    "      --multisim       the inputs are pmsim runs, one per subset "
	    "(META ideal)\n"
	    "      --compare        2 or 3 COST streams: multisim, graph "
	    "[, shotgun]\n"
	    "  -t, --threshold=PCT  --compare: rows with |multisim| >= PCT "
	    "[5]\n"
	    "      --subsets        print the subsets, one pmsim --ideal list "
	    "a line, and exit\n"
	    "Output:\n"
	    "  -f, --format=FMT     text, tsv, json or pmr (COST records) "
	    "[text]\n"
	    "      --bar            a text stacked bar after the table\n"
	    "      --topdown        Top-Down level 1 of the base run beside "
	    "it (its STATS)\n"
	    "      --nodes          instead of the table, each node's times "
	    "in the base graph\n"
	    "                       beside the observed ones (TSV)\n"
	    "Static instructions (files, read more than once):\n"
	    "      --top=CAT        instead of the table, the pcs whose CAT "
	    "costs most, each\n"
	    "                       idealized alone (dl1, dmiss, imiss, "
	    "bmisp, shalu, lgalu)\n"
	    "      --top-k=K        how many [10]\n"
	    "      --with=CAT|none  their icost with all of CAT [bmisp; "
	    "dmiss for bmisp]\n",
	    PMR_ICOST_MAXALL);
	printf("\nCategories (as pmsim --ideal):\n");
	for (i = 0; i < pmr_icost_nbases; i++)
		printf("  %-6s %s\n", pmr_icost_bases[i].name,
		    pmr_icost_bases[i].what);
	printf("\n%s", pmr_common_help);
}

static const char *const fmt_names[] = { "text", "tsv", "json", "pmr",
	NULL };

static struct pmr_common com;
static struct pmr_icost_cat cats[PMR_ICOST_MAXCAT];
static unsigned ncat;
static int fragments;
static uint64_t cut;		/* --cut: fragments of cut nodes by seq */
static int graph_read;	/* the breakdown comes from GNODE records */
static const char *sysroot;	/* --sysroot */
static FILE *nodes_out;		/* --nodes */
/* --top: the table of pcs and, in the first pass, what gain to bound */
static struct pmr_icost_top *top_tab;
static unsigned top_gain;
static struct pmr_symtab *top_st[64];	/* the first stream's images */
static unsigned top_nst;
static char sym_note[400];	/* the first image without symbols, why */

/* Notes the first image whose symbols could not be read, and why. */
static void
sym_failed(const char *path, int rc)
{
	if (sym_note[0] == '\0')
		snprintf(sym_note, sizeof(sym_note), "no symbols for '%.200s'"
		    "%s%.100s (%s)", path, sysroot != NULL ? " under " : "",
		    sysroot != NULL ? sysroot : "", pmr_sym_strerror(rc));
}
static struct pmr_icost_td td;	/* --topdown: the base runs' final STATS */

/* Adds a base run's final STATS to td. */
static void
td_add(const struct pmr_sim_stats *st)
{
	td.runs++;
	td.slots += st->td_slots;
	td.retired += st->retired;
	td.mapped += st->td_mapped;
	td.fe += st->td_fe;
	td.bad += st->td_bad;
}

/* Adds category name with idealizations ideal (filter set by caller). */
static struct pmr_icost_cat *
cat_add(const char *name, unsigned ideal)
{
	struct pmr_icost_cat *c;
	unsigned k;

	if (ncat == PMR_ICOST_MAXCAT)
		pmr_cli_misuse("more than %d categories", PMR_ICOST_MAXCAT);
	for (k = 0; k < ncat; k++)
		if (strcmp(cats[k].name, name) == 0)
			pmr_cli_misuse("category '%s' given twice", name);
	c = &cats[ncat++];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->ideal = ideal;
	return c;
}

static const char *const cls_names[] = { "other", "int", "imul", "idiv",
	"fadd", "fmul", "fdiv", "load", "store", "ldst", "br", "jmp",
	"jmp_ind", "call", "call_ind", "ret", "syscall", "nop", NULL };

/* -e NAME=CAT[+CAT...]:pc=A | pc=LO-HI | cls=C[,C...] | proc=NAME */
static void
set_add(const char *arg)
{
	char buf[512], *eq, *colon, *p, *q;
	struct pmr_icost_cat *c;
	unsigned ideal = 0;
	const char *errstr;

	if (strlen(arg) >= sizeof(buf))
		pmr_cli_bad("--set", arg, "too long");
	strcpy(buf, arg);
	if ((eq = strchr(buf, '=')) == NULL || (colon = strchr(eq, ':')) ==
	    NULL || eq == buf)
		pmr_cli_bad("--set", arg, "not NAME=CATS:FILTER");
	*eq++ = '\0';
	*colon++ = '\0';
	for (p = strtok(eq, "+"); p != NULL; p = strtok(NULL, "+")) {
		const struct pmr_icost_base *b = pmr_icost_base_byname(p);

		if (b == NULL)
			pmr_cli_bad("--set", arg, "an unknown category");
		ideal |= b->ideal;
	}
	if (ideal == 0)
		pmr_cli_bad("--set", arg, "without categories");
	c = cat_add(buf, ideal);
	c->filtered = 1;
	if (strncmp(colon, "pc=", 3) == 0) {
		uint64_t lo, hi;

		p = colon + 3;
		if ((q = strchr(p, '-')) != NULL)
			*q++ = '\0';
		lo = pmr_strtou64(p, &errstr);
		if (errstr != NULL)
			pmr_cli_bad("--set", arg, "a bad pc");
		hi = lo + 1;
		if (q != NULL) {
			hi = pmr_strtou64(q, &errstr);
			if (errstr != NULL || hi <= lo)
				pmr_cli_bad("--set", arg, "a bad pc range "
				    "(LO-HI, HI above LO, HI not included)");
		}
		if ((c->ranges = malloc(sizeof(*c->ranges))) == NULL)
			pmr_cli_misuse("out of memory");
		c->ranges[0].lo = lo;
		c->ranges[0].hi = hi;
		c->nranges = 1;
	} else if (strncmp(colon, "proc=", 5) == 0) {
		if (colon[5] == '\0')
			pmr_cli_bad("--set", arg, "a filter without a procedure");
		if ((c->proc = strdup(colon + 5)) == NULL ||
		    (c->ranges = malloc(sizeof(*c->ranges))) == NULL)
			pmr_cli_misuse("out of memory");
		c->nranges = 0;	/* matches nothing until found */
	} else if (strncmp(colon, "cls=", 4) == 0) {
		for (p = strtok(colon + 4, ","); p != NULL;
		    p = strtok(NULL, ","))
			c->clsmask |= 1u << pmr_cli_pick("--set cls", p,
			    cls_names);
	} else
		pmr_cli_bad("--set", arg, "a filter other than pc=, cls= or "
		    "proc=");
}

static void
cats_default(const char *list)
{
	struct pmr_items it;
	const char *item;

	pmr_items_init(&it, list);
	while ((item = pmr_items_next(&it)) != NULL) {
		const struct pmr_icost_base *b = pmr_icost_base_byname(item);

		if (b == NULL) {
			char bad[128];	/* the item dies with the list */

			snprintf(bad, sizeof(bad), "%s", item);
			pmr_items_end(&it);
			pmr_cli_bad("--cats", bad, "unknown (dl1, win, bw, "
			    "bmisp, dmiss, shalu, lgalu, imiss)");
		}
		cat_add(b->name, b->ideal);
	}
}

/* The input as one record sequence over every file. */
struct in {
	char **files;
	int nfiles, next;
	struct pmr_reader *r;
	const char *name;
	uint64_t streams;	/* streams begun, over all files */
	uint64_t last_ns;
};

static void
die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("icost: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

/* Reads the next record; returns 1, or 0 after the last file.  *newstream
 * is set at the first record of each stream. */
static int
in_next(struct in *in, struct pmr_rec *rec, int *newstream)
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
				die("%s: %s", in->name, pmr_strerror(err));
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
			die("%s: %s", in->name, pmr_reader_errmsg(in->r));
		pmr_reader_close(in->r);
		in->r = NULL;
	}
}

static int
meta_is(const struct pmr_meta *m, const char *key)
{
	return m->key.n == strlen(key) && memcmp(m->key.p, key, m->key.n) == 0;
}

/* Sets c from a META config value ("key = value" lines). */
static void
config_parse(struct pmr_sim_config *c, const struct pmr_meta *m,
    const char *where)
{
	char eb[256];
	int rc = pmr_sim_config_text(c, m->value.p, m->value.n, eb,
	    sizeof(eb));

	if (rc != 0)
		die("%s: META config: %s", where, rc == PMR_ENOMEM ?
		    pmr_strerror(rc) : eb);
}

/* The machine -m and -O state. */
static void
config_stated(struct pmr_sim_config *c, const char *preset,
    const char *const *kvs, unsigned nkv)
{
	char eb[256];
	unsigned k;

	if (pmr_sim_config_preset(c, preset != NULL ? preset :
	    "alpha21264") != 0)
		pmr_cli_bad("--machine", preset, "unknown");
	for (k = 0; k < nkv; k++)
		if (pmr_sim_config_setkv(c, kvs[k], eb, sizeof(eb)) != 0)
			pmr_cli_bad("-O", kvs[k], eb);
}

static uint32_t lanes_buf[1u << PMR_ICOST_MAXALL];

/* Prints the subsets of lanes as pmsim --ideal lists ("none": the base),
 * one a line: the runs of a multisim set (examples/icost-multisim.mk). */
static void
print_subsets(const uint32_t *lanes, unsigned nl)
{
	unsigned k, c, b;

	for (c = 0; c < ncat; c++)
		if (cats[c].filtered)
			pmr_cli_misuse("--subsets: '%s' has a filter: pmsim "
			    "--ideal idealizes whole categories",
			    cats[c].name);
	for (k = 0; k < nl; k++) {
		unsigned ideal = 0;
		int first = 1;

		for (c = 0; c < ncat; c++)
			if (lanes[k] >> c & 1)
				ideal |= cats[c].ideal;
		if (ideal == 0)
			fputs("none", stdout);
		for (b = 0; b < 32; b++)
			if (ideal >> b & 1) {
				printf("%s%s", first ? "" : ",",
				    pmr_sim_ideal_name(1u << b));
				first = 0;
			}
		putchar('\n');
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		die("standard output: %s", strerror(errno));
}

/* Decodes rec into out, or says which record of the input is bad. */
static void
decode(const struct in *in, const struct pmr_rec *rec, void *out)
{
	const char *why;

	if (pmr_rec_decode(rec, out, &why) != 0)
		die("%s: record %" PRIu64 ": %s", in->name, rec->index, why);
}

static void cost_add(struct in *in, const struct pmr_rec *rec,
    struct pmr_icost_bd *bd, int *init);

/* --top: keeps the symbols of the first stream's images, for the proc
 * column (an image whose file cannot be read has none). */
static void
top_image(const struct in *in, const struct pmr_rec *rec)
{
	struct pmr_image im;
	char *path;
	int rc;

	if (top_nst == sizeof(top_st) / sizeof(top_st[0]))
		return;
	decode(in, rec, &im);
	if ((path = strndup((const char *)im.path.p, im.path.n)) == NULL)
		die("out of memory");
	rc = pmr_symtab_load(path, sysroot, im.start, im.size, im.offset,
	    im.build_id.p, im.build_id.n, &top_st[top_nst]);
	if (rc == PMR_ENOMEM)
		die("out of memory");
	if (rc != 0)
		sym_failed(path, rc);
	free(path);
	if (top_st[top_nst] != NULL)
		top_nst++;
}

static const char *
top_proc(uint64_t pc, void *arg)
{
	unsigned i;
	uint64_t lo;
	const char *s;

	(void)arg;
	for (i = 0; i < top_nst; i++)
		if ((s = pmr_symtab_find(top_st[i], pc, &lo)) != NULL)
			return s;
	return NULL;
}

/* Looks the procedures of the -e proc= sets not yet found up in the
 * symbols of the file an IMAGE record maps (the first image that has one
 * wins, as pairs --proc).  The ranges hold for this stream only: another
 * run may map the file elsewhere. */
static void
procs_image(const struct in *in, const struct pmr_rec *rec)
{
	struct pmr_image im;
	struct pmr_symtab *st = NULL;
	char *path;
	unsigned k;
	int rc;

	for (k = 0; k < ncat; k++)
		if (cats[k].proc != NULL && cats[k].nranges == 0)
			break;
	if (k == ncat)
		return;
	decode(in, rec, &im);
	if ((path = strndup((const char *)im.path.p, im.path.n)) == NULL)
		die("out of memory");
	rc = pmr_symtab_load(path, sysroot, im.start, im.size, im.offset,
	    im.build_id.p, im.build_id.n, &st);
	if (rc == PMR_ENOMEM)
		die("out of memory");
	if (rc != 0)
		sym_failed(path, rc);
	free(path);
	if (st == NULL)
		return;		/* unreadable or not ELF: not this image */
	for (; k < ncat; k++) {
		uint64_t lo, hi;

		if (cats[k].proc == NULL || cats[k].nranges != 0 ||
		    !pmr_symtab_range(st, cats[k].proc, &lo, &hi))
			continue;
		cats[k].ranges[0].lo = lo;
		cats[k].ranges[0].hi = hi;
		cats[k].nranges = 1;
	}
	pmr_symtab_free(st);
}

/* At a stream's first GNODE: every procedure must have been found. */
static void
procs_check(const struct in *in, int images)
{
	unsigned k;

	for (k = 0; k < ncat; k++)
		if (cats[k].proc != NULL && cats[k].nranges == 0)
			die("%s: no procedure '%s' in the symbols of the %s%s%s",
			    in->name, cats[k].proc, images ? "IMAGE records' "
			    "files" : "input (it has no IMAGE records before "
			    "its GNODE records)", sym_note[0] ? "; " : "",
			    sym_note);
}

/* Reads GNODE streams into a graph breakdown. */
static void
run_graph(struct in *in, struct pmr_icost_bd *bd, const uint32_t *lanes,
    unsigned nl, const struct pmr_sim_config *stated,
    const struct pmr_icost_gopts *go, struct pmr_icost_diag *dg)
{
	struct pmr_sim_config cfg;
	struct pmr_icost_graph *g = NULL;
	struct pmr_rec rec;
	uint64_t digest = 0, nodes = 0, prev = 0, gaps = 0, frags = 0;
	int have_cfg = 0, ns, err, cinit = 0, images = 0, nodes_here = 0;
	/* this stream's GNODEs are fragments (shotgun's), with no observed
	 * cycles; any such stream makes the breakdown shotgun's */
	int frag_here = 0, shotgun = 0, full = 0;
	struct pmr_icost_bd cb;
	int64_t *t;
	unsigned k;

	while (in_next(in, &rec, &ns)) {
		if (ns) {
			if (top_tab != NULL)
				pmr_icost_top_restart(top_tab);
			for (k = 0; k < ncat; k++)
				if (cats[k].proc != NULL)
					cats[k].nranges = 0;
			images = nodes_here = frag_here = 0;
			have_cfg = 0;
			if (g != NULL && pmr_icost_graph_nodes(g) > 0)
				pmr_icost_graph_restart(g);
			prev = UINT64_MAX;
		}
		if (rec.type == PMR_REC_META) {
			struct pmr_meta m;

			decode(in, &rec, &m);
			if (meta_is(&m, "config")) {
				struct pmr_sim_config c;
				uint64_t d;

				pmr_sim_config_preset(&c, "fields03");
				config_parse(&c, &m, in->name);
				d = pmr_sim_config_digest(&c);
				if (stated != NULL &&
				    d != pmr_sim_config_digest(stated))
					die("%s: the GNODE records come from "
					    "another machine than -m/-O state "
					    "(config digest %016" PRIx64 ", "
					    "stated %016" PRIx64 ")", in->name,
					    d, pmr_sim_config_digest(stated));
				if (digest != 0 && d != digest)
					die("%s: stream %" PRIu64 " comes from "
					    "another machine than the first "
					    "(config digest %016" PRIx64 ", "
					    "first %016" PRIx64 ")", in->name,
					    in->streams, d, digest);
				digest = d;
				cfg = c;
				have_cfg = 1;
			} else if (meta_is(&m, "gnode")) {
				frag_here = m.value.n >= 9 && memcmp(m.value.p,
				    "fragments", 9) == 0;
				shotgun |= frag_here;
				if (g != NULL)
					pmr_icost_graph_observed(g, !frag_here &&
					    !fragments && cut == 0);
			} else if (meta_is(&m, "ideal"))
				die("%s: the GNODE records come from an "
				    "idealized run (pmsim --ideal): its graph "
				    "is not the base machine's", in->name);
		} else if (rec.type == PMR_REC_IMAGE) {
			images++;
			if (nodes_here == 0)
				procs_image(in, &rec);
			if (top_gain != 0 && in->streams == 1)
				top_image(in, &rec);
		} else if (rec.type == PMR_REC_GNODE) {
			struct pmr_sim_gnode n;
			const char *why;

			if (nodes_here++ == 0) {
				procs_check(in, images);
				full |= !frag_here;
			}
			if (!have_cfg) {
				if (stated == NULL)
					die("%s: GNODE records without the "
					    "machine (META config): give it "
					    "with -m and -O", in->name);
				cfg = *stated;
				digest = pmr_sim_config_digest(stated);
				have_cfg = 1;
			}
			if (pmr_sim_gnode_decode(&rec, &n, &why) != 0)
				die("%s: record %" PRIu64 ": %s", in->name,
				    rec.index, why);
			if (g == NULL) {
				err = pmr_icost_graph_new(&g, &cfg, cats, ncat,
				    lanes, nl, go);
				if (err != 0)
					die("%s", pmr_strerror(err));
				if (top_gain != 0)
					pmr_icost_graph_gain_on(g, top_gain);
				/* cut into fragments, the graph restarts
				 * cold: its times are no longer the
				 * machine's to check */
				pmr_icost_graph_observed(g, !frag_here &&
				    !fragments && cut == 0);
				if (nodes_out != NULL) {
					fputs("#seq\tpc\tF\tD\tR\tE\tP\tC\t"
					    "obs_D\tobs_R\tobs_E\tobs_P\t"
					    "obs_C\n", nodes_out);
					pmr_icost_graph_trace(g, nodes_out);
				}
			}
			if (prev != UINT64_MAX && n.seq != prev + 1) {
				if (!fragments && !frag_here)
					die("%s: record %" PRIu64 ": GNODE seq "
					    "%" PRIu64 " after %" PRIu64 ": "
					    "records are missing (--fragments "
					    "reads a stream of fragments)",
					    in->name, rec.index, n.seq, prev);
				gaps++;
				pmr_icost_graph_restart(g);
				if (top_tab != NULL)
					pmr_icost_top_restart(top_tab);
			}
			if (cut != 0 && n.seq % cut == 0 && prev != UINT64_MAX &&
			    n.seq == prev + 1) {
				pmr_icost_graph_restart(g);
				frags++;
			}
			if (prev == UINT64_MAX || n.seq != prev + 1)
				frags++;
			prev = n.seq;
			pmr_icost_graph_node(g, &n);
			nodes++;
			if (top_gain != 0) {
				int64_t cur, prev;

				pmr_icost_graph_gain(g, &cur, &prev);
				if (pmr_icost_top_node(top_tab, n.pc, n.cls, cur,
				    prev) != 0)
					die("out of memory");
			}
		} else if (rec.type == PMR_REC_STATS) {
			struct pmr_sim_stats st;

			decode(in, &rec, &st);
			if (st.final)
				td_add(&st);
		} else if (rec.type == PMR_REC_COST) {
			if (g != NULL)
				die("%s: COST records among GNODE records: "
				    "read them apart", in->name);
			cost_add(in, &rec, &cb, &cinit);
		}
	}
	if (cinit) {		/* COST streams, merged */
		pmr_icost_bd_free(bd);
		*bd = cb;
		return;
	}
	if (g == NULL)
		die("%s: no GNODE or COST records (pmsim --graph writes "
		    "GNODE records)", in->nfiles == 1 ? in->name :
		    "the input");
	if ((t = calloc(nl, sizeof(*t))) == NULL)
		die("out of memory");
	pmr_icost_graph_times(g, t);
	for (k = 0; k < nl; k++)
		pmr_icost_bd_add(bd, lanes[k], (uint64_t)t[0],
		    t[k] < 0 ? 0 : (uint64_t)t[k]);
	bd->insns = nodes;
	bd->frags = frags;
	bd->digest = digest;
	if (shotgun && full)
		die("%s: shotgun fragments and a full graph in one input: "
		    "read them apart", in->nfiles == 1 ? in->name : "the input");
	if (shotgun)
		bd->source = PMR_COST_SHOTGUN;
	/* a fragment shorter than twice the window win idealizes cannot
	 * show what that window overlaps: say so */
	if ((shotgun || fragments || cut != 0) && frags > 0 && !go->win_inf) {
		unsigned k2, w2 = 20 * cfg.rob;

		for (k2 = 0; k2 < ncat; k2++)
			if (cats[k2].ideal & PMR_SIM_IDEAL_WIN)
				break;
		if (k2 < ncat && nodes / frags < 2 * (uint64_t)w2)
			fprintf(stderr, "icost: warning: fragments of %" PRIu64
			    " instructions on average, under twice the window "
			    "win idealizes (2 x %u): win and its interactions "
			    "are understated (longer signatures, pmsim "
			    "--shotgun=len=4000, and --warm=%u avoid it)\n",
			    nodes / frags, w2, w2);
	}
	pmr_icost_graph_diag(g, dg);
	graph_read = 1;
	bd->insns = dg->measured;
	if (dg->measured == 0)
		die("%s: no fragment longer than --warm %u", in->nfiles == 1 ?
		    in->name : "the input", go->warm);
	dg->gaps = gaps;
	free(t);
	pmr_icost_graph_free(g);
}

/* The pcs a --top pass measures at once: lanes for the base, the
 * partner, and each pc alone and with the partner (with the partner, the
 * categories of a breakdown). */
#define TOP_BATCH (PMR_ICOST_MAXCAT - 1)

/*
 * --top: a first pass bounds each pc's cost (the base lane, gains of
 * graph.c); then each pass measures the TOP_BATCH unmeasured pcs of
 * largest bound, until no unmeasured pc's bound beats the K-th cost
 * measured: the top K are then exact.  Every pass reads the files again.
 */
static void
run_top(char **files, int nfiles, const struct pmr_icost_base *cat,
    const struct pmr_icost_base *with, unsigned k, enum pmr_table_fmt fmt,
    const struct pmr_sim_config *stated, const struct pmr_icost_gopts *go)
{
	static struct pmr_icost_range rng[TOP_BATCH];
	uint64_t pcs[TOP_BATCH];
	uint32_t lanes[2 * TOP_BATCH + 2];
	struct pmr_icost_top_view v;
	struct pmr_icost_diag dg;
	struct pmr_icost_bd bd;
	struct pmr_textout out;
	const char *names[PMR_ICOST_MAXCAT];
	unsigned np, passes = 0, i, w, nl;
	int64_t t0;
	struct in in;

	if ((top_tab = pmr_icost_top_new()) == NULL)
		die("out of memory");
	/* pass 1: the base graph and the bounds */
	ncat = 0;
	cat_add(cat->name, cat->ideal);	/* in no lane */
	names[0] = cat->name;
	lanes[0] = 0;
	memset(&in, 0, sizeof(in));
	in.files = files;
	in.nfiles = nfiles;
	memset(&dg, 0, sizeof(dg));
	if (pmr_icost_bd_init(&bd, PMR_COST_GRAPH, names, 1) != 0)
		die("out of memory");
	top_gain = cat->ideal;
	run_graph(&in, &bd, lanes, 1, stated, go, &dg);
	top_gain = 0;
	if (!graph_read)
		die("--top: the input has COST records, no graph");
	t0 = (int64_t)bd.t[0];
	pmr_icost_bd_free(&bd);
	w = with != NULL;
	while ((np = pmr_icost_top_next(top_tab, k, pcs, TOP_BATCH)) > 0) {
		ncat = 0;
		if (with != NULL)
			cat_add(with->name, with->ideal);
		nl = 0;
		lanes[nl++] = 0;
		if (with != NULL)
			lanes[nl++] = 1;
		for (i = 0; i < np; i++) {
			char nm[32];
			struct pmr_icost_cat *c;

			snprintf(nm, sizeof(nm), "0x%" PRIx64, pcs[i]);
			c = cat_add(nm, cat->ideal);
			c->filtered = 1;
			rng[i].lo = pcs[i];
			rng[i].hi = pcs[i] + 1;
			c->ranges = &rng[i];
			c->nranges = 1;
			lanes[nl++] = 1u << (i + w);
			if (with != NULL)
				lanes[nl++] = 1u << (i + w) | 1;
		}
		for (i = 0; i < ncat; i++)
			names[i] = cats[i].name;
		if (pmr_icost_bd_init(&bd, PMR_COST_GRAPH, names, ncat) != 0)
			die("out of memory");
		memset(&in, 0, sizeof(in));
		in.files = files;
		in.nfiles = nfiles;
		run_graph(&in, &bd, lanes, nl, stated, go, &dg);
		if ((int64_t)bd.t[0] != t0)
			die("--top: the input changed between two readings (t = "
			    "%" PRId64 ", then %" PRIu64 ")", t0, bd.t[0]);
		for (i = 0; i < np; i++) {
			uint32_t m = 1u << (i + w);
			int64_t ic = 0;
			double fr;

			if (with != NULL)
				pmr_icost_bd_icost(&bd, m | 1, &fr, &ic);
			int64_t cost = (int64_t)bd.t[0] - (int64_t)bd.ts[m], b;

			if (!pmr_icost_top_set(top_tab, pcs[i], cost, ic, &b))
				fprintf(stderr, "icost: warning: pc 0x%" PRIx64
				    " costs %" PRId64 " cycles, above its bound "
				    "%" PRId64 ": the ranking may miss pcs (a "
				    "bug)\n", pcs[i], cost, b);
		}
		pmr_icost_bd_free(&bd);
		passes++;
	}
	memset(&v, 0, sizeof(v));
	v.fmt = fmt;
	v.k = k;
	v.cat = cat->name;
	v.with = with != NULL ? with->name : NULL;
	v.t = t0;
	v.passes = passes;
	v.proc = top_proc;
	v.note = sym_note[0] ? sym_note : NULL;
	if (pmr_textout_open(&out, com.output) != 0)
		die("%s: %s", pmr_outname(com.output), strerror(errno));
	if (pmr_icost_top_report(out.f, top_tab, &v) != 0 ||
	    pmr_textout_close(&out, 1) != 0)
		die("%s: %s", pmr_outname(com.output),
		    strerror(out.werr ? out.werr : errno));
	for (i = 0; i < top_nst; i++)
		pmr_symtab_free(top_st[i]);
	pmr_icost_top_free(top_tab);
}

/* Reads pmsim runs (META ideal, final STATS), one per subset. */
static void
run_multisim(struct in *in, struct pmr_icost_bd *bd)
{
	struct pmr_rec rec;
	uint64_t cycles[1u << PMR_ICOST_MAXALL], insns = 0, runs = 0;
	uint8_t seen[1u << PMR_ICOST_MAXALL];
	uint32_t mask = 0, m;
	int ns, have_stats = 0;
	/* every run: the machine before idealizing, the path it retired */
	uint64_t dig = 0, dig1 = 0, hash1 = 0, cdig = 0, bdig = 0;
	int ideal_run = 0;

	memset(seen, 0, sizeof(seen));
	if (ncat > PMR_ICOST_MAXALL)
		pmr_cli_misuse("--multisim takes at most %d categories",
		    PMR_ICOST_MAXALL);
	for (m = 0; m < ncat; m++)
		if (cats[m].filtered)
			pmr_cli_misuse("--multisim: '%s' has a filter: pmsim "
			    "--ideal idealizes whole categories",
			    cats[m].name);
	for (;;) {
		int more = in_next(in, &rec, &ns);

		if (!more || ns) {
			if (runs > 0 || have_stats) {
				if (!have_stats)
					die("%s: a run without its final STATS "
					    "record", in->name);
				dig = ideal_run ? bdig : cdig;
				if (dig != 0 && dig1 != 0 && dig != dig1)
					die("%s: run %" PRIu64 " idealizes "
					    "another machine than the first "
					    "(config digest %016" PRIx64 ", "
					    "first %016" PRIx64 ")", in->name,
					    runs, dig, dig1);
				if (dig1 == 0)
					dig1 = dig;
				if (seen[mask])
					die("%s: two runs idealize the same "
					    "subset", in->name);
				seen[mask] = 1;
			}
			if (!more)
				break;
			runs++;
			mask = 0;
			have_stats = 0;
			ideal_run = 0;
			cdig = bdig = 0;
		}
		if (rec.type == PMR_REC_META) {
			struct pmr_meta m2;

			decode(in, &rec, &m2);
			if (meta_is(&m2, "config-digest") ||
			    meta_is(&m2, "base-config-digest")) {
				char hx[24];
				uint64_t d;

				snprintf(hx, sizeof(hx), "%.*s",
				    (int)m2.value.n, (const char *)m2.value.p);
				d = strtoull(hx, NULL, 16);
				*(meta_is(&m2, "config-digest") ? &cdig :
				    &bdig) = d;
			} else if (meta_is(&m2, "ideal")) {
				ideal_run = 1;
				char *s = strndup((const char *)m2.value.p,
				    m2.value.n), *p, *sp;
				unsigned k;

				for (p = strtok_r(s, ",", &sp); p != NULL;
				    p = strtok_r(NULL, ",", &sp)) {
					for (k = 0; k < ncat; k++)
						if (cats[k].ideal ==
						    pmr_sim_ideal_byname(p))
							break;
					if (k == ncat)
						die("%s: a run idealizes %s, "
						    "not among the categories",
						    in->name, p);
					mask |= 1u << k;
				}
				free(s);
			}
		} else if (rec.type == PMR_REC_STATS) {
			struct pmr_sim_stats st;

			decode(in, &rec, &st);
			if (!st.final)
				continue;
			if (insns != 0 && st.retired != insns)
				die("%s: the runs simulated different numbers "
				    "of instructions (%" PRIu64 " and %" PRIu64
				    ")", in->name, insns, st.retired);
			insns = st.retired;
			if (st.pc_hash != 0 && hash1 != 0 && st.pc_hash !=
			    hash1)
				die("%s: the runs retired different "
				    "instructions (another trace, --warmup or "
				    "--max): pc hash %016" PRIx64 ", first %016"
				    PRIx64, in->name, st.pc_hash, hash1);
			if (hash1 == 0)
				hash1 = st.pc_hash;
			cycles[mask] = st.cycles;
			if (mask == 0)
				td_add(&st);
			have_stats = 1;
		}
	}
	if (runs == 0)
		die("no pmsim runs in the input");
	if (!seen[0])
		die("no base run (pmsim without --ideal) among the %" PRIu64
		    " runs", runs);
	for (m = 0; m < 1u << ncat; m++)
		if (seen[m])
			pmr_icost_bd_add(bd, m, cycles[0], cycles[m]);
	bd->insns = insns;
	bd->frags = runs;
	bd->digest = dig1;
}

/* Adds COST record rec to bd (initialized from the first record). */
static void
cost_add(struct in *in, const struct pmr_rec *rec, struct pmr_icost_bd *bd,
    int *init)
{
	struct pmr_cost_rec c;
	char buf[PMR_ICOST_MAXCAT * 65];

	decode(in, rec, &c);
	if (!*init) {
		const char *names[PMR_ICOST_MAXCAT];
		char tmp[sizeof(buf)], *p, *sp;
		unsigned n = 0;

		if (c.cats.n >= sizeof(tmp))
			die("%s: record %" PRIu64 ": too many categories",
			    in->name, rec->index);
		memcpy(tmp, c.cats.p, c.cats.n);
		tmp[c.cats.n] = '\0';
		for (p = strtok_r(tmp, ",", &sp); p != NULL; p = strtok_r(NULL,
		    ",", &sp)) {
			if (n == PMR_ICOST_MAXCAT)
				die("%s: record %" PRIu64 ": too many "
				    "categories", in->name, rec->index);
			names[n++] = p;
		}
		if (c.source > PMR_COST_SHOTGUN ||
		    pmr_icost_bd_init(bd, c.source, names, n) != 0)
			die("%s: record %" PRIu64 ": bad source or categories",
			    in->name, rec->index);
		*init = 1;
	}
	if (c.digest != 0 && bd->digest != 0 && c.digest != bd->digest)
		die("%s: record %" PRIu64 ": COST of another machine than the "
		    "first (config digest %016" PRIx64 ", first %016" PRIx64
		    ")", in->name, rec->index, c.digest, bd->digest);
	if (bd->digest == 0)
		bd->digest = c.digest;
	pmr_icost_bd_cats(bd, buf, sizeof(buf));
	if (c.source != bd->source || c.cats.n != strlen(buf) ||
	    memcmp(c.cats.p, buf, c.cats.n) != 0)
		die("%s: record %" PRIu64 ": COST of another source or "
		    "category list than the first", in->name, rec->index);
	if (c.mask >> bd->ncat != 0)
		die("%s: record %" PRIu64 ": COST mask beyond its categories",
		    in->name, rec->index);
	pmr_icost_bd_add(bd, c.mask, c.t, c.ts);
	if (c.mask == 0) {
		bd->insns += c.insns;
		bd->frags += c.frags;
	}
}

/* Reads COST records into bd; returns 1 if there was one. */
static int
read_costs(struct in *in, struct pmr_icost_bd *bd)
{
	struct pmr_rec rec;
	int ns, init = 0;

	while (in_next(in, &rec, &ns))
		if (rec.type == PMR_REC_COST)
			cost_add(in, &rec, bd, &init);
	return init;
}

static int
write_costs(const struct pmr_icost_bd *bd, int argc, char **argv)
{
	struct pmr_writer *w;
	char cats_s[PMR_ICOST_MAXCAT * 65], eb[512];
	uint32_t m;
	int err;

	if (pmr_common_tty_refused(&com))
		die("binary output to a terminal (use -o or --force)");
	if ((w = pmr_common_writer(&com, "icost", argc, argv, &err)) == NULL)
		die("%s: %s", pmr_outname(com.output), pmr_strerror(err));
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
	if (err != 0 || pmr_writer_close(w, eb, sizeof(eb)) != 0) {
		if (err != 0)
			pmr_writer_abort(w);
		die("%s: %s", pmr_outname(com.output), err != 0 ?
		    pmr_strerror(err) : eb);
	}
	return 0;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "cats", required_argument, NULL, 'c' },
		{ "set", required_argument, NULL, 'e' },
		{ "format", required_argument, NULL, 'f' },
		{ "machine", required_argument, NULL, 'm' },
		{ "set-config", required_argument, NULL, 'O' },
		{ "threshold", required_argument, NULL, 't' },
		{ "order", required_argument, NULL, O_ORDER },
		{ "all", no_argument, NULL, O_ALL },
		{ "focus", required_argument, NULL, O_FOCUS },
		{ "multisim", no_argument, NULL, O_MULTISIM },
		{ "compare", no_argument, NULL, O_COMPARE },
		{ "bar", no_argument, NULL, O_BAR },
		{ "win-inf", no_argument, NULL, O_WIN_INF },
		{ "fu-contention", required_argument, NULL, O_FU },
		{ "fragments", no_argument, NULL, O_FRAGMENTS },
		{ "subsets", no_argument, NULL, O_SUBSETS },
		{ "topdown", no_argument, NULL, O_TOPDOWN },
		{ "sysroot", required_argument, NULL, O_SYSROOT },
		{ "nodes", no_argument, NULL, O_NODES },
		{ "top", required_argument, NULL, O_TOP },
		{ "top-k", required_argument, NULL, O_TOP_K },
		{ "with", required_argument, NULL, O_WITH },
		{ "warm", required_argument, NULL, O_WARM },
		{ "cut", required_argument, NULL, O_CUT },
		PMR_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	static const char *const fu_names[] = { "bw", "lgalu", NULL };
	const char *catlist = NULL, *focus_s = NULL, *preset = NULL;
	const char *kvs[64];
	unsigned nkv = 0, order = 2, nl, k;
	int ac0, ch, all = 0, multisim = 0, compare = 0, fmt = 0, bar = 0;
	int subsets = 0, want_td = 0, nodes = 0;
	const char *top_s = NULL, *with_s = NULL;
	unsigned top_k = 10;
	double thresh = 5;
	struct pmr_icost_gopts go = { 0, 0, 0 };
	struct pmr_icost_view v;
	struct pmr_icost_bd bd;
	struct pmr_icost_diag dg;
	struct pmr_sim_config stated;
	struct pmr_textout out;
	struct in in;
	char *stdin_only[] = { "-" };
	char title[512], **av0;
	const char *names[PMR_ICOST_MAXCAT];

	pmr_cli_init("icost", synopsis, help);
	pmr_common_init(&com);
	while ((ch = getopt_long(argc, argv, "c:e:f:m:O:t:" PMR_COMMON_SHORTOPTS,
	    longopts, NULL)) != -1)
		switch (ch) {
		case 'c':
			catlist = optarg;
			break;
		case 'e':
			set_add(optarg);
			break;
		case 'f':
			fmt = pmr_cli_pick("--format", optarg, fmt_names);
			break;
		case 'm':
			preset = optarg;
			break;
		case 'O':
			if (nkv == 64)
				pmr_cli_misuse("more than 64 -O settings");
			kvs[nkv++] = optarg;
			break;
		case 't':
			thresh = (double)pmr_cli_num("--threshold", optarg, 0,
			    100);
			break;
		case O_ORDER:
			order = (unsigned)pmr_cli_num("--order", optarg, 1,
			    PMR_ICOST_MAXCAT);
			break;
		case O_ALL:
			all = 1;
			break;
		case O_FOCUS:
			focus_s = optarg;
			break;
		case O_MULTISIM:
			multisim = 1;
			break;
		case O_COMPARE:
			compare = 1;
			break;
		case O_BAR:
			bar = 1;
			break;
		case O_WIN_INF:
			go.win_inf = 1;
			break;
		case O_FU:
			go.re_lgalu = pmr_cli_pick("--fu-contention", optarg,
			    fu_names) == 1;
			break;
		case O_FRAGMENTS:
			fragments = 1;
			break;
		case O_SUBSETS:
			subsets = 1;
			break;
		case O_TOPDOWN:
			want_td = 1;
			break;
		case O_SYSROOT:
			sysroot = optarg;
			break;
		case O_NODES:
			nodes = 1;
			break;
		case O_TOP:
			top_s = optarg;
			break;
		case O_TOP_K:
			top_k = (unsigned)pmr_cli_num("--top-k", optarg, 1,
			    100000);
			break;
		case O_WITH:
			with_s = optarg;
			break;
		case O_CUT:
			cut = pmr_cli_num("--cut", optarg, 1, 100000000);
			break;
		case O_WARM:
			go.warm = (uint32_t)pmr_cli_num("--warm", optarg, 0,
			    100000000);
			break;
		default:
			pmr_cli_common(&com, ch, optarg);
		}
	ac0 = argc;
	av0 = argv;
	argc -= optind;
	argv += optind;
	if (multisim && compare)
		pmr_cli_misuse("--multisim and --compare exclude each other");
	if (top_s == NULL && (with_s != NULL || top_k != 10))
		pmr_cli_misuse("--with and --top-k go with --top");
	if (top_s != NULL) {
		const struct pmr_icost_base *tc = pmr_icost_base_byname(top_s);
		const struct pmr_icost_base *wc = NULL;
		struct stat sb;
		int i;

		if (tc == NULL || tc->ideal == PMR_SIM_IDEAL_WIN ||
		    tc->ideal == PMR_SIM_IDEAL_BW)
			pmr_cli_bad("--top", top_s, "not a category of "
			    "instances (dl1, dmiss, imiss, bmisp, shalu, "
			    "lgalu)");
		if (with_s == NULL)
			with_s = tc->ideal == PMR_SIM_IDEAL_BMISP ? "dmiss" :
			    "bmisp";
		if (strcmp(with_s, "none") != 0 &&
		    ((wc = pmr_icost_base_byname(with_s)) == NULL ||
		    wc == tc))
			pmr_cli_bad("--with", with_s, "not a category other "
			    "than --top's, nor none");
		if (catlist != NULL || ncat > 0 || all || focus_s != NULL ||
		    order != 2 || multisim || compare || nodes || want_td ||
		    subsets || bar || fmt == 3)
			pmr_cli_misuse("--top chooses its own categories and "
			    "prints its own table: not with -c, -e, --all, "
			    "--focus, --order, --multisim, --compare, --nodes, "
			    "--topdown, --subsets, --bar or -f pmr");
		/* its bound holds for times from a fragment's start: with
		 * --warm a cost is a difference of two commits */
		if (go.warm != 0)
			pmr_cli_misuse("--top measures times from each "
			    "fragment's start: not with --warm");
		if (argc == 0)
			pmr_cli_misuse("--top reads its input more than once: "
			    "give files, not standard input");
		for (i = 0; i < argc; i++)
			if (strcmp(argv[i], "-") == 0 || (stat(argv[i], &sb) ==
			    0 && !S_ISREG(sb.st_mode)))
				pmr_cli_misuse("--top reads its input more than "
				    "once: '%s' is no regular file", argv[i]);
		if (preset != NULL || nkv > 0)
			config_stated(&stated, preset, kvs, nkv);
		run_top(argv, argc, tc, wc, top_k, fmt == 1 ? PMR_TABLE_TSV :
		    fmt == 2 ? PMR_TABLE_JSON : PMR_TABLE_TEXT, preset !=
		    NULL || nkv > 0 ? &stated : NULL, &go);
		pmr_cli_exit(0);
	}
	if (nodes && (compare || multisim || want_td || bar || fmt == 2 ||
	    fmt == 3))
		pmr_cli_misuse("--nodes prints node times as TSV, instead of a "
		    "table: not with --compare, --multisim, --topdown, --bar "
		    "or -f json/pmr");
	if (want_td && (compare || fmt == 3))
		pmr_cli_misuse("--topdown goes beside a breakdown table: not "
		    "with --compare or -f pmr");
	if ((all != 0) + (focus_s != NULL) > 1)
		pmr_cli_misuse("--all and --focus exclude each other");
	/* the -c list comes first, the -e sets after it */
	{
		struct pmr_icost_cat sets[PMR_ICOST_MAXCAT];
		unsigned nsets = ncat;

		memcpy(sets, cats, sizeof(sets));
		ncat = 0;
		if (catlist != NULL || nsets == 0)
			cats_default(catlist != NULL ? catlist :
			    "dl1,win,bw,bmisp,dmiss,shalu,lgalu,imiss");
		for (k = 0; k < nsets; k++) {
			if (ncat == PMR_ICOST_MAXCAT)
				pmr_cli_misuse("more than %d categories",
				    PMR_ICOST_MAXCAT);
			cats[ncat++] = sets[k];
		}
	}
	memset(&v, 0, sizeof(v));
	v.fmt = fmt == 1 ? PMR_TABLE_TSV : fmt == 2 ? PMR_TABLE_JSON :
	    PMR_TABLE_TEXT;
	v.focus = -1;
	v.order = 2;
	v.bar = bar;
	if (focus_s != NULL) {
		for (k = 0; k < ncat; k++)
			if (strcmp(cats[k].name, focus_s) == 0 ||
			    (pmr_icost_base_byname(focus_s) != NULL &&
			    strcmp(cats[k].name, pmr_icost_base_byname(
			    focus_s)->name) == 0))
				break;
		if (k == ncat)
			pmr_cli_bad("--focus", focus_s, "not a category");
		v.focus = (int)k;
		nl = pmr_icost_lanes_focus(ncat, k, lanes_buf);
	} else if (all) {
		if (ncat > PMR_ICOST_MAXALL)
			pmr_cli_misuse("--all takes at most %d categories",
			    PMR_ICOST_MAXALL);
		nl = pmr_icost_lanes_all(ncat, lanes_buf);
		v.order = order;
	} else {
		if (pmr_icost_lanes_max(ncat, order, 0) > (1u <<
		    PMR_ICOST_MAXALL))
			pmr_cli_misuse("--order %u with %u categories needs "
			    "more than %u subsets", order, ncat,
			    1u << PMR_ICOST_MAXALL);
		nl = pmr_icost_lanes_order(ncat, order, lanes_buf);
		v.order = order;
	}
	if (subsets) {
		print_subsets(lanes_buf, nl);
		pmr_cli_exit(0);
	}
	if (preset != NULL || nkv > 0)
		config_stated(&stated, preset, kvs, nkv);
	memset(&in, 0, sizeof(in));
	in.files = argc > 0 ? argv : stdin_only;
	in.nfiles = argc > 0 ? argc : 1;
	memset(&dg, 0, sizeof(dg));
	for (k = 0; k < ncat; k++)
		names[k] = cats[k].name;

	if (compare) {
		struct pmr_icost_bd b3[3];
		const struct pmr_icost_bd *bp[3];
		int i;

		if (in.nfiles < 2 || in.nfiles > 3)
			pmr_cli_misuse("--compare takes 2 or 3 COST streams "
			    "(multisim, graph[, shotgun])");
		for (i = 0; i < in.nfiles; i++) {
			struct in one;

			memset(&one, 0, sizeof(one));
			one.files = &in.files[i];
			one.nfiles = 1;
			if (!read_costs(&one, &b3[i]))
				die("%s: no COST records (icost -f pmr writes "
				    "them)", pmr_display(in.files[i]));
			if (i > 0 && b3[i].digest != 0 && b3[0].digest != 0 &&
			    b3[i].digest != b3[0].digest)
				die("%s: a breakdown of another machine than %s "
				    "(config digest %016" PRIx64 ", %016" PRIx64
				    ")", pmr_display(in.files[i]),
				    pmr_display(in.files[0]), b3[i].digest,
				    b3[0].digest);
			if (i > 0 && (b3[i].ncat != b3[0].ncat ||
			    memcmp(b3[i].names, b3[0].names,
			    sizeof(b3[0].names)) != 0))
				die("%s: other categories than %s",
				    pmr_display(in.files[i]),
				    pmr_display(in.files[0]));
			bp[i] = &b3[i];
		}
		if (focus_s == NULL && !all)
			v.order = order;
		if (pmr_textout_open(&out, com.output) != 0)
			die("%s: %s", pmr_outname(com.output),
			    strerror(errno));
		if (pmr_icost_compare(out.f, bp, (unsigned)in.nfiles, &v,
		    thresh) != 0 || pmr_textout_close(&out, 1) != 0)
			die("%s: %s", pmr_outname(com.output),
			    strerror(out.werr ? out.werr : errno));
		pmr_cli_exit(0);
	}
	if (pmr_icost_bd_init(&bd, multisim ? PMR_COST_MULTISIM :
	    PMR_COST_GRAPH, names, ncat) != 0)
		die("out of memory");
	title[0] = '\0';
	if (multisim)
		run_multisim(&in, &bd);
	else {
		if (nodes) {
			if (pmr_textout_open(&out, com.output) != 0)
				die("%s: %s", pmr_outname(com.output),
				    strerror(errno));
			nodes_out = out.f;
		}
		/* GNODE records, or COST streams (merged) */
		run_graph(&in, &bd, lanes_buf, nl, preset != NULL ||
		    nkv > 0 ? &stated : NULL, &go, &dg);
		if (nodes) {
			if (!graph_read)
				die("--nodes: the input has COST records, no "
				    "graph");
			if (pmr_textout_close(&out, 1) != 0)
				die("%s: %s", pmr_outname(com.output),
				    strerror(out.werr ? out.werr : errno));
			pmr_icost_bd_free(&bd);
			pmr_cli_exit(0);
		}
		if (graph_read && (bd.source == PMR_COST_SHOTGUN ||
		    fragments || cut != 0))
			snprintf(title, sizeof(title), "t = %" PRIu64 " cycles "
			    "over %" PRIu64 " %sfragments (%" PRIu64 " nodes "
			    "timed, %" PRIu64 " fragments within --warm; not "
			    "checked against observed cycles); producers beyond "
			    "the ring %" PRIu64, bd.t[0], bd.frags,
			    bd.source == PMR_COST_SHOTGUN ? "shotgun " : "",
			    dg.measured, dg.short_frags, dg.dropped);
		else if (graph_read) {
			snprintf(title, sizeof(title), "t = %" PRIu64
			    " cycles, observed %" PRId64 " (graph/observed "
			    "%.4f); nodes later than observed: D %" PRIu64
			    " R %" PRIu64 " E %" PRIu64 " P %" PRIu64 " C %"
			    PRIu64 "; producers beyond the ring %" PRIu64,
			    bd.t[0], dg.t_obs, dg.t_obs > 0 ?
			    (double)bd.t[0] / (double)dg.t_obs : 0.0,
			    dg.late[0], dg.late[1], dg.late[2], dg.late[3],
			    dg.late[4], dg.dropped);
		}
	}
	if (com.verbose && !com.quiet && graph_read)
		fprintf(stderr, "icost: %" PRIu64 " nodes, %" PRIu64 " timed, %"
		    PRIu64 " fragments, times rebased %" PRIu64 " times\n",
		    bd.insns, dg.measured, bd.frags, dg.rebases);
	if (want_td) {
		if (td.runs == 0)
			die("--topdown: no final STATS record of a base run in "
			    "the input (pmsim writes one; COST records carry "
			    "none)");
		if (td.slots == 0)
			die("--topdown: the STATS records have no Top-Down "
			    "slots (written before pmr 1.4): run pmsim again");
		v.td = &td;
	}
	{
		struct pmr_icost_checks ck;

		pmr_icost_bd_check(&bd, &ck);
		if (ck.badsum != 0)
			die("the icosts of %u subsets do not sum to their "
			    "cost: a bug", ck.badsum);
		if (bd.source != PMR_COST_MULTISIM && go.warm != 0 &&
		    (ck.negative != 0 || ck.nonmono != 0)) {
			if (!com.quiet)
				fprintf(stderr, "icost: note: %u negative costs "
				    "and %u costs below a subset's (with --warm "
				    "a time is a difference of two commits, "
				    "which need not be monotone)\n",
				    ck.negative, ck.nonmono);
		} else if (bd.source != PMR_COST_MULTISIM &&
		    (ck.negative != 0 || ck.nonmono != 0))
			fprintf(stderr, "icost: warning: the graph gave %u "
			    "negative costs and %u costs below a subset's "
			    "(the critical path should be monotone)\n",
			    ck.negative, ck.nonmono);
		else if (ck.negative != 0 || ck.nonmono != 0) {
			if (!com.quiet)
				fprintf(stderr, "icost: note: multisim gave "
				    "%u negative costs and %u costs below a "
				    "subset's (simulation is not monotone)\n",
				    ck.negative, ck.nonmono);
		}
		if (dg.late[0] + dg.late[1] + dg.late[2] + dg.late[3] +
		    dg.late[4] != 0)
			fprintf(stderr, "icost: warning: %" PRIu64 " graph "
			    "node times are later than observed, by up to %"
			    PRId64 " cycles (first at seq %" PRIu64 "): the "
			    "graph holds an edge the machine does not\n",
			    dg.late[0] + dg.late[1] + dg.late[2] + dg.late[3] +
			    dg.late[4], dg.late_max, dg.late_seq);
	}
	if (fmt == 3)
		write_costs(&bd, ac0, av0);	/* PROV: the whole command */
	else {
		v.title = title[0] ? title : NULL;
		if (pmr_textout_open(&out, com.output) != 0)
			die("%s: %s", pmr_outname(com.output),
			    strerror(errno));
		if (pmr_icost_report(out.f, &bd, &v) != 0 ||
		    pmr_textout_close(&out, 1) != 0)
			die("%s: %s", pmr_outname(com.output),
			    strerror(out.werr ? out.werr : errno));
	}
	pmr_icost_bd_free(&bd);
	pmr_cli_exit(0);
}
