/*
 * test_pprof.c: unit tests of the pprof writer (lib/prof/pprof.c): the
 * varint encoder at its boundaries, the string table, the gzip output
 * inflated with zlib and walked field by field with a small protobuf
 * reader written here, the refusals (duplicate address, bad indices,
 * infinite labels), the empty profile, a full disk, a 100 000-location
 * profile, and the real consumer: protoc --decode with
 * tests/data/pprof/profile.proto.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "prof/pprof.h"
#include "prof/pprof_internal.h"
#include "unit.h"

/* --- a small protobuf reader for the checks ------------------------ */

struct field {
	int num, wire;
	uint64_t v;			/* wire 0 */
	const unsigned char *p;		/* wire 2 */
	size_t n;
};

/* Reads a varint at *pp; returns 0 and advances, -1 if malformed. */
static int
rd_varint(const unsigned char **pp, const unsigned char *end, uint64_t *v)
{
	int shift;

	*v = 0;
	for (shift = 0; shift < 70 && *pp < end; shift += 7) {
		*v |= (uint64_t)(**pp & 0x7f) << shift;
		if ((*(*pp)++ & 0x80) == 0)
			return 0;
	}
	return -1;
}

/* Reads the next field; returns 1, 0 at the end, -1 if malformed. */
static int
rd_field(const unsigned char **pp, const unsigned char *end, struct field *f)
{
	uint64_t key;

	if (*pp == end)
		return 0;
	if (rd_varint(pp, end, &key) < 0)
		return -1;
	f->num = (int)(key >> 3);
	f->wire = (int)(key & 7);
	if (f->wire == 0)
		return rd_varint(pp, end, &f->v) < 0 ? -1 : 1;
	if (f->wire != 2 || rd_varint(pp, end, &f->v) < 0 ||
	    f->v > (uint64_t)(end - *pp))
		return -1;
	f->p = *pp;
	f->n = (size_t)f->v;
	*pp += f->n;
	return 1;
}

/* Returns the varint field num of message [p, p + n), or def. */
static uint64_t
msg_uint(const unsigned char *p, size_t n, int num, uint64_t def)
{
	const unsigned char *end = p + n;
	struct field f;

	while (rd_field(&p, end, &f) == 1)
		if (f.num == num && f.wire == 0)
			def = f.v;
	return def;
}

/* A decoded profile: the whole inflated message and its top fields. */
struct dec {
	unsigned char *raw;
	size_t nraw;
	struct field *f;
	size_t nf;
	const char *str[64];		/* string table, NUL-terminated copies */
	size_t nstr;
	char strbuf[4096];
};

/* Inflates the gzip bytes of file fp into d and splits the top level. */
static int
decode(FILE *fp, struct dec *d)
{
	unsigned char in[4096];
	const unsigned char *p, *end;
	struct field f;
	z_stream z;
	size_t n, sb = 0;
	int zr = Z_OK, rc;

	memset(d, 0, sizeof(*d));
	rewind(fp);
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 15 + 16) != Z_OK)	/* gzip framing only */
		return -1;
	if ((d->raw = malloc(1 << 24)) == NULL) {
		inflateEnd(&z);
		return -1;
	}
	while (zr != Z_STREAM_END && (n = fread(in, 1, sizeof(in), fp)) > 0) {
		z.next_in = in;
		z.avail_in = (uInt)n;
		while (z.avail_in > 0 && zr != Z_STREAM_END) {
			z.next_out = d->raw + d->nraw;
			z.avail_out = (uInt)((1 << 24) - d->nraw);
			zr = inflate(&z, Z_NO_FLUSH);
			d->nraw = (1 << 24) - z.avail_out;
			if (zr != Z_OK && zr != Z_STREAM_END) {
				inflateEnd(&z);
				return -1;
			}
		}
	}
	inflateEnd(&z);
	if (zr != Z_STREAM_END)
		return -1;
	p = d->raw;
	end = d->raw + d->nraw;
	for (n = 0; rd_field(&p, end, &f) == 1; n++)
		continue;
	if ((d->f = malloc(sizeof(*d->f) * (n + 1))) == NULL)
		return -1;
	p = d->raw;
	while ((rc = rd_field(&p, end, &f)) == 1) {
		d->f[d->nf++] = f;
		if (f.num == 6 && d->nstr < 64 && sb + f.n + 1 < 4096) {
			memcpy(d->strbuf + sb, f.p, f.n);
			d->strbuf[sb + f.n] = '\0';
			d->str[d->nstr++] = d->strbuf + sb;
			sb += f.n + 1;
		}
	}
	return rc;
}

static void
dec_free(struct dec *d)
{
	free(d->raw);
	free(d->f);
}

static size_t
count(const struct dec *d, int num)
{
	size_t i, c = 0;

	for (i = 0; i < d->nf; i++)
		c += d->f[i].num == num;
	return c;
}

/* Returns the k-th top-level field num, or NULL. */
static const struct field *
nth(const struct dec *d, int num, size_t k)
{
	size_t i;

	for (i = 0; i < d->nf; i++)
		if (d->f[i].num == num && k-- == 0)
			return &d->f[i];
	return NULL;
}

static int64_t
str_index(const struct dec *d, const char *s)
{
	size_t i;

	for (i = 0; i < d->nstr; i++)
		if (strcmp(d->str[i], s) == 0)
			return (int64_t)i;
	return -1;
}

/* --- a sample profile ---------------------------------------------- */

static const char *const type_name[] = { "cycles", "instructions" };
static const char *const type_unit[] = { "count", "count" };
static const char *const label_key[] = { "cpi", "bytes_read", "stall" };
static const char *const label_unit[] = { NULL, "bytes", "cycles" };
static const struct pmr_pprof_mapping maps[] = {
	{ 0x400000, 0x500000, 0, "/usr/bin/xz", "4f2a9c01" },
	{ 0x7f0000000000, 0x7f0000100000, 0x1000, "/lib/libc.so.6", NULL },
};
static const int64_t v0[] = { 100, 50 }, v1[] = { 7, -1 }, v2[] = { 3, 3 };
static const double l0[] = { 2.5, 4096, NAN }, l1[] = { -2.5, NAN, 0.4 };
static const struct pmr_pprof_loc locs[] = {
	{ 0x401000, 0, "main", 0x400ff0, v0, l0 },
	{ 0x401008, 0, "main", 0, v1, l1 },
	{ 0x7f0000001234, 1, "memcpy", 0x7f0000001200, v2, NULL },
	{ 0x9999, -1, NULL, 0, v2, NULL },
	{ 0x402000, 1, "main", 0, v0, NULL },	/* another main, libc */
};

static struct pmr_pprof
sample_profile(void)
{
	struct pmr_pprof p = {
		.ntype = 2, .type_name = type_name, .type_unit = type_unit,
		.nlabel = 3, .label_key = label_key, .label_unit = label_unit,
		.nmap = 2, .map = maps,
		.nloc = sizeof(locs) / sizeof(locs[0]), .loc = locs,
		.comment = "pmsim -n 1000 xz", .period = 1000,
		.default_type = 0, .time_nanos = 1700000000000000000ll,
		.duration_nanos = 2500000000ll,
	};
	return p;
}

/* --- tests --------------------------------------------------------- */

UNIT_TEST(varint)
{
	unsigned char b[PMR_PB_VARINT_MAX + 2];
	size_t i;

	memset(b, 0xee, sizeof(b));
	CHECK_EQ(pmr_pb_varint(b, 0), 1);
	CHECK_EQ(b[0], 0);
	CHECK_EQ(b[1], 0xee);
	CHECK_EQ(pmr_pb_varint(b, 127), 1);
	CHECK_EQ(b[0], 0x7f);
	CHECK_EQ(pmr_pb_varint(b, 128), 2);
	CHECK_EQ(b[0], 0x80);
	CHECK_EQ(b[1], 0x01);
	CHECK_EQ(pmr_pb_varint(b, 300), 2);	/* the protobuf docs' example */
	CHECK_EQ(b[0], 0xac);
	CHECK_EQ(b[1], 0x02);
	CHECK_EQ(pmr_pb_varint(b, 16383), 2);
	CHECK_EQ(pmr_pb_varint(b, 16384), 3);
	memset(b, 0xee, sizeof(b));
	CHECK_EQ(pmr_pb_varint(b, UINT64_C(1) << 63), 10);
	for (i = 0; i < 9; i++)
		CHECK_EQ(b[i], 0x80);
	CHECK_EQ(b[9], 0x01);
	CHECK_EQ(b[10], 0xee);
	/* A negative int64 is its two's complement: 10 bytes. */
	CHECK_EQ(pmr_pb_varint(b, (uint64_t)(int64_t)-1), 10);
	for (i = 0; i < 9; i++)
		CHECK_EQ(b[i], 0xff);
	CHECK_EQ(b[9], 0x01);
	CHECK_EQ(pmr_pb_varint(b, (uint64_t)INT64_MIN), 10);
	CHECK_EQ(pmr_pb_varint(b, UINT64_MAX), 10);
}

UNIT_TEST(strtab)
{
	struct pmr_pprof_strtab t;
	static char names[20000][8];
	size_t i;
	int ok = 1;

	CHECK_EQ(pmr_pprof_strtab_init(&t, 3), PMR_OK);
	CHECK_EQ(t.n, 1);
	CHECK_STR(t.str[0], "");
	CHECK_EQ(pmr_pprof_strtab_intern(&t, ""), 0);
	CHECK_EQ(pmr_pprof_strtab_intern(&t, NULL), 0);
	CHECK_EQ(pmr_pprof_strtab_intern(&t, "a"), 1);
	CHECK_EQ(pmr_pprof_strtab_intern(&t, "b"), 2);
	CHECK_EQ(pmr_pprof_strtab_intern(&t, "a"), 1);
	CHECK_EQ(pmr_pprof_strtab_intern(&t, "ab"), 3);
	CHECK_EQ(pmr_pprof_strtab_intern(&t, "c"), -1);	/* full */
	CHECK_EQ(pmr_pprof_strtab_intern(&t, "b"), 2);	/* still found */
	CHECK_EQ(t.n, 4);
	pmr_pprof_strtab_free(&t);

	/* Many strings, each added once, found again by content. */
	CHECK_EQ(pmr_pprof_strtab_init(&t, 20000), PMR_OK);
	for (i = 0; i < 20000; i++) {
		snprintf(names[i], sizeof(names[i]), "f%zu", i);
		ok &= pmr_pprof_strtab_intern(&t, names[i]) == (int64_t)i + 1;
	}
	for (i = 0; i < 20000; i += 7) {
		char copy[8];

		memcpy(copy, names[i], sizeof(copy));
		ok &= pmr_pprof_strtab_intern(&t, copy) == (int64_t)i + 1;
	}
	CHECK(ok);
	CHECK_EQ(t.n, 20001);
	pmr_pprof_strtab_free(&t);
}

UNIT_TEST(gzip_round_trip)
{
	struct pmr_pprof p = sample_profile();
	const struct field *f;
	struct dec d;
	FILE *fp = tmpfile();
	unsigned char magic[2];

	CHECK(fp != NULL);
	if (fp == NULL)
		return;
	CHECK_EQ(pmr_pprof_write(fp, &p), PMR_OK);
	rewind(fp);
	CHECK_EQ(fread(magic, 1, 2, fp), 2);
	CHECK_EQ(magic[0], 0x1f);	/* gzip */
	CHECK_EQ(magic[1], 0x8b);
	CHECK_EQ(decode(fp, &d), 0);
	/* sample_type {type: 1 ("cycles"), unit: 2 ("count")} comes first:
	 * key 0x0a (field 1, length-delimited), length 4, 0x08 1, 0x10 2. */
	CHECK(d.nraw > 6);
	if (d.nraw > 6) {
		CHECK_EQ(d.raw[0], 0x0a);
		CHECK_EQ(d.raw[1], 0x04);
		CHECK_EQ(d.raw[2], 0x08);
		CHECK_EQ(d.raw[3], 0x01);
		CHECK_EQ(d.raw[4], 0x10);
		CHECK_EQ(d.raw[5], 0x02);
		/* sample_type 2: "instructions" (3), "count" again (2). */
		CHECK_EQ(d.raw[6], 0x0a);
		CHECK_EQ(d.raw[9], 0x03);
		CHECK_EQ(d.raw[11], 0x02);
	}
	CHECK_EQ(count(&d, 1), 2);
	CHECK_EQ(count(&d, 2), 5);	/* one sample per location */
	CHECK_EQ(count(&d, 3), 2);
	CHECK_EQ(count(&d, 4), 5);
	CHECK_EQ(count(&d, 5), 3);	/* main/xz, memcpy/libc, main/libc */
	CHECK_STR(d.str[0], "");
	CHECK(str_index(&d, "main") > 0);
	CHECK(str_index(&d, "4f2a9c01") > 0);

	/* Sample 1: location_id packed [1]; value packed [7, -1]: key 0x12,
	 * length 11 (1 + 10 bytes for -1). */
	f = nth(&d, 2, 1);
	CHECK(f != NULL);
	if (f != NULL && f->n > 16) {
		CHECK_EQ(f->p[0], 0x0a);
		CHECK_EQ(f->p[1], 0x01);
		CHECK_EQ(f->p[2], 0x02);
		CHECK_EQ(f->p[3], 0x12);
		CHECK_EQ(f->p[4], 11);
		CHECK_EQ(f->p[5], 7);
		CHECK_EQ(f->p[15], 0x01);
	}
	/* Location 3: id 3, mapping 2, address, line {function_id 2}. */
	f = nth(&d, 4, 2);
	CHECK(f != NULL);
	if (f != NULL) {
		CHECK_EQ_U64(msg_uint(f->p, f->n, 1, 0), 3);
		CHECK_EQ_U64(msg_uint(f->p, f->n, 2, 0), 2);
		CHECK_EQ_U64(msg_uint(f->p, f->n, 3, 0), 0x7f0000001234ull);
	}
	/* Location 4 has no mapping and no function: id and address. */
	f = nth(&d, 4, 3);
	CHECK(f != NULL);
	if (f != NULL) {
		CHECK_EQ_U64(msg_uint(f->p, f->n, 2, 0), 0);
		CHECK_EQ_U64(msg_uint(f->p, f->n, 3, 0), 0x9999);
		CHECK_EQ_U64(msg_uint(f->p, f->n, 4, 99), 99);
	}
	/* Function 1: main in xz, start_line the first nonzero func_lo. */
	f = nth(&d, 5, 0);
	CHECK(f != NULL);
	if (f != NULL) {
		CHECK_EQ_U64(msg_uint(f->p, f->n, 2, 0), str_index(&d, "main"));
		CHECK_EQ_U64(msg_uint(f->p, f->n, 3, 0), str_index(&d, "main"));
		CHECK_EQ_U64(msg_uint(f->p, f->n, 5, 0), 0x400ff0);
	}
	/* Mapping 1: the build-id string, has_functions. */
	f = nth(&d, 3, 0);
	CHECK(f != NULL);
	if (f != NULL) {
		CHECK_EQ_U64(msg_uint(f->p, f->n, 6, 0),
		    str_index(&d, "4f2a9c01"));
		CHECK_EQ_U64(msg_uint(f->p, f->n, 7, 0), 1);
	}
	/* Top-level scalars after the string table. */
	f = nth(&d, 9, 0);
	CHECK(f != NULL && f->v == 1700000000000000000ull);
	f = nth(&d, 12, 0);
	CHECK(f != NULL && f->v == 1000);
	f = nth(&d, 13, 0);
	CHECK(f != NULL && f->v == (uint64_t)str_index(&d, "pmsim -n 1000 xz"));
	f = nth(&d, 14, 0);
	CHECK(f != NULL && f->v == (uint64_t)str_index(&d, "cycles"));
	CHECK(nth(&d, 11, 0) != NULL);
	dec_free(&d);
	fclose(fp);
}

UNIT_TEST(labels)
{
	struct pmr_pprof p = sample_profile();
	const struct field *s;
	const unsigned char *q, *end;
	struct field f;
	struct dec d;
	int64_t num[3];
	uint64_t key[3], unit[3];
	size_t n;
	int k;
	FILE *fp = tmpfile();

	if (fp == NULL || pmr_pprof_write(fp, &p) != PMR_OK ||
	    decode(fp, &d) != 0) {
		CHECK(0);
		return;
	}
	/* Sample 0: cpi 2.5 -> 3 (no unit), bytes_read 4096 bytes, stall
	 * absent (NaN); sample 1: cpi -2.5 -> -3, stall 0.4 -> 0 (key and
	 * unit only: num 0 is a default). */
	for (k = 0; k < 2; k++) {
		s = nth(&d, 2, (size_t)k);
		CHECK(s != NULL);
		if (s == NULL)
			break;
		q = s->p;
		end = s->p + s->n;
		n = 0;
		while (rd_field(&q, end, &f) == 1)
			if (f.num == 3 && n < 3) {
				key[n] = msg_uint(f.p, f.n, 1, 0);
				num[n] = (int64_t)msg_uint(f.p, f.n, 3, 0);
				unit[n] = msg_uint(f.p, f.n, 4, 0);
				n++;
			}
		CHECK_EQ(n, 2);
		if (n != 2)
			continue;
		CHECK_EQ(key[0], str_index(&d, "cpi"));
		CHECK_EQ(num[0], k == 0 ? 3 : -3);
		CHECK_EQ(unit[0], 0);
		CHECK_EQ(key[1], str_index(&d, k == 0 ? "bytes_read" : "stall"));
		CHECK_EQ(num[1], k == 0 ? 4096 : 0);
		CHECK_EQ(unit[1], str_index(&d, k == 0 ? "bytes" : "cycles"));
	}
	/* Sample 2 has no label array. */
	s = nth(&d, 2, 2);
	CHECK(s != NULL && s->n == 7);	/* 0a 01 03, 12 02 03 03 */
	dec_free(&d);
	fclose(fp);
}

UNIT_TEST(string_dedup)
{
	/* "count" twice as a unit, "cycles" as a type, a label unit and a
	 * function name, one path twice, "main" in three locations. */
	static const char *const tn[] = { "cycles", "cycles_again" };
	static const char *const tu[] = { "count", "count" };
	static const char *const lk[] = { "cycles" };
	static const char *const lu[] = { "count" };
	static const struct pmr_pprof_mapping m[] = {
		{ 0x1000, 0x2000, 0, "/bin/a", "count" },
		{ 0x3000, 0x4000, 0, "/bin/a", NULL },
	};
	static const int64_t v[] = { 1, 2 };
	static const double lab[] = { 5 };
	char main_copy[] = "main";
	const struct pmr_pprof_loc l[] = {
		{ 0x1000, 0, "main", 0, v, lab },
		{ 0x1004, 0, main_copy, 0, v, lab },
		{ 0x3000, 1, "cycles", 0, v, lab },
		{ 0x3004, 1, "main", 0, v, NULL },
	};
	struct pmr_pprof p = {
		.ntype = 2, .type_name = tn, .type_unit = tu,
		.nlabel = 1, .label_key = lk, .label_unit = lu,
		.nmap = 2, .map = m, .nloc = 4, .loc = l,
		.comment = "main", .default_type = 1,
	};
	struct dec d;
	size_t i, j;
	FILE *fp = tmpfile();

	if (fp == NULL || pmr_pprof_write(fp, &p) != PMR_OK ||
	    decode(fp, &d) != 0) {
		CHECK(0);
		return;
	}
	/* "", cycles, count, cycles_again, /bin/a, main */
	CHECK_EQ(d.nstr, 6);
	for (i = 0; i < d.nstr; i++)
		for (j = i + 1; j < d.nstr; j++)
			CHECK(strcmp(d.str[i], d.str[j]) != 0);
	CHECK_EQ(count(&d, 5), 3);	/* main/0, cycles/1, main/1 */
	CHECK(nth(&d, 11, 0) == NULL);	/* no period, no period_type */
	dec_free(&d);
	fclose(fp);
}

UNIT_TEST(refusals)
{
	struct pmr_pprof p = sample_profile();
	struct pmr_pprof_loc l[2];
	static const double inf[] = { INFINITY, 1, 1 };
	static const double big[] = { 1e19, 1, 1 };
	FILE *fp = tmpfile();

	if (fp == NULL) {
		CHECK(0);
		return;
	}
	memcpy(l, locs, sizeof(l));
	l[1].addr = l[0].addr;
	p.loc = l;
	p.nloc = 2;
	CHECK_EQ(pmr_pprof_write(fp, &p), PMR_EINVAL);	/* duplicate */
	CHECK_EQ(ftell(fp), 0);		/* nothing written */

	p = sample_profile();
	memcpy(l, locs, sizeof(l));
	p.loc = l;
	p.nloc = 2;
	l[1].mapping = 2;
	CHECK_EQ(pmr_pprof_write(fp, &p), PMR_EINVAL);
	l[1].mapping = -2;
	CHECK_EQ(pmr_pprof_write(fp, &p), PMR_EINVAL);
	l[1].mapping = 0;
	l[1].label = inf;
	CHECK_EQ(pmr_pprof_write(fp, &p), PMR_EINVAL);
	l[1].label = big;
	CHECK_EQ(pmr_pprof_write(fp, &p), PMR_EINVAL);
	l[1].label = NULL;
	l[1].value = NULL;
	CHECK_EQ(pmr_pprof_write(fp, &p), PMR_EINVAL);
	l[1].value = v1;
	p.default_type = 2;
	CHECK_EQ(pmr_pprof_write(fp, &p), PMR_EINVAL);
	p.default_type = -2;
	CHECK_EQ(pmr_pprof_write(fp, &p), PMR_EINVAL);
	p.default_type = -1;
	p.type_unit = NULL;
	CHECK_EQ(pmr_pprof_write(fp, &p), PMR_EINVAL);
	p.type_unit = type_unit;
	CHECK_EQ(pmr_pprof_write(NULL, &p), PMR_EINVAL);
	CHECK_EQ(pmr_pprof_write(fp, NULL), PMR_EINVAL);
	CHECK_EQ(ftell(fp), 0);
	CHECK_EQ(pmr_pprof_write(fp, &p), PMR_OK);	/* now consistent */
	CHECK(ftell(fp) > 0);
	fclose(fp);
}

UNIT_TEST(empty)
{
	struct pmr_pprof p;
	struct dec d;
	FILE *fp = tmpfile();

	if (fp == NULL) {
		CHECK(0);
		return;
	}
	/* Nothing at all: only the string table's "" (key 0x32, len 0). */
	memset(&p, 0, sizeof(p));
	p.default_type = -1;
	CHECK_EQ(pmr_pprof_write(fp, &p), PMR_OK);
	CHECK_EQ(decode(fp, &d), 0);
	CHECK_EQ(d.nraw, 2);
	if (d.nraw == 2) {
		CHECK_EQ(d.raw[0], 0x32);
		CHECK_EQ(d.raw[1], 0x00);
	}
	dec_free(&d);
	fclose(fp);

	/* Types, mappings and a period, but no location. */
	fp = tmpfile();
	p = sample_profile();
	p.nloc = 0;
	p.loc = NULL;
	CHECK_EQ(pmr_pprof_write(fp, &p), PMR_OK);
	CHECK_EQ(decode(fp, &d), 0);
	CHECK_EQ(count(&d, 1), 2);
	CHECK_EQ(count(&d, 2), 0);
	CHECK_EQ(count(&d, 3), 2);
	CHECK_EQ(count(&d, 4), 0);
	CHECK_EQ(count(&d, 5), 0);
	CHECK(nth(&d, 3, 0) != NULL &&
	    msg_uint(nth(&d, 3, 0)->p, nth(&d, 3, 0)->n, 7, 0) == 0);
	dec_free(&d);
	fclose(fp);
}

/* A full disk shows when the profile is flushed: PMR_EIO. */
UNIT_TEST(eio)
{
	struct pmr_pprof p = sample_profile();
	FILE *fp = fopen("/dev/full", "w");

	CHECK(fp != NULL);
	if (fp == NULL)
		return;
	CHECK_EQ(pmr_pprof_write(fp, &p), PMR_EIO);
	fclose(fp);
}

/* 100 000 locations over 1 000 functions: linear tables, several deflate
 * chunks; every location and sample must come back. */
UNIT_TEST(large)
{
	enum { NLOC = 100000, NFN = 1000 };
	static struct pmr_pprof_loc l[NLOC];
	static char names[NFN][16];
	static const int64_t v[] = { 5, 6 };
	static const double lab[] = { 1, 2, 3 };
	struct pmr_pprof p = sample_profile();
	struct dec d;
	size_t i;
	FILE *fp = tmpfile();

	if (fp == NULL) {
		CHECK(0);
		return;
	}
	for (i = 0; i < NFN; i++)
		snprintf(names[i], sizeof(names[i]), "fn%zu", i);
	for (i = 0; i < NLOC; i++) {
		l[i].addr = 0x400000 + 4 * (uint64_t)i;
		l[i].mapping = 0;
		l[i].func = names[i / (NLOC / NFN)];
		l[i].func_lo = 0x400000 + 4 * (uint64_t)(i - i % (NLOC / NFN));
		l[i].value = v;
		l[i].label = lab;
	}
	p.loc = l;
	p.nloc = NLOC;
	CHECK_EQ(pmr_pprof_write(fp, &p), PMR_OK);
	CHECK_EQ(decode(fp, &d), 0);
	CHECK_EQ(count(&d, 2), NLOC);
	CHECK_EQ(count(&d, 4), NLOC);
	CHECK_EQ(count(&d, 5), NFN);
	dec_free(&d);
	fclose(fp);
}

/* Runs cmd and returns its output (caller frees), or NULL if it fails. */
static char *
run(const char *cmd)
{
	char *buf;
	size_t n = 0, cap = 1 << 16;
	FILE *pp;

	if ((pp = popen(cmd, "r")) == NULL)
		return NULL;
	buf = malloc(cap + 1);
	while (buf != NULL && (n += fread(buf + n, 1, cap - n, pp)) == cap) {
		char *nb = realloc(buf, 2 * cap + 1);

		if (nb == NULL) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = nb;
		cap *= 2;
	}
	if (pclose(pp) != 0 || buf == NULL) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

/* Returns the index of "s" among the string_table lines of protoc's text
 * output, or -1. */
static long
text_str(const char *out, const char *s)
{
	char want[256];
	const char *q = out;
	long k = 0;

	snprintf(want, sizeof(want), "string_table: \"%s\"\n", s);
	while ((q = strstr(q, "string_table: \"")) != NULL) {
		if (strncmp(q, want, strlen(want)) == 0)
			return k;
		k++;
		q++;
	}
	return -1;
}

/* Checks that protoc's output has the line "  name: value". */
static int
has(const char *out, const char *name, long value)
{
	char want[128];

	snprintf(want, sizeof(want), "\n  %s: %ld\n", name, value);
	return strstr(out, want) != NULL;
}

UNIT_TEST(protoc_decode)
{
	struct pmr_pprof p = sample_profile();
	const char *top = getenv("PM_TOP");
	char path[] = "/tmp/test_pprof.XXXXXX", cmd[2048], *out;
	FILE *fp;
	int fd;

	if (top == NULL || *top == '\0')
		top = ".";
	if (system("command -v protoc >/dev/null 2>&1") != 0) {
		printf("# protoc not found: install the Debian package "
		    "protobuf-compiler (make deps)\n");
		CHECK(0);
		return;
	}
	if ((fd = mkstemp(path)) < 0 || (fp = fdopen(fd, "w")) == NULL) {
		CHECK(0);
		return;
	}
	CHECK_EQ(pmr_pprof_write(fp, &p), PMR_OK);
	CHECK_EQ(fclose(fp), 0);
	snprintf(cmd, sizeof(cmd), "gzip -t '%s'", path);
	CHECK_EQ(system(cmd), 0);
	snprintf(cmd, sizeof(cmd),
	    "gzip -dc '%s' | protoc --decode=perftools.profiles.Profile "
	    "-I '%s/tests/data/pprof' '%s/tests/data/pprof/profile.proto'",
	    path, top, top);
	out = run(cmd);
	CHECK(out != NULL);
	if (out != NULL) {
		/* protoc prints unknown fields as bare numbers: none. */
		CHECK(strstr(out, "\n1: ") == NULL && strstr(out, "  1: ") ==
		    NULL);
		CHECK_EQ(text_str(out, ""), 0);
		CHECK(text_str(out, "cycles") > 0);
		CHECK(text_str(out, "instructions") > 0);
		CHECK(has(out, "type", text_str(out, "cycles")));
		CHECK(has(out, "type", text_str(out, "instructions")));
		CHECK(has(out, "address", 0x401000));
		CHECK(has(out, "name", text_str(out, "memcpy")));
		CHECK(has(out, "filename", text_str(out, "/usr/bin/xz")));
		CHECK(has(out, "build_id", text_str(out, "4f2a9c01")));
		CHECK(has(out, "memory_start", 0x400000));
		CHECK(strstr(out, "has_functions: true") != NULL);
		CHECK(strstr(out, "    num_unit: ") != NULL);
		{
			char want[64];

			snprintf(want, sizeof(want), "    num_unit: %ld\n",
			    text_str(out, "bytes"));
			CHECK(strstr(out, want) != NULL);
		}
		CHECK(strstr(out, "    num: 4096\n") != NULL);
		CHECK(strstr(out, "    num: -3\n") != NULL);
		CHECK(strstr(out, "  value: -1\n") != NULL);
		CHECK(strstr(out, "\ncomment: ") != NULL);
		CHECK(strstr(out, "\ndefault_sample_type: ") != NULL);
		CHECK(strstr(out, "\nperiod: 1000\n") != NULL);
		CHECK(strstr(out, "\nduration_nanos: 2500000000\n") != NULL);
		if (unit_failed)
			printf("# protoc output:\n%s", out);
	}
	free(out);
	unlink(path);
}

UNIT_MAIN(UNIT_ENTRY(varint), UNIT_ENTRY(strtab),
    UNIT_ENTRY(gzip_round_trip), UNIT_ENTRY(labels),
    UNIT_ENTRY(string_dedup), UNIT_ENTRY(refusals), UNIT_ENTRY(empty),
    UNIT_ENTRY(eio), UNIT_ENTRY(large), UNIT_ENTRY(protoc_decode))
