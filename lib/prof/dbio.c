/*
 * dbio.c: a profile (prof.h) into and out of the profile database (db.h):
 * pcs become (image, file offset) on the way in, and each database image
 * gets a base of its own on the way out.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof/db.h"
#include "prof/prof.h"

/* Database image ids of the profile's images, made on first use. */
struct addctx {
	struct pmr_prof *p;
	struct pmr_profdb *db;
	int64_t *id;		/* per image, -1 not made yet */
};

static int
add_one(void *arg, size_t run, size_t ev, uint64_t pc, double v)
{
	struct addctx *c = arg;
	struct pmr_images *im = pmr_prof_images(c->p);
	long i = pmr_images_find(im, pc);
	uint64_t off = pc, n = (uint64_t)llround(v);
	int64_t img = PMR_PROFDB_UNKNOWN;
	int rc;

	(void)run;
	if (n == 0 || !(v > 0))
		return 0;
	if (i >= 0) {
		const struct pmr_images_ent *e = pmr_images_get(im,
		    (size_t)i);

		if (c->id[i] < 0 && (rc = pmr_profdb_image(c->db, e->path,
		    e->nbid ? e->bid : NULL, e->nbid, &c->id[i])) != 0)
			return rc;
		img = c->id[i];
		off = pc - e->start + e->offset;
	}
	return pmr_profdb_add(c->db, img, pmr_prof_event(c->p, ev), off, n);
}

int
pmr_prof_db_add(struct pmr_prof *p, struct pmr_profdb *db, const char *epoch,
    const char *cmdline, uint64_t seed)
{
	struct addctx c;
	size_t i, n = pmr_prof_images(p) ? pmr_images_count(
	    pmr_prof_images(p)) : 0;
	int rc;

	c.p = p;
	c.db = db;
	if ((c.id = malloc((n + 1) * sizeof(*c.id))) == NULL)
		return PMR_ENOMEM;
	for (i = 0; i < n; i++)
		c.id[i] = -1;
	if ((rc = pmr_profdb_begin(db, epoch, cmdline, seed)) == 0 &&
	    (rc = pmr_prof_each(p, add_one, &c)) == 0)
		rc = pmr_profdb_commit(db);
	if (rc != 0)
		pmr_profdb_rollback(db);
	free(c.id);
	return rc;
}

/* Each database image's base: images 2^41 apart from 2^44 up, far above
 * user code, so that no two overlap. */
#define DB_BASE(id) ((uint64_t)1 << 44 | (uint64_t)(id) << 41)
#define DB_SPAN ((uint64_t)1 << 40)

struct readctx {
	struct pmr_prof *p;
	const char *epoch;	/* the current run's */
	int64_t *seen;		/* image ids given an IMAGE in this run */
	size_t nseen, capseen;
	int rc;
};

static int
read_one(void *arg, const struct pmr_profdb_row *r)
{
	struct readctx *c = arg;
	uint64_t pc = r->offset;
	size_t i;

	if (c->epoch == NULL || strcmp(c->epoch, r->epoch) != 0) {
		free((char *)c->epoch);
		if ((c->epoch = strdup(r->epoch)) == NULL ||
		    pmr_prof_begin_run(c->p, r->epoch) != 0)
			return PMR_ENOMEM;
		c->nseen = 0;
	}
	if (r->image != PMR_PROFDB_UNKNOWN) {
		for (i = 0; i < c->nseen && c->seen[i] != r->image; i++)
			;
		if (i == c->nseen) {
			struct pmr_image im;

			if (c->nseen == c->capseen) {
				size_t cap = c->capseen ? 2 * c->capseen : 16;
				int64_t *s = realloc(c->seen, cap *
				    sizeof(*s));

				if (s == NULL)
					return PMR_ENOMEM;
				c->seen = s;
				c->capseen = cap;
			}
			c->seen[c->nseen++] = r->image;
			memset(&im, 0, sizeof(im));
			im.start = DB_BASE(r->image);
			im.size = DB_SPAN;
			im.offset = 0;
			im.path.p = (const unsigned char *)r->path;
			im.path.n = (uint32_t)strlen(r->path);
			im.build_id.p = r->bid;
			im.build_id.n = (uint32_t)r->nbid;
			if (pmr_prof_image(c->p, &im) != 0)
				return PMR_ENOMEM;
		}
		if (r->offset >= DB_SPAN)
			return PMR_ECORRUPT;
		pc = DB_BASE(r->image) + r->offset;
	}
	return pmr_prof_count(c->p, r->event, pc, (double)r->count);
}

int
pmr_prof_db_read(struct pmr_prof *p, struct pmr_profdb *db, const char *epoch)
{
	struct readctx c;
	int rc;

	memset(&c, 0, sizeof(c));
	c.p = p;
	rc = pmr_profdb_each(db, epoch, read_one, &c);
	free((char *)c.epoch);
	free(c.seen);
	return rc;
}
