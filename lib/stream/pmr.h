/*
 * libpmr: the pmtools record stream.
 *
 * Every pmtools program reads and writes one binary record stream, specified
 * normatively in man/pmr.5.  This header is the interface of the stream
 * library (lib/stream): byte order helpers, readers (raw, zstd, xz, gzip,
 * concatenated streams), writers (raw or zstd, written to a temporary name and
 * renamed on success), and the generic text/TSV/JSON record printer and
 * parser.  The record types themselves (numbers, decoded structs, field
 * tables) are in records/records.h, below it; the option handling shared by
 * the programs is in util/cli.h, above it.
 *
 * The library never exits and never prints unless asked to; functions return
 * codes (PMR_OK or a negative PMR_E* value) and, where useful, leave a
 * detailed message in the object they operate on.
 */
#ifndef PMR_H
#define PMR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "records/records.h"

#if defined(__GNUC__)
#define PMR_RESULT_USED __attribute__((__warn_unused_result__))
#define PMR_FORMAT(f, a) __attribute__((__format__(__printf__, f, a)))
#define PMR_NORETURN __attribute__((__noreturn__))
#else
#define PMR_RESULT_USED
#define PMR_FORMAT(f, a)
#define PMR_NORETURN
#endif

#define PMR_VERSION_MAJOR 1
#define PMR_VERSION_MINOR 6
#define PMTOOLS_VERSION "0.1.0"

/* Return codes.  Read calls return 1 for a record, 0 at a clean end. */
#define PMR_OK 0
#define PMR_EIO (-1)	    /* system error; errno-derived text in errmsg */
#define PMR_ETRUNC (-2)	    /* input ends inside a header, record or frame */
#define PMR_ECORRUPT (-3)   /* input is structurally wrong */
#define PMR_EFORMAT (-4)    /* input is not a pmr stream (bad magic) */
#define PMR_EVERSION (-5)   /* a must-understand feature is unknown */
#define PMR_ENOMEM (-6)
#define PMR_EINVAL (-7)	    /* bad argument from the caller */

/* Limits checked before every allocation. */
#define PMR_HDR_MAX 65536u		   /* stream header payload bytes */
#define PMR_REC_MAX (16u * 1024 * 1024)	   /* one record, header included */
#define PMR_FRAME_RAW (1u * 1024 * 1024)   /* raw bytes per zstd frame */

/* Header flags: none is defined yet in version 1.0.  Any set bit of
 * must_flags makes this reader reject the stream; ign_flags bits are
 * written 0 and never interpreted. */
#define PMR_MUST_KNOWN 0u

/* --- byte order ---------------------------------------------------- */

static inline uint16_t
pmr_le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t
pmr_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static inline uint64_t
pmr_le64(const unsigned char *p)
{
	return (uint64_t)pmr_le32(p) | (uint64_t)pmr_le32(p + 4) << 32;
}

static inline void
pmr_put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static inline void
pmr_put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static inline void
pmr_put64(unsigned char *p, uint64_t v)
{
	pmr_put32(p, (uint32_t)v);
	pmr_put32(p + 4, (uint32_t)(v >> 32));
}

/*
 * The fixed layouts that hot loops encode and decode by hand rather than
 * through the field tables: EVENT (mhash's input, pmsim --events) and HOT
 * (mhash's output).  The offsets are those of man/pmr.5; the field tables
 * in records/rec_core.c say the same, and tests/unit/test_stream.c checks
 * that the two agree.
 */
#define PMR_EVENT_SIZE 17u
#define PMR_HOT_SIZE 41u

static inline void
pmr_event_put(unsigned char *p, unsigned kind, uint64_t pc, uint64_t value)
{
	p[0] = (unsigned char)kind;
	pmr_put64(p + 1, pc);
	pmr_put64(p + 9, value);
}

/* pc and value of the EVENT payload p (kind is p[0]). */
static inline uint64_t
pmr_event_pc(const unsigned char *p)
{
	return pmr_le64(p + 1);
}

static inline uint64_t
pmr_event_value(const unsigned char *p)
{
	return pmr_le64(p + 9);
}

static inline void
pmr_hot_put(unsigned char *p, const struct pmr_hot *h)
{
	pmr_put64(p, h->interval);
	pmr_put64(p + 8, h->pc);
	pmr_put64(p + 16, h->value);
	pmr_put64(p + 24, h->count);
	pmr_put64(p + 32, h->exact);
	p[40] = h->cls;
}

/* --- the record registry -------------------------------------------- */

/* The record types, their decoded structs and field tables, and the
 * lookups pmr_rtype_find(), pmr_rtype_byname() and pmr_rtype_at() are in
 * records/records.h. */

/* Returns element i of an A64 field (its bytes stay in wire order). */
static inline uint64_t
pmr_a64_get(struct pmr_bytes b, uint32_t i)
{
	return pmr_le64(b.p + (size_t)i * 8);
}

/* --- records and reading ------------------------------------------- */

struct pmr_rec {
	uint32_t type;
	uint32_t len;		  /* payload bytes (size - 8) */
	const unsigned char *p;	  /* payload, valid until the next read */
	uint64_t index;		  /* 0-based index in the whole input */
	uint64_t offset;	  /* byte offset of the record, decompressed */
};

/* Reader flags. */
#define PMR_RD_FRAMING 1u   /* also return HEADER (type 0) and END records */

enum pmr_codec { PMR_C_RAW, PMR_C_ZSTD, PMR_C_XZ, PMR_C_GZIP };

struct pmr_reader;

/*
 * Opens path ("-" or NULL: standard input) for reading records.  Nothing is
 * read yet.  Returns the reader, or NULL with *err set.  Caller closes.
 */
struct pmr_reader *pmr_reader_open(const char *path, unsigned flags,
    int *err) PMR_RESULT_USED;
/* Opens the descriptor fd for reading records; the reader closes it. */
struct pmr_reader *pmr_reader_fdopen(int fd, unsigned flags,
    int *err) PMR_RESULT_USED;
/*
 * Attaches a producer to r: when a read fails, r asks it (errmsg(ctx))
 * for a better message, and pmr_reader_close() calls done(ctx) after
 * closing the input.  Used by pmr_trace_reader_open().
 */
void pmr_reader_set_producer(struct pmr_reader *r,
    const char *(*errmsg)(void *), void (*done)(void *), void *ctx);
/* Opens an in-memory stream; buf must outlive the reader. */
struct pmr_reader *pmr_reader_open_mem(const void *buf, size_t len,
    unsigned flags, int *err) PMR_RESULT_USED;
/*
 * Reads the next record into *rec.  Returns 1 for a record, 0 at a clean end
 * of input, or a negative PMR_E* code; then pmr_reader_errmsg() says what and
 * where.  After an error every later call returns the same code.
 */
int pmr_reader_next(struct pmr_reader *r, struct pmr_rec *rec) PMR_RESULT_USED;
/*
 * The fast path of a reader that takes many records of one kind: the run
 * of records of type (not END) and len bytes each that comes next, whole
 * in what the reader has read ahead, at most max of them.  Returns how
 * many (0: none; pmr_reader_next() reads what comes), *p the first's
 * payload (the k-th's at *p + k * (len + 8)) and *index its index.  They
 * are read as if by pmr_reader_next(), with its checks, and stay valid
 * until the next call on r.
 */
size_t pmr_reader_run(struct pmr_reader *r, uint32_t type, uint32_t len,
    size_t max, const unsigned char **p, uint64_t *index);
/* Returns the message of the last error ("" if none). */
const char *pmr_reader_errmsg(const struct pmr_reader *r);
/* Returns the header of the stream being read (valid after a first read). */
const struct pmr_header *pmr_reader_header(const struct pmr_reader *r);
/* Returns how many stream headers have been read so far. */
uint64_t pmr_reader_nstreams(const struct pmr_reader *r);
/* Returns the codec of the segment being read. */
enum pmr_codec pmr_reader_codec(const struct pmr_reader *r);
/* Returns compressed (file) bytes consumed so far. */
uint64_t pmr_reader_inbytes(const struct pmr_reader *r);
void pmr_reader_close(struct pmr_reader *r);

/*
 * Decodes rec into the struct of its type (struct pmr_header, pmr_end, ...).
 * Fields appended after the writer's version are zero.  Returns PMR_OK,
 * PMR_EINVAL for an unknown type, or PMR_ECORRUPT when the payload is
 * shorter than the fields it must hold; *why then says which field.
 */
int pmr_rec_decode(const struct pmr_rec *rec, void *out,
    const char **why) PMR_RESULT_USED;

/*
 * Returns a static description of a PMR_E* code; for PMR_EIO, the system's
 * text for errno as the failing call left it (call it before anything else
 * can change errno).  Every message about a stream error goes through it.
 */
const char *pmr_strerror(int code);

/* --- writing --------------------------------------------------------- */

struct pmr_wopts {
	const char *creator;	/* program name for the header */
	int compress;		/* -1: by name (.zst), 0: raw, 1: zstd */
	int level;		/* zstd level; 0 means 3 */
	uint32_t must_flags;
};

struct pmr_writer;

/*
 * Opens path ("-" or NULL: standard output) and writes the stream header.
 * A named file is written as a temporary file in the same directory and
 * renamed by pmr_writer_close(); it never appears under its name unless
 * complete.  Returns the writer or NULL with *err set (errno for PMR_EIO).
 */
struct pmr_writer *pmr_writer_open(const char *path,
    const struct pmr_wopts *o, int *err) PMR_RESULT_USED;
/* Same as pmr_writer_open() on the descriptor fd, closed at the end. */
struct pmr_writer *pmr_writer_fdopen(int fd, const struct pmr_wopts *o,
    int *err) PMR_RESULT_USED;
/*
 * Queues this program's PROV record.  It is written just before the first
 * record that is not PROV, so that provenance passed through from the input
 * comes first and the chain stays in order.
 */
int pmr_writer_prov(struct pmr_writer *w, const char *prog, int argc,
    char *const argv[], uint64_t seed, int seed_set) PMR_RESULT_USED;
/* Encodes the struct *in as a record of type (a registered type). */
int pmr_write(struct pmr_writer *w, uint32_t type,
    const void *in) PMR_RESULT_USED;
/* Writes a META record of key and value (C strings). */
int pmr_write_meta(struct pmr_writer *w, const char *key,
    const char *value) PMR_RESULT_USED;
/* Writes a record with the given payload unchanged (pass-through). */
int pmr_write_raw(struct pmr_writer *w, uint32_t type, const void *p,
    uint32_t len) PMR_RESULT_USED;
/*
 * Reserves a record of type with len payload bytes and returns a pointer to
 * the payload for the caller to fill, or NULL (too large, or a write error).
 * The fastest way to emit records; the pointer is valid until the next call.
 */
unsigned char *pmr_write_reserve(struct pmr_writer *w, uint32_t type,
    uint32_t len) PMR_RESULT_USED;
/* Returns the number of records written so far (END excluded). */
uint64_t pmr_writer_count(const struct pmr_writer *w);
/* Returns bytes written to the file so far (compressed if zstd). */
uint64_t pmr_writer_outbytes(const struct pmr_writer *w);
/* Returns the message of the last error. */
const char *pmr_writer_errmsg(const struct pmr_writer *w);
/*
 * Writes END, flushes, closes and renames the file into place.  Returns
 * PMR_OK or an error, whose message is copied into errbuf (may be NULL);
 * the writer is freed either way, and on error the temporary file is
 * removed.
 */
int pmr_writer_close(struct pmr_writer *w, char *errbuf,
    size_t errlen) PMR_RESULT_USED;
/* Discards the output: removes the temporary file and frees the writer. */
void pmr_writer_abort(struct pmr_writer *w);

/*
 * A text output file with the same discipline as the writer: written under
 * a temporary name, renamed into place by pmr_textout_close(o, 1), removed
 * by pmr_textout_close(o, 0) or at exit().  path NULL or "-" is stdout,
 * which is left open.
 */
struct pmr_textout {
	FILE *f;		/* write here */
	char *path, *tmp;
	int fd;			/* under f, for a named output */
	int werr;		/* errno of the first failed write, or 0 */
};

/* Opens o for path.  Returns PMR_OK, or PMR_EIO with errno set. */
int pmr_textout_open(struct pmr_textout *o, const char *path) PMR_RESULT_USED;
/* Closes o, keeping the file if ok.  Returns PMR_OK or PMR_EIO (errno). */
int pmr_textout_close(struct pmr_textout *o, int ok);

/* --- text forms --------------------------------------------------------- */

enum pmr_fmt { PMR_FMT_TEXT, PMR_FMT_TSV, PMR_FMT_JSON };

/*
 * Prints rec on f in format fmt.  For TSV the first record of each type is
 * preceded by a '#'-line naming its columns when *seen (an array of 256
 * flags indexed by type & 255, or NULL for none) has no mark for it yet.
 * Unknown types print as type number, size and hex payload.  Returns 0, or
 * PMR_ECORRUPT when a known record does not decode (message in *why).
 */
int pmr_rec_print(FILE *f, enum pmr_fmt fmt, const struct pmr_rec *rec,
    unsigned char *seen, const char **why);

/*
 * Parses one line of pmview's TSV form (TYPE, then the fields in order; a
 * type number and hex payload for unknown types) and encodes it into buf of
 * cap bytes.  Returns the payload length (>= 0) and sets *type, or a
 * negative code with a message in errbuf.  Lines starting with '#' and
 * blank lines return PMR_EINVAL with errbuf "" (skip them).
 */
int pmr_rec_parse(const char *line, uint32_t *type, unsigned char *buf,
    size_t cap, char *errbuf, size_t errlen);
/* Returns 1 if the n bytes at s hold a control character (binary data). */
int pmr_is_binary(const char *s, size_t n);
/*
 * Writes the n bytes at s into buf (len bytes) for a message: printable
 * ASCII as it is, other bytes, quotes and backslashes as \xNN, cut with
 * "..." where buf is full (64 bytes hold about 40 characters).  Returns buf.
 */
const char *pmr_quote(char *buf, size_t len, const char *s, size_t n);
/*
 * Prints s on f as a JSON string: quotes around it, '"' and '\\' escaped
 * with a backslash, control characters as \u00XX.  Every program's JSON
 * output writes its strings through it.
 */
void pmr_json_str(FILE *f, const char *s);

#endif /* PMR_H */
