# pmtools — GNU Makefile.
#
#   make            build lib/libpmr.a and the programs in cmd/
#   make check      install missing Debian packages (make deps), build, run
#                   every test layer (unit, bats, man EXAMPLES, examples/)
#   make check SAN=1   the same under AddressSanitizer + UBSan
#   make check-cluster   the experiments' pmsim runs through srun on a
#                   private single-node Slurm equal local runs byte for byte
#   make demo       the main job on a bundled trace
#   make bench      benchmarks, printing figures
#   make -j2 icost-multisim   icost's graph against multisim, every trace
#   make -j2 shotgun-eval     shotgun against the graph and multisim
#   make -j2 sampler-eval     every sampler against the time oracle
#   make -j2 dcpi-eval        DCPI's stall analysis against the truth
#   make -j2 reproduce        every part, and examples/out/RESULTS.md
#   make fuzz       each libFuzzer target for FUZZ_SECONDS [60]
#   make fuzz-syntax   what make fuzz compiles, through clang's front end
#   make lint-man   mandoc -Tlint on every man page; fails on any message
#   make install / uninstall   honour PREFIX, BINDIR, MANDIR, DESTDIR
#
# Build products live beside their sources (cmd/NAME, lib/libpmr.a,
# tests/unit/test_*); a SAN=1 build puts objects under the suffix .san and
# programs in san/ subdirectories (cmd/san/NAME), so that both builds
# coexist and the programs keep their names in messages.

PREFIX ?= /usr/local
prefix ?= $(PREFIX)
BINDIR ?= $(prefix)/bin
LIBEXECDIR ?= $(prefix)/lib/pmtools
MANDIR ?= $(prefix)/share/man
DESTDIR ?=

CC ?= cc
CFLAGS ?= -O2 -g -Wall -Wextra
PKG_CONFIG ?= pkg-config
PKGS = libzstd liblzma zlib libelf capstone libzip sqlite3

# Warnings are errors in CI (CI=true) or with WERROR=1.
ifeq ($(CI),true)
WERROR ?= 1
endif
ifeq ($(WERROR),1)
WFLAGS = -Werror
endif

ifeq ($(SAN),1)
S = .san
D = san/
SANFLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
endif

PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
ifeq ($(PKG_LIBS),)
PKG_LIBS = -lzstd -llzma -lz -lelf -lcapstone -lzip -lsqlite3
endif

ALL_CPPFLAGS = -Ilib -D_GNU_SOURCE $(PKG_CFLAGS) $(CPPFLAGS)
ALL_CFLAGS = -std=gnu11 -pthread -MMD -MP $(CFLAGS) $(WFLAGS) $(SANFLAGS)
# The simulator is one file per pipeline stage (lib/sim/); link-time
# optimization inlines across those files, so the split costs nothing (it
# cost 14% of the instructions without).  SIM_LTO= turns it off (a
# compiler without LTO); the archive then needs no plugin-aware ar.
SIM_LTO ?= -flto=auto
ifneq ($(SIM_LTO),)
AR = gcc-ar
endif
ALL_LDFLAGS = -pthread $(SANFLAGS) $(SIM_LTO) $(LDFLAGS)
ALL_LIBS = $(PKG_LIBS) -lm $(LIBS)

# The QEMU plugin is built on its own as a shared object (see below).
PLUGIN_SRC = lib/trace/qemu_plugin.c
LIB_SRCS := $(filter-out $(PLUGIN_SRC),$(sort $(wildcard lib/*/*.c)))
LIB_OBJS := $(LIB_SRCS:.c=$(S).o)
LIBPMR := lib/libpmr$(S).a

PROGS := $(basename $(notdir $(wildcard cmd/*.c)))
PROG_BINS := $(addprefix cmd/$(D),$(PROGS))
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(addprefix tests/unit/$(D),$(basename $(notdir $(UNIT_SRCS))))
MANPAGES := $(sort $(wildcard man/*.[1-9]))
BENCH_SRCS := $(wildcard tests/bench/*.c)
BENCH_BINS := $(addprefix tests/bench/$(D),$(basename $(notdir $(BENCH_SRCS))))

# Debian packages the project needs, installed by "make deps" when missing.
DEB_PKGS = gcc make pkg-config libzstd-dev liblzma-dev zlib1g-dev \
	libelf-dev libcapstone-dev libzip-dev libsqlite3-dev zstd xz-utils gzip \
	bats mandoc qemu-user gnuplot-nox clang valgrind jq sqlite3 python3 \
	bsdextrautils protobuf-compiler libc6-dbg slurm-wlm munge

# Header dependencies come from the compiler (-MMD -MP: a .d file beside
# each object and program).
.PHONY: all check test lint-man regen clean deps demo \
	bench fuzz fuzz-syntax install uninstall icost-multisim shotgun-eval sampler-eval \
	dcpi-eval reproduce check-cluster check-reproduce

PLUGIN := cmd/$(D)pmtrace-plugin.so

all: $(LIBPMR) $(PROG_BINS) $(UNIT_BINS) $(PLUGIN)

lib/%$(S).o: lib/%.c Makefile
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

lib/sim/%$(S).o: lib/sim/%.c Makefile
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(SIM_LTO) -c -o $@ $<

# icost's readers hand each GNODE record to the graph; link-time
# optimization inlines its decoding (lib/sim) into their loop, as when they
# lived in cmd/icost.c.
lib/icost/input$(S).o: lib/icost/input.c Makefile
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(SIM_LTO) -c -o $@ $<

# The graph's lanes are loops the compiler vectorizes at -O3 (with a clone
# per vector width); 1.7x faster than -O2.
lib/icost/graph$(S).o: lib/icost/graph.c Makefile
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -O3 -c -o $@ $<

$(LIBPMR): $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

cmd/$(D)%: cmd/%.c $(LIBPMR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIBPMR) $(ALL_LIBS)

# pmtrace looks for its plugin beside itself, then in LIBEXECDIR.
cmd/$(D)pmtrace: ALL_CPPFLAGS += -DPMTRACE_PLUGIN_DIR='"$(LIBEXECDIR)"'

# The TCG plugin that qemu-x86_64 loads: never sanitized (qemu loads it).
$(PLUGIN): $(PLUGIN_SRC) lib/trace/trace.h
	@mkdir -p $(@D)
	$(CC) -std=gnu11 $(CFLAGS) $(WFLAGS) -fPIC -shared -DPMR_QEMU_PLUGIN \
		-Ilib -o $@ $<

tests/bench/$(D)%: tests/bench/%.c $(LIBPMR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIBPMR) $(ALL_LIBS)

tests/unit/$(D)%: tests/unit/%.c $(LIBPMR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIBPMR) $(ALL_LIBS)

# deps: install what is missing (root, or sudo when available), and index
# the system's manuals when mandoc's database lacks pages ours refer to
# (cat(1), zstd(1)...), so that "mandoc -Tlint" checks those references.
deps:
	@missing=""; for p in $(DEB_PKGS); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
		grep -q '^install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "make deps: installing$$missing"; \
		sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		$$sudo apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq \
			--no-install-recommends $$missing; \
	fi; \
	if mandoc -Tlint $(MANPAGES) 2>&1 | grep -q 'outdated mandoc.db'; then \
		echo "make deps: indexing the system manuals for mandoc"; \
		sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		$$sudo makewhatis /usr/share/man; \
	fi

# check: every test layer, through one prove run so that CI reads one
# summary.  A skipped test is a failure.
PROVE_JOBS ?= 2
check: deps
	$(MAKE) all lint-man
	@$(MAKE) --no-print-directory test

test: all
	@rm -f tests/.prove.log
	@PM_SAN=$(SAN) PM_TOP=$(CURDIR) prove -j$(PROVE_JOBS) \
		--exec tests/run-test $(UNIT_SRCS) $(sort $(wildcard tests/*.bats)) \
		2>&1 | tee tests/.prove.log; \
	status=$${PIPESTATUS[0]}; \
	if grep -E '^ok .*# (skip|SKIP)' tests/.prove.log >/dev/null || \
	   grep -E 'skipped: [1-9]' tests/.prove.log >/dev/null; then \
		echo "make check: skipped tests count as failures"; exit 1; \
	fi; \
	rm -f tests/.prove.log; exit $$status
SHELL = /bin/bash

# check-cluster: the RUN prefix of the experiment makefiles through a real
# Slurm.  tests/cluster/slurm starts a private single-node cluster (munged,
# slurmctld, slurmd, as root, in a temporary directory) and stops it after;
# tests/cluster/check runs examples/samplers.mk with RUN='srun -N1 -n1' and
# a stream merge through srun, and both must equal local runs byte for byte.
# A cluster that does not start is a failure.
check-cluster: deps
	$(MAKE) all
	@PM_SAN=$(SAN) PM_TOP=$(CURDIR) tests/cluster/slurm run tests/cluster/check

lint-man: deps
	@tests/lint-man $(MANPAGES)

regen: all
	PM_SAN=$(SAN) PM_TOP=$(CURDIR) tests/regen

demo: deps all
	@bash examples/demo.sh

# The interaction-cost paper's validation (icost(1), VALIDATION): the graph
# against multisim on every bundled trace, into examples/out/icost-multisim/; make -j2
# icost-multisim runs the pmsim runs in parallel.  MAX, TRACES, OUT as in
# examples/icost-multisim.mk.
icost-multisim: all
	@$(MAKE) --no-print-directory -f examples/icost-multisim.mk \
		PMSIM=$(CURDIR)/cmd/$(D)pmsim ICOST=$(CURDIR)/cmd/$(D)icost \
		TOP=$(CURDIR)

# Shotgun profiling's validation (shotgun(1), VALIDATION): its fragments
# against the full graph and multisim on every bundled trace, the pc
# inference, the error as the fragments grow, into examples/out/shotgun/.  MAX,
# WARMUP, TRACES, SEEDS, OUT as in examples/shotgun.mk.
shotgun-eval: all
	@$(MAKE) --no-print-directory -f examples/shotgun.mk \
		PMSIM=$(CURDIR)/cmd/$(D)pmsim ICOST=$(CURDIR)/cmd/$(D)icost \
		SHOTGUN=$(CURDIR)/cmd/$(D)shotgun TOP=$(CURDIR)

# Every paper's headline results beside the papers' numbers, into
# examples/out/ and examples/out/RESULTS.md (examples/reproduce.mk):
# make -j2 reproduce; RUN='srun -N1 -n1' sends the simulations to Slurm.
reproduce: all
	@$(MAKE) --no-print-directory -f examples/reproduce.mk \
		TOP=$(CURDIR) BIN=$(CURDIR)/cmd RUN='$(RUN)'

# reproduce, and fail if RESULTS.md lists any part as missing (CI)
check-reproduce: reproduce
	@if grep -n '(missing:' examples/out/RESULTS.md; then \
		echo "check-reproduce: RESULTS.md has missing parts" >&2; \
		exit 1; fi
	@echo "check-reproduce: every part in examples/out/RESULTS.md"

# DCPI's stall analysis scored against the truth (pmprof(1), STALL
# ANALYSIS): pmprof calc on every bundled trace on the in-order alpha21164,
# into examples/out/dcpicalc/.  MAX, S, SEEDS, TRACES, OUT as in
# examples/dcpicalc.mk.
dcpi-eval: all
	@$(MAKE) --no-print-directory -f examples/dcpicalc.mk \
		PMSIM=$(CURDIR)/cmd/$(D)pmsim PMPROF=$(CURDIR)/cmd/$(D)pmprof \
		PMTRACE=$(CURDIR)/cmd/$(D)pmtrace TOP=$(CURDIR)

# Which sampler tells the truth (pmprof(1), SAMPLERS): every sampler at
# equal sample counts against the time-proportional oracle, on every
# bundled trace, into examples/out/samplers/.  MAX, N, TRACES, OUT as in
# examples/samplers.mk.
sampler-eval: all
	@$(MAKE) --no-print-directory -f examples/samplers.mk \
		PMSIM=$(CURDIR)/cmd/$(D)pmsim PMPROF=$(CURDIR)/cmd/$(D)pmprof \
		PMVIEW=$(CURDIR)/cmd/$(D)pmview TOP=$(CURDIR)

bench: all $(BENCH_BINS)
	@for b in tests/bench/*.sh; do PM_TOP=$(CURDIR) bash $$b || exit 1; done

FUZZ_SECONDS ?= 60
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_CC = clang -std=gnu11 $(ALL_CPPFLAGS)
# what make fuzz compiles, through clang's front end only (a test runs it:
# nothing else builds with clang)
fuzz-syntax:
	@for f in $(LIB_SRCS) $(FUZZ_SRCS); do \
		$(FUZZ_CC) -fsyntax-only $$f || { echo "fuzz-syntax: $$f" >&2; \
		exit 1; }; \
	done
# the graph and sample targets start from small streams of pmsim's (a
# mutated header or record is far from a valid graph)
FUZZ_TRACE := traces/gzip.pmr.zst
fuzz: deps all
	@mkdir -p tests/fuzz/corpus/fuzz_icost tests/fuzz/corpus/fuzz_shotgun
	@c=tests/fuzz/corpus; \
	cmd/pmsim -q -m fields03 --graph --max 300 \
		-o $$c/fuzz_icost/seed-graph.pmr $(FUZZ_TRACE) && \
	cmd/pmsim -q -m fields03 --graph --max 100 -O rob=16 \
		-o $$c/fuzz_icost/seed-rob16.pmr $(FUZZ_TRACE) && \
	cmd/icost -f pmr -c dl1,win,bmisp $$c/fuzz_icost/seed-graph.pmr \
		> $$c/fuzz_icost/seed-cost.pmr && \
	cmd/pmsim -q -m fields03 --shotgun=sig=100,len=100,det=5 \
		--max 3000 -o $$c/fuzz_shotgun/seed-samples.pmr \
		$(FUZZ_TRACE) || exit 1
	@for f in $(FUZZ_SRCS); do \
		n=$$(basename $$f .c); \
		$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined \
			-o tests/fuzz/$$n $$f $(LIB_SRCS) \
			$(ALL_LIBS) || exit 1; \
		mkdir -p tests/fuzz/corpus/$$n; \
		echo "fuzz: $$n for $(FUZZ_SECONDS) s"; \
		tests/fuzz/$$n -max_total_time=$(FUZZ_SECONDS) \
			-artifact_prefix=tests/fuzz/$$n- \
			-max_len=65536 tests/fuzz/corpus/$$n tests/data || exit 1; \
	done

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7
	install -m 755 $(PROG_BINS) $(DESTDIR)$(BINDIR)/
	install -d $(DESTDIR)$(LIBEXECDIR)
	install -m 644 $(PLUGIN) $(DESTDIR)$(LIBEXECDIR)/
	for m in $(MANPAGES); do \
		s=$${m##*.}; install -m 644 $$m $(DESTDIR)$(MANDIR)/man$$s/; \
	done

uninstall:
	for p in $(PROGS); do rm -f $(DESTDIR)$(BINDIR)/$$p; done
	rm -f $(DESTDIR)$(LIBEXECDIR)/pmtrace-plugin.so
	-rmdir $(DESTDIR)$(LIBEXECDIR) 2>/dev/null
	for m in $(notdir $(MANPAGES)); do \
		s=$${m##*.}; rm -f $(DESTDIR)$(MANDIR)/man$$s/$$m; \
	done

clean:
	rm -f lib/*/*.o lib/*/*.d lib/*.a $(addprefix cmd/,$(PROGS)) cmd/*.so \
		cmd/*.d $(UNIT_SRCS:.c=) tests/unit/*.d tests/.prove.log \
		$(BENCH_SRCS:.c=) tests/bench/*.d
	rm -rf cmd/san tests/unit/san tests/bench/san
	rm -rf $(FUZZ_SRCS:.c=) tests/fuzz/corpus

-include $(wildcard lib/*/*.d cmd/*.d cmd/san/*.d tests/unit/*.d tests/unit/san/*.d \
	tests/bench/*.d tests/bench/san/*.d)
