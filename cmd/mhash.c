/*
 * mhash: the Multi-Hash hardware profiler (HPCA-9 2003), its exact interval
 * profile, the paper's error metric and heavy-hitter baselines at equal
 * bytes, over EVENT records, tuples derived from instruction traces,
 * "pc value" text lines or a synthetic stream.
 *
 * The models, the metric and the area accounting live in lib/mhash/, with
 * the inputs and the reports (lib/mhash/run.h); this file parses the
 * options into a run, calls the library and says what went wrong.  See
 * mhash(1).
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mhash/mhash.h"
#include "mhash/run.h"
#include "stream/pmr.h"
#include "util/cli.h"

#define MAXCFG 64

enum {
	O_CU = PMR_OPT_PRIVATE, O_NO_CU, O_RESET, O_NO_RESET, O_RETAIN,
	O_NO_RETAIN, O_HASH, O_SBOX, O_VICTIM, O_ACC_INIT, O_RESET_OVF,
	O_BYTES, O_ACCOUNTING, O_AREA, O_STATS, O_EMPTY, O_PARTIAL, O_TEXT,
	O_HEX, O_SYNTH, O_DUMP, O_SWEEP, O_SUMMARY, O_TRACE, O_THEORY,
	O_DCPI_ENTRIES, O_DCPI_WAYS, O_DCPI_OVERFLOW, O_DCPI_POLICY, O_DCPI_HASH
};

static const char synopsis[] =
    "usage: mhash [-Eeqv] [-A entries] [-a algo] [-c bits] [-f format] "
    "[-H counters]\n"
    "             [-k kind] [-L events] [-n tables] [-o file] "
    "[-p preset] [-t percent]\n"
    "             [--area] [--dcpi-entries=n] [--dcpi-hash=fn] "
    "[--dcpi-overflow=n]\n"
    "             [--dcpi-policy=policy] [--dcpi-ways=n] [--sweep=name]\n"
    "             [--text | --trace] [file ...]\n";

static void
help(void)
{
	printf("usage: mhash [options] [file ...]\n"
	    "Model the Multi-Hash interval profiler over (pc, value) events "
	    "read from pmr\nstreams (EVENT records), instruction traces, "
	    "text lines \"pc value\" or a\nsynthetic stream; print each "
	    "interval's hot tuples, the exact profile, the\npaper's error E "
	    "and the area, beside software baselines at equal bytes.\n\n"
	    "Input:\n"
	    "  -k, --kind=KIND      EVENT kind: value, edge or all; with "
	    "--trace also addr;\n"
	    "                       sample: SAMPLE records as (pc, sampler), "
	    "pid = context\n"
	    "                       [value]\n"
	    "      --text           read text lines \"pc value [idx ...]\" "
	    "[pmr records]\n"
	    "      --trace          read instruction traces (pmr, ChampSim, "
	    "drmemtrace) and\n"
	    "                       derive the tuples without simulation "
	    "[EVENT records]\n"
	    "      --hex            unprefixed text numbers are hex "
	    "[decimal; 0x is hex]\n"
	    "      --synth=SPEC     generate a synthetic stream instead: "
	    "n=N,hot=N,share=PCT,\n"
	    "                       noise=N,phase=N,newpid=N,seed=N "
	    "[n=1M,hot=40,share=60,\n"
	    "                       noise=4000]; newpid: a new pid every N "
	    "events (-a dcpi)\n"
	    "      --dump-events    write the input events as EVENT records "
	    "and stop\n\n"
	    "Model (paper names in parentheses):\n"
	    "  -p, --preset=NAME    paper-mh-10k, paper-mh-1m, paper-bsh-10k, "
	    "paper-bsh-1m\n"
	    "                       (aliases hpca03-1pct, hpca03-01pct, "
	    "hpca03-bsh-1pct,\n"
	    "                       hpca03-bsh-01pct); later options override "
	    "[paper-mh-10k]\n"
	    "  -L, --interval=N     interval length in events (L) [10000]\n"
	    "  -t, --threshold=PCT  candidate threshold θ in percent; "
	    "T = ceil(θ·L) [1]\n"
	    "  -H, --entries=N      total hash counters (H) [2048]\n"
	    "  -n, --tables=N       hash tables (N), each H/N counters [4]\n"
	    "  -c, --counter-bits=N counter width, saturating [24]\n"
	    "      --cu, --no-cu    conservative update (C1/C0) [--cu]\n"
	    "      --reset, --no-reset  immediate reset on promotion (R1/R0) "
	    "[--no-reset]\n"
	    "      --retain, --no-retain  retaining at interval end (P1/P0) "
	    "[--retain]\n"
	    "  -A, --acc=N          accumulator entries (A) [floor(100/PCT)]\n"
	    "      --hash=FN        paper, tab, given (indices in extra text "
	    "columns) or\n"
	    "                       exact (ideal, no aliasing) [paper]\n"
	    "      --sbox=KIND      perm or random S-boxes [perm]\n"
	    "      --victim=POLICY  replaceable entry to evict: lowest, fifo, "
	    "lru, random\n"
	    "                       [lowest]\n"
	    "      --acc-init=HOW   count of a promoted entry: est, threshold, "
	    "one [est]\n"
	    "      --reset-on-overflow  reset counters when the accumulator "
	    "is full [off]\n"
	    "  -a, --algo=LIST      comma-separated: mh, ss (Space-Saving), "
	    "cmcu (Count-Min\n"
	    "                       with CU and a candidate store), mg "
	    "(Misra-Gries), exact;\n"
	    "                       or dcpi alone (DCPI's driver hash table, "
	    "SOSP '97) [mh]\n"
	    "      --dcpi-entries=N table entries of -a dcpi, a multiple of "
	    "the ways [16384]\n"
	    "      --dcpi-ways=N    entries a bucket [4]\n"
	    "      --dcpi-policy=P  victim of a miss: rr (a mod-ways counter) "
	    "or swap-front\n"
	    "                       [rr]\n"
	    "      --dcpi-overflow=N  entries of each of the two overflow "
	    "buffers [8192]\n"
	    "      --dcpi-hash=FN   bucket hash of (pid, pc, event): mix or "
	    "xor [mix]\n"
	    "      --bytes=N        memory budget of the baselines [the mh "
	    "area]\n"
	    "      --accounting=HOW paper (10 B per entry) or exact (64-bit "
	    "pc and value)\n"
	    "                       [paper]\n"
	    "      --sweep=NAME     run the configurations of a figure: fig7, "
	    "fig10, fig11,\n"
	    "                       fig12, fig14, baselines [none]\n\n"
	    "Output:\n"
	    "  -e, --exact          print the exact interval profile [off]\n"
	    "  -E, --eval           compare with the exact profile: error E "
	    "and its parts\n"
	    "                       [off]\n"
	    "      --empty=HOW      intervals with no candidates in E_net: "
	    "skip or zero\n"
	    "                       [skip]\n"
	    "      --partial        include a final partial interval in E_net "
	    "[off]\n"
	    "      --area           print the area of each configuration and "
	    "exit\n"
	    "      --theory         print the paper's false-positive bound "
	    "for N = 1..16\n"
	    "                       and exit\n"
	    "      --stats          per-interval counters (S lines) [off]\n"
	    "      --summary        only the summary table [on with several "
	    "configurations]\n"
	    "  -f, --format=FMT     text, tsv, json, or pmr (HOT and META "
	    "records) [text]\n\n%s",
	    pmr_common_help);
}

static const char *const fmt_names[] = { "text", "tsv", "json", "pmr",
	NULL };
static const char *const empty_names[] = { "skip", "zero", NULL };

/* --- setup ---------------------------------------------------------------- */

/* Prints a warning of the library (lib/mhash/run.h). */
static void
warn_msg(void *arg, const char *msg)
{
	(void)arg;
	warnx("%s", msg);
}

/* Exits with the run's error, after the report lines before it. */
static void
check(struct pmr_mhash_run *r)
{
	if (!r->failed)
		return;
	pmr_progress_end(&r->progress);
	fflush(stdout);
	errx(1, "%s", r->errmsg);
}


/* Opens the output stream of --dump-events and -f pmr.  Exits on error. */
static struct pmr_writer *
open_writer(struct pmr_mhash_run *r, int argc, char **argv)
{
	struct pmr_writer *w;
	int e = 0;

	if (pmr_common_tty_refused(&r->com))
		errx(1, "refusing to write a binary stream to a terminal "
		    "(use -o file or --force)");
	if ((w = pmr_common_writer(&r->com, "mhash", argc, argv, &e)) == NULL)
		errx(1, "cannot create '%s': %s", pmr_display(r->com.output),
		    pmr_strerror(e));
	return w;
}

static void
add_prof(struct pmr_mhash_run *r, const struct pmr_mhash_cfg *c)
{
	struct pmr_mhash_prof *p;
	char msg[160];

	if (r->np == MAXCFG)
		errx(2, "too many configurations");
	p = &r->p[r->np];
	memset(p, 0, sizeof(*p));
	p->c = *c;
	if (pmr_mhash_cfg_finish(&p->c, msg, sizeof(msg)) != 0) {
		warnx("%s", msg);
		pmr_cli_usage();
	}
	pmr_mhash_cfg_name(&p->c, p->name, sizeof(p->name));
	p->agg.empty_zero = r->empty_zero;
	p->agg.with_partial = r->with_partial;
	r->np++;
}

/* Parses -a; dcpi sets *dcpi and is not one of the interval models. */
static void
parse_algos(struct pmr_mhash_run *r, const char *arg, int *dcpi)
{
	char *s = strdup(arg), *tok, *save = NULL;

	if (s == NULL)
		err(1, NULL);
	r->nalgo = 0;
	*dcpi = 0;
	for (tok = strtok_r(s, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "dcpi") == 0) {
			*dcpi = 1;
			continue;
		}
		if (r->nalgo == sizeof(r->algos) / sizeof(r->algos[0]))
			pmr_cli_bad("--algo", arg, "too long");
		if (pmr_mhash_algo_parse(tok, &r->algos[r->nalgo]) != 0)
			pmr_cli_bad("--algo", tok, "unknown");
		r->nalgo++;
	}
	free(s);
	if (r->nalgo == 0 && !*dcpi)
		pmr_cli_bad("--algo", arg, "empty");
	if (r->nalgo > 0 && *dcpi)
		pmr_cli_bad("--algo", arg, "mixed: dcpi runs alone");
}

int
main(int argc, char *argv[])
{
	static const struct option long_opts[] = {
		{ "acc", required_argument, NULL, 'A' },
		{ "acc-init", required_argument, NULL, O_ACC_INIT },
		{ "accounting", required_argument, NULL, O_ACCOUNTING },
		{ "algo", required_argument, NULL, 'a' },
		{ "area", no_argument, NULL, O_AREA },
		{ "bytes", required_argument, NULL, O_BYTES },
		{ "counter-bits", required_argument, NULL, 'c' },
		{ "cu", no_argument, NULL, O_CU },
		{ "dcpi-entries", required_argument, NULL, O_DCPI_ENTRIES },
		{ "dcpi-hash", required_argument, NULL, O_DCPI_HASH },
		{ "dcpi-overflow", required_argument, NULL, O_DCPI_OVERFLOW },
		{ "dcpi-policy", required_argument, NULL, O_DCPI_POLICY },
		{ "dcpi-ways", required_argument, NULL, O_DCPI_WAYS },
		{ "dump-events", no_argument, NULL, O_DUMP },
		{ "empty", required_argument, NULL, O_EMPTY },
		{ "entries", required_argument, NULL, 'H' },
		{ "eval", no_argument, NULL, 'E' },
		{ "exact", no_argument, NULL, 'e' },
		{ "format", required_argument, NULL, 'f' },
		{ "hash", required_argument, NULL, O_HASH },
		{ "hex", no_argument, NULL, O_HEX },
		{ "interval", required_argument, NULL, 'L' },
		{ "kind", required_argument, NULL, 'k' },
		{ "no-cu", no_argument, NULL, O_NO_CU },
		{ "no-reset", no_argument, NULL, O_NO_RESET },
		{ "no-retain", no_argument, NULL, O_NO_RETAIN },
		{ "partial", no_argument, NULL, O_PARTIAL },
		{ "preset", required_argument, NULL, 'p' },
		{ "reset", no_argument, NULL, O_RESET },
		{ "reset-on-overflow", no_argument, NULL, O_RESET_OVF },
		{ "retain", no_argument, NULL, O_RETAIN },
		{ "sbox", required_argument, NULL, O_SBOX },
		{ "stats", no_argument, NULL, O_STATS },
		{ "summary", no_argument, NULL, O_SUMMARY },
		{ "sweep", required_argument, NULL, O_SWEEP },
		{ "synth", required_argument, NULL, O_SYNTH },
		{ "tables", required_argument, NULL, 'n' },
		{ "trace", no_argument, NULL, O_TRACE },
		{ "text", no_argument, NULL, O_TEXT },
		{ "theory", no_argument, NULL, O_THEORY },
		{ "threshold", required_argument, NULL, 't' },
		{ "victim", required_argument, NULL, O_VICTIM },
		PMR_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	static struct pmr_mhash_prof profs[MAXCFG];
	struct pmr_mhash_cfg sw[MAXCFG], xc;
	struct pmr_mhash_run r;
	struct pmr_textout tout = { .f = NULL };
	const char *synth_spec = NULL;
	char msg[160];
	int ch, i, rc, status = 0, n, dcpi = 0, dcpi_opt = 0;
	size_t j;

	pmr_cli_init("mhash", synopsis, help);
	memset(&r, 0, sizeof(r));
	r.out = stdout;
	r.warn = warn_msg;
	r.p = profs;
	r.kind = PMR_EV_VALUE;
	r.cur_kind = PMR_EV_VALUE;
	pmr_common_init(&r.com);
	pmr_mhash_cfg_init(&r.base);
	pmr_dcpi_cfg_init(&r.dcpi_cfg);
	while ((ch = getopt_long(argc, argv,
	    "A:a:c:Eef:H:k:L:n:p:t:" PMR_COMMON_SHORTOPTS, long_opts,
	    NULL)) != -1) {
		switch (ch) {
		case 'A':
			r.base.acc = (uint32_t)pmr_cli_num("--acc", optarg, 1,
			    1 << 24);
			break;
		case 'a':
			parse_algos(&r, optarg, &dcpi);
			break;
		case 'c':
			r.base.cbits = (unsigned)pmr_cli_num("--counter-bits",
			    optarg, 1, 32);
			break;
		case 'E':
			r.eval = 1;
			break;
		case 'e':
			r.exact = 1;
			break;
		case 'f':
			r.fmt = (enum pmr_mhash_fmt)pmr_cli_pick("--format",
			    optarg, fmt_names);
			break;
		case 'H':
			r.base.entries = (uint32_t)pmr_cli_num("--entries",
			    optarg, 1, 1 << 30);
			break;
		case 'k':
			r.kind = pmr_cli_pick("--kind", optarg,
			    pmr_mhash_kind_names);
			break;
		case 'L':
			r.base.interval = pmr_cli_num("--interval", optarg, 1,
			    (long long)1 << 40);
			break;
		case 'n':
			r.base.tables = (uint32_t)pmr_cli_num("--tables",
			    optarg, 1, PMR_MHASH_MAXTABLES);
			break;
		case 'p':
			if (pmr_mhash_preset(&r.base, optarg) != 0)
				pmr_cli_bad("--preset", optarg, "unknown");
			break;
		case 't':
			if (pmr_mhash_parse_pct(optarg, &r.base.theta_ppb) != 0)
				pmr_cli_bad("--threshold", optarg,
				    "not a percentage in (0, 100]");
			break;
		case O_DCPI_ENTRIES:
			r.dcpi_cfg.entries = (uint32_t)pmr_cli_num(
			    "--dcpi-entries", optarg, 1, 1 << 28);
			dcpi_opt = 1;
			break;
		case O_DCPI_WAYS:
			r.dcpi_cfg.ways = (uint32_t)pmr_cli_num("--dcpi-ways",
			    optarg, 1, PMR_DCPI_MAXWAYS);
			dcpi_opt = 1;
			break;
		case O_DCPI_OVERFLOW:
			r.dcpi_cfg.overflow = (uint32_t)pmr_cli_num(
			    "--dcpi-overflow", optarg, 1, 1 << 28);
			dcpi_opt = 1;
			break;
		case O_DCPI_POLICY:
			r.dcpi_cfg.policy = (enum pmr_dcpi_policy)pmr_cli_pick(
			    "--dcpi-policy", optarg, pmr_dcpi_policy_names());
			dcpi_opt = 1;
			break;
		case O_DCPI_HASH:
			r.dcpi_cfg.hash = (enum pmr_dcpi_hashfn)pmr_cli_pick(
			    "--dcpi-hash", optarg, pmr_dcpi_hash_names());
			dcpi_opt = 1;
			break;
		case O_CU:
		case O_NO_CU:
			r.base.cu = ch == O_CU;
			break;
		case O_RESET:
		case O_NO_RESET:
			r.base.reset = ch == O_RESET;
			break;
		case O_RETAIN:
		case O_NO_RETAIN:
			r.base.retain = ch == O_RETAIN;
			break;
		case O_HASH:
			r.base.hash = (enum pmr_mhash_hashfn)pmr_cli_pick(
			    "--hash", optarg, pmr_mhash_hash_names);
			break;
		case O_SBOX:
			r.base.sbox_random = pmr_cli_pick("--sbox", optarg,
			    pmr_mhash_sbox_names);
			break;
		case O_VICTIM:
			r.base.victim = (enum pmr_mhash_victim)pmr_cli_pick(
			    "--victim", optarg, pmr_mhash_victim_names);
			break;
		case O_ACC_INIT:
			r.base.acc_init = (enum pmr_mhash_init)pmr_cli_pick(
			    "--acc-init", optarg, pmr_mhash_init_names);
			break;
		case O_RESET_OVF:
			r.base.reset_on_overflow = 1;
			break;
		case O_BYTES:
			r.base.bytes = pmr_cli_num("--bytes", optarg, 1,
			    (long long)1 << 40);
			break;
		case O_ACCOUNTING:
			r.base.exact_bytes = pmr_cli_pick("--accounting",
			    optarg, pmr_mhash_acct_names);
			break;
		case O_AREA:
			r.area = 1;
			break;
		case O_THEORY:
			r.theory = 1;
			break;
		case O_STATS:
			r.stats = 1;
			break;
		case O_SUMMARY:
			r.summary_only = 1;
			break;
		case O_EMPTY:
			r.empty_zero = pmr_cli_pick("--empty", optarg,
			    empty_names);
			break;
		case O_PARTIAL:
			r.with_partial = 1;
			break;
		case O_TEXT:
			r.text = 1;
			break;
		case O_HEX:
			r.hex = 1;
			break;
		case O_TRACE:
			r.trace = 1;
			break;
		case O_SYNTH:
			synth_spec = optarg;
			break;
		case O_DUMP:
			r.dump = 1;
			break;
		case O_SWEEP:
			r.sweep = optarg;
			break;
		default:
			pmr_cli_common(&r.com, ch, optarg);
		}
	}
	argc -= optind;
	argv += optind;
	if (r.com.seed_set)
		r.base.seed = r.com.seed;
	if (r.kind == PMR_MHASH_K_ADDR && !r.trace) {
		warnx("--kind=addr needs --trace");
		pmr_cli_usage();
	}
	if (r.trace && r.text) {
		warnx("--trace and --text exclude each other");
		pmr_cli_usage();
	}
	if (r.kind == PMR_MHASH_K_SAMPLE && (r.trace || r.dump)) {
		warnx("--kind=sample excludes --trace and --dump-events");
		pmr_cli_usage();
	}
	if (dcpi_opt && !dcpi) {
		warnx("the --dcpi-* options need -a dcpi");
		pmr_cli_usage();
	}
	if (dcpi && (r.sweep != NULL || r.eval || r.exact || r.area ||
	    r.theory || r.stats)) {
		warnx("-a dcpi excludes --sweep, --eval, --exact, --area, "
		    "--theory and --stats");
		pmr_cli_usage();
	}
	if (dcpi && pmr_dcpi_cfg_check(&r.dcpi_cfg, msg, sizeof(msg)) != 0) {
		warnx("-a dcpi: %s", msg);
		pmr_cli_usage();
	}
	if (synth_spec != NULL) {
		const char *bad;

		r.synth = 1;
		pmr_mhash_synth_init(&r.syn, r.base.seed);
		if (pmr_mhash_synth_parse(&r.syn, synth_spec, &bad) != 0)
			pmr_cli_bad("--synth", bad, "invalid");
		if (argc > 0) {
			warnx("--synth takes no input file");
			pmr_cli_usage();
		}
	}
	if (!r.area && !r.theory && !r.synth && argc == 0 &&
	    isatty(STDIN_FILENO))
		pmr_cli_help();

	if (r.fmt == PMR_MHASH_F_PMR && !r.dump)
		r.pw = open_writer(&r, argc + optind, argv - optind);
	if (r.theory) {		/* needs no valid configuration */
		pmr_mhash_print_theory(&r);
		check(&r);
		goto out;
	}
	/* The configurations. */
	if (r.sweep != NULL) {
		n = pmr_mhash_sweep(r.sweep, &r.base, sw, MAXCFG);
		if (n < 0)
			pmr_cli_bad("--sweep", r.sweep, "unknown");
		for (i = 0; i < n; i++)
			add_prof(&r, &sw[i]);
	} else if (r.exact && !r.eval) {
		xc = r.base;
		xc.algo = PMR_MHASH_EXACT;
		add_prof(&r, &xc);
	} else if (dcpi)
		;	/* no interval model */
	else if (r.nalgo > 0) {
		for (j = 0; j < r.nalgo; j++) {
			xc = r.base;
			xc.algo = r.algos[j];
			add_prof(&r, &xc);
		}
	} else
		add_prof(&r, &r.base);
	if (r.np > 0 && r.p[0].c.hash == PMR_MHASH_HGIVEN &&
	    (!r.text || r.np > 1)) {
		warnx("--hash=given needs --text input and one configuration");
		pmr_cli_usage();
	}
	r.input = r.synth ? synth_spec : argc == 0 ? "-" : argv[0];
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	/* A text report goes to a temporary file renamed when complete
	 * (pmr_textout); an error exit removes it. */
	if (r.com.output != NULL && strcmp(r.com.output, "-") != 0 &&
	    !r.dump && r.pw == NULL) {
		if (pmr_textout_open(&tout, r.com.output) != PMR_OK ||
		    (tout.f != stdout &&
		    dup2(tout.fd, STDOUT_FILENO) < 0))
			err(1, "cannot create '%s'", r.com.output);
	}
	if (r.area) {
		pmr_mhash_print_area(&r);
		check(&r);
		goto out;
	}

	if (r.dump)
		r.w = open_writer(&r, argc + optind, argv - optind);
	else {
		for (j = 0; j < r.np; j++) {
			r.p[j].m = pmr_mhash_new(&r.p[j].c, msg, sizeof(msg));
			if (r.p[j].m == NULL)
				errx(1, "%s", msg);
		}
		if (r.eval || r.stats) {
			xc = r.p[0].c;
			xc.algo = PMR_MHASH_EXACT;
			xc.hash = PMR_MHASH_HPAPER;
			if (pmr_mhash_cfg_finish(&xc, msg, sizeof(msg)) != 0 ||
			    (r.ex = pmr_mhash_new(&xc, msg, sizeof(msg))) ==
			    NULL)
				errx(1, "%s", msg);
		}
		if (dcpi) {
			r.dcpi = pmr_dcpi_new(&r.dcpi_cfg, NULL, NULL, msg,
			    sizeof(msg));
			if (r.dcpi == NULL)
				errx(1, "%s", msg);
			pmr_mhash_print_dcpi_config(&r);
		}
		r.blocks = r.np == 1 && !r.summary_only;
		for (j = 0; j < r.np; j++)
			pmr_mhash_print_config(&r, &r.p[j]);
		check(&r);
	}

	/* The events. */
	pmr_progress_start(&r.progress, "mhash", " events", &r.events, 0,
	    r.com.quiet);
	if (r.synth && (r.w != NULL || r.dcpi != NULL)) {
		uint64_t pc, v;

		while (!r.failed && pmr_mhash_synth_next(&r.syn, &pc, &v)) {
			r.cur_pid = r.syn.pid;
			pmr_mhash_feed(&r, pc, v, NULL);
		}
	} else if (r.synth) {
		static uint64_t pc[PMR_MHASH_BATCH], v[PMR_MHASH_BATCH];
		size_t k;

		do {
			for (k = 0; k < PMR_MHASH_BATCH &&
			    pmr_mhash_synth_next(&r.syn, &pc[k], &v[k]); k++)
				;
			pmr_mhash_feed_batch(&r, pc, v, k);
		} while (k == PMR_MHASH_BATCH && !r.failed);
	} else if (r.trace)
		for (i = 0; i < (argc > 0 ? argc : 1) && !r.failed; i++)
			status |= pmr_mhash_read_trace(&r,
			    argc > 0 ? argv[i] : "-") != 0;
	else if (!r.text && r.w == NULL && r.pw == NULL &&
	    r.kind != PMR_MHASH_K_SAMPLE)
		status = pmr_mhash_read_pmr_all(&r, argc, argv) != 0;
	else
		for (i = 0; i < (argc > 0 ? argc : 1) && !r.failed; i++) {
			const char *path = argc > 0 ? argv[i] : "-";

			status |= (r.text ? pmr_mhash_read_text(&r, path) :
			    pmr_mhash_read_pmr(&r, path)) != 0;
		}
	pmr_progress_end(&r.progress);
	check(&r);
	/* a profile of nothing is said, not left to be read as "no hot
	 * tuples" (an EVENT-less stream, a trace without loaded values) */
	if (r.events == 0 && status == 0 && !r.com.quiet)
		warnx("warning: no events in the input");
	if (r.w != NULL) {
		if (pmr_writer_close(r.w, msg, sizeof(msg)) != 0)
			errx(1, "%s: %s", pmr_outname(r.com.output), msg);
		goto out;
	}
	if (r.dcpi != NULL) {
		/* the final flush: the table and the buffers */
		pmr_dcpi_finish(r.dcpi);
		pmr_mhash_print_dcpi(&r);
		check(&r);
		goto out;
	}
	/* The final partial interval, if any. */
	rc = 0;
	for (j = 0; j < r.np; j++)
		rc = pmr_mhash_finish(r.p[j].m);
	if (r.ex != NULL)
		rc = pmr_mhash_finish(r.ex);
	if (rc)
		pmr_mhash_interval_end(&r, 1);
	if (!r.blocks || r.eval || r.stats)
		pmr_mhash_print_summary(&r);
	check(&r);
	if (r.com.verbose)
		fprintf(stderr, "mhash: %" PRIu64 " events, %zu "
		    "configurations\n", r.events, r.np);
out:
	if (r.pw != NULL && pmr_writer_close(r.pw, msg, sizeof(msg)) != 0)
		errx(1, "%s: %s", pmr_outname(r.com.output), msg);
	for (j = 0; j < r.np; j++)
		pmr_mhash_free(r.p[j].m);
	pmr_mhash_free(r.ex);
	pmr_dcpi_free(r.dcpi);
	free(r.rows);
	free(r.prevx);
	/* with -o, standard output is the report file (dup2 above) */
	if (ferror(stdout) | fflush(stdout))
		err(1, "%s", pmr_outname(tout.f != NULL ? r.com.output : NULL));
	if (tout.f != NULL && pmr_textout_close(&tout, status == 0) != PMR_OK)
		err(1, "%s", pmr_outname(r.com.output));
	if (fclose(stdout) != 0)
		err(1, "%s", pmr_outname(tout.f != NULL ? r.com.output : NULL));
	return status;
}
