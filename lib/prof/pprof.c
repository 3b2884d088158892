/*
 * pprof.c: the pprof profile writer (pprof.h), implementing Google pprof's
 * documented proto/profile.proto (message perftools.profiles.Profile; the
 * copy the tests use is tests/data/pprof/profile.proto), encoded by hand.
 *
 * Protobuf wire format in brief: a message is a sequence of fields, each a
 * varint key (field number << 3 | wire type) and a value; wire type 0 is a
 * base-128 varint (7 bits a byte, low group first, high bit = more), wire
 * type 2 a varint length and that many bytes (strings, nested messages and
 * packed repeated scalars).  int64 values are varints of their two's
 * complement, so a negative one takes 10 bytes.  Scalar fields equal to 0
 * are left out (proto3 defaults); repeated location_id and value are packed,
 * as pprof writes them.
 *
 * The whole input is checked before the first byte is written, so that
 * PMR_EINVAL leaves out untouched.  The top-level message has no length
 * prefix, so it is built in a buffer that goes through deflate (gzip
 * framing) to out whenever it passes PPROF_CHUNK bytes: memory stays
 * bounded by the tables, not by the output.  String indices must be known
 * before the string table (field 6) is written, which is why the fields
 * go out in number order with every string interned on the way.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "prof/pprof.h"
#include "prof/pprof_internal.h"
#include "util/mix.h"

#define PPROF_CHUNK 65536	/* buffered top-level bytes before deflate */

/* Wire types. */
#define PB_VARINT 0
#define PB_LEN 2

/* Field numbers of profile.proto. */
#define PROFILE_SAMPLE_TYPE 1
#define PROFILE_SAMPLE 2
#define PROFILE_MAPPING 3
#define PROFILE_LOCATION 4
#define PROFILE_FUNCTION 5
#define PROFILE_STRING_TABLE 6
#define PROFILE_TIME_NANOS 9
#define PROFILE_DURATION_NANOS 10
#define PROFILE_PERIOD_TYPE 11
#define PROFILE_PERIOD 12
#define PROFILE_COMMENT 13
#define PROFILE_DEFAULT_SAMPLE_TYPE 14
#define VALUETYPE_TYPE 1
#define VALUETYPE_UNIT 2
#define SAMPLE_LOCATION_ID 1
#define SAMPLE_VALUE 2
#define SAMPLE_LABEL 3
#define LABEL_KEY 1
#define LABEL_NUM 3
#define LABEL_NUM_UNIT 4
#define MAPPING_ID 1
#define MAPPING_MEMORY_START 2
#define MAPPING_MEMORY_LIMIT 3
#define MAPPING_FILE_OFFSET 4
#define MAPPING_FILENAME 5
#define MAPPING_BUILD_ID 6
#define MAPPING_HAS_FUNCTIONS 7
#define LOCATION_ID 1
#define LOCATION_MAPPING_ID 2
#define LOCATION_ADDRESS 3
#define LOCATION_LINE 4
#define LINE_FUNCTION_ID 1
#define FUNCTION_ID 1
#define FUNCTION_NAME 2
#define FUNCTION_SYSTEM_NAME 3
#define FUNCTION_START_LINE 5

/* A growable byte buffer with a sticky error: once err is set, puts do
 * nothing, so that encoders check once at the end. */
struct pb_buf {
	unsigned char *p;
	size_t n, cap;
	int err;
};

/* One function: a distinct (name, mapping) pair. */
struct pprof_fn {
	int64_t name;		/* string index */
	int map;		/* mapping index, -1 none */
	uint64_t lo;		/* first nonzero func_lo seen */
};

struct pprof_writer {
	FILE *out;
	z_stream z;
	bool zinit;
	struct pb_buf top;	/* top-level bytes not yet deflated */
	struct pb_buf msg;	/* the message being built */
	struct pb_buf sub;	/* a message nested in msg */
	struct pmr_pprof_strtab st;
	struct pprof_fn *fn;
	size_t nfn;
	size_t *fslot;		/* function hash: 0 empty, else index + 1 */
	size_t nfslot;
	size_t *loc_fn;		/* per location: function index + 1, 0 none */
	bool *map_hasfn;	/* per mapping: some location names a function */
	int err;
	unsigned char zout[16384];
};

size_t
pmr_pb_varint(unsigned char *out, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		out[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	out[n++] = (unsigned char)v;
	return n;
}

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a */

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

static uint64_t
hash_u64(uint64_t z)
{
	return pmr_mix64(z);
}

/* Returns the power of two at least 2 * n (at least 16), or 0 on overflow. */
static size_t
slots_for(size_t n)
{
	size_t s = 16;

	while (s / 2 < n) {
		if (s > SIZE_MAX / 2 / sizeof(size_t))
			return 0;
		s *= 2;
	}
	return s;
}

int
pmr_pprof_strtab_init(struct pmr_pprof_strtab *t, size_t cap)
{
	memset(t, 0, sizeof(*t));
	if (cap >= SIZE_MAX / sizeof(*t->str) - 1 ||
	    (t->nslot = slots_for(cap + 1)) == 0)
		return PMR_ENOMEM;
	t->str = malloc((cap + 1) * sizeof(*t->str));
	t->slot = calloc(t->nslot, sizeof(*t->slot));
	if (t->str == NULL || t->slot == NULL)
		return PMR_ENOMEM;
	t->cap = cap + 1;
	t->str[0] = "";
	t->n = 1;
	t->slot[hash_str("") & (t->nslot - 1)] = 1;
	return PMR_OK;
}

int64_t
pmr_pprof_strtab_intern(struct pmr_pprof_strtab *t, const char *s)
{
	size_t i;

	if (s == NULL)
		s = "";
	for (i = hash_str(s) & (t->nslot - 1); t->slot[i] != 0;
	    i = (i + 1) & (t->nslot - 1))
		if (strcmp(t->str[t->slot[i] - 1], s) == 0)
			return (int64_t)(t->slot[i] - 1);
	if (t->n == t->cap)
		return -1;
	t->str[t->n] = s;
	t->slot[i] = ++t->n;
	return (int64_t)(t->n - 1);
}

void
pmr_pprof_strtab_free(struct pmr_pprof_strtab *t)
{
	free(t->str);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

/* --- encoding ------------------------------------------------------ */

static void
buf_put(struct pb_buf *b, const void *p, size_t n)
{
	size_t cap;
	unsigned char *np;

	if (b->err != 0 || n == 0)
		return;
	if (n > b->cap - b->n) {
		if (n > SIZE_MAX / 2 - b->n) {
			b->err = PMR_ENOMEM;
			return;
		}
		cap = b->cap != 0 ? b->cap : 256;
		while (cap - b->n < n)
			cap *= 2;
		if ((np = realloc(b->p, cap)) == NULL) {
			b->err = PMR_ENOMEM;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void
put_varint(struct pb_buf *b, uint64_t v)
{
	unsigned char tmp[PMR_PB_VARINT_MAX];

	buf_put(b, tmp, pmr_pb_varint(tmp, v));
}

static void
put_key(struct pb_buf *b, int field, int wire)
{
	put_varint(b, (uint64_t)field << 3 | (uint64_t)wire);
}

/* Puts a varint field, left out when 0 (the proto3 default). */
static void
put_uint(struct pb_buf *b, int field, uint64_t v)
{
	if (v == 0)
		return;
	put_key(b, field, PB_VARINT);
	put_varint(b, v);
}

static void
put_int(struct pb_buf *b, int field, int64_t v)
{
	put_uint(b, field, (uint64_t)v);
}

static void
put_bytes(struct pb_buf *b, int field, const void *p, size_t n)
{
	put_key(b, field, PB_LEN);
	put_varint(b, n);
	buf_put(b, p, n);
}

/* Appends sub to b as message field, and empties sub. */
static void
put_msg(struct pb_buf *b, int field, struct pb_buf *sub)
{
	if (sub->err != 0 && b->err == 0)
		b->err = sub->err;
	put_bytes(b, field, sub->p, sub->n);
	sub->n = 0;
}

/* Deflates the buffered top-level bytes into out; with Z_FINISH, ends the
 * gzip member. */
static void
wr_deflate(struct pprof_writer *w, int flush)
{
	size_t have;
	int zr;

	if (w->err != 0)
		return;
	w->z.next_in = w->top.p;
	w->z.avail_in = (uInt)w->top.n;
	do {
		w->z.next_out = w->zout;
		w->z.avail_out = sizeof(w->zout);
		zr = deflate(&w->z, flush);
		if (zr == Z_STREAM_ERROR) {
			errno = EIO;
			w->err = PMR_EIO;
			return;
		}
		have = sizeof(w->zout) - w->z.avail_out;
		if (have > 0 && fwrite(w->zout, 1, have, w->out) != have) {
			w->err = PMR_EIO;
			return;
		}
	} while (w->z.avail_out == 0);
	w->top.n = 0;
}

/* Appends the message in w->msg to the profile as field. */
static void
wr_field(struct pprof_writer *w, int field)
{
	put_msg(&w->top, field, &w->msg);
	if (w->top.err != 0 && w->err == 0)
		w->err = w->top.err;
	if (w->top.n >= PPROF_CHUNK)
		wr_deflate(w, Z_NO_FLUSH);
}

static void
wr_valuetype(struct pprof_writer *w, int field, int64_t type, int64_t unit)
{
	put_int(&w->msg, VALUETYPE_TYPE, type);
	put_int(&w->msg, VALUETYPE_UNIT, unit);
	wr_field(w, field);
}

/* --- checks -------------------------------------------------------- */

/* Returns the label value v rounded to int64 in *num: 1 if present, 0 if
 * NaN (absent), PMR_EINVAL if infinite or out of range. */
static int
label_num(double v, int64_t *num)
{
	double r;

	if (isnan(v))
		return 0;
	r = round(v);
	/* -2^63 is representable; 2^63 is not. */
	if (!(r >= -9223372036854775808.0 && r < 9223372036854775808.0))
		return PMR_EINVAL;
	*num = (int64_t)r;
	return 1;
}

/* Checks p before anything is written.  Returns PMR_OK, PMR_EINVAL or
 * PMR_ENOMEM. */
static int
check(const struct pmr_pprof *p)
{
	const struct pmr_pprof_loc *l;
	size_t i, j, k, nslot, *slot = NULL;
	int64_t num;
	int rc = PMR_EINVAL;

	if (p->ntype > 0 && (p->type_name == NULL || p->type_unit == NULL))
		return PMR_EINVAL;
	for (i = 0; i < p->ntype; i++)
		if (p->type_name[i] == NULL || p->type_unit[i] == NULL)
			return PMR_EINVAL;
	if (p->nlabel > 0 && p->label_key == NULL)
		return PMR_EINVAL;
	for (i = 0; i < p->nlabel; i++)
		if (p->label_key[i] == NULL)
			return PMR_EINVAL;
	if ((p->nmap > 0 && p->map == NULL) || (p->nloc > 0 && p->loc == NULL))
		return PMR_EINVAL;
	if (p->default_type < -1 || (p->default_type >= 0 &&
	    (size_t)p->default_type >= p->ntype))
		return PMR_EINVAL;
	/* Strings: "", types, labels, mappings, functions, comment. */
	if (p->nloc > SIZE_MAX / 16 || p->nmap > SIZE_MAX / 16 ||
	    p->ntype > SIZE_MAX / 16 || p->nlabel > SIZE_MAX / 16)
		return PMR_ENOMEM;
	if (2 + 2 * (p->ntype + p->nlabel + p->nmap) + p->nloc > INT32_MAX)
		return PMR_EINVAL;
	if ((nslot = slots_for(p->nloc)) == 0)
		return PMR_ENOMEM;
	if ((slot = calloc(nslot, sizeof(*slot))) == NULL)
		return PMR_ENOMEM;
	for (i = 0; i < p->nloc; i++) {
		l = &p->loc[i];
		if (l->mapping < -1 || (l->mapping >= 0 &&
		    (size_t)l->mapping >= p->nmap))
			goto out;
		if (p->ntype > 0 && l->value == NULL)
			goto out;
		if (l->label != NULL)
			for (j = 0; j < p->nlabel; j++)
				if (label_num(l->label[j], &num) < 0)
					goto out;
		for (k = hash_u64(l->addr) & (nslot - 1); slot[k] != 0;
		    k = (k + 1) & (nslot - 1))
			if (p->loc[slot[k] - 1].addr == l->addr)
				goto out;	/* duplicate address */
		slot[k] = i + 1;
	}
	rc = PMR_OK;
out:
	free(slot);
	return rc;
}

/* --- sections ------------------------------------------------------ */

/* Returns the function index + 1 of location l, adding the function if
 * new, or 0 when l names none; -1 when the string table is full (cannot
 * happen: check() sized it). */
static int64_t
wr_function_of(struct pprof_writer *w, const struct pmr_pprof_loc *l)
{
	struct pprof_fn *f;
	int64_t name;
	size_t i;

	if (l->func == NULL)
		return 0;
	if ((name = pmr_pprof_strtab_intern(&w->st, l->func)) < 0)
		return -1;
	for (i = hash_u64((uint64_t)name * 0x9e3779b97f4a7c15ull +
	    (uint64_t)(int64_t)l->mapping) & (w->nfslot - 1);
	    w->fslot[i] != 0; i = (i + 1) & (w->nfslot - 1)) {
		f = &w->fn[w->fslot[i] - 1];
		if (f->name == name && f->map == l->mapping) {
			if (f->lo == 0)
				f->lo = l->func_lo;
			return (int64_t)w->fslot[i];
		}
	}
	f = &w->fn[w->nfn++];
	f->name = name;
	f->map = l->mapping;
	f->lo = l->func_lo;
	w->fslot[i] = w->nfn;
	return (int64_t)w->nfn;
}

/* Writes one sample per location (field 2). */
static void
wr_samples(struct pprof_writer *w, const struct pmr_pprof *p,
    const int64_t *key, const int64_t *unit)
{
	const struct pmr_pprof_loc *l;
	size_t i, j;
	int64_t num;

	for (i = 0; i < p->nloc && w->err == 0; i++) {
		l = &p->loc[i];
		put_varint(&w->sub, i + 1);
		put_msg(&w->msg, SAMPLE_LOCATION_ID, &w->sub);
		for (j = 0; j < p->ntype; j++)
			put_varint(&w->sub, (uint64_t)l->value[j]);
		if (p->ntype > 0)
			put_msg(&w->msg, SAMPLE_VALUE, &w->sub);
		for (j = 0; l->label != NULL && j < p->nlabel; j++) {
			if (label_num(l->label[j], &num) != 1)
				continue;
			put_int(&w->sub, LABEL_KEY, key[j]);
			/* num 0 is left out like any proto3 default. */
			put_int(&w->sub, LABEL_NUM, num);
			put_int(&w->sub, LABEL_NUM_UNIT, unit[j]);
			put_msg(&w->msg, SAMPLE_LABEL, &w->sub);
		}
		wr_field(w, PROFILE_SAMPLE);
	}
}

static void
wr_mappings(struct pprof_writer *w, const struct pmr_pprof *p)
{
	const struct pmr_pprof_mapping *m;
	size_t i;

	for (i = 0; i < p->nmap && w->err == 0; i++) {
		m = &p->map[i];
		put_uint(&w->msg, MAPPING_ID, i + 1);
		put_uint(&w->msg, MAPPING_MEMORY_START, m->start);
		put_uint(&w->msg, MAPPING_MEMORY_LIMIT, m->limit);
		put_uint(&w->msg, MAPPING_FILE_OFFSET, m->offset);
		put_int(&w->msg, MAPPING_FILENAME,
		    pmr_pprof_strtab_intern(&w->st, m->path));
		put_int(&w->msg, MAPPING_BUILD_ID,
		    pmr_pprof_strtab_intern(&w->st, m->build_id));
		put_uint(&w->msg, MAPPING_HAS_FUNCTIONS, w->map_hasfn[i]);
		wr_field(w, PROFILE_MAPPING);
	}
}

/* Writes the locations (field 4), finding their functions on the way. */
static void
wr_locations(struct pprof_writer *w, const struct pmr_pprof *p)
{
	const struct pmr_pprof_loc *l;
	int64_t fid;
	size_t i;

	for (i = 0; i < p->nloc && w->err == 0; i++) {
		l = &p->loc[i];
		if ((fid = wr_function_of(w, l)) < 0) {
			w->err = PMR_ENOMEM;
			break;
		}
		put_uint(&w->msg, LOCATION_ID, i + 1);
		put_uint(&w->msg, LOCATION_MAPPING_ID,
		    (uint64_t)(int64_t)(l->mapping + 1));
		put_uint(&w->msg, LOCATION_ADDRESS, l->addr);
		if (fid > 0) {
			/* Line 0: no source line is known. */
			put_uint(&w->sub, LINE_FUNCTION_ID, (uint64_t)fid);
			put_msg(&w->msg, LOCATION_LINE, &w->sub);
		}
		wr_field(w, PROFILE_LOCATION);
	}
}

static void
wr_functions(struct pprof_writer *w)
{
	size_t i;

	for (i = 0; i < w->nfn && w->err == 0; i++) {
		put_uint(&w->msg, FUNCTION_ID, i + 1);
		put_int(&w->msg, FUNCTION_NAME, w->fn[i].name);
		put_int(&w->msg, FUNCTION_SYSTEM_NAME, w->fn[i].name);
		/* An address: profile.proto has no field for one. */
		put_uint(&w->msg, FUNCTION_START_LINE, w->fn[i].lo);
		wr_field(w, PROFILE_FUNCTION);
	}
}

/* Writes the string table (field 6), "" included, which pprof requires
 * first. */
static void
wr_strings(struct pprof_writer *w)
{
	size_t i;

	for (i = 0; i < w->st.n && w->err == 0; i++) {
		put_bytes(&w->top, PROFILE_STRING_TABLE, w->st.str[i],
		    strlen(w->st.str[i]));
		if (w->top.err != 0)
			w->err = w->top.err;
		else if (w->top.n >= PPROF_CHUNK)
			wr_deflate(w, Z_NO_FLUSH);
	}
}

/* Sets up w for p after check(): tables sized for the most strings and
 * functions p can need, so they never grow. */
static int
wr_init(struct pprof_writer *w, FILE *out, const struct pmr_pprof *p)
{
	size_t i, nstr;
	int rc;

	w->out = out;
	nstr = 1 + 2 * (p->ntype + p->nlabel + p->nmap) + p->nloc;
	if ((rc = pmr_pprof_strtab_init(&w->st, nstr)) != PMR_OK)
		return rc;
	if ((w->nfslot = slots_for(p->nloc)) == 0)
		return PMR_ENOMEM;
	w->fslot = calloc(w->nfslot, sizeof(*w->fslot));
	w->fn = malloc((p->nloc > 0 ? p->nloc : 1) * sizeof(*w->fn));
	w->map_hasfn = calloc(p->nmap > 0 ? p->nmap : 1,
	    sizeof(*w->map_hasfn));
	if (w->fslot == NULL || w->fn == NULL || w->map_hasfn == NULL)
		return PMR_ENOMEM;
	for (i = 0; i < p->nloc; i++)
		if (p->loc[i].func != NULL && p->loc[i].mapping >= 0)
			w->map_hasfn[p->loc[i].mapping] = true;
	switch (deflateInit2(&w->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED,
	    15 + 16, 8, Z_DEFAULT_STRATEGY)) {	/* 15 + 16: gzip framing */
	case Z_OK:
		break;
	case Z_MEM_ERROR:
		return PMR_ENOMEM;
	default:
		return PMR_EINVAL;
	}
	w->zinit = true;
	return PMR_OK;
}

int
pmr_pprof_write(FILE *out, const struct pmr_pprof *p)
{
	struct pprof_writer *w;
	int64_t *key = NULL, *unit = NULL, comment = 0, dflt = 0;
	int64_t pt_type = 0, pt_unit = 0, tn, tu;
	size_t i;
	int pt, rc;

	if (out == NULL || p == NULL)
		return PMR_EINVAL;
	if ((rc = check(p)) != PMR_OK)
		return rc;
	if ((w = calloc(1, sizeof(*w))) == NULL)
		return PMR_ENOMEM;
	if ((rc = wr_init(w, out, p)) != PMR_OK)
		goto out;
	rc = PMR_ENOMEM;
	key = malloc((p->nlabel > 0 ? p->nlabel : 1) * sizeof(*key));
	unit = malloc((p->nlabel > 0 ? p->nlabel : 1) * sizeof(*unit));
	if (key == NULL || unit == NULL)
		goto out;
	/* The table is sized for every string: interning cannot fail.
	 * Types first, so that their strings lead the table. */
	for (i = 0; i < p->ntype; i++) {
		tn = pmr_pprof_strtab_intern(&w->st, p->type_name[i]);
		tu = pmr_pprof_strtab_intern(&w->st, p->type_unit[i]);
		wr_valuetype(w, PROFILE_SAMPLE_TYPE, tn, tu);
	}
	for (i = 0; i < p->nlabel; i++) {
		key[i] = pmr_pprof_strtab_intern(&w->st, p->label_key[i]);
		unit[i] = pmr_pprof_strtab_intern(&w->st,
		    p->label_unit != NULL ? p->label_unit[i] : NULL);
	}
	wr_samples(w, p, key, unit);
	wr_mappings(w, p);
	wr_locations(w, p);
	wr_functions(w);
	if (p->comment != NULL)
		comment = pmr_pprof_strtab_intern(&w->st, p->comment);
	if (p->default_type >= 0)
		dflt = pmr_pprof_strtab_intern(&w->st,
		    p->type_name[p->default_type]);
	if (p->period != 0 && p->ntype > 0) {
		pt = p->default_type >= 0 ? p->default_type : 0;
		pt_type = pmr_pprof_strtab_intern(&w->st, p->type_name[pt]);
		pt_unit = pmr_pprof_strtab_intern(&w->st, p->type_unit[pt]);
	}
	wr_strings(w);
	put_int(&w->top, PROFILE_TIME_NANOS, p->time_nanos);
	put_int(&w->top, PROFILE_DURATION_NANOS, p->duration_nanos);
	if (p->period != 0 && p->ntype > 0)
		wr_valuetype(w, PROFILE_PERIOD_TYPE, pt_type, pt_unit);
	put_int(&w->top, PROFILE_PERIOD, p->period);
	if (p->comment != NULL) {
		put_key(&w->top, PROFILE_COMMENT, PB_VARINT);
		put_varint(&w->top, (uint64_t)comment);
	}
	put_int(&w->top, PROFILE_DEFAULT_SAMPLE_TYPE, dflt);
	if (w->err == 0 && w->top.err != 0)
		w->err = w->top.err;
	wr_deflate(w, Z_FINISH);
	if (w->err == 0 && fflush(out) != 0)
		w->err = PMR_EIO;
	rc = w->err;
out:
	if (w->zinit)
		deflateEnd(&w->z);
	pmr_pprof_strtab_free(&w->st);
	free(w->top.p);
	free(w->msg.p);
	free(w->sub.p);
	free(w->fn);
	free(w->fslot);
	free(w->map_hasfn);
	free(key);
	free(unit);
	free(w);
	return rc;
}
