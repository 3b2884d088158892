/*
 * prof/db.h: the profile database of pmprof, kept in SQLite.
 *
 * As in DCPI (SOSP '97, section 4.3.3) the database holds non-overlapping
 * epochs; within an epoch, one profile per (executable image, event); a
 * profile is a count per pc offset, and adding samples adds counts.  An
 * image is known by its content, not its name: the GNU build-id when the
 * file has one, so that a moved or copied file stays the same image, else
 * its path.  Offsets are file offsets (pc - start of the mapping + file
 * offset of the mapping), so a library loaded at two bases accumulates in
 * the same rows.  Pcs that fell in no image go to the image "[unknown]"
 * (id 0) with the raw pc as the offset.
 *
 * One add (pmr_profdb_begin(), any number of pmr_profdb_image() and
 * pmr_profdb_add(), pmr_profdb_commit()) is one SQLite transaction: after
 * an error, a pmr_profdb_rollback() or a crash nothing of it remains.  The
 * database runs in WAL mode, so readers (another process, or another
 * handle) read the last committed state while a writer adds; a second
 * writer waits up to 10 s for the first.  Durability: synchronous=NORMAL
 * under WAL, so a committed add survives a crash of the program; a power
 * loss or OS crash may lose the last commits, never the consistency.
 *
 * The schema (version 1; man/pmprof.1 copies it):
 *
 *	-- format = 'pmtools-profdb', version = '1'; a database without
 *	-- them, or of another version, is refused as foreign.
 *	CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
 *	-- one row per epoch; created is UTC ISO 8601.
 *	CREATE TABLE epoch(id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL,
 *	    created TEXT);
 *	-- an image: build_id (raw bytes) when known, else NULL and the
 *	-- path is the identity.  path is the first path seen; every path
 *	-- seen is in image_path.  Row 0 is '[unknown]'.
 *	CREATE TABLE image(id INTEGER PRIMARY KEY, build_id BLOB,
 *	    path TEXT NOT NULL);
 *	CREATE UNIQUE INDEX image_by_build_id ON image(build_id)
 *	    WHERE build_id IS NOT NULL;
 *	CREATE UNIQUE INDEX image_by_path ON image(path)
 *	    WHERE build_id IS NULL AND id <> 0;
 *	CREATE TABLE image_path(image INTEGER NOT NULL REFERENCES image(id),
 *	    path TEXT NOT NULL, PRIMARY KEY(image, path)) WITHOUT ROWID;
 *	-- 'tip', 'counter:cycles', 'profileme', 'profileme:dcache_miss'...
 *	CREATE TABLE event(id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL);
 *	-- offset is a u64 stored as its int64 bit pattern (raw pcs of
 *	-- '[unknown]' above 2^63 are negative); count is a u64 below 2^63.
 *	CREATE TABLE sample(epoch INTEGER NOT NULL REFERENCES epoch(id),
 *	    image INTEGER NOT NULL REFERENCES image(id),
 *	    event INTEGER NOT NULL REFERENCES event(id),
 *	    offset INTEGER NOT NULL,
 *	    count INTEGER NOT NULL CHECK(typeof(count) = 'integer'
 *	        AND count >= 0),
 *	    PRIMARY KEY(epoch, image, event, offset)) WITHOUT ROWID;
 *	-- one row per add; seed is a u64 stored as its int64 bit pattern,
 *	-- added is UTC ISO 8601.
 *	CREATE TABLE run(id INTEGER PRIMARY KEY,
 *	    epoch INTEGER NOT NULL REFERENCES epoch(id),
 *	    cmdline TEXT, seed INTEGER, added TEXT);
 *	CREATE VIEW v_samples(epoch, image_path, build_id_hex, event, offset,
 *	    offset_hex, count) AS
 *	    SELECT e.name, i.path, lower(hex(i.build_id)), v.name, s.offset,
 *	        printf('0x%x', s.offset), s.count
 *	    FROM sample s JOIN epoch e ON e.id = s.epoch
 *	    JOIN image i ON i.id = s.image JOIN event v ON v.id = s.event;
 *	CREATE VIEW v_totals(epoch, image_path, build_id_hex, event, rows,
 *	    count) AS
 *	    SELECT e.name, i.path, lower(hex(i.build_id)), v.name, count(*),
 *	        sum(s.count)
 *	    FROM sample s JOIN epoch e ON e.id = s.epoch
 *	    JOIN image i ON i.id = s.image JOIN event v ON v.id = s.event
 *	    GROUP BY s.epoch, s.image, s.event;
 *	CREATE VIEW v_images(id, path, build_id_hex, paths) AS
 *	    SELECT i.id, i.path, lower(hex(i.build_id)),
 *	        (SELECT group_concat(p.path, ' ') FROM image_path p
 *	         WHERE p.image = i.id)
 *	    FROM image i;
 *
 * The file's application_id is 0x706d7072 ("pmpr"); the meta table, not
 * it, decides what is a profile database.  Foreign keys are declared for
 * readers, not enforced (the library is the only writer).
 */
#ifndef PMR_PROF_DB_H
#define PMR_PROF_DB_H

#include <stddef.h>
#include <stdint.h>

#include "stream/pmr.h"

#define PMR_PROFDB_FORMAT "pmtools-profdb"
#define PMR_PROFDB_VERSION 1
#define PMR_PROFDB_UNKNOWN 0	/* image id of pcs in no image */

/* Flags of pmr_profdb_open() (1 is the "create" of a plain boolean). */
#define PMR_PROFDB_CREATE 1u	/* make the database if missing or empty */
#define PMR_PROFDB_RDONLY 2u	/* open read-only (no adds) */

struct pmr_profdb;

/* One sample row, valid during the callback only. */
struct pmr_profdb_row {
	const char *epoch, *path, *event;	/* path "[unknown]" for id 0 */
	const unsigned char *bid;		/* build-id, NULL if none */
	size_t nbid;
	uint64_t offset, count;
	int64_t image;				/* image id */
};

/*
 * Opens the profile database at path; flags PMR_PROFDB_CREATE makes it
 * when the file is missing or empty (never over another file).  Returns
 * PMR_OK with *out set (caller closes), or PMR_EIO (cannot open, locked),
 * PMR_EFORMAT (not a profile database, another version, corrupt) or
 * PMR_ENOMEM with a one-line message in err.
 */
int pmr_profdb_open(const char *path, unsigned flags,
    struct pmr_profdb **out, char *err, size_t errlen) PMR_RESULT_USED;

/*
 * Starts one add into epoch (created if new), recording cmdline (may be
 * NULL) and seed in the run table.  Waits up to 10 s for another writer.
 * Returns PMR_OK, or <0 with nothing started.
 */
int pmr_profdb_begin(struct pmr_profdb *db, const char *epoch,
    const char *cmdline, uint64_t seed) PMR_RESULT_USED;

/*
 * Finds or makes the image of path and build-id bid (nbid bytes, or NULL
 * and 0) inside an add and stores its id in *id.  With a build-id, the
 * image of that build-id is found whatever its path (the path is added to
 * its list); without, the image of that path.  path NULL is the unknown
 * image.  An id made in an add that is rolled back is void.  Returns
 * PMR_OK, or <0 and the add is rolled back.
 */
int pmr_profdb_image(struct pmr_profdb *db, const char *path,
    const unsigned char *bid, size_t nbid, int64_t *id) PMR_RESULT_USED;

/*
 * Adds count samples of event at offset of image inside an add (a count
 * of 0 adds nothing).  Returns PMR_OK, or <0 (PMR_EINVAL for a count or a
 * sum past INT64_MAX) and the add is rolled back.
 */
int pmr_profdb_add(struct pmr_profdb *db, int64_t image, const char *event,
    uint64_t offset, uint64_t count) PMR_RESULT_USED;

/*
 * Commits the add.  Returns PMR_OK, or <0 and nothing of the add remains
 * (also when an earlier call of the add failed: its code is returned).
 */
int pmr_profdb_commit(struct pmr_profdb *db) PMR_RESULT_USED;

/* Discards the add in progress, if any. */
void pmr_profdb_rollback(struct pmr_profdb *db);

/*
 * Calls fn for every sample row of epoch (NULL: of all epochs), in order
 * of epoch (creation), image id, event id and offset (unsigned), from one
 * consistent snapshot.  Returns PMR_OK, the first non-zero value fn
 * returns (which stops the walk), PMR_EINVAL for an unknown epoch, or
 * another <0 code.
 */
int pmr_profdb_each(struct pmr_profdb *db, const char *epoch,
    int (*fn)(void *arg, const struct pmr_profdb_row *r),
    void *arg) PMR_RESULT_USED;

/*
 * Lists the epochs in order of creation into *names (n strings).  Returns
 * PMR_OK or <0; the caller frees with pmr_profdb_names_free().
 */
int pmr_profdb_epochs(struct pmr_profdb *db, char ***names,
    size_t *n) PMR_RESULT_USED;

/* Frees the n strings of names and the array. */
void pmr_profdb_names_free(char **names, size_t n);

/* Returns the message of the last error ("" if none), owned by db. */
const char *pmr_profdb_errmsg(const struct pmr_profdb *db);

/* Closes db, rolling back an add in progress.  db may be NULL. */
void pmr_profdb_close(struct pmr_profdb *db);

#endif /* PMR_PROF_DB_H */
