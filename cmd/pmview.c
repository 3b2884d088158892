/*
 * pmview: print any pmr stream as aligned text, TSV or JSON lines; show its
 * statistics; validate it; or turn the TSV form back into a stream (-r).
 *
 * All format knowledge is in libpmr: this file parses options, loops over
 * the inputs and reports.  See pmview(1).
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stream/pmr.h"
#include "util/cli.h"
#include "trace/trace.h"

enum mode { M_PRINT, M_STATS, M_CHECK, M_REVERSE, M_LIST };

struct opts {
	struct pmr_common c;
	enum mode mode;
	enum pmr_fmt fmt;
	int fmt_set;
	uint64_t head;		/* 0: all */
	unsigned char *want;	/* selected types, NULL for all */
	size_t nwant;
	uint32_t *wanttypes;
	FILE *out;		/* text output */
	int from;		/* enum pmr_trace_format of the inputs */
};

static const char synopsis[] =
    "usage: pmview [-cqsv] [-F from] [-f format] [-n count] [-o file] "
    "[-t types]\n"
    "              [file ...]\n"
    "       pmview -l\n"
    "       pmview -r [-qz] [--level=n] [--no-pg] [-o file] [file ...]\n";

static void
help(void)
{
	printf("usage: pmview [options] [file ...]\n"
	    "Print the records of pmr streams (raw, zstd, xz or gzip; "
	    "\"-\" or no file\nis standard input) and of ChampSim and "
	    "DynamoRIO traces, or encode the TSV\nform back into a "
	    "stream.\n\n"
	    "  -c, --check        validate every record; print a summary "
	    "line [off]\n"
	    "  -F, --from=FORMAT  input format: auto, pmr, champsim, "
	    "drmemtrace [auto]\n"
	    "  -f, --format=FMT   text, tsv or json [text on a terminal, "
	    "else tsv]\n"
	    "  -l, --list         list the record types this pmview knows, "
	    "with their fields\n"
	    "  -n, --head=N       stop after N printed records [all]\n"
	    "  -r, --reverse      read TSV lines, write a stream [off]\n"
	    "  -s, --stats        count and bytes per record type, headers, "
	    "provenance\n"
	    "  -t, --type=LIST    print only these record types, by name or "
	    "number,\n"
	    "                     comma-separated [all]\n\n%s",
	    pmr_common_help);
}

/* Parses "-t SAMPLE,PAIR,77" into o->wanttypes. */
static void
parse_types(struct opts *o, const char *arg)
{
	struct pmr_items it;
	const struct pmr_rtype *t;
	const char *item, *e;
	uint32_t ty;

	pmr_items_init(&it, arg);
	while ((item = pmr_items_next(&it)) != NULL) {
		if ((t = pmr_rtype_byname(item)) != NULL)
			ty = t->type;
		else {
			/* type 0 is invalid: no record has it */
			ty = (uint32_t)pmr_strtonum(item, 1, UINT32_MAX, &e);
			if (e != NULL)
				pmr_cli_bad("--type", item, "unknown (pmview -l "
				    "lists the types)");
		}
		o->wanttypes = realloc(o->wanttypes,
		    (o->nwant + 1) * sizeof(*o->wanttypes));
		if (o->wanttypes == NULL)
			err(1, NULL);
		o->wanttypes[o->nwant++] = ty;
	}
	if (o->nwant == 0)
		pmr_cli_bad("--type", arg, "empty");
}

static int
wanted(const struct opts *o, uint32_t type)
{
	size_t i;

	if (o->nwant == 0)
		return 1;
	for (i = 0; i < o->nwant; i++)
		if (o->wanttypes[i] == type)
			return 1;
	return 0;
}

/* -l: prints the registry, one line per type and per field. */
static void
list_types(void)
{
	static const char *kinds[] = { "?", "u8", "u16", "u32", "u64", "x64",
		"i64", "f64", "str", "blob", "a64" };
	const struct pmr_rtype *t;
	unsigned i, k;

	printf("#type\tnumber\tname\tdescription\n"
	    "#field\ttype\tname\tkind\tsince\tdescription\n");
	for (i = 0; (t = pmr_rtype_at(i)) != NULL; i++) {
		printf("type\t%" PRIu32 "\t%s\t%s\n", t->type, t->name,
		    t->desc);
		for (k = 0; k < t->nfields; k++) {
			const struct pmr_field *f = &t->fields[k];

			printf("field\t%s\t%s\t%s\t%d.%u\t%s\n", t->name,
			    f->name, f->kind < 11 ? kinds[f->kind] : "?",
			    PMR_VERSION_MAJOR, f->since, f->desc);
		}
	}
}

/* Opens one input: a pmr stream, or a foreign trace converted to records.
 * Returns the reader or NULL (reported). */
static struct pmr_reader *
open_input(const struct opts *o, const char *path)
{
	struct pmr_reader *r;
	char eb[512];
	int e = 0;

	eb[0] = '\0';
	r = pmr_trace_reader_open(path, o->from, PMR_RD_FRAMING, &e, eb,
	    sizeof(eb));
	if (r == NULL) {
		if (eb[0] != '\0')
			warnx("%s", eb);
		else
			warnx("cannot open '%s': %s", pmr_display(path),
			    pmr_strerror(e));
	}
	return r;
}

/* Prints the records of one input.  Returns 0 or 1 (error reported);
 * *left counts down --head. */
static int
print_file(const struct opts *o, const char *path, uint64_t *left)
{
	struct pmr_reader *r;
	struct pmr_rec rec;
	unsigned char seen[256] = { 0 };
	const char *why = NULL;
	int ret, status = 0;

	if ((r = open_input(o, path)) == NULL)
		return 1;
	while (o->head == 0 || *left > 0) {
		if ((ret = pmr_reader_next(r, &rec)) <= 0) {
			if (ret < 0) {
				fflush(o->out);
				warnx("'%s': %s", pmr_display(path),
				    pmr_reader_errmsg(r));
				status = 1;
			}
			break;
		}
		if (!wanted(o, rec.type))
			continue;
		if (pmr_rec_print(o->out, o->fmt, &rec, seen, &why) != 0) {
			fflush(o->out);
			warnx("'%s': record %" PRIu64 ": corrupt %s record "
			    "(field %s)", pmr_display(path), rec.index,
			    pmr_rtype_find(rec.type)->name, why);
			status = 1;
			break;
		}
		if (o->head > 0)
			(*left)--;
	}
	pmr_reader_close(r);
	return status;
}

struct tstat {
	uint32_t type;
	uint64_t count, bytes;
};

static int
cmp_tstat(const void *a, const void *b)
{
	const struct tstat *x = a, *y = b;

	return x->type < y->type ? -1 : x->type > y->type;
}

static const char *codec_names[] = { "raw", "zstd", "xz", "gzip" };

/* --stats and --check of one input.  Returns 0 or 1. */
static int
scan_file(const struct opts *o, const char *path)
{
	struct pmr_reader *r;
	struct pmr_rec rec;
	struct tstat *ts = NULL;
	size_t nts = 0, i;
	uint64_t nrec = 0, bytes = 0, nstreams = 0;
	const char *why = NULL;
	char buf[2048];
	int ret, status = 0;
	enum pmr_codec codec = PMR_C_RAW;
	FILE *out = o->out;

	if ((r = open_input(o, path)) == NULL)
		return 1;
	if (o->mode == M_STATS)
		fprintf(out, "file\t%s\n", pmr_display(path));
	for (;;) {
		if ((ret = pmr_reader_next(r, &rec)) <= 0) {
			if (ret < 0) {
				fflush(o->out);
				warnx("'%s': %s", pmr_display(path),
				    pmr_reader_errmsg(r));
				status = 1;
			}
			break;
		}
		if (nrec == 0)
			codec = pmr_reader_codec(r);
		if (rec.type == PMR_REC_HEADER) {
			nstreams++;
			if (o->mode == M_STATS) {
				const struct pmr_header *h =
				    pmr_reader_header(r);

				fprintf(out, "stream\t%" PRIu64 "\tversion "
				    "%d.%u\tcreator %.*s\n", nstreams,
				    PMR_VERSION_MAJOR, h->minor,
				    (int)h->creator.n,
				    (const char *)h->creator.p);
			}
			continue;
		}
		if (pmr_rtype_find(rec.type) != NULL) {
			union {
				uint64_t a;
				unsigned char b[512];
			} u;

			if (pmr_rec_decode(&rec, u.b, &why) != 0) {
				fflush(o->out);
				warnx("'%s': record %" PRIu64 ": corrupt %s "
				    "record (field %s)", pmr_display(path),
				    rec.index, pmr_rtype_find(rec.type)->name,
				    why);
				status = 1;
				break;
			}
			if (rec.type == PMR_REC_PROV && o->mode == M_STATS) {
				struct pmr_prov *pv = (struct pmr_prov *)u.b;

				snprintf(buf, sizeof(buf), "%" PRIu64,
				    pv->seed);
				fprintf(out, "prov\t%.*s %.*s\tseed %s\t%.*s\n",
				    (int)pv->prog.n, (const char *)pv->prog.p,
				    (int)pv->version.n,
				    (const char *)pv->version.p,
				    (pv->flags & 1) ? buf : "-",
				    (int)pv->cmdline.n,
				    (const char *)pv->cmdline.p);
			}
		}
		if (rec.type == PMR_REC_END)
			continue;
		nrec++;
		bytes += rec.len + 8;
		for (i = 0; i < nts; i++)
			if (ts[i].type == rec.type)
				break;
		if (i == nts) {
			if ((ts = realloc(ts, (nts + 1) * sizeof(*ts))) ==
			    NULL)
				err(1, NULL);
			ts[nts].type = rec.type;
			ts[nts].count = ts[nts].bytes = 0;
			nts++;
		}
		ts[i].count++;
		ts[i].bytes += rec.len + 8;
	}
	if (o->mode == M_STATS && status == 0) {
		qsort(ts, nts, sizeof(*ts), cmp_tstat);
		fprintf(out, "codec\t%s\nstreams\t%" PRIu64 "\nrecords\t%"
		    PRIu64 "\nrecord_bytes\t%" PRIu64 "\nfile_bytes\t%"
		    PRIu64 "\n", codec_names[codec], nstreams, nrec, bytes,
		    pmr_reader_inbytes(r));
		fprintf(out, "#type\tname\tcount\tbytes\tbytes_per_record\n");
		for (i = 0; i < nts; i++) {
			const struct pmr_rtype *t = pmr_rtype_find(ts[i].type);
			char num[16];

			snprintf(num, sizeof(num), "%" PRIu32, ts[i].type);
			fprintf(out, "type\t%s\t%" PRIu64 "\t%" PRIu64
			    "\t%.1f\n", t ? t->name : num, ts[i].count,
			    ts[i].bytes, (double)ts[i].bytes /
			    (double)ts[i].count);
		}
	} else if (o->mode == M_CHECK && status == 0 && !o->c.quiet)
		fprintf(out, "%s: ok, %" PRIu64 " records in %" PRIu64
		    " stream%s\n", pmr_display(path), nrec, nstreams,
		    nstreams == 1 ? "" : "s");
	free(ts);
	pmr_reader_close(r);
	return status;
}

/* -r: encodes TSV lines from the inputs into one stream. */
static int
reverse(const struct opts *o, int nfiles, char **files, int argc,
    char **argv)
{
	struct pmr_writer *w;
	unsigned char *buf;
	char *line = NULL, ebuf[256];
	size_t cap = 0;
	int e = 0, i, status = 0;

	if (pmr_common_tty_refused(&o->c))
		errx(1, "refusing to write a binary stream to a terminal "
		    "(use -o file or --force)");
	if ((buf = malloc(PMR_REC_MAX)) == NULL)
		err(1, NULL);
	if ((w = pmr_common_writer(&o->c, "pmview", argc, argv, &e)) == NULL)
		errx(1, "cannot create '%s': %s", pmr_display(o->c.output),
		    pmr_strerror(e));
	for (i = 0; i < (nfiles ? nfiles : 1) && status == 0; i++) {
		const char *path = nfiles ? files[i] : "-";
		FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
		uint64_t lineno = 0;
		ssize_t n;

		if (f == NULL) {
			warn("cannot open '%s'", path);
			status = 1;
			break;
		}
		while ((n = getline(&line, &cap, f)) > 0) {
			uint32_t type;
			int len;

			lineno++;
			if (strncmp(line, "HEADER\t", 7) == 0 ||
			    strncmp(line, "END\t", 4) == 0)
				continue;	/* the writer makes its own */
			len = pmr_rec_parse(line, &type, buf, PMR_REC_MAX - 8,
			    ebuf, sizeof(ebuf));
			if (len < 0 && ebuf[0] == '\0')
				continue;
			if (len < 0) {
				warnx("'%s', line %" PRIu64 ": %s",
				    pmr_display(path), lineno, ebuf);
				status = 1;
				break;
			}
			if (pmr_write_raw(w, type, buf, (uint32_t)len) != 0) {
				warnx("%s", pmr_writer_errmsg(w));
				status = 1;
				break;
			}
		}
		if (ferror(f)) {
			warn("'%s'", pmr_display(path));
			status = 1;
		}
		if (f != stdin)
			fclose(f);
	}
	free(line);
	free(buf);
	if (status != 0) {
		pmr_writer_abort(w);
		return status;
	}
	if (pmr_writer_close(w, ebuf, sizeof(ebuf)) != 0) {
		warnx("'%s': %s", pmr_display(o->c.output), ebuf);
		return 1;
	}
	return 0;
}

int
main(int argc, char *argv[])
{
	static const char *const fmt_names[] = { "text", "tsv", "json", NULL };
	static const struct option long_opts[] = {
		{ "check", no_argument, NULL, 'c' },
		{ "format", required_argument, NULL, 'f' },
		{ "from", required_argument, NULL, 'F' },
		{ "head", required_argument, NULL, 'n' },
		{ "list", no_argument, NULL, 'l' },
		{ "reverse", no_argument, NULL, 'r' },
		{ "stats", no_argument, NULL, 's' },
		{ "type", required_argument, NULL, 't' },
		PMR_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct opts o;
	struct pmr_textout tout;
	int ch, i, status = 0;
	uint64_t left;

	pmr_cli_init("pmview", synopsis, help);
	memset(&o, 0, sizeof(o));
	pmr_common_init(&o.c);
	while ((ch = getopt_long(argc, argv, "cF:f:ln:rst:" PMR_COMMON_SHORTOPTS,
	    long_opts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			o.mode = M_CHECK;
			break;
		case 'f':
			o.fmt_set = 1;
			/* the order of enum pmr_fmt */
			o.fmt = (enum pmr_fmt)pmr_cli_pick("--format", optarg,
			    fmt_names);
			break;
		case 'F':
			if ((o.from = pmr_trace_format_byname(optarg)) < 0)
				pmr_cli_bad("--from", optarg, "unknown ("
				    PMR_TRACE_FORMATS ")");
			break;
		case 'n':
			o.head = (uint64_t)pmr_cli_num("--head", optarg, 1,
			    LLONG_MAX);
			break;
		case 'l':
			o.mode = M_LIST;
			break;
		case 'r':
			o.mode = M_REVERSE;
			break;
		case 's':
			o.mode = M_STATS;
			break;
		case 't':
			parse_types(&o, optarg);
			break;
		default:
			pmr_cli_common(&o.c, ch, optarg);
		}
	}
	argc -= optind;
	argv += optind;
	if (o.mode == M_LIST) {
		list_types();
		goto out;
	}
	if (argc == 0 && isatty(STDIN_FILENO))
		pmr_cli_help();
	if (o.mode == M_REVERSE) {
		status = reverse(&o, argc, argv, argc + optind,
		    argv - optind);
		goto out;
	}
	if ((i = pmr_textout_open(&tout, o.c.output)) != PMR_OK)
		errx(1, "cannot create '%s': %s", o.c.output, pmr_strerror(i));
	o.out = tout.f;
	if (!o.fmt_set)
		o.fmt = isatty(fileno(o.out)) ? PMR_FMT_TEXT : PMR_FMT_TSV;
	setvbuf(o.out, NULL, _IOFBF, 1 << 20);
	left = o.head;
	for (i = 0; i < (argc ? argc : 1); i++) {
		const char *path = argc ? argv[i] : "-";

		if (o.mode == M_PRINT) {
			status |= print_file(&o, path, &left);
			if (o.head > 0 && left == 0)
				break;
		} else
			status |= scan_file(&o, path);
	}
	/* A dump that stopped on an error is not left as if complete. */
	if ((i = pmr_textout_close(&tout, status == 0)) != PMR_OK)
		errx(1, "'%s': %s", o.c.output, pmr_strerror(i));
out:
	free(o.wanttypes);
	pmr_cli_exit(status);
}
