/*
 * fmt.c: the text forms of records: aligned text, TSV and JSON lines for
 * printing, and TSV for parsing back (pmview -r).
 *
 * Everything is driven by the field tables of lib/records, so a new record
 * type prints and parses as soon as it is registered.  The TSV form is
 * exact: integers in decimal (X64 fields in 0x-hex), doubles with 17
 * significant digits, strings with backslash escapes for tab, newline,
 * carriage return, backslash and other control bytes (\xHH), blobs in hex,
 * A64 arrays as comma-separated hex.  Printing then parsing gives back the
 * same payload bytes, which the tests check.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "stream/pmr_internal.h"

/* Minimal printed width of each kind in aligned text. */
static const unsigned char text_width[] = {
	[PMR_K_U8] = 3, [PMR_K_U16] = 5, [PMR_K_U32] = 10, [PMR_K_U64] = 10,
	[PMR_K_X64] = 14, [PMR_K_I64] = 10, [PMR_K_F64] = 10,
	[PMR_K_STR] = 0, [PMR_K_BLOB] = 0, [PMR_K_A64] = 0,
};

static void
put_hex(FILE *f, const unsigned char *p, size_t n)
{
	static const char hx[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		putc(hx[p[i] >> 4], f);
		putc(hx[p[i] & 15], f);
	}
}

/* Prints a string escaped for TSV/text (json = 0) or JSON (json = 1). */
static void
put_str(FILE *f, struct pmr_bytes b, int json)
{
	uint32_t i;

	for (i = 0; i < b.n; i++) {
		unsigned char c = b.p[i];

		switch (c) {
		case '\t':
			fputs("\\t", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '"':
			fputs(json ? "\\\"" : "\"", f);
			break;
		default:
			if (c < 0x20 || c == 0x7f)
				fprintf(f, json ? "\\u%04x" : "\\x%02x", c);
			else
				putc(c, f);
		}
	}
}

/* Prints one field value; returns the number of characters (approx.). */
static int
put_value(FILE *f, enum pmr_fmt fmt, const struct pmr_field *fd,
    const unsigned char *s)
{
	int n = 0;

	switch (fd->kind) {
	case PMR_K_U8:
		n = fprintf(f, "%u", *s);
		break;
	case PMR_K_U16: {
		uint16_t v;
		memcpy(&v, s, 2);
		n = fprintf(f, "%u", v);
		break;
	}
	case PMR_K_U32: {
		uint32_t v;
		memcpy(&v, s, 4);
		n = fprintf(f, "%" PRIu32, v);
		break;
	}
	case PMR_K_U64: {
		uint64_t v;
		memcpy(&v, s, 8);
		n = fprintf(f, "%" PRIu64, v);
		break;
	}
	case PMR_K_X64: {
		uint64_t v;
		memcpy(&v, s, 8);
		n = fprintf(f, fmt == PMR_FMT_JSON ? "\"0x%" PRIx64 "\"" :
		    "0x%" PRIx64, v);
		break;
	}
	case PMR_K_I64: {
		int64_t v;
		memcpy(&v, s, 8);
		n = fprintf(f, "%" PRId64, v);
		break;
	}
	case PMR_K_F64: {
		double v;
		memcpy(&v, s, 8);
		if (fmt == PMR_FMT_JSON && !(v - v == 0))
			n = fprintf(f, "null");
		else
			n = fprintf(f, "%.17g", v);
		break;
	}
	case PMR_K_STR: {
		struct pmr_bytes b;
		memcpy(&b, s, sizeof(b));
		if (fmt != PMR_FMT_TSV)
			putc('"', f);
		put_str(f, b, fmt == PMR_FMT_JSON);
		if (fmt != PMR_FMT_TSV)
			putc('"', f);
		break;
	}
	case PMR_K_BLOB: {
		struct pmr_bytes b;
		memcpy(&b, s, sizeof(b));
		if (fmt == PMR_FMT_JSON)
			putc('"', f);
		put_hex(f, b.p, b.n);
		if (fmt == PMR_FMT_JSON)
			putc('"', f);
		break;
	}
	case PMR_K_A64: {
		struct pmr_bytes b;
		uint32_t i;
		memcpy(&b, s, sizeof(b));
		if (fmt == PMR_FMT_JSON)
			putc('[', f);
		for (i = 0; i < b.n; i++)
			fprintf(f, fmt == PMR_FMT_JSON ? "%s\"0x%" PRIx64 "\"" :
			    "%s0x%" PRIx64, i ? "," : "", pmr_a64_get(b, i));
		if (fmt == PMR_FMT_JSON)
			putc(']', f);
		break;
	}
	}
	return n;
}

static void
print_unknown(FILE *f, enum pmr_fmt fmt, const struct pmr_rec *rec)
{
	switch (fmt) {
	case PMR_FMT_TSV:
		fprintf(f, "%" PRIu32 "\t", rec->type);
		put_hex(f, rec->p, rec->len);
		break;
	case PMR_FMT_JSON:
		fprintf(f, "{\"type\":%" PRIu32 ",\"size\":%" PRIu32
		    ",\"hex\":\"", rec->type, rec->len + 8);
		put_hex(f, rec->p, rec->len);
		fputs("\"}", f);
		break;
	default:
		fprintf(f, "%-7" PRIu32 " size=%-6" PRIu32 " hex=", rec->type,
		    rec->len + 8);
		put_hex(f, rec->p, rec->len);
		break;
	}
	putc('\n', f);
}

int
pmr_rec_print(FILE *f, enum pmr_fmt fmt, const struct pmr_rec *rec,
    unsigned char *seen, const char **why)
{
	const struct pmr_rtype *t = pmr_rtype_find(rec->type);
	union {
		uint64_t align;
		unsigned char b[512];
	} u;
	unsigned i;
	int ret;

	if (t == NULL || t->size > sizeof(u.b)) {
		print_unknown(f, fmt, rec);
		return PMR_OK;
	}
	if ((ret = pmr_fields_decode(t, rec->p, rec->len, u.b, why)) != 0)
		return ret;
	if (fmt == PMR_FMT_TSV && seen != NULL && !seen[rec->type & 255]) {
		seen[rec->type & 255] = 1;
		fprintf(f, "#%s", t->name);
		for (i = 0; i < t->nfields; i++)
			fprintf(f, "\t%s", t->fields[i].name);
		putc('\n', f);
	}
	switch (fmt) {
	case PMR_FMT_TSV:
		fputs(t->name, f);
		for (i = 0; i < t->nfields; i++) {
			putc('\t', f);
			put_value(f, fmt, &t->fields[i], u.b + t->fields[i].off);
		}
		break;
	case PMR_FMT_JSON:
		fprintf(f, "{\"type\":\"%s\"", t->name);
		for (i = 0; i < t->nfields; i++) {
			fprintf(f, ",\"%s\":", t->fields[i].name);
			put_value(f, fmt, &t->fields[i], u.b + t->fields[i].off);
		}
		putc('}', f);
		break;
	default:
		fprintf(f, "%-7s", t->name);
		for (i = 0; i < t->nfields; i++) {
			const struct pmr_field *fd = &t->fields[i];
			int n;

			fprintf(f, " %s=", fd->name);
			n = put_value(f, fmt, fd, u.b + fd->off);
			if (i + 1 < t->nfields)
				for (; n < text_width[fd->kind]; n++)
					putc(' ', f);
		}
		break;
	}
	putc('\n', f);
	return PMR_OK;
}

/* --- parsing ------------------------------------------------------------ */

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decodes hex digits s[0..n) into d.  Returns bytes or -1. */
static long
unhex(const char *s, size_t n, unsigned char *d)
{
	size_t i;

	if (n % 2)
		return -1;
	for (i = 0; i < n; i += 2) {
		int a = hexval(s[i]), b = hexval(s[i + 1]);

		if (a < 0 || b < 0)
			return -1;
		d[i / 2] = (unsigned char)(a << 4 | b);
	}
	return (long)(n / 2);
}

/* Unescapes a TSV string s[0..n) into d.  Returns bytes or -1. */
static long
unescape(const char *s, size_t n, unsigned char *d)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (s[i] != '\\') {
			d[k++] = (unsigned char)s[i];
			continue;
		}
		if (++i == n)
			return -1;
		switch (s[i]) {
		case 't':
			d[k++] = '\t';
			break;
		case 'n':
			d[k++] = '\n';
			break;
		case 'r':
			d[k++] = '\r';
			break;
		case '\\':
			d[k++] = '\\';
			break;
		case 'x':
			if (i + 2 >= n + 0 || hexval(s[i + 1]) < 0 ||
			    hexval(s[i + 2]) < 0)
				return -1;
			d[k++] = (unsigned char)(hexval(s[i + 1]) << 4 |
			    hexval(s[i + 2]));
			i += 2;
			break;
		default:
			return -1;
		}
	}
	return (long)k;
}

static int
parse_u64(const char *s, size_t n, int hex, uint64_t *v)
{
	char tmp[32], *end;

	if (n == 0 || n >= sizeof(tmp))
		return -1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	if (!isdigit((unsigned char)tmp[0]))
		return -1;
	if (hex && !(tmp[0] == '0' && (tmp[1] == 'x' || tmp[1] == 'X')))
		return -1;
	errno = 0;
	*v = strtoull(tmp, &end, hex ? 16 : 10);
	if (errno || *end != '\0')
		return -1;
	return 0;
}

int
pmr_is_binary(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c < 0x20 && c != '\t' && c != '\r' && c != '\n') ||
		    c == 0x7f)
			return 1;
	}
	return 0;
}

const char *
pmr_quote(char *buf, size_t len, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, o = 0;

	if (len == 0)
		return buf;
	for (i = 0; i < n && o + 8 < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'') {
			buf[o++] = (char)c;
			continue;
		}
		buf[o++] = '\\';
		buf[o++] = 'x';
		buf[o++] = hex[c >> 4];
		buf[o++] = hex[c & 15];
	}
	if (i < n && o + 3 < len) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return buf;
}

int
pmr_rec_parse(const char *line, uint32_t *type, unsigned char *buf,
    size_t cap, char *errbuf, size_t errlen)
{
	const struct pmr_rtype *t;
	const char *col[64], *p, *name;
	size_t clen[64], linelen, n;
	unsigned ncol = 0, i;
	unsigned char *scratch = NULL, *sp;
	union {
		uint64_t align;
		unsigned char b[512];
	} u;
	int ret = PMR_EINVAL;

	linelen = strcspn(line, "\r\n");
	errbuf[0] = '\0';
	if (linelen == 0 || line[0] == '#')
		return PMR_EINVAL;
	if (pmr_is_binary(line, linelen)) {
		pmr_msg(errbuf, errlen, "not text (binary data: a pmr stream "
		    "or a trace is read without -r)");
		return PMR_EINVAL;
	}
	for (p = line; ncol < 64;) {
		const char *e = memchr(p, '\t', (size_t)(line + linelen - p));

		col[ncol] = p;
		clen[ncol++] = e ? (size_t)(e - p) : (size_t)(line + linelen - p);
		if (e == NULL)
			break;
		p = e + 1;
	}
	if (ncol == 64) {
		pmr_msg(errbuf, errlen, "too many columns");
		return PMR_EINVAL;
	}
	name = col[0];
	if (isdigit((unsigned char)name[0])) {
		uint64_t ty;
		long k;

		if (parse_u64(name, clen[0], 0, &ty) != 0 || ty == 0 ||
		    ty > UINT32_MAX || ncol != 2) {
			pmr_msg(errbuf, errlen, "bad unknown-type record "
			    "(want TYPE-NUMBER<TAB>HEX)");
			return PMR_EINVAL;
		}
		if (clen[1] / 2 > cap ||
		    (k = unhex(col[1], clen[1], buf)) < 0) {
			pmr_msg(errbuf, errlen, "bad hex payload");
			return PMR_EINVAL;
		}
		if (pmr_rtype_find((uint32_t)ty) != NULL) {
			pmr_msg(errbuf, errlen, "type %u is %s: write it by "
			    "name, field by field", (unsigned)ty,
			    pmr_rtype_find((uint32_t)ty)->name);
			return PMR_EINVAL;
		}
		*type = (uint32_t)ty;
		return (int)k;
	}
	{
		char tn[32];

		n = clen[0] < sizeof(tn) ? clen[0] : sizeof(tn) - 1;
		memcpy(tn, name, n);
		tn[n] = '\0';
		if ((t = pmr_rtype_byname(tn)) == NULL ||
		    t->size > sizeof(u.b)) {
			char q[64];

			pmr_msg(errbuf, errlen, "unknown record type '%s'",
			    pmr_quote(q, sizeof(q), name, clen[0]));
			return PMR_EINVAL;
		}
	}
	if (ncol - 1 > t->nfields ||
	    (ncol - 1 < t->nfields && t->fields[ncol - 1].since == 0)) {
		pmr_msg(errbuf, errlen, "%s needs %u fields, line has %u",
		    t->name, t->nfields, ncol - 1);
		return PMR_EINVAL;
	}
	if ((scratch = malloc(linelen * 4 + 16)) == NULL) {
		pmr_msg(errbuf, errlen, "out of memory");
		return PMR_ENOMEM;
	}
	sp = scratch;
	memset(u.b, 0, sizeof(u.b));
	for (i = 0; i + 1 < ncol; i++) {
		const struct pmr_field *fd = &t->fields[i];
		const char *s = col[i + 1];
		size_t sl = clen[i + 1];
		unsigned char *d = u.b + fd->off;
		uint64_t v;
		long k;
		int bad = 0;

		switch (fd->kind) {
		case PMR_K_U8:
		case PMR_K_U16:
		case PMR_K_U32:
		case PMR_K_U64:
		case PMR_K_X64: {
			static const uint64_t max[] = { [PMR_K_U8] = 0xff,
				[PMR_K_U16] = 0xffff, [PMR_K_U32] = 0xffffffff,
				[PMR_K_U64] = UINT64_MAX,
				[PMR_K_X64] = UINT64_MAX };
			int hex = sl > 2 && s[0] == '0' &&
			    (s[1] == 'x' || s[1] == 'X');

			if (parse_u64(s, sl, hex, &v) != 0 ||
			    v > max[fd->kind]) {
				bad = 1;
				break;
			}
			if (fd->kind == PMR_K_U8)
				*d = (unsigned char)v;
			else if (fd->kind == PMR_K_U16) {
				uint16_t x = (uint16_t)v;
				memcpy(d, &x, 2);
			} else if (fd->kind == PMR_K_U32) {
				uint32_t x = (uint32_t)v;
				memcpy(d, &x, 4);
			} else
				memcpy(d, &v, 8);
			break;
		}
		case PMR_K_I64: {
			char tmp[32], *end;
			int64_t x;

			if (sl == 0 || sl >= sizeof(tmp)) {
				bad = 1;
				break;
			}
			memcpy(tmp, s, sl);
			tmp[sl] = '\0';
			errno = 0;
			x = strtoll(tmp, &end, 10);
			bad = errno || *end != '\0';
			memcpy(d, &x, 8);
			break;
		}
		case PMR_K_F64: {
			char tmp[64], *end;
			double x;

			if (sl == 0 || sl >= sizeof(tmp)) {
				bad = 1;
				break;
			}
			memcpy(tmp, s, sl);
			tmp[sl] = '\0';
			x = strtod(tmp, &end);
			bad = *end != '\0';
			memcpy(d, &x, 8);
			break;
		}
		case PMR_K_STR:
		case PMR_K_BLOB: {
			struct pmr_bytes b;

			k = fd->kind == PMR_K_STR ? unescape(s, sl, sp) :
			    unhex(s, sl, sp);
			if (k < 0) {
				bad = 1;
				break;
			}
			b.p = sp;
			b.n = (uint32_t)k;
			sp += k;
			memcpy(d, &b, sizeof(b));
			break;
		}
		case PMR_K_A64: {
			struct pmr_bytes b = { sp, 0 };
			const char *q = s, *end = s + sl;

			while (q < end) {
				const char *c = memchr(q, ',',
				    (size_t)(end - q));
				size_t el = c ? (size_t)(c - q) :
				    (size_t)(end - q);

				if (parse_u64(q, el, el > 2 && q[1] == 'x',
				    &v) != 0) {
					bad = 1;
					break;
				}
				pmr_put64(sp, v);
				sp += 8;
				b.n++;
				q += el + (c != NULL);
				if (c != NULL && q == end)
					bad = 1;
			}
			memcpy(d, &b, sizeof(b));
			break;
		}
		}
		if (bad) {
			char q[64];

			pmr_msg(errbuf, errlen, "%s field %s: bad value '%s'",
			    t->name, fd->name, pmr_quote(q, sizeof(q), s, sl));
			goto out;
		}
	}
	n = pmr_fields_size(t, u.b);
	/* Appended fields left out of the line are not encoded either. */
	if (ncol - 1 < t->nfields) {
		struct pmr_rtype part = *t;

		part.nfields = ncol - 1;
		n = pmr_fields_size(&part, u.b);
		if (n > cap)
			goto toolong;
		pmr_fields_encode(&part, u.b, buf);
	} else {
		if (n > cap)
			goto toolong;
		pmr_fields_encode(t, u.b, buf);
	}
	*type = t->type;
	ret = (int)n;
	goto out;
toolong:
	pmr_msg(errbuf, errlen, "record too large");
	ret = PMR_EINVAL;
out:
	free(scratch);
	return ret;
}

void
pmr_json_str(FILE *f, const char *s)
{
	putc('"', f);
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", (unsigned char)*s);
		else
			putc(*s, f);
	}
	putc('"', f);
}
