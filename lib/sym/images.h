/*
 * images.h: the executable images a run mapped (its IMAGE records), for
 * the programs that name or read the code behind a pc: which image holds
 * a pc, the procedure there (symbols through sym.h, loaded on demand),
 * and the instruction bytes, read from the file at the image's file
 * offset.  A file is opened once and only if it is the recorded build
 * (GNU build-id); one that is missing or another build is remembered with
 * its reason, so that a report can say why a pc has no name instead of
 * printing a wrong one.  Below lib/stream only.
 */
#ifndef PMR_IMAGES_H
#define PMR_IMAGES_H

#include <stddef.h>
#include <stdint.h>

#include "stream/pmr.h"
#include "records/records.h"

struct pmr_images;

/* One image as recorded. */
struct pmr_images_ent {
	uint64_t start, size, offset;	/* run-time range, file offset */
	char *path;
	unsigned char bid[64];		/* GNU build-id, nbid bytes */
	size_t nbid;
};

/* Returns an empty set whose files are looked up under sysroot (NULL:
 * the paths as recorded; the string is not copied), or NULL without
 * memory.  Caller frees with pmr_images_free(). */
struct pmr_images *pmr_images_new(const char *sysroot);
void pmr_images_free(struct pmr_images *s);
/* Adds an IMAGE record; one equal to an image already there (same start,
 * size, offset, path and build-id: a second run of the same program) is
 * not added again.  An image that shares addresses with another of
 * another file or build (runs of two builds) makes both ambiguous: their
 * symbols and code are refused with PMR_EAMBIG, since a pc there has no
 * one image.  Returns 0 or PMR_ENOMEM. */
int pmr_images_add(struct pmr_images *s, const struct pmr_image *im)
    PMR_RESULT_USED;
/* Returns the number of images. */
size_t pmr_images_count(const struct pmr_images *s);
/* Returns image i. */
const struct pmr_images_ent *pmr_images_get(const struct pmr_images *s,
    size_t i);
/* Returns the index of the image that maps pc (the latest added when
 * several do), or -1. */
long pmr_images_find(const struct pmr_images *s, uint64_t pc);
/*
 * Returns the name of the procedure of image i that holds pc and sets
 * its range [*lo, *hi), or NULL: no symbol there, or the image's symbols
 * could not be read (pmr_images_status() says why).  The name lives as
 * long as the set.
 */
const char *pmr_images_sym(struct pmr_images *s, size_t i, uint64_t pc,
    uint64_t *lo, uint64_t *hi);
/* Finds the procedure called name in any image; sets its image and
 * range.  Returns 1 if found, 0 if not. */
int pmr_images_proc(struct pmr_images *s, const char *name, size_t *img,
    uint64_t *lo, uint64_t *hi);
/* Returns 0 if image i's symbols were read, else the PMR_E* code of
 * pmr_symtab_load() (pmr_sym_strerror() says it); reads them if not yet
 * tried. */
int pmr_images_status(struct pmr_images *s, size_t i);
/*
 * Reads up to n bytes of image i's file at run-time address pc into buf;
 * sets *got.  Returns 0, or the code of opening the file (PMR_EIO,
 * PMR_ENOTREG, PMR_EFORMAT, PMR_EBUILDID), PMR_EAMBIG, or PMR_EINVAL when
 * pc is not in image i.
 */
int pmr_images_read(struct pmr_images *s, size_t i, uint64_t pc, void *buf,
    size_t n, size_t *got);

#endif /* PMR_IMAGES_H */
