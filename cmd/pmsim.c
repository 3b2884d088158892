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
	O_WARMUP, O_MAX, O_INTERVAL, O_IDEAL, O_SAMPLER, O_GRAPH, O_DELTA,
	O_WINDOW, O_SHOTGUN, O_SKIP, O_WARM_CACHES
};

static const struct option long_opts[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "delta", required_argument, NULL, O_DELTA },
	{ "events", required_argument, NULL, O_EVENTS },
	{ "from", required_argument, NULL, 'F' },
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
	{ "skip", required_argument, NULL, O_SKIP },
	{ "trace-format", required_argument, NULL, 'F' },	/* old name */
	{ "truth", no_argument, NULL, O_TRUTH },
	{ "warm-caches", required_argument, NULL, O_WARM_CACHES },
	{ "warmup", required_argument, NULL, O_WARMUP },
	{ "window", required_argument, NULL, O_WINDOW },
	PMR_COMMON_LONGOPTS,
	{ NULL, 0, NULL, 0 }
};

static const char synopsis[] =
    "usage: pmsim [-qvz] [-c file] [-F format] [-m machine] [-O key=value] "
    "[-o file]\n"
    "             [--events=list] [--graph] [--ideal=list] [--interval=n] "
    "[--max=n]\n"
    "             [--print-config] [--profileme=spec] [--seed=n] "
    "[--truth]\n"
    "             [--delta=n] [--sampler=spec] [--shotgun[=spec]] "
    "[--skip=n]\n"
    "             [--warm-caches=n] [--warmup=n] [--window=n] [trace]\n";

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
	    "  -F, --from=FORMAT    trace format: auto pmr champsim "
	    "drmemtrace [auto]\n"
	    "      --graph          GNODE records: the dependence-graph node "
	    "of each\n"
	    "                       retired instruction [off]\n"
	    "      --ideal=LIST     idealize dl1 dmiss imiss bmisp win bw "
	    "shalu lgalu [none]\n"
	    "      --interval=N     a STATS record every N instructions [end "
	    "only]\n"
	    "  -m, --machine=NAME   preset: alpha21264 fields03 champsim "
	    "alpha21164\n"
	    "                       [alpha21264]\n"
	    "      --max=N          stop after N measured instructions [all]\n"
	    "  -O, --set=KEY=VALUE  override one setting (repeatable)\n"
	    "      --print-config   print the effective configuration and "
	    "exit\n"
	    "      --profileme=SPEC single or paired, then ,S=N ,W=N "
	    ",dist=geom|uniform\n"
	    "                       ,J=N ,rearm=interrupt|select ,irq=N\n"
	    "                       ,select=fetch|opportunity [off; S=4096]\n"
	    "      --sampler=SPEC   a baseline sampler: counter, ibs, pebs, "
	    "tip or last, then\n"
	    "                       ,S=N ,skid=N ,event=cycles|retired|dmiss|misp "
	    "[off]\n"
	    "      --shotgun[=SPEC] SIG and DET records (shotgun profiling), "
	    "SPEC items\n"
	    "                       sig=M ,len=L ,prefix=P ,det=N ,ctx=C "
	    "[off; sig=1000000,\n"
	    "                       len=1000,prefix=10,det=1000,ctx=10]\n"
	    "      --skip=N         leave the first N instructions of the "
	    "trace untimed [0]\n"
	    "      --trace-format=F the same as --from\n"
	    "      --truth          TRUTH records: exact per-pc aggregates "
	    "[off]\n"
	    "      --warm-caches=N  of the skipped instructions, the last N "
	    "warm caches,\n"
	    "                       TLBs and predictors [1000000]\n"
	    "      --warmup=N       instructions simulated before measuring "
	    "[0]\n"
	    "      --window=N       windowed IPC (STATS): N-cycle windows "
	    "[30]\n\n%s",
	    pmr_common_help);
}

/* Parses --profileme=single|paired[,S=N][,W=N][,dist=..][,J=N]... */
static void
parse_pm(struct pmr_sim_opts *o, const char *arg)
{
	struct pmr_items it;
	const char *tok, *v;

	o->pm_s = 4096;
	pmr_items_init(&it, arg);
	while ((tok = pmr_items_next(&it)) != NULL) {
		if (strcmp(tok, "single") == 0)
			o->pm = PMR_SIM_PM_SINGLE;
		else if (strcmp(tok, "paired") == 0)
			o->pm = PMR_SIM_PM_PAIRED;
		else if ((v = pmr_item_value(tok, "S")) != NULL)
			o->pm_s = (uint64_t)pmr_cli_num("--profileme S", v, 1,
			    1LL << 40);
		else if ((v = pmr_item_value(tok, "W")) != NULL)
			o->pm_w = (unsigned)pmr_cli_num("--profileme W", v, 1,
			    65536);
		else if ((v = pmr_item_value(tok, "J")) != NULL)
			o->pm_jitter = (uint64_t)pmr_cli_num("--profileme J", v,
			    0, 1LL << 40);
		else if ((v = pmr_item_value(tok, "irq")) != NULL)
			o->pm_irq = (unsigned)pmr_cli_num("--profileme irq", v,
			    0, 1000000);
		else if (strcmp(tok, "dist=geom") == 0)
			o->pm_dist = PMR_SIM_DIST_GEOM;
		else if (strcmp(tok, "dist=uniform") == 0)
			o->pm_dist = PMR_SIM_DIST_UNIFORM;
		else if (strcmp(tok, "rearm=interrupt") == 0)
			o->pm_rearm = PMR_SIM_REARM_INTERRUPT;
		else if (strcmp(tok, "rearm=select") == 0)
			o->pm_rearm = PMR_SIM_REARM_SELECT;
		else if (strcmp(tok, "select=fetch") == 0)
			o->pm_select = PMR_SIM_SELECT_FETCH;
		else if (strcmp(tok, "select=opportunity") == 0)
			o->pm_select = PMR_SIM_SELECT_OPPORTUNITY;
		else
			pmr_cli_bad("--profileme", tok, "unknown");
	}
	if (o->pm == PMR_SIM_PM_OFF)
		pmr_cli_misuse("--profileme: say 'single' or 'paired'");
	if (o->pm == PMR_SIM_PM_PAIRED && o->pm_select != PMR_SIM_SELECT_FETCH)
		pmr_cli_misuse("--profileme: select=opportunity is for single "
		    "sampling");
}

/* Parses --shotgun[=sig=M,len=L,prefix=P,det=N,ctx=C]. */
static void
parse_shotgun(struct pmr_sim_opts *o, const char *arg)
{
	struct pmr_items it;
	const char *tok, *v;

	o->shotgun = 1;
	if (arg == NULL)
		return;
	pmr_items_init(&it, arg);
	while ((tok = pmr_items_next(&it)) != NULL) {
		if ((v = pmr_item_value(tok, "sig")) != NULL)
			o->sg_sig = (uint64_t)pmr_cli_num("--shotgun sig", v, 1,
			    (long long)PMR_SIM_SG_MAXMEAN);
		else if ((v = pmr_item_value(tok, "len")) != NULL)
			o->sg_len = (unsigned)pmr_cli_num("--shotgun len", v, 1,
			    PMR_SIM_SG_MAXLEN);
		else if ((v = pmr_item_value(tok, "prefix")) != NULL)
			o->sg_prefix = (unsigned)pmr_cli_num("--shotgun prefix",
			    v, 0, PMR_SIM_SG_MAXPREFIX);
		else if ((v = pmr_item_value(tok, "det")) != NULL)
			o->sg_det = (uint64_t)pmr_cli_num("--shotgun det", v, 1,
			    (long long)PMR_SIM_SG_MAXMEAN);
		else if ((v = pmr_item_value(tok, "ctx")) != NULL)
			o->sg_ctx = (unsigned)pmr_cli_num("--shotgun ctx", v, 0,
			    PMR_SIM_SG_MAXCTX);
		else
			pmr_cli_bad("--shotgun", tok, "unknown");
	}
}

/* Returns the names of the machine presets, NULL-terminated. */
static const char *const *
preset_names(void)
{
	static const char *names[16];
	unsigned i;

	for (i = 0; i < 15 && (names[i] = pmr_sim_preset_name(i)) != NULL;
	    i++)
		;
	return names;
}

static const char *const sampler_names[] = { "profileme", "counter", "ibs",
	"pebs", "tip", "last", NULL };
static const char *const bsev_names[] = { "cycles", "retired", "dmiss",
	"misp", NULL };

/* Parses --sampler=counter|ibs|pebs|tip|last[,S=N][,skid=N][,event=E]. */
static void
parse_sampler(struct pmr_sim_opts *o, const char *arg)
{
	struct pmr_items it;
	const char *tok, *v;
	int first = 1, ev = -1, skid = 0;
	uint64_t S = 4096;

	o->bs_skid = 6;		/* the 21164's skid (ProfileMe 2.2) */
	pmr_items_init(&it, arg);
	for (; (tok = pmr_items_next(&it)) != NULL; first = 0) {
		if (first)
			o->sampler = pmr_cli_pick("--sampler", tok,
			    sampler_names);
		else if ((v = pmr_item_value(tok, "S")) != NULL)
			S = (uint64_t)pmr_cli_num("--sampler S", v, 1,
			    1LL << 40);
		else if ((v = pmr_item_value(tok, "skid")) != NULL) {
			o->bs_skid = (unsigned)pmr_cli_num("--sampler skid", v,
			    0, 1000000);
			skid = 1;
		} else if ((v = pmr_item_value(tok, "event")) != NULL)
			ev = pmr_cli_pick("--sampler event", v, bsev_names);
		else
			pmr_cli_bad("--sampler", tok, "unknown");
	}
	if (o->sampler == PMR_SIM_SAMPLER_PROFILEME)
		pmr_cli_misuse("--sampler: use --profileme for ProfileMe");
	/* only the counter's interrupt is delivered late */
	if (skid && o->sampler != PMR_SIM_SAMPLER_COUNTER)
		pmr_cli_misuse("--sampler: skid= applies to counter only (%s "
		    "samples the instruction it tags)",
		    sampler_names[o->sampler]);
	/* ibs counts mapped instructions and tip counts cycles: an event
	 * they would not count is refused, never recorded in META unused */
	if (ev >= 0 && ((o->sampler == PMR_SIM_SAMPLER_IBS) ||
	    ((o->sampler == PMR_SIM_SAMPLER_TIP ||
	    o->sampler == PMR_SIM_SAMPLER_LAST) &&
	    ev != PMR_SIM_BSEV_CYCLES)))
		pmr_cli_misuse("--sampler: event=%s does not apply to %s (%s)",
		    bsev_names[ev], sampler_names[o->sampler],
		    o->sampler == PMR_SIM_SAMPLER_IBS ? "it tags every S-th "
		    "mapped instruction" : "it samples every S cycles");
	if (o->sampler == PMR_SIM_SAMPLER_IBS) {
		/* ProfileMe's machinery, selecting at map */
		o->sampler = 0;
		o->pm = PMR_SIM_PM_SINGLE;
		o->pm_select = PMR_SIM_SELECT_MAPPED;
		o->pm_s = S;
	} else
		o->bs_s = S;
	o->bs_event = ev >= 0 ? ev : o->sampler == PMR_SIM_SAMPLER_PEBS ?
	    PMR_SIM_BSEV_RETIRED : PMR_SIM_BSEV_CYCLES;
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

/* Writes the META records that describe the run. */
static int
write_meta(struct pmr_writer *w, const struct pmr_sim_config *c,
    const struct pmr_sim_config *base, const struct pmr_sim_opts *o)
{
	char buf[256], *text = NULL;
	size_t len = 0;
	FILE *f;
	int rc, ibs = o->pm_select == PMR_SIM_SELECT_MAPPED;

	snprintf(buf, sizeof(buf), "%016" PRIx64, pmr_sim_config_digest(c));
	if ((rc = pmr_write_meta(w, "machine", c->name)) != 0 ||
	    (rc = pmr_write_meta(w, "config-digest", buf)) != 0)
		return rc;
	if ((f = open_memstream(&text, &len)) == NULL)
		return PMR_ENOMEM;
	if (pmr_sim_config_write(c, f, 0) != 0 || fclose(f) != 0) {
		free(text);
		return PMR_ENOMEM;
	}
	rc = pmr_write_meta(w, "config", text);
	free(text);
	if (rc != 0)
		return rc;
	snprintf(buf, sizeof(buf), "%u", c->issue_width);
	if ((rc = pmr_write_meta(w, "issue-width", buf)) != 0)
		return rc;
	if (o->sampler != PMR_SIM_SAMPLER_PROFILEME || ibs) {
		snprintf(buf, sizeof(buf), "%s S=%" PRIu64 " skid=%u event=%s",
		    ibs ? "ibs" : sampler_names[o->sampler],
		    ibs ? o->pm_s : o->bs_s, o->bs_skid,
		    bsev_names[o->bs_event]);
		if ((rc = pmr_write_meta(w, "sampler", buf)) != 0)
			return rc;
	}
	if (o->ideal != 0) {	/* icost --multisim reads it */
		size_t n = 0;
		unsigned b;

		buf[0] = '\0';
		for (b = 0; b < 32; b++)
			if (o->ideal >> b & 1)
				n += (size_t)snprintf(buf + n, sizeof(buf) - n,
				    "%s%s", n ? "," : "",
				    pmr_sim_ideal_name(1u << b));
		if ((rc = pmr_write_meta(w, "ideal", buf)) != 0)
			return rc;
		/* the machine idealized: multisim's runs share it */
		snprintf(buf, sizeof(buf), "%016" PRIx64,
		    pmr_sim_config_digest(base));
		if ((rc = pmr_write_meta(w, "base-config-digest", buf)) != 0)
			return rc;
	}
	if (o->truth) {
		snprintf(buf, sizeof(buf), "delta=%u", o->delta);
		if ((rc = pmr_write_meta(w, "truth", buf)) != 0)
			return rc;
	}
	if (o->pm != PMR_SIM_PM_OFF && !ibs) {
		snprintf(buf, sizeof(buf), "mode=%s S=%" PRIu64 " W=%u "
		    "dist=%s J=%" PRIu64 " rearm=%s irq=%u select=%s",
		    o->pm == PMR_SIM_PM_PAIRED ? "paired" : "single", o->pm_s,
		    o->pm_w,
		    o->pm_dist == PMR_SIM_DIST_UNIFORM ? "uniform" : "geom",
		    o->pm_jitter,
		    o->pm_rearm == PMR_SIM_REARM_SELECT ? "select" :
		    "interrupt", o->pm_irq, o->pm_select == PMR_SIM_SELECT_OPPORTUNITY ?
		    "opportunity" : "fetch");
		if ((rc = pmr_write_meta(w, "profileme", buf)) != 0)
			return rc;
	}
	if (o->shotgun) {
		snprintf(buf, sizeof(buf), "sig=%" PRIu64 " len=%u prefix=%u "
		    "det=%" PRIu64 " ctx=%u", o->sg_sig, o->sg_len,
		    o->sg_prefix, o->sg_det, o->sg_ctx);
		if ((rc = pmr_write_meta(w, "shotgun", buf)) != 0)
			return rc;
	}
	if (o->skip > 0) {	/* a window: where, how warm, its seed */
		snprintf(buf, sizeof(buf), "skip=%" PRIu64 " warm-caches=%"
		    PRIu64 " seed=%" PRIu64, o->skip, o->warm, o->seed);
		if ((rc = pmr_write_meta(w, "skip", buf)) != 0)
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
	const char *path, *cfgfile = NULL;
	char msg[512];
	char **sets = NULL;
	size_t nsets = 0, i;
	int ch, rc, print_config = 0, fmt = PMR_TF_AUTO, status = 0;
	int e = 0;

	pmr_cli_init("pmsim", synopsis, help);
	pmr_common_init(&com);
	pmr_sim_opts_init(&o);
	if (pmr_sim_config_preset(&cfg, "alpha21264") != PMR_OK)
		errx(1, "no default machine");
	while ((ch = getopt_long(argc, argv, "c:F:m:O:" PMR_COMMON_SHORTOPTS,
	    long_opts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			cfgfile = optarg;
			break;
		case 'm':
			if (pmr_sim_config_preset(&cfg, optarg) != PMR_OK)
				pmr_cli_pick("--machine", optarg,
				    preset_names());
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
			if (o.pm_select == PMR_SIM_SELECT_MAPPED)
				pmr_cli_misuse("--profileme and --sampler=ibs "
				    "exclude each other");
			parse_pm(&o, optarg);
			break;
		case O_SAMPLER:
			if (o.pm != PMR_SIM_PM_OFF &&
			    strncmp(optarg, "ibs", 3) == 0)
				pmr_cli_misuse("--profileme and --sampler=ibs "
				    "exclude each other");
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
			o.delta = (unsigned)pmr_cli_num("--delta", optarg, 0,
			    65536);
			break;
		case O_WINDOW:
			o.win_len = (unsigned)pmr_cli_num("--window", optarg, 1,
			    1 << 20);
			break;
		case O_EVENTS:
			o.events = pmr_cli_mask("--events", optarg,
			    event_byname);
			break;
		case O_IDEAL:
			/* "none" names the base run, so that a driver
			 * (icost --subsets) can name every subset */
			o.ideal = strcmp(optarg, "none") == 0 ? 0 :
			    pmr_cli_mask("--ideal", optarg,
			    pmr_sim_ideal_byname);
			break;
		case O_SKIP:
			o.skip = (uint64_t)pmr_cli_num("--skip", optarg, 0,
			    INT64_MAX);
			break;
		case O_WARM_CACHES:
			o.warm = (uint64_t)pmr_cli_num("--warm-caches", optarg,
			    0, INT64_MAX);
			break;
		case O_WARMUP:
			o.warmup = (uint64_t)pmr_cli_num("--warmup", optarg, 0,
			    INT64_MAX);
			break;
		case O_MAX:
			o.max = (uint64_t)pmr_cli_num("--max", optarg, 1,
			    INT64_MAX);
			break;
		case O_INTERVAL:
			o.interval = (uint64_t)pmr_cli_num("--interval", optarg,
			    1, INT64_MAX);
			break;
		case 'F':	/* also --trace-format, its old name */
			if ((fmt = pmr_trace_format_byname(optarg)) < 0)
				pmr_cli_bad("--from", optarg, "unknown ("
				    PMR_TRACE_FORMATS ")");
			break;
		default:
			pmr_cli_common(&com, ch, optarg);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		pmr_cli_usage();
	/* settings: preset, then the file, then -O in order */
	if (cfgfile != NULL) {
		rc = pmr_sim_config_load(&cfg, cfgfile, msg, sizeof(msg));
		if (rc == PMR_EIO)
			errx(1, "cannot read '%s': %s", cfgfile,
			    pmr_strerror(rc));
		if (rc != PMR_OK)
			errx(1, "'%s': %s", cfgfile, msg);
	}
	/* a file's inconsistency is a data error (1); one that -O makes is
	 * a usage error (2), as for any other bad option value */
	if (cfgfile != NULL &&
	    pmr_sim_config_check(&cfg, msg, sizeof(msg)) != PMR_OK)
		errx(1, "'%s': bad configuration: %s", cfgfile, msg);
	for (i = 0; i < nsets; i++)
		if (pmr_sim_config_setkv(&cfg, sets[i], msg, sizeof(msg)) != 0)
			pmr_cli_misuse("-O: %s", msg);
	free(sets);
	if (pmr_sim_config_check(&cfg, msg, sizeof(msg)) != PMR_OK) {
		if (nsets > 0)
			pmr_cli_misuse("-O: %s", msg);
		warnx("bad configuration: %s", msg);
		return 1;
	}
	o.seed = com.seed;
	if (print_config) {
		pmr_sim_config_idealize(&cfg, o.ideal);
		printf("# pmsim machine %s, digest %016" PRIx64 "\n",
		    cfg.name, pmr_sim_config_digest(&cfg));
		if (pmr_sim_config_write(&cfg, stdout, 1) != 0)
			err(1, "stdout");
		pmr_cli_exit(0);
	}
	path = argc == 1 ? argv[0] : "-";
	if (argc == 0 && isatty(STDIN_FILENO))
		pmr_cli_help();
	if (pmr_common_tty_refused(&com))
		errx(1, "refusing to write a binary stream to a terminal "
		    "(use -o file or --force)");
	msg[0] = '\0';
	if ((t = pmr_trace_open(path, fmt, &e, msg, sizeof(msg))) == NULL) {
		/* the trace library's messages name the file */
		if (msg[0] != '\0')
			errx(1, "%s", msg);
		errx(1, "cannot open '%s': %s", pmr_display(path),
		    pmr_strerror(e));
	}
	if ((sim = pmr_sim_new(&cfg, &o, &e)) == NULL)
		errx(1, "cannot create the simulator: %s", pmr_strerror(e));
	w = pmr_common_writer(&com, "pmsim", argc + optind, argv - optind,
	    &e);
	if (w == NULL)
		errx(1, "cannot create '%s': %s", pmr_display(com.output),
		    pmr_strerror(e));
	/* The effective options: the META record states the W and S used. */
	if (write_meta(w, pmr_sim_config(sim), &cfg, pmr_sim_opts(sim)) != 0) {
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
	    o.max > 0 ? o.skip + o.warmup + o.max : 0, com.quiet);
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
	/* a window past the end is a mistake in its driver, not an empty
	 * result to be merged unnoticed */
	if (status == 0 && o.skip > 0 && st->warmup + st->retired == 0) {
		warnx("'%s' ends after %" PRIu64 " instructions: nothing "
		    "left after --skip=%" PRIu64, pmr_display(path),
		    pmr_sim_skipped(sim), o.skip);
		pmr_writer_abort(w);
		w = NULL;
		status = 1;
	}
	if (status == 0 && com.verbose)
		fprintf(stderr, "pmsim: %" PRIu64 " instructions, %" PRIu64
		    " cycles, IPC %.4f, %" PRIu64 " mispredicts of %" PRIu64
		    " branches, %" PRIu64 " samples, %" PRIu64 " pairs\n",
		    st->retired, st->cycles, st->ipc, st->mispredicts,
		    st->branches, st->samples, st->pairs);
	/* a sampler that was asked for and wrote nothing is said, never
	 * left for the reader of an empty profile to find */
	if (status == 0 && !com.quiet && st->samples == 0 && st->pairs == 0 &&
	    (o.pm != PMR_SIM_PM_OFF || o.sampler != PMR_SIM_SAMPLER_PROFILEME))
		warnx("warning: the %s sampler wrote no samples in %" PRIu64
		    " cycles (%" PRIu64 " instructions; S=%" PRIu64 ")",
		    o.sampler != PMR_SIM_SAMPLER_PROFILEME ?
		    sampler_names[o.sampler] :
		    o.pm_select == PMR_SIM_SELECT_MAPPED ? "ibs" : "profileme",
		    st->cycles, st->retired,
		    o.sampler != PMR_SIM_SAMPLER_PROFILEME ? o.bs_s : o.pm_s);
	/* shotgun's builder needs both kinds: a run too short for its
	 * intervals is said here, not as shotgun's "no SIG records" */
	if (status == 0 && !com.quiet && o.shotgun) {
		uint64_t sigs, dets;

		pmr_sim_shotgun_counts(sim, &sigs, &dets);
		if (sigs == 0 || dets == 0)
			warnx("warning: --shotgun wrote %" PRIu64 " signatures "
			    "(SIG, sig=%" PRIu64 ",len=%u) and %" PRIu64
			    " detailed samples (DET, det=%" PRIu64 ") in %"
			    PRIu64 " instructions: shotgun needs both (shorter "
			    "intervals or signatures)", sigs, o.sg_sig,
			    o.sg_len, dets, o.sg_det, st->retired);
	}
	if (w != NULL && pmr_writer_close(w, msg, sizeof(msg)) != 0) {
		warnx("%s: %s", pmr_outname(com.output), msg);
		status = 1;
	}
	pmr_sim_free(sim);
	pmr_trace_close(t);
	pmr_cli_exit(status);
}
