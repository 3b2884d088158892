/*
 * shotgun: shotgun profiling's graph builder (Fields, Bodik, Hill, Newburn,
 * MICRO-36 2003, §5): reads the SIG and DET records of pmsim --shotgun and
 * the program of the trace the run read, and writes graph fragments as
 * GNODE records, which icost reads as it reads pmsim --graph's.
 *
 * The assembly lives in lib/shotgun/; this file reads the inputs, checks
 * them and writes the output.  See shotgun(1).
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "shotgun/shotgun.h"
#include "sym/images.h"
#include "sym/sym.h"
#include "sim/sim.h"
#include "stream/pmr.h"
#include "trace/trace.h"
#include "util/cli.h"

enum {
	O_SIG_LEN = PMR_OPT_PRIVATE, O_CTX, O_BITS, O_ORACLE, O_COVERAGE,
	O_EVERY, O_LOOKAHEAD, O_KEEP, O_STATS, O_SYSROOT, O_STRATA,
	O_RESYNC, O_WARM, O_WP, O_CALIB, O_PIECES
};

static const char synopsis[] =
    "usage: shotgun [-qv] [-n fragments] [-p trace | --sysroot=dir] [-o file] "
    "[--bits=1|2] [--ctx=c]\n"
    "               [--coverage] [--oracle] [--sig-len=n] [--seed=n] "
    "[file]\n";

static void
help(void)
{
	printf("usage: shotgun [options] [file]\n"
	    "Shotgun profiling's graph builder (Fields et al., MICRO-36): "
	    "from the SIG and\nDET records of pmsim --shotgun (file or "
	    "standard input) and the program of\nthe trace the run read, "
	    "graph fragments as GNODE records for icost.\n\n"
	    "  -p, --program=TRACE  the trace the run read (pmr, ChampSim, "
	    "drmemtrace): its\n"
	    "                       static instructions, and the true path "
	    "for the checks;\n"
	    "                       without it, the binaries the IMAGE "
	    "records name, decoded\n"
	    "      --sysroot=DIR    look those up under DIR\n"
	    "  -n, --fragments=N    good fragments to build [1000]\n"
	    "      --every          each signature once, in order, instead "
	    "of -n at random\n"
	    "      --sig-len=N      instructions of each signature used "
	    "[all]\n"
	    "      --ctx=C          match the DETs' context over +-C "
	    "instructions [10]\n"
	    "      --bits=1|2       signature bits compared and checked "
	    "[2]\n"
	    "      --oracle         the true path, and each instruction's own "
	    "DET if sampled\n"
	    "      --lookahead=K    an indirect target: the one the next K "
	    "bits agree with\n"
	    "                       longest (0: the best match alone) [64]\n"
	    "      --keep=PCT       too few whole fragments: keep one that "
	    "cannot go on up\n"
	    "                       to its last choice if PCT%% of it or "
	    "more (0: never) [50]\n"
	    "      --strata=K       signatures drawn by K strata of their "
	    "I-miss bits, each\n"
	    "                       its share of the fragments (0: uniformly, "
	    "as the paper) [8]\n"
	    "      --resync=PCT     a walk that cannot go on starts again at "
	    "the next anchor\n"
	    "                       if PCT%% of the signature or more is "
	    "left (0: never) [50]\n"
	    "      --pieces=N       keep what a walk built before it could "
	    "not go on, if N\n"
	    "                       nodes past --warm, and go on from the "
	    "next anchor (0: no) [800]\n"
	    "      --warm=N         -n and the strata count the nodes past "
	    "icost --warm N of\n"
	    "                       each fragment [1280]\n"
	    "      --wp=WAY         the wrong path's prefetch cycles: as the "
	    "sample has them\n"
	    "                       (sample), or at the DETs' rate on the nodes "
	    "that can\n"
	    "                       have them (rate) [sample]\n"
	    "      --calibrate=PCT  then more fragments rich in I-side "
	    "stalls, up to PCT%%\n"
	    "                       more nodes, until they stall as the DETs "
	    "(0: never) [50]\n"
	    "      --stats=FILE     the counters (key=value, as META "
	    "shotgun-stats) into FILE\n"
	    "      --coverage       instead of the stream, the per-pc sample "
	    "coverage (text;\n"
	    "                       -f tsv)\n"
	    "  -f, --format=FMT     --coverage: text or tsv [text]\n\n%s",
	    pmr_common_help);
}

static struct pmr_common com;

/* One line on stderr, exit 1 (err(3) names the program). */
#define die(...) errx(1, __VA_ARGS__)
/* fewer kept signatures than this, each drawn twice or more, are
 * warned of */
#define SIGS_FEW 30

/* The META records of the run, passed on (the machine for icost). */
struct metas {
	struct pmr_meta *m;
	unsigned char **own;
	size_t n;
};

static void
meta_keep(struct metas *ms, const struct pmr_meta *m)
{
	unsigned char *k, *v;

	if ((ms->m = realloc(ms->m, (ms->n + 1) * sizeof(*ms->m))) == NULL ||
	    (ms->own = realloc(ms->own, 2 * (ms->n + 1) *
	    sizeof(*ms->own))) == NULL ||
	    (k = malloc(m->key.n + 1)) == NULL ||
	    (v = malloc(m->value.n + 1)) == NULL)
		die("out of memory");
	memcpy(k, m->key.p, m->key.n);
	memcpy(v, m->value.p, m->value.n);
	ms->m[ms->n].key.p = k;
	ms->m[ms->n].key.n = m->key.n;
	ms->m[ms->n].value.p = v;
	ms->m[ms->n].value.n = m->value.n;
	ms->own[2 * ms->n] = k;
	ms->own[2 * ms->n + 1] = v;
	ms->n++;
}

static int
meta_is(const struct pmr_meta *m, const char *key)
{
	return m->key.n == strlen(key) && memcmp(m->key.p, key, m->key.n) == 0;
}

/* What the emit callback writes into. */
struct out {
	struct pmr_writer *w;
	uint32_t stride;	/* seq step between fragments (> longest) */
};

static int
emit(void *arg, const struct pmr_sim_gnode *n, uint64_t frag, uint32_t pos)
{
	struct out *o = arg;
	struct pmr_sim_gnode g = *n;

	/* a seq gap starts each fragment (icost --fragments) */
	g.seq = frag * o->stride + pos;
	return pmr_write(o->w, PMR_REC_GNODE, &g);
}

/* The binaries of the IMAGE records, when no trace gives the program
 * (lib/sym/images: opened at the image's file offset, build-id checked). */
struct bin {
	struct pmr_images *im;
	size_t n, seen;		/* readable, named */
	struct pmr_insn_decoder *dec;
};

/* Adds the file an IMAGE record maps (under sysroot), opening it now:
 * another build than the traced one is an error, a file that cannot be
 * read is said. */
static void
bin_add(struct bin *b, const struct pmr_image *im, const char *sysroot)
{
	size_t had = pmr_images_count(b->im), got;
	unsigned char c;
	int rc;

	b->seen++;
	if (pmr_images_add(b->im, im) != 0)
		die("out of memory");
	if (pmr_images_count(b->im) == had)
		return;		/* the same image again */
	rc = pmr_images_read(b->im, had, im->start, &c, 0, &got);
	if (rc == PMR_EBUILDID)
		die("'%.*s': %s", (int)im->path.n, (const char *)im->path.p,
		    pmr_sym_strerror(rc));
	if (rc != 0 && rc != PMR_EINVAL) {
		fprintf(stderr, "shotgun: warning: '%.*s'%s%s: %s: its pcs "
		    "are not in the program\n", (int)im->path.n,
		    (const char *)im->path.p, sysroot != NULL ? " under " :
		    "", sysroot != NULL ? sysroot : "", pmr_sym_strerror(rc));
		return;
	}
	b->n++;
}

/* The builder's decoder: the instruction at pc, from the image that maps
 * it (pmr_shotgun_set_fetch). */
static int
fetch_bin(void *arg, uint64_t pc, struct pmr_sinsn *si)
{
	struct bin *b = arg;
	unsigned char buf[16];
	long i = pmr_images_find(b->im, pc);
	size_t got;

	if (i < 0 || pmr_images_read(b->im, (size_t)i, pc, buf, sizeof(buf),
	    &got) != 0 || got == 0 ||
	    pmr_insn_decode(b->dec, pc, buf, got, si) <= 0)
		return 1;
	return 0;
}

/* The warning of a fragments' mix of mispredicts or D-side misses that
 * is not the DETs' (the run's): one line for both. */
static void
mix_warn(const struct pmr_shotgun_stats *st)
{
	char a[96] = "", b[96] = "";

	if (st->misp_off != 0)
		snprintf(a, sizeof(a), "%.1f mispredicts a 1000 counted nodes "
		    "(the DETs %.1f)", st->misp_kept, st->misp_det);
	if (st->dmiss_off != 0)
		snprintf(b, sizeof(b), "%.1f D-side misses (the DETs %.1f)",
		    st->dmiss_kept, st->dmiss_det);
	fprintf(stderr, "shotgun: warning: the fragments have %s%s%s: the "
	    "windows that assemble are not the run's mix, and the costs of "
	    "%s are off by it\n", a, *a && *b ? " and " : "", b,
	    *a && *b ? "both" : *a ? "mispredicts" : "D-side misses");
}

/* The counters as one line (stderr) or a META value. */
static void
stats_text(const struct pmr_shotgun_stats *st, char *buf, size_t len,
    int meta)
{
	size_t n;
	unsigned k;

	n = (size_t)snprintf(buf, len, meta ? "sigs=%" PRIu64 " dets=%"
	    PRIu64 " dets_nopc=%" PRIu64 " tried=%" PRIu64 " kept=%" PRIu64
	    " truncated=%" PRIu64 " pieces=%" PRIu64 " kept_whole=%" PRIu64
	    " worth=%" PRIu64 " sigs_tried=%" PRIu64 " sigs_kept=%" PRIu64 :
	    "%" PRIu64
	    " SIG, %" PRIu64 " DET (%" PRIu64 " of pcs not in the program); "
	    "fragments: %" PRIu64 " tried, %" PRIu64 " kept (%" PRIu64
	    " cut at a choice, %" PRIu64 " pieces, %" PRIu64 " whole from "
	    "their signatures' start; %" PRIu64
	    " whole fragments' worth; %" PRIu64 " signatures drawn, %"
	    PRIu64 " of them kept)",
	    st->sigs, st->dets, st->dets_nopc, st->tried, st->kept,
	    st->truncated, st->pieces, st->kept_whole, st->worth,
	    st->sigs_tried, st->sigs_kept);
	for (k = 0; k < PMR_SG_NABORT && n < len; k++)
		n += (size_t)snprintf(buf + n, len - n, meta ? " %s=%" PRIu64 :
		    ", %s %" PRIu64, pmr_shotgun_abort_name(k), st->aborted[k]);
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, meta ? " nodes=%"
		    PRIu64 " missing=%" PRIu64 " matched=%" PRIu64 " ties=%"
		    PRIu64 " own_miss=%" PRIu64 " score=%.4f indirect=%" PRIu64
		    " proxied=%" PRIu64 " lookaheads=%" PRIu64 " changed=%" PRIu64
		    " grafted_miss=%" PRIu64 " grafted_hit=%" PRIu64
		    " grafted_level=%" PRIu64 " stripped_i=%" PRIu64
		    " grafted_dir=%" PRIu64
		    " merged=%" PRIu64 " unmerged=%" PRIu64 :
		    "; nodes %" PRIu64 ", without a sample %"
		    PRIu64 ", matched %" PRIu64 " (ties %" PRIu64 ", own bits "
		    "unmatched %" PRIu64 ", mean score %.3f), indirect targets %"
		    PRIu64 ", proxies %" PRIu64 ", look-aheads %" PRIu64
		    " (%" PRIu64 " changed the target); own b2 against the "
		    "sample's: misses grafted %" PRIu64 ", removed %" PRIu64
		    ", of the other level %" PRIu64 ", I-side misses off a "
		    "line's start dropped %" PRIu64
		    ", branch outcomes of a minority direction %" PRIu64
		    ", partial misses made to wait for the latest miss %" PRIu64
		    " or given a miss's cycles %" PRIu64,
		    st->nodes, st->missing, st->matched, st->ties, st->own_miss,
		    st->matched ? st->score / (double)st->matched : 0.0,
		    st->indirect, st->proxied, st->lookaheads,
		    st->lookahead_changed, st->grafted_miss, st->grafted_hit,
		    st->grafted_level, st->stripped_i, st->grafted_dir,
		    st->merged, st->unmerged);
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, meta ? " b2_all=%.2f"
		    " b2_kept=%.2f i_all=%.2f i_kept=%.2f" : "; misses (b2) a "
		    "1000 instructions: %.2f in the signatures, %.2f in the "
		    "fragments; b2 without b1: %.2f and %.2f",
		    st->sig_insns ? 1000.0 * (double)st->sig_b2 /
		    (double)st->sig_insns : 0.0, st->nodes ? 1000.0 *
		    (double)st->kept_b2 / (double)st->nodes : 0.0,
		    st->sig_insns ? 1000.0 * (double)st->sig_i /
		    (double)st->sig_insns : 0.0, st->nodes ? 1000.0 *
		    (double)st->kept_i / (double)st->nodes : 0.0);
	if (n < len) {
		uint64_t nd = st->dets - st->dets_nopc;

		if (meta)
			n += (size_t)snprintf(buf + n, len - n, " wp_dets=%"
			    PRIu64 " wp_kept=%" PRIu64, st->wp_dets,
			    st->wp_kept);
		else
			n += (size_t)snprintf(buf + n, len - n, "; the wrong "
			    "path's prefetch cycles a 1000 instructions: %.1f "
			    "in the DETs, %.1f in the fragments", nd ? 1000.0 *
			    (double)st->wp_dets / (double)nd : 0.0, st->nodes ?
			    1000.0 * (double)st->wp_kept / (double)st->nodes :
			    0.0);
	}
	if (st->calib_extra + st->calib_rejected > 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, meta ? " calib_before="
		    "%.2f calib_extra=%" PRIu64 " calib_rejected=%" PRIu64 :
		    "; calibration: I-side stall cycles %.2f a 1000 counted "
		    "nodes before, %" PRIu64 " counted nodes added, %" PRIu64
		    " fragments not kept", st->calib_before, st->calib_extra,
		    st->calib_rejected);
	if (st->calib_target > 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, meta ? " calib_target="
		    "%.2f calib_after=%.2f" : "; I-side stall cycles a 1000: "
		    "%.2f in the DETs, %.2f in the fragments' counted nodes",
		    st->calib_target, st->calib_after);
	if (st->misp_det > 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, meta ? " misp_det="
		    "%.2f misp_kept=%.2f" : "; mispredicts a 1000: %.2f in "
		    "the DETs, %.2f in the fragments' counted nodes",
		    st->misp_det, st->misp_kept);
	if (st->dmiss_det > 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, meta ? " dmiss_det="
		    "%.2f dmiss_kept=%.2f" : "; D-side misses a 1000: %.2f in "
		    "the DETs, %.2f in the fragments' counted nodes",
		    st->dmiss_det, st->dmiss_kept);
	if (st->strata > 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, meta ? " strata=%"
		    PRIu64 " strata_out=%" PRIu64 " strata_moved=%" PRIu64
		    " strata_short=%" PRIu64 : "; strata %" PRIu64 ", %"
		    PRIu64 " given up (%" PRIu64 " fragments moved to "
		    "neighbours), %" PRIu64 " fragments short", st->strata,
		    st->strata_out, st->strata_moved, st->strata_short);
	if (st->resyncs > 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, meta ? " resyncs=%"
		    PRIu64 " resync_kept=%" PRIu64 " resync_true=%" PRIu64 "/%"
		    PRIu64 : "; walks started again at an anchor %" PRIu64
		    ", fragments kept from one %" PRIu64 ", anchors on the true "
		    "pc %" PRIu64 "/%" PRIu64, st->resyncs, st->resync_kept,
		    st->resync_true, st->resync_checked);
	if (st->return_sites > 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, meta ? " return_sites=%"
		    PRIu64 " ret_unsampled=%" PRIu64 : "; returns on an empty "
		    "stack looked up at their callers' return sites %" PRIu64
		    " times, %" PRIu64 " taken where the return's samples' "
		    "targets disagreed with the signature", st->return_sites,
		    st->ret_unsampled);
	if (st->truth > 0 && n < len)
		snprintf(buf + n, len - n, meta ? " truth=%" PRIu64 " errant=%"
		    PRIu64 " detected=%" PRIu64 " consistent=%" PRIu64
		    " off_nodes=%" PRIu64 " indirect_true=%" PRIu64 "/%" PRIu64 :
		    "; against the trace: %" PRIu64 " checked, %" PRIu64
		    " errant, %" PRIu64 " of them detected, %" PRIu64
		    " consistent kept, %" PRIu64 " nodes of the others off the "
		    "true path, indirect targets true %" PRIu64 "/%" PRIu64,
		    st->truth, st->errant, st->detected, st->consistent,
		    st->off_nodes, st->indirect_true, st->indirect_checked);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "program", required_argument, NULL, 'p' },
		{ "fragments", required_argument, NULL, 'n' },
		{ "format", required_argument, NULL, 'f' },
		{ "sig-len", required_argument, NULL, O_SIG_LEN },
		{ "ctx", required_argument, NULL, O_CTX },
		{ "bits", required_argument, NULL, O_BITS },
		{ "oracle", no_argument, NULL, O_ORACLE },
		{ "coverage", no_argument, NULL, O_COVERAGE },
		{ "every", no_argument, NULL, O_EVERY },
		{ "lookahead", required_argument, NULL, O_LOOKAHEAD },
		{ "keep", required_argument, NULL, O_KEEP },
		{ "strata", required_argument, NULL, O_STRATA },
		{ "resync", required_argument, NULL, O_RESYNC },
		{ "pieces", required_argument, NULL, O_PIECES },
		{ "warm", required_argument, NULL, O_WARM },
		{ "wp", required_argument, NULL, O_WP },
		{ "calibrate", required_argument, NULL, O_CALIB },
		{ "stats", required_argument, NULL, O_STATS },
		{ "sysroot", required_argument, NULL, O_SYSROOT },
		PMR_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	static const char *const fmt_names[] = { "text", "tsv", NULL };
	static const char *const wp_names[] = { "sample", "rate", NULL };
	struct pmr_shotgun_opts so = PMR_SHOTGUN_OPTS_CMD;
	struct pmr_sim_config cfg;
	struct pmr_shotgun *g;
	struct pmr_reader *r;
	struct pmr_rec rec;
	struct metas ms = { NULL, NULL, 0 };
	const char *program = NULL, *in, *name, *stats_file = NULL;
	const char *sysroot = NULL;
	struct bin bin = { NULL, 0, 0, NULL };
	int ch, rc, err, coverage = 0, tsv = 0, have_cfg = 0, ctx_set = 0;
	uint64_t maxseq = 0, n, skip = 0, total = 0;
	char eb[512], line[2048];
	size_t i;

	pmr_cli_init("shotgun", synopsis, help);
	pmr_common_init(&com);
	while ((ch = getopt_long(argc, argv, "p:n:f:" PMR_COMMON_SHORTOPTS,
	    longopts, NULL)) != -1)
		switch (ch) {
		case 'p':
			program = optarg;
			break;
		case 'n':
			so.fragments = (unsigned)pmr_cli_num("--fragments",
			    optarg, 1, 100000000);
			break;
		case 'f':
			tsv = pmr_cli_pick("--format", optarg, fmt_names);
			break;
		case O_SIG_LEN:
			so.sig_len = (unsigned)pmr_cli_num("--sig-len", optarg,
			    1, 100000000);
			break;
		case O_CTX:
			so.ctx = (unsigned)pmr_cli_num("--ctx", optarg, 0,
			    PMR_SIM_SG_MAXCTX);
			ctx_set = 1;
			break;
		case O_BITS:
			so.bits = (unsigned)pmr_cli_num("--bits", optarg, 1, 2);
			break;
		case O_ORACLE:
			so.oracle = 1;
			break;
		case O_COVERAGE:
			coverage = 1;
			break;
		case O_EVERY:
			so.every = 1;
			break;
		case O_STATS:
			stats_file = optarg;
			break;
		case O_SYSROOT:
			sysroot = optarg;
			break;
		case O_KEEP:
			so.keep = (uint32_t)pmr_cli_num("--keep", optarg, 0,
			    100);
			break;
		case O_CALIB:
			so.calib = (uint32_t)pmr_cli_num("--calibrate", optarg,
			    0, 1000);
			break;
		case O_WP:
			so.wp = (uint32_t)pmr_cli_pick("--wp", optarg, wp_names);
			break;
		case O_WARM:
			so.warm = (uint32_t)pmr_cli_num("--warm", optarg, 0,
			    100000000);
			break;
		case O_RESYNC:
			so.resync = (uint32_t)pmr_cli_num("--resync", optarg,
			    0, 100);
			break;
		case O_PIECES:
			so.pieces = (uint32_t)pmr_cli_num("--pieces", optarg,
			    0, 100000000);
			break;
		case O_STRATA:
			so.strata = (unsigned)pmr_cli_num("--strata", optarg,
			    0, PMR_SG_MAXSTRATA);
			break;
		case O_LOOKAHEAD:
			so.lookahead = (unsigned)pmr_cli_num("--lookahead",
			    optarg, 0, 100000);
			break;
		default:
			pmr_cli_common(&com, ch, optarg);
		}
	argc -= optind;
	argv += optind;
	if ((bin.im = pmr_images_new(sysroot)) == NULL)
		die("out of memory");
	if (argc > 1)
		pmr_cli_usage();
	if (program != NULL && sysroot != NULL)
		pmr_cli_misuse("--sysroot goes with the binaries of the IMAGE "
		    "records, not with -p");
	if (tsv && !coverage)
		pmr_cli_misuse("-f goes with --coverage: the output is a "
		    "stream of GNODE records");
	so.seed = com.seed;
	in = argc == 1 ? argv[0] : "-";
	name = pmr_display(in);

	/* the samples and the run's META records */
	if ((r = pmr_reader_open(strcmp(in, "-") ? in : NULL, 0, &err)) ==
	    NULL)
		die("%s: %s", name, pmr_strerror(err));
	g = NULL;
	while ((rc = pmr_reader_next(r, &rec)) == 1) {
		const char *why;

		if (pmr_reader_nstreams(r) > 1)
			die("%s: more than one stream: shotgun reads the "
			    "samples of one pmsim run", name);
		if (rec.type == PMR_REC_META) {
			struct pmr_meta m;

			if (pmr_rec_decode(&rec, &m, &why) != 0)
				die("%s: record %" PRIu64 ": %s", name,
				    rec.index, why);
			if (meta_is(&m, "config")) {
				rc = pmr_sim_config_text(&cfg, m.value.p,
				    m.value.n, eb, sizeof(eb));
				if (rc != 0)
					die("%s: META config: %s", name,
					    rc == PMR_ENOMEM ? pmr_strerror(rc) :
					    eb);
				have_cfg = 1;
			} else if (meta_is(&m, "skip")) {
				/* a window of the trace (pmsim --skip): its
				 * instruction 0 is the trace's skip-th */
				if (pmr_sim_window_skip(m.value.p, m.value.n,
				    &skip) != 0)
					die("%s: META skip '%.*s' names no "
					    "window", name, (int)m.value.n,
					    (const char *)m.value.p);
			} else if (meta_is(&m, "shotgun") && !ctx_set) {
				/* the DETs' context is the default window */
				const char *p = memmem(m.value.p, m.value.n,
				    "ctx=", 4);

				if (p != NULL)
					so.ctx = (unsigned)strtoul(p + 4, NULL,
					    10);
			}
			if (!meta_is(&m, "gnode"))
				meta_keep(&ms, &m);
			continue;
		}
		if (rec.type == PMR_REC_IMAGE && program == NULL) {
			struct pmr_image im;

			if (pmr_rec_decode(&rec, &im, &why) != 0)
				die("%s: record %" PRIu64 ": %s", name,
				    rec.index, why);
			bin_add(&bin, &im, sysroot);
			continue;
		}
		if (rec.type != PMR_REC_SIG && rec.type != PMR_REC_DET)
			continue;
		if (g == NULL) {
			if (!have_cfg)
				die("%s: samples without the machine (META "
				    "config): not a pmsim stream", name);
			if ((g = pmr_shotgun_new(&so, &cfg, &err)) == NULL)
				die("%s", pmr_strerror(err));
		}
		if (rec.type == PMR_REC_SIG) {
			struct pmr_sim_sig s;

			if (pmr_rec_decode(&rec, &s, &why) != 0)
				die("%s: record %" PRIu64 ": %s", name,
				    rec.index, why);
			rc = pmr_shotgun_add_sig(g, &s);
			if (s.seq + s.len > maxseq)
				maxseq = s.seq + s.len;
		} else {
			struct pmr_sim_det d;

			if (pmr_rec_decode(&rec, &d, &why) != 0)
				die("%s: record %" PRIu64 ": %s", name,
				    rec.index, why);
			rc = pmr_shotgun_add_det(g, &d);
			if (d.seq + 1 > maxseq)
				maxseq = d.seq + 1;
		}
		if (rc != 0)
			die("%s: record %" PRIu64 ": %s", name, rec.index,
			    pmr_shotgun_errmsg(g));
	}
	if (rc < 0)
		die("%s: %s", name, pmr_reader_errmsg(r));
	pmr_reader_close(r);
	if (g == NULL)
		die("%s: no SIG or DET records (pmsim --shotgun writes them)",
		    name);
	if (pmr_shotgun_stats(g)->sigs == 0)
		die("%s: no SIG records (pmsim --shotgun writes them)", name);

	/* the program, and the true path, up to the last sample; or the
	 * binaries, decoded as the builder meets their pcs */
	if (program == NULL) {
		int e2;

		if (bin.n == 0)
			die("%s: no program: -p names the trace the run read, or "
			    "the stream's IMAGE records the binaries (%s)", name,
			    bin.seen ? "none of them could be read" :
			    "it has none");
		if ((bin.dec = pmr_insn_decoder_open(PMR_ISA_X86_64, &e2)) ==
		    NULL)
			die("the x86-64 decoder: %s", pmr_strerror(e2));
		pmr_shotgun_set_fetch(g, fetch_bin, &bin);
	} else {
		struct pmr_trace *t;
		struct pmr_dinsn di;

		if ((t = pmr_trace_open(program, PMR_TF_AUTO, &err, eb,
		    sizeof(eb))) == NULL)
			die("%s", eb[0] ? eb : pmr_strerror(err));
		if (pmr_shotgun_truth_begin(g) != 0)
			die("%s", pmr_shotgun_errmsg(g));
		n = 0;
		while ((rc = pmr_trace_next(t, &di)) == 1) {
			total = di.seq + 1;
			/* before a window: its program, not its path */
			if (di.seq < skip) {
				if (pmr_shotgun_add_static(g, &di) != 0)
					die("%s", pmr_shotgun_errmsg(g));
				continue;
			}
			di.seq -= skip;
			if (di.seq >= maxseq)
				break;
			if (pmr_shotgun_add_dyn(g, &di) != 0)
				die("%s", pmr_shotgun_errmsg(g));
			n = di.seq + 1;
		}
		if (rc < 0)
			die("%s", pmr_trace_errmsg(t));
		pmr_trace_close(t);
		/* the run read no instruction the trace lacks */
		if (n < maxseq)
			die("%s: %" PRIu64 " instructions, but the samples reach "
			    "instruction %" PRIu64 ": not the trace the run read",
			    pmr_display(program), total, maxseq + skip);
	}

	if (coverage) {
		struct pmr_textout to;

		if (pmr_shotgun_build(g, NULL, NULL) != 0)
			die("%s", pmr_shotgun_errmsg(g));
		if (pmr_textout_open(&to, com.output) != 0)
			die("%s: %s", pmr_outname(com.output), strerror(errno));
		if (pmr_shotgun_coverage(g, to.f, tsv) != 0 ||
		    pmr_textout_close(&to, 1) != 0)
			die("%s: %s", pmr_outname(com.output),
			    strerror(to.werr ? to.werr : errno));
	} else {
		struct out o;
		uint32_t longest;
		char buf[256];

		if (pmr_common_tty_refused(&com))
			die("binary output to a terminal (use -o or --force)");
		o.w = pmr_common_writer(&com, "shotgun", argc + optind,
		    argv - optind, &err);
		if (o.w == NULL)
			die("%s: %s", pmr_outname(com.output),
			    pmr_strerror(err));
		longest = pmr_shotgun_longest(g);
		o.stride = longest + 1;
		err = 0;
		for (i = 0; i < ms.n && err == 0; i++)
			err = pmr_write(o.w, PMR_REC_META, &ms.m[i]);
		snprintf(buf, sizeof(buf), "fragments=%u every=%d sig-len=%u "
		    "ctx=%u bits=%u oracle=%d lookahead=%u keep=%u strata=%u "
		    "resync=%u pieces=%u warm=%u wp=%s calibrate=%u seed=%"
		    PRIu64, so.fragments, so.every, so.sig_len, so.ctx,
		    so.bits, so.oracle, so.lookahead, so.keep, so.strata,
		    so.resync, so.pieces, so.warm, wp_names[so.wp], so.calib,
		    so.seed);
		if (err == 0)
			err = pmr_write_meta(o.w, "gnode", "fragments shotgun");
		if (err == 0)
			err = pmr_write_meta(o.w, "shotgun-build", buf);
		if (err == 0)
			err = pmr_shotgun_build(g, emit, &o);
		if (err == PMR_EINVAL || err == PMR_ENOMEM ||
		    err == PMR_ECORRUPT) {
			pmr_writer_abort(o.w);
			die("%s", pmr_shotgun_errmsg(g));
		}
		if (err == 0 && pmr_shotgun_stats(g)->kept == 0) {
			pmr_writer_abort(o.w);
			stats_text(pmr_shotgun_stats(g), line, sizeof(line), 0);
			die("no fragment could be built%s (%s)", so.keep == 0 ?
			    " whole (--keep=50 keeps the first half or more of "
			    "one that cannot go on)" : "", line);
		}
		if (err == 0) {
			stats_text(pmr_shotgun_stats(g), line, sizeof(line), 1);
			err = pmr_write_meta(o.w, "shotgun-stats", line);
		}
		if (err != 0 || pmr_writer_close(o.w, eb, sizeof(eb)) != 0) {
			if (err != 0)
				pmr_writer_abort(o.w);
			die("%s: %s", pmr_outname(com.output), err != 0 ?
			    pmr_strerror(err) : eb);
		}
	}
	{
		const struct pmr_shotgun_stats *st = pmr_shotgun_stats(g);

		if (so.every && st->kept < st->tried)
			fprintf(stderr, "shotgun: warning: %" PRIu64 " of the %"
			    PRIu64 " signatures made no fragment\n", st->tried -
			    st->kept, st->tried);
		else if (!so.every && st->worth < so.fragments)
			fprintf(stderr, "shotgun: warning: %" PRIu64 " good "
			    "fragments, %" PRIu64 " whole ones' worth of the %u "
			    "asked for, after %" PRIu64 " tries\n", st->kept,
			    st->worth, so.fragments, st->tried);
		/*
		 * [ours] fragments drawn again and again from a few
		 * signatures: the paper samples signatures with
		 * replacement, so -n says how many fragments, not how many
		 * windows of the run they sample; the breakdown's sampling
		 * error is that of the windows (pmsim's default, one
		 * signature a million instructions, gives a few on a short
		 * run).  Below 30, the rule of thumb the DETs' rates use;
		 * once every signature was drawn, so that more fragments
		 * would add no window (a small -n is the user's choice).
		 */
		if (!so.every && st->sigs_kept > 0 &&
		    st->sigs_kept < SIGS_FEW &&
		    st->kept >= 2 * st->sigs_kept &&
		    st->sigs_tried == st->sigs)
			fprintf(stderr, "shotgun: warning: the %" PRIu64
			    " fragments are of %" PRIu64 " signature%s only "
			    "(each drawn %.0f times): the breakdown samples %"
			    PRIu64 " window%s of the run, however many "
			    "fragments (more signatures: a longer run, or pmsim "
			    "--shotgun=sig=M with a smaller M)\n", st->kept,
			    st->sigs_kept, st->sigs_kept == 1 ? "" : "s",
			    (double)st->kept / (double)st->sigs_kept,
			    st->sigs_kept, st->sigs_kept == 1 ? "" : "s");
		/* the paper's pcs without a sample: under 2%; far more
		 * and the nodes' latencies are borrowed */
		if (st->nodes > 0 && st->missing * 20 > st->nodes)
			fprintf(stderr, "shotgun: warning: %.1f%% of the nodes "
			    "have no sample of their pc and borrow another's "
			    "latencies: too few samples for this code (a longer "
			    "run, or denser ones: pmsim --shotgun=det=N)\n",
			    100.0 * (double)st->missing / (double)st->nodes);
		/* the fragments' I-side misses against the DETs' (the
		 * run's), after --calibrate drew what it could */
		if (st->calib_short)
			fprintf(stderr, "shotgun: warning: the fragments have "
			    "%.1f I-side stall cycles (I-cache, ITLB) a 1000 "
			    "counted nodes%s, the DETs %.1f: the code where they are "
			    "does not assemble, and what they cost is "
			    "understated%s\n", st->calib_after,
			    st->calib_extra > 0 ? " after the calibration" : "",
			    st->calib_target, so.calib == 0 ?
			    " (--calibrate draws more)" : "");
		/* the fragments' mispredicts and D-side misses against
		 * the DETs', either way */
		if (st->misp_off != 0 || st->dmiss_off != 0)
			mix_warn(st);
		/* the fragments' misses against the signatures': far
		 * fewer, and icost understates what misses cost */
		if (st->sig_insns > 0 && st->nodes > 0) {
			double all = 1000.0 * (double)st->sig_b2 /
			    (double)st->sig_insns, kept = 1000.0 *
			    (double)st->kept_b2 / (double)st->nodes;

			/* and more than chance: 3 standard errors of the
			 * mean of that many windows drawn at random */
			if (kept < 0.8 * all && all - kept >= 1.0 && all -
			    kept > 3 * st->sig_b2_sd / sqrt((double)st->kept))
				fprintf(stderr, "shotgun: warning: the fragments "
				    "have %.1f misses (b2) a 1000 instructions, "
				    "the signatures %.1f: windows with misses are "
				    "under-represented, and the costs of misses "
				    "understated%s\n", kept, all, so.strata == 0 ?
				    " (--strata draws by misses)" : "");
		}
		if (!so.every && st->truncated > 0)
			fprintf(stderr, "shotgun: warning: %" PRIu64 " whole "
			    "fragments and %" PRIu64 " from an anchor could be "
			    "built; %" PRIu64 " more are kept up to their last "
			    "choice, without the tails that could not be "
			    "assembled (cold code: its misses are "
			    "understated)\n", st->kept_whole, st->resync_kept,
			    st->truncated);
		if (st->strata_out > 0)
			fprintf(stderr, "shotgun: warning: %" PRIu64 " of the "
			    "%" PRIu64 " strata made no fragment: %" PRIu64
			    " fragments drawn from the strata nearest in misses "
			    "instead (more signatures, or --strata=0)\n",
			    st->strata_out, st->strata, st->strata_moved);
		if (com.verbose && !com.quiet) {
			stats_text(st, line, sizeof(line), 0);
			fprintf(stderr, "shotgun: %s\n", line);
		}
		if (stats_file != NULL) {
			struct pmr_textout to;

			stats_text(st, line, sizeof(line), 1);
			if (pmr_textout_open(&to, stats_file) != 0)
				die("%s: %s", stats_file, strerror(errno));
			fprintf(to.f, "%s\n", line);
			if (pmr_textout_close(&to, 1) != 0)
				die("%s: %s", stats_file, strerror(to.werr ?
				    to.werr : errno));
		}
	}
	pmr_shotgun_free(g);
	pmr_images_free(bin.im);
	if (bin.dec != NULL)
		pmr_insn_decoder_close(bin.dec);
	for (i = 0; i < 2 * ms.n; i++)
		free(ms.own[i]);
	free(ms.own);
	free(ms.m);
	pmr_cli_exit(0);
}
