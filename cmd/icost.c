/*
 * icost: costs and interaction costs of event classes on an out-of-order
 * core (Fields, Bodik, Hill, Newburn, MICRO-36 2003): the critical path of
 * pmsim's dependence graph (GNODE records) under every requested subset of
 * idealizations in one pass, or the cycles of one pmsim run per subset
 * (--multisim); the paper's breakdown table, COST records that merge,
 * and the comparison of breakdowns (--compare, the paper's Table 7).
 *
 * The graph, the algebra, the readers of the inputs and the reports live
 * in lib/icost/; this file parses the options, calls them and says what
 * went wrong.  See icost(1).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "icost/bd.h"
#include "icost/icost.h"
#include "icost/input.h"
#include "icost/top.h"
#include "sim/sim.h"
#include "stream/pmr.h"
#include "util/cli.h"

enum {
	O_ORDER = PMR_OPT_PRIVATE, O_ALL, O_FOCUS, O_MULTISIM, O_COMPARE,
	O_BAR, O_WIN_INF, O_FU, O_FRAGMENTS, O_SUBSETS, O_TOPDOWN,
	O_SYSROOT, O_NODES, O_TOP, O_TOP_K, O_WITH, O_WARM, O_CUT, O_ISSUE,
	O_CHAIN, O_RULE
};

static const char synopsis[] =
    "usage: icost [-qv] [-c cats] [-e name=cats:filter] [-f format] "
    "[-m preset]\n"
    "             [-O key=value] [-o file] [-t percent] [--all | --focus=cat "
    "| --order=k]\n"
    "             [--bar] [--compare [--rule=rule] | --multisim] "
    "[file ...]\n";

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
	    "      --issue=observed|sched  each lane keeps the observed issue "
	    "waits, or\n"
	    "                       schedules its own issue slots and units "
	    "[observed]\n"
	    "      --fragments      the input is fragments: a seq gap starts "
	    "a new one\n"
	    "      --warm=N         a fragment's time counts from its N-th "
	    "node's commit [0]\n"
	    "      --cut=N          a new fragment at each seq that N "
	    "divides\n"
	    "      --chain          a fragment's machine goes on from the "
	    "previous one's\n"
	    "Other inputs:\n"
	    "      --multisim       the inputs are pmsim runs, one per subset "
	    "(META ideal)\n"
	    "      --compare        2 or 3 COST streams: multisim, graph "
	    "[, shotgun]\n"
	    "  -t, --threshold=PCT  --compare: the rows whose reference is "
	    ">= PCT [5]\n"
	    "      --rule=paper|multisim  --compare: each error's own "
	    "reference, signed, or\n"
	    "                       |multisim| for every error [paper]\n"
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
static struct pmr_icost_input ip;	/* the options of the run, its state */
static uint32_t lanes_buf[1u << PMR_ICOST_MAXALL];

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

/* Ends the run after rc, a reader's error: a usage error (PMR_EINVAL) as
 * one, any other with its message and status 1. */
static void
check(int rc)
{
	if (rc == PMR_EINVAL)
		pmr_cli_misuse("%s", ip.errmsg);
	if (rc != 0)
		die("%s", ip.errmsg);
}

/* Prints a reader's warning, note or -v line, as -q and -v say. */
static void
say(void *arg, enum pmr_icost_say level, const char *msg)
{
	const struct pmr_common *c = arg;

	if ((level == PMR_ICOST_NOTE && c->quiet) ||
	    (level == PMR_ICOST_VERBOSE && (!c->verbose || c->quiet)))
		return;
	fprintf(stderr, "icost: %s\n", msg);
}

/* Adds category name with idealizations ideal (filter set by caller). */
static struct pmr_icost_cat *
cat_add(const char *name, unsigned ideal)
{
	struct pmr_icost_cat *c;

	check(pmr_icost_input_cat_add(&ip, name, ideal, &c));
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

/* The machine -m and -O state. */
static void
config_stated(struct pmr_sim_config *c, const char *preset,
    const char *const *kvs, unsigned nkv)
{
	char eb[256];
	unsigned bad;

	if (pmr_icost_config_stated(c, preset, kvs, nkv, &bad, eb,
	    sizeof(eb)) != 0)
		pmr_cli_bad(bad == nkv ? "--machine" : "-O", bad == nkv ?
		    preset : kvs[bad], bad == nkv ? "unknown" : eb);
}

/* Prints the subsets of lanes as pmsim --ideal lists ("none": the base),
 * one a line: the runs of a multisim set (examples/icost-multisim.mk). */
static void
print_subsets(const uint32_t *lanes, unsigned nl)
{
	unsigned k, c, b;

	for (c = 0; c < ip.ncat; c++)
		if (ip.cats[c].filtered)
			pmr_cli_misuse("--subsets: '%s' has a filter: pmsim "
			    "--ideal idealizes whole categories",
			    ip.cats[c].name);
	for (k = 0; k < nl; k++) {
		unsigned ideal = 0;
		int first = 1;

		for (c = 0; c < ip.ncat; c++)
			if (lanes[k] >> c & 1)
				ideal |= ip.cats[c].ideal;
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


/* --top: the passes, then the table of the pcs that cost most. */
static void
run_top(char **files, int nfiles, const struct pmr_icost_base *cat,
    const struct pmr_icost_base *with, unsigned k, enum pmr_table_fmt fmt)
{
	struct pmr_icost_top_view v;
	struct pmr_textout out;

	check(pmr_icost_top_run(&ip, files, nfiles, cat, with, k));
	memset(&v, 0, sizeof(v));
	v.fmt = fmt;
	v.k = k;
	v.cat = cat->name;
	v.with = with != NULL ? with->name : NULL;
	v.t = ip.top_t;
	v.passes = ip.top_passes;
	v.proc = pmr_icost_input_proc;
	v.arg = &ip;
	v.note = ip.sym_note[0] ? ip.sym_note : NULL;
	if (pmr_textout_open(&out, com.output) != 0)
		die("%s: %s", pmr_outname(com.output), strerror(errno));
	if (pmr_icost_top_report(out.f, ip.top_tab, &v) != 0 ||
	    pmr_textout_close(&out, 1) != 0)
		die("%s: %s", pmr_outname(com.output),
		    strerror(out.werr ? out.werr : errno));
	pmr_icost_input_free(&ip);
}

/* -f pmr: bd as COST records. */
static void
write_costs(const struct pmr_icost_bd *bd, int argc, char **argv)
{
	struct pmr_writer *w;
	char eb[512];
	int err;

	if (pmr_common_tty_refused(&com))
		die("binary output to a terminal (use -o or --force)");
	if ((w = pmr_common_writer(&com, "icost", argc, argv, &err)) == NULL)
		die("%s: %s", pmr_outname(com.output), pmr_strerror(err));
	if (pmr_icost_costs_write(w, bd, eb, sizeof(eb)) != 0)
		die("%s: %s", pmr_outname(com.output), eb);
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
		{ "rule", required_argument, NULL, O_RULE },
		{ "order", required_argument, NULL, O_ORDER },
		{ "all", no_argument, NULL, O_ALL },
		{ "focus", required_argument, NULL, O_FOCUS },
		{ "multisim", no_argument, NULL, O_MULTISIM },
		{ "compare", no_argument, NULL, O_COMPARE },
		{ "bar", no_argument, NULL, O_BAR },
		{ "win-inf", no_argument, NULL, O_WIN_INF },
		{ "fu-contention", required_argument, NULL, O_FU },
		{ "issue", required_argument, NULL, O_ISSUE },
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
		{ "chain", no_argument, NULL, O_CHAIN },
		PMR_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	static const char *const fu_names[] = { "bw", "lgalu", NULL };
	static const char *const issue_names[] = { "observed", "sched", NULL };
	static const char *const rule_names[] = { "paper", "multisim", NULL };
	const char *catlist = NULL, *focus_s = NULL, *preset = NULL;
	const char *kvs[64];
	unsigned nkv = 0, order = 2, nl, k;
	int ac0, ch, all = 0, multisim = 0, compare = 0, fmt = 0, bar = 0;
	int subsets = 0, want_td = 0, nodes = 0;
	const char *top_s = NULL, *with_s = NULL;
	unsigned top_k = 10;
	double thresh = 5;
	int rule = PMR_ICOST_RULE_PAPER;
	struct pmr_icost_view v;
	struct pmr_icost_bd bd;
	struct pmr_sim_config stated;
	struct pmr_textout out;
	char **files;
	int nfiles;
	char *stdin_only[] = { "-" };
	char title[512], **av0;
	const char *names[PMR_ICOST_MAXCAT];

	pmr_cli_init("icost", synopsis, help);
	pmr_common_init(&com);
	ip.warn = say;
	ip.warnarg = &com;
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
		case O_RULE:
			rule = pmr_cli_pick("--rule", optarg, rule_names);
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
			ip.go.win_inf = 1;
			break;
		case O_FU:
			ip.go.re_lgalu = pmr_cli_pick("--fu-contention", optarg,
			    fu_names) == 1;
			break;
		case O_ISSUE:
			ip.go.issue_sched = pmr_cli_pick("--issue", optarg,
			    issue_names) == 1;
			break;
		case O_FRAGMENTS:
			ip.fragments = 1;
			break;
		case O_SUBSETS:
			subsets = 1;
			break;
		case O_TOPDOWN:
			want_td = 1;
			break;
		case O_SYSROOT:
			ip.sysroot = optarg;
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
			ip.cut = pmr_cli_num("--cut", optarg, 1, 100000000);
			break;
		case O_CHAIN:
			ip.go.chain = 1;
			break;
		case O_WARM:
			ip.go.warm = (uint32_t)pmr_cli_num("--warm", optarg, 0,
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
	if (ip.go.chain && (multisim || compare))
		pmr_cli_misuse("--chain goes with a graph's fragments: not "
		    "with --multisim or --compare");
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
		if (catlist != NULL || ip.ncat > 0 || all || focus_s != NULL ||
		    order != 2 || multisim || compare || nodes || want_td ||
		    subsets || bar || fmt == 3)
			pmr_cli_misuse("--top chooses its own categories and "
			    "prints its own table: not with -c, -e, --all, "
			    "--focus, --order, --multisim, --compare, --nodes, "
			    "--topdown, --subsets, --bar or -f pmr");
		/* its bound holds for times from a fragment's start: with
		 * --warm a cost is a difference of two commits */
		if (ip.go.warm != 0 || ip.go.chain)
			pmr_cli_misuse("--top measures times from each "
			    "fragment's start: not with --warm or --chain");
		if (argc == 0)
			pmr_cli_misuse("--top reads its input more than once: "
			    "give files, not standard input");
		for (i = 0; i < argc; i++)
			if (strcmp(argv[i], "-") == 0 || (stat(argv[i], &sb) ==
			    0 && !S_ISREG(sb.st_mode)))
				pmr_cli_misuse("--top reads its input more than "
				    "once: '%s' is no regular file", argv[i]);
		if (preset != NULL || nkv > 0) {
			config_stated(&stated, preset, kvs, nkv);
			ip.stated = &stated;
		}
		run_top(argv, argc, tc, wc, top_k, fmt == 1 ? PMR_TABLE_TSV :
		    fmt == 2 ? PMR_TABLE_JSON : PMR_TABLE_TEXT);
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
		unsigned nsets = ip.ncat;

		memcpy(sets, ip.cats, sizeof(sets));
		ip.ncat = 0;
		if (catlist != NULL || nsets == 0)
			cats_default(catlist != NULL ? catlist :
			    "dl1,win,bw,bmisp,dmiss,shalu,lgalu,imiss");
		for (k = 0; k < nsets; k++) {
			if (ip.ncat == PMR_ICOST_MAXCAT)
				pmr_cli_misuse("more than %d categories",
				    PMR_ICOST_MAXCAT);
			ip.cats[ip.ncat++] = sets[k];
		}
	}
	memset(&v, 0, sizeof(v));
	v.fmt = fmt == 1 ? PMR_TABLE_TSV : fmt == 2 ? PMR_TABLE_JSON :
	    PMR_TABLE_TEXT;
	v.focus = -1;
	v.order = 2;
	v.bar = bar;
	if (focus_s != NULL) {
		for (k = 0; k < ip.ncat; k++)
			if (strcmp(ip.cats[k].name, focus_s) == 0 ||
			    (pmr_icost_base_byname(focus_s) != NULL &&
			    strcmp(ip.cats[k].name, pmr_icost_base_byname(
			    focus_s)->name) == 0))
				break;
		if (k == ip.ncat)
			pmr_cli_bad("--focus", focus_s, "not a category");
		v.focus = (int)k;
		nl = pmr_icost_lanes_focus(ip.ncat, k, lanes_buf);
	} else if (all) {
		if (ip.ncat > PMR_ICOST_MAXALL)
			pmr_cli_misuse("--all takes at most %d categories",
			    PMR_ICOST_MAXALL);
		nl = pmr_icost_lanes_all(ip.ncat, lanes_buf);
		v.order = order;
	} else {
		if (pmr_icost_lanes_max(ip.ncat, order, 0) > (1u <<
		    PMR_ICOST_MAXALL))
			pmr_cli_misuse("--order %u with %u categories needs "
			    "more than %u subsets", order, ip.ncat,
			    1u << PMR_ICOST_MAXALL);
		nl = pmr_icost_lanes_order(ip.ncat, order, lanes_buf);
		v.order = order;
	}
	if (subsets) {
		print_subsets(lanes_buf, nl);
		pmr_cli_exit(0);
	}
	if (preset != NULL || nkv > 0) {
		config_stated(&stated, preset, kvs, nkv);
		ip.stated = &stated;
	}
	files = argc > 0 ? argv : stdin_only;
	nfiles = argc > 0 ? argc : 1;
	for (k = 0; k < ip.ncat; k++)
		names[k] = ip.cats[k].name;

	if (compare) {
		struct pmr_icost_bd b3[3];
		const struct pmr_icost_bd *bp[3];
		int i;

		if (nfiles < 2 || nfiles > 3)
			pmr_cli_misuse("--compare takes 2 or 3 COST streams "
			    "(multisim, graph[, shotgun])");
		check(pmr_icost_read_compare(&ip, files, nfiles, b3));
		for (i = 0; i < nfiles; i++)
			bp[i] = &b3[i];
		if (focus_s == NULL && !all)
			v.order = order;
		if (pmr_textout_open(&out, com.output) != 0)
			die("%s: %s", pmr_outname(com.output),
			    strerror(errno));
		if (pmr_icost_compare(out.f, bp, (unsigned)nfiles, &v,
		    thresh, rule) != 0 || pmr_textout_close(&out, 1) != 0)
			die("%s: %s", pmr_outname(com.output),
			    strerror(out.werr ? out.werr : errno));
		pmr_cli_exit(0);
	}
	if (pmr_icost_bd_init(&bd, multisim ? PMR_COST_MULTISIM :
	    PMR_COST_GRAPH, names, ip.ncat) != 0)
		die("out of memory");
	title[0] = '\0';
	if (multisim)
		check(pmr_icost_read_multisim(&ip, files, nfiles, &bd));
	else {
		if (nodes) {
			if (pmr_textout_open(&out, com.output) != 0)
				die("%s: %s", pmr_outname(com.output),
				    strerror(errno));
			ip.nodes_out = out.f;
		}
		/* GNODE records, or COST streams (merged) */
		check(pmr_icost_read_graph(&ip, files, nfiles, &bd, lanes_buf,
		    nl));
		if (nodes) {
			if (!ip.graph_read)
				die("--nodes: the input has COST records, no "
				    "graph");
			if (pmr_textout_close(&out, 1) != 0)
				die("%s: %s", pmr_outname(com.output),
				    strerror(out.werr ? out.werr : errno));
			pmr_icost_bd_free(&bd);
			pmr_cli_exit(0);
		}
		pmr_icost_input_title(&ip, &bd, title, sizeof(title));
	}
	check(pmr_icost_input_check(&ip, &bd, want_td));
	if (want_td)
		v.td = &ip.td;
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
