/*
 * pmsim: simulate a trace on a cycle-level out-of-order core and write
 * what ProfileMe hardware would have seen (SAMPLE, PAIR), the exact truth
 * (TRUTH), value and edge events (EVENT), dependence-graph nodes (GNODE),
 * shotgun samples (SIG, DET) and counters (STATS) into one record stream.
 *
 * The machine, the samplers and the records are in lib/sim; this file
 * parses options, opens the trace and the output, runs the simulator and
 * reports.  See pmsim(1).
 */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stream/pmr.h"
#include "util/cli.h"
#include "sim/sim.h"
#include "trace/trace.h"

enum {
	O_PRINT_CONFIG = PMR_OPT_PRIVATE, O_PROFILEME, O_TRUTH, O_EVENTS,
	O_WARMUP, O_MAX, O_INTERVAL, O_IDEAL, O_FORMAT, O_SAMPLER, O_GRAPH,
	O_DELTA, O_WINDOW, O_SHOTGUN
};

static const struct option long_opts[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "delta", required_argument, NULL, O_DELTA },
	{ "events", required_argument, NULL, O_EVENTS },
	{ "graph", no_argument, NULL, O_GRAPH },
	{ "ideal", required_argument, NULL, O_IDEAL },
	{ "interval", required_argument, NULL, O_INTERVAL },
	{ "machine", required_argument, NULL, 'm' },
	{ "max", required_argument, NULL, O_MAX },
	{ "print-config", no_argument, NULL, O_PRINT_CONFIG },
	{ "sampler", required_argument, NULL, O_SAMPLER },
	{ "profileme", required_argument, NULL, O_PROFILEME },
	{ "set", required_argument, NULL, 'O' },
	{ "shotgun", optional_argument, NULL, O_SHOTGUN },
	{ "trace-format", required_argument, NULL, O_FORMAT },
	{ "truth", no_argument, NULL, O_TRUTH },
	{ "warmup", required_argument, NULL, O_WARMUP },
	{ "window", required_argument, NULL, O_WINDOW },
	PMR_COMMON_LONGOPTS,
	{ NULL, 0, NULL, 0 }
};

static void PMR_NORETURN
usage(void)
{
	fprintf(stderr,
	    "usage: pmsim [-qvz] [-c file] [-m machine] [-O key=value] "
	    "[-o file]\n"
	    "             [--events=list] [--graph] [--ideal=list] "
	    "[--interval=n] [--max=n]\n"
	    "             [--print-config] [--profileme=spec] [--seed=n] "
	    "[--truth]\n"
	    "             [--delta=n] [--sampler=spec] [--shotgun[=spec]] "
	    "[--warmup=n]\n"
	    "             [--window=n] [trace]\n"
	    "Try 'pmsim --help'.\n");
	exit(2);
}

static void
help(void)
{
	printf("usage: pmsim [options] [trace]\n"
	    "Simulate a trace (pmr stream, ChampSim or drmemtrace; \"-\" or "
	    "none is\nstandard input) on an out-of-order core; write STATS "
	    "and, on request,\nSAMPLE, PAIR, TRUTH, GNODE, SIG, DET and EVENT "
	    "records.\n\n"
	    "  -c, --config=FILE    read 'key = value' settings from FILE\n"
	    "      --delta=N        local-IPC truth: retires within +-N "
	    "cycles [15]\n"
	    "      --events=LIST    EVENT records at retire: value, edge "
	    "[none]\n"
	    "      --graph          GNODE records: the dependence-graph node "
	    "of each\n"
	    "                       retired instruction [off]\n"
	    "      --ideal=LIST     idealize dl1 dmiss imiss bmisp win bw "
	    "shalu lgalu [none]\n"
	    "      --interval=N     a STATS record every N instructions [end "
	    "only]\n"
	    "  -m, --machine=NAME   preset: alpha21264 fields03 champsim "
	    "[alpha21264]\n"
	    "      --max=N          stop after N measured instructions [all]\n"
	    "  -O, --set=KEY=VALUE  override one setting (repeatable)\n"
	    "      --print-config   print the effective configuration and "
	    "exit\n"
	    "      --profileme=SPEC single or paired, then ,S=N ,W=N "
	    ",dist=geom|uniform\n"
	    "                       ,J=N ,rearm=interrupt|select ,irq=N\n"
	    "                       ,select=fetch|opportunity [off; S=4096]\n"
	    "      --sampler=SPEC   a baseline sampler: counter, ibs, pebs or "
	    "tip, then\n"
	    "                       ,S=N ,skid=N ,event=cycles|retired|dmiss|misp "
	    "[off]\n"
	    "      --shotgun[=SPEC] SIG and DET records (shotgun profiling), "
	    "SPEC items\n"
	    "                       sig=M ,len=L ,prefix=P ,det=N ,ctx=C "
	    "[off; sig=1000000,\n"
	    "                       len=1000,prefix=10,det=1000,ctx=10]\n"
	    "      --trace-format=F auto pmr champsim drmemtrace [auto]\n"
	    "      --truth          TRUTH records: exact per-pc aggregates "
	    "[off]\n"
	    "      --warmup=N       instructions before measuring [0]\n"
	    "      --window=N       windowed IPC (STATS): N-cycle windows "
	    "[30]\n\n%s",
	    pmr_common_help);
}

static const char *
display(const char *path)
{
	return path == NULL || strcmp(path, "-") == 0 ? "<stdin>" : path;
}

static uint64_t
num(const char *opt, const char *arg, long long min, long long max)
{
	const char *e = NULL;
	long long v = pmr_strtonum(arg, min, max, &e);

	if (e != NULL) {
		warnx("%s: value '%s' is %s", opt, arg, e);
		usage();
	}
	return (uint64_t)v;
}

/* Parses --profileme=single|paired[,S=N][,W=N][,dist=..][,J=N]... */
static void
parse_pm(struct pmr_sim_opts *o, const char *arg)
{
	char *s = strdup(arg), *tok, *save = NULL;

	if (s == NULL)
		err(1, NULL);
	o->pm_s = 4096;
	for (tok = strtok_r(s, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "single") == 0)
			o->pm = PMR_SIM_PM_SINGLE;
		else if (strcmp(tok, "paired") == 0)
			o->pm = PMR_SIM_PM_PAIRED;
		else if (strncmp(tok, "S=", 2) == 0)
			o->pm_s = num("--profileme S", tok + 2, 1, 1LL << 40);
		else if (strncmp(tok, "W=", 2) == 0)
			o->pm_w = (unsigned)num("--profileme W", tok + 2, 1,
			    65536);
		else if (strncmp(tok, "J=", 2) == 0)
			o->pm_jitter = num("--profileme J", tok + 2, 0,
			    1LL << 40);
		else if (strncmp(tok, "irq=", 4) == 0)
			o->pm_irq = (unsigned)num("--profileme irq", tok + 4,
			    0, 1000000);
		else if (strcmp(tok, "dist=geom") == 0)
			o->pm_dist = 0;
		else if (strcmp(tok, "dist=uniform") == 0)
			o->pm_dist = 1;
		else if (strcmp(tok, "rearm=interrupt") == 0)
			o->pm_rearm = 0;
		else if (strcmp(tok, "rearm=select") == 0)
			o->pm_rearm = 1;
		else if (strcmp(tok, "select=fetch") == 0)
			o->pm_select = 0;
		else if (strcmp(tok, "select=opportunity") == 0)
			o->pm_select = 1;
		else {
			warnx("--profileme: unknown item '%s'", tok);
			usage();
		}
	}
	free(s);
	if (o->pm == PMR_SIM_PM_OFF) {
		warnx("--profileme: say 'single' or 'paired'");
		usage();
	}
	if (o->pm == PMR_SIM_PM_PAIRED && o->pm_select) {
		warnx("--profileme: select=opportunity is for single sampling");
		usage();
	}
}

/* Parses --shotgun[=sig=M,len=L,prefix=P,det=N,ctx=C]. */
static void
parse_shotgun(struct pmr_sim_opts *o, const char *arg)
{
	char *s, *tok, *save = NULL;

	o->shotgun = 1;
	if (arg == NULL)
		return;
	if ((s = strdup(arg)) == NULL)
		err(1, NULL);
	for (tok = strtok_r(s, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if (strncmp(tok, "sig=", 4) == 0)
			o->sg_sig = num("--shotgun sig", tok + 4, 1,
			    (long long)PMR_SIM_SG_MAXMEAN);
		else if (strncmp(tok, "len=", 4) == 0)
			o->sg_len = (unsigned)num("--shotgun len", tok + 4, 1,
			    PMR_SIM_SG_MAXLEN);
		else if (strncmp(tok, "prefix=", 7) == 0)
			o->sg_prefix = (unsigned)num("--shotgun prefix",
			    tok + 7, 0, PMR_SIM_SG_MAXPREFIX);
		else if (strncmp(tok, "det=", 4) == 0)
			o->sg_det = num("--shotgun det", tok + 4, 1,
			    (long long)PMR_SIM_SG_MAXMEAN);
		else if (strncmp(tok, "ctx=", 4) == 0)
			o->sg_ctx = (unsigned)num("--shotgun ctx", tok + 4, 0,
			    PMR_SIM_SG_MAXCTX);
		else {
			warnx("--shotgun: unknown item '%s'", tok);
			usage();
		}
	}
	free(s);
}

static const char *const sampler_names[] = { "profileme", "counter", "ibs",
	"pebs", "tip", NULL };
static const char *const bsev_names[] = { "cycles", "retired", "dmiss",
	"misp", NULL };

static int
pick(const char *opt, const char *arg, const char *const *names)
{
	int i;

	for (i = 0; names[i] != NULL; i++)
		if (strcmp(arg, names[i]) == 0)
			return i;
	warnx("%s: unknown item '%s'", opt, arg);
	usage();
}

/* Parses --sampler=counter|ibs|pebs|tip[,S=N][,skid=N][,event=E]. */
static void
parse_sampler(struct pmr_sim_opts *o, const char *arg)
{
	char *s = strdup(arg), *tok, *save = NULL;
	int first = 1, ev = -1, skid = 0;
	uint64_t S = 4096;

	if (s == NULL)
		err(1, NULL);
	o->bs_skid = 6;		/* the 21164's skid (ProfileMe 2.2) */
	for (tok = strtok_r(s, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save), first = 0) {
		if (first)
			o->sampler = pick("--sampler", tok, sampler_names);
		else if (strncmp(tok, "S=", 2) == 0)
			S = num("--sampler S", tok + 2, 1, 1LL << 40);
		else if (strncmp(tok, "skid=", 5) == 0) {
			o->bs_skid = (unsigned)num("--sampler skid", tok + 5,
			    0, 1000000);
			skid = 1;
		}
		else if (strncmp(tok, "event=", 6) == 0)
			ev = pick("--sampler event", tok + 6, bsev_names);
		else {
			warnx("--sampler: unknown item '%s'", tok);
			usage();
		}
	}
	free(s);
	if (o->sampler == PMR_SIM_SAMPLER_PROFILEME) {
		warnx("--sampler: use --profileme for ProfileMe");
		usage();
	}
	/* only the counter's interrupt is delivered late */
	if (skid && o->sampler != PMR_SIM_SAMPLER_COUNTER) {
		warnx("--sampler: skid= applies to counter only (%s samples "
		    "the instruction it tags)", sampler_names[o->sampler]);
		usage();
	}
	/* ibs counts mapped instructions and tip counts cycles: an event
	 * they would not count is refused, never recorded in META unused */
	if (ev >= 0 && ((o->sampler == PMR_SIM_SAMPLER_IBS) ||
	    (o->sampler == PMR_SIM_SAMPLER_TIP && ev != PMR_SIM_BSEV_CYCLES))) {
		warnx("--sampler: event=%s does not apply to %s (%s)",
		    bsev_names[ev], sampler_names[o->sampler],
		    o->sampler == PMR_SIM_SAMPLER_IBS ? "it tags every S-th "
		    "mapped instruction" : "it samples every S cycles");
		usage();
	}
	if (o->sampler == PMR_SIM_SAMPLER_IBS) {
		/* ProfileMe's machinery, selecting at map */
		o->sampler = 0;
		o->pm = PMR_SIM_PM_SINGLE;
		o->pm_select = 2;
		o->pm_s = S;
	} else
		o->bs_s = S;
	o->bs_event = ev >= 0 ? ev : o->sampler == PMR_SIM_SAMPLER_PEBS ?
	    PMR_SIM_BSEV_RETIRED : PMR_SIM_BSEV_CYCLES;
}

static unsigned
parse_list(const char *opt, const char *arg, unsigned (*byname)(const char *))
{
	char *s = strdup(arg), *tok, *save = NULL;
	unsigned m = 0, b;

	if (s == NULL)
		err(1, NULL);
	for (tok = strtok_r(s, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if ((b = byname(tok)) == 0) {
			warnx("%s: unknown item '%s'", opt, tok);
			usage();
		}
		m |= b;
	}
	free(s);
	if (m == 0) {
		warnx("%s: empty list", opt);
		usage();
	}
	return m;
}

static unsigned
event_byname(const char *s)
{
	if (strcmp(s, "value") == 0)
		return 1;
	if (strcmp(s, "edge") == 0)
		return 2;
	return 0;
}

/* The trace as a source of dynamic instructions for the simulator. */
/* Copies an IMAGE record of the trace to the output (errors stick in the
 * writer and are reported when it closes). */
static void
pass_image(void *ctx, const struct pmr_rec *rec)
{
	if (rec->type == PMR_REC_IMAGE)
		(void)!pmr_write_raw(ctx, rec->type, rec->p, rec->len);
}

static int
trace_src(void *arg, struct pmr_dinsn *di)
{
	return pmr_trace_next(arg, di);
}


static int
meta(struct pmr_writer *w, const char *key, const char *value)
{
	struct pmr_meta m;

	m.key.p = (const unsigned char *)key;
	m.key.n = (uint32_t)strlen(key);
	m.value.p = (const unsigned char *)value;
	m.value.n = (uint32_t)strlen(value);
	return pmr_write(w, PMR_REC_META, &m);
}

/* Writes the META records that describe the run. */
static int
write_meta(struct pmr_writer *w, const struct pmr_sim_config *c,
    const struct pmr_sim_opts *o)
{
	char buf[256], *text = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	snprintf(buf, sizeof(buf), "%016" PRIx64, pmr_sim_config_digest(c));
	if ((rc = meta(w, "machine", c->name)) != 0 ||
	    (rc = meta(w, "config-digest", buf)) != 0)
		return rc;
	if ((f = open_memstream(&text, &len)) == NULL)
		return PMR_ENOMEM;
	if (pmr_sim_config_write(c, f, 0) != 0 || fclose(f) != 0) {
		free(text);
		return PMR_ENOMEM;
	}
	rc = meta(w, "config", text);
	free(text);
	if (rc != 0)
		return rc;
	snprintf(buf, sizeof(buf), "%u", c->issue_width);
	if ((rc = meta(w, "issue-width", buf)) != 0)
		return rc;
	if (o->sampler != 0 || o->pm_select == 2) {
		snprintf(buf, sizeof(buf), "%s S=%" PRIu64 " skid=%u event=%s",
		    o->pm_select == 2 ? "ibs" : sampler_names[o->sampler],
		    o->pm_select == 2 ? o->pm_s : o->bs_s, o->bs_skid,
		    bsev_names[o->bs_event]);
		if ((rc = meta(w, "sampler", buf)) != 0)
			return rc;
	}
	if (o->truth) {
		snprintf(buf, sizeof(buf), "delta=%u", o->delta);
		if ((rc = meta(w, "truth", buf)) != 0)
			return rc;
	}
	if (o->pm != PMR_SIM_PM_OFF && o->pm_select != 2) {
		snprintf(buf, sizeof(buf), "mode=%s S=%" PRIu64 " W=%u "
		    "dist=%s J=%" PRIu64 " rearm=%s irq=%u select=%s",
		    o->pm == PMR_SIM_PM_PAIRED ? "paired" : "single", o->pm_s,
		    o->pm_w, o->pm_dist ? "uniform" : "geom", o->pm_jitter,
		    o->pm_rearm ? "select" : "interrupt", o->pm_irq,
		    o->pm_select ? "opportunity" : "fetch");
		if ((rc = meta(w, "profileme", buf)) != 0)
			return rc;
	}
	if (o->shotgun) {
		snprintf(buf, sizeof(buf), "sig=%" PRIu64 " len=%u prefix=%u "
		    "det=%" PRIu64 " ctx=%u", o->sg_sig, o->sg_len,
		    o->sg_prefix, o->sg_det, o->sg_ctx);
		if ((rc = meta(w, "shotgun", buf)) != 0)
			return rc;
	}
	return 0;
}

int
main(int argc, char *argv[])
{
	struct pmr_common com;
	struct pmr_sim_config cfg;
	struct pmr_sim_opts o;
	struct pmr_sim *sim = NULL;
	struct pmr_trace *t = NULL;
	struct pmr_progress progress;
	struct pmr_writer *w = NULL;
	const struct pmr_sim_stats *st;
	const char *errstr = NULL, *path, *cfgfile = NULL;
	char msg[512];
	char **sets = NULL;
	size_t nsets = 0, i;
	int ch, rc, print_config = 0, fmt = PMR_TF_AUTO, status = 0;
	int e = 0;

	pmr_common_init(&com);
	pmr_sim_opts_init(&o);
	if (pmr_sim_config_preset(&cfg, "alpha21264") != PMR_OK)
		errx(1, "no default machine");
	while ((ch = getopt_long(argc, argv, "c:m:O:" PMR_COMMON_SHORTOPTS,
	    long_opts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			cfgfile = optarg;
			break;
		case 'm':
			if (pmr_sim_config_preset(&cfg, optarg) != PMR_OK) {
				warnx("unknown machine '%s' (alpha21264, "
				    "fields03, champsim)", optarg);
				usage();
			}
			break;
		case 'O':
			if ((sets = realloc(sets, (nsets + 1) *
			    sizeof(*sets))) == NULL)
				err(1, NULL);
			sets[nsets++] = optarg;
			break;
		case O_PRINT_CONFIG:
			print_config = 1;
			break;
		case O_PROFILEME:
			if (o.pm_select == 2) {
				warnx("--profileme and --sampler=ibs exclude "
				    "each other");
				usage();
			}
			parse_pm(&o, optarg);
			break;
		case O_SAMPLER:
			if (o.pm != PMR_SIM_PM_OFF &&
			    strncmp(optarg, "ibs", 3) == 0) {
				warnx("--profileme and --sampler=ibs exclude "
				    "each other");
				usage();
			}
			parse_sampler(&o, optarg);
			break;
		case O_TRUTH:
			o.truth = 1;
			break;
		case O_GRAPH:
			o.graph = 1;
			break;
		case O_SHOTGUN:
			parse_shotgun(&o, optarg);
			break;
		case O_DELTA:
			o.delta = (unsigned)num("--delta", optarg, 0, 65536);
			break;
		case O_WINDOW:
			o.win_len = (unsigned)num("--window", optarg, 1,
			    1 << 20);
			break;
		case O_EVENTS:
			o.events = parse_list("--events", optarg,
			    event_byname);
			break;
		case O_IDEAL:
			o.ideal = parse_list("--ideal", optarg,
			    pmr_sim_ideal_byname);
			break;
		case O_WARMUP:
			o.warmup = num("--warmup", optarg, 0, INT64_MAX);
			break;
		case O_MAX:
			o.max = num("--max", optarg, 1, INT64_MAX);
			break;
		case O_INTERVAL:
			o.interval = num("--interval", optarg, 1, INT64_MAX);
			break;
		case O_FORMAT:
			if ((fmt = pmr_trace_format_byname(optarg)) < 0) {
				warnx("unknown trace format '%s'", optarg);
				usage();
			}
			break;
		default:
			rc = pmr_common_opt(&com, ch, optarg, &errstr);
			if (rc == 'h') {
				help();
				if (ferror(stdout) | fclose(stdout))
					err(1, "stdout");
				return 0;
			}
			if (rc == 'V') {
				printf("pmsim %s\n", PMTOOLS_VERSION);
				if (ferror(stdout) | fclose(stdout))
					err(1, "stdout");
				return 0;
			}
			if (rc < 0) {
				warnx("%s", errstr);
				usage();
			}
			if (rc == 0)
				usage();
			break;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage();
	/* settings: preset, then the file, then -O in order */
	if (cfgfile != NULL) {
		rc = pmr_sim_config_load(&cfg, cfgfile, msg, sizeof(msg));
		if (rc == PMR_EIO)
			err(1, "cannot read '%s'", cfgfile);
		if (rc != PMR_OK)
			errx(1, "'%s': %s", cfgfile, msg);
	}
	/* a file's inconsistency is a data error (1); one that -O makes is
	 * a usage error (2), as for any other bad option value */
	if (cfgfile != NULL &&
	    pmr_sim_config_check(&cfg, msg, sizeof(msg)) != PMR_OK)
		errx(1, "'%s': bad configuration: %s", cfgfile, msg);
	for (i = 0; i < nsets; i++)
		if (pmr_sim_config_setkv(&cfg, sets[i], msg, sizeof(msg)) != 0) {
			warnx("-O: %s", msg);
			usage();
		}
	free(sets);
	if (pmr_sim_config_check(&cfg, msg, sizeof(msg)) != PMR_OK) {
		warnx("%s: %s", nsets > 0 ? "-O" : "bad configuration", msg);
		if (nsets > 0)
			usage();
		return 1;
	}
	o.seed = com.seed;
	if (print_config) {
		pmr_sim_config_idealize(&cfg, o.ideal);
		printf("# pmsim machine %s, digest %016" PRIx64 "\n",
		    cfg.name, pmr_sim_config_digest(&cfg));
		if (pmr_sim_config_write(&cfg, stdout, 1) != 0 ||
		    (ferror(stdout) | fclose(stdout)))
			err(1, "stdout");
		return 0;
	}
	path = argc == 1 ? argv[0] : "-";
	if (argc == 0 && isatty(STDIN_FILENO)) {
		help();
		if (ferror(stdout) | fclose(stdout))
			err(1, "stdout");
		return 0;
	}
	if (pmr_common_tty_refused(&com))
		errx(1, "refusing to write a binary stream to a terminal "
		    "(use -o file or --force)");
	msg[0] = '\0';
	if ((t = pmr_trace_open(path, fmt, &e, msg, sizeof(msg))) == NULL) {
		/* the trace library's messages name the file */
		if (msg[0] != '\0')
			errx(1, "%s", msg);
		errx(1, "cannot open '%s': %s", display(path), pmr_strerror(e));
	}
	if ((sim = pmr_sim_new(&cfg, &o, &e)) == NULL)
		errx(1, "cannot create the simulator: %s", pmr_strerror(e));
	w = pmr_common_writer(&com, "pmsim", argc + optind, argv - optind,
	    &e);
	if (w == NULL) {
		if (e == PMR_EIO)
			err(1, "cannot create '%s'", display(com.output));
		errx(1, "cannot create '%s': %s", display(com.output),
		    pmr_strerror(e));
	}
	/* The effective options: the META record states the W and S used. */
	if (write_meta(w, pmr_sim_config(sim), pmr_sim_opts(sim)) != 0) {
		warnx("%s: %s", pmr_outname(com.output), pmr_writer_errmsg(w));
		pmr_writer_abort(w);
		return 1;
	}
	pmr_sim_set_writer(sim, w);
	/* IMAGE records go on, so that pairs --by=proc finds the binaries. */
	pmr_trace_set_side(t, pass_image, w);
	/* --max bounds the instructions read, less the window's lead */
	pmr_progress_start(&progress, "pmsim", " instructions",
	    pmr_trace_counter(t),
	    o.max > 0 ? o.warmup + o.max : 0, com.quiet);
	rc = pmr_sim_run(sim, trace_src, t);
	pmr_progress_end(&progress);
	if (rc != PMR_OK) {
		if (pmr_trace_errmsg(t)[0] != '\0')
			warnx("%s", pmr_trace_errmsg(t));
		else
			warnx("%s: %s", pmr_outname(com.output),
			    pmr_sim_errmsg(sim));
		pmr_writer_abort(w);
		w = NULL;
		status = 1;
	}
	st = pmr_sim_stats(sim);
	if (status == 0 && com.verbose)
		fprintf(stderr, "pmsim: %" PRIu64 " instructions, %" PRIu64
		    " cycles, IPC %.4f, %" PRIu64 " mispredicts of %" PRIu64
		    " branches, %" PRIu64 " samples, %" PRIu64 " pairs\n",
		    st->retired, st->cycles, st->ipc, st->mispredicts,
		    st->branches, st->samples, st->pairs);
	/* a sampler that was asked for and wrote nothing is said, never
	 * left for the reader of an empty profile to find */
	if (status == 0 && st->samples == 0 && st->pairs == 0 &&
	    (o.pm != PMR_SIM_PM_OFF || o.sampler != 0))
		warnx("warning: the %s sampler wrote no samples in %" PRIu64
		    " cycles (%" PRIu64 " instructions; S=%" PRIu64 ")",
		    o.sampler != 0 ? sampler_names[o.sampler] : o.pm_select == 2 ?
		    "ibs" : "profileme", st->cycles, st->retired,
		    o.sampler != 0 ? o.bs_s : o.pm_s);
	if (w != NULL && pmr_writer_close(w, msg, sizeof(msg)) != 0) {
		warnx("%s: %s", pmr_outname(com.output), msg);
		status = 1;
	}
	pmr_sim_free(sim);
	pmr_trace_close(t);
	if (ferror(stdout) | fclose(stdout))
		err(1, "stdout");
	return status;
}
