# examples/reproduce.mk: every paper's headline results from the bundled
# traces and programs, beside the papers' numbers, in one make run:
#
#   make -j2 reproduce                       # from the top; or
#   make -f examples/reproduce.mk -j2 TOP=$PWD BIN=$PWD/cmd
#   make -j2 reproduce RUN='srun -N1 -n1'    # simulations through Slurm
#
# Each part is a target with real file dependencies (an interrupted run
# resumes where it stopped; -j runs parts, and their simulations, in
# parallel).  Outputs go under $(OUT) (examples/out/, which git ignores),
# one folder a part, and $(OUT)/RESULTS.md puts each measured number beside
# the paper's (examples/results.sh writes it).
#
#   profileme/   pairs-convergence.sh (Fig. 3), pairs-bottleneck.sh (the
#                Fig. 7 shape), pairs-paths.sh (section 5.3's paths),
#                pairs-bootstrap.sh (interval coverage, beyond the paper)
#   multihash/   mhash-cu-reset.sh (Figs. 7, 10, 11), mhash-tables.sh
#                (Fig. 12), mhash-timeseries.sh (Fig. 13), mhash-fig14.sh
#                (Fig. 14), mhash-baselines.sh and mhash-traces.sh (the
#                error table, and software heavy hitters at equal bytes)
#   multihash-long/  mhash-traces.sh (the error table) and mhash-fig14.sh
#                (Fig. 14, edges) at 10K/1% and 1M/0.1% on traces of
#                $(LONG) instructions [200 M] of $(LONG_TRACES), made here
#                on demand into long/ (traces/Makefile): >= 20 intervals of
#                1M events each
#   profileme-long/  Fig. 3's convergence on the long gzip trace, run as
#                $(WINDOWS) pmsim windows (--skip) cat-merged into pairs:
#                100 times the samples a pc of the bundled trace gets; and
#                section 5.3's paths on $(PATHS_MAX) instructions of each
#                long trace (pairs-paths.sh, the CFG of the whole trace)
#   samplers/    samplers.mk: the TIP paper's sampler comparison
#   dcpicalc/    dcpicalc.mk: DCPI's stall analysis (Figs. 2, 4, 8, 9)
#   icost-multisim/  icost-multisim.mk: Fields et al.'s graph against
#                multisim (Tables 4 and 7)
#   icost-long/  the same on the long traces of $(LONG_TRACES): two
#                windows of $(LONG_MAX) instructions each, a quarter and
#                three quarters into the run (pmsim --skip, caches and
#                predictors warmed on what it skips), past the start-up
#                that fills the bundled traces
#   shotgun-long/  shotgun.mk on the same windows: each window's samples
#                assembled on their own, the breakdowns merged, against
#                icost-long's graph and multisim
#   shotgun/     shotgun.mk: shotgun profiling against the graph and
#                multisim, and the error as fragments grow
#
# RUN is a launcher prefix for the simulations of the make-based parts
# (srun, or "parallel --sshlogin ... --"); the shell-script parts run here.
# MAX, TRACES as in each part's makefile.

TOP ?= $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))/..
BIN ?= $(TOP)/cmd
OUT ?= examples/out
RUN ?=
# a part made by its own makefile: its recipe line starts with '+', so that
# the sub-make shares -j's job slots (make sees no $(MAKE) inside a
# variable: without it each part ran one job at a time, "jobserver
# unavailable") and make -n shows the part's own commands
SUBMAKE = $(MAKE) --no-print-directory TOP=$(TOP) RUN='$(RUN)' \
	PMSIM=$(BIN)/pmsim PMPROF=$(BIN)/pmprof PMVIEW=$(BIN)/pmview \
	PMTRACE=$(BIN)/pmtrace ICOST=$(BIN)/icost SHOTGUN=$(BIN)/shotgun
LONG ?= 200000000
LONG_TRACES ?= gzip sqlite xz
WINDOWS ?= 8
LONG_MAX ?= 2000000
PATHS_MAX ?= 20000000
# the stamps (tools.mk) of the tools $(1) of $(BIN) (those it holds), for
# the rules that run them to depend on: a tool rebuilt since makes what it
# wrote stale, not silently up to date.  A part made by its own makefile
# reruns when one of its tools changed since its table, and that makefile
# reruns what the tool made stale.  The long traces are inputs, as the
# bundled ones are: a rebuilt pmtrace does not remake them (rm -r
# $(OUT)/long does)
# the settings that change what the tools write (tools.mk)
STAMP_SETTINGS = LONG=$(LONG) WINDOWS=$(WINDOWS) LONG_MAX=$(LONG_MAX) PATHS_MAX=$(PATHS_MAX)
include $(TOP)/examples/tools.mk
tools = $(foreach t,$(1),$(call stamp,$(BIN)/$(t)))
TOOLS := $(call tools,pmsim pmprof pmview pmtrace icost shotgun pairs mhash)

PROFILEME = pairs-convergence pairs-bottleneck pairs-paths pairs-bootstrap
WIN = $(shell seq 0 $$(($(WINDOWS) - 1)))
MULTIHASH = mhash-cu-reset mhash-tables mhash-timeseries mhash-baselines \
	mhash-traces mhash-fig14

all: $(OUT)/RESULTS.md
.PHONY: all profileme profileme-long multihash multihash-long samplers \
	dcpicalc icost-multisim icost-long shotgun shotgun-long clean
.DELETE_ON_ERROR:

profileme: $(foreach s,$(PROFILEME),$(OUT)/profileme/$(s).log)
multihash: $(foreach s,$(MULTIHASH),$(OUT)/multihash/$(s).log)
multihash-long: $(OUT)/multihash-long/mhash-traces.tsv \
    $(OUT)/multihash-long/mhash-fig14.tsv
profileme-long: $(OUT)/profileme-long/summary.txt \
    $(OUT)/profileme-long/pairs-paths.log
samplers: $(OUT)/samplers/table.tsv
dcpicalc: $(OUT)/dcpicalc/table.tsv $(OUT)/dcpicalc/fig2.txt
icost-multisim: $(OUT)/icost-multisim/summary.tsv
icost-long: $(OUT)/icost-long/summary.tsv
shotgun-long: $(OUT)/shotgun-long/summary.tsv
shotgun: $(OUT)/shotgun/summary.tsv

# a script's printed output is its log; its files go beside it
$(OUT)/profileme/%.log: $(TOP)/examples/%.sh $(call tools,pmsim pairs)
	mkdir -p $(@D)
	PATH="$(BIN):$$PATH" OUT=$(@D) sh $< > $@.tmp 2>&1 || \
	    { cat $@.tmp; exit 1; }
	mv $@.tmp $@
$(OUT)/multihash/%.log: $(TOP)/examples/%.sh $(call tools,mhash)
	mkdir -p $(@D)
	PATH="$(BIN):$$PATH" OUT=$(@D) sh $< > $@.tmp 2>&1 || \
	    { cat $@.tmp; exit 1; }
	mv $@.tmp $@

# long traces of the bundled programs, pmtrace on demand
$(OUT)/long/%.pmr.zst:
	mkdir -p $(@D)
	$(RUN) $(MAKE) --no-print-directory -C $(@D) \
	    -f $(abspath $(TOP))/traces/Makefile \
	    PMTRACE=$(abspath $(BIN))/pmtrace MAX=$(LONG) MAX_$*=$(LONG) \
	    $*.pmr.zst
$(OUT)/multihash-long/mhash-traces.tsv: \
    $(foreach t,$(LONG_TRACES),$(OUT)/long/$(t).pmr.zst) $(call tools,mhash)
	mkdir -p $(@D)
	PATH="$(BIN):$$PATH" OUT=$(@D) TRACES="$(filter-out $(TOOLS),$^)" \
	    sh $(TOP)/examples/mhash-traces.sh > $(@D)/mhash-traces.log
# window i of the long gzip trace: LONG / WINDOWS instructions after
# i of them, its caches and predictors warmed on what it skips
$(OUT)/profileme-long/w%.pmr: $(OUT)/long/gzip.pmr.zst $(call tools,pmsim)
	mkdir -p $(@D)
	$(RUN) $(BIN)/pmsim -q --no-pg --skip=$$(($* * ($(LONG) / $(WINDOWS)))) \
	    --max=$$(($(LONG) / $(WINDOWS))) \
	    --profileme=single,S=100,rearm=select --truth -o $@ $<
$(OUT)/profileme-long/summary.txt: \
    $(foreach i,$(WIN),$(OUT)/profileme-long/w$(i).pmr) $(call tools,pairs)
	cat $(filter-out $(TOOLS),$^) | \
	    $(BIN)/pairs -t -q -f tsv -m retires,dcache_miss | \
	    awk '/^#truth / { print "gzip, $(LONG) instructions: " \
	        substr($$0, 2) }' > $@.tmp
	mv $@.tmp $@
$(OUT)/profileme-long/pairs-paths.log: $(TOP)/examples/pairs-paths.sh \
    $(foreach t,$(LONG_TRACES),$(OUT)/long/$(t).pmr.zst) \
    $(call tools,pmsim pairs)
	mkdir -p $(@D)
	PATH="$(BIN):$$PATH" OUT=$(@D) TRACEDIR=$(OUT)/long \
	    TRACES="$(LONG_TRACES)" MAX=$(PATHS_MAX) sh $< > $@.tmp 2>&1 || \
	    { cat $@.tmp; exit 1; }
	mv $@.tmp $@
$(OUT)/multihash-long/mhash-fig14.tsv: \
    $(foreach t,$(LONG_TRACES),$(OUT)/long/$(t).pmr.zst) $(call tools,mhash)
	mkdir -p $(@D)
	PATH="$(BIN):$$PATH" OUT=$(@D) TRACES="$(filter-out $(TOOLS),$^)" \
	    sh $(TOP)/examples/mhash-fig14.sh > $(@D)/mhash-fig14.log
$(OUT)/samplers/table.tsv: $(call tools,pmsim pmprof pmview)
	+$(SUBMAKE) -f $(TOP)/examples/samplers.mk OUT=$(@D)
$(OUT)/dcpicalc/table.tsv: $(call tools,pmsim pmprof)
	+$(SUBMAKE) -f $(TOP)/examples/dcpicalc.mk OUT=$(@D)
# Fig. 2's program is traced by pmtrace, which the table does not depend
# on: a pmtrace changed since fig2.txt remakes it alone (after the table, whose
# run makes it too, never beside it)
$(OUT)/dcpicalc/fig2.txt: $(call tools,pmtrace) | $(OUT)/dcpicalc/table.tsv
	+$(SUBMAKE) -f $(TOP)/examples/dcpicalc.mk OUT=$(@D) $@
$(OUT)/icost-multisim/summary.tsv: $(call tools,pmsim icost)
	+$(SUBMAKE) -f $(TOP)/examples/icost-multisim.mk OUT=$(@D)
$(OUT)/icost-long/summary.tsv: \
    $(foreach t,$(LONG_TRACES),$(OUT)/long/$(t).pmr.zst) \
    $(call tools,pmsim icost)
	+$(SUBMAKE) -f $(TOP)/examples/icost-multisim.mk OUT=$(@D) \
	    TRACEDIR=$(OUT)/long TRACES="$(LONG_TRACES)" MAX=$(LONG_MAX) \
	    WINDOWS=2 SKIP=$$(($(LONG) / 4)) STRIDE=$$(($(LONG) / 2))
$(OUT)/shotgun-long/summary.tsv: $(OUT)/icost-long/summary.tsv \
    $(call tools,pmsim icost shotgun)
	+$(SUBMAKE) -f $(TOP)/examples/shotgun.mk OUT=$(@D) \
	    MSOUT=$(OUT)/icost-long TRACEDIR=$(OUT)/long \
	    TRACES="$(LONG_TRACES)" MAX=$(LONG_MAX) WARMUP=0 SWEEP="50 200 800" \
	    WINDOWS=2 SKIP=$$(($(LONG) / 4)) STRIDE=$$(($(LONG) / 2))
$(OUT)/shotgun/summary.tsv: $(call tools,pmsim icost shotgun)
	+$(SUBMAKE) -f $(TOP)/examples/shotgun.mk OUT=$(@D)

$(OUT)/RESULTS.md: profileme profileme-long multihash multihash-long \
    samplers dcpicalc icost-multisim icost-long shotgun shotgun-long \
    $(TOP)/examples/results.sh
	bash $(TOP)/examples/results.sh $(OUT) > $@.tmp
	mv $@.tmp $@
	@echo "results: $@"

clean:
	rm -rf $(foreach d,profileme profileme-long multihash multihash-long \
	    long samplers \
	    dcpicalc \
	    icost-multisim icost-long shotgun shotgun-long,$(OUT)/$(d)) \
	    $(OUT)/RESULTS.md
