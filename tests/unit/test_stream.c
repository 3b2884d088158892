/*
 * test_stream.c: unit tests of libpmr's record stream: byte order against
 * hand-written bytes, round trips of every registered record type through
 * every codec, boundary sizes, concatenation, the error codes of bad input,
 * the temporary-file discipline of the writer, the text forms and strict
 * number parsing.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stream/pmr.h"
#include "stream/pmr_internal.h"
#include "util/cli.h"
#include "unit.h"

static char tmpdir[64];

static const char *
tmppath(const char *name)
{
	static char buf[4][256];
	static int k;

	if (tmpdir[0] == '\0') {
		strcpy(tmpdir, "/tmp/pmr-unit.XXXXXX");
		if (mkdtemp(tmpdir) == NULL)
			abort();
	}
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", tmpdir, name);
	return buf[k];
}

static unsigned char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *p;
	long n;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	p = malloc((size_t)n + 1);
	if (fread(p, 1, (size_t)n, f) != (size_t)n)
		abort();
	fclose(f);
	*len = (size_t)n;
	return p;
}

/* Reads every record of a memory stream; returns the last code. */
static int
read_all(const void *buf, size_t len, uint64_t *count, char *msg,
    size_t msglen)
{
	struct pmr_reader *r;
	struct pmr_rec rec;
	int err = 0, ret;

	*count = 0;
	r = pmr_reader_open_mem(buf, len, 0, &err);
	if (r == NULL)
		return err;
	while ((ret = pmr_reader_next(r, &rec)) == 1)
		(*count)++;
	if (msg != NULL)
		snprintf(msg, msglen, "%s", pmr_reader_errmsg(r));
	pmr_reader_close(r);
	return ret;
}

UNIT_TEST(le_bytes)
{
	unsigned char b[8];

	pmr_put16(b, 0x1234);
	CHECK(b[0] == 0x34 && b[1] == 0x12);
	pmr_put32(b, 0x89abcdefu);
	CHECK(memcmp(b, "\xef\xcd\xab\x89", 4) == 0);
	pmr_put64(b, 0x0102030405060708ull);
	CHECK(memcmp(b, "\x08\x07\x06\x05\x04\x03\x02\x01", 8) == 0);
	CHECK_EQ_U64(pmr_le64(b), 0x0102030405060708ull);
	CHECK_EQ(pmr_le32((const unsigned char *)"\xff\x00\x00\x80"),
	    0x800000ffll);
	CHECK_EQ(pmr_le16((const unsigned char *)"\x01\xff"), 0xff01);
}

/* A stream written by the writer has exactly the documented bytes. */
UNIT_TEST(wire_layout)
{
	static const unsigned char want[] = {
		/* magic */
		0x89, 'P', 'M', 'R', '\r', '\n', 0x1a, 0x01,
		/* header length 18 = 16 fixed + "xy" */
		18, 0, 0, 0,
		/* minor 6, reserved 0, must 0, ign 0, creator "xy" */
		6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 'x', 'y',
		/* EVENT: type 24, size 25, kind 2, pc, value */
		24, 0, 0, 0, 25, 0, 0, 0, 2,
		0x10, 0x32, 0x54, 0x76, 0, 0, 0, 0,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		/* END: type 1, size 16, count 1 */
		1, 0, 0, 0, 16, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
	};
	struct pmr_wopts o = { "xy", 0, 0, 0 };
	struct pmr_event ev = { PMR_EV_EDGE, 0x76543210, UINT64_MAX };
	struct pmr_writer *w;
	unsigned char *got;
	size_t len = 0;
	int err = 0;

	w = pmr_writer_open(tmppath("layout.pmr"), &o, &err);
	CHECK(w != NULL);
	CHECK_EQ(pmr_write(w, PMR_REC_EVENT, &ev), PMR_OK);
	CHECK_EQ(pmr_writer_close(w, NULL, 0), PMR_OK);
	got = slurp(tmppath("layout.pmr"), &len);
	CHECK(got != NULL);
	CHECK_EQ(len, sizeof(want));
	CHECK(got != NULL && memcmp(got, want, sizeof(want)) == 0);
	free(got);
}

/* Fills a decoded struct of t with values derived from seed. */
static void
fill_struct(const struct pmr_rtype *t, unsigned char *s, unsigned seed,
    unsigned char *pool)
{
	unsigned i;

	memset(s, 0, t->size);
	for (i = 0; i < t->nfields; i++) {
		const struct pmr_field *f = &t->fields[i];
		unsigned char *d = s + f->off;
		uint64_t v = 0x0123456789abcdefull * (seed + i + 1);
		struct pmr_bytes b;

		switch (f->kind) {
		case PMR_K_U8:
			*d = (unsigned char)v;
			break;
		case PMR_K_U16: {
			uint16_t x = (uint16_t)v;
			memcpy(d, &x, 2);
			break;
		}
		case PMR_K_U32: {
			uint32_t x = (uint32_t)v;
			memcpy(d, &x, 4);
			break;
		}
		case PMR_K_F64: {
			double x = (double)(v >> 11) / 3.0;
			memcpy(d, &x, 8);
			break;
		}
		case PMR_K_STR:
		case PMR_K_BLOB:
		case PMR_K_A64:
			b.p = pool;
			b.n = (seed + i) % 5;
			memcpy(d, &b, sizeof(b));
			break;
		default:
			memcpy(d, &v, 8);
		}
	}
}

/* Writes n records of every registered type with the codec; reads them
 * back and compares the payload bytes. */
static void
roundtrip(const char *name, int compress)
{
	unsigned char pool[64], s[512], enc[1024];
	struct pmr_wopts o = { "unit", compress, 0, 0 };
	struct pmr_writer *w;
	struct pmr_reader *r;
	struct pmr_rec rec;
	const struct pmr_rtype *t;
	unsigned i, k, nwritten = 0, nread = 0;
	int err = 0;

	for (i = 0; i < sizeof(pool); i++)
		pool[i] = (unsigned char)("a\tb\\c\"d\n"[i % 8] + i / 8);
	w = pmr_writer_open(tmppath(name), &o, &err);
	CHECK(w != NULL);
	if (w == NULL)
		return;
	for (k = 0; k < 3000; k++)
		for (i = 0; (t = pmr_rtype_at(i)) != NULL; i++) {
			if (t->type == PMR_REC_HEADER ||
			    t->type == PMR_REC_END)
				continue;
			fill_struct(t, s, k, pool);
			CHECK_EQ(pmr_write(w, t->type, s), PMR_OK);
			nwritten++;
		}
	CHECK_EQ(pmr_writer_close(w, NULL, 0), PMR_OK);
	r = pmr_reader_open(tmppath(name), 0, &err);
	CHECK(r != NULL);
	if (r == NULL)
		return;
	for (k = 0; k < 3000; k++)
		for (i = 0; (t = pmr_rtype_at(i)) != NULL; i++) {
			const char *why;

			if (t->type == PMR_REC_HEADER ||
			    t->type == PMR_REC_END)
				continue;
			if (pmr_reader_next(r, &rec) != 1) {
				CHECK(!"record missing");
				goto out;
			}
			nread++;
			CHECK_EQ(rec.type, t->type);
			fill_struct(t, s, k, pool);
			/* The payload is exactly the expected encoding. */
			{
				unsigned char got[512];
				size_t n = pmr_fields_size(t, s);

				pmr_fields_encode(t, s, enc);
				CHECK_EQ(rec.len, n);
				CHECK(memcmp(rec.p, enc, n) == 0);
				CHECK_EQ(pmr_rec_decode(&rec, got, &why), 0);
			}
			if (k == 0 && t->type == PMR_REC_EVENT) {
				struct pmr_event *e = (struct pmr_event *)s;

				CHECK_EQ(rec.len, 17);
				CHECK_EQ(rec.p[0], e->kind);
				CHECK_EQ_U64(pmr_le64(rec.p + 1), e->pc);
				CHECK_EQ_U64(pmr_le64(rec.p + 9), e->value);
			}
		}
	CHECK_EQ(pmr_reader_next(r, &rec), 0);
	CHECK_EQ(pmr_reader_codec(r), compress ? PMR_C_ZSTD : PMR_C_RAW);
out:
	CHECK_EQ(nread, nwritten);
	pmr_reader_close(r);
}

UNIT_TEST(roundtrip_raw)
{
	roundtrip("rt.pmr", 0);
}

UNIT_TEST(roundtrip_zstd)
{
	roundtrip("rt.pmr.zst", -1);
}

/* Every registered type: print as TSV, parse back, same payload bytes. */
UNIT_TEST(text_roundtrip)
{
	unsigned char pool[64], s[512], a[1024], b[1024];
	const struct pmr_rtype *t;
	unsigned i, k;

	for (i = 0; i < sizeof(pool); i++)
		pool[i] = (unsigned char)(i * 37 + 1);
	for (k = 0; k < 7; k++)
		for (i = 0; (t = pmr_rtype_at(i)) != NULL; i++) {
			struct pmr_rtype tt = *t;
			struct pmr_rec rec;
			char *line = NULL, ebuf[128];
			size_t n, ln = 0;
			uint32_t type;
			int len;
			FILE *f;

			if (t->type == PMR_REC_HEADER)
				continue;
			fill_struct(&tt, s, k, pool);
			n = 0;
			n = pmr_fields_size(t, s);
			pmr_fields_encode(t, s, a);
			rec.type = t->type;
			rec.len = (uint32_t)n;
			rec.p = a;
			f = open_memstream(&line, &ln);
			CHECK_EQ(pmr_rec_print(f, PMR_FMT_TSV, &rec, NULL,
			    NULL), 0);
			fclose(f);
			len = pmr_rec_parse(line, &type, b, sizeof(b), ebuf,
			    sizeof(ebuf));
			if (len < 0)
				printf("# parse '%s': %s\n", line, ebuf);
			CHECK_EQ(len, (int)n);
			CHECK_EQ(type, t->type);
			CHECK(len >= 0 && memcmp(a, b, n) == 0);
			free(line);
		}
}

UNIT_TEST(parse_errors)
{
	unsigned char b[256];
	char e[128];
	uint32_t type;

	CHECK_EQ(pmr_rec_parse("# comment", &type, b, sizeof(b), e,
	    sizeof(e)), PMR_EINVAL);
	CHECK_STR(e, "");
	CHECK_EQ(pmr_rec_parse("NOPE\t1", &type, b, sizeof(b), e,
	    sizeof(e)), PMR_EINVAL);
	CHECK_STR(e, "unknown record type 'NOPE'");
	CHECK_EQ(pmr_rec_parse("EVENT\t1\t2", &type, b, sizeof(b), e,
	    sizeof(e)), PMR_EINVAL);
	CHECK_STR(e, "EVENT needs 3 fields, line has 2");
	CHECK_EQ(pmr_rec_parse("EVENT\t256\t0x1\t0x2", &type, b, sizeof(b),
	    e, sizeof(e)), PMR_EINVAL);
	CHECK_STR(e, "EVENT field kind: bad value '256'");
	CHECK_EQ(pmr_rec_parse("EVENT\t1\t12z\t0x2", &type, b, sizeof(b), e,
	    sizeof(e)), PMR_EINVAL);
	CHECK_EQ(pmr_rec_parse("77\tabc", &type, b, sizeof(b), e,
	    sizeof(e)), PMR_EINVAL);
	CHECK_EQ(pmr_rec_parse("77\tabcd", &type, b, sizeof(b), e,
	    sizeof(e)), 2);
	CHECK_EQ(type, 77);
	CHECK_EQ(pmr_rec_parse("META\ta\\q\tb", &type, b, sizeof(b), e,
	    sizeof(e)), PMR_EINVAL);
	/* A known type must be written by name, so that it is checked. */
	CHECK_EQ(pmr_rec_parse("3\t", &type, b, sizeof(b), e, sizeof(e)),
	    PMR_EINVAL);
	CHECK_STR(e, "type 3 is META: write it by name, field by field");
}

/* Hand-built streams for the reader's error codes. */
static size_t
hdr(unsigned char *p, uint32_t must)
{
	memcpy(p, "\x89PMR\r\n\x1a\x01", 8);
	pmr_put32(p + 8, 16);
	memset(p + 12, 0, 16);
	pmr_put32(p + 16, must);
	return 28;
}

static size_t
rec(unsigned char *p, uint32_t type, uint32_t size)
{
	pmr_put32(p, type);
	pmr_put32(p + 4, size);
	memset(p + 8, 0, size > 8 ? size - 8 : 0);
	return size;
}

static size_t
end(unsigned char *p, uint64_t n)
{
	rec(p, PMR_REC_END, 16);
	pmr_put64(p + 8, n);
	return 16;
}

UNIT_TEST(reader_errors)
{
	static unsigned char b[4096];
	uint64_t n;
	char m[256];
	size_t k;

	/* empty, bad magic, version */
	CHECK_EQ(read_all(b, 0, &n, m, sizeof(m)), PMR_ETRUNC);
	CHECK_STR(m, "empty input");
	CHECK_EQ(read_all("hello, world", 12, &n, m, sizeof(m)), PMR_EFORMAT);
	k = hdr(b, 0);
	b[7] = 2;
	CHECK_EQ(read_all(b, k, &n, m, sizeof(m)), PMR_EVERSION);
	/* truncated header, missing END */
	k = hdr(b, 0);
	CHECK_EQ(read_all(b, 20, &n, m, sizeof(m)), PMR_ETRUNC);
	CHECK_STR(m, "truncated stream header");
	CHECK_EQ(read_all(b, k, &n, m, sizeof(m)), PMR_ETRUNC);
	CHECK_STR(m, "missing END record after record 0");
	/* a good empty stream */
	k += end(b + k, 0);
	CHECK_EQ(read_all(b, k, &n, m, sizeof(m)), 0);
	CHECK_EQ(n, 0);
	/* must-understand header flag */
	k = hdr(b, 4);
	k += end(b + k, 0);
	CHECK_EQ(read_all(b, k, &n, m, sizeof(m)), PMR_EVERSION);
	/* record sizes */
	k = hdr(b, 0);
	k += rec(b + k, 70, 8);		/* empty payload: fine */
	k += end(b + k, 1);
	CHECK_EQ(read_all(b, k, &n, m, sizeof(m)), 0);
	CHECK_EQ(n, 1);
	k = hdr(b, 0);
	pmr_put32(b + k, 70);
	pmr_put32(b + k + 4, 7);
	CHECK_EQ(read_all(b, k + 8, &n, m, sizeof(m)), PMR_ECORRUPT);
	CHECK_STR(m, "record 0: size 7 smaller than the record header");
	pmr_put32(b + k + 4, PMR_REC_MAX + 1);
	CHECK_EQ(read_all(b, k + 8, &n, m, sizeof(m)), PMR_ECORRUPT);
	pmr_put32(b + k + 4, 100);
	CHECK_EQ(read_all(b, k + 50, &n, m, sizeof(m)), PMR_ETRUNC);
	CHECK_STR(m, "record 0: type 70 truncated (size 100, 50 bytes left)");
	CHECK_EQ(read_all(b, k + 5, &n, m, sizeof(m)), PMR_ETRUNC);
	/* EVENT shorter than its fixed part */
	k = hdr(b, 0);
	k += rec(b + k, PMR_REC_EVENT, 8 + 16);
	k += end(b + k, 1);
	CHECK_EQ(read_all(b, k, &n, m, sizeof(m)), PMR_ECORRUPT);
	CHECK_STR(m, "record 0: EVENT size 24 smaller than its fixed part 25");
	/* EVENT longer than known: the tail is ignored */
	k = hdr(b, 0);
	k += rec(b + k, PMR_REC_EVENT, 8 + 30);
	k += end(b + k, 1);
	CHECK_EQ(read_all(b, k, &n, m, sizeof(m)), 0);
	/* unknown must-understand type; unknown ordinary type */
	k = hdr(b, 0);
	k += rec(b + k, PMR_REC_CRITICAL | 99, 8);
	k += end(b + k, 1);
	CHECK_EQ(read_all(b, k, &n, m, sizeof(m)), PMR_EVERSION);
	/* END count mismatch, type 0, garbage after END */
	k = hdr(b, 0);
	k += end(b + k, 3);
	CHECK_EQ(read_all(b, k, &n, m, sizeof(m)), PMR_ECORRUPT);
	k = hdr(b, 0);
	k += rec(b + k, 0, 8);
	CHECK_EQ(read_all(b, k, &n, m, sizeof(m)), PMR_ECORRUPT);
	k = hdr(b, 0);
	k += end(b + k, 0);
	memcpy(b + k, "junkjunkjunk", 12);
	CHECK_EQ(read_all(b, k + 12, &n, m, sizeof(m)), PMR_ECORRUPT);
	/* two streams back to back */
	k = hdr(b, 0);
	k += rec(b + k, 70, 9);
	k += end(b + k, 1);
	memcpy(b + k, b, k);
	CHECK_EQ(read_all(b, 2 * k, &n, m, sizeof(m)), 0);
	CHECK_EQ(n, 2);
}

/* The largest record round-trips; one byte more is refused. */
UNIT_TEST(boundary_sizes)
{
	struct pmr_wopts o = { "unit", 1, 1, 0 };
	struct pmr_writer *w;
	struct pmr_reader *r;
	struct pmr_rec rec;
	unsigned char *big = malloc(PMR_REC_MAX);
	int err = 0;

	memset(big, 0xa5, PMR_REC_MAX);
	w = pmr_writer_open(tmppath("big.pmr.zst"), &o, &err);
	CHECK(w != NULL);
	CHECK_EQ(pmr_write_raw(w, 100, big, PMR_REC_MAX - 8), PMR_OK);
	CHECK_EQ(pmr_write_raw(w, 100, big, 0), PMR_OK);
	CHECK_EQ(pmr_writer_close(w, NULL, 0), PMR_OK);
	w = pmr_writer_open(tmppath("big2.pmr"), &o, &err);
	CHECK_EQ(pmr_write_raw(w, 100, big, PMR_REC_MAX - 7), PMR_EINVAL);
	pmr_writer_abort(w);
	CHECK(access(tmppath("big2.pmr"), F_OK) != 0);
	r = pmr_reader_open(tmppath("big.pmr.zst"), 0, &err);
	CHECK(r != NULL);
	CHECK_EQ(pmr_reader_next(r, &rec), 1);
	CHECK_EQ(rec.len, PMR_REC_MAX - 8);
	CHECK(rec.p[0] == 0xa5 && rec.p[rec.len - 1] == 0xa5);
	CHECK_EQ(pmr_reader_next(r, &rec), 1);
	CHECK_EQ(rec.len, 0);
	CHECK_EQ(pmr_reader_next(r, &rec), 0);
	pmr_reader_close(r);
	free(big);
}

/* One record as a reader gave it: type, length, index, payload sum. */
struct seen {
	uint32_t type, len;
	uint64_t index, sum;
};

static size_t
read_seen(const char *path, int runs, struct seen *out, size_t max,
    int *last)
{
	struct pmr_reader *r;
	struct pmr_rec rec;
	size_t n = 0, k, j;
	int err = 0, rc;

	r = pmr_reader_open(path, 0, &err);
	CHECK(r != NULL);
	if (r == NULL)
		return 0;
	for (;;) {
		const unsigned char *p;
		uint64_t i0;

		if (runs && (k = pmr_reader_run(r, PMR_REC_EVENT, 17, 333, &p,
		    &i0)) > 0) {
			CHECK(k <= 333);
			for (j = 0; j < k && n < max; j++, n++) {
				const unsigned char *q = p + j * 25;
				unsigned b;

				out[n].type = pmr_le32(q - 8);
				out[n].len = pmr_le32(q - 4) - 8;
				out[n].index = i0 + j;
				out[n].sum = 0;
				for (b = 0; b < 17; b++)
					out[n].sum = out[n].sum * 31 + q[b];
			}
			continue;
		}
		if ((rc = pmr_reader_next(r, &rec)) != 1)
			break;
		if (n < max) {
			unsigned b;

			out[n].type = rec.type;
			out[n].len = rec.len;
			out[n].index = rec.index;
			out[n].sum = 0;
			for (b = 0; b < rec.len; b++)
				out[n].sum = out[n].sum * 31 + rec.p[b];
			n++;
		}
	}
	*last = rc;
	pmr_reader_close(r);
	return n;
}

/* pmr_reader_run gives the records pmr_reader_next gives, with their
 * indexes, stops at another type or length, and never at a record cut
 * short (then pmr_reader_next says it is). */
static void
reader_run(const char *name, int compress)
{
	struct pmr_wopts o = { "unit", compress, 0, 0 };
	struct pmr_writer *w;
	struct pmr_event e;
	unsigned char other[17] = { 1, 2, 3 };
	static struct seen a[12000], b[12000];
	size_t na, nb, i;
	int err = 0, la = 0, lb = 0;
	FILE *f;
	long sz;

	w = pmr_writer_open(tmppath(name), &o, &err);
	CHECK(w != NULL);
	if (w == NULL)
		return;
	for (i = 0; i < 10000; i++) {
		e.kind = (uint8_t)(i % 7);
		e.pc = 0x400000 + i * 4;
		e.value = i * i;
		CHECK_EQ(pmr_write(w, PMR_REC_EVENT, &e), PMR_OK);
		if (i == 5000)
			CHECK_EQ(pmr_write_meta(w, "k", "v"), PMR_OK);
		if (i == 8000)	/* the same length, another type */
			CHECK_EQ(pmr_write_raw(w, 100, other, 17), PMR_OK);
	}
	CHECK_EQ(pmr_writer_close(w, NULL, 0), PMR_OK);
	na = read_seen(tmppath(name), 0, a, 12000, &la);
	nb = read_seen(tmppath(name), 1, b, 12000, &lb);
	CHECK_EQ(na, 10002);
	CHECK_EQ(nb, na);
	CHECK_EQ(la, 0);
	CHECK_EQ(lb, 0);
	for (i = 0; i < na && i < nb; i++)
		if (memcmp(&a[i], &b[i], sizeof(a[i])) != 0) {
			CHECK(!"pmr_reader_run differs");
			break;
		}
	if (compress)
		return;
	/* cut short inside the last EVENT */
	f = fopen(tmppath(name), "r+");
	CHECK(f != NULL);
	if (f == NULL)
		return;
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	fclose(f);
	CHECK_EQ(truncate(tmppath(name), sz - 40), 0);
	na = read_seen(tmppath(name), 0, a, 12000, &la);
	nb = read_seen(tmppath(name), 1, b, 12000, &lb);
	CHECK_EQ(la, PMR_ETRUNC);
	CHECK_EQ(lb, PMR_ETRUNC);
	CHECK_EQ(nb, na);
	CHECK(na < 10002);
}

UNIT_TEST(reader_run_raw)
{
	reader_run("run.pmr", 0);
}

UNIT_TEST(reader_run_zstd)
{
	reader_run("run.pmr.zst", -1);
}

/* raw + zstd + raw concatenated: all records, three streams. */
UNIT_TEST(concat_mixed)
{
	struct pmr_event ev = { 1, 0x400000, 7 };
	const char *names[3] = { "c1.pmr", "c2.pmr.zst", "c3.pmr" };
	unsigned char *all = NULL, *p;
	size_t total = 0, len;
	struct pmr_reader *r;
	struct pmr_rec rec;
	uint64_t n = 0;
	int i, k, err = 0, ret;

	for (i = 0; i < 3; i++) {
		struct pmr_wopts o = { "unit", -1, 0, 0 };
		struct pmr_writer *w = pmr_writer_open(tmppath(names[i]), &o,
		    &err);

		for (k = 0; k < 1000 * (i + 1); k++) {
			ev.pc = (uint64_t)(i * 100000 + k);
			CHECK_EQ(pmr_write(w, PMR_REC_EVENT, &ev), 0);
		}
		CHECK_EQ(pmr_writer_close(w, NULL, 0), 0);
		p = slurp(tmppath(names[i]), &len);
		all = realloc(all, total + len);
		memcpy(all + total, p, len);
		total += len;
		free(p);
	}
	r = pmr_reader_open_mem(all, total, 0, &err);
	while ((ret = pmr_reader_next(r, &rec)) == 1) {
		i = n < 1000 ? 0 : n < 3000 ? 1 : 2;
		k = (int)(i == 0 ? n : i == 1 ? n - 1000 : n - 3000);
		CHECK_EQ_U64(pmr_le64(rec.p + 1),
		    (uint64_t)(i * 100000 + k));
		n++;
	}
	CHECK_EQ(ret, 0);
	CHECK_EQ(n, 6000);
	CHECK_EQ(pmr_reader_nstreams(r), 3);
	pmr_reader_close(r);
	free(all);
}

/* The same records read identically from raw, zstd, xz and gzip. */
UNIT_TEST(codecs_identical)
{
	static const char *cmds[] = { "zstd -q -c", "xz -c", "gzip -c" };
	struct pmr_event ev = { 2, 1, 2 };
	struct pmr_wopts o = { "unit", 0, 0, 0 };
	struct pmr_writer *w;
	unsigned char *raw, *z;
	size_t rawlen, zlen;
	char cmd[512];
	unsigned i, k;
	int err = 0;

	w = pmr_writer_open(tmppath("codec.pmr"), &o, &err);
	for (k = 0; k < 50000; k++) {
		ev.pc = k * 4;
		ev.value = k * k;
		CHECK_EQ(pmr_write(w, PMR_REC_EVENT, &ev), 0);
	}
	CHECK_EQ(pmr_writer_close(w, NULL, 0), 0);
	raw = slurp(tmppath("codec.pmr"), &rawlen);
	for (i = 0; i < 3; i++) {
		struct pmr_reader *a, *b;
		struct pmr_rec ra, rb;
		int x, y, same = 1;

		snprintf(cmd, sizeof(cmd), "%s %s > %s", cmds[i],
		    tmppath("codec.pmr"), tmppath("codec.z"));
		CHECK_EQ(system(cmd), 0);
		z = slurp(tmppath("codec.z"), &zlen);
		a = pmr_reader_open_mem(raw, rawlen, 0, &err);
		b = pmr_reader_open_mem(z, zlen, 0, &err);
		do {
			x = pmr_reader_next(a, &ra);
			y = pmr_reader_next(b, &rb);
			if (x != y || (x == 1 && (ra.type != rb.type ||
			    ra.len != rb.len ||
			    memcmp(ra.p, rb.p, ra.len) != 0)))
				same = 0;
		} while (x == 1 && same);
		CHECK(same);
		CHECK_EQ(x, 0);
		CHECK_EQ(pmr_reader_codec(b), (int)i + 1);
		pmr_reader_close(a);
		pmr_reader_close(b);
		free(z);
	}
	free(raw);
}

/* A truncated zstd frame and a corrupt one are told apart. */
UNIT_TEST(zstd_errors)
{
	struct pmr_event ev = { 1, 1, 1 };
	struct pmr_wopts o = { "unit", 1, 0, 0 };
	struct pmr_writer *w;
	unsigned char *z;
	size_t len;
	uint64_t n;
	char m[256];
	int err = 0, k;

	w = pmr_writer_open(tmppath("t.pmr.zst"), &o, &err);
	for (k = 0; k < 1000; k++)
		CHECK_EQ(pmr_write(w, PMR_REC_EVENT, &ev), 0);
	CHECK_EQ(pmr_writer_close(w, NULL, 0), 0);
	z = slurp(tmppath("t.pmr.zst"), &len);
	CHECK_EQ(read_all(z, len, &n, m, sizeof(m)), 0);
	CHECK_EQ(n, 1000);
	CHECK_EQ(read_all(z, len - 3, &n, m, sizeof(m)), PMR_ETRUNC);
	CHECK_STR(m, "truncated zstd data at end of input");
	z[len - 2] ^= 0x55;	/* inside the checksum */
	CHECK_EQ(read_all(z, len, &n, m, sizeof(m)), PMR_ECORRUPT);
	free(z);
}

/* The output appears under its name only when complete. */
UNIT_TEST(writer_tempfile)
{
	struct pmr_wopts o = { "unit", 0, 0, 0 };
	struct pmr_writer *w;
	struct pmr_event ev = { 1, 1, 1 };
	int err = 0;

	unlink(tmppath("tf.pmr"));
	w = pmr_writer_open(tmppath("tf.pmr"), &o, &err);
	CHECK(w != NULL);
	CHECK_EQ(pmr_write(w, PMR_REC_EVENT, &ev), 0);
	CHECK(access(tmppath("tf.pmr"), F_OK) != 0);
	pmr_writer_abort(w);
	CHECK(access(tmppath("tf.pmr"), F_OK) != 0);
	w = pmr_writer_open(tmppath("tf.pmr"), &o, &err);
	CHECK_EQ(pmr_write(w, PMR_REC_EVENT, &ev), 0);
	CHECK_EQ(pmr_writer_close(w, NULL, 0), 0);
	CHECK(access(tmppath("tf.pmr"), F_OK) == 0);
	/* a directory that does not exist */
	w = pmr_writer_open("/nonexistent/dir/x.pmr", &o, &err);
	CHECK(w == NULL);
	CHECK_EQ(err, PMR_EIO);
}

/* PROV is queued until the first non-PROV record. */
UNIT_TEST(prov_order)
{
	struct pmr_wopts o = { "unit", 0, 0, 0 };
	struct pmr_writer *w;
	struct pmr_reader *r;
	struct pmr_rec rec;
	struct pmr_prov pv;
	char *argv[] = { "prog", "a b", "it's", NULL };
	const char *why;
	int err = 0;

	w = pmr_writer_open(tmppath("prov.pmr"), &o, &err);
	CHECK_EQ(pmr_writer_prov(w, "prog", 3, argv, 42, 1), 0);
	memset(&pv, 0, sizeof(pv));
	pv.seed = 7;	/* as passed through from an upstream program */
	CHECK_EQ(pmr_write(w, PMR_REC_PROV, &pv), 0);
	CHECK_EQ(pmr_write_raw(w, 70, "", 0), 0);
	CHECK_EQ(pmr_writer_close(w, NULL, 0), 0);
	r = pmr_reader_open(tmppath("prov.pmr"), 0, &err);
	CHECK_EQ(pmr_reader_next(r, &rec), 1);
	CHECK_EQ(rec.type, PMR_REC_PROV);
	CHECK_EQ(rec.len, 24);
	CHECK_EQ_U64(pmr_le64(rec.p), 7);
	CHECK_EQ(pmr_reader_next(r, &rec), 1);
	CHECK_EQ(rec.type, PMR_REC_PROV);
	CHECK_EQ(pmr_rec_decode(&rec, &pv, &why), 0);
	CHECK_EQ_U64(pv.seed, 42);
	CHECK_EQ(pv.flags, 1);
	CHECK(pv.cmdline.n == 20 &&
	    memcmp(pv.cmdline.p, "prog 'a b' 'it'\\''s'", 20) == 0);
	CHECK_EQ(pmr_reader_next(r, &rec), 1);
	CHECK_EQ(rec.type, 70);
	CHECK_EQ(pmr_reader_next(r, &rec), 0);
	pmr_reader_close(r);
}

UNIT_TEST(strtonum)
{
	const char *e;

	CHECK_EQ(pmr_strtonum("42", 0, 100, &e), 42);
	CHECK(e == NULL);
	CHECK_EQ(pmr_strtonum("0x10", 0, 100, &e), 16);
	CHECK_EQ(pmr_strtonum("4k", 0, 100000, &e), 4000);
	CHECK_EQ(pmr_strtonum("2M", 0, LLONG_MAX, &e), 2000000);
	CHECK_EQ(pmr_strtonum("-5", -10, 10, &e), -5);
	pmr_strtonum("101", 0, 100, &e);
	CHECK_STR(e, "too large");
	pmr_strtonum("-1", 0, 100, &e);
	CHECK_STR(e, "too small");
	pmr_strtonum("12x", 0, 100, &e);
	CHECK_STR(e, "invalid");
	pmr_strtonum("", 0, 100, &e);
	CHECK_STR(e, "invalid");
	pmr_strtonum(" 1", 0, 100, &e);
	CHECK_STR(e, "invalid");
	pmr_strtonum("99999999999999999999", 0, LLONG_MAX, &e);
	CHECK_STR(e, "too large");
	CHECK_EQ_U64(pmr_strtou64("18446744073709551615", &e), UINT64_MAX);
	CHECK(e == NULL);
	pmr_strtou64("18446744073709551616", &e);
	CHECK_STR(e, "too large");
}

/* The comma-list iterator cuts as strtok(3) does: empty items are
 * skipped, and the copy is freed at the end. */
UNIT_TEST(items)
{
	struct pmr_items it;
	const char *item;
	char got[64] = "";

	pmr_items_init(&it, ",S=4096,,paired,");
	while ((item = pmr_items_next(&it)) != NULL) {
		strcat(got, item);
		strcat(got, "|");
	}
	CHECK_STR(got, "S=4096|paired|");
	CHECK(it.copy == NULL);
	CHECK(pmr_items_next(&it) == NULL);
	pmr_items_init(&it, "");
	CHECK(pmr_items_next(&it) == NULL);
	pmr_items_init(&it, "a,b");
	CHECK_STR(pmr_items_next(&it), "a");
	pmr_items_end(&it);	/* stopped early: nothing leaks */
	CHECK_STR(pmr_item_value("S=4096", "S"), "4096");
	CHECK_STR(pmr_item_value("skid=", "skid"), "");
	CHECK(pmr_item_value("skid=3", "S") == NULL);
	CHECK(pmr_item_value("S", "S") == NULL);
	CHECK(pmr_item_value("Sx=1", "S") == NULL);
	CHECK_STR(pmr_display("-"), "<stdin>");
	CHECK_STR(pmr_display(NULL), "<stdin>");
	CHECK_STR(pmr_display("a.pmr"), "a.pmr");
	CHECK_STR(pmr_outname("-"), "stdout");
	CHECK_STR(pmr_outname("a.pmr"), "'a.pmr'");
}

/* The hand-coded EVENT and HOT layouts of pmr.h agree with the field
 * tables: what pmr_event_put() and pmr_hot_put() write, pmr_rec_decode()
 * reads back field for field. */
UNIT_TEST(fixed_layouts)
{
	unsigned char p[64];
	struct pmr_rec rec = { PMR_REC_EVENT, PMR_EVENT_SIZE, p, 0, 0 };
	struct pmr_event ev;
	struct pmr_hot h = { 7, 0x401000, 0xdeadbeefcafe, 123, 120, 3 }, g;
	const char *why = NULL;

	pmr_event_put(p, PMR_EV_EDGE, 0x400123, 0x1122334455667788ULL);
	CHECK_EQ(pmr_rec_decode(&rec, &ev, &why), PMR_OK);
	CHECK_EQ(ev.kind, PMR_EV_EDGE);
	CHECK_EQ(ev.pc, 0x400123);
	CHECK_EQ(ev.value, 0x1122334455667788ULL);
	CHECK_EQ(pmr_event_pc(p), 0x400123);
	CHECK_EQ(pmr_event_value(p), 0x1122334455667788ULL);
	rec.len = PMR_EVENT_SIZE - 1;
	CHECK_EQ(pmr_rec_decode(&rec, &ev, &why), PMR_ECORRUPT);

	pmr_hot_put(p, &h);
	rec.type = PMR_REC_HOT;
	rec.len = PMR_HOT_SIZE;
	memset(&g, 0, sizeof(g));
	CHECK_EQ(pmr_rec_decode(&rec, &g, &why), PMR_OK);
	CHECK_EQ(g.interval, 7);
	CHECK_EQ(g.pc, 0x401000);
	CHECK_EQ(g.value, 0xdeadbeefcafeULL);
	CHECK_EQ(g.count, 123);
	CHECK_EQ(g.exact, 120);
	CHECK_EQ(g.cls, 3);
	rec.len = PMR_HOT_SIZE - 1;
	CHECK_EQ(pmr_rec_decode(&rec, &g, &why), PMR_ECORRUPT);
}

UNIT_MAIN(UNIT_ENTRY(le_bytes), UNIT_ENTRY(wire_layout),
    UNIT_ENTRY(roundtrip_raw), UNIT_ENTRY(roundtrip_zstd),
    UNIT_ENTRY(text_roundtrip), UNIT_ENTRY(parse_errors),
    UNIT_ENTRY(reader_errors), UNIT_ENTRY(boundary_sizes),
    UNIT_ENTRY(reader_run_raw), UNIT_ENTRY(reader_run_zstd),
    UNIT_ENTRY(concat_mixed), UNIT_ENTRY(codecs_identical),
    UNIT_ENTRY(zstd_errors), UNIT_ENTRY(writer_tempfile),
    UNIT_ENTRY(prov_order), UNIT_ENTRY(strtonum), UNIT_ENTRY(items),
    UNIT_ENTRY(fixed_layouts))
