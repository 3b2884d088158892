/*
 * sym.h: procedure symbols of the images a program mapped (the IMAGE
 * records of a trace), read with libelf, for any analysis that names
 * procedures: pairs --by=proc and --proc today.  A symbol table maps
 * run-time pcs to the function symbols of one ELF file, its load bias
 * found from the mapping's file offset.  Below lib/stream only.
 */
#ifndef PMR_SYM_H
#define PMR_SYM_H

#include <stdint.h>

#include "stream/pmr.h"

struct pmr_symtab;
/* pmr_symtab_load's answer for a path that is no regular file. */
#define PMR_ENOTREG (-100)
/* pmr_symtab_load's answer for a file of another build than recorded. */
#define PMR_EBUILDID (-101)
/* images.h's answer for an image that shares addresses with another of
 * another file or build (two runs of two builds): a pc there has no one
 * image, so no name. */
#define PMR_EAMBIG (-102)
/*
 * Reads the function symbols of the ELF file path (under root when root is
 * not NULL and path is absolute), mapped at start (size bytes from file
 * offset offset), into *out.  Only a regular file is read.  bid (nbid
 * bytes, 0: unknown) is the GNU build-id the IMAGE record holds: a file
 * whose own build-id differs is another build, whose symbols would name
 * the wrong code.  Returns 0, PMR_EIO (errno set), PMR_ENOTREG (a FIFO,
 * device or directory), PMR_EBUILDID, PMR_EFORMAT (not ELF, or offset not
 * in a loaded segment), or PMR_ENOMEM.  Caller frees with
 * pmr_symtab_free().
 */
int pmr_symtab_load(const char *path, const char *root, uint64_t start,
    uint64_t size, uint64_t offset, const unsigned char *bid, size_t nbid,
    struct pmr_symtab **out) PMR_RESULT_USED;
/*
 * Opens the ELF file path (under root when root is not NULL and path is
 * absolute) for reading into *fd: only a regular file, and not another
 * build than the GNU build-id bid (nbid bytes, 0: unknown) says.  Returns
 * 0, or PMR_EIO (errno set), PMR_ENOTREG, PMR_EFORMAT (not ELF) or
 * PMR_EBUILDID, *fd then -1.
 */
int pmr_sym_open(const char *path, const char *root, const unsigned char *bid,
    size_t nbid, int *fd) PMR_RESULT_USED;
/* Reads the GNU build-id of the ELF file at path into out (cap bytes);
 * returns its length, 0 if it has none or cannot be read. */
unsigned pmr_sym_build_id(const char *path, unsigned char *out,
    unsigned cap);
/* What a pmr_symtab_load failure means, for a message. */
const char *pmr_sym_strerror(int rc);
/* Finds the procedure called name; sets its run-time range [*lo, *hi). */
int pmr_symtab_range(const struct pmr_symtab *t, const char *name,
    uint64_t *lo, uint64_t *hi);
/* Returns the name of the symbol holding pc and sets *lo, or NULL. */
const char *pmr_symtab_find(const struct pmr_symtab *t, uint64_t pc,
    uint64_t *lo);
/* Returns the name of the symbol holding pc and sets its range [*lo, *hi),
 * or NULL. */
const char *pmr_symtab_span(const struct pmr_symtab *t, uint64_t pc,
    uint64_t *lo, uint64_t *hi);
void pmr_symtab_free(struct pmr_symtab *t);

#endif /* PMR_SYM_H */
