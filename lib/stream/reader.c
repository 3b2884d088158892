/*
 * reader.c: reads pmr record streams, as specified in man/pmr.5.
 *
 * Input is one or more concatenated streams, each "magic, header length,
 * header, records, END", possibly compressed (see input.c).  The reader
 * checks every length against the limits before use, returns records as
 * pointers into the decoded buffer (no copy, no allocation per record), and
 * tells clean end (0), truncation (PMR_ETRUNC), structural corruption
 * (PMR_ECORRUPT), a non-pmr input (PMR_EFORMAT) and an unknown
 * must-understand feature (PMR_EVERSION) apart, with a message that names
 * the record index and the reason.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "stream/pmr_internal.h"

/* The magic: a non-ASCII byte, "PMR", CR LF (catches text-mode
 * conversion), ^Z, and the major version. */
static const unsigned char magic[8] = { 0x89, 'P', 'M', 'R', '\r', '\n',
	0x1a, PMR_VERSION_MAJOR };
#define HDR_FIXED 16u	/* minor, reserved, must, ign, creator length */

enum { ST_HEADER, ST_RECORDS, ST_ERROR };

struct pmr_reader {
	struct pmr_in *in;
	unsigned flags;
	int state;
	int err;
	char msg[320];
	struct pmr_header hdr;
	unsigned char *hdrbuf;	/* header payload, owned */
	uint32_t hdrlen;
	uint64_t index;		/* wire records seen (END included) */
	uint64_t nrec;		/* records of the current stream */
	uint64_t nstreams;
	uint32_t minlen[PMR_REC_USER];	/* 0: unknown core type */
	/* A window on the byte layer's buffer, consumed without calling it:
	 * [win + used, win + wlen) is unread; "used" bytes are skipped in
	 * the byte layer at the next refill.  Valid until that refill. */
	const unsigned char *win;
	size_t wlen, used;
	uint64_t woff;		/* decoded offset of win[0] */
	/* An optional producer behind the input (a conversion thread). */
	const char *(*perrmsg)(void *);
	void (*pdone)(void *);
	void *pctx;
};

const unsigned char *pmr_magic(void);

const unsigned char *
pmr_magic(void)
{
	return magic;
}

static struct pmr_reader *
reader_new(struct pmr_in *in, unsigned flags, int *err)
{
	struct pmr_reader *r;
	unsigned t;

	if ((r = calloc(1, sizeof(*r))) == NULL) {
		pmr_in_close(in);
		*err = PMR_ENOMEM;
		return NULL;
	}
	r->in = in;
	r->flags = flags;
	for (t = 1; t < PMR_REC_USER; t++) {
		const struct pmr_rtype *rt = pmr_rtype_find(t);

		/* Stored +1 so that 0 means "not a known type". */
		r->minlen[t] = rt ? (uint32_t)pmr_rtype_minlen(rt) + 1 : 0;
	}
	return r;
}

struct pmr_reader *
pmr_reader_open(const char *path, unsigned flags, int *err)
{
	struct pmr_in *in;

	if ((in = pmr_in_open(path, err)) == NULL)
		return NULL;
	return reader_new(in, flags, err);
}

struct pmr_reader *
pmr_reader_fdopen(int fd, unsigned flags, int *err)
{
	struct pmr_in *in;

	if ((in = pmr_in_fdopen(fd, err)) == NULL)
		return NULL;
	return reader_new(in, flags, err);
}

void
pmr_reader_set_producer(struct pmr_reader *r, const char *(*errmsg)(void *),
    void (*done)(void *), void *ctx)
{
	r->perrmsg = errmsg;
	r->pdone = done;
	r->pctx = ctx;
}

struct pmr_reader *
pmr_reader_open_mem(const void *buf, size_t len, unsigned flags, int *err)
{
	struct pmr_in *in;

	if ((in = pmr_in_open_mem(buf, len, err)) == NULL)
		return NULL;
	return reader_new(in, flags, err);
}

void
pmr_reader_close(struct pmr_reader *r)
{
	if (r == NULL)
		return;
	pmr_in_close(r->in);
	if (r->pdone != NULL)
		r->pdone(r->pctx);
	free(r->hdrbuf);
	free(r);
}

static int
fail(struct pmr_reader *r, int code, const char *fmt, ...) PMR_FORMAT(3, 4);

static int
fail(struct pmr_reader *r, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->msg, sizeof(r->msg), fmt, ap);
	va_end(ap);
	r->err = code;
	r->state = ST_ERROR;
	/* The producer's own error explains a stream that stopped short. */
	if (r->perrmsg != NULL) {
		const char *m = r->perrmsg(r->pctx);

		if (m != NULL && *m != '\0')
			snprintf(r->msg, sizeof(r->msg), "%s", m);
	}
	return code;
}

/* Takes over an error of the byte layer. */
static int
fail_in(struct pmr_reader *r, int code)
{
	return fail(r, code, "%s", pmr_in_errmsg(r->in));
}

/* Makes at least want unread bytes visible in the window, if the input
 * has them.  Returns the number visible, or an error. */
static long
refill(struct pmr_reader *r, size_t want)
{
	size_t avail;
	int err = 0;

	pmr_in_skip(r->in, r->used);
	r->woff += r->used;
	r->used = 0;
	r->win = pmr_in_peek(r->in, want, &avail, &err);
	if (r->win == NULL) {
		r->wlen = 0;
		return fail_in(r, err);
	}
	r->wlen = avail;
	return (long)avail;
}

static const char *
type_name(uint32_t type, char *buf, size_t len)
{
	const struct pmr_rtype *t = pmr_rtype_find(type);

	if (t != NULL)
		return t->name;
	snprintf(buf, len, "type %u", type);
	return buf;
}

/* Reads a stream header.  Returns 1 when one was read, 0 at a clean end
 * (only after a complete stream), or an error. */
static int
read_header(struct pmr_reader *r)
{
	const unsigned char *p;
	size_t avail;
	uint32_t hlen;
	const char *why = NULL;
	unsigned char *nb;
	int err = 0;

	pmr_in_skip(r->in, r->used);
	r->woff += r->used;
	r->used = 0;
	r->wlen = 0;
	if ((p = pmr_in_peek(r->in, 12, &avail, &err)) == NULL)
		return fail_in(r, err);
	if (avail == 0) {
		if (r->nstreams > 0)
			return 0;
		return fail(r, PMR_ETRUNC, "empty input");
	}
	if (memcmp(p, magic, avail < 7 ? avail : 7) != 0) {
		if (r->nstreams > 0)
			return fail(r, PMR_ECORRUPT,
			    "data after END record at byte %llu is not a "
			    "stream header", (unsigned long long)
			    pmr_in_offset(r->in));
		return fail(r, PMR_EFORMAT, "not a pmr stream (bad magic)");
	}
	if (avail < 12)
		return fail(r, PMR_ETRUNC, "truncated stream header");
	if (p[7] != magic[7])
		return fail(r, PMR_EVERSION,
		    "unsupported stream major version %u (this reader "
		    "knows %u)", p[7], magic[7]);
	hlen = pmr_le32(p + 8);
	if (hlen < HDR_FIXED || hlen > PMR_HDR_MAX)
		return fail(r, PMR_ECORRUPT, "bad stream header length %u",
		    hlen);
	if ((p = pmr_in_peek(r->in, 12 + (size_t)hlen, &avail, &err)) == NULL)
		return fail_in(r, err);
	if (avail < 12 + (size_t)hlen)
		return fail(r, PMR_ETRUNC, "truncated stream header");
	if ((nb = realloc(r->hdrbuf, hlen)) == NULL)
		return fail(r, PMR_ENOMEM, "out of memory");
	r->hdrbuf = nb;
	r->hdrlen = hlen;
	memcpy(nb, p + 12, hlen);
	pmr_in_skip(r->in, 12 + (size_t)hlen);
	r->woff = pmr_in_offset(r->in);
	if (pmr_fields_decode(pmr_rtype_find(PMR_REC_HEADER), nb, hlen,
	    &r->hdr, &why) != PMR_OK)
		return fail(r, PMR_ECORRUPT, "corrupt stream header (%s)",
		    why);
	if (r->hdr.must_flags & ~(uint32_t)PMR_MUST_KNOWN)
		return fail(r, PMR_EVERSION,
		    "stream needs unknown must-understand features 0x%x",
		    r->hdr.must_flags & ~(uint32_t)PMR_MUST_KNOWN);
	r->nstreams++;
	r->nrec = 0;
	r->state = ST_RECORDS;
	return 1;
}

int
pmr_reader_next(struct pmr_reader *r, struct pmr_rec *rec)
{
	const unsigned char *p;
	size_t avail;
	uint32_t type, size;
	char tb[32];
	int ret;

	for (;;) {
		if (r->state == ST_ERROR)
			return r->err;
		if (r->state == ST_HEADER) {
			if ((ret = read_header(r)) <= 0)
				return ret;
			if (r->flags & PMR_RD_FRAMING) {
				rec->type = PMR_REC_HEADER;
				rec->len = r->hdrlen;
				rec->p = r->hdrbuf;
				rec->index = r->index;
				rec->offset = pmr_in_offset(r->in) - 12 -
				    r->hdrlen;
				return 1;
			}
			continue;
		}
		avail = r->wlen - r->used;
		if (avail < 8) {
			long k = refill(r, 8);

			if (k < 0)
				return (int)k;
			avail = (size_t)k;
		}
		p = r->win + r->used;
		if (avail == 0)
			return fail(r, PMR_ETRUNC,
			    "missing END record after record %llu",
			    (unsigned long long)r->index);
		if (avail < 8)
			return fail(r, PMR_ETRUNC,
			    "record %llu: truncated record header",
			    (unsigned long long)r->index);
		type = pmr_le32(p);
		size = pmr_le32(p + 4);
		if (type == 0)
			return fail(r, PMR_ECORRUPT,
			    "record %llu: invalid record type 0",
			    (unsigned long long)r->index);
		if (size < 8)
			return fail(r, PMR_ECORRUPT,
			    "record %llu: size %u smaller than the record "
			    "header", (unsigned long long)r->index, size);
		if (size > PMR_REC_MAX)
			return fail(r, PMR_ECORRUPT,
			    "record %llu: size %u exceeds the limit %u",
			    (unsigned long long)r->index, size, PMR_REC_MAX);
		if (type < PMR_REC_USER) {
			if (r->minlen[type] > 0 &&
			    size - 8 < r->minlen[type] - 1)
				return fail(r, PMR_ECORRUPT,
				    "record %llu: %s size %u smaller than its "
				    "fixed part %u",
				    (unsigned long long)r->index,
				    type_name(type, tb, sizeof(tb)), size,
				    r->minlen[type] - 1 + 8);
		} else if ((type & PMR_REC_CRITICAL) &&
		    pmr_rtype_find(type) == NULL)
			return fail(r, PMR_EVERSION,
			    "record %llu: unknown must-understand record "
			    "type 0x%x", (unsigned long long)r->index, type);
		if (avail < size) {
			long k = refill(r, size);

			if (k < 0)
				return (int)k;
			avail = (size_t)k;
			p = r->win;
		}
		if (avail < size)
			return fail(r, PMR_ETRUNC,
			    "record %llu: %s truncated (size %u, %zu bytes "
			    "left)", (unsigned long long)r->index,
			    type_name(type, tb, sizeof(tb)), size, avail);
		rec->type = type;
		rec->len = size - 8;
		rec->p = p + 8;
		rec->index = r->index++;
		rec->offset = r->woff + r->used;
		r->used += size;
		if (type == PMR_REC_END) {
			uint64_t n = pmr_le64(rec->p);

			if (n != r->nrec)
				return fail(r, PMR_ECORRUPT,
				    "record %llu: END counts %llu records, "
				    "the stream has %llu",
				    (unsigned long long)rec->index,
				    (unsigned long long)n,
				    (unsigned long long)r->nrec);
			r->state = ST_HEADER;
			pmr_in_skip(r->in, r->used);
			r->woff += r->used;
			r->used = 0;
			r->wlen = 0;
			pmr_in_resync(r->in);
			if (r->flags & PMR_RD_FRAMING)
				return 1;
			continue;
		}
		r->nrec++;
		return 1;
	}
}

size_t
pmr_reader_run(struct pmr_reader *r, uint32_t type, uint32_t len,
    size_t max, const unsigned char **pp, uint64_t *index)
{
	const unsigned char *p = r->win + r->used;
	uint32_t size = len + 8;
	size_t n, k;

	/* what pmr_reader_next() checks of such a record: a known type's
	 * fixed part, the size limit */
	if (r->state != ST_RECORDS || type == PMR_REC_END || type == 0 ||
	    size > PMR_REC_MAX || (type < PMR_REC_USER && r->minlen[type] >
	    0 && len < r->minlen[type] - 1) || (type >= PMR_REC_USER &&
	    (type & PMR_REC_CRITICAL)))
		return 0;
	n = (r->wlen - r->used) / size;
	n = n < max ? n : max;
	for (k = 0; k < n; k++, p += size)
		if (pmr_le32(p) != type || pmr_le32(p + 4) != size)
			break;
	*pp = r->win + r->used + 8;
	*index = r->index;
	r->index += k;
	r->nrec += k;
	r->used += k * size;
	return k;
}

const char *
pmr_reader_errmsg(const struct pmr_reader *r)
{
	return r->msg;
}

const struct pmr_header *
pmr_reader_header(const struct pmr_reader *r)
{
	return &r->hdr;
}

uint64_t
pmr_reader_nstreams(const struct pmr_reader *r)
{
	return r->nstreams;
}

enum pmr_codec
pmr_reader_codec(const struct pmr_reader *r)
{
	return pmr_in_codec(r->in);
}

uint64_t
pmr_reader_inbytes(const struct pmr_reader *r)
{
	return pmr_in_rawbytes(r->in);
}

const char *
pmr_strerror(int code)
{
	switch (code) {
	case PMR_OK:
		return "success";
	case PMR_EIO:
		/* the system's reason, as the failing call left errno */
		return errno != 0 ? strerror(errno) : "input/output error";
	case PMR_ETRUNC:
		return "truncated input";
	case PMR_ECORRUPT:
		return "corrupt input";
	case PMR_EFORMAT:
		return "not a pmr stream";
	case PMR_EVERSION:
		return "unsupported stream version or feature";
	case PMR_ENOMEM:
		return "out of memory";
	case PMR_EINVAL:
		return "invalid argument";
	default:
		return "unknown error";
	}
}
