/*
 * writer.c: writes pmr record streams (man/pmr.5).
 *
 * Records are encoded into a buffer of at most PMR_FRAME_RAW bytes (a single
 * larger record gets a buffer of its own), which is written with one
 * write(2) for raw output or compressed into one zstd frame with its
 * checksum for compressed output.  Frames therefore always hold whole
 * records, so a frame boundary is a record boundary (a future seek table or
 * parallel reader can rely on it), and "zstd -dc" of the output gives the
 * raw stream.  A named output file is created under a temporary name in the
 * same directory and renamed into place only after END has been written
 * and the file closed; an unfinished temporary file is removed by
 * pmr_writer_abort(), by a failing pmr_writer_close(), and at exit().
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "stream/pmr_internal.h"

const unsigned char *pmr_magic(void);

struct pmr_writer {
	int fd;
	int ownfd;		/* close fd at the end (pmr_writer_fdopen) */
	char *path;		/* final name, NULL for stdout */
	char *tmp;		/* temporary name while writing */
	ZSTD_CCtx *cc;		/* NULL for raw output */
	unsigned char *buf;	/* pending records */
	size_t len, cap;
	unsigned char *zbuf;
	size_t zcap;
	uint64_t nrec, outbytes;
	unsigned char *prov;	/* queued PROV payload */
	uint32_t provlen;
	int err;
	char msg[320];
};

/*
 * Temporary files not yet renamed into place, removed at exit() so that an
 * err() in a program leaves no debris, and on SIGINT, SIGTERM, SIGHUP and
 * SIGXFSZ, after which the process dies by the same signal (its parent
 * sees the usual status).  The handler is the one place where the library
 * acts on its own: it is installed with the first temporary file, only for
 * signals still at their default action (an ignored SIGHUP under nohup
 * stays ignored), and does only what is async-signal-safe (unlink, signal,
 * raise).  A program has few outputs.
 */
#define NTMP 16
static char *volatile tmpnames[NTMP];
static int atexit_done;
static const int tmp_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGXFSZ };

static void
cleanup_at_exit(void)
{
	int i;

	for (i = 0; i < NTMP; i++)
		if (tmpnames[i] != NULL)
			unlink(tmpnames[i]);
}

static void
cleanup_on_signal(int sig)
{
	int e = errno;

	cleanup_at_exit();
	signal(sig, SIG_DFL);
	raise(sig);		/* delivered on return: dies by sig */
	errno = e;
}

/* Installs cleanup_on_signal for the signals still at their default. */
static void
cleanup_signals(void)
{
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = cleanup_on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(tmp_signals) / sizeof(tmp_signals[0]); i++)
		sigaddset(&sa.sa_mask, tmp_signals[i]);
	for (i = 0; i < sizeof(tmp_signals) / sizeof(tmp_signals[0]); i++)
		if (sigaction(tmp_signals[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_DFL)
			sigaction(tmp_signals[i], &sa, NULL);
}

static void
tmp_forget(const char *name)
{
	int i;

	for (i = 0; i < NTMP; i++)
		if (tmpnames[i] == name)
			tmpnames[i] = NULL;
}

/*
 * Opens an existing path that is not a regular file (/dev/null, a FIFO, a
 * terminal) for writing as it is: there is nothing to rename into place.
 * Returns the descriptor, -2 when path is a regular file or does not
 * exist (use a temporary file), or -1 with errno set.
 */
static int
open_special(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0 || S_ISREG(st.st_mode))
		return -2;
	return open(path, O_WRONLY | O_CLOEXEC);
}

/*
 * Creates a temporary file beside path, mode 0666 less the umask.  Returns
 * the descriptor and sets *tmp (caller frees after tmp_forget), or -1 with
 * errno set.
 */
static int
tmp_create(const char *path, char **tmp)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t dirlen = (size_t)(base - path);
	sigset_t block, old;
	mode_t um;
	char *name;
	int fd, i;

	if ((name = malloc(strlen(path) + 16)) == NULL) {
		errno = ENOMEM;
		return -1;
	}
	sprintf(name, "%.*s.%s.XXXXXX", (int)dirlen, path, base);
	/* no signal between the file's creation and its registration */
	sigemptyset(&block);
	for (i = 0; i < (int)(sizeof(tmp_signals) / sizeof(tmp_signals[0]));
	    i++)
		sigaddset(&block, tmp_signals[i]);
	sigprocmask(SIG_BLOCK, &block, &old);
	if ((fd = mkstemp(name)) < 0) {
		int e = errno;

		sigprocmask(SIG_SETMASK, &old, NULL);
		free(name);
		errno = e;
		return -1;
	}
	um = umask(0);
	umask(um);
	(void)fchmod(fd, 0666 & ~um);
	if (!atexit_done) {
		atexit(cleanup_at_exit);
		cleanup_signals();
		atexit_done = 1;
	}
	for (i = 0; i < NTMP; i++)
		if (tmpnames[i] == NULL) {
			tmpnames[i] = name;
			break;
		}
	sigprocmask(SIG_SETMASK, &old, NULL);
	*tmp = name;
	return fd;
}

static int
fail(struct pmr_writer *w, int code, const char *fmt, ...) PMR_FORMAT(3, 4);

static int
fail(struct pmr_writer *w, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->msg, sizeof(w->msg), fmt, ap);
	va_end(ap);
	if (w->err == 0)
		w->err = code;
	return code;
}

static int
write_all(struct pmr_writer *w, const unsigned char *p, size_t n)
{
	ssize_t k;

	while (n > 0) {
		k = write(w->fd, p, n);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return fail(w, PMR_EIO, "write error: %s",
			    strerror(errno));
		}
		p += k;
		n -= (size_t)k;
		w->outbytes += (uint64_t)k;
	}
	return PMR_OK;
}

/* Writes the pending records out: raw, or as one zstd frame. */
static int
flush(struct pmr_writer *w)
{
	size_t z;
	int ret;

	if (w->err)
		return w->err;
	if (w->len == 0)
		return PMR_OK;
	if (w->cc == NULL)
		ret = write_all(w, w->buf, w->len);
	else {
		size_t need = ZSTD_compressBound(w->len);

		if (need > w->zcap) {
			unsigned char *p = realloc(w->zbuf, need);

			if (p == NULL)
				return fail(w, PMR_ENOMEM, "out of memory");
			w->zbuf = p;
			w->zcap = need;
		}
		z = ZSTD_compress2(w->cc, w->zbuf, w->zcap, w->buf, w->len);
		if (ZSTD_isError(z))
			return fail(w, PMR_EIO, "zstd: %s",
			    ZSTD_getErrorName(z));
		ret = write_all(w, w->zbuf, z);
	}
	w->len = 0;
	return ret;
}

/* Makes room for n more bytes in the record buffer. */
static int
room(struct pmr_writer *w, size_t n)
{
	int ret;

	if (w->len + n > PMR_FRAME_RAW && w->len > 0)
		if ((ret = flush(w)) != PMR_OK)
			return ret;
	if (w->len + n > w->cap) {
		unsigned char *p = realloc(w->buf, w->len + n);

		if (p == NULL)
			return fail(w, PMR_ENOMEM, "out of memory");
		w->buf = p;
		w->cap = w->len + n;
	}
	return PMR_OK;
}

static int
ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && strcmp(s + a - b, suf) == 0;
}

static void
writer_free(struct pmr_writer *w)
{
	tmp_forget(w->tmp);
	ZSTD_freeCCtx(w->cc);
	free(w->buf);
	free(w->zbuf);
	free(w->prov);
	free(w->path);
	free(w->tmp);
	free(w);
}

struct pmr_writer *
pmr_writer_fdopen(int fd, const struct pmr_wopts *o, int *err)
{
	struct pmr_writer *w = pmr_writer_open(NULL, o, err);

	if (w == NULL) {
		close(fd);
		return NULL;
	}
	w->fd = fd;
	w->ownfd = 1;
	return w;
}

struct pmr_writer *
pmr_writer_open(const char *path, const struct pmr_wopts *o, int *err)
{
	struct pmr_writer *w;
	const char *creator = o && o->creator ? o->creator : "libpmr";
	size_t clen = strlen(creator);
	int compress = o ? o->compress : -1;
	int level = o && o->level ? o->level : 3;
	unsigned char *p;

	if (clen > 1024) {
		*err = PMR_EINVAL;
		return NULL;
	}
	if ((w = calloc(1, sizeof(*w))) == NULL) {
		*err = PMR_ENOMEM;
		return NULL;
	}
	w->fd = STDOUT_FILENO;
	if (path != NULL && strcmp(path, "-") == 0)
		path = NULL;
	if (compress < 0)
		compress = path != NULL && ends_with(path, ".zst");
	if (compress) {
		if ((w->cc = ZSTD_createCCtx()) == NULL)
			goto nomem;
		if (ZSTD_isError(ZSTD_CCtx_setParameter(w->cc,
		    ZSTD_c_compressionLevel, level)) ||
		    ZSTD_isError(ZSTD_CCtx_setParameter(w->cc,
		    ZSTD_c_checksumFlag, 1))) {
			*err = PMR_EINVAL;
			writer_free(w);
			return NULL;
		}
	}
	w->cap = PMR_FRAME_RAW + 4096;
	if ((w->buf = malloc(w->cap)) == NULL)
		goto nomem;
	if (path != NULL && (w->fd = open_special(path)) != -2) {
		if (w->fd < 0) {
			*err = PMR_EIO;
			writer_free(w);
			return NULL;
		}
		w->ownfd = 1;
	} else if (path != NULL) {
		if ((w->path = strdup(path)) == NULL)
			goto nomem;
		if ((w->fd = tmp_create(path, &w->tmp)) < 0) {
			*err = PMR_EIO;
			writer_free(w);
			return NULL;
		}
	}
	/* The stream header: magic, length, then the HEADER fields. */
	p = w->buf;
	memcpy(p, pmr_magic(), 8);
	pmr_put32(p + 8, (uint32_t)(16 + clen));
	pmr_put16(p + 12, PMR_VERSION_MINOR);
	pmr_put16(p + 14, 0);
	pmr_put32(p + 16, o ? o->must_flags : 0);
	pmr_put32(p + 20, 0);
	pmr_put32(p + 24, (uint32_t)clen);
	memcpy(p + 28, creator, clen);
	w->len = 28 + clen;
	return w;
nomem:
	*err = PMR_ENOMEM;
	writer_free(w);
	return NULL;
}

/* Appends s to the command line at *pp, quoted for a POSIX shell when it
 * holds anything but plain characters. */
static char *
quote_arg(char *d, const char *s)
{
	const char *q;
	int plain = *s != '\0';

	for (q = s; *q; q++)
		if (!(isalnum((unsigned char)*q) || strchr("%+,-./:=@_^", *q)))
			plain = 0;
	if (plain)
		return stpcpy(d, s);
	*d++ = '\'';
	for (q = s; *q; q++) {
		if (*q == '\'')
			d = stpcpy(d, "'\\''");
		else
			*d++ = *q;
	}
	*d++ = '\'';
	return d;
}

int
pmr_writer_prov(struct pmr_writer *w, const char *prog, int argc,
    char *const argv[], uint64_t seed, int seed_set)
{
	struct pmr_prov pv;
	size_t n = 1, plen;
	char *cmd, *d;
	int i;

	for (i = 0; i < argc; i++)
		n += strlen(argv[i]) * 4 + 3;
	if (n > PMR_REC_MAX / 2)
		return fail(w, PMR_EINVAL, "command line too long");
	if ((cmd = malloc(n)) == NULL)
		return fail(w, PMR_ENOMEM, "out of memory");
	d = cmd;
	for (i = 0; i < argc; i++) {
		if (i > 0)
			*d++ = ' ';
		d = quote_arg(d, argv[i]);
	}
	*d = '\0';
	pv.seed = seed;
	pv.flags = seed_set ? 1 : 0;
	pv.prog.p = (const unsigned char *)prog;
	pv.prog.n = (uint32_t)strlen(prog);
	pv.version.p = (const unsigned char *)PMTOOLS_VERSION;
	pv.version.n = (uint32_t)strlen(PMTOOLS_VERSION);
	pv.cmdline.p = (const unsigned char *)cmd;
	pv.cmdline.n = (uint32_t)(d - cmd);
	plen = pmr_fields_size(pmr_rtype_find(PMR_REC_PROV), &pv);
	free(w->prov);
	if ((w->prov = malloc(plen)) == NULL) {
		free(cmd);
		return fail(w, PMR_ENOMEM, "out of memory");
	}
	pmr_fields_encode(pmr_rtype_find(PMR_REC_PROV), &pv, w->prov);
	w->provlen = (uint32_t)plen;
	free(cmd);
	return PMR_OK;
}

static unsigned char *
reserve(struct pmr_writer *w, uint32_t type, uint32_t len)
{
	unsigned char *p;

	if (w->err)
		return NULL;
	if (type == PMR_REC_HEADER || type == PMR_REC_END ||
	    len > PMR_REC_MAX - 8) {
		fail(w, PMR_EINVAL, "cannot write a record of type %u and "
		    "%u bytes", type, len);
		return NULL;
	}
	if (room(w, 8 + (size_t)len) != PMR_OK)
		return NULL;
	p = w->buf + w->len;
	pmr_put32(p, type);
	pmr_put32(p + 4, 8 + len);
	w->len += 8 + (size_t)len;
	w->nrec++;
	return p + 8;
}

/* Writes the queued PROV record if the next record is not PROV. */
static int
flush_prov(struct pmr_writer *w, uint32_t type)
{
	unsigned char *p;
	uint32_t n = w->provlen;

	if (w->prov == NULL || type == PMR_REC_PROV)
		return PMR_OK;
	w->provlen = 0;
	if ((p = reserve(w, PMR_REC_PROV, n)) == NULL) {
		free(w->prov);
		w->prov = NULL;
		return w->err;
	}
	memcpy(p, w->prov, n);
	free(w->prov);
	w->prov = NULL;
	return PMR_OK;
}

unsigned char *
pmr_write_reserve(struct pmr_writer *w, uint32_t type, uint32_t len)
{
	if (w->prov != NULL && flush_prov(w, type) != PMR_OK)
		return NULL;
	return reserve(w, type, len);
}

int
pmr_write_raw(struct pmr_writer *w, uint32_t type, const void *p,
    uint32_t len)
{
	unsigned char *d = pmr_write_reserve(w, type, len);

	if (d == NULL)
		return w->err;
	if (len > 0)
		memcpy(d, p, len);
	return PMR_OK;
}

int
pmr_write_meta(struct pmr_writer *w, const char *key, const char *value)
{
	struct pmr_meta m;

	m.key.p = (const unsigned char *)key;
	m.key.n = (uint32_t)strlen(key);
	m.value.p = (const unsigned char *)value;
	m.value.n = (uint32_t)strlen(value);
	return pmr_write(w, PMR_REC_META, &m);
}

int
pmr_write(struct pmr_writer *w, uint32_t type, const void *in)
{
	const struct pmr_rtype *t = pmr_rtype_find(type);
	size_t n;
	unsigned char *d;

	if (t == NULL)
		return fail(w, PMR_EINVAL, "unknown record type %u", type);
	n = pmr_fields_size(t, in);
	if (n > PMR_REC_MAX - 8)
		return fail(w, PMR_EINVAL, "record too large");
	if ((d = pmr_write_reserve(w, type, (uint32_t)n)) == NULL)
		return w->err;
	pmr_fields_encode(t, in, d);
	return PMR_OK;
}

uint64_t
pmr_writer_count(const struct pmr_writer *w)
{
	return w->nrec;
}

uint64_t
pmr_writer_outbytes(const struct pmr_writer *w)
{
	return w->outbytes;
}

const char *
pmr_writer_errmsg(const struct pmr_writer *w)
{
	return w->msg;
}

int
pmr_writer_close(struct pmr_writer *w, char *errbuf, size_t errlen)
{
	unsigned char *p;
	uint64_t n;
	int ret = PMR_OK;

	if (w->prov != NULL)
		ret = flush_prov(w, 0);
	n = w->nrec;
	if (ret == PMR_OK && w->err == PMR_OK && room(w, 16) == PMR_OK) {
		p = w->buf + w->len;
		pmr_put32(p, PMR_REC_END);
		pmr_put32(p + 4, 16);
		pmr_put64(p + 8, n);
		w->len += 16;
	}
	if (w->err == PMR_OK)
		flush(w);
	if (w->ownfd && close(w->fd) != 0)
		fail(w, PMR_EIO, "close: %s", strerror(errno));
	if (w->path != NULL) {
		if (close(w->fd) != 0)
			fail(w, PMR_EIO, "close: %s", strerror(errno));
		if (w->err == PMR_OK && rename(w->tmp, w->path) != 0)
			fail(w, PMR_EIO, "cannot rename to '%s': %s", w->path,
			    strerror(errno));
		if (w->err != PMR_OK)
			unlink(w->tmp);
	}
	ret = w->err;
	if (ret != PMR_OK && errbuf != NULL && errlen > 0)
		snprintf(errbuf, errlen, "%s", w->msg);
	writer_free(w);
	return ret;
}

void
pmr_writer_abort(struct pmr_writer *w)
{
	if (w == NULL)
		return;
	if (w->ownfd)
		close(w->fd);
	if (w->path != NULL) {
		close(w->fd);
		unlink(w->tmp);
	}
	writer_free(w);
}

/* --- text outputs ---------------------------------------------------- */

/*
 * A text output is a stdio stream over the descriptor through our own
 * write function, which keeps the errno of the first failed write: stdio
 * forgets it, and by the time the program checks ferror() errno may say
 * anything (a math function's EDOM was seen).
 */
static ssize_t
tx_write(void *cookie, const char *buf, size_t n)
{
	struct pmr_textout *o = cookie;
	size_t done = 0;
	ssize_t k;

	while (done < n) {
		if ((k = write(o->fd, buf + done, n - done)) < 0) {
			if (errno == EINTR)
				continue;
			if (o->werr == 0)
				o->werr = errno;
			return -1;
		}
		done += (size_t)k;
	}
	return (ssize_t)n;
}

static int
tx_close(void *cookie)
{
	struct pmr_textout *o = cookie;

	if (close(o->fd) != 0 && o->werr == 0)
		o->werr = errno;
	return o->werr != 0 ? -1 : 0;
}

static FILE *
tx_open(struct pmr_textout *o, int fd)
{
	cookie_io_functions_t io = { NULL, tx_write, NULL, tx_close };

	o->fd = fd;
	o->werr = 0;
	return fopencookie(o, "w", io);
}

int
pmr_textout_open(struct pmr_textout *o, const char *path)
{
	int fd;

	memset(o, 0, sizeof(*o));
	if (path == NULL || strcmp(path, "-") == 0) {
		o->f = stdout;
		return PMR_OK;
	}
	if ((fd = open_special(path)) != -2) {
		if (fd < 0 || (o->f = tx_open(o, fd)) == NULL) {
			if (fd >= 0)
				close(fd);
			return PMR_EIO;
		}
		return PMR_OK;	/* path stays NULL: nothing to rename */
	}
	if ((fd = tmp_create(path, &o->tmp)) < 0)
		return PMR_EIO;
	if ((o->f = tx_open(o, fd)) == NULL || (o->path = strdup(path)) ==
	    NULL) {
		int e = errno;

		if (o->f != NULL)
			fclose(o->f);
		else
			close(fd);
		unlink(o->tmp);
		tmp_forget(o->tmp);
		free(o->tmp);
		errno = e;
		return PMR_EIO;
	}
	return PMR_OK;
}

int
pmr_textout_close(struct pmr_textout *o, int ok)
{
	int ret = PMR_OK, e = 0;

	if (o->f == stdout || o->f == NULL)
		return PMR_OK;
	if (ferror(o->f) | fclose(o->f)) {
		e = o->werr != 0 ? o->werr : errno;
		ret = PMR_EIO;
	}
	if (o->tmp == NULL) {	/* a special file, written in place */
		o->f = NULL;
		errno = e;
		return ret;
	}
	if (ok && ret == PMR_OK && rename(o->tmp, o->path) != 0) {
		e = errno;
		ret = PMR_EIO;
	}
	if (!ok || ret != PMR_OK)
		unlink(o->tmp);
	tmp_forget(o->tmp);
	free(o->tmp);
	free(o->path);
	o->f = NULL;
	errno = e;
	return ret;
}
