/*
 * cli.c: the command line shared by every pmtools program (cli.h).
 *
 * Programs parse their own options with getopt_long and hand the common
 * ones (-o, -z, -q, -v, -h, -V, --force, --level, --no-pg, --seed) to
 * pmr_cli_common(), so that they behave the same everywhere; their own
 * option values go through pmr_cli_num(), pmr_cli_pick(), pmr_cli_mask()
 * and the comma-list iterator, so that a bad value reads the same in every
 * program.  Numbers are parsed strictly: no trailing characters, no
 * silent wrap-around.
 */
#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/cli.h"

/* The program, as pmr_cli_init() named it. */
static const char *cli_prog = "pmtools";
static const char *cli_synopsis = "";
static void (*cli_help)(void);

const char pmr_common_help[] =
    "Common options:\n"
    "  -o, --output=FILE  write to FILE instead of standard output; a name\n"
    "                     ending in .zst selects zstd compression\n"
    "  -z, --zstd         compress the output with zstd\n"
    "      --level=N      zstd compression level, 1..19 [3]\n"
    "      --force        write binary output even to a terminal\n"
    "      --no-pg        do not append a provenance (PROV) record\n"
    "      --seed=N       random seed, recorded in the PROV record [0]\n"
    "  -q, --quiet        print no progress or summary on stderr\n"
    "  -v, --verbose      print more on stderr\n"
    "  -h, --help         print this help and exit\n"
    "  -V, --version      print the version and exit\n";

/* Writes "OPT: value 'ARG' is WHY" into buf; returns buf. */
static const char *
bad_text(char *buf, size_t len, const char *opt, const char *arg,
    const char *why)
{
	char q[256];

	snprintf(buf, len, "%s: value '%s' is %s", opt,
	    pmr_quote(q, sizeof(q), arg, strlen(arg)), why);
	return buf;
}

/* Writes "WHY (min..max)" for a number out of range, else WHY. */
static const char *
range_text(char *buf, size_t len, const char *why, long long min,
    long long max)
{
	if (strcmp(why, "invalid") == 0 || max == LLONG_MAX)
		return why;
	snprintf(buf, len, "%s (%lld..%lld)", why, min, max);
	return buf;
}

void
pmr_cli_init(const char *prog, const char *synopsis, void (*help)(void))
{
	cli_prog = prog;
	cli_synopsis = synopsis;
	cli_help = help;
}

void
pmr_cli_exit(int status)
{
	if (ferror(stdout) | fclose(stdout))
		err(1, "stdout");
	exit(status);
}

void
pmr_cli_usage(void)
{
	fprintf(stderr, "%sTry '%s --help'.\n", cli_synopsis, cli_prog);
	exit(2);
}

void
pmr_cli_misuse(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
	pmr_cli_usage();
}

void
pmr_cli_bad(const char *opt, const char *arg, const char *why)
{
	char buf[512];

	warnx("%s", bad_text(buf, sizeof(buf), opt, arg, why));
	pmr_cli_usage();
}

void
pmr_cli_help(void)
{
	if (cli_help != NULL)
		cli_help();
	pmr_cli_exit(0);
}

void
pmr_cli_version(void)
{
	printf("%s (pmtools) %s\n", cli_prog, PMTOOLS_VERSION);
	pmr_cli_exit(0);
}

long long
pmr_cli_num(const char *opt, const char *arg, long long min, long long max)
{
	const char *e;
	char buf[128];
	long long v = pmr_strtonum(arg, min, max, &e);

	if (e != NULL)
		pmr_cli_bad(opt, arg, range_text(buf, sizeof(buf), e, min,
		    max));
	return v;
}

int
pmr_cli_pick(const char *opt, const char *arg, const char *const *names)
{
	char buf[512];
	size_t n;
	int i;

	for (i = 0; names[i] != NULL; i++)
		if (strcmp(arg, names[i]) == 0)
			return i;
	n = (size_t)snprintf(buf, sizeof(buf), "unknown (");
	for (i = 0; names[i] != NULL && n < sizeof(buf); i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
		    i ? ", " : "", names[i]);
	if (n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, ")");
	pmr_cli_bad(opt, arg, buf);
}

void
pmr_items_init(struct pmr_items *it, const char *arg)
{
	if ((it->copy = strdup(arg)) == NULL)
		err(1, NULL);
	it->pos = it->copy;
}

const char *
pmr_items_next(struct pmr_items *it)
{
	char *item;

	if (it->copy == NULL)
		return NULL;
	while (*it->pos == ',')
		it->pos++;
	if (*it->pos == '\0') {
		pmr_items_end(it);
		return NULL;
	}
	item = it->pos;
	it->pos += strcspn(it->pos, ",");
	if (*it->pos == ',')
		*it->pos++ = '\0';
	return item;
}

void
pmr_items_end(struct pmr_items *it)
{
	free(it->copy);
	it->copy = it->pos = NULL;
}

const char *
pmr_item_value(const char *item, const char *key)
{
	size_t n = strlen(key);

	return strncmp(item, key, n) == 0 && item[n] == '=' ? item + n + 1 :
	    NULL;
}

unsigned
pmr_cli_mask(const char *opt, const char *arg,
    unsigned (*byname)(const char *))
{
	struct pmr_items it;
	const char *item;
	unsigned m = 0, b;

	pmr_items_init(&it, arg);
	while ((item = pmr_items_next(&it)) != NULL) {
		if ((b = byname(item)) == 0)
			pmr_cli_bad(opt, item, "unknown");
		m |= b;
	}
	if (m == 0)
		pmr_cli_bad(opt, arg, "empty");
	return m;
}

const char *
pmr_display(const char *path)
{
	return path == NULL || strcmp(path, "-") == 0 ? "<stdin>" : path;
}

void
pmr_common_init(struct pmr_common *c)
{
	memset(c, 0, sizeof(*c));
	c->compress = -1;
}

/* Parses an unsigned magnitude with optional 0x prefix and k/M/G suffix.
 * Returns 0 on success with *v set. */
static int
parse_mag(const char *s, unsigned long long *v)
{
	unsigned long long n, mul = 1;
	char *end;
	int base = 10;

	if (!isdigit((unsigned char)*s))
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		if (!isxdigit((unsigned char)s[2]))
			return -1;
	}
	errno = 0;
	n = strtoull(s, &end, base);
	if (errno == ERANGE)
		return 1;
	if (base == 10 && *end != '\0' && end[1] == '\0') {
		switch (*end) {
		case 'k':
			mul = 1000;
			break;
		case 'M':
			mul = 1000000;
			break;
		case 'G':
			mul = 1000000000;
			break;
		default:
			return -1;
		}
		end++;
	}
	if (*end != '\0')
		return -1;
	if (n > ULLONG_MAX / mul)
		return 1;
	*v = n * mul;
	return 0;
}

long long
pmr_strtonum(const char *s, long long min, long long max,
    const char **errstr)
{
	unsigned long long m;
	int neg = 0, r;

	if (s == NULL) {
		*errstr = "invalid";
		return 0;
	}
	if (*s == '-') {
		neg = 1;
		s++;
	}
	r = parse_mag(s, &m);
	if (r < 0) {
		*errstr = "invalid";
		return 0;
	}
	if (r > 0 || m > (unsigned long long)LLONG_MAX) {
		*errstr = neg ? "too small" : "too large";
		return 0;
	}
	if (neg ? -(long long)m < min : (long long)m < min) {
		*errstr = "too small";
		return 0;
	}
	if (!neg && (long long)m > max) {
		*errstr = "too large";
		return 0;
	}
	*errstr = NULL;
	return neg ? -(long long)m : (long long)m;
}

uint64_t
pmr_strtou64(const char *s, const char **errstr)
{
	unsigned long long m;
	int r = s ? parse_mag(s, &m) : -1;

	if (r != 0) {
		*errstr = r < 0 ? "invalid" : "too large";
		return 0;
	}
	*errstr = NULL;
	return m;
}

int
pmr_common_opt(struct pmr_common *c, int opt, const char *arg,
    const char **errstr)
{
	static char buf[512];
	char why[64];
	const char *e;

	switch (opt) {
	case 'o':
		if (arg[0] == '\0') {
			/* refused now, not after the whole run */
			*errstr = "-o: empty file name";
			return -1;
		}
		c->output = arg;
		return 1;
	case 'z':
		c->compress = 1;
		return 1;
	case 'q':
		c->quiet = 1;
		return 1;
	case 'v':
		c->verbose++;
		return 1;
	case PMR_OPT_FORCE:
		c->force = 1;
		return 1;
	case PMR_OPT_NO_PG:
		c->no_pg = 1;
		return 1;
	case PMR_OPT_LEVEL:
		c->level = (int)pmr_strtonum(arg, 1, 19, &e);
		if (e != NULL) {
			*errstr = bad_text(buf, sizeof(buf), "--level", arg,
			    range_text(why, sizeof(why), e, 1, 19));
			return -1;
		}
		return 1;
	case PMR_OPT_SEED:
		c->seed = pmr_strtou64(arg, &e);
		if (e != NULL) {
			*errstr = bad_text(buf, sizeof(buf), "--seed", arg, e);
			return -1;
		}
		c->seed_set = 1;
		return 1;
	case 'h':
		return 'h';
	case 'V':
		return 'V';
	default:
		return 0;
	}
}

void
pmr_cli_common(struct pmr_common *c, int opt, const char *arg)
{
	const char *e = NULL;

	switch (pmr_common_opt(c, opt, arg, &e)) {
	case 1:
		return;
	case 'h':
		pmr_cli_help();
	case 'V':
		pmr_cli_version();
	case -1:
		warnx("%s", e);
		/* FALLTHROUGH */
	default:
		pmr_cli_usage();
	}
}

int
pmr_common_tty_refused(const struct pmr_common *c)
{
	int tostdout = c->output == NULL || strcmp(c->output, "-") == 0;

	return tostdout && !c->force && isatty(STDOUT_FILENO);
}

struct pmr_writer *
pmr_common_writer(const struct pmr_common *c, const char *prog, int argc,
    char *const argv[], int *err)
{
	struct pmr_wopts o = { prog, c->compress, c->level, 0 };
	struct pmr_writer *w;

	if ((w = pmr_writer_open(c->output, &o, err)) == NULL)
		return NULL;
	if (!c->no_pg && (*err = pmr_writer_prov(w, prog, argc, argv,
	    c->seed, c->seed_set)) != PMR_OK) {
		pmr_writer_abort(w);
		return NULL;
	}
	return w;
}

const char *
pmr_outname(const char *path)
{
	static char buf[1024];

	if (path == NULL || strcmp(path, "-") == 0)
		return "stdout";
	snprintf(buf, sizeof(buf), "'%s'", path);
	return buf;
}
