/*
 * pmtrace: make pmr instruction traces.  "pmtrace -o out -- program"
 * runs an unmodified program under qemu-x86_64 with the pmtrace TCG plugin
 * and writes its trace; "pmtrace import" converts a ChampSim or DynamoRIO
 * drmemtrace trace (or re-encodes a pmr one) into a pmr stream of IMAGE,
 * SINSN and DINSN records; "pmtrace stats" counts the instructions of any
 * trace by class.
 *
 * All format knowledge is in libpmr (trace.h): this file parses options,
 * loops over the inputs and reports.  See pmtrace(1).
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stream/pmr.h"
#include "trace/trace.h"
#include "util/cli.h"

#ifndef PMTRACE_PLUGIN_DIR
#define PMTRACE_PLUGIN_DIR "/usr/local/lib/pmtools"
#endif
#define PLUGIN_NAME "pmtrace-plugin.so"

enum { OPT_SKIP = PMR_OPT_PRIVATE, OPT_MAX };

static char progname[] = "pmtrace";

static const char synopsis[] =
    "usage: pmtrace [-qvz] [--level=n] [--max=n] [--no-pg] [--skip=n] "
    "-o file\n"
    "               [--] program [arg ...]\n"
    "       pmtrace import [-qvz] [-F format] [--level=n] [--max=n] "
    "[--no-pg]\n"
    "               [--skip=n] [-o file] [file]\n"
    "       pmtrace export [-qvz] [-F format] [-T champsim] [--level=n] "
    "[--max=n]\n"
    "               [--skip=n] [-o file] [file]\n"
    "       pmtrace stats [-F format] [file ...]\n"
    "       pmtrace dump [-F format] [-n count] [file]\n";

static void
help(void)
{
	printf("usage: pmtrace [options] -o file [--] program [arg ...]\n"
	    "       pmtrace import [options] [file]\n"
	    "       pmtrace export [options] [file]\n"
	    "       pmtrace stats [-F format] [file ...]\n"
	    "       pmtrace dump [-F format] [-n count] [file]\n"
	    "Trace a program under qemu-x86_64, convert a ChampSim or "
	    "DynamoRIO drmemtrace\ntrace into a pmr instruction trace "
	    "(import), write any trace as a ChampSim\ntrace (export; "
	    "xz, gzip or zstd by the output's suffix), count the\n"
	    "instructions of any trace by class (stats), or print them one "
	    "a line (dump).\n\n"
	    "  -F, --from=FORMAT  input format: auto, pmr, champsim or "
	    "drmemtrace [auto]\n"
	    "      --max=N        trace, import, export: at most N "
	    "instructions [all]\n"
	    "  -n, --head=N       dump: stop after N instructions [all]\n"
	    "      --skip=N       trace, import, export: leave out the first "
	    "N instructions [0]\n"
	    "  -T, --to=FORMAT    export output format: champsim "
	    "[champsim]\n\n"
	    "Environment: PMTRACE_QEMU (the emulator) [qemu-x86_64], "
	    "PMTRACE_PLUGIN\n(the plugin) [" PLUGIN_NAME " beside pmtrace, "
	    "else in " PMTRACE_PLUGIN_DIR "]\n\n%s", pmr_common_help);
}

/* What the command line asks for. */
struct opts {
	struct pmr_common c;
	const char *cmd;	/* "import", "export", "stats", "dump"; NULL
				 * for tracing */
	int fmt;		/* -F: enum pmr_trace_format */
	uint64_t head, skip, max;
};

static int
is_cmd(const struct opts *o, const char *name)
{
	return o->cmd != NULL && strcmp(o->cmd, name) == 0;
}

static struct pmr_trace *
open_trace(const char *path, int fmt)
{
	struct pmr_trace *t;
	char eb[512];
	int e = 0;

	if ((t = pmr_trace_open(path, fmt, &e, eb, sizeof(eb))) == NULL)
		warnx("%s", eb[0] ? eb : pmr_strerror(e));
	return t;
}

/*
 * Opens the output of c as a pmr trace: *w and *tw, which the caller
 * finishes and closes.  Returns 0, or 1 after a message.
 */
static int
open_output(const struct pmr_common *c, int argc, char *argv[],
    struct pmr_writer **w, struct pmr_trace_writer **tw)
{
	int e = 0;

	if ((*w = pmr_common_writer(c, "pmtrace", argc, argv, &e)) == NULL) {
		warnx("cannot create '%s': %s", pmr_display(c->output),
		    pmr_strerror(e));
		return 1;
	}
	if ((*tw = pmr_trace_writer_new(*w, &e)) == NULL) {
		warnx("%s", pmr_strerror(e));
		return 1;
	}
	return 0;
}

/* The progress line on a terminal (-q turns it off), over the instructions
 * read from t; total is known with --max. */
static struct pmr_progress progress;
static int quiet;

static void
progress_start(struct pmr_trace *t, uint64_t skip, uint64_t max)
{
	pmr_progress_start(&progress, "pmtrace", " instructions",
	    pmr_trace_counter(t), max != UINT64_MAX ? skip + max : 0, quiet);
}

/* Converts one input to a pmr trace on the output.  Returns 0 or 1. */
static int
import(const struct opts *o, const char *path, int argc, char *argv[])
{
	const struct pmr_common *c = &o->c;
	struct pmr_trace_writer *tw = NULL;
	struct pmr_writer *w = NULL;
	struct pmr_trace *t;
	struct stat st;
	char eb[512];
	uint64_t n = 0;
	uint32_t nsi;
	int r, status = 1;

	if ((t = open_trace(path, o->fmt)) == NULL)
		return 1;
	if (open_output(c, argc, argv, &w, &tw) != 0)
		goto out;
	progress_start(t, o->skip, o->max);
	r = pmr_trace_copy(t, tw, o->skip, o->max, 0, NULL);
	pmr_progress_end(&progress);
	if (r != PMR_COPY_OK) {
		if (r == PMR_COPY_EREAD)
			warnx("%s", pmr_trace_errmsg(t));
		else
			warnx("'%s': %s", pmr_display(c->output),
			    pmr_trace_writer_errmsg(tw));
		goto out;
	}
	n = pmr_trace_writer_count(tw);
	r = pmr_trace_writer_finish(tw, eb, sizeof(eb));
	tw = NULL;
	if (r == PMR_OK) {
		r = pmr_writer_close(w, eb, sizeof(eb));
		w = NULL;
	}
	if (r < 0) {
		warnx("'%s': %s", pmr_display(c->output), eb);
		goto out;
	}
	status = 0;
	nsi = pmr_trace_nsinsn(t);
	if (!c->quiet && c->output != NULL && strcmp(c->output, "-") != 0 &&
	    stat(c->output, &st) == 0)
		fprintf(stderr, "pmtrace: '%s': %" PRIu64 " instructions, %"
		    PRIu32 " static, %lld bytes (%.3f bytes/instruction)\n",
		    pmr_display(path), n, nsi, (long long)st.st_size,
		    n ? (double)st.st_size / (double)n : 0.0);
	else if (!c->quiet && c->verbose)
		fprintf(stderr, "pmtrace: '%s': %" PRIu64 " instructions, %"
		    PRIu32 " static\n", pmr_display(path), n, nsi);
out:
	if (tw != NULL && pmr_trace_writer_finish(tw, NULL, 0) < 0)
		status = 1;	/* already failing: the first message stands */
	if (w != NULL)
		pmr_writer_abort(w);
	pmr_trace_close(t);
	return status;
}

/* Writes one input as a ChampSim trace to the output.  Returns 0 or 1. */
static int
export(const struct opts *o, const char *path)
{
	const struct pmr_common *c = &o->c;
	const char *out = pmr_display(c->output);
	struct pmr_champsim_writer *w = NULL;
	struct pmr_champsim_counts k;
	struct pmr_trace *t;
	char eb[512];
	uint64_t bytes;
	int e = 0, r, comp, status = 1;

	comp = c->compress == 1 ? PMR_CS_ZSTD :
	    pmr_champsim_comp_byname(c->output);
	if (c->level > 9 && comp != PMR_CS_ZSTD)
		pmr_cli_misuse("--level %d is beyond 9, the most xz and gzip "
		    "have", c->level);
	if ((t = open_trace(path, o->fmt)) == NULL)
		return 1;
	if ((w = pmr_champsim_writer_open(c->output, comp, c->level, &e, eb,
	    sizeof(eb))) == NULL) {
		warnx("%s", eb);
		goto out;
	}
	progress_start(t, o->skip, o->max);
	r = pmr_trace_export(t, w, o->skip, o->max);
	pmr_progress_end(&progress);
	if (r != PMR_COPY_OK) {
		if (r == PMR_COPY_EREAD)
			warnx("%s", pmr_trace_errmsg(t));
		else
			warnx("'%s': %s", out, pmr_champsim_writer_errmsg(w));
		goto out;
	}
	k = *pmr_champsim_writer_counts(w);
	bytes = pmr_champsim_writer_bytes(w);
	r = pmr_champsim_writer_close(w, eb, sizeof(eb));
	w = NULL;
	if (r < 0) {
		warnx("'%s': %s", out, eb);
		goto out;
	}
	status = 0;
	if (k.memlost > 0)
		warnx("'%s': %" PRIu64 " instructions had more memory accesses "
		    "than a ChampSim record holds (4 loads, 2 stores): %" PRIu64
		    " loads and %" PRIu64 " stores left out", out, k.memlost,
		    k.loads, k.stores);
	if (k.zero > 0)
		warnx("'%s': %" PRIu64 " accesses at address 0 left out "
		    "(ChampSim reads 0 as no access)", out, k.zero);
	if (!c->quiet && (c->verbose || (c->output != NULL &&
	    strcmp(c->output, "-") != 0)))
		fprintf(stderr, "pmtrace: '%s': %" PRIu64 " instructions, %"
		    PRIu64 " with registers left out, %" PRIu64 " bytes\n",
		    pmr_display(path), k.n, k.reglost, bytes);
out:
	if (w != NULL)
		pmr_champsim_writer_abort(w);
	pmr_trace_close(t);
	return status;
}

/* Prints the instruction counts of one input, once it has been read
 * without error (a bad input prints nothing but its message).  Returns 0
 * or 1. */
static int
stats(int fmt, const char *path)
{
	struct pmr_trace_counts k;
	struct pmr_trace *t;
	int r;

	if ((t = open_trace(path, fmt)) == NULL)
		return 1;
	progress_start(t, 0, UINT64_MAX);
	r = pmr_trace_count(t, &k);
	pmr_progress_end(&progress);
	if (r < 0)
		warnx("%s", pmr_trace_errmsg(t));
	else
		pmr_trace_counts_print(stdout, pmr_display(path), t, &k);
	pmr_trace_close(t);
	return r < 0;
}

/* Prints the first head (0: all) instructions of one input, one a line.
 * Returns 0 or 1. */
static int
dump(int fmt, const char *path, uint64_t head)
{
	struct pmr_trace *t;
	int r;

	if ((t = open_trace(path, fmt)) == NULL)
		return 1;
	if ((r = pmr_trace_dump(t, stdout, head)) < 0) {
		fflush(stdout);
		warnx("%s", pmr_trace_errmsg(t));
	}
	pmr_trace_close(t);
	return r < 0;
}

/* Returns the path of the plugin, or NULL. */
static const char *
find_plugin(void)
{
	static char buf[PATH_MAX];
	const char *env = getenv("PMTRACE_PLUGIN");
	char *slash;
	ssize_t n;

	if (env != NULL && *env != '\0')
		return env;
	if ((n = readlink("/proc/self/exe", buf, sizeof(buf) - 1)) > 0) {
		buf[n] = '\0';
		if ((slash = strrchr(buf, '/')) != NULL &&
		    (size_t)(slash - buf) + sizeof(PLUGIN_NAME) + 1 <
		    sizeof(buf)) {
			strcpy(slash + 1, PLUGIN_NAME);
			if (access(buf, R_OK) == 0)
				return buf;
		}
	}
	snprintf(buf, sizeof(buf), "%s/%s", PMTRACE_PLUGIN_DIR, PLUGIN_NAME);
	return access(buf, R_OK) == 0 ? buf : NULL;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Signals while tracing.  SIGTERM and SIGHUP end pmtrace: the program
 * gets the same signal (then SIGKILL after KILL_DELAY seconds, or as
 * soon as pmtrace stops reading), the unfinished trace is removed, and
 * pmtrace dies by the signal.  SIGINT and SIGQUIT are the program's, as
 * a shell leaves them to its job: from the terminal they reach it
 * directly; sent to pmtrace alone (kill -INT), they are passed on.
 */
#define KILL_DELAY 2
static volatile sig_atomic_t caught;	/* SIGTERM or SIGHUP, 0 if none */
static volatile pid_t child;

static void
on_signal(int sig, siginfo_t *si, void *uc)
{
	int e = errno;

	(void)uc;
	if (sig == SIGINT || sig == SIGQUIT) {
		if (si != NULL && si->si_code <= 0)	/* kill(2), not a tty */
			kill(child, sig);
	} else if (caught == 0) {
		caught = sig;
		kill(child, sig);
		alarm(KILL_DELAY);
	}
	errno = e;
}

static void
on_alarm(int sig)
{
	(void)sig;
	kill(child, SIGKILL);
}

/* Installs the handlers above for the child pid. */
static void
catch_signals(pid_t pid)
{
	static const int sigs[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP };
	struct sigaction sa;
	unsigned i;

	child = pid;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	sa.sa_flags = SA_RESTART | SA_SIGINFO;
	sa.sa_sigaction = on_signal;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
}

/* Ends the process by the signal it caught, after the cleanup. */
static void PMR_NORETURN
die_by_signal(int sig)
{
	sigset_t set;

	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);	/* not reached */
}

/*
 * Runs prog under qemu with the plugin and writes its trace.  Returns the
 * program's exit status, or 1 after a pmtrace error.
 */
static int
run(const struct pmr_common *c, uint64_t skip, uint64_t max, char **prog,
    int argc, char *argv[])
{
	const char *qemu = getenv("PMTRACE_QEMU"), *plugin, *target;
	struct pmr_trace_writer *tw = NULL;
	struct pmr_writer *w = NULL;
	struct pmr_trace *t = NULL;
	char plugarg[PATH_MAX + 96], eb[512], path[PATH_MAX];
	char **av;
	uint64_t n = 0;
	double t0 = now();
	pid_t pid;
	int fds[2], e = 0, r = 0, st, failed = 1, i, nprog, why;
	struct stat sb;

	if (qemu == NULL || *qemu == '\0')
		qemu = "qemu-x86_64";
	if ((target = pmr_trace_find_program(prog[0], path, sizeof(path),
	    &why)) == NULL) {
		warnx("cannot run '%s': %s", prog[0], strerror(why));
		return why == ENOENT ? 127 : 126;
	}
	if ((plugin = find_plugin()) == NULL)
		errx(1, "cannot find the plugin %s (set PMTRACE_PLUGIN)",
		    PLUGIN_NAME);
	for (nprog = 0; prog[nprog] != NULL; nprog++)
		;
	if ((av = calloc((size_t)nprog + 4, sizeof(*av))) == NULL)
		err(1, NULL);
	if (pipe(fds) < 0)
		err(1, "pipe");
	snprintf(plugarg, sizeof(plugarg), "%s,fd=%d,skip=%" PRIu64
	    ",max=%" PRIu64, plugin, fds[1], skip, max);
	av[0] = (char *)qemu;
	av[1] = (char *)"-plugin";
	av[2] = plugarg;
	for (i = 0; i < nprog; i++)
		av[3 + i] = prog[i];
	av[3] = (char *)target;
	fflush(NULL);
	if ((pid = fork()) < 0)
		err(1, "fork");
	if (pid == 0) {
		close(fds[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		execvp(qemu, av);
		fprintf(stderr, "pmtrace: cannot run '%s': %s\n", qemu,
		    strerror(errno));
		_exit(127);
	}
	/* Like a shell waiting for its job: ^C goes to the program, and the
	 * trace of what ran is still written. */
	catch_signals(pid);
	close(fds[1]);
	free(av);
	if ((t = pmr_trace_open_qemu(fds[0], &e, eb, sizeof(eb))) == NULL) {
		warnx("%s", eb);
		goto out;
	}
	if (open_output(c, argc, argv, &w, &tw) != 0)
		goto out;
	progress_start(t, skip, max);
	r = pmr_trace_copy(t, tw, 0, UINT64_MAX, PMR_COPY_IMAGES, &caught);
	pmr_progress_end(&progress);
	if (caught)
		;	/* the trace is dropped below, without a message */
	else if (r == PMR_COPY_EREAD)
		warnx("%s", pmr_trace_errmsg(t));
	else if (r == PMR_COPY_EWRITE)
		warnx("'%s': %s", c->output, pmr_trace_writer_errmsg(tw));
	else
		failed = 0;
out:
	if (failed && !caught)
		kill(pid, SIGKILL);
	close(fds[0]);	/* the plugin's next write ends the program */
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			err(1, "waitpid");
	alarm(0);
	if (caught)
		failed = 1;
	if (tw != NULL) {
		n = pmr_trace_writer_count(tw);
		if (pmr_trace_writer_finish(tw, eb, sizeof(eb)) < 0 &&
		    !failed) {
			warnx("'%s': %s", c->output, eb);
			failed = 1;
		}
	}
	if (!failed && n == 0 && (!WIFEXITED(st) || WEXITSTATUS(st) != 0)) {
		warnx("%s failed before the program ran (status %d)", qemu,
		    WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
		failed = 1;
	}
	if (w != NULL) {
		if (failed)
			pmr_writer_abort(w);
		else if (pmr_writer_close(w, eb, sizeof(eb)) < 0) {
			warnx("'%s': %s", c->output, eb);
			failed = 1;
		}
	}
	if (caught) {
		pmr_trace_close(t);
		die_by_signal(caught);
	}
	if (!failed && !c->quiet && stat(c->output, &sb) == 0)
		fprintf(stderr, "pmtrace: %" PRIu64 " instructions, %" PRIu32
		    " static, %lld bytes (%.3f bytes/instruction), %.1f M "
		    "instructions/s\n", n, pmr_trace_nsinsn(t),
		    (long long)sb.st_size, n ? (double)sb.st_size / n : 0.0,
		    n / (now() - t0) / 1e6);
	pmr_trace_close(t);
	if (failed)
		return 1;
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

/*
 * Parses the options of tracing (o->cmd NULL: "pmtrace [options] [--]
 * program [arg ...]", stopping at the program) or of a command.  Returns
 * optind.
 */
static int
parse(struct opts *o, int argc, char *argv[])
{
	static const char *const to_names[] = { "champsim", NULL };
	static const struct option long_opts[] = {
		{ "from", required_argument, NULL, 'F' },
		{ "head", required_argument, NULL, 'n' },
		{ "max", required_argument, NULL, OPT_MAX },
		{ "skip", required_argument, NULL, OPT_SKIP },
		{ "to", required_argument, NULL, 'T' },
		PMR_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	const char *shortopts = o->cmd == NULL ? "+" PMR_COMMON_SHORTOPTS :
	    "F:n:T:" PMR_COMMON_SHORTOPTS;
	int ch;

	while ((ch = getopt_long(argc, argv, shortopts, long_opts, NULL)) !=
	    -1) {
		switch (ch) {
		case 'F':
			if (o->cmd == NULL)
				pmr_cli_misuse("--from is for import, export, "
				    "stats and dump only");
			if ((o->fmt = pmr_trace_format_byname(optarg)) < 0)
				pmr_cli_bad("--from", optarg, "unknown ("
				    PMR_TRACE_FORMATS ")");
			break;
		case 'n':
			o->head = (uint64_t)pmr_cli_num("--head", optarg, 1,
			    LLONG_MAX);
			if (!is_cmd(o, "dump"))
				pmr_cli_misuse("--head is for dump only");
			break;
		case OPT_SKIP:
		case OPT_MAX:
			*(ch == OPT_SKIP ? &o->skip : &o->max) =
			    (uint64_t)pmr_cli_num(ch == OPT_SKIP ? "--skip" :
			    "--max", optarg, 0, LLONG_MAX);
			if (o->cmd != NULL && !is_cmd(o, "import") &&
			    !is_cmd(o, "export"))
				pmr_cli_misuse("--%s is for tracing, import and "
				    "export only", ch == OPT_SKIP ? "skip" :
				    "max");
			break;
		case 'T':
			pmr_cli_pick("--to", optarg, to_names);
			if (!is_cmd(o, "export"))
				pmr_cli_misuse("--to is for export only");
			break;
		default:
			pmr_cli_common(&o->c, ch, optarg);
		}
	}
	quiet = o->c.quiet;
	return optind;
}

int
main(int argc, char *argv[])
{
	static const char *const cmds[] = { "import", "export", "stats",
		"dump", NULL };
	struct opts o;
	const char *in;
	char **av = argv;
	int ac = argc, i, status = 0;

	pmr_cli_init("pmtrace", synopsis, help);
	memset(&o, 0, sizeof(o));
	pmr_common_init(&o.c);
	o.fmt = PMR_TF_AUTO;
	o.max = UINT64_MAX;
	if (argc < 2) {
		if (isatty(STDIN_FILENO))
			pmr_cli_help();
		pmr_cli_usage();
	}
	for (i = 0; cmds[i] != NULL; i++)
		if (strcmp(argv[1], cmds[i]) == 0)
			o.cmd = cmds[i];
	if (o.cmd == NULL) {
		/* "pmtrace [options] [--] program [arg ...]" */
		i = parse(&o, argc, argv);
		if (i >= argc)
			pmr_cli_misuse("no program to trace");
		if (o.c.output == NULL || strcmp(o.c.output, "-") == 0)
			pmr_cli_misuse("tracing needs -o file (the program's "
			    "output goes to standard output)");
		pmr_cli_exit(run(&o.c, o.skip, o.max, argv + i, argc, argv));
	}
	argc--;
	argv++;
	argv[0] = progname;	/* getopt's messages name the program */
	i = parse(&o, argc, argv);
	argc -= i;
	argv += i;
	in = argc ? argv[0] : "-";
	if (is_cmd(&o, "stats")) {
		for (i = 0; i < (argc ? argc : 1); i++)
			status |= stats(o.fmt, argc ? argv[i] : "-");
		pmr_cli_exit(status);
	}
	if (argc > 1)
		pmr_cli_misuse("%s takes one input", o.cmd);
	if (is_cmd(&o, "dump"))
		pmr_cli_exit(dump(o.fmt, in, o.head));
	if (pmr_common_tty_refused(&o.c))
		errx(1, "not writing a binary stream to a terminal (use -o "
		    "or --force)");
	if (is_cmd(&o, "export"))
		pmr_cli_exit(export(&o, in));
	pmr_cli_exit(import(&o, in, ac, av));
}
