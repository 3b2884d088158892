/*
 * pairs: ProfileMe metrics from SAMPLE and PAIR records, per pc, image or
 * in total, with confidence intervals and, given TRUTH records, the exact
 * values and the errors.  See pairs(1).
 *
 * The estimators are in lib/pairs/pairs.c; this file parses options, feeds the
 * records of the inputs to the library and prints the report.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pairs/pairs.h"
#include "pairs/report.h"
#include "stream/pmr.h"
#include "util/cli.h"


enum {
	O_ABORTS = PMR_OPT_PRIVATE,
	O_BOOT,
	O_CACHE,
	O_CI,
	O_CONFIDENCE,
	O_DELTA,
	O_EDGES,
	O_HIST,
	O_IF,
	O_MIN_SAMPLES,
	O_NOMINAL,
	O_OCCUPANCY,
	O_PAGE_SIZE,
	O_PARTNER,
	O_PATHS,
	O_PROC,
	O_SYSROOT,
	O_REBUILD
};


static const char synopsis[] =
	    "usage: pairs [-lt] [-b by] [-C width] [-f format] [-m metrics] "
	    "[-n top]\n"
	    "             [-o file] [-p lo-hi] [-s metric] [-W window] "
	    "[--aborts=rule]\n"
	    "             [--boot=B] [--cache=size,ways,line] [--ci=method] "
	    "[--confidence=p]\n"
	    "             [--delta=n] [--edges] [--min-samples=n] [--nominal] "
	    "[--occupancy]\n"
	    "             [--page-size=n] [--partner] [--paths=bits] "
	    "[--proc=name]\n"
	    "             [--rebuild=trace] [--sysroot=dir] [file ...]\n";

static void
help(void)
{
	printf("usage: pairs [options] [file ...]\n"
	    "ProfileMe metrics from the SAMPLE and PAIR records of pmsim "
	    "streams (\"-\" or\nno file is standard input; several files "
	    "or concatenated streams merge),\nwith confidence intervals; "
	    "scored against TRUTH records with -t.\n\n"
	    "      --aborts=RULE    in-progress time of aborted samples: "
	    "count (to the\n"
	    "                       abort, as TRUTH) or zero [count]\n"
	    "      --boot=B         bootstrap replicates of --ci=bootstrap, "
	    "2 to 1000 [200]\n"
	    "  -b, --by=GROUP       rows per pc, proc, image, context or all; "
	    "page or set:\n"
	    "                       D-cache misses per data page or cache "
	    "set [pc]\n"
	    "      --cache=S,W,L    cache of --by=set: S bytes, W ways, L-byte "
	    "lines\n"
	    "                       [65536,2,64]\n"
	    "  -C, --width=N        issue width C [META issue-width, "
	    "else 4]\n"
	    "      --ci=METHOD      intervals of the pair metrics: score or "
	    "bootstrap\n"
	    "                       (Poisson bootstrap over pairs, --seed) "
	    "[score]\n"
	    "      --confidence=P   level of the intervals, 0 < P < 1 "
	    "[0.95]\n"
	    "      --delta=N        local IPC window: retires within +-N "
	    "cycles [META truth,\n"
	    "                       else 15]\n"
	    "  -f, --format=FMT     text, tsv, json or pmr (METRIC "
	    "records) [text]\n"
	    "      --edges          print the CFG edges (pc -> target, "
	    "fall-through) of\n"
	    "                       retired control transfers instead of "
	    "the metrics [off]\n"
	    "      --hist=LAT       print the distribution of latency LAT "
	    "(fm md dx xr rr\n"
	    "                       ld total) instead of the metrics [off]\n"
	    "      --if=LIST        use only samples with these event bits "
	    "(!bit: without),\n"
	    "                       e.g. dcache_miss or !taken,retired "
	    "[all]\n"
	    "  -l, --list           list the metrics and exit\n"
	    "  -m, --metrics=LIST   comma-separated metrics, or all "
	    "[execs,retires,\n"
	    "                       aborts,dcache_miss,misp_rate,inprog; "
	    "paired: execs,\n"
	    "                       retires,inprog,useful,wasted,"
	    "wasted_frac]\n"
	    "      --min-samples=N  rows scored by -t need N samples with "
	    "the property [10]\n"
	    "  -n, --top=N          print the first N rows [all]\n"
	    "      --nominal        scale by the nominal S of META, not "
	    "fetched/samples [off]\n"
	    "      --occupancy      accumulate the stage occupancy and unit "
	    "metrics (occ_*,\n"
	    "                       fu_*; on when -m or -s names one) "
	    "[off]\n"
	    "      --page-size=N    page size of --by=page, a power of 2 "
	    "[8192]\n"
	    "      --partner        with --paths, pairs that both retired, "
	    "by the pc of\n"
	    "                       the earlier member too (W S k) [off]\n"
	    "      --paths=N        print counts per pc by its last N "
	    "history bits (1-64)\n"
	    "                       instead of the metrics [off]\n"
	    "  -p, --pc=LO-HI       keep pcs in [LO, HI] (hex with 0x) "
	    "[all]\n"
	    "      --proc=NAME      keep the pcs of procedure NAME (IMAGE "
	    "symbols) [all]\n"
	    "      --rebuild=TRACE  rebuild the paths of the retired samples "
	    "from the CFG of\n"
	    "                       TRACE (3 schemes) and score them; with "
	    "-t, exact counts\n"
	    "                       of --edges and --paths rows [off]\n"
	    "  -s, --sort=METRIC    sort rows by METRIC, largest first "
	    "[execs]\n"
	    "      --sysroot=DIR    look the absolute paths of IMAGE records "
	    "up under DIR [/]\n"
	    "  -t, --truth          print exact values, errors and the "
	    "accuracy summary [off]\n"
	    "  -W, --window=N       pair window W [META profileme]\n\n%s",
	    pmr_common_help);
}

static void
parse_metrics(struct pmr_pairs_report *o, const char *arg)
{
	char *s, *tok, *save = NULL;
	int m, i;

	free(o->mlist);
	o->nm = 0;
	if ((o->mlist = calloc((size_t)pmr_pairs_nmetrics() + 1,
	    sizeof(int))) == NULL)
		err(1, NULL);
	o->m_all = strcmp(arg, "all") == 0;
	if (o->m_all) {
		for (i = 0; i < pmr_pairs_nmetrics(); i++)
			o->mlist[o->nm++] = i;
		return;
	}
	if ((s = strdup(arg)) == NULL)
		err(1, NULL);
	for (tok = strtok_r(s, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if ((m = pmr_pairs_metric_find(tok)) < 0) {
			warnx("unknown metric '%s' (pairs -l lists them)", tok);
			pmr_cli_usage();
		}
		if (o->nm < pmr_pairs_nmetrics())
			o->mlist[o->nm++] = m;
	}
	free(s);
	if (o->nm == 0) {
		warnx("--metrics: empty list");
		pmr_cli_usage();
	}
}

/* Parses --if=dcache_miss,!taken into the event masks. */
static void
parse_if(struct pmr_pairs_report *o, const char *arg)
{
	char *s, *tok, *save = NULL;
	uint32_t bit;
	int neg;

	if ((s = strdup(arg)) == NULL)
		err(1, NULL);
	for (tok = strtok_r(s, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		neg = tok[0] == '!';
		if ((bit = pmr_pairs_event_bit(tok + neg)) == 0) {
			warnx("--if: unknown event '%s'", tok + neg);
			pmr_cli_usage();
		}
		if (neg)
			o->po.if_clear |= bit;
		else
			o->po.if_set |= bit;
	}
	free(s);
}

static void
parse_range(struct pmr_pairs_report *o, const char *arg)
{
	char *end;
	const char *dash = strchr(arg, '-');

	errno = 0;
	o->po.pc_lo = strtoull(arg, &end, 0);
	if (dash == NULL || end != dash || errno != 0)
		goto bad;
	o->po.pc_hi = strtoull(dash + 1, &end, 0);
	if (*end != '\0' || end == dash + 1 || errno != 0 ||
	    o->po.pc_hi < o->po.pc_lo)
		goto bad;
	return;
bad:
	warnx("--pc '%s': give LO-HI, LO <= HI", arg);
	pmr_cli_usage();
}

static void
default_metrics(struct pmr_pairs_report *o, int mode)
{
	static const char *single = "execs,retires,aborts,dcache_miss,"
	    "misp_rate,inprog";
	static const char *paired = "execs,retires,inprog,useful,wasted,"
	    "wasted_frac";

	parse_metrics(o, mode == PMR_PAIRS_PAIRED ? paired : single);
}

/* Builds the rows of the profile report into *rows, *n. */
static void
prof_rows(const struct pmr_pairs_report *o, struct pmr_pairs *p,
    struct pmr_pairs_prow **rows, size_t *n)
{
	switch (pmr_pairs_prof(p, (enum pmr_pairs_prof)o->prof, &o->geom,
	    o->bits, rows, n)) {
	case 0:
		break;
	case PMR_EINVAL:
		errx(2, "bad cache geometry, page size or history bits");
	default:
		errx(1, "out of memory");
	}
}

static const struct pmr_pairs *sort_p;
static int sort_m;

static int
cmp_rows(const void *x, const void *y)
{
	const struct pmr_pairs_row *a = x, *b = y;
	struct pmr_pairs_val va, vb;
	double ea, eb;

	ea = pmr_pairs_eval(sort_p, a, sort_m, &va) ? va.est : NAN;
	eb = pmr_pairs_eval(sort_p, b, sort_m, &vb) ? vb.est : NAN;
	if (isnan(ea) != isnan(eb))
		return isnan(ea) ? 1 : -1;
	if (!isnan(ea) && ea != eb)
		return ea > eb ? -1 : 1;
	return a->key < b->key ? -1 : a->key > b->key;
}

static struct pmr_progress progress;	/* records read, on a terminal */
static uint64_t nrec;

int
main(int argc, char *argv[])
{
	static const struct option long_opts[] = {
		{ "aborts", required_argument, NULL, O_ABORTS },
		{ "boot", required_argument, NULL, O_BOOT },
		{ "by", required_argument, NULL, 'b' },
		{ "cache", required_argument, NULL, O_CACHE },
		{ "ci", required_argument, NULL, O_CI },
		{ "confidence", required_argument, NULL, O_CONFIDENCE },
		{ "delta", required_argument, NULL, O_DELTA },
		{ "edges", no_argument, NULL, O_EDGES },
		{ "format", required_argument, NULL, 'f' },
		{ "hist", required_argument, NULL, O_HIST },
		{ "if", required_argument, NULL, O_IF },
		{ "list", no_argument, NULL, 'l' },
		{ "metrics", required_argument, NULL, 'm' },
		{ "min-samples", required_argument, NULL, O_MIN_SAMPLES },
		{ "nominal", no_argument, NULL, O_NOMINAL },
		{ "occupancy", no_argument, NULL, O_OCCUPANCY },
		{ "page-size", required_argument, NULL, O_PAGE_SIZE },
		{ "partner", no_argument, NULL, O_PARTNER },
		{ "paths", required_argument, NULL, O_PATHS },
		{ "pc", required_argument, NULL, 'p' },
		{ "proc", required_argument, NULL, O_PROC },
		{ "rebuild", required_argument, NULL, O_REBUILD },
		{ "sort", required_argument, NULL, 's' },
		{ "sysroot", required_argument, NULL, O_SYSROOT },
		{ "top", required_argument, NULL, 'n' },
		{ "truth", no_argument, NULL, 't' },
		{ "width", required_argument, NULL, 'C' },
		{ "window", required_argument, NULL, 'W' },
		PMR_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct pmr_pairs_report o;
	struct pmr_pairs *p;
	struct pmr_pairs_row *rows;
	struct pmr_writer *w = NULL;
	struct pmr_textout tout;
	struct pmr_pairs_prow *prows;
	struct pmr_pairs_rebuild rbres;
	size_t npr;
	uint32_t boot = 200;
	int ci_boot = 0;
	const char *note;
	char *end, ebuf[1024];
	size_t n;
	int ch, i, r;

	pmr_cli_init("pairs", synopsis, help);
	memset(&o, 0, sizeof(o));
	pmr_common_init(&o.c);
	o.sort = -1;
	o.hist = -1;
	o.min_k = 10;
	o.po.confidence = 0.95;
	o.prof = -1;
	o.geom.page = 8192;
	o.geom.size = 65536;
	o.geom.ways = 2;
	o.geom.line = 64;
	while ((ch = getopt_long(argc, argv,
	    "b:C:f:lm:n:p:s:tW:" PMR_COMMON_SHORTOPTS, long_opts,
	    NULL)) != -1) {
		switch (ch) {
		case O_ABORTS:
			if (strcmp(optarg, "count") == 0)
				o.po.aborts = PMR_PAIRS_ABORT_COUNT;
			else if (strcmp(optarg, "zero") == 0)
				o.po.aborts = PMR_PAIRS_ABORT_ZERO;
			else {
				warnx("unknown --aborts rule '%s' (count, "
				    "zero)", optarg);
				pmr_cli_usage();
			}
			break;
		case 'b':
			if (strcmp(optarg, "pc") == 0)
				o.by = PMR_PAIRS_BY_PC;
			else if (strcmp(optarg, "image") == 0)
				o.by = PMR_PAIRS_BY_IMAGE;
			else if (strcmp(optarg, "proc") == 0)
				o.by = PMR_PAIRS_BY_PROC;
			else if (strcmp(optarg, "all") == 0)
				o.by = PMR_PAIRS_BY_ALL;
			else if (strcmp(optarg, "context") == 0)
				o.by = PMR_PAIRS_BY_CONTEXT;
			else if (strcmp(optarg, "page") == 0)
				o.prof = PMR_PAIRS_PROF_PAGE;
			else if (strcmp(optarg, "set") == 0)
				o.prof = PMR_PAIRS_PROF_SET;
			else {
				warnx("unknown grouping '%s' (pc, proc, "
				    "image, all, context, page, set)", optarg);
				pmr_cli_usage();
			}
			break;
		case O_BOOT:
			boot = (uint32_t)pmr_cli_num("--boot", optarg, 2,
			    PMR_PAIRS_BOOT_MAX);
			break;
		case O_CACHE:
			if (pmr_pairs_geom_parse(&o.geom, optarg) != 0)
				pmr_cli_misuse("--cache '%s': give "
				    "SIZE,WAYS,LINE (SIZE 1..2^40, WAYS "
				    "1..1024, LINE a power of 2 up to 2^20, "
				    "SIZE a multiple of WAYS x LINE)", optarg);
			break;
		case O_CI:
			/* delta: the name of score before it */
			if (strcmp(optarg, "score") == 0 ||
			    strcmp(optarg, "delta") == 0)
				ci_boot = 0;
			else if (strcmp(optarg, "bootstrap") == 0)
				ci_boot = 1;
			else {
				warnx("unknown --ci method '%s' (score, "
				    "bootstrap)", optarg);
				pmr_cli_usage();
			}
			break;
		case O_DELTA:
			o.po.delta = (uint32_t)pmr_cli_num("--delta", optarg, 1,
			    1 << 20);
			break;
		case O_EDGES:
			o.prof = PMR_PAIRS_PROF_EDGE;
			break;
		case O_PAGE_SIZE:
			o.geom.page = pmr_cli_num("--page-size", optarg, 1,
			    (long long)1 << 40);
			if ((o.geom.page & (o.geom.page - 1)) != 0) {
				warnx("--page-size '%s' is not a power of 2",
				    optarg);
				pmr_cli_usage();
			}
			break;
		case O_PARTNER:
			o.partner = 1;
			break;
		case O_PATHS:
			o.bits = (unsigned)pmr_cli_num("--paths", optarg, 1,
			    64);
			o.prof = PMR_PAIRS_PROF_PATH;
			break;
		case O_PROC:
			o.po.proc = optarg;
			break;
		case O_SYSROOT:
			o.po.sysroot = optarg;
			break;
		case O_REBUILD:
			o.rebuild = optarg;
			o.po.keep_paths = 1;
			break;
		case 'C':
			o.po.width = (uint32_t)pmr_cli_num("--width", optarg, 1,
			    64);
			break;
		case O_CONFIDENCE:
			errno = 0;
			o.po.confidence = strtod(optarg, &end);
			if (*end != '\0' || end == optarg || errno != 0 ||
			    !(o.po.confidence > 0 && o.po.confidence < 1)) {
				warnx("--confidence '%s' is not in (0, 1)",
				    optarg);
				pmr_cli_usage();
			}
			break;
		case 'f':
			if (strcmp(optarg, "text") == 0)
				o.fmt = PMR_PAIRS_F_TEXT;
			else if (strcmp(optarg, "tsv") == 0)
				o.fmt = PMR_PAIRS_F_TSV;
			else if (strcmp(optarg, "json") == 0)
				o.fmt = PMR_PAIRS_F_JSON;
			else if (strcmp(optarg, "pmr") == 0)
				o.fmt = PMR_PAIRS_F_PMR;
			else {
				warnx("unknown format '%s' (text, tsv, json, "
				    "pmr)", optarg);
				pmr_cli_usage();
			}
			break;
		case O_HIST:
			if ((o.hist = pmr_pairs_lat_find(optarg)) < 0) {
				warnx("--hist: unknown latency '%s' (fm, md, "
				    "dx, xr, rr, ld, total)", optarg);
				pmr_cli_usage();
			}
			break;
		case O_IF:
			parse_if(&o, optarg);
			o.if_arg = optarg;
			break;
		case 'l':
			o.list = 1;
			break;
		case 'm':
			parse_metrics(&o, optarg);
			break;
		case O_MIN_SAMPLES:
			o.min_k = pmr_cli_num("--min-samples", optarg, 0,
			    LLONG_MAX);
			break;
		case 'n':
			o.top = pmr_cli_num("--top", optarg, 1, LLONG_MAX);
			break;
		case O_NOMINAL:
			o.po.nominal = 1;
			break;
		case O_OCCUPANCY:
			o.po.occupancy = 1;
			break;
		case 'p':
			parse_range(&o, optarg);
			break;
		case 's':
			if ((o.sort = pmr_pairs_metric_find(optarg)) < 0) {
				warnx("unknown metric '%s' (pairs -l lists "
				    "them)", optarg);
				pmr_cli_usage();
			}
			break;
		case 't':
			o.truth = 1;
			break;
		case 'W':
			o.po.window = (uint32_t)pmr_cli_num("--window", optarg,
			    1, 1 << 20);
			break;
		default:
			pmr_cli_common(&o.c, ch, optarg);
		}
	}
	if (o.po.proc != NULL && o.po.pc_hi != 0) {
		warnx("--proc and --pc exclude each other");
		pmr_cli_usage();
	}
	argc -= optind;
	argv += optind;
	if (o.partner && o.prof != PMR_PAIRS_PROF_PATH) {
		warnx("--partner needs --paths");
		pmr_cli_usage();
	}
	if (o.partner)
		o.prof = PMR_PAIRS_PROF_PPATH;
	/* the occ_ and fu_ sums cost time: only when asked for */
	for (i = 0; i < o.nm && !o.m_all; i++)
		o.po.occupancy |= pmr_pairs_metric_occ(o.mlist[i]);
	if (o.sort >= 0)
		o.po.occupancy |= pmr_pairs_metric_occ(o.sort);
	if (ci_boot) {
		o.po.boot = boot;
		o.po.seed = o.c.seed;
	}
	if (o.by == PMR_PAIRS_BY_CONTEXT) {
		if (o.fmt == PMR_PAIRS_F_PMR) {
			warnx("--by=context cannot be combined with -f pmr");
			pmr_cli_usage();
		}
		o.po.by_context = 1;
	}
	if (o.rebuild != NULL && o.fmt == PMR_PAIRS_F_PMR) {
		warnx("--rebuild cannot be combined with -f pmr");
		pmr_cli_usage();
	}
	/* paths compared with the trace: retired samples only */
	if (o.rebuild != NULL && o.truth && o.prof == PMR_PAIRS_PROF_PATH)
		o.prof = PMR_PAIRS_PROF_RPATH;
	if (o.prof >= 0 && o.hist >= 0) {
		warnx("--hist cannot be combined with --by=page, --by=set, "
		    "--edges or --paths");
		pmr_cli_usage();
	}

	if (o.list) {
		for (i = 0; i < pmr_pairs_nmetrics(); i++)
			printf("%-14s %s%s\n", pmr_pairs_metric_name(i),
			    pmr_pairs_metric_desc(i),
			    pmr_pairs_metric_paired(i) ? " [pairs]" : "");
		goto out;
	}
	if (argc == 0 && isatty(STDIN_FILENO)) {
		/* a bare run on a terminal: nothing to read */
		fputs(synopsis, stdout);
		goto out;
	}
	if (o.fmt == PMR_PAIRS_F_PMR) {
		if (pmr_common_tty_refused(&o.c))
			errx(1, "refusing to write binary records to a "
			    "terminal (use -o or --force)");
		if ((w = pmr_common_writer(&o.c, "pairs", argc + optind,
		    argv - optind, &r)) == NULL)
			errx(1, "cannot create %s: %s",
			    pmr_outname(o.c.output), pmr_strerror(r));
	}
	if ((p = pmr_pairs_new(&o.po)) == NULL)
		err(1, NULL);
	pmr_progress_start(&progress, "pairs", " records", &nrec, 0,
	    o.c.quiet);
	for (i = 0; i < (argc > 0 ? argc : 1); i++)
		if (pmr_pairs_read(p, argc == 0 || strcmp(argv[i], "-") == 0 ?
		    NULL : argv[i], w, o.c.output, &nrec, ebuf,
		    sizeof(ebuf)) != 0) {
			pmr_progress_end(&progress);
			errx(1, "%s", ebuf);
		}
	pmr_progress_end(&progress);
	if (pmr_pairs_finish(p) != 0)
		errx(1, "'%s': %s", argc == 1 ? argv[0] : argc == 0 ? "-" :
		    "input", pmr_pairs_errmsg(p));
	if (!o.c.quiet)
		if ((note = pmr_pairs_rearm_note(pmr_pairs_info(p),
		    o.po.nominal, ebuf, sizeof(ebuf))) != NULL)
			warnx("%s", note);
	if (w != NULL) {
		if (pmr_pairs_write(p, w) != 0) {
			pmr_writer_abort(w);
			errx(1, "%s: %s", pmr_outname(o.c.output),
			    pmr_pairs_errmsg(p));
		}
		if (pmr_writer_close(w, ebuf, sizeof(ebuf)) != 0)
			errx(1, "%s: %s", pmr_outname(o.c.output), ebuf);
		pmr_pairs_free(p);
		goto out;
	}
	if (o.nm == 0)
		default_metrics(&o, pmr_pairs_info(p)->mode);
	prows = NULL;
	npr = 0;
	if (o.prof >= 0)
		prof_rows(&o, p, &prows, &npr);
	if (o.truth && o.prof >= 0 && o.prof <= PMR_PAIRS_PROF_SET &&
	    !o.c.quiet) {
		const struct pmr_pairs_info *in = pmr_pairs_info(p);

		if (in->natruth == 0)
			warnx("no exact values: the input has no ATRUTH "
			    "records (pmsim --truth writes them)%s",
			    o.if_arg != NULL ? " or --if drops them" : "");
		else if (npr > 0 && isnan(prows[0].exact))
			warnx("no exact values: the ATRUTH lines (%u bytes) "
			    "are larger than the %s", in->abytes,
			    o.prof == PMR_PAIRS_PROF_PAGE ? "page" :
			    "--cache line");
	}
	if (o.rebuild != NULL) {
		int ex = o.truth && (o.prof == PMR_PAIRS_PROF_EDGE ||
		    o.prof == PMR_PAIRS_PROF_RPATH);

		if (pmr_pairs_rebuild_run(p, o.rebuild,
		    (enum pmr_pairs_prof)o.prof, o.bits, ex ? prows : NULL, ex ?
		    npr : 0, &rbres, ebuf, sizeof(ebuf)) != 0)
			errx(1, "--rebuild: %s", ebuf);
		o.rb = &rbres;
	}
	if (pmr_pairs_rows(p, o.by, &rows, &n, &note) != 0)
		errx(1, "out of memory");
	if (note != NULL && pmr_pairs_info(p)->nimg == 0)
		o.by = PMR_PAIRS_BY_PC;
	if (note != NULL && !o.c.quiet)
		warnx("%s", note);
	sort_p = p;
	sort_m = o.sort >= 0 ? o.sort : 0;
	qsort(rows, n, sizeof(*rows), cmp_rows);
	if (pmr_textout_open(&tout, o.c.output) != 0)
		err(1, "cannot create '%s'", o.c.output);
	if (pmr_pairs_report_write(tout.f, &o, p, rows, n, prows, npr, argc,
	    argv) != 0)
		errx(1, "out of memory");
	if (tout.f != stdout && (ferror(tout.f) ||
	    pmr_textout_close(&tout, 1) != 0))
		err(1, "cannot write '%s'", o.c.output);
	pmr_pairs_free(p);
out:
	free(o.mlist);
	if (ferror(stdout) | fclose(stdout))
		err(1, "stdout");
	return 0;
}
