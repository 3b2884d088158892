/*
 * trace_qemu_plugin.c: the QEMU TCG plugin behind "pmtrace -- program".
 *
 * Built only as a shared object (with -DPMR_QEMU_PLUGIN -fPIC -shared);
 * inside libpmr.a this file is empty.  qemu-x86_64 loads it with
 * "-plugin pmtrace-plugin.so,fd=N[,skip=S][,max=M]".  At translation it
 * sends each instruction's bytes once; at execution, one event per
 * executed instruction and per memory access (with the loaded value for
 * loads up to 8 bytes), and a copy of /proc/self/maps at the first
 * translation and after every mmap, all through the pipe fd N to pmtrace, which decodes them
 * (lib/trace/qemu.c).  The pipe protocol, little-endian:
 *
 *	'I' u32 handle, u64 pc, u8 len, len bytes	an instruction translated
 *	'X' u32 handle					it executes
 *	'L' u64 addr, u8 size, u64 value		a load (value valid)
 *	'l' u64 addr, u8 size				a load (no value)
 *	'S' u64 addr, u8 size				a store
 *	'M' u32 len, len bytes				/proc/self/maps
 *	'T' u32 vcpu					a second thread: refused
 *	'E'						end (skip/max reached)
 *
 * Debian ships no qemu-plugin.h, so the few API functions used are
 * declared here from the QEMU 7.2 plugin documentation (API version 1),
 * and the version QEMU reports is checked at load.  Load values are read
 * at the guest address, which is the host address when QEMU's guest_base
 * is 0 (the usual case for x86-64 on x86-64); the plugin checks that on
 * the first instruction and records no values otherwise.  Only the
 * process pmtrace started is traced: a forked child sends nothing, and a
 * program it execs runs natively, outside QEMU.
 */
#ifdef PMR_QEMU_PLUGIN

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --- QEMU plugin API, version 1 (QEMU 7.2) ----------------------------- */

#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))
#define QEMU_PLUGIN_VERSION 1

typedef uint64_t qemu_plugin_id_t;
typedef uint32_t qemu_plugin_meminfo_t;

typedef struct qemu_info_t {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;

struct qemu_plugin_tb;
struct qemu_plugin_insn;

enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS
};

enum qemu_plugin_mem_rw {
	QEMU_PLUGIN_MEM_R = 1,
	QEMU_PLUGIN_MEM_W,
	QEMU_PLUGIN_MEM_RW
};

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t, void *);
typedef void (*qemu_plugin_vcpu_simple_cb_t)(qemu_plugin_id_t, unsigned);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned, void *);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t,
    struct qemu_plugin_tb *);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned, qemu_plugin_meminfo_t,
    uint64_t, void *);
typedef void (*qemu_plugin_vcpu_syscall_ret_cb_t)(qemu_plugin_id_t, unsigned,
    int64_t, int64_t);

QEMU_PLUGIN_EXPORT extern int qemu_plugin_version;
QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t,
    const qemu_info_t *, int, char **);

void qemu_plugin_register_vcpu_init_cb(qemu_plugin_id_t,
    qemu_plugin_vcpu_simple_cb_t);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t,
    qemu_plugin_vcpu_tb_trans_cb_t);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *,
    qemu_plugin_vcpu_udata_cb_t, enum qemu_plugin_cb_flags, void *);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *,
    qemu_plugin_vcpu_mem_cb_t, enum qemu_plugin_cb_flags,
    enum qemu_plugin_mem_rw, void *);
void qemu_plugin_register_vcpu_syscall_ret_cb(qemu_plugin_id_t,
    qemu_plugin_vcpu_syscall_ret_cb_t);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t, qemu_plugin_udata_cb_t,
    void *);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *,
    size_t);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *);
void *qemu_plugin_insn_haddr(const struct qemu_plugin_insn *);
unsigned qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t);
void qemu_plugin_outs(const char *);

/* --- the plugin ---------------------------------------------------------- */

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define OBUF (1u << 20)
#define SYS_MMAP 9

static int out_fd = -1;
static unsigned char obuf[OBUF];
static size_t olen;
static uint32_t next_handle;
static uint64_t nexec, skip, max = UINT64_MAX;
static int recording = 1, ended, values = -1, refused;
static pid_t my_pid;

static void
flush_out(void)
{
	size_t off = 0;
	ssize_t n;

	if (out_fd >= 0 && getpid() != my_pid) {
		out_fd = -1;	/* a forked child: only the parent is traced */
		recording = 0;
	}
	if (out_fd < 0) {	/* closed after 'E': pmtrace reads no more */
		olen = 0;
		return;
	}
	while (off < olen) {
		n = write(out_fd, obuf + off, olen - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(1);	/* pmtrace is gone: stop the program */
		off += (size_t)n;
	}
	olen = 0;
}

static inline unsigned char *
room(size_t n)
{
	if (olen + n > OBUF)
		flush_out();
	olen += n;
	return obuf + olen - n;
}

static inline void
put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static inline void
put64(unsigned char *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* Sends /proc/self/maps. */
static void
send_maps(void)
{
	static char buf[1 << 20];
	size_t len = 0;
	ssize_t n;
	unsigned char *p;
	int fd;

	if ((fd = open("/proc/self/maps", O_RDONLY)) < 0)
		return;
	while (len < sizeof(buf) - 64 &&
	    (n = read(fd, buf + len, sizeof(buf) - 64 - len)) > 0)
		len += (size_t)n;
	close(fd);
	p = room(5 + len);
	p[0] = 'M';
	put32(p + 1, (uint32_t)len);
	memcpy(p + 5, buf, len);
}

static void
stop(void)
{
	if (!ended) {
		*room(1) = 'E';
		ended = 1;
		flush_out();
		close(out_fd);
		out_fd = -1;
	}
	recording = 0;
}

static void
on_exec(unsigned vcpu, void *udata)
{
	unsigned char *p;

	(void)vcpu;
	if (!recording)
		return;
	if (nexec < skip) {
		nexec++;
		return;
	}
	if (nexec - skip >= max) {
		stop();
		return;
	}
	nexec++;
	p = room(5);
	p[0] = 'X';
	put32(p + 1, (uint32_t)(uintptr_t)udata);
}

static void
on_mem(unsigned vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	unsigned size = 1u << qemu_plugin_mem_size_shift(info);
	unsigned char *p;
	uint64_t v = 0;

	(void)vcpu;
	(void)udata;
	if (!recording || nexec <= skip)
		return;
	if (qemu_plugin_mem_is_store(info)) {
		p = room(10);
		p[0] = 'S';
	} else if (values == 1 && size <= 8) {
		memcpy(&v, (const void *)(uintptr_t)vaddr, size);
		p = room(18);
		p[0] = 'L';
		put64(p + 10, v);
	} else {
		p = room(10);
		p[0] = 'l';
	}
	put64(p + 1, vaddr);
	p[9] = (unsigned char)size;
}

static void
on_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	if (values < 0)	/* the guest is loaded by now */
		send_maps();
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		size_t len = qemu_plugin_insn_size(insn);
		uint64_t pc = qemu_plugin_insn_vaddr(insn);
		uint32_t h = next_handle++;
		unsigned char *p;

		if (values < 0)	/* guest_base 0: guest and host agree */
			values = qemu_plugin_insn_haddr(insn) ==
			    (void *)(uintptr_t)pc;
		if (len > 16)
			len = 16;
		p = room(14 + len);
		p[0] = 'I';
		put32(p + 1, h);
		put64(p + 5, pc);
		p[13] = (unsigned char)len;
		memcpy(p + 14, qemu_plugin_insn_data(insn), len);
		qemu_plugin_register_vcpu_insn_exec_cb(insn, on_exec,
		    QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)h);
		qemu_plugin_register_vcpu_mem_cb(insn, on_mem,
		    QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
	}
}

static void
on_vcpu_init(qemu_plugin_id_t id, unsigned vcpu)
{
	unsigned char *p;

	(void)id;
	if (vcpu == 0 || refused)
		return;
	refused = 1;
	p = room(5);
	p[0] = 'T';
	put32(p + 1, vcpu);
	flush_out();
	_exit(1);	/* pmtrace reports the refusal */
}

static void
on_syscall_ret(qemu_plugin_id_t id, unsigned vcpu, int64_t num, int64_t ret)
{
	(void)id;
	(void)vcpu;
	if (num == SYS_MMAP && ret >= 0 && recording)
		send_maps();
}

static void
on_atexit(qemu_plugin_id_t id, void *p)
{
	(void)id;
	(void)p;
	flush_out();
}

QEMU_PLUGIN_EXPORT int
qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
    char **argv)
{
	int i;

	if (info->version.cur < QEMU_PLUGIN_VERSION ||
	    info->version.min > QEMU_PLUGIN_VERSION) {
		qemu_plugin_outs("pmtrace: this QEMU's plugin API is not "
		    "version 1\n");
		return -1;
	}
	if (info->system_emulation) {
		qemu_plugin_outs("pmtrace: the plugin needs user-mode QEMU\n");
		return -1;
	}
	for (i = 0; i < argc; i++) {
		if (strncmp(argv[i], "fd=", 3) == 0)
			out_fd = atoi(argv[i] + 3);
		else if (strncmp(argv[i], "skip=", 5) == 0)
			skip = strtoull(argv[i] + 5, NULL, 10);
		else if (strncmp(argv[i], "max=", 4) == 0)
			max = strtoull(argv[i] + 4, NULL, 10);
	}
	if (out_fd < 0) {
		qemu_plugin_outs("pmtrace: plugin argument fd=N missing\n");
		return -1;
	}
	fcntl(out_fd, F_SETFD, FD_CLOEXEC);
	my_pid = getpid();
	qemu_plugin_register_vcpu_init_cb(id, on_vcpu_init);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_trans);
	qemu_plugin_register_vcpu_syscall_ret_cb(id, on_syscall_ret);
	qemu_plugin_register_atexit_cb(id, on_atexit, NULL);
	return 0;
}

#endif /* PMR_QEMU_PLUGIN */
