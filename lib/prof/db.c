/*
 * prof/db.c: the profile database of pmprof over SQLite (schema and
 * behaviour in prof/db.h, which man/pmprof.1 copies).
 *
 * Every statement is prepared once at open and reset after each use; an
 * add is one BEGIN IMMEDIATE ... COMMIT, so hundreds of thousands of rows
 * cost one WAL write and one sync.  The library never prints: messages go
 * to db->err (or the caller's buffer at open).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sqlite3.h>

#include "prof/db.h"

#define BUSY_MS 10000			/* wait for another writer */
/* A 64 MiB page cache: an add of a million rows stays in it. */
#define CACHE_SQL "PRAGMA cache_size = -65536"
#define APP_ID 0x706d7072		/* "pmpr" */
#define NEVCACHE 64			/* event names remembered */

/* The schema of prof/db.h, word for word. */
static const char schema[] =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);\n"
    "CREATE TABLE epoch(id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL,\n"
    "    created TEXT);\n"
    "CREATE TABLE image(id INTEGER PRIMARY KEY, build_id BLOB,\n"
    "    path TEXT NOT NULL);\n"
    "CREATE UNIQUE INDEX image_by_build_id ON image(build_id)\n"
    "    WHERE build_id IS NOT NULL;\n"
    "CREATE UNIQUE INDEX image_by_path ON image(path)\n"
    "    WHERE build_id IS NULL AND id <> 0;\n"
    "CREATE TABLE image_path(image INTEGER NOT NULL REFERENCES image(id),\n"
    "    path TEXT NOT NULL, PRIMARY KEY(image, path)) WITHOUT ROWID;\n"
    "CREATE TABLE event(id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL);\n"
    "CREATE TABLE sample(epoch INTEGER NOT NULL REFERENCES epoch(id),\n"
    "    image INTEGER NOT NULL REFERENCES image(id),\n"
    "    event INTEGER NOT NULL REFERENCES event(id),\n"
    "    offset INTEGER NOT NULL,\n"
    "    count INTEGER NOT NULL CHECK(typeof(count) = 'integer'\n"
    "        AND count >= 0),\n"
    "    PRIMARY KEY(epoch, image, event, offset)) WITHOUT ROWID;\n"
    "CREATE TABLE run(id INTEGER PRIMARY KEY,\n"
    "    epoch INTEGER NOT NULL REFERENCES epoch(id),\n"
    "    cmdline TEXT, seed INTEGER, added TEXT);\n"
    "CREATE VIEW v_samples(epoch, image_path, build_id_hex, event, offset,\n"
    "    offset_hex, count) AS\n"
    "    SELECT e.name, i.path, lower(hex(i.build_id)), v.name, s.offset,\n"
    "        printf('0x%x', s.offset), s.count\n"
    "    FROM sample s JOIN epoch e ON e.id = s.epoch\n"
    "    JOIN image i ON i.id = s.image JOIN event v ON v.id = s.event;\n"
    "CREATE VIEW v_totals(epoch, image_path, build_id_hex, event, rows,\n"
    "    count) AS\n"
    "    SELECT e.name, i.path, lower(hex(i.build_id)), v.name, count(*),\n"
    "        sum(s.count)\n"
    "    FROM sample s JOIN epoch e ON e.id = s.epoch\n"
    "    JOIN image i ON i.id = s.image JOIN event v ON v.id = s.event\n"
    "    GROUP BY s.epoch, s.image, s.event;\n"
    "CREATE VIEW v_images(id, path, build_id_hex, paths) AS\n"
    "    SELECT i.id, i.path, lower(hex(i.build_id)),\n"
    "        (SELECT group_concat(p.path, ' ') FROM image_path p\n"
    "         WHERE p.image = i.id)\n"
    "    FROM image i;\n"
    "INSERT INTO image(id, build_id, path) VALUES(0, NULL, '[unknown]');\n"
    "INSERT INTO meta VALUES('format', 'pmtools-profdb');\n"
    "INSERT INTO meta VALUES('version', '1');\n";

#define NOW "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"

/* The prepared statements, by index into db->st[]. */
enum {
	ST_EPOCH_GET, ST_EPOCH_INS, ST_RUN_INS, ST_IMG_BID, ST_IMG_PATH,
	ST_IMG_INS, ST_ALIAS_INS, ST_EV_GET, ST_EV_INS, ST_ADD, ST_BEGIN,
	ST_COMMIT, ST_ROLLBACK, ST_N
};

static const char *const st_sql[ST_N] = {
	[ST_EPOCH_GET] = "SELECT id FROM epoch WHERE name = ?1",
	[ST_EPOCH_INS] = "INSERT INTO epoch(name, created) VALUES(?1, " NOW
	    ")",
	[ST_RUN_INS] = "INSERT INTO run(epoch, cmdline, seed, added) "
	    "VALUES(?1, ?2, ?3, " NOW ")",
	[ST_IMG_BID] = "SELECT id FROM image WHERE build_id = ?1",
	[ST_IMG_PATH] = "SELECT id FROM image WHERE build_id IS NULL AND "
	    "path = ?1 AND id <> 0",
	[ST_IMG_INS] = "INSERT INTO image(build_id, path) VALUES(?1, ?2)",
	[ST_ALIAS_INS] = "INSERT INTO image_path(image, path) VALUES(?1, ?2) "
	    "ON CONFLICT DO NOTHING",
	[ST_EV_GET] = "SELECT id FROM event WHERE name = ?1",
	[ST_EV_INS] = "INSERT INTO event(name) VALUES(?1)",
	[ST_ADD] = "INSERT INTO sample(epoch, image, event, offset, count) "
	    "VALUES(?1, ?2, ?3, ?4, ?5) "
	    "ON CONFLICT(epoch, image, event, offset) "
	    "DO UPDATE SET count = count + excluded.count",
	[ST_BEGIN] = "BEGIN IMMEDIATE",
	[ST_COMMIT] = "COMMIT",
	[ST_ROLLBACK] = "ROLLBACK",
};

struct evcache {
	char *name;
	int64_t id;
};

struct pmr_profdb {
	sqlite3 *h;
	char *path;
	sqlite3_stmt *st[ST_N];
	int rdonly;
	int state;		/* 0 idle, 1 in an add, <0 failed add (code) */
	int64_t epoch;		/* of the add in progress */
	struct evcache ev[NEVCACHE];
	size_t nev, lastev;
	char err[512];
};

static void
seterr(char *buf, size_t len, const char *fmt, ...) PMR_FORMAT(3, 4);

static void
seterr(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (buf == NULL || len == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/*
 * Turns the SQLite result rc of a call on h into a PMR_E* code and a
 * message about what (doing what) in buf.
 */
static int
sqlerr(sqlite3 *h, int rc, const char *path, const char *what, char *buf,
    size_t len)
{
	const char *m = h != NULL ? sqlite3_errmsg(h) : sqlite3_errstr(rc);

	switch (rc & 0xff) {
	case SQLITE_NOMEM:
		seterr(buf, len, "%s: out of memory", what);
		return PMR_ENOMEM;
	case SQLITE_NOTADB:
		seterr(buf, len, "'%s': not a profile database (%s)", path, m);
		return PMR_EFORMAT;
	case SQLITE_CORRUPT:
		seterr(buf, len, "'%s': database is corrupt (%s)", path, m);
		return PMR_EFORMAT;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		seterr(buf, len, "'%s': database is locked (%s)", path, m);
		return PMR_EIO;
	default:
		seterr(buf, len, "'%s': %s: %s", path, what, m);
		return PMR_EIO;
	}
}

/* Runs the statement sql (no rows wanted) on h.  Returns an SQLite code. */
static int
exec(sqlite3 *h, const char *sql)
{
	return sqlite3_exec(h, sql, NULL, NULL, NULL);
}

/*
 * Runs a one-integer query on h into *v (0 when no row).  Returns an
 * SQLite code.
 */
static int
query_int(sqlite3 *h, const char *sql, int64_t *v)
{
	sqlite3_stmt *s;
	int rc;

	*v = 0;
	if ((rc = sqlite3_prepare_v2(h, sql, -1, &s, NULL)) != SQLITE_OK)
		return rc;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*v = sqlite3_column_int64(s, 0);
		rc = SQLITE_OK;
	} else if (rc == SQLITE_DONE)
		rc = SQLITE_OK;
	sqlite3_finalize(s);
	return rc;
}

/*
 * Checks that h holds a profile database of our version.  Returns PMR_OK
 * or PMR_EFORMAT / another code with the message in buf.
 */
static int
check_meta(sqlite3 *h, const char *path, char *buf, size_t len)
{
	sqlite3_stmt *s = NULL;
	const char *fmt = NULL, *ver = NULL;
	char fbuf[64] = "", vbuf[64] = "";
	int64_t n;
	int rc;

	rc = query_int(h, "SELECT count(*) FROM sqlite_schema WHERE "
	    "type = 'table' AND name = 'meta'", &n);
	if (rc != SQLITE_OK)
		return sqlerr(h, rc, path, "cannot read schema", buf, len);
	if (n == 0) {
		seterr(buf, len, "'%s': not a profile database (an SQLite "
		    "database without a meta table)", path);
		return PMR_EFORMAT;
	}
	rc = sqlite3_prepare_v2(h, "SELECT key, value FROM meta WHERE key IN "
	    "('format', 'version')", -1, &s, NULL);
	if (rc != SQLITE_OK) {
		seterr(buf, len, "'%s': not a profile database (%s)", path,
		    sqlite3_errmsg(h));
		return PMR_EFORMAT;
	}
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(s, 0);
		const char *v = (const char *)sqlite3_column_text(s, 1);

		if (k == NULL || v == NULL)
			continue;
		if (strcmp(k, "format") == 0) {
			snprintf(fbuf, sizeof(fbuf), "%s", v);
			fmt = fbuf;
		} else {
			snprintf(vbuf, sizeof(vbuf), "%s", v);
			ver = vbuf;
		}
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return sqlerr(h, rc, path, "cannot read meta", buf, len);
	if (fmt == NULL || strcmp(fmt, PMR_PROFDB_FORMAT) != 0) {
		seterr(buf, len, "'%s': not a profile database (format '%s', "
		    "not '" PMR_PROFDB_FORMAT "')", path,
		    fmt != NULL ? fmt : "");
		return PMR_EFORMAT;
	}
	if (ver == NULL || strcmp(ver, "1") != 0) {
		seterr(buf, len, "'%s': profile database version '%s' is not "
		    "supported (this is version %d)", path,
		    ver != NULL ? ver : "", PMR_PROFDB_VERSION);
		return PMR_EFORMAT;
	}
	return PMR_OK;
}

/*
 * Makes the schema in the empty database h, unless another process made
 * it first.  Returns PMR_OK or <0 with the message in buf.
 */
static int
make_schema(sqlite3 *h, const char *path, char *buf, size_t len)
{
	char sql[64];
	int64_t n;
	int rc;

	if ((rc = exec(h, "BEGIN IMMEDIATE")) != SQLITE_OK)
		return sqlerr(h, rc, path, "cannot create", buf, len);
	rc = query_int(h, "SELECT count(*) FROM sqlite_schema", &n);
	if (rc == SQLITE_OK && n == 0) {
		snprintf(sql, sizeof(sql), "PRAGMA application_id = %d",
		    APP_ID);
		if ((rc = exec(h, sql)) == SQLITE_OK)
			rc = exec(h, schema);
	}
	if (rc == SQLITE_OK)
		rc = exec(h, "COMMIT");
	if (rc != SQLITE_OK) {
		rc = sqlerr(h, rc, path, "cannot create", buf, len);
		(void)exec(h, "ROLLBACK");
		return rc;
	}
	return n == 0 ? PMR_OK : check_meta(h, path, buf, len);
}

int
pmr_profdb_open(const char *path, unsigned flags, struct pmr_profdb **out,
    char *err, size_t errlen)
{
	struct pmr_profdb *db;
	struct stat sb;
	int64_t n;
	int rc, i, oflags, ret;

	*out = NULL;
	seterr(err, errlen, "%s", "");
	if ((db = calloc(1, sizeof(*db))) == NULL ||
	    (db->path = strdup(path)) == NULL) {
		free(db);
		seterr(err, errlen, "'%s': out of memory", path);
		return PMR_ENOMEM;
	}
	db->rdonly = (flags & PMR_PROFDB_RDONLY) != 0;
	/* SQLite would make a missing file even without CREATE on some
	 * paths; say it plainly instead. */
	if (!(flags & PMR_PROFDB_CREATE) && stat(path, &sb) != 0) {
		seterr(err, errlen, "cannot open '%s': %s", path,
		    strerror(errno));
		ret = PMR_EIO;
		goto out;
	}
	if (!(flags & PMR_PROFDB_CREATE) && S_ISREG(sb.st_mode) &&
	    sb.st_size == 0) {
		seterr(err, errlen, "'%s': not a profile database (empty file)",
		    path);
		ret = PMR_EFORMAT;
		goto out;
	}
	oflags = db->rdonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE;
	if ((flags & PMR_PROFDB_CREATE) && !db->rdonly)
		oflags |= SQLITE_OPEN_CREATE;
	rc = sqlite3_open_v2(path, &db->h, oflags | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		ret = sqlerr(db->h, rc, path, "cannot open", err, errlen);
		if (ret == PMR_EIO)
			seterr(err, errlen, "cannot open '%s': %s", path,
			    db->h != NULL ? sqlite3_errmsg(db->h) :
			    sqlite3_errstr(rc));
		goto out;
	}
	sqlite3_extended_result_codes(db->h, 0);
	sqlite3_busy_timeout(db->h, BUSY_MS);
	/* The first read: finds a file that is no SQLite database. */
	rc = query_int(db->h, "SELECT count(*) FROM sqlite_schema", &n);
	if (rc != SQLITE_OK) {
		ret = sqlerr(db->h, rc, path, "cannot read", err, errlen);
		goto out;
	}
	if (n == 0 && (flags & PMR_PROFDB_CREATE) && !db->rdonly) {
		/* WAL first: the schema itself goes through the log. */
		rc = exec(db->h, "PRAGMA journal_mode = WAL");
		if (rc != SQLITE_OK) {
			ret = sqlerr(db->h, rc, path, "cannot set WAL mode",
			    err, errlen);
			goto out;
		}
		if ((ret = make_schema(db->h, path, err, errlen)) != PMR_OK)
			goto out;
	} else if ((ret = check_meta(db->h, path, err, errlen)) != PMR_OK)
		goto out;
	if (!db->rdonly) {
		rc = exec(db->h, "PRAGMA journal_mode = WAL");
		if (rc == SQLITE_OK)
			rc = exec(db->h, "PRAGMA synchronous = NORMAL");
		if (rc != SQLITE_OK) {
			ret = sqlerr(db->h, rc, path, "cannot set WAL mode",
			    err, errlen);
			goto out;
		}
	}
	(void)exec(db->h, CACHE_SQL);
	for (i = 0; i < ST_N; i++) {
		rc = sqlite3_prepare_v3(db->h, st_sql[i], -1,
		    SQLITE_PREPARE_PERSISTENT, &db->st[i], NULL);
		if (rc != SQLITE_OK) {
			ret = sqlerr(db->h, rc, path, "cannot prepare", err,
			    errlen);
			goto out;
		}
	}
	*out = db;
	return PMR_OK;
out:
	pmr_profdb_close(db);
	return ret;
}

/* Forgets the event ids (they may be void after a rollback). */
static void
evcache_clear(struct pmr_profdb *db)
{
	size_t i;

	for (i = 0; i < db->nev; i++)
		free(db->ev[i].name);
	db->nev = db->lastev = 0;
}

/*
 * Ends a failed add: rolls it back and keeps code for commit.  Returns
 * code.
 */
static int
fail(struct pmr_profdb *db, int code)
{
	if (db->state == 1) {
		sqlite3_step(db->st[ST_ROLLBACK]);
		sqlite3_reset(db->st[ST_ROLLBACK]);
		evcache_clear(db);
		db->state = code;
	}
	return code;
}

/* Records the SQLite error rc of statement s (reset after) in db. */
static int
dberr(struct pmr_profdb *db, sqlite3_stmt *s, int rc, const char *what)
{
	int ret;

	ret = sqlerr(db->h, rc, db->path, what, db->err, sizeof(db->err));
	if (s != NULL)
		sqlite3_reset(s);
	return ret;
}

/* Checks that an add is in progress.  Returns PMR_OK or <0. */
static int
in_add(struct pmr_profdb *db)
{
	if (db->state == 1)
		return PMR_OK;
	if (db->state < 0)
		return db->state;
	seterr(db->err, sizeof(db->err), "'%s': no add in progress",
	    db->path);
	return PMR_EINVAL;
}

/*
 * Runs the bound one-id lookup s into *id (-1 when no row) and resets it.
 * Returns the SQLite code (SQLITE_OK when found or not).
 */
static int
lookup(sqlite3_stmt *s, int64_t *id)
{
	int rc;

	*id = -1;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(s, 0);
		rc = SQLITE_OK;
	} else if (rc == SQLITE_DONE)
		rc = SQLITE_OK;
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return rc;
}

/* Runs the insert s.  Returns the SQLite code (SQLITE_OK when done). */
static int
insert(sqlite3_stmt *s)
{
	int rc;

	rc = sqlite3_step(s);
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int
pmr_profdb_begin(struct pmr_profdb *db, const char *epoch,
    const char *cmdline, uint64_t seed)
{
	sqlite3_stmt *s;
	int rc;

	if (db->state == 1) {
		seterr(db->err, sizeof(db->err), "'%s': an add is already in "
		    "progress", db->path);
		return PMR_EINVAL;
	}
	db->state = 0;
	if (db->rdonly) {
		seterr(db->err, sizeof(db->err), "'%s': opened read-only",
		    db->path);
		return PMR_EINVAL;
	}
	if (epoch == NULL || *epoch == '\0') {
		seterr(db->err, sizeof(db->err), "empty epoch name");
		return PMR_EINVAL;
	}
	s = db->st[ST_BEGIN];
	rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return dberr(db, NULL, rc, "cannot begin an add");
	db->state = 1;
	s = db->st[ST_EPOCH_GET];
	sqlite3_bind_text(s, 1, epoch, -1, SQLITE_STATIC);
	if ((rc = lookup(s, &db->epoch)) != SQLITE_OK)
		return fail(db, dberr(db, NULL, rc, "cannot read epochs"));
	if (db->epoch < 0) {
		s = db->st[ST_EPOCH_INS];
		sqlite3_bind_text(s, 1, epoch, -1, SQLITE_STATIC);
		if ((rc = insert(s)) != SQLITE_OK)
			return fail(db, dberr(db, NULL, rc,
			    "cannot add an epoch"));
		db->epoch = sqlite3_last_insert_rowid(db->h);
	}
	s = db->st[ST_RUN_INS];
	sqlite3_bind_int64(s, 1, db->epoch);
	if (cmdline != NULL)
		sqlite3_bind_text(s, 2, cmdline, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 3, (int64_t)seed);
	if ((rc = insert(s)) != SQLITE_OK)
		return fail(db, dberr(db, NULL, rc, "cannot add a run"));
	return PMR_OK;
}

int
pmr_profdb_image(struct pmr_profdb *db, const char *path,
    const unsigned char *bid, size_t nbid, int64_t *id)
{
	sqlite3_stmt *s;
	int rc, ret;

	*id = -1;
	if ((ret = in_add(db)) != PMR_OK)
		return ret;
	if (path == NULL) {
		*id = PMR_PROFDB_UNKNOWN;
		return PMR_OK;
	}
	if (*path == '\0' || nbid > INT_MAX) {
		seterr(db->err, sizeof(db->err), "empty image path or "
		    "oversized build-id");
		return fail(db, PMR_EINVAL);
	}
	if (bid != NULL && nbid > 0) {
		s = db->st[ST_IMG_BID];
		sqlite3_bind_blob(s, 1, bid, (int)nbid, SQLITE_STATIC);
	} else {
		s = db->st[ST_IMG_PATH];
		sqlite3_bind_text(s, 1, path, -1, SQLITE_STATIC);
	}
	if ((rc = lookup(s, id)) != SQLITE_OK)
		return fail(db, dberr(db, NULL, rc, "cannot read images"));
	if (*id < 0) {
		s = db->st[ST_IMG_INS];
		if (bid != NULL && nbid > 0)
			sqlite3_bind_blob(s, 1, bid, (int)nbid, SQLITE_STATIC);
		sqlite3_bind_text(s, 2, path, -1, SQLITE_STATIC);
		if ((rc = insert(s)) != SQLITE_OK)
			return fail(db, dberr(db, NULL, rc,
			    "cannot add an image"));
		*id = sqlite3_last_insert_rowid(db->h);
	}
	s = db->st[ST_ALIAS_INS];
	sqlite3_bind_int64(s, 1, *id);
	sqlite3_bind_text(s, 2, path, -1, SQLITE_STATIC);
	if ((rc = insert(s)) != SQLITE_OK)
		return fail(db, dberr(db, NULL, rc, "cannot add an image path"));
	return PMR_OK;
}

/*
 * Finds or makes the id of event name into *id, through a small cache.
 * Returns PMR_OK or <0 (the add failed).
 */
static int
event_id(struct pmr_profdb *db, const char *name, int64_t *id)
{
	sqlite3_stmt *s;
	size_t i;
	int rc;

	if (db->nev > 0 && strcmp(db->ev[db->lastev].name, name) == 0) {
		*id = db->ev[db->lastev].id;
		return PMR_OK;
	}
	for (i = 0; i < db->nev; i++)
		if (strcmp(db->ev[i].name, name) == 0) {
			db->lastev = i;
			*id = db->ev[i].id;
			return PMR_OK;
		}
	if (*name == '\0') {
		seterr(db->err, sizeof(db->err), "empty event name");
		return fail(db, PMR_EINVAL);
	}
	s = db->st[ST_EV_GET];
	sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
	if ((rc = lookup(s, id)) != SQLITE_OK)
		return fail(db, dberr(db, NULL, rc, "cannot read events"));
	if (*id < 0) {
		s = db->st[ST_EV_INS];
		sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
		if ((rc = insert(s)) != SQLITE_OK)
			return fail(db, dberr(db, NULL, rc,
			    "cannot add an event"));
		*id = sqlite3_last_insert_rowid(db->h);
	}
	if (db->nev == NEVCACHE)
		evcache_clear(db);
	if ((db->ev[db->nev].name = strdup(name)) == NULL) {
		seterr(db->err, sizeof(db->err), "out of memory");
		return fail(db, PMR_ENOMEM);
	}
	db->ev[db->nev].id = *id;
	db->lastev = db->nev++;
	return PMR_OK;
}

int
pmr_profdb_add(struct pmr_profdb *db, int64_t image, const char *event,
    uint64_t offset, uint64_t count)
{
	sqlite3_stmt *s = db->st[ST_ADD];
	int64_t ev;
	int rc, ret;

	if ((ret = in_add(db)) != PMR_OK)
		return ret;
	if (count > INT64_MAX) {
		seterr(db->err, sizeof(db->err), "count %" PRIu64 " is too "
		    "large (past INT64_MAX)", count);
		return fail(db, PMR_EINVAL);
	}
	if (image < 0) {
		seterr(db->err, sizeof(db->err), "bad image id %" PRId64,
		    image);
		return fail(db, PMR_EINVAL);
	}
	if ((ret = event_id(db, event, &ev)) != PMR_OK)
		return ret;
	if (count == 0)
		return PMR_OK;
	sqlite3_bind_int64(s, 1, db->epoch);
	sqlite3_bind_int64(s, 2, image);
	sqlite3_bind_int64(s, 3, ev);
	sqlite3_bind_int64(s, 4, (int64_t)offset);
	sqlite3_bind_int64(s, 5, (int64_t)count);
	rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc == SQLITE_DONE)
		return PMR_OK;
	if (rc == SQLITE_CONSTRAINT) {
		/* The CHECK on count: the sum went past INT64_MAX (SQLite
		 * turns it into a REAL). */
		seterr(db->err, sizeof(db->err), "count of event '%s' at "
		    "offset 0x%" PRIx64 " of image %" PRId64 " overflows "
		    "(past INT64_MAX)", event, offset, image);
		return fail(db, PMR_EINVAL);
	}
	return fail(db, dberr(db, NULL, rc, "cannot add a sample"));
}

int
pmr_profdb_commit(struct pmr_profdb *db)
{
	int rc, ret;

	if ((ret = in_add(db)) != PMR_OK) {
		db->state = 0;
		return ret;
	}
	rc = sqlite3_step(db->st[ST_COMMIT]);
	sqlite3_reset(db->st[ST_COMMIT]);
	if (rc != SQLITE_DONE) {
		ret = dberr(db, NULL, rc, "cannot commit");
		(void)fail(db, ret);
		db->state = 0;
		return ret;
	}
	db->state = 0;
	return PMR_OK;
}

void
pmr_profdb_rollback(struct pmr_profdb *db)
{
	if (db == NULL)
		return;
	(void)fail(db, PMR_EINVAL);
	db->state = 0;
}

int
pmr_profdb_each(struct pmr_profdb *db, const char *epoch,
    int (*fn)(void *arg, const struct pmr_profdb_row *r), void *arg)
{
	/* (offset < 0, offset) is the unsigned order of the bit patterns;
	 * SQLite sorts only within each (epoch, image, event). */
	static const char sql[] =
	    "SELECT e.name, i.path, i.build_id, v.name, s.offset, s.count, "
	    "s.image FROM sample s JOIN epoch e ON e.id = s.epoch "
	    "JOIN image i ON i.id = s.image JOIN event v ON v.id = s.event "
	    "WHERE ?1 IS NULL OR s.epoch = ?1 "
	    "ORDER BY s.epoch, s.image, s.event, s.offset < 0, s.offset";
	struct pmr_profdb_row r;
	sqlite3_stmt *s = NULL;
	int64_t eid = -1;
	int rc, ret = PMR_OK;

	if (epoch != NULL) {
		s = db->st[ST_EPOCH_GET];
		sqlite3_bind_text(s, 1, epoch, -1, SQLITE_STATIC);
		if ((rc = lookup(s, &eid)) != SQLITE_OK)
			return dberr(db, NULL, rc, "cannot read epochs");
		if (eid < 0) {
			seterr(db->err, sizeof(db->err), "'%s': no epoch '%s'",
			    db->path, epoch);
			return PMR_EINVAL;
		}
	}
	rc = sqlite3_prepare_v2(db->h, sql, -1, &s, NULL);
	if (rc != SQLITE_OK)
		return dberr(db, NULL, rc, "cannot read samples");
	if (eid >= 0)
		sqlite3_bind_int64(s, 1, eid);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		r.epoch = (const char *)sqlite3_column_text(s, 0);
		r.path = (const char *)sqlite3_column_text(s, 1);
		r.bid = sqlite3_column_blob(s, 2);
		r.nbid = (size_t)sqlite3_column_bytes(s, 2);
		r.event = (const char *)sqlite3_column_text(s, 3);
		r.offset = (uint64_t)sqlite3_column_int64(s, 4);
		r.count = (uint64_t)sqlite3_column_int64(s, 5);
		r.image = sqlite3_column_int64(s, 6);
		if (r.epoch == NULL || r.path == NULL || r.event == NULL) {
			seterr(db->err, sizeof(db->err), "'%s': database is "
			    "corrupt (a NULL name)", db->path);
			ret = PMR_EFORMAT;
			goto out;
		}
		if (r.nbid == 0)
			r.bid = NULL;
		if ((ret = fn(arg, &r)) != 0)
			goto out;
	}
	if (rc != SQLITE_DONE)
		ret = dberr(db, NULL, rc, "cannot read samples");
out:
	sqlite3_finalize(s);
	return ret;
}

void
pmr_profdb_names_free(char **names, size_t n)
{
	size_t i;

	if (names == NULL)
		return;
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int
pmr_profdb_epochs(struct pmr_profdb *db, char ***names, size_t *n)
{
	sqlite3_stmt *s = NULL;
	char **v = NULL, **nv;
	size_t k = 0, cap = 0;
	const char *t;
	int rc, ret = PMR_OK;

	*names = NULL;
	*n = 0;
	rc = sqlite3_prepare_v2(db->h, "SELECT name FROM epoch ORDER BY id",
	    -1, &s, NULL);
	if (rc != SQLITE_OK)
		return dberr(db, NULL, rc, "cannot read epochs");
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (k == cap) {
			cap = cap ? 2 * cap : 8;
			if ((nv = realloc(v, cap * sizeof(*v))) == NULL)
				goto nomem;
			v = nv;
		}
		t = (const char *)sqlite3_column_text(s, 0);
		if ((v[k] = strdup(t != NULL ? t : "")) == NULL)
			goto nomem;
		k++;
	}
	if (rc != SQLITE_DONE) {
		ret = dberr(db, NULL, rc, "cannot read epochs");
		goto out;
	}
	*names = v;
	*n = k;
	sqlite3_finalize(s);
	return PMR_OK;
nomem:
	seterr(db->err, sizeof(db->err), "out of memory");
	ret = PMR_ENOMEM;
out:
	sqlite3_finalize(s);
	pmr_profdb_names_free(v, k);
	return ret;
}

const char *
pmr_profdb_errmsg(const struct pmr_profdb *db)
{
	return db != NULL ? db->err : "";
}

void
pmr_profdb_close(struct pmr_profdb *db)
{
	int i;

	if (db == NULL)
		return;
	if (db->h != NULL) {
		pmr_profdb_rollback(db);
		for (i = 0; i < ST_N; i++)
			sqlite3_finalize(db->st[i]);
		sqlite3_close(db->h);
	}
	evcache_clear(db);
	free(db->path);
	free(db);
}
