/*
 * libpmr: the pmtools record stream.
 *
 * Every pmtools program reads and writes one binary record stream, specified
 * normatively in man/pmr.5.  This header is the whole public interface: byte
 * order helpers, the record-type registry, readers (raw, zstd, xz, gzip,
 * concatenated streams), writers (raw or zstd, written to a temporary name and
 * renamed on success), the generic text/TSV/JSON record printer and parser,
 * and the option handling shared by all programs.
 *
 * The library never exits and never prints unless asked to; functions return
 * codes (PMR_OK or a negative PMR_E* value) and, where useful, leave a
 * detailed message in the object they operate on.
 */
#ifndef PMR_H
#define PMR_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

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
#define PMR_VERSION_MINOR 1
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

/*
 * Record types.  Type 0 never appears on the wire: the reader uses it for
 * the stream header when PMR_RD_FRAMING is set.  Bit 31 marks a
 * must-understand type: a reader that does not know such a type rejects the
 * stream, while unknown ordinary types are skipped or passed through.
 * Core types are below 64; tool-private types are 64 and up.
 */
#define PMR_REC_HEADER 0u
#define PMR_REC_END 1u
#define PMR_REC_PROV 2u
#define PMR_REC_META 3u
/* 8-15: instruction trace (IMAGE, SINSN, DINSN); 16-23: simulation output
 * (STATS, SAMPLE, PAIR, TRUTH); 24-31: events and profiles; 32-47: graphs,
 * fragments, costs, metrics.  See pmr.5 for the assigned numbers. */
#define PMR_REC_EVENT 24u
#define PMR_REC_HOT 25u
#define PMR_REC_CRITICAL 0x80000000u
#define PMR_REC_USER 64u

/* EVENT kinds. */
#define PMR_EV_VALUE 1u	 /* (load pc, loaded value) */
#define PMR_EV_EDGE 2u	 /* (branch pc, target) */

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

/* --- the record registry -------------------------------------------- */

/* Field kinds, with their wire encoding (all little-endian). */
enum pmr_kind {
	PMR_K_U8 = 1,	/* 1 byte, uint8_t */
	PMR_K_U16,	/* 2 bytes, uint16_t */
	PMR_K_U32,	/* 4 bytes, uint32_t */
	PMR_K_U64,	/* 8 bytes, uint64_t, printed in decimal */
	PMR_K_X64,	/* 8 bytes, uint64_t, printed 0x-hex (pcs, addresses) */
	PMR_K_I64,	/* 8 bytes two's complement, int64_t */
	PMR_K_F64,	/* 8 bytes IEEE-754 binary64, double */
	PMR_K_STR,	/* u32 length + UTF-8 bytes, struct pmr_bytes */
	PMR_K_BLOB,	/* u32 length + bytes, struct pmr_bytes, printed hex */
	PMR_K_A64	/* u32 count + count u64, struct pmr_bytes (n = count) */
};

/* A borrowed run of bytes inside a record; valid until the next read. */
struct pmr_bytes {
	const unsigned char *p;
	uint32_t n;
};

struct pmr_field {
	const char *name;
	unsigned char kind;	/* enum pmr_kind */
	unsigned char since;	/* minor version that appended the field */
	unsigned short off;	/* offset in the decoded struct */
	const char *desc;
};

struct pmr_rtype {
	uint32_t type;
	const char *name;
	const char *desc;
	const struct pmr_field *fields;
	unsigned nfields;
	size_t size;		/* sizeof the decoded struct */
};

/* Decoded forms of the core records. */
struct pmr_header {
	uint16_t minor;		/* minor version of the writer */
	uint16_t reserved;
	uint32_t must_flags;
	uint32_t ign_flags;
	struct pmr_bytes creator;
};

struct pmr_end {
	uint64_t nrec;		/* records in this stream before END */
};

struct pmr_prov {
	uint64_t seed;
	uint32_t flags;		/* bit 0: seed was given or drawn */
	struct pmr_bytes prog, version, cmdline;
};

struct pmr_meta {
	struct pmr_bytes key, value;
};

struct pmr_event {
	uint8_t kind;		/* PMR_EV_* */
	uint64_t pc;
	uint64_t value;
};

/* HOT: one candidate of an interval profile (mhash). */
struct pmr_hot {
	uint64_t interval;	/* interval index, from 0 */
	uint64_t pc;
	uint64_t value;		/* value or branch target */
	uint64_t count;		/* the profiler's count */
	uint64_t exact;		/* exact count, 0 unless evaluated */
	uint8_t cls;		/* 0 exact, 1 NP, 2 NN, 3 FP, 4 FN, 255 none */
};

/* Returns the registry entry of type, or NULL if unknown. */
const struct pmr_rtype *pmr_rtype_find(uint32_t type);
/* Returns the entry named name (case-insensitive), or NULL. */
const struct pmr_rtype *pmr_rtype_byname(const char *name);
/* Returns the i-th registered type (from 0), or NULL past the last. */
const struct pmr_rtype *pmr_rtype_at(unsigned i);

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

/* --- common options -------------------------------------------------- */

/*
 * Options shared by every program: -o, -z, -q, -v, -h, -V, --force,
 * --level, --no-pg, --seed.  (-f is left to each program for its output
 * format, as in "pmview -f tsv"; forcing binary output to a terminal is
 * long-only.)  Programs append PMR_COMMON_LONGOPTS to their own
 * long-option table and PMR_COMMON_SHORTOPTS to their short string, and
 * give each unknown option to pmr_common_opt().
 */
struct pmr_common {
	const char *output;	/* -o FILE, NULL for stdout */
	int compress;		/* -1 by name, 1 with -z */
	int level;		/* --level, 0 for default */
	int quiet, verbose, force;
	int no_pg;
	int seed_set;
	uint64_t seed;
};

enum {
	PMR_OPT_NO_PG = 0x100,
	PMR_OPT_SEED,
	PMR_OPT_LEVEL,
	PMR_OPT_FORCE,
	PMR_OPT_PRIVATE	 /* programs number their long-only options from here */
};

#define PMR_COMMON_SHORTOPTS "hqo:vVz"
#define PMR_COMMON_LONGOPTS                                                  \
	{ "force", no_argument, NULL, PMR_OPT_FORCE },                       \
	    { "help", no_argument, NULL, 'h' },                              \
	    { "level", required_argument, NULL, PMR_OPT_LEVEL },             \
	    { "no-pg", no_argument, NULL, PMR_OPT_NO_PG },                   \
	    { "output", required_argument, NULL, 'o' },                      \
	    { "quiet", no_argument, NULL, 'q' },                             \
	    { "seed", required_argument, NULL, PMR_OPT_SEED },               \
	    { "verbose", no_argument, NULL, 'v' },                           \
	    { "version", no_argument, NULL, 'V' },                           \
	{                                                                    \
		"zstd", no_argument, NULL, 'z'                               \
	}

/* Help text of the common options, for --help. */
extern const char pmr_common_help[];

void pmr_common_init(struct pmr_common *c);
/*
 * Handles option c with argument arg.  Returns 1 if handled, 0 if c is not a
 * common option, 'h' or 'V' for help and version (the program prints them),
 * or -1 for a bad argument with a message in *errstr.
 */
int pmr_common_opt(struct pmr_common *c, int opt, const char *arg,
    const char **errstr);
/* Returns 1 if binary output would go to a terminal without --force. */
int pmr_common_tty_refused(const struct pmr_common *c);
/*
 * Returns the name of output path for messages: "stdout" for NULL or "-",
 * else the path in single quotes (a static buffer, overwritten by the next
 * call).
 */
const char *pmr_outname(const char *path);
/* Opens the output writer for the common options; see pmr_writer_open. */
struct pmr_writer *pmr_common_writer(const struct pmr_common *c,
    const char *prog, int argc, char *const argv[], int *err) PMR_RESULT_USED;

/*
 * Parses s as a decimal integer (0x-hex allowed, and the suffixes k, M, G
 * for powers of 1000) in [min, max].  Returns the value; on error returns 0
 * and sets *errstr to "invalid", "too small" or "too large".
 */
long long pmr_strtonum(const char *s, long long min, long long max,
    const char **errstr);
/* Same for the full unsigned 64-bit range (used by --seed). */
uint64_t pmr_strtou64(const char *s, const char **errstr);

/*
 * Returns a static description of a PMR_E* code; for PMR_EIO, the system's
 * text for errno as the failing call left it (call it before anything else
 * can change errno).
 */
const char *pmr_strerror(int code);

/* --- progress on a terminal (lib/progress.c) --------------------------- */

/*
 * A progress line on standard error, such as "pmsim: 12.30 M instructions,
 * 8.10 M/s, 45%, 0:07 left", redrawn four times a second by a thread that
 * reads *counter (a count the program keeps and only increases), shown only
 * when standard error is a terminal and quiet is 0.  The percentage and the
 * time left need total (0: not known).  The hot path pays nothing.
 * pmr_progress_end() stops the thread and clears the line.
 */
struct pmr_progress {
	const uint64_t *counter;
	uint64_t total;
	double t0;
	const char *prog, *unit;
	int on, shown, stop;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

void pmr_progress_start(struct pmr_progress *p, const char *prog,
    const char *unit, const uint64_t *counter, uint64_t total, int quiet);
void pmr_progress_end(struct pmr_progress *p);

#endif /* PMR_H */
