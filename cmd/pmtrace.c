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
#include <fcntl.h>
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
#include "util/cli.h"
#include "trace/trace.h"

#ifndef PMTRACE_PLUGIN_DIR
#define PMTRACE_PLUGIN_DIR "/usr/local/lib/pmtools"
#endif
#define PLUGIN_NAME "pmtrace-plugin.so"

enum { OPT_SKIP = PMR_OPT_PRIVATE, OPT_MAX };

static char progname[] = "pmtrace";

static void PMR_NORETURN
usage(void)
{
	fprintf(stderr,
	    "usage: pmtrace [-qvz] [--level=n] [--max=n] [--no-pg] "
	    "[--skip=n] -o file\n"
	    "               [--] program [arg ...]\n"
	    "       pmtrace import [-qvz] [-F format] [--level=n] [--max=n] "
	    "[--no-pg]\n"
	    "               [--skip=n] [-o file] [file]\n"
	    "       pmtrace export [-qvz] [-F format] [-T champsim] "
	    "[--level=n] [--max=n]\n"
	    "               [--skip=n] [-o file] [file]\n"
	    "       pmtrace stats [-F format] [file ...]\n"
	    "       pmtrace dump [-F format] [-n count] [file]\n"
	    "Try 'pmtrace --help'.\n");
	exit(2);
}

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

static const char *
display(const char *path)
{
	return path == NULL || strcmp(path, "-") == 0 ? "<stdin>" : path;
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

/*
 * Converts one input to the output of c, leaving out its first skip
 * instructions and stopping after max.  Returns 0 or 1.
 */
static int
import(const struct pmr_common *c, int fmt, const char *path, uint64_t skip,
    uint64_t max, int argc, char *argv[])
{
	struct pmr_trace_writer *tw = NULL;
	struct pmr_writer *w = NULL;
	struct pmr_trace *t;
	struct pmr_dinsn di;
	struct stat st;
	char eb[512];
	uint64_t n = 0;
	uint32_t nsi;
	int e = 0, r, status = 1;

	if ((t = open_trace(path, fmt)) == NULL)
		return 1;
	if ((w = pmr_common_writer(c, "pmtrace", argc, argv, &e)) == NULL) {
		if (e == PMR_EIO)
			warn("cannot create '%s'", display(c->output));
		else
			warnx("cannot create '%s': %s", display(c->output),
			    pmr_strerror(e));
		goto out;
	}
	if ((tw = pmr_trace_writer_new(w, &e)) == NULL) {
		warnx("%s", pmr_strerror(e));
		goto out;
	}
	progress_start(t, skip, max);
	while (pmr_trace_writer_count(tw) < max &&
	    (r = pmr_trace_next(t, &di)) == 1) {
		if (skip > 0) {
			skip--;
			continue;
		}
		if (pmr_trace_write(tw, &di) < 0) {
			pmr_progress_end(&progress);
			warnx("'%s': %s", display(c->output),
			    pmr_trace_writer_errmsg(tw));
			goto out;
		}
	}
	pmr_progress_end(&progress);
	if (r < 0) {
		warnx("%s", pmr_trace_errmsg(t));
		goto out;
	}
	n = pmr_trace_writer_count(tw);
	r = pmr_trace_writer_finish(tw, eb, sizeof(eb));
	tw = NULL;
	if (r < 0) {
		warnx("'%s': %s", display(c->output), eb);
		goto out;
	}
	r = pmr_writer_close(w, eb, sizeof(eb));
	w = NULL;
	if (r < 0) {
		warnx("'%s': %s", display(c->output), eb);
		goto out;
	}
	status = 0;
	nsi = pmr_trace_nsinsn(t);
	if (!c->quiet && c->output != NULL && strcmp(c->output, "-") != 0 &&
	    stat(c->output, &st) == 0)
		fprintf(stderr, "pmtrace: '%s': %" PRIu64 " instructions, %"
		    PRIu32 " static, %lld bytes (%.3f bytes/instruction)\n",
		    display(path), n, nsi, (long long)st.st_size,
		    n ? (double)st.st_size / (double)n : 0.0);
	else if (!c->quiet && c->verbose)
		fprintf(stderr, "pmtrace: '%s': %" PRIu64 " instructions, %"
		    PRIu32 " static\n", display(path), n, nsi);
out:
	if (tw != NULL && pmr_trace_writer_finish(tw, NULL, 0) < 0)
		status = 1;	/* already failing: the first message stands */
	if (w != NULL)
		pmr_writer_abort(w);
	pmr_trace_close(t);
	return status;
}

/*
 * Writes one input as a ChampSim trace to the output of c, leaving out its
 * first skip instructions and stopping after max.  Returns 0 or 1.
 */
static int
export(const struct pmr_common *c, int fmt, const char *path, uint64_t skip,
    uint64_t max)
{
	struct pmr_champsim_writer *w = NULL;
	struct pmr_trace *t;
	struct pmr_dinsn di;
	struct pmr_champsim_counts k;
	char eb[512];
	uint64_t n = 0, bytes;
	int e = 0, r, comp, status = 1;

	comp = c->compress == 1 ? PMR_CS_ZSTD :
	    pmr_champsim_comp_byname(c->output);
	if (c->level > 9 && comp != PMR_CS_ZSTD) {
		warnx("--level %d is beyond 9, the most xz and gzip have",
		    c->level);
		usage();
	}
	if ((t = open_trace(path, fmt)) == NULL)
		return 1;
	if ((w = pmr_champsim_writer_open(c->output, comp, c->level, &e, eb,
	    sizeof(eb))) == NULL) {
		warnx("%s", eb);
		goto out;
	}
	progress_start(t, skip, max);
	while (n < max && (r = pmr_trace_next(t, &di)) == 1) {
		if (skip > 0) {
			skip--;
			continue;
		}
		if (pmr_champsim_write(w, &di) < 0) {
			pmr_progress_end(&progress);
			warnx("'%s': %s", display(c->output),
			    pmr_champsim_writer_errmsg(w));
			goto out;
		}
		n++;
	}
	pmr_progress_end(&progress);
	if (r < 0) {
		warnx("%s", pmr_trace_errmsg(t));
		goto out;
	}
	k = *pmr_champsim_writer_counts(w);
	bytes = pmr_champsim_writer_bytes(w);
	r = pmr_champsim_writer_close(w, eb, sizeof(eb));
	w = NULL;
	if (r < 0) {
		warnx("'%s': %s", display(c->output), eb);
		goto out;
	}
	status = 0;
	if (k.memlost > 0)
		warnx("'%s': %" PRIu64 " instructions had more memory accesses "
		    "than a ChampSim record holds (4 loads, 2 stores): %" PRIu64
		    " loads and %" PRIu64 " stores left out", display(c->output),
		    k.memlost, k.loads, k.stores);
	if (k.zero > 0)
		warnx("'%s': %" PRIu64 " accesses at address 0 left out "
		    "(ChampSim reads 0 as no access)", display(c->output),
		    k.zero);
	if (!c->quiet && (c->verbose || (c->output != NULL &&
	    strcmp(c->output, "-") != 0)))
		fprintf(stderr, "pmtrace: '%s': %" PRIu64 " instructions, %"
		    PRIu64 " with registers left out, %" PRIu64 " bytes\n",
		    display(path), n, k.reglost, bytes);
out:
	if (w != NULL)
		pmr_champsim_writer_abort(w);
	pmr_trace_close(t);
	return status;
}

/*
 * Prints the instruction counts of one input, once it has been read
 * without error.  Returns 0 or 1.
 */
static int
stats(int fmt, const char *path)
{
	uint64_t n = 0, cls[PMR_OP_NCLASS] = { 0 }, taken[PMR_OP_NCLASS] =
	    { 0 }, loads = 0, stores = 0, values = 0;
	struct pmr_trace *t;
	struct pmr_dinsn di;
	unsigned i;
	int r;

	if ((t = open_trace(path, fmt)) == NULL)
		return 1;
	progress_start(t, 0, UINT64_MAX);
	while ((r = pmr_trace_next(t, &di)) == 1) {
		n++;
		cls[di.si->cls]++;
		taken[di.si->cls] += di.flags & PMR_DI_TAKEN;
		loads += di.nload;
		stores += (uint64_t)(di.nmem - di.nload);
		values += (di.flags & PMR_DI_VALUE) != 0;
	}
	pmr_progress_end(&progress);
	if (r < 0) {	/* a bad input prints nothing but its message */
		warnx("%s", pmr_trace_errmsg(t));
		pmr_trace_close(t);
		return 1;
	}
	printf("file\t%s\nformat\t%s\n", display(path),
	    pmr_trace_format_name(pmr_trace_format(t)));
	printf("instructions\t%" PRIu64 "\nstatic\t%" PRIu32 "\n"
	    "loads\t%" PRIu64 "\nstores\t%" PRIu64 "\nvalues\t%" PRIu64 "\n",
	    n, pmr_trace_nsinsn(t), loads, stores, values);
	for (i = 0; i < PMR_OP_NCLASS; i++)
		if (cls[i] > 0)
			printf("class\t%s\t%" PRIu64 "\t%" PRIu64 "\n",
			    pmr_insn_class_name(i), cls[i], taken[i]);
	pmr_trace_close(t);
	return 0;
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
 * Returns 0 if path is a program qemu-x86_64 can start (an executable
 * regular file that is an x86-64 ELF file), else an errno value as
 * execve(2) would give it.
 */
static int
check_program(const char *path)
{
	unsigned char h[20];	/* ELF e_ident and e_type, e_machine */
	struct stat st;
	ssize_t n;
	int fd, e;

	if (stat(path, &st) != 0)
		return errno;
	if (!S_ISREG(st.st_mode) || access(path, X_OK) != 0)
		return EACCES;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return errno;
	n = read(fd, h, sizeof(h));
	e = errno;
	close(fd);
	if (n < 0)
		return e;
	if (n < (ssize_t)sizeof(h) || memcmp(h, "\177ELF", 4) != 0 ||
	    h[4] != 2 || h[5] != 1 || pmr_le16(h + 18) != 62)
		return ENOEXEC;	/* not ELFCLASS64, ELFDATA2LSB, EM_X86_64 */
	return 0;
}

/*
 * Returns prog as a path that qemu-user can run, looking for a name
 * without '/' in PATH as execvp(3) does (qemu-user does not search PATH,
 * and says nothing when it cannot run a program).  The result is prog or a
 * static buffer; NULL with *why set to an errno value when prog cannot be
 * run.
 */
static const char *
find_program(const char *prog, int *why)
{
	static char buf[PATH_MAX];
	const char *path = getenv("PATH"), *p, *end;
	int e;

	if (strchr(prog, '/') != NULL) {
		if ((*why = check_program(prog)) != 0)
			return NULL;
		return prog;
	}
	if (path == NULL)
		path = "/bin:/usr/bin";	/* execvp's default */
	*why = ENOENT;
	for (p = path; *p != '\0'; p = *end ? end + 1 : end) {
		end = strchr(p, ':');
		if (end == NULL)
			end = p + strlen(p);
		if (snprintf(buf, sizeof(buf), "%.*s/%s", (int)(end - p),
		    end == p ? "." : p, prog) >= (int)sizeof(buf))
			continue;
		if ((e = check_program(buf)) == 0)
			return buf;
		if (e != ENOENT && e != ENOTDIR)
			*why = e;	/* as execvp: the last other reason */
	}
	return NULL;
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
	const struct pmr_image *im;
	struct pmr_dinsn di;
	char plugarg[PATH_MAX + 96], eb[512];
	char **av;
	uint32_t nseen = 0;
	uint64_t n = 0;
	double t0 = now();
	pid_t pid;
	int fds[2], e = 0, r = 0, st, failed = 1, i, nprog, why;
	struct stat sb;

	if (qemu == NULL || *qemu == '\0')
		qemu = "qemu-x86_64";
	if ((target = find_program(prog[0], &why)) == NULL) {
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
	if ((w = pmr_common_writer(c, "pmtrace", argc, argv, &e)) == NULL) {
		if (e == PMR_EIO)
			warn("cannot create '%s'", c->output);
		else
			warnx("cannot create '%s': %s", c->output,
			    pmr_strerror(e));
		goto out;
	}
	if ((tw = pmr_trace_writer_new(w, &e)) == NULL) {
		warnx("%s", pmr_strerror(e));
		goto out;
	}
	progress_start(t, skip, max);
	while (!caught && (r = pmr_trace_next(t, &di)) == 1) {
		if (di.si->id >= nseen) {
			nseen = di.si->id + 1;
			if ((im = pmr_trace_image_of(t, di.pc)) != NULL &&
			    pmr_trace_write_image(tw, im) < 0)
				break;
		}
		if (pmr_trace_write(tw, &di) < 0)
			break;
	}
	pmr_progress_end(&progress);
	if (caught)
		;	/* the trace is dropped below, without a message */
	else if (r < 0)
		warnx("%s", pmr_trace_errmsg(t));
	else if (r == 1)
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

/* "pmtrace [options] [--] program [arg ...]" */
static int
run_main(int argc, char *argv[])
{
	static const struct option long_opts[] = {
		{ "max", required_argument, NULL, OPT_MAX },
		{ "skip", required_argument, NULL, OPT_SKIP },
		PMR_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct pmr_common c;
	uint64_t skip = 0, max = UINT64_MAX, v;
	const char *e;
	int ch, r;

	pmr_common_init(&c);
	while ((ch = getopt_long(argc, argv, "+" PMR_COMMON_SHORTOPTS,
	    long_opts, NULL)) != -1) {
		switch (ch) {
		case OPT_SKIP:
		case OPT_MAX:
			v = (uint64_t)pmr_strtonum(optarg, 0, LLONG_MAX, &e);
			if (e != NULL) {
				warnx("--%s '%s' is %s", ch == OPT_SKIP ?
				    "skip" : "max", optarg, e);
				usage();
			}
			*(ch == OPT_SKIP ? &skip : &max) = v;
			break;
		default:
			r = pmr_common_opt(&c, ch, optarg, &e);
			if (r == 'h') {
				help();
				return 0;
			}
			if (r == 'V') {
				printf("pmtrace (pmtools) %s\n",
				    PMTOOLS_VERSION);
				return 0;
			}
			if (r < 0)
				warnx("%s", e);
			if (r <= 0)
				usage();
		}
	}
	if (optind >= argc) {
		warnx("no program to trace");
		usage();
	}
	if (c.output == NULL || strcmp(c.output, "-") == 0) {
		warnx("tracing needs -o file (the program's output goes to "
		    "standard output)");
		usage();
	}
	quiet = c.quiet;
	return run(&c, skip, max, argv + optind, argc, argv);
}

/* Prints the first head (0: all) dynamic instructions of one input, one a
 * line.  Returns 0 or 1. */
static int
dump(int fmt, const char *path, uint64_t head)
{
	struct pmr_trace *t;
	struct pmr_dinsn di;
	uint64_t n = 0;
	unsigned i;
	int r;

	if ((t = open_trace(path, fmt)) == NULL)
		return 1;
	printf("#seq\tpc\tclass\tlen\tnext_pc\ttaken\ttid\taccesses\t"
	    "value\n");
	while ((head == 0 || n < head) && (r = pmr_trace_next(t, &di)) == 1) {
		printf("%" PRIu64 "\t0x%" PRIx64 "\t%s\t%u\t0x%" PRIx64
		    "\t%u\t%" PRIu32 "\t", di.seq, di.pc,
		    pmr_insn_class_name(di.si->cls), di.si->len, di.next_pc,
		    (di.flags & PMR_DI_TAKEN) != 0, di.tid);
		for (i = 0; i < di.nmem; i++)
			printf("%s%c0x%" PRIx64 ":%u", i ? "," : "",
			    i < di.nload ? 'L' : 'S', di.addr[i], di.msize[i]);
		if (di.flags & PMR_DI_VALUE)
			printf("%s\t0x%" PRIx64 "\n", di.nmem ? "" : "-",
			    di.value);
		else
			printf("%s\t-\n", di.nmem ? "" : "-");
		n++;
	}
	if (head > 0 && n == head)
		r = 0;
	if (r < 0) {
		fflush(stdout);
		warnx("%s", pmr_trace_errmsg(t));
	}
	pmr_trace_close(t);
	return r < 0;
}

int
main(int argc, char *argv[])
{
	static const struct option long_opts[] = {
		{ "from", required_argument, NULL, 'F' },
		{ "head", required_argument, NULL, 'n' },
		{ "max", required_argument, NULL, OPT_MAX },
		{ "skip", required_argument, NULL, OPT_SKIP },
		{ "to", required_argument, NULL, 'T' },
		PMR_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct pmr_common c;
	uint64_t head = 0, skip = 0, max = UINT64_MAX, v;
	const char *cmd, *e;
	int ch, fmt = PMR_TF_AUTO, i, r, status = 0;
	char **av = argv;
	int ac = argc;

	pmr_common_init(&c);
	if (argc < 2) {
		if (isatty(STDIN_FILENO)) {
			help();
			goto out;
		}
		usage();
	}
	cmd = argv[1];
	if (strcmp(cmd, "import") != 0 && strcmp(cmd, "export") != 0 &&
	    strcmp(cmd, "stats") != 0 && strcmp(cmd, "dump") != 0) {
		if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0) {
			help();
			goto out;
		}
		if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0) {
			printf("pmtrace (pmtools) %s\n", PMTOOLS_VERSION);
			goto out;
		}
		status = run_main(argc, argv);
		goto out;
	}
	argc--;
	argv++;
	argv[0] = progname;	/* getopt's messages name the program */
	while ((ch = getopt_long(argc, argv, "F:n:T:" PMR_COMMON_SHORTOPTS,
	    long_opts, NULL)) != -1) {
		switch (ch) {
		case 'n':
			head = (uint64_t)pmr_strtonum(optarg, 1, LLONG_MAX, &e);
			if (e != NULL || strcmp(cmd, "dump") != 0) {
				warnx(e != NULL ? "--head '%s' is invalid" :
				    "--head '%s' is for dump only", optarg);
				usage();
			}
			break;
		case OPT_SKIP:
		case OPT_MAX:
			v = (uint64_t)pmr_strtonum(optarg, 0, LLONG_MAX, &e);
			if (e != NULL || (strcmp(cmd, "import") != 0 &&
			    strcmp(cmd, "export") != 0)) {
				warnx(e != NULL ? "--%s '%s' is invalid" :
				    "--%s is for tracing, import and export "
				    "only",
				    ch == OPT_SKIP ? "skip" : "max", optarg);
				usage();
			}
			*(ch == OPT_SKIP ? &skip : &max) = v;
			break;
		case 'T':
			if (strcmp(optarg, "champsim") != 0) {
				warnx("unknown output format '%s' (champsim)",
				    optarg);
				usage();
			}
			if (strcmp(cmd, "export") != 0) {
				warnx("--to is for export only");
				usage();
			}
			break;
		case 'F':
			if ((fmt = pmr_trace_format_byname(optarg)) < 0) {
				warnx("unknown format '%s' (auto, pmr, "
				    "champsim, drmemtrace)", optarg);
				usage();
			}
			break;
		default:
			r = pmr_common_opt(&c, ch, optarg, &e);
			if (r == 'h') {
				help();
				goto out;
			}
			if (r == 'V') {
				printf("pmtrace (pmtools) %s\n",
				    PMTOOLS_VERSION);
				goto out;
			}
			if (r < 0)
				warnx("%s", e);
			if (r <= 0)
				usage();
		}
	}
	argc -= optind;
	argv += optind;
	quiet = c.quiet;
	if (strcmp(cmd, "stats") == 0) {
		for (i = 0; i < (argc ? argc : 1); i++)
			status |= stats(fmt, argc ? argv[i] : "-");
		goto out;
	}
	if (strcmp(cmd, "dump") == 0) {
		if (argc > 1) {
			warnx("dump takes one input");
			usage();
		}
		status = dump(fmt, argc ? argv[0] : "-", head);
		goto out;
	}
	if (argc > 1) {
		warnx("%s takes one input", cmd);
		usage();
	}
	if (pmr_common_tty_refused(&c))
		errx(1, "not writing a binary stream to a terminal (use -o "
		    "or --force)");
	if (strcmp(cmd, "export") == 0) {
		status = export(&c, fmt, argc ? argv[0] : "-", skip, max);
		goto out;
	}
	status = import(&c, fmt, argc ? argv[0] : "-", skip, max, ac, av);
out:
	if (ferror(stdout) | fclose(stdout))
		err(1, "stdout");
	return status;
}
