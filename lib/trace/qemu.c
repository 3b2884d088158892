/*
 * qemu.c: the events of the pmtrace QEMU plugin (see the protocol in
 * trace_qemu_plugin.c) as pmr dynamic instructions, and the IMAGE records
 * of the code they execute.
 *
 * The plugin sends each translated instruction's bytes once ('I'), which
 * are decoded here with the x86-64 decoder into the static instruction
 * table, then one 'X' per execution followed by its memory accesses.  An
 * instruction is complete when the next one starts, which also gives its
 * next pc.  A rep string instruction is one execution per step, as QEMU
 * runs it (next pc = its own pc until the last step).  'M' events carry
 * /proc/self/maps of the QEMU process, in which the guest's mappings sit
 * at guest addresses; pmr_trace_image_of() looks the pc of a new static
 * instruction up in the latest copy and reads the file's ELF build-id
 * (libelf).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sym/sym.h"
#include "trace/decode.h"

#define QBUF (1u << 20)
#define MAPS_MAX (1u << 20)
#define MAX_IMAGES 4096u

struct qimage {
	struct pmr_image im;
	char *path;
	unsigned char id[64];
};

struct qm_src {
	int fd;
	unsigned char *buf;
	size_t pos, len;
	struct pmr_insn_decoder *dec;
	struct pmr_sinsn **handle;	/* by plugin handle */
	uint32_t nhandle, caphandle;
	char *maps;			/* latest /proc/self/maps copy */
	size_t mapslen;
	struct qimage *img;
	unsigned nimg;
	int ended;
	uint64_t nev;

	int have;			/* the pending instruction */
	struct pmr_sinsn *si;
	unsigned nrd, nwr, memtrunc, has_value;
	uint64_t rd[PMR_INSN_MAXMEM], wr[PMR_INSN_MAXMEM], value;
	uint16_t rdsz[PMR_INSN_MAXMEM], wrsz[PMR_INSN_MAXMEM];
};

/*
 * Makes n bytes available at s->buf + s->pos.  Returns 1, 0 at the end of
 * input (with fewer bytes), or a negative code.
 */
static int
need(struct pmr_trace *t, struct qm_src *s, size_t n)
{
	ssize_t r;

	if (s->len - s->pos >= n)
		return 1;
	memmove(s->buf, s->buf + s->pos, s->len - s->pos);
	s->len -= s->pos;
	s->pos = 0;
	while (s->len < n) {
		r = read(s->fd, s->buf + s->len, QBUF - s->len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return pmr_trace_fail(t, PMR_EIO, "reading from the "
			    "plugin: %s", strerror(errno));
		if (r == 0)
			return s->len == 0 ? 0 : pmr_trace_fail(t, PMR_ETRUNC,
			    "the plugin's output ends inside an event");
		s->len += (size_t)r;
	}
	return 1;
}

static void
finish(struct qm_src *s, struct pmr_dinsn *di, uint64_t next, int known)
{
	const struct pmr_sinsn *si = s->si;
	unsigned i;
	int taken;

	if (si->cls == PMR_OP_BR_COND)
		taken = known && next != si->pc + si->len;
	else
		taken = pmr_insn_class_is_branch(si->cls);
	di->si = si;
	di->pc = si->pc;
	di->next_pc = known ? next : si->pc + si->len;
	di->flags = (uint8_t)((taken ? PMR_DI_TAKEN : 0) |
	    (known ? 0 : PMR_DI_NEXTUNK) |
	    (s->memtrunc ? PMR_DI_MEMTRUNC : 0) |
	    (s->has_value ? PMR_DI_VALUE : 0));
	di->tid = 0;
	di->reserved = 0;
	di->value = s->has_value ? s->value : 0;
	for (i = 0; i < s->nrd; i++) {
		di->addr[i] = s->rd[i];
		di->msize[i] = s->rdsz[i];
	}
	for (i = 0; i < s->nwr; i++) {
		di->addr[s->nrd + i] = s->wr[i];
		di->msize[s->nrd + i] = s->wrsz[i];
	}
	di->nload = (uint8_t)s->nrd;
	di->nmem = (uint8_t)(s->nrd + s->nwr);
	s->have = 0;
}

/* Handles an 'I' event at p (14 + len bytes). */
static int
define_insn(struct pmr_trace *t, struct qm_src *s, const unsigned char *p)
{
	uint32_t h = pmr_le32(p + 1), n;
	uint64_t pc = pmr_le64(p + 5);
	unsigned len = p[13];
	struct pmr_sinsn tmp, *si, **nh;
	int r;

	if (h != s->nhandle)
		return pmr_trace_fail(t, PMR_ECORRUPT, "plugin event %llu: "
		    "instruction handle %u out of order",
		    (unsigned long long)s->nev, h);
	si = pmr_sitab_lookup(t->tab, pc);
	if (si == NULL || si->len != len || memcmp(si->bytes, p + 14, len)) {
		tmp.id = 0;
		r = pmr_insn_decode(s->dec, pc, p + 14, len, &tmp);
		if (r > 0 && (unsigned)r < len)
			tmp.len = (uint8_t)r;	/* QEMU gave more bytes */
		if (r < 0) {
			tmp.len = (uint8_t)len;
			memcpy(tmp.bytes, p + 14, len);
		}
		if ((si = pmr_sitab_add(t->tab, &tmp)) == NULL)
			return pmr_trace_fail(t, PMR_ENOMEM, "out of memory "
			    "for static instructions");
	}
	if (s->nhandle == s->caphandle) {
		n = s->caphandle ? s->caphandle * 2 : 65536;
		if ((nh = realloc(s->handle, n * sizeof(*nh))) == NULL)
			return pmr_trace_fail(t, PMR_ENOMEM, "out of memory");
		s->handle = nh;
		s->caphandle = n;
	}
	s->handle[s->nhandle++] = si;
	return 0;
}

static void
add_access(struct qm_src *s, int store, uint64_t addr, unsigned size,
    const unsigned char *value)
{
	if (s->nrd + s->nwr == PMR_INSN_MAXMEM) {
		s->memtrunc = 1;
		return;
	}
	if (store) {
		s->wrsz[s->nwr] = (uint16_t)size;
		s->wr[s->nwr++] = addr;
		return;
	}
	if (s->nrd == 0 && value != NULL) {
		s->value = pmr_le64(value);
		s->has_value = 1;
	}
	s->rdsz[s->nrd] = (uint16_t)size;
	s->rd[s->nrd++] = addr;
}

static int
qm_next(struct pmr_trace *t, struct pmr_dinsn *di)
{
	struct qm_src *s = t->src;
	const unsigned char *p;
	uint32_t h, n;
	int r;

	for (;;) {
		r = s->ended ? 0 : need(t, s, 1);
		if (r < 0)
			return r;
		if (r == 0) {
			s->ended = 1;
			if (!s->have)
				return 0;
			finish(s, di, 0, 0);
			return 1;
		}
		s->nev++;
		switch (s->buf[s->pos]) {
		case 'I':
			if ((r = need(t, s, 14)) <= 0 ||
			    (r = need(t, s, 14 + (size_t)s->buf[s->pos + 13]))
			    <= 0)
				return r < 0 ? r : pmr_trace_fail(t,
				    PMR_ETRUNC, "truncated plugin event");
			p = s->buf + s->pos;
			if (p[13] == 0 || p[13] > PMR_INSN_MAXBYTES)
				return pmr_trace_fail(t, PMR_ECORRUPT, "plugin "
				    "event %llu: bad instruction length %u",
				    (unsigned long long)s->nev, p[13]);
			if ((r = define_insn(t, s, p)) < 0)
				return r;
			s->pos += 14 + (size_t)p[13];
			break;
		case 'X':
			if ((r = need(t, s, 5)) <= 0)
				return r < 0 ? r : pmr_trace_fail(t,
				    PMR_ETRUNC, "truncated plugin event");
			h = pmr_le32(s->buf + s->pos + 1);
			s->pos += 5;
			if (h >= s->nhandle)
				return pmr_trace_fail(t, PMR_ECORRUPT, "plugin "
				    "event %llu: unknown instruction handle %u",
				    (unsigned long long)s->nev, h);
			r = s->have;
			if (r)
				finish(s, di, s->handle[h]->pc, 1);
			s->si = s->handle[h];
			s->have = 1;
			s->nrd = s->nwr = s->memtrunc = s->has_value = 0;
			if (r)
				return 1;
			break;
		case 'L':
		case 'l':
		case 'S':
			n = s->buf[s->pos] == 'L' ? 18 : 10;
			if ((r = need(t, s, n)) <= 0)
				return r < 0 ? r : pmr_trace_fail(t,
				    PMR_ETRUNC, "truncated plugin event");
			p = s->buf + s->pos;
			if (s->have)
				add_access(s, p[0] == 'S', pmr_le64(p + 1), p[9],
				    p[0] == 'L' ? p + 10 : NULL);
			s->pos += n;
			break;
		case 'M':
			if ((r = need(t, s, 5)) <= 0)
				return r < 0 ? r : pmr_trace_fail(t,
				    PMR_ETRUNC, "truncated plugin event");
			n = pmr_le32(s->buf + s->pos + 1);
			if (n > MAPS_MAX - 64)
				return pmr_trace_fail(t, PMR_ECORRUPT, "plugin "
				    "event %llu: maps of %u bytes",
				    (unsigned long long)s->nev, n);
			if ((r = need(t, s, 5 + (size_t)n)) <= 0)
				return r < 0 ? r : pmr_trace_fail(t,
				    PMR_ETRUNC, "truncated plugin event");
			memcpy(s->maps, s->buf + s->pos + 5, n);
			s->maps[n] = '\0';
			s->mapslen = n;
			s->pos += 5 + (size_t)n;
			break;
		case 'T':
			return pmr_trace_fail(t, PMR_EINVAL, "the program "
			    "started a second thread; pmtrace traces "
			    "single-threaded programs only");
		case 'E':
			s->pos++;
			s->ended = 1;
			break;
		default:
			return pmr_trace_fail(t, PMR_ECORRUPT, "plugin event "
			    "%llu: unknown type 0x%02x",
			    (unsigned long long)s->nev, s->buf[s->pos]);
		}
	}
}

const struct pmr_image *
pmr_trace_image_of(struct pmr_trace *t, uint64_t pc)
{
	struct qm_src *s;
	struct qimage *q;
	const char *line, *end;
	unsigned i;

	if (t->fmt != PMR_TF_QEMU || (s = t->src) == NULL)
		return NULL;
	for (i = 0; i < s->nimg; i++)
		if (pc - s->img[i].im.start < s->img[i].im.size)
			return NULL;	/* already reported */
	if (s->nimg == MAX_IMAGES)
		return NULL;
	for (line = s->maps; line != NULL && *line != '\0'; line = end) {
		unsigned long long lo, hi, off;
		char perms[8];
		int pos = 0;

		end = strchr(line, '\n');
		end = end != NULL ? end + 1 : line + strlen(line);
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &lo, &hi,
		    perms, &off, &pos) < 4 || pos == 0 || pc < lo || pc >= hi)
			continue;
		/* QEMU maps guest code without host exec permission, so
		 * the permissions say nothing; a file is all it takes */
		if (line[pos] != '/')
			return NULL;	/* anonymous code (JIT): no image */
		q = &s->img[s->nimg];
		if ((q->path = strndup(line + pos, (size_t)(end - line - pos) -
		    (end[-1] == '\n'))) == NULL)
			return NULL;
		q->im.start = lo;
		q->im.size = hi - lo;
		q->im.offset = off;
		q->im.path.p = (const unsigned char *)q->path;
		q->im.path.n = (uint32_t)strlen(q->path);
		q->im.build_id.p = q->id;
		q->im.build_id.n = pmr_sym_build_id(q->path, q->id,
		    sizeof(q->id));
		s->nimg++;
		return &q->im;
	}
	return NULL;
}

static void
qm_close(struct pmr_trace *t)
{
	struct qm_src *s = t->src;
	unsigned i;

	if (s == NULL)
		return;
	pmr_insn_decoder_close(s->dec);
	for (i = 0; i < s->nimg; i++)
		free(s->img[i].path);
	free(s->img);
	free(s->handle);
	free(s->maps);
	free(s->buf);
	free(s);
	t->src = NULL;
}

static const struct pmr_trace_ops qm_ops = { qm_next, qm_close };

struct pmr_trace *
pmr_trace_open_qemu(int fd, int *err, char *errbuf, size_t errlen)
{
	struct pmr_trace *t;
	struct qm_src *s;
	int e = 0;

	if ((t = pmr_trace_new(err, errbuf, errlen)) == NULL)
		return NULL;
	if ((s = calloc(1, sizeof(*s))) == NULL) {
		pmr_trace_close(t);
		*err = PMR_ENOMEM;
		pmr_msg(errbuf, errlen, "out of memory");
		return NULL;
	}
	t->src = s;
	t->ops = &qm_ops;
	t->fmt = PMR_TF_QEMU;
	s->fd = fd;
	if ((s->buf = malloc(QBUF)) == NULL ||
	    (s->maps = calloc(1, MAPS_MAX)) == NULL ||
	    (s->img = calloc(MAX_IMAGES, sizeof(*s->img))) == NULL ||
	    (s->dec = pmr_insn_decoder_open(PMR_ISA_X86_64, &e)) == NULL) {
		pmr_trace_close(t);
		*err = e ? e : PMR_ENOMEM;
		pmr_msg(errbuf, errlen, "cannot start the x86-64 decoder");
		return NULL;
	}
	return t;
}
