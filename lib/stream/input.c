/*
 * input.c: the byte layer under every reader (see pmr_internal.h).
 *
 * A pmr_in reads a file descriptor or a memory buffer into an input buffer
 * (ib) and decodes it into an output buffer (ob) from which callers peek
 * contiguous runs and skip what they consumed.  The codec is detected from
 * the first bytes of each segment: zstd (and skippable) frames, xz streams,
 * gzip members, or raw bytes.  After a compressed segment ends the next
 * bytes are examined again, so concatenations of differently compressed
 * streams read as one; a raw segment lasts until pmr_in_resync() (called by
 * the record reader after each END record).  Memory use is bounded by the
 * largest peek (at most PMR_REC_MAX + 16) plus fixed buffers, whatever the
 * input length.
 */
#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "stream/pmr_internal.h"

#define IB_SIZE (256u * 1024)	   /* compressed input chunk */
#define OB_MIN (1u * 1024 * 1024)  /* decoded buffer, grown up to a peek */
#define PEEK_MAX (PMR_REC_MAX + 16u)

struct pmr_in {
	int fd;			/* -1 for memory input */
	int own_fd;
	unsigned char *ib;	/* compressed bytes [ipos, ilen) */
	size_t ipos, ilen, icap;
	int ieof;		/* no more bytes from the file */
	unsigned char *ob;	/* decoded bytes [opos, olen) */
	size_t opos, olen, ocap;
	enum pmr_codec codec;
	int insegment;		/* codec is valid for the coming bytes */
	int zactive;		/* a compressed member is open, not ended */
	ZSTD_DCtx *zd;
	lzma_stream xz;
	int xzinit;
	z_stream gz;
	int gzinit;
	uint64_t off;		/* decoded offset of ob[opos] */
	uint64_t rawbytes;	/* bytes read from the file or memory */
	int err;
	char msg[256];
};

void
pmr_msg(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/* Allocates a byte source; obsize is the first size of the decoded
 * buffer, which grows as peeks need. */
static struct pmr_in *
in_new(size_t obsize, int *err)
{
	struct pmr_in *in;

	in = calloc(1, sizeof(*in));
	if (in == NULL)
		goto nomem;
	in->fd = -1;
	in->icap = IB_SIZE;
	in->ocap = obsize;
	in->ib = malloc(in->icap);
	in->ob = malloc(in->ocap);
	if (in->ib == NULL || in->ob == NULL)
		goto nomem;
	return in;
nomem:
	if (in != NULL) {
		free(in->ib);
		free(in->ob);
		free(in);
	}
	*err = PMR_ENOMEM;
	return NULL;
}

struct pmr_in *
pmr_in_open(const char *path, int *err)
{
	struct pmr_in *in;
	int fd;

	if (path == NULL || strcmp(path, "-") == 0)
		fd = STDIN_FILENO;
	else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		*err = PMR_EIO;
		return NULL;
	}
	if ((in = in_new(OB_MIN, err)) == NULL) {
		if (fd != STDIN_FILENO)
			close(fd);
		return NULL;
	}
	in->fd = fd;
	in->own_fd = fd != STDIN_FILENO;
#ifdef POSIX_FADV_SEQUENTIAL
	if (in->own_fd)
		(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
	return in;
}

struct pmr_in *
pmr_in_fdopen(int fd, int *err)
{
	struct pmr_in *in;

	if ((in = in_new(OB_MIN, err)) == NULL) {
		close(fd);
		return NULL;
	}
	in->fd = fd;
	in->own_fd = 1;
	return in;
}

struct pmr_in *
pmr_in_open_mem(const void *buf, size_t len, int *err)
{
	struct pmr_in *in;

	/* Small inputs (tests, fuzzing) get small buffers. */
	if ((in = in_new(len < OB_MIN / 4 ? 65536 : OB_MIN, err)) == NULL)
		return NULL;
	if (len > in->icap) {
		unsigned char *p = realloc(in->ib, len);
		if (p == NULL) {
			pmr_in_close(in);
			*err = PMR_ENOMEM;
			return NULL;
		}
		in->ib = p;
		in->icap = len;
	}
	if (len > 0)
		memcpy(in->ib, buf, len);
	in->ilen = len;
	in->ieof = 1;
	in->rawbytes = len;
	return in;
}

void
pmr_in_close(struct pmr_in *in)
{
	if (in == NULL)
		return;
	if (in->own_fd)
		close(in->fd);
	ZSTD_freeDCtx(in->zd);
	if (in->xzinit)
		lzma_end(&in->xz);
	if (in->gzinit)
		inflateEnd(&in->gz);
	free(in->ib);
	free(in->ob);
	free(in);
}

static int
fail(struct pmr_in *in, int code, const char *fmt, ...) PMR_FORMAT(3, 4);

static int
fail(struct pmr_in *in, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(in->msg, sizeof(in->msg), fmt, ap);
	va_end(ap);
	in->err = code;
	return code;
}

/* Reads more file bytes into ib, keeping [ipos, ilen).  Returns bytes read,
 * 0 at end of file, or an error code. */
static ssize_t
fill_ib(struct pmr_in *in)
{
	ssize_t n;

	if (in->ieof)
		return 0;
	if (in->ipos > 0) {
		memmove(in->ib, in->ib + in->ipos, in->ilen - in->ipos);
		in->ilen -= in->ipos;
		in->ipos = 0;
	}
	if (in->ilen == in->icap)
		return in->ilen;	/* full: caller consumes first */
	do
		n = read(in->fd, in->ib + in->ilen, in->icap - in->ilen);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return fail(in, PMR_EIO, "read error: %s", strerror(errno));
	if (n == 0)
		in->ieof = 1;
	in->ilen += (size_t)n;
	in->rawbytes += (uint64_t)n;
	return n;
}

/* Looks at the next input bytes and chooses the codec of the segment.
 * Returns 1 when a segment starts, 0 at the end of input, or an error. */
static int
detect(struct pmr_in *in)
{
	const unsigned char *p;
	size_t n;
	ssize_t r;

	while (in->ilen - in->ipos < 6 && !in->ieof)
		if ((r = fill_ib(in)) < 0)
			return (int)r;
	n = in->ilen - in->ipos;
	if (n == 0)
		return 0;
	p = in->ib + in->ipos;
	in->codec = PMR_C_RAW;
	if (n >= 4 && ((p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f &&
	    p[3] == 0xfd) || ((p[0] & 0xf0) == 0x50 && p[1] == 0x2a &&
	    p[2] == 0x4d && p[3] == 0x18))) {
		in->codec = PMR_C_ZSTD;
		if (in->zd == NULL && (in->zd = ZSTD_createDCtx()) == NULL)
			return fail(in, PMR_ENOMEM, "out of memory");
		ZSTD_DCtx_reset(in->zd, ZSTD_reset_session_only);
	} else if (n >= 6 && memcmp(p, "\xfd" "7zXZ\0", 6) == 0) {
		in->codec = PMR_C_XZ;
		if (in->xzinit)
			lzma_end(&in->xz);
		in->xz = (lzma_stream)LZMA_STREAM_INIT;
		if (lzma_stream_decoder(&in->xz, UINT64_MAX, 0) != LZMA_OK)
			return fail(in, PMR_ENOMEM, "cannot start xz decoder");
		in->xzinit = 1;
	} else if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b) {
		in->codec = PMR_C_GZIP;
		if (in->gzinit)
			inflateEnd(&in->gz);
		memset(&in->gz, 0, sizeof(in->gz));
		if (inflateInit2(&in->gz, 16 + MAX_WBITS) != Z_OK)
			return fail(in, PMR_ENOMEM, "cannot start gzip decoder");
		in->gzinit = 1;
	}
	in->insegment = 1;
	in->zactive = in->codec != PMR_C_RAW;
	return 1;
}

static const char *
codec_name(enum pmr_codec c)
{
	switch (c) {
	case PMR_C_ZSTD:
		return "zstd";
	case PMR_C_XZ:
		return "xz";
	case PMR_C_GZIP:
		return "gzip";
	default:
		return "raw";
	}
}

/* Decodes some input into ob[olen, ocap).  Returns >0 if bytes were
 * produced or progress was made, 0 at the end of input, or an error. */
static int
decode_some(struct pmr_in *in)
{
	size_t room = in->ocap - in->olen;
	ssize_t r;
	int d;

	if (!in->insegment) {
		if ((d = detect(in)) <= 0)
			return d;
	}
	if (in->codec == PMR_C_RAW && in->ipos == in->ilen && in->fd >= 0 &&
	    !in->ieof && room > 0) {
		/* raw bytes need no decoding: read them where they go
		 * (pmr_in_resync gives back what a segment leaves) */
		do
			r = read(in->fd, in->ob + in->olen, room);
		while (r < 0 && errno == EINTR);
		if (r < 0)
			return fail(in, PMR_EIO, "read error: %s",
			    strerror(errno));
		if (r == 0) {
			in->ieof = 1;
			return 0;
		}
		in->olen += (size_t)r;
		in->rawbytes += (uint64_t)r;
		return 1;
	}
	if (in->ipos == in->ilen) {
		if ((r = fill_ib(in)) < 0)
			return (int)r;
		if (r == 0 && in->ipos == in->ilen) {
			if (in->zactive)
				return fail(in, PMR_ETRUNC,
				    "truncated %s data at end of input",
				    codec_name(in->codec));
			return 0;
		}
	}
	switch (in->codec) {
	case PMR_C_RAW: {
		size_t n = in->ilen - in->ipos;

		if (n > room)
			n = room;
		memcpy(in->ob + in->olen, in->ib + in->ipos, n);
		in->olen += n;
		in->ipos += n;
		return 1;
	}
	case PMR_C_ZSTD: {
		ZSTD_inBuffer zi = { in->ib, in->ilen, in->ipos };
		ZSTD_outBuffer zo = { in->ob, in->ocap, in->olen };
		size_t ret = ZSTD_decompressStream(in->zd, &zo, &zi);

		in->ipos = zi.pos;
		in->olen = zo.pos;
		if (ZSTD_isError(ret))
			return fail(in, PMR_ECORRUPT, "corrupt zstd data: %s",
			    ZSTD_getErrorName(ret));
		if (ret == 0) {
			/* A frame ended: zstd again, or a new segment. */
			in->zactive = 0;
			in->insegment = 0;
		} else
			in->zactive = 1;
		return 1;
	}
	case PMR_C_XZ: {
		lzma_ret ret;

		in->xz.next_in = in->ib + in->ipos;
		in->xz.avail_in = in->ilen - in->ipos;
		in->xz.next_out = in->ob + in->olen;
		in->xz.avail_out = room;
		ret = lzma_code(&in->xz, LZMA_RUN);
		in->ipos = in->ilen - in->xz.avail_in;
		in->olen = in->ocap - in->xz.avail_out;
		if (ret == LZMA_STREAM_END) {
			in->zactive = 0;
			in->insegment = 0;
		} else if (ret == LZMA_MEM_ERROR)
			return fail(in, PMR_ENOMEM, "xz: out of memory");
		else if (ret == LZMA_FORMAT_ERROR || ret == LZMA_OPTIONS_ERROR)
			return fail(in, PMR_ECORRUPT, "corrupt xz data: bad "
			    "stream header or options");
		else if (ret != LZMA_OK)
			return fail(in, PMR_ECORRUPT, "corrupt xz data%s",
			    ret == LZMA_DATA_ERROR ? "" :
			    ": integrity check failed");
		return 1;
	}
	case PMR_C_GZIP: {
		int ret;

		in->gz.next_in = in->ib + in->ipos;
		in->gz.avail_in = (uInt)(in->ilen - in->ipos);
		in->gz.next_out = in->ob + in->olen;
		in->gz.avail_out = (uInt)(room > UINT32_MAX ? UINT32_MAX :
		    room);
		ret = inflate(&in->gz, Z_NO_FLUSH);
		in->ipos = in->ilen - in->gz.avail_in;
		in->olen = (size_t)(in->gz.next_out - in->ob);
		if (ret == Z_STREAM_END) {
			in->zactive = 0;
			in->insegment = 0;
		} else if (ret == Z_MEM_ERROR)
			return fail(in, PMR_ENOMEM, "gzip: out of memory");
		else if (ret != Z_OK && ret != Z_BUF_ERROR)
			return fail(in, PMR_ECORRUPT, "corrupt gzip data: %s",
			    in->gz.msg ? in->gz.msg : "inflate error");
		return 1;
	}
	}
	return fail(in, PMR_EINVAL, "bad codec");
}

const unsigned char *
pmr_in_peek(struct pmr_in *in, size_t want, size_t *avail, int *err)
{
	int r;

	if (in->err) {
		*err = in->err;
		return NULL;
	}
	if (want > PEEK_MAX) {
		*err = fail(in, PMR_EINVAL, "peek of %zu bytes", want);
		return NULL;
	}
	while (in->olen - in->opos < want) {
		if (in->ocap - in->opos < want) {
			/* Not enough room behind opos: grow (bounded). */
			size_t ncap = in->ocap;
			unsigned char *p;

			while (ncap < want)
				ncap *= 2;
			if (ncap > in->ocap) {
				if ((p = realloc(in->ob, ncap)) == NULL) {
					*err = fail(in, PMR_ENOMEM,
					    "out of memory");
					return NULL;
				}
				in->ob = p;
				in->ocap = ncap;
			}
		}
		if (in->olen == in->ocap || in->ocap - in->olen < 65536) {
			memmove(in->ob, in->ob + in->opos,
			    in->olen - in->opos);
			in->olen -= in->opos;
			in->opos = 0;
		}
		if ((r = decode_some(in)) < 0) {
			*err = r;
			return NULL;
		}
		if (r == 0)
			break;
	}
	*avail = in->olen - in->opos;
	return in->ob + in->opos;
}

void
pmr_in_skip(struct pmr_in *in, size_t n)
{
	if (n > in->olen - in->opos)
		n = in->olen - in->opos;
	in->opos += n;
	in->off += n;
}

void
pmr_in_resync(struct pmr_in *in)
{
	size_t left = in->olen - in->opos;

	if (in->codec != PMR_C_RAW || !in->insegment)
		return;
	/* Decoded-but-unread raw bytes go back in front of the input. */
	if (left > 0) {
		size_t rest = in->ilen - in->ipos;

		if (in->ipos >= left) {
			in->ipos -= left;
		} else {
			if (rest + left > in->icap) {
				unsigned char *p = realloc(in->ib, rest + left);

				if (p == NULL) {
					fail(in, PMR_ENOMEM, "out of memory");
					return;
				}
				in->ib = p;
				in->icap = rest + left;
			}
			memmove(in->ib + left, in->ib + in->ipos, rest);
			in->ipos = 0;
			in->ilen = rest + left;
		}
		memcpy(in->ib + in->ipos, in->ob + in->opos, left);
		in->olen = in->opos;
	}
	in->insegment = 0;
}

uint64_t
pmr_in_offset(const struct pmr_in *in)
{
	return in->off;
}

uint64_t
pmr_in_rawbytes(const struct pmr_in *in)
{
	return in->rawbytes - (in->ilen - in->ipos);
}

enum pmr_codec
pmr_in_codec(const struct pmr_in *in)
{
	return in->codec;
}

const char *
pmr_in_errmsg(const struct pmr_in *in)
{
	return in->msg;
}
