/*
 * test_profdb.c: unit tests of the profile database (lib/prof/db.c):
 * round trips through a reopen, sums within and across adds, epochs kept
 * apart, image identity by build-id, rollback (asked for and after an
 * error), counts past INT64_MAX, foreign, random, empty and corrupt files,
 * a reader during an add, and crash consistency with SIGKILL before and
 * during the commit.  "-t bench" (not run by default) times an add of
 * 1 000 000 rows.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "prof/db.h"
#include "unit.h"

static char tmpdir[4096];

static const unsigned char bid1[] = { 0xde, 0xad, 0xbe, 0xef, 0x01, 0x02,
	0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d,
	0x0e, 0x0f, 0x10 };
static const unsigned char bid2[] = { 0x11, 0x22, 0x33, 0x44 };

static int
rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static void
rm_tmpdir(void)
{
	if (tmpdir[0] != '\0')
		(void)nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Returns a fresh path name in the scratch directory (static buffer). */
static const char *
tpath(const char *name)
{
	static char buf[8192];
	const char *t;

	if (tmpdir[0] == '\0') {
		t = getenv("TMPDIR");
		snprintf(tmpdir, sizeof(tmpdir), "%s/test_profdb.XXXXXX",
		    t != NULL && *t != '\0' ? t : "/tmp");
		if (mkdtemp(tmpdir) == NULL) {
			perror("mkdtemp");
			exit(1);
		}
		atexit(rm_tmpdir);
	}
	snprintf(buf, sizeof(buf), "%s/%s", tmpdir, name);
	return buf;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Opens path (flags) or fails the test; returns the handle or NULL. */
static struct pmr_profdb *
dbopen(const char *path, unsigned flags)
{
	struct pmr_profdb *db;
	char err[512];
	int rc;

	rc = pmr_profdb_open(path, flags, &db, err, sizeof(err));
	if (rc != PMR_OK) {
		printf("# open '%s': %d %s\n", path, rc, err);
		unit_failed = 1;
		return NULL;
	}
	return db;
}

/* Runs a one-integer query on path through SQLite itself. */
static int64_t
sq_int(const char *path, const char *sql)
{
	sqlite3 *h;
	sqlite3_stmt *s;
	int64_t v = -1;

	if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) ==
	    SQLITE_OK && sqlite3_prepare_v2(h, sql, -1, &s, NULL) ==
	    SQLITE_OK) {
		if (sqlite3_step(s) == SQLITE_ROW)
			v = sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
	} else
		printf("# sqlite: %s\n", sqlite3_errmsg(h));
	sqlite3_close(h);
	return v;
}

/* Returns 1 if PRAGMA integrity_check of path says ok. */
static int
integrity_ok(const char *path)
{
	sqlite3 *h;
	sqlite3_stmt *s;
	int ok = 0;

	if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE, NULL) ==
	    SQLITE_OK && sqlite3_prepare_v2(h, "PRAGMA integrity_check", -1,
	    &s, NULL) == SQLITE_OK) {
		if (sqlite3_step(s) == SQLITE_ROW) {
			const char *t = (const char *)sqlite3_column_text(s, 0);

			ok = t != NULL && strcmp(t, "ok") == 0;
			if (!ok)
				printf("# integrity_check: %s\n", t);
		}
		sqlite3_finalize(s);
	}
	sqlite3_close(h);
	return ok;
}

/* Runs sql (no rows) on path through SQLite itself; returns its code. */
static int
sq_exec(const char *path, const char *sql)
{
	sqlite3 *h;
	int rc;

	rc = sqlite3_open(path, &h);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(h, sql, NULL, NULL, NULL);
	sqlite3_close(h);
	return rc;
}

/* The rows pmr_profdb_each() gives, flattened for comparisons. */
struct row {
	char epoch[32], path[64], event[32];
	size_t nbid;
	uint64_t offset, count;
};

struct rows {
	struct row r[64];
	size_t n;
	uint64_t digest, sum;	/* of every row, also past the 64 kept */
	size_t all;
};

static int
collect(void *arg, const struct pmr_profdb_row *r)
{
	struct rows *v = arg;
	const char *s[3] = { r->epoch, r->path, r->event };
	uint64_t h = v->digest ^ 0xcbf29ce484222325ull;
	size_t i;
	const char *p;

	for (i = 0; i < 3; i++)
		for (p = s[i]; ; p++) {
			h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
			if (*p == '\0')
				break;
		}
	for (i = 0; i < r->nbid; i++)
		h = (h ^ r->bid[i]) * 0x100000001b3ull;
	h = (h ^ r->offset) * 0x100000001b3ull;
	h = (h ^ r->count) * 0x100000001b3ull;
	v->digest = h;
	v->sum += r->count;
	if (v->n < 64) {
		struct row *w = &v->r[v->n++];

		snprintf(w->epoch, sizeof(w->epoch), "%s", r->epoch);
		snprintf(w->path, sizeof(w->path), "%s", r->path);
		snprintf(w->event, sizeof(w->event), "%s", r->event);
		w->nbid = r->nbid;
		w->offset = r->offset;
		w->count = r->count;
	}
	v->all++;
	return 0;
}

/* Reads every row of epoch (NULL: all) of db into *v. */
static int
readall(struct pmr_profdb *db, const char *epoch, struct rows *v)
{
	int rc;

	memset(v, 0, sizeof(*v));
	rc = pmr_profdb_each(db, epoch, collect, v);
	if (rc != PMR_OK)
		printf("# each: %d %s\n", rc, pmr_profdb_errmsg(db));
	return rc;
}

/* Reads every row of the database at path into *v (own handle). */
static void
readpath(const char *path, struct rows *v)
{
	struct pmr_profdb *db;

	memset(v, 0, sizeof(*v));
	if ((db = dbopen(path, 0)) == NULL)
		return;
	CHECK_EQ(readall(db, NULL, v), PMR_OK);
	pmr_profdb_close(db);
}

/* Returns the count of row (epoch, path, event, offset) in v, or -1. */
static int64_t
count_of(const struct rows *v, const char *epoch, const char *path,
    const char *event, uint64_t offset)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		if (strcmp(v->r[i].epoch, epoch) == 0 &&
		    strcmp(v->r[i].path, path) == 0 &&
		    strcmp(v->r[i].event, event) == 0 &&
		    v->r[i].offset == offset)
			return (int64_t)v->r[i].count;
	return -1;
}

/*
 * Adds the small fixed profile to epoch of db as one add: /usr/bin/a (with
 * build-id 1), /usr/lib/libb.so (no build-id) and the unknown image.
 */
static void
add_small(struct pmr_profdb *db, const char *epoch)
{
	int64_t a, b, u;

	CHECK_EQ(pmr_profdb_begin(db, epoch, "pmprof db x add s.pmr", 42),
	    PMR_OK);
	CHECK_EQ(pmr_profdb_image(db, "/usr/bin/a", bid1, sizeof(bid1), &a),
	    PMR_OK);
	CHECK_EQ(pmr_profdb_image(db, "/usr/lib/libb.so", NULL, 0, &b),
	    PMR_OK);
	CHECK_EQ(pmr_profdb_image(db, NULL, NULL, 0, &u), PMR_OK);
	CHECK_EQ(u, PMR_PROFDB_UNKNOWN);
	CHECK_EQ(pmr_profdb_add(db, a, "tip", 0x1000, 5), PMR_OK);
	CHECK_EQ(pmr_profdb_add(db, a, "tip", 0x1004, 7), PMR_OK);
	CHECK_EQ(pmr_profdb_add(db, a, "counter:cycles", 0x1000, 1000),
	    PMR_OK);
	CHECK_EQ(pmr_profdb_add(db, a, "tip", 0x1000, 1), PMR_OK);
	CHECK_EQ(pmr_profdb_add(db, b, "profileme:dcache_miss", 0x20, 3),
	    PMR_OK);
	CHECK_EQ(pmr_profdb_add(db, u, "tip", 0xffffffff81000000ull, 2),
	    PMR_OK);
	CHECK_EQ(pmr_profdb_add(db, u, "tip", 0x10, 4), PMR_OK);
	CHECK_EQ(pmr_profdb_commit(db), PMR_OK);
}

/* Makes a new database at name with the small profile in epoch "e1". */
static const char *
make_small(const char *name)
{
	struct pmr_profdb *db;
	const char *p = tpath(name);

	unlink(p);
	if ((db = dbopen(p, PMR_PROFDB_CREATE)) == NULL)
		return p;
	add_small(db, "e1");
	pmr_profdb_close(db);
	return p;
}

UNIT_TEST(roundtrip)
{
	const char *p = make_small("rt.db");
	struct pmr_profdb *db;
	struct rows v;
	char **names;
	size_t n;

	readpath(p, &v);
	CHECK_EQ(v.all, 6);
	CHECK_EQ(count_of(&v, "e1", "/usr/bin/a", "tip", 0x1000), 6);
	CHECK_EQ(count_of(&v, "e1", "/usr/bin/a", "tip", 0x1004), 7);
	CHECK_EQ(count_of(&v, "e1", "/usr/bin/a", "counter:cycles", 0x1000),
	    1000);
	CHECK_EQ(count_of(&v, "e1", "/usr/lib/libb.so",
	    "profileme:dcache_miss", 0x20), 3);
	CHECK_EQ(count_of(&v, "e1", "[unknown]", "tip", 0x10), 4);
	CHECK_EQ(count_of(&v, "e1", "[unknown]", "tip",
	    0xffffffff81000000ull), 2);
	/* Order: image id (unknown is 0), event id, unsigned offset. */
	CHECK_STR(v.r[0].path, "[unknown]");
	CHECK_EQ_U64(v.r[0].offset, 0x10);
	CHECK_EQ_U64(v.r[1].offset, 0xffffffff81000000ull);
	CHECK_STR(v.r[2].path, "/usr/bin/a");
	CHECK_STR(v.r[2].event, "tip");
	CHECK_EQ(v.r[2].nbid, sizeof(bid1));
	CHECK_EQ_U64(v.r[3].offset, 0x1004);
	CHECK_STR(v.r[4].event, "counter:cycles");
	CHECK_STR(v.r[5].path, "/usr/lib/libb.so");
	CHECK_EQ(v.r[5].nbid, 0);
	if ((db = dbopen(p, PMR_PROFDB_RDONLY)) != NULL) {
		CHECK_EQ(pmr_profdb_epochs(db, &names, &n), PMR_OK);
		CHECK_EQ(n, 1);
		if (n == 1)
			CHECK_STR(names[0], "e1");
		pmr_profdb_names_free(names, n);
		/* Read-only refuses an add. */
		CHECK_EQ(pmr_profdb_begin(db, "e1", NULL, 0), PMR_EINVAL);
		pmr_profdb_close(db);
	}
	/* The schema as sqlite3 users see it. */
	CHECK_EQ(sq_int(p, "SELECT count(*) FROM v_samples"), 6);
	CHECK_EQ(sq_int(p, "SELECT count FROM v_samples WHERE image_path = "
	    "'/usr/bin/a' AND event = 'tip' AND offset_hex = '0x1000' AND "
	    "build_id_hex = 'deadbeef0102030405060708090a0b0c0d0e0f10'"), 6);
	CHECK_EQ(sq_int(p, "SELECT count FROM v_totals WHERE event = 'tip' "
	    "AND image_path = '[unknown]'"), 6);
	CHECK_EQ(sq_int(p, "SELECT seed FROM run"), 42);
	CHECK_EQ(sq_int(p, "PRAGMA application_id"), 0x706d7072);
	CHECK_EQ(sq_int(p, "SELECT count(*) FROM meta WHERE key = 'version' "
	    "AND value = '1'"), 1);
	CHECK(integrity_ok(p));
}

UNIT_TEST(same_epoch_sums)
{
	const char *p = make_small("sum.db");
	struct pmr_profdb *db;
	struct rows v;

	if ((db = dbopen(p, 0)) == NULL)
		return;
	add_small(db, "e1");
	pmr_profdb_close(db);
	readpath(p, &v);
	CHECK_EQ(v.all, 6);
	CHECK_EQ(count_of(&v, "e1", "/usr/bin/a", "tip", 0x1000), 12);
	CHECK_EQ(count_of(&v, "e1", "/usr/bin/a", "counter:cycles", 0x1000),
	    2000);
	CHECK_EQ(count_of(&v, "e1", "[unknown]", "tip",
	    0xffffffff81000000ull), 4);
	CHECK_EQ(v.sum, 2 * (6 + 7 + 1000 + 3 + 2 + 4));
	CHECK_EQ(sq_int(p, "SELECT count(*) FROM run"), 2);
	CHECK_EQ(sq_int(p, "SELECT count(*) FROM image"), 3);
	CHECK_EQ(sq_int(p, "SELECT count(*) FROM epoch"), 1);
}

UNIT_TEST(epochs_apart)
{
	const char *p = make_small("ep.db");
	struct pmr_profdb *db;
	struct rows a0, a1, b, all;
	char **names;
	size_t n;
	int64_t img;

	if ((db = dbopen(p, 0)) == NULL)
		return;
	CHECK_EQ(readall(db, "e1", &a0), PMR_OK);
	CHECK_EQ(pmr_profdb_begin(db, "B", NULL, 0), PMR_OK);
	CHECK_EQ(pmr_profdb_image(db, "/usr/bin/a", bid1, sizeof(bid1), &img),
	    PMR_OK);
	CHECK_EQ(pmr_profdb_add(db, img, "tip", 0x1000, 100), PMR_OK);
	CHECK_EQ(pmr_profdb_commit(db), PMR_OK);
	CHECK_EQ(readall(db, "e1", &a1), PMR_OK);
	CHECK_EQ(readall(db, "B", &b), PMR_OK);
	CHECK_EQ(readall(db, NULL, &all), PMR_OK);
	CHECK_EQ_U64(a1.digest, a0.digest);
	CHECK_EQ(a1.all, 6);
	CHECK_EQ(b.all, 1);
	CHECK_EQ(count_of(&b, "B", "/usr/bin/a", "tip", 0x1000), 100);
	CHECK_EQ(all.all, 7);
	CHECK_STR(all.r[6].epoch, "B");		/* epochs in creation order */
	CHECK_EQ(pmr_profdb_each(db, "nope", collect, &b), PMR_EINVAL);
	CHECK(strstr(pmr_profdb_errmsg(db), "no epoch 'nope'") != NULL);
	CHECK_EQ(pmr_profdb_epochs(db, &names, &n), PMR_OK);
	CHECK_EQ(n, 2);
	if (n == 2) {
		CHECK_STR(names[0], "e1");
		CHECK_STR(names[1], "B");
	}
	pmr_profdb_names_free(names, n);
	pmr_profdb_close(db);
}

UNIT_TEST(build_id_identity)
{
	const char *p = tpath("bid.db");
	struct pmr_profdb *db;
	int64_t a, a2, c, d, d2, e;
	struct rows v;

	unlink(p);
	if ((db = dbopen(p, PMR_PROFDB_CREATE)) == NULL)
		return;
	CHECK_EQ(pmr_profdb_begin(db, "e", NULL, 0), PMR_OK);
	CHECK_EQ(pmr_profdb_image(db, "/usr/lib/x.so", bid2, sizeof(bid2), &a),
	    PMR_OK);
	CHECK_EQ(pmr_profdb_add(db, a, "tip", 0x40, 1), PMR_OK);
	CHECK_EQ(pmr_profdb_commit(db), PMR_OK);
	/* The same file moved: one image, first path kept, both listed. */
	CHECK_EQ(pmr_profdb_begin(db, "e", NULL, 0), PMR_OK);
	CHECK_EQ(pmr_profdb_image(db, "/tmp/copy/x.so", bid2, sizeof(bid2),
	    &a2), PMR_OK);
	CHECK_EQ(a2, a);
	CHECK_EQ(pmr_profdb_add(db, a2, "tip", 0x40, 2), PMR_OK);
	/* Another build-id at the same path: another image. */
	CHECK_EQ(pmr_profdb_image(db, "/usr/lib/x.so", bid1, sizeof(bid1), &c),
	    PMR_OK);
	CHECK(c != a);
	/* Without build-id, the path is the identity, apart from the
	 * build-id images of that path. */
	CHECK_EQ(pmr_profdb_image(db, "/usr/lib/x.so", NULL, 0, &d), PMR_OK);
	CHECK(d != a && d != c);
	CHECK_EQ(pmr_profdb_image(db, "/usr/lib/x.so", NULL, 0, &d2), PMR_OK);
	CHECK_EQ(d2, d);
	/* A file named like the unknown image is not it. */
	CHECK_EQ(pmr_profdb_image(db, "[unknown]", NULL, 0, &e), PMR_OK);
	CHECK(e != PMR_PROFDB_UNKNOWN);
	CHECK_EQ(pmr_profdb_commit(db), PMR_OK);
	CHECK_EQ(readall(db, NULL, &v), PMR_OK);
	CHECK_EQ(v.all, 1);
	CHECK_EQ(count_of(&v, "e", "/usr/lib/x.so", "tip", 0x40), 3);
	pmr_profdb_close(db);
	CHECK_EQ(sq_int(p, "SELECT count(*) FROM image_path WHERE image = "
	    "(SELECT id FROM image WHERE build_id = x'11223344')"), 2);
	CHECK_EQ(sq_int(p, "SELECT count(*) FROM v_images WHERE paths = "
	    "'/tmp/copy/x.so /usr/lib/x.so'"), 1);
	CHECK_EQ(sq_int(p, "SELECT count(*) FROM image"), 5);
}

/*
 * A library mapped at two bases in one run: the caller turns both pcs into
 * the same file offset (pc - start + file offset), which sums in one row.
 */
UNIT_TEST(two_bases)
{
	const char *p = tpath("bases.db");
	static const uint64_t start[2] = { 0x7f0000001000ull,
		0x7f5500003000ull };
	const uint64_t foff = 0x1000, pcoff = 0x234;
	struct pmr_profdb *db;
	struct rows v;
	int64_t img;
	int k;

	unlink(p);
	if ((db = dbopen(p, PMR_PROFDB_CREATE)) == NULL)
		return;
	CHECK_EQ(pmr_profdb_begin(db, "e", NULL, 0), PMR_OK);
	for (k = 0; k < 2; k++) {
		uint64_t pc = start[k] + pcoff;

		CHECK_EQ(pmr_profdb_image(db, "/lib/libc.so.6", bid1,
		    sizeof(bid1), &img), PMR_OK);
		CHECK_EQ(pmr_profdb_add(db, img, "tip", pc - start[k] + foff,
		    10 + k), PMR_OK);
	}
	CHECK_EQ(pmr_profdb_commit(db), PMR_OK);
	CHECK_EQ(readall(db, NULL, &v), PMR_OK);
	CHECK_EQ(v.all, 1);
	CHECK_EQ(count_of(&v, "e", "/lib/libc.so.6", "tip", 0x1234), 21);
	pmr_profdb_close(db);
}

UNIT_TEST(rollback)
{
	const char *p = make_small("rb.db");
	struct pmr_profdb *db;
	struct rows before, after;
	int64_t img;

	if ((db = dbopen(p, 0)) == NULL)
		return;
	CHECK_EQ(readall(db, NULL, &before), PMR_OK);
	/* Asked for: a bad stream mid-add. */
	CHECK_EQ(pmr_profdb_begin(db, "new", "x", 1), PMR_OK);
	CHECK_EQ(pmr_profdb_image(db, "/new/image", NULL, 0, &img), PMR_OK);
	CHECK_EQ(pmr_profdb_add(db, img, "newevent", 1, 1), PMR_OK);
	CHECK_EQ(pmr_profdb_add(db, 0, "tip", 0x10, 1000), PMR_OK);
	pmr_profdb_rollback(db);
	CHECK_EQ(readall(db, NULL, &after), PMR_OK);
	CHECK_EQ_U64(after.digest, before.digest);
	/* After an error: a count past INT64_MAX rolls the add back, and
	 * commit says so. */
	CHECK_EQ(pmr_profdb_begin(db, "e1", NULL, 0), PMR_OK);
	CHECK_EQ(pmr_profdb_add(db, 0, "tip", 0x10, 1000), PMR_OK);
	CHECK_EQ(pmr_profdb_add(db, 0, "tip", 0x10, (uint64_t)INT64_MAX + 1),
	    PMR_EINVAL);
	CHECK(strstr(pmr_profdb_errmsg(db), "INT64_MAX") != NULL);
	CHECK_EQ(pmr_profdb_add(db, 0, "tip", 0x10, 1), PMR_EINVAL);
	CHECK_EQ(pmr_profdb_commit(db), PMR_EINVAL);
	CHECK_EQ(readall(db, NULL, &after), PMR_OK);
	CHECK_EQ_U64(after.digest, before.digest);
	/* A sum past INT64_MAX, caught by the CHECK on count. */
	CHECK_EQ(pmr_profdb_begin(db, "e1", NULL, 0), PMR_OK);
	CHECK_EQ(pmr_profdb_add(db, 0, "tip", 0x10, INT64_MAX - 3), PMR_EINVAL);
	CHECK(strstr(pmr_profdb_errmsg(db), "overflows") != NULL);
	CHECK_EQ(pmr_profdb_commit(db), PMR_EINVAL);
	CHECK_EQ(readall(db, NULL, &after), PMR_OK);
	CHECK_EQ_U64(after.digest, before.digest);
	/* Up to INT64_MAX exactly is fine. */
	CHECK_EQ(pmr_profdb_begin(db, "e1", NULL, 0), PMR_OK);
	CHECK_EQ(pmr_profdb_add(db, 0, "tip", 0x10, INT64_MAX - 4), PMR_OK);
	CHECK_EQ(pmr_profdb_commit(db), PMR_OK);
	CHECK_EQ(readall(db, "e1", &after), PMR_OK);
	CHECK_EQ_U64(count_of(&after, "e1", "[unknown]", "tip", 0x10),
	    INT64_MAX);
	/* Calls outside an add. */
	CHECK_EQ(pmr_profdb_add(db, 0, "tip", 0x10, 1), PMR_EINVAL);
	CHECK_EQ(pmr_profdb_commit(db), PMR_EINVAL);
	pmr_profdb_rollback(db);
	pmr_profdb_close(db);
	CHECK_EQ(sq_int(p, "SELECT count(*) FROM run"), 2);
	CHECK_EQ(sq_int(p, "SELECT count(*) FROM epoch"), 1);
	CHECK_EQ(sq_int(p, "SELECT count(*) FROM event"), 3);
	CHECK_EQ(sq_int(p, "SELECT count(*) FROM image"), 3);
	CHECK(integrity_ok(p));
}

/* Returns the size of path, or -1. */
static long long
fsize(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 ? (long long)sb.st_size : -1;
}

/* Opens path with flags and expects code and a message with want. */
static void
expect_refused(const char *path, unsigned flags, int code, const char *want)
{
	struct pmr_profdb *db = NULL;
	char err[512] = "";
	int rc;

	rc = pmr_profdb_open(path, flags, &db, err, sizeof(err));
	CHECK_EQ(rc, code);
	CHECK(db == NULL);
	if (strstr(err, want) == NULL) {
		printf("# message '%s' lacks '%s'\n", err, want);
		unit_failed = 1;
	}
	pmr_profdb_close(db);
}

UNIT_TEST(foreign)
{
	const char *p = tpath("foreign.db");
	long long sz;

	unlink(p);
	CHECK_EQ(sq_exec(p, "CREATE TABLE t(x); INSERT INTO t VALUES(1)"),
	    SQLITE_OK);
	sz = fsize(p);
	expect_refused(p, 0, PMR_EFORMAT, "not a profile database");
	expect_refused(p, PMR_PROFDB_CREATE, PMR_EFORMAT,
	    "not a profile database");
	CHECK_EQ(fsize(p), sz);
	CHECK_EQ(sq_int(p, "SELECT count(*) FROM sqlite_schema"), 1);
	/* A meta table of another format, then another version. */
	CHECK_EQ(sq_exec(p, "CREATE TABLE meta(key TEXT PRIMARY KEY, value "
	    "TEXT); INSERT INTO meta VALUES('format', 'other')"), SQLITE_OK);
	expect_refused(p, 0, PMR_EFORMAT, "not a profile database");
	p = make_small("v2.db");
	CHECK_EQ(sq_exec(p, "UPDATE meta SET value = '2' WHERE key = "
	    "'version'"), SQLITE_OK);
	expect_refused(p, 0, PMR_EFORMAT, "version '2' is not supported");
}

UNIT_TEST(random_bytes)
{
	const char *p = tpath("random.db");
	unsigned char buf[65536];
	uint64_t st = 7;
	size_t i;
	FILE *f;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)unit_rnd(&st);
	if ((f = fopen(p, "wb")) == NULL) {
		CHECK(0);
		return;
	}
	CHECK_EQ(fwrite(buf, 1, sizeof(buf), f), sizeof(buf));
	fclose(f);
	expect_refused(p, 0, PMR_EFORMAT, "not a profile database");
	expect_refused(p, PMR_PROFDB_CREATE, PMR_EFORMAT,
	    "not a profile database");
	CHECK_EQ(fsize(p), (long long)sizeof(buf));
}

UNIT_TEST(empty_and_missing)
{
	const char *p = tpath("empty.db");
	struct pmr_profdb *db;
	int fd;

	unlink(p);
	expect_refused(p, 0, PMR_EIO, "cannot open");
	CHECK_EQ(fsize(p), -1);		/* not made */
	if ((fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644)) >= 0)
		close(fd);
	expect_refused(p, 0, PMR_EFORMAT, "not a profile database");
	CHECK_EQ(fsize(p), 0);
	expect_refused(tpath("nodir/x.db"), PMR_PROFDB_CREATE, PMR_EIO,
	    "cannot open");
	/* An empty file is a database to create. */
	p = tpath("empty.db");
	if ((db = dbopen(p, PMR_PROFDB_CREATE)) != NULL) {
		add_small(db, "e1");
		pmr_profdb_close(db);
	}
	CHECK(integrity_ok(p));
}

UNIT_TEST(corrupt)
{
	const char *p = tpath("corrupt.db");
	struct pmr_profdb *db;
	struct rows v;
	char err[512];
	unsigned char junk[4096];
	uint64_t st = 3, i;
	int64_t img;
	int fd, rc, k;

	unlink(p);
	if ((db = dbopen(p, PMR_PROFDB_CREATE)) == NULL)
		return;
	CHECK_EQ(pmr_profdb_begin(db, "e", NULL, 0), PMR_OK);
	CHECK_EQ(pmr_profdb_image(db, "/a", NULL, 0, &img), PMR_OK);
	for (i = 0; i < 20000; i++)
		CHECK_EQ(pmr_profdb_add(db, img, "tip", i * 4, i + 1), PMR_OK);
	CHECK_EQ(pmr_profdb_commit(db), PMR_OK);
	pmr_profdb_close(db);
	CHECK(fsize(p) > 16 * 4096);
	/* Garbage over pages in the middle of the file. */
	for (i = 0; i < sizeof(junk); i++)
		junk[i] = (unsigned char)unit_rnd(&st);
	if ((fd = open(p, O_WRONLY)) < 0) {
		CHECK(0);
		return;
	}
	for (k = 0; k < 4; k++)
		CHECK_EQ(pwrite(fd, junk, sizeof(junk),
		    (off_t)(fsize(p) / 2 + k * 8192)), (ssize_t)sizeof(junk));
	close(fd);
	rc = pmr_profdb_open(p, 0, &db, err, sizeof(err));
	if (rc == PMR_OK) {
		rc = pmr_profdb_each(db, NULL, collect, &v);
		snprintf(err, sizeof(err), "%s", pmr_profdb_errmsg(db));
		pmr_profdb_close(db);
	}
	printf("# corrupt: %d %s\n", rc, err);
	CHECK_EQ(rc, PMR_EFORMAT);
	CHECK(strstr(err, "database is corrupt") != NULL);
}

/* A second handle reads the committed state while the first adds. */
UNIT_TEST(concurrent_reader)
{
	const char *p = make_small("conc.db");
	struct pmr_profdb *w, *r;
	struct rows before, mid, after;
	char **names;
	size_t n;
	int64_t img;
	uint64_t i;

	if ((w = dbopen(p, 0)) == NULL)
		return;
	CHECK_EQ(readall(w, NULL, &before), PMR_OK);
	CHECK_EQ(pmr_profdb_begin(w, "e2", NULL, 0), PMR_OK);
	CHECK_EQ(pmr_profdb_image(w, "/usr/bin/a", bid1, sizeof(bid1), &img),
	    PMR_OK);
	for (i = 0; i < 50000; i++)
		CHECK_EQ(pmr_profdb_add(w, img, "tip", i, 1), PMR_OK);
	CHECK_EQ(pmr_profdb_add(w, 0, "tip", 0x10, 1), PMR_OK);
	/* Opened while the writer holds its transaction. */
	if ((r = dbopen(p, 0)) == NULL) {
		pmr_profdb_close(w);
		return;
	}
	CHECK_EQ(readall(r, NULL, &mid), PMR_OK);
	CHECK_EQ_U64(mid.digest, before.digest);
	CHECK_EQ(mid.all, 6);
	CHECK_EQ(pmr_profdb_epochs(r, &names, &n), PMR_OK);
	CHECK_EQ(n, 1);
	pmr_profdb_names_free(names, n);
	CHECK_EQ(pmr_profdb_commit(w), PMR_OK);
	CHECK_EQ(readall(r, NULL, &after), PMR_OK);
	CHECK_EQ(after.all, 6 + 50001);
	CHECK_EQ(count_of(&after, "e1", "[unknown]", "tip", 0x10), 4);
	pmr_profdb_close(r);
	pmr_profdb_close(w);
}

#define CRASH_ROWS 100000

/*
 * In a child: opens path, adds CRASH_ROWS rows of count 1 as one add,
 * writing 'b' on fd before the commit and 'c' after; with hold, waits to
 * be killed instead of committing.  Never returns.
 */
static void
child_add(const char *path, int fd, int hold)
{
	struct pmr_profdb *db;
	char err[512];
	int64_t img;
	uint64_t i;

	if (pmr_profdb_open(path, 0, &db, err, sizeof(err)) != PMR_OK ||
	    pmr_profdb_begin(db, "crash", "child", 1) != PMR_OK ||
	    pmr_profdb_image(db, "/usr/bin/crash", bid2, sizeof(bid2), &img) !=
	    PMR_OK)
		_exit(3);
	for (i = 0; i < CRASH_ROWS; i++)
		if (pmr_profdb_add(db, img, "tip", i * 4, 1) != PMR_OK)
			_exit(4);
	if (write(fd, "b", 1) != 1)
		_exit(5);
	if (hold)
		for (;;)
			pause();
	if (pmr_profdb_commit(db) != PMR_OK)
		_exit(6);
	if (write(fd, "c", 1) != 1)
		_exit(7);
	_exit(0);
}

/*
 * Forks a child_add() and kills it with SIGKILL delay_us after it says it
 * reached the commit.  Returns 1 if it got there.
 */
static int
fork_and_kill(const char *path, int hold, long delay_us)
{
	struct timespec ts;
	int fds[2], status;
	pid_t pid;
	char c;
	int got;

	fflush(stdout);
	if (pipe(fds) != 0)
		return 0;
	if ((pid = fork()) < 0)
		return 0;
	if (pid == 0) {
		close(fds[0]);
		child_add(path, fds[1], hold);
	}
	close(fds[1]);
	got = read(fds[0], &c, 1) == 1 && c == 'b';
	if (got && delay_us > 0) {
		ts.tv_sec = delay_us / 1000000;
		ts.tv_nsec = delay_us % 1000000 * 1000;
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	close(fds[0]);
	if (!got)
		printf("# child ended early: status %d\n", status);
	return got;
}

UNIT_TEST(crash_before_commit)
{
	const char *p = make_small("crash1.db");
	struct rows before, after;

	readpath(p, &before);
	CHECK(fork_and_kill(p, 1, 0));
	readpath(p, &after);
	CHECK_EQ_U64(after.digest, before.digest);
	CHECK_EQ(after.all, 6);
	CHECK(integrity_ok(p));
	CHECK_EQ(sq_int(p, "SELECT count(*) FROM run"), 1);
	CHECK_EQ(sq_int(p, "SELECT count(*) FROM epoch WHERE name = "
	    "'crash'"), 0);
}

/*
 * Kills the child at points spread over its commit, 5 times with a fixed
 * seed: every time the database is whole and holds k or k + 1 complete
 * adds.
 */
UNIT_TEST(crash_during_commit)
{
	const char *q = make_small("crash2.db");
	struct pmr_profdb *db;
	uint64_t st = 2024;
	int64_t k = 0, nk, runs;
	double t0, tc;
	int i, before = 0, afterc = 0;
	long d;

	/* Time one commit here, to spread the kills over it. */
	{
		int64_t img;
		uint64_t j;

		if ((db = dbopen(q, 0)) == NULL)
			return;
		CHECK_EQ(pmr_profdb_begin(db, "crash", "parent", 1), PMR_OK);
		CHECK_EQ(pmr_profdb_image(db, "/usr/bin/crash", bid2,
		    sizeof(bid2), &img), PMR_OK);
		for (j = 0; j < CRASH_ROWS; j++)
			CHECK_EQ(pmr_profdb_add(db, img, "tip", j * 4, 1),
			    PMR_OK);
		t0 = now();
		CHECK_EQ(pmr_profdb_commit(db), PMR_OK);
		tc = now() - t0;
		pmr_profdb_close(db);
		k = 1;
	}
	for (i = 0; i < 5; i++) {
		d = (long)((double)(unit_rnd(&st) % 1000) / 1000 * 2 * tc * 1e6);
		CHECK(fork_and_kill(q, 0, d));
		CHECK(integrity_ok(q));
		nk = sq_int(q, "SELECT max(count) FROM sample s JOIN epoch e "
		    "ON e.id = s.epoch WHERE e.name = 'crash'");
		CHECK_EQ(sq_int(q, "SELECT min(count) FROM sample s JOIN epoch "
		    "e ON e.id = s.epoch WHERE e.name = 'crash'"), nk);
		CHECK_EQ(sq_int(q, "SELECT count(*) FROM sample s JOIN epoch e "
		    "ON e.id = s.epoch WHERE e.name = 'crash'"), CRASH_ROWS);
		runs = sq_int(q, "SELECT count(*) FROM run r JOIN epoch e ON "
		    "e.id = r.epoch WHERE e.name = 'crash'");
		CHECK_EQ(runs, nk);
		CHECK(nk == k || nk == k + 1);
		if (nk == k)
			before++;
		else
			afterc++;
		k = nk;
	}
	printf("# commit %.1f ms; killed before its end %d, after %d\n",
	    tc * 1e3, before, afterc);
	CHECK_EQ(sq_int(q, "SELECT sum(count) FROM v_totals WHERE epoch = "
	    "'e1'"), 6 + 7 + 1000 + 3 + 2 + 4);
}

/* Times one add of 1 000 000 rows, in order and shuffled. */
static void
bench(void)
{
	const char *p = tpath("bench.db");
	struct pmr_profdb *db;
	struct rows v;
	uint64_t i, st = 1, n = 1000000, off;
	int64_t img[16];
	int pass, j;
	double t0, t1;
	char name[32];

	unlink(p);
	if ((db = dbopen(p, PMR_PROFDB_CREATE)) == NULL)
		return;
	for (pass = 0; pass < 3; pass++) {
		t0 = now();
		CHECK_EQ(pmr_profdb_begin(db, pass < 2 ? "seq" : "rand",
		    NULL, 0), PMR_OK);
		for (j = 0; j < 16; j++) {
			snprintf(name, sizeof(name), "/usr/lib/lib%d.so", j);
			CHECK_EQ(pmr_profdb_image(db, name, NULL, 0, &img[j]),
			    PMR_OK);
		}
		for (i = 0; i < n; i++) {
			off = pass < 2 ? i * 4 : (unit_rnd(&st) % (n * 4));
			CHECK_EQ(pmr_profdb_add(db, img[pass < 2 ?
			    i * 16 / n : off % 16], (i & 1) ? "tip" :
			    "counter:cycles", off, 1), PMR_OK);
		}
		t1 = now();
		CHECK_EQ(pmr_profdb_commit(db), PMR_OK);
		printf("# %s add of %" PRIu64 " rows: %.3f s (commit %.3f s), "
		    "%.0f rows/s\n", pass == 0 ? "sequential, new" :
		    pass == 1 ? "sequential, summed" : "random, new", n,
		    now() - t0, now() - t1, (double)n / (now() - t0));
	}
	t0 = now();
	CHECK_EQ(readall(db, NULL, &v), PMR_OK);
	printf("# each over %zu rows: %.3f s; file %lld bytes\n", v.all,
	    now() - t0, fsize(p));
	pmr_profdb_close(db);
}

int
main(int argc, char **argv)
{
	static const struct unit_test tests[] = {
		UNIT_ENTRY(roundtrip), UNIT_ENTRY(same_epoch_sums),
		UNIT_ENTRY(epochs_apart), UNIT_ENTRY(build_id_identity),
		UNIT_ENTRY(two_bases), UNIT_ENTRY(rollback),
		UNIT_ENTRY(foreign), UNIT_ENTRY(random_bytes),
		UNIT_ENTRY(empty_and_missing), UNIT_ENTRY(corrupt),
		UNIT_ENTRY(concurrent_reader), UNIT_ENTRY(crash_before_commit),
		UNIT_ENTRY(crash_during_commit),
	};

	if (argc == 3 && strcmp(argv[1], "-t") == 0 &&
	    strcmp(argv[2], "bench") == 0) {
		printf("1..1\n");
		bench();
		printf("%sok 1 - bench\n", unit_failed ? "not " : "");
		return unit_failed;
	}
	return unit_main(tests, sizeof(tests) / sizeof(tests[0]), argc, argv);
}
