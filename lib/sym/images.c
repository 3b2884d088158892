/*
 * images.c: the images of a run (IMAGE records, pmr(5)), their symbols
 * and their code, opened on demand (images.h).  A handful of images per
 * run: a linear search from the last added finds a pc's image.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sym/images.h"
#include "sym/sym.h"

struct img {
	struct pmr_images_ent e;
	struct pmr_symtab *st;
	int st_rc;		/* symbols: 0 read, <0 why not */
	int st_tried;
	int fd;			/* code: -1 not open */
	int fd_rc;		/* why the file could not be opened */
	int fd_tried;
	int ambig;		/* shares addresses with another image */
};

struct pmr_images {
	const char *sysroot;
	struct img *im;
	size_t n;
};

struct pmr_images *
pmr_images_new(const char *sysroot)
{
	struct pmr_images *s;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return NULL;
	s->sysroot = sysroot;
	return s;
}

void
pmr_images_free(struct pmr_images *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->n; i++) {
		free(s->im[i].e.path);
		pmr_symtab_free(s->im[i].st);
		if (s->im[i].fd >= 0)
			close(s->im[i].fd);
	}
	free(s->im);
	free(s);
}

int
pmr_images_add(struct pmr_images *s, const struct pmr_image *im)
{
	struct img *ni;
	size_t i;

	int ambig = 0;

	for (i = 0; i < s->n; i++) {
		const struct pmr_images_ent *e = &s->im[i].e;

		if (e->start == im->start && e->size == im->size &&
		    e->offset == im->offset && strlen(e->path) == im->path.n &&
		    memcmp(e->path, im->path.p, im->path.n) == 0 &&
		    e->nbid == im->build_id.n && (e->nbid == 0 ||
		    memcmp(e->bid, im->build_id.p, e->nbid) == 0))
			return 0;
		/* another file or build at the same addresses: a pc there
		 * cannot be told to belong to one, so neither names it */
		if (im->size > 0 && e->size > 0 && im->start < e->start +
		    e->size && e->start < im->start + im->size) {
			s->im[i].ambig = 1;
			ambig = 1;
		}
	}
	if ((ni = realloc(s->im, (s->n + 1) * sizeof(*ni))) == NULL)
		return PMR_ENOMEM;
	s->im = ni;
	ni += s->n;
	memset(ni, 0, sizeof(*ni));
	ni->fd = -1;
	ni->ambig = ambig;
	ni->e.start = im->start;
	ni->e.size = im->size;
	ni->e.offset = im->offset;
	if ((ni->e.path = strndup((const char *)im->path.p, im->path.n)) ==
	    NULL)
		return PMR_ENOMEM;
	if (im->build_id.n > 0 && im->build_id.n <= sizeof(ni->e.bid)) {
		memcpy(ni->e.bid, im->build_id.p, im->build_id.n);
		ni->e.nbid = im->build_id.n;
	}
	s->n++;
	return 0;
}

size_t
pmr_images_count(const struct pmr_images *s)
{
	return s->n;
}

const struct pmr_images_ent *
pmr_images_get(const struct pmr_images *s, size_t i)
{
	return &s->im[i].e;
}

long
pmr_images_find(const struct pmr_images *s, uint64_t pc)
{
	size_t i;

	for (i = s->n; i-- > 0;)
		if (pc >= s->im[i].e.start && pc - s->im[i].e.start <
		    s->im[i].e.size)
			return (long)i;
	return -1;
}

int
pmr_images_status(struct pmr_images *s, size_t i)
{
	struct img *m = &s->im[i];

	if (m->ambig)
		return PMR_EAMBIG;
	if (!m->st_tried) {
		m->st_tried = 1;
		m->st_rc = pmr_symtab_load(m->e.path, s->sysroot, m->e.start,
		    m->e.size, m->e.offset, m->e.bid, m->e.nbid, &m->st);
	}
	return m->st_rc;
}

const char *
pmr_images_sym(struct pmr_images *s, size_t i, uint64_t pc, uint64_t *lo,
    uint64_t *hi)
{
	if (pmr_images_status(s, i) != 0 || s->im[i].st == NULL)
		return NULL;
	return pmr_symtab_span(s->im[i].st, pc, lo, hi);
}

int
pmr_images_proc(struct pmr_images *s, const char *name, size_t *img,
    uint64_t *lo, uint64_t *hi)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (pmr_images_status(s, i) == 0 && s->im[i].st != NULL &&
		    pmr_symtab_range(s->im[i].st, name, lo, hi)) {
			*img = i;
			return 1;
		}
	return 0;
}

int
pmr_images_read(struct pmr_images *s, size_t i, uint64_t pc, void *buf,
    size_t n, size_t *got)
{
	struct img *m = &s->im[i];
	uint64_t left;
	ssize_t r;

	*got = 0;
	if (pc < m->e.start || pc - m->e.start >= m->e.size)
		return PMR_EINVAL;
	if (m->ambig)
		return PMR_EAMBIG;
	if (!m->fd_tried) {
		m->fd_tried = 1;
		m->fd_rc = pmr_sym_open(m->e.path, s->sysroot, m->e.bid,
		    m->e.nbid, &m->fd);
	}
	if (m->fd_rc != 0)
		return m->fd_rc;
	left = m->e.size - (pc - m->e.start);
	if (n > left)
		n = (size_t)left;
	do
		r = pread(m->fd, buf, n, (off_t)(m->e.offset +
		    (pc - m->e.start)));
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return PMR_EIO;
	*got = (size_t)r;
	return 0;
}
