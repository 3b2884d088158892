/*
 * cli.h: what every pmtools program shares on its command line, above the
 * stream library: the common options (-o -z -q -v -h -V --force --level
 * --no-pg --seed), help and version, strict number parsing, the one form
 * of a bad-value message, comma-separated option lists, names of files
 * for messages, and the progress line on a terminal (progress.c).
 *
 * This is the one part of lib that may print to standard error and end
 * the process: its pmr_cli_* helpers do what a program's main() would do
 * after a usage error (a message, the synopsis, exit status 2) or after
 * -h and -V (exit 0), so that every program does it the same way.  The
 * other functions return codes, as the rest of lib.
 *
 * Usage, in a program's main():
 *
 *	pmr_cli_init("pmview", synopsis, help);
 *	while ((ch = getopt_long(...)) != -1)
 *		switch (ch) {
 *		case 'n':
 *			head = pmr_cli_num("--head", optarg, 1, LLONG_MAX);
 *			break;
 *		default:
 *			pmr_cli_common(&common, ch, optarg);
 *		}
 */
#ifndef PMR_CLI_H
#define PMR_CLI_H

#include <pthread.h>
#include <stdint.h>

#include "stream/pmr.h"

/* --- the program: usage, help, version, exit ------------------------- */

/*
 * Names the program for the helpers below; call it first in main().  prog
 * is the name ("pmsim"); synopsis is the usage text that a usage error
 * prints on stderr, each line ending in "\n" ("usage: pmsim [-qvz] ...");
 * help prints the --help text on stdout.  The strings are not copied.
 */
void pmr_cli_init(const char *prog, const char *synopsis,
    void (*help)(void));
/* Prints the synopsis and "Try 'prog --help'." on stderr; exits 2. */
void pmr_cli_usage(void) PMR_NORETURN;
/* Warns with the printf-style message, then as pmr_cli_usage(). */
void pmr_cli_misuse(const char *fmt, ...) PMR_FORMAT(1, 2) PMR_NORETURN;
/*
 * Reports a bad option value in the one form every program uses,
 * "prog: OPT: value 'ARG' is WHY" (ARG quoted as pmr_quote() does), then
 * as pmr_cli_usage().  Example: pmr_cli_bad("--max", "x", "invalid").
 */
void pmr_cli_bad(const char *opt, const char *arg,
    const char *why) PMR_NORETURN;
/* Prints the help on stdout; exits 0 (1 if stdout cannot be written). */
void pmr_cli_help(void) PMR_NORETURN;
/* Prints "prog (pmtools) VERSION" on stdout; exits as pmr_cli_help(). */
void pmr_cli_version(void) PMR_NORETURN;
/* Closes stdout, checking that it was written; exits with status, or 1
 * (with a message) if stdout failed. */
void pmr_cli_exit(int status) PMR_NORETURN;

/* --- option values --------------------------------------------------- */

/*
 * Returns arg as a number in [min, max] (pmr_strtonum()'s syntax), or
 * reports it with pmr_cli_bad(opt, arg, "invalid" or "too small (min..max)"
 * ...) and exits 2.
 */
long long pmr_cli_num(const char *opt, const char *arg, long long min,
    long long max);
/*
 * Returns the index of arg in names (a NULL-terminated array), or reports
 * "value 'ARG' is unknown (name1, name2, ...)" with pmr_cli_bad() and
 * exits 2.
 */
int pmr_cli_pick(const char *opt, const char *arg, const char *const *names);
/*
 * Returns the OR of byname(item) over the comma-separated items of arg;
 * an item for which byname returns 0 is reported as unknown, and an empty
 * list as empty, with pmr_cli_bad() (exit 2).
 */
unsigned pmr_cli_mask(const char *opt, const char *arg,
    unsigned (*byname)(const char *));

/*
 * The comma-separated items of an option value, one at a time, as
 * strtok(3) would cut them (empty items are skipped):
 *
 *	struct pmr_items it;
 *	const char *item, *v;
 *
 *	pmr_items_init(&it, optarg);
 *	while ((item = pmr_items_next(&it)) != NULL)
 *		if ((v = pmr_item_value(item, "S")) != NULL)
 *			s = pmr_cli_num("--profileme S", v, 1, 1LL << 40);
 *
 * The iterator works on a copy of arg, freed when pmr_items_next() returns
 * NULL (or by pmr_items_end() when the caller stops early); an item is
 * valid until the next call.
 */
struct pmr_items {
	char *copy, *pos;
};

void pmr_items_init(struct pmr_items *it, const char *arg);
/* Returns the next item, or NULL after the last (the copy is freed). */
const char *pmr_items_next(struct pmr_items *it);
/* Frees the copy of a list not read to its end. */
void pmr_items_end(struct pmr_items *it);
/* Returns what follows "key=" in item, or NULL if item is not key=... */
const char *pmr_item_value(const char *item, const char *key);

/*
 * Returns the name of input path for messages: "<stdin>" for NULL or
 * "-", else path itself.
 */
const char *pmr_display(const char *path);
/*
 * Returns the name of output path for messages: "stdout" for NULL or "-",
 * else the path in single quotes (a static buffer, overwritten by the next
 * call).
 */
const char *pmr_outname(const char *path);

/*
 * Parses s as a decimal integer (0x-hex allowed, and the suffixes k, M, G
 * for powers of 1000) in [min, max].  Returns the value; on error returns 0
 * and sets *errstr to "invalid", "too small" or "too large".
 */
long long pmr_strtonum(const char *s, long long min, long long max,
    const char **errstr);
/* Same for the full unsigned 64-bit range (used by --seed). */
uint64_t pmr_strtou64(const char *s, const char **errstr);

/* --- common options -------------------------------------------------- */

/*
 * Options shared by every program: -o, -z, -q, -v, -h, -V, --force,
 * --level, --no-pg, --seed.  (-f is left to each program for its output
 * format, as in "pmview -f tsv"; forcing binary output to a terminal is
 * long-only.)  Programs append PMR_COMMON_LONGOPTS to their own
 * long-option table and PMR_COMMON_SHORTOPTS to their short string, and
 * give each option they do not know to pmr_cli_common().
 */
struct pmr_common {
	const char *output;	/* -o FILE, NULL for stdout */
	int compress;		/* -1 by name, 1 with -z */
	int level;		/* --level, 0 for default */
	int quiet, verbose, force;
	int no_pg;
	int seed_set;
	uint64_t seed;
};

enum {
	PMR_OPT_NO_PG = 0x100,
	PMR_OPT_SEED,
	PMR_OPT_LEVEL,
	PMR_OPT_FORCE,
	PMR_OPT_PRIVATE	 /* programs number their long-only options from here */
};

#define PMR_COMMON_SHORTOPTS "hqo:vVz"
#define PMR_COMMON_LONGOPTS \
	{ "force", no_argument, NULL, PMR_OPT_FORCE }, \
	{ "help", no_argument, NULL, 'h' }, \
	{ "level", required_argument, NULL, PMR_OPT_LEVEL }, \
	{ "no-pg", no_argument, NULL, PMR_OPT_NO_PG }, \
	{ "output", required_argument, NULL, 'o' }, \
	{ "quiet", no_argument, NULL, 'q' }, \
	{ "seed", required_argument, NULL, PMR_OPT_SEED }, \
	{ "verbose", no_argument, NULL, 'v' }, \
	{ "version", no_argument, NULL, 'V' }, \
	{ "zstd", no_argument, NULL, 'z' }

/* Help text of the common options, for --help. */
extern const char pmr_common_help[];

void pmr_common_init(struct pmr_common *c);
/*
 * Handles the option opt of getopt_long() with argument arg: a common
 * option is stored in c; -h and -V print the help or the version and exit
 * 0; a bad value, or an option that is not common (getopt_long() has
 * already said why), is a usage error (exit 2).
 */
void pmr_cli_common(struct pmr_common *c, int opt, const char *arg);
/*
 * The same without printing or exiting.  Returns 1 if handled, 0 if opt
 * is not a common option, 'h' or 'V' for help and version, or -1 for a
 * bad argument with a message in *errstr.
 */
int pmr_common_opt(struct pmr_common *c, int opt, const char *arg,
    const char **errstr);
/* Returns 1 if binary output would go to a terminal without --force. */
int pmr_common_tty_refused(const struct pmr_common *c);
/* Opens the output writer for the common options; see pmr_writer_open. */
struct pmr_writer *pmr_common_writer(const struct pmr_common *c,
    const char *prog, int argc, char *const argv[], int *err) PMR_RESULT_USED;

/* --- progress on a terminal (progress.c) ----------------------------- */

/*
 * A progress line on standard error, such as "pmsim: 12.30 M instructions,
 * 8.10 M/s, 45%, 0:07 left", redrawn four times a second by a thread that
 * reads *counter (a count the program keeps and only increases), shown only
 * when standard error is a terminal and quiet is 0.  The percentage and the
 * time left need total (0: not known).  The hot path pays nothing.
 * pmr_progress_end() stops the thread and clears the line.
 */
struct pmr_progress {
	const uint64_t *counter;
	uint64_t total;
	double t0;
	const char *prog, *unit;
	int on, shown, stop;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

void pmr_progress_start(struct pmr_progress *p, const char *prog,
    const char *unit, const uint64_t *counter, uint64_t total, int quiet);
void pmr_progress_end(struct pmr_progress *p);

#endif /* PMR_CLI_H */
