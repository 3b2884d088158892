/*
 * sym.c: procedure names for pairs --by=proc, from the symbol table
 * (or, in a stripped file, the dynamic symbol table) of the ELF file that
 * an IMAGE record names, read with libelf.
 *
 * An IMAGE record maps the file offset `offset` at the run-time address
 * `start`; the PT_LOAD segment holding that offset gives the link-time
 * address there, hence the bias between link-time and run-time addresses.
 * Function and untyped code symbols are kept, sorted by address; a symbol
 * of size 0 (hand-written assembly) runs to the next one.  Code that no
 * symbol holds (a stripped file, a library's static functions) gets a
 * procedure for each function its unwind table knows (.eh_frame_hdr's
 * table of FDE starts), named image+0xADDR, the link-time address, as
 * DCPI named code without symbols.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sym/sym.h"

struct sym {
	uint64_t lo, hi;	/* run-time addresses, [lo, hi) */
	char *name;
};

struct pmr_symtab {
	struct sym *s;
	size_t n;
};

static int
cmp_sym(const void *x, const void *y)
{
	const struct sym *a = x, *b = y;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return a->hi > b->hi ? -1 : a->hi < b->hi;	/* longest first */
}

/* Returns the bias run-time minus link-time address, or sets *ok = 0. */
static uint64_t
bias_of(Elf *e, uint64_t start, uint64_t offset, int *ok)
{
	size_t i, n;
	GElf_Phdr ph;

	*ok = 0;
	if (elf_getphdrnum(e, &n) != 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (gelf_getphdr(e, (int)i, &ph) == NULL || ph.p_type != PT_LOAD)
			continue;
		if (offset >= ph.p_offset && offset < ph.p_offset + ph.p_filesz) {
			*ok = 1;
			return start - (ph.p_vaddr + (offset - ph.p_offset));
		}
	}
	return 0;
}

/* Reads e's GNU build-id note into out (cap bytes); returns its length,
 * 0 if none. */
static unsigned
elf_build_id(Elf *e, unsigned char *out, unsigned cap)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		GElf_Nhdr nh;
		Elf_Data *d;
		size_t off = 0, noff, doff;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_NOTE ||
		    (d = elf_getdata(scn, NULL)) == NULL)
			continue;
		while ((off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0)
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    memcmp((char *)d->d_buf + noff, "GNU", 4) == 0 &&
			    nh.n_descsz <= cap) {
				memcpy(out, (char *)d->d_buf + doff,
				    nh.n_descsz);
				return (unsigned)nh.n_descsz;
			}
	}
	return 0;
}

unsigned
pmr_sym_build_id(const char *path, unsigned char *out, unsigned cap)
{
	Elf *e;
	unsigned n = 0;
	int fd;

	if (elf_version(EV_CURRENT) == EV_NONE ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return 0;
	if ((e = elf_begin(fd, ELF_C_READ, NULL)) != NULL) {
		if (elf_kind(e) == ELF_K_ELF)
			n = elf_build_id(e, out, cap);
		elf_end(e);
	}
	close(fd);
	return n;
}

/* Appends a symbol [lo, hi) (hi 0: to the next) called name (copied) to
 * t, of *cap entries; returns 0 or PMR_ENOMEM. */
static int
push(struct pmr_symtab *t, size_t *cap, uint64_t lo, uint64_t hi,
    const char *name)
{
	if (t->n == *cap) {
		size_t nc = *cap ? 2 * *cap : 256;
		struct sym *ns = realloc(t->s, nc * sizeof(*ns));

		if (ns == NULL)
			return PMR_ENOMEM;
		t->s = ns;
		*cap = nc;
	}
	t->s[t->n].lo = lo;
	t->s[t->n].hi = hi;
	if ((t->s[t->n].name = strdup(name)) == NULL)
		return PMR_ENOMEM;
	t->n++;
	return 0;
}

/* Appends the code symbols of section scn; returns 0 or PMR_ENOMEM. */
static int
add_syms(struct pmr_symtab *t, size_t *cap, Elf *e, Elf_Scn *scn,
    const GElf_Shdr *sh, uint64_t bias)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t i, n;
	GElf_Sym s;
	const char *name;

	if (d == NULL || sh->sh_entsize == 0)
		return 0;
	n = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < n; i++) {
		int type;

		if (gelf_getsym(d, (int)i, &s) == NULL)
			continue;
		type = GELF_ST_TYPE(s.st_info);
		if ((type != STT_FUNC && type != STT_NOTYPE) ||
		    s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE ||
		    s.st_value == 0)
			continue;
		name = elf_strptr(e, sh->sh_link, s.st_name);
		if (name == NULL || name[0] == '\0' || name[0] == '$')
			continue;
		if (push(t, cap, s.st_value + bias, s.st_size ? s.st_value +
		    bias + s.st_size : 0, name) != 0)
			return PMR_ENOMEM;
	}
	return 0;
}

/* Reads a pointer of .eh_frame_hdr encoded as enc (DWARF's DW_EH_PE_*:
 * 2, 4 or 8 bytes, signed or not, absolute, pc- or section-relative);
 * returns 0, or -1 for an encoding it does not know or the end. */
static int
eh_read(const unsigned char *p, size_t n, size_t *off, unsigned enc,
    uint64_t secaddr, uint64_t *out)
{
	uint64_t v = 0, here = secaddr + *off;
	size_t sz, i;

	switch (enc & 0x0f) {
	case 0x00: case 0x04: case 0x0c:
		sz = 8;
		break;
	case 0x03: case 0x0b:
		sz = 4;
		break;
	case 0x02: case 0x0a:
		sz = 2;
		break;
	default:
		return -1;
	}
	if (*off + sz > n)
		return -1;
	for (i = sz; i-- > 0;)
		v = v << 8 | p[*off + i];
	if ((enc & 0x08) && sz < 8 && (v >> (8 * sz - 1)) & 1)
		v |= ~0ull << (8 * sz);		/* sign */
	switch (enc & 0x70) {
	case 0x00:
		break;
	case 0x10:
		v += here;
		break;
	case 0x30:
		v += secaddr;
		break;
	default:
		return -1;
	}
	*off += sz;
	*out = v;
	return 0;
}

/* Returns the number of symbols of t (sorted) that start at or below pc:
 * the last of them is the one that may hold pc. */
static size_t
upto(const struct pmr_symtab *t, uint64_t pc)
{
	size_t a = 0, b = t->n;

	while (a < b) {
		size_t m = (a + b) / 2;

		if (t->s[m].lo <= pc)
			a = m + 1;
		else
			b = m;
	}
	return a;
}

/* Returns 1 if a symbol of t (sorted) holds pc or starts there. */
static int
covered(const struct pmr_symtab *t, uint64_t pc)
{
	size_t a = upto(t, pc);

	return a > 0 && (t->s[a - 1].lo == pc || pc < t->s[a - 1].hi);
}

/*
 * Adds a symbol "base+0xADDR" for each start of a function in the
 * .eh_frame_hdr table of e that no symbol of t (sorted) holds.  Returns
 * 0 (also when there is no table) or PMR_ENOMEM.
 */
static int
fde_syms(struct pmr_symtab *t, size_t *cap, Elf *e, uint64_t bias,
    const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	unsigned char *p;
	Elf_Scn *scn = NULL;
	Elf_Data *d;
	GElf_Shdr sh;
	GElf_Ehdr eh;
	size_t shstr, n, off = 4, i;
	uint64_t ehp, count, loc, fde;
	const char *name;
	char buf[300];

	if (gelf_getehdr(e, &eh) == NULL || eh.e_ident[EI_DATA] !=
	    ELFDATA2LSB || elf_getshdrstrndx(e, &shstr) != 0)
		return 0;
	while ((scn = elf_nextscn(e, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) != NULL && (name = elf_strptr(e,
		    shstr, sh.sh_name)) != NULL &&
		    strcmp(name, ".eh_frame_hdr") == 0)
			break;
	if (scn == NULL || sh.sh_type == SHT_NOBITS ||
	    (d = elf_getdata(scn, NULL)) == NULL || d->d_buf == NULL)
		return 0;
	p = d->d_buf;
	n = d->d_size;
	if (n < 4 || p[0] != 1 || p[3] == 0xff ||
	    eh_read(p, n, &off, p[1], sh.sh_addr, &ehp) != 0 ||
	    eh_read(p, n, &off, p[2], sh.sh_addr, &count) != 0)
		return 0;
	for (i = 0; i < count; i++) {
		if (eh_read(p, n, &off, p[3], sh.sh_addr, &loc) != 0 ||
		    eh_read(p, n, &off, p[3], sh.sh_addr, &fde) != 0)
			break;
		if (loc == 0 || covered(t, loc + bias))
			continue;
		snprintf(buf, sizeof(buf), "%s+0x%llx", base,
		    (unsigned long long)loc);
		if (push(t, cap, loc + bias, 0, buf) != 0)
			return PMR_ENOMEM;
	}
	return 0;
}

void
pmr_symtab_free(struct pmr_symtab *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->n; i++)
		free(t->s[i].name);
	free(t->s);
	free(t);
}

int
pmr_sym_open(const char *path, const char *root, const unsigned char *bid,
    size_t nbid, int *fdp)
{
	struct stat sb;
	char buf[4096];
	Elf *e;
	int fd, rc = 0;

	*fdp = -1;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return PMR_EFORMAT;
	/* a recorded absolute path is looked up under root (as perf's and
	 * gdb's sysroot), so that another machine's binaries can be found */
	if (root != NULL && path[0] == '/') {
		if ((size_t)snprintf(buf, sizeof(buf), "%s%s", root, path) >=
		    sizeof(buf)) {
			errno = ENAMETOOLONG;
			return PMR_EIO;
		}
		path = buf;
	}
	/* The path comes from the stream: a FIFO would block open() and
	 * read(), a device would be read forever, so only a regular file is
	 * read (O_NONBLOCK keeps the open of a FIFO from waiting). */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return PMR_EIO;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return PMR_ENOTREG;
	}
	if ((e = elf_begin(fd, ELF_C_READ, NULL)) == NULL ||
	    elf_kind(e) != ELF_K_ELF)
		rc = PMR_EFORMAT;
	else if (nbid > 0) {
		/* another build at the recorded path names the wrong code */
		unsigned char id[64];
		unsigned n = elf_build_id(e, id, sizeof(id));

		if (n > 0 && (n != nbid || memcmp(id, bid, n) != 0))
			rc = PMR_EBUILDID;
	}
	if (e != NULL)
		elf_end(e);
	if (rc != 0) {
		close(fd);
		return rc;
	}
	*fdp = fd;
	return 0;
}

/*
 * Adds the function symbols of the separate debug file of build-id bid,
 * /usr/lib/debug/.build-id/xx/rest.debug (under root), if there is one:
 * its addresses are the stripped file's, so the same bias applies.
 * Returns 0 (also when there is none) or PMR_ENOMEM.
 */
static int
debug_syms(struct pmr_symtab *t, size_t *cap, const char *root,
    const unsigned char *bid, size_t nbid, uint64_t bias)
{
	char path[256];
	size_t i, len;
	Elf *e;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	int fd, rc = 0;

	if (nbid < 2 || nbid > 64)
		return 0;
	len = (size_t)snprintf(path, sizeof(path),
	    "/usr/lib/debug/.build-id/%02x/", bid[0]);
	for (i = 1; i < nbid; i++)
		len += (size_t)snprintf(path + len, sizeof(path) - len, "%02x",
		    bid[i]);
	snprintf(path + len, sizeof(path) - len, ".debug");
	if (pmr_sym_open(path, root, bid, nbid, &fd) != 0)
		return 0;
	if ((e = elf_begin(fd, ELF_C_READ, NULL)) != NULL) {
		while (rc == 0 && (scn = elf_nextscn(e, scn)) != NULL)
			if (gelf_getshdr(scn, &sh) != NULL &&
			    sh.sh_type == SHT_SYMTAB)
				rc = add_syms(t, cap, e, scn, &sh, bias);
		elf_end(e);
	}
	close(fd);
	return rc == PMR_ENOMEM ? rc : 0;
}

int
pmr_symtab_load(const char *path, const char *root, uint64_t start,
    uint64_t size, uint64_t offset, const unsigned char *bid, size_t nbid,
    struct pmr_symtab **out)
{
	struct pmr_symtab *t;
	Elf *e = NULL;
	Elf_Scn *scn;
	GElf_Shdr sh;
	size_t cap = 0, i, j;
	uint64_t bias;
	int fd, ok, rc, pass;

	*out = NULL;
	if ((rc = pmr_sym_open(path, root, bid, nbid, &fd)) != 0)
		return rc;
	rc = PMR_EFORMAT;
	if ((t = calloc(1, sizeof(*t))) == NULL) {
		close(fd);
		return PMR_ENOMEM;
	}
	if ((e = elf_begin(fd, ELF_C_READ, NULL)) == NULL)
		goto out;
	bias = bias_of(e, start, offset, &ok);
	if (!ok)
		goto out;
	/* the full symbol table if there is one, else that of the separate
	 * debug file (a Debian -dbgsym package), else the dynamic one */
	for (pass = 0; pass < 2 && t->n == 0; pass++) {
		if (pass == 1 && (rc = debug_syms(t, &cap, root, bid, nbid,
		    bias)) != 0)
			goto out;
		if (pass == 1 && t->n > 0)
			break;
		scn = NULL;
		while ((scn = elf_nextscn(e, scn)) != NULL) {
			if (gelf_getshdr(scn, &sh) == NULL ||
			    sh.sh_type != (pass == 0 ? SHT_SYMTAB : SHT_DYNSYM))
				continue;
			if ((rc = add_syms(t, &cap, e, scn, &sh, bias)) != 0)
				goto out;
		}
	}
	if (t->n > 1)	/* t->s is NULL when there is no symbol */
		qsort(t->s, t->n, sizeof(*t->s), cmp_sym);
	/* the functions the unwind table knows that no symbol names (with
	 * the symbols' extents as they are: a size-0 symbol holds nothing
	 * yet, so a function after it gets its own) */
	for (i = 0; i < t->n; i++)
		t->s[i].hi = t->s[i].hi ? t->s[i].hi : t->s[i].lo + 1;
	j = t->n;
	if ((rc = fde_syms(t, &cap, e, bias, path)) != 0)
		goto out;
	for (i = 0; i < j; i++)
		if (t->s[i].hi == t->s[i].lo + 1)
			t->s[i].hi = 0;
	if (t->n > j)
		qsort(t->s, t->n, sizeof(*t->s), cmp_sym);
	/* drop aliases (same start), then close symbols of size 0 */
	for (i = j = 0; i < t->n; i++) {
		if (j > 0 && t->s[j - 1].lo == t->s[i].lo) {
			free(t->s[i].name);
			continue;
		}
		t->s[j++] = t->s[i];
	}
	t->n = j;
	for (i = 0; i < t->n; i++)
		if (t->s[i].hi == 0)
			t->s[i].hi = i + 1 < t->n ? t->s[i + 1].lo : start + size;
	rc = 0;
out:
	if (e != NULL)
		elf_end(e);
	close(fd);
	if (rc != 0) {
		pmr_symtab_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

const char *
pmr_sym_strerror(int rc)
{
	switch (rc) {
	case PMR_EIO:
		return strerror(errno);
	case PMR_ENOTREG:
		return "not a regular file";
	case PMR_EBUILDID:
		return "another build than the traced one: build-ids differ";
	case PMR_EAMBIG:
		return "another file or build was mapped at the same addresses "
		    "(in another run): a pc there has no one name";
	default:
		return "not a loaded ELF file";
	}
}

int
pmr_symtab_range(const struct pmr_symtab *t, const char *name,
    uint64_t *lo, uint64_t *hi)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (strcmp(t->s[i].name, name) == 0) {
			*lo = t->s[i].lo;
			*hi = t->s[i].hi;
			return 1;
		}
	return 0;
}

const char *
pmr_symtab_find(const struct pmr_symtab *t, uint64_t pc, uint64_t *lo)
{
	uint64_t hi;

	return pmr_symtab_span(t, pc, lo, &hi);
}

const char *
pmr_symtab_span(const struct pmr_symtab *t, uint64_t pc, uint64_t *lo,
    uint64_t *hi)
{
	size_t a = upto(t, pc);

	if (a == 0 || pc >= t->s[a - 1].hi)
		return NULL;
	*lo = t->s[a - 1].lo;
	*hi = t->s[a - 1].hi;
	return t->s[a - 1].name;
}
