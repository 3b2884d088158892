/*
 * program.c: the program that pmtrace runs under qemu-user, found as
 * execve(2) and execvp(3) would find it: qemu-user does not search PATH,
 * and says nothing useful when it cannot run a program, so pmtrace looks
 * it up and checks it (an executable x86-64 ELF file) before it starts
 * the emulator.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace/trace.h"

/*
 * Returns 0 if path is a program qemu-x86_64 can start (an executable
 * regular file that is an x86-64 ELF file), else an errno value as
 * execve(2) would give it.
 */
static int
check_program(const char *path)
{
	unsigned char h[20];	/* ELF e_ident and e_type, e_machine */
	struct stat st;
	ssize_t n;
	int fd, e;

	if (stat(path, &st) != 0)
		return errno;
	if (!S_ISREG(st.st_mode) || access(path, X_OK) != 0)
		return EACCES;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return errno;
	n = read(fd, h, sizeof(h));
	e = errno;
	close(fd);
	if (n < 0)
		return e;
	if (n < (ssize_t)sizeof(h) || memcmp(h, "\177ELF", 4) != 0 ||
	    h[4] != 2 || h[5] != 1 || pmr_le16(h + 18) != 62)
		return ENOEXEC;	/* not ELFCLASS64, ELFDATA2LSB, EM_X86_64 */
	return 0;
}

const char *
pmr_trace_find_program(const char *prog, char *buf, size_t len, int *why)
{
	const char *path = getenv("PATH"), *p, *end;
	int e;

	if (strchr(prog, '/') != NULL) {
		if ((*why = check_program(prog)) != 0)
			return NULL;
		return prog;
	}
	if (path == NULL)
		path = "/bin:/usr/bin";	/* execvp's default */
	*why = ENOENT;
	for (p = path; *p != '\0'; p = *end ? end + 1 : end) {
		end = strchr(p, ':');
		if (end == NULL)
			end = p + strlen(p);
		if (snprintf(buf, len, "%.*s/%s", (int)(end - p),
		    end == p ? "." : p, prog) >= (int)len)
			continue;
		if ((e = check_program(buf)) == 0)
			return buf;
		if (e != ENOENT && e != ENOTDIR)
			*why = e;	/* as execvp: the last other reason */
	}
	return NULL;
}
