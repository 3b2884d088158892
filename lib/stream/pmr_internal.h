/*
 * pmr_internal.h: interfaces shared between libpmr's own files, not part of
 * the public API in pmr.h.
 *
 * struct pmr_in is the byte layer under every reader: it reads a file, a
 * descriptor or memory and transparently decompresses zstd, xz and gzip,
 * re-detecting the codec at each segment boundary so that concatenations of
 * differently compressed pieces read as one byte sequence.  Trace readers
 * for formats without a magic (ChampSim) use it directly.
 */
#ifndef PMR_INTERNAL_H
#define PMR_INTERNAL_H

#include <sys/types.h>

#include "stream/pmr.h"

struct pmr_in;

/*
 * Opens path ("-" or NULL: stdin) as a byte source.  Returns NULL with *err
 * set (PMR_EIO with errno preserved, PMR_ENOMEM).  Caller closes.
 */
struct pmr_in *pmr_in_open(const char *path, int *err);
/* Opens the descriptor fd (taken over: closed by pmr_in_close). */
struct pmr_in *pmr_in_fdopen(int fd, int *err);
/* Opens len bytes at buf (not copied) as a byte source. */
struct pmr_in *pmr_in_open_mem(const void *buf, size_t len, int *err);
/*
 * Makes at least want decoded bytes available contiguously and returns a
 * pointer to them with *avail set to what is buffered (>= want unless the
 * input ends first; then *avail is what remains, maybe 0).  want must be at
 * most PMR_REC_MAX + 16.  Returns NULL on error (message in pmr_in_errmsg()
 * and the code in *err).
 */
const unsigned char *pmr_in_peek(struct pmr_in *in, size_t want,
    size_t *avail, int *err);
/* Consumes n bytes of what pmr_in_peek() made available. */
void pmr_in_skip(struct pmr_in *in, size_t n);
/*
 * Marks a possible segment boundary (the reader calls it after an END
 * record): the next byte is examined for a compression magic again, so that
 * "cat a.pmr b.pmr.zst" reads as two streams.
 */
void pmr_in_resync(struct pmr_in *in);
/* Returns the decoded offset of the next byte. */
uint64_t pmr_in_offset(const struct pmr_in *in);
/* Returns compressed bytes consumed from the file. */
uint64_t pmr_in_rawbytes(const struct pmr_in *in);
enum pmr_codec pmr_in_codec(const struct pmr_in *in);
const char *pmr_in_errmsg(const struct pmr_in *in);
void pmr_in_close(struct pmr_in *in);

/* Field-table codec (fields.c). */
/* Returns the payload bytes a record of t needs at the least. */
size_t pmr_rtype_minlen(const struct pmr_rtype *t);
/* Decodes len bytes at p into out; see pmr_rec_decode(). */
int pmr_fields_decode(const struct pmr_rtype *t, const unsigned char *p,
    size_t len, void *out, const char **why);
/* Returns the encoded size of the struct at in. */
size_t pmr_fields_size(const struct pmr_rtype *t, const void *in);
/* Encodes the struct at in into p (pmr_fields_size() bytes). */
void pmr_fields_encode(const struct pmr_rtype *t, const void *in,
    unsigned char *p);

/* Formats a message into buf; used by readers and writers for errmsg. */
void pmr_msg(char *buf, size_t len, const char *fmt, ...) PMR_FORMAT(3, 4);

#endif /* PMR_INTERNAL_H */
