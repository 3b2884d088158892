/*
 * cli.c: option handling shared by every pmtools program.
 *
 * Programs parse their own options with getopt_long and hand the common
 * ones (-o, -z, -q, -v, -h, -V, --force, --level, --no-pg, --seed) to
 * pmr_common_opt(), so that they behave the same everywhere.  Numbers are
 * parsed strictly: no trailing characters, no silent wrap-around.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "stream/pmr_internal.h"

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
	static char buf[128];
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
			snprintf(buf, sizeof(buf), "--level '%s' is %s "
			    "(1..19)", arg, e);
			*errstr = buf;
			return -1;
		}
		return 1;
	case PMR_OPT_SEED:
		c->seed = pmr_strtou64(arg, &e);
		if (e != NULL) {
			snprintf(buf, sizeof(buf), "--seed '%.40s' is %s",
			    arg, e);
			*errstr = buf;
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
