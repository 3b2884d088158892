# examples/samplers.mk: which sampler tells the truth.  The TIP paper's
# experiment (Gottschall et al., MICRO '21, section 5) on every bundled
# trace: each sampler pmsim has, at an equal number of samples, scored by
# pmprof against the time-proportional oracle of the same run (TRUTH
# tp_cycles) per instruction, basic block and procedure, beside the noise
# floor of an ideal random sample of the same size.  Run in parallel:
#
#   make -f examples/samplers.mk -j2                  # 2 M instructions a trace
#   make -f examples/samplers.mk -j2 MAX=500000 N=20000 TRACES="gzip xz"
#   make sampler-eval                                 # the same, from the top
#   make -f examples/samplers.mk -j200 RUN='srun -N1 -n1'
#
# RUN, empty by default, is put before each pmsim run: a launcher such as
# srun makes each run a job of its own (the outputs are the same bytes;
# make check-cluster checks it); pmview, pmprof and the tables stay local.
#
# Writes into $(OUT):
#   TRACE.base.pmr    a run without samples: its cycles, mapped and
#                     fetched instructions set each sampler's interval
#   TRACE.SAMPLER.tsv pmprof score -f tsv of that sampler's run
#   summary.tsv       trace, sampler, granularity, samples, error against
#                     the oracle's cycles, its noise floor, error against
#                     the retired counts
#   table.tsv         per sampler and granularity, the mean over the traces
#   samplers.png      the instruction-level errors, a bar per sampler and
#                     trace, with the noise floor
#
# The samplers (pmsim(1), --sampler and --profileme): counter (cycle
# counter overflow, the pc of the oldest instruction 6 cycles later: the
# software/DCPI kind), ibs (tagged at dispatch), profileme (tagged at
# fetch), pebs (event=cycles: the next to commit), last (the last
# committed), tip.  Each counts N samples on average: the cycle samplers
# every cycles/N cycles, ibs every mapped/N mapped instructions, profileme
# every fetched/N fetched ones.

TOP ?= $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))/..
PMSIM ?= pmsim
PMPROF ?= pmprof
PMVIEW ?= pmview
GNUPLOT ?= gnuplot
OUT ?= examples/out/samplers
TRACES ?= cc1 grep gzip python sort sqlite xz
SAMPLERS ?= counter ibs profileme pebs last tip
MAX ?= 2000000
MACHINE ?= alpha21264
N ?= 100000
SEED ?= 1
RUN ?=

# every rule that runs a tool depends on its stamp (tools.mk): a tool
# rebuilt since makes what it wrote stale, not silently up to date
# the settings that change what the tools write (tools.mk)
STAMP_SETTINGS = MAX=$(MAX) MACHINE=$(MACHINE) N=$(N) SEED=$(SEED)
include $(TOP)/examples/tools.mk
PMSIM_STAMP := $(call stamp,$(PMSIM))
PMPROF_STAMP := $(call stamp,$(PMPROF))
PMVIEW_STAMP := $(call stamp,$(PMVIEW))

SIM = $(PMSIM) -q -m $(MACHINE) --max $(MAX) --seed $(SEED)
trace = $(TOP)/traces/$(1).pmr.zst
all: $(OUT)/table.tsv
.PHONY: all clean
.DELETE_ON_ERROR:
.SECONDARY:

$(OUT):
	mkdir -p $@

define runs
$(OUT)/$(1).base.pmr: $(call trace,$(1)) $(PMSIM_STAMP) | $(OUT)
	$$(RUN) $$(SIM) -o $$@ $$<
$(foreach s,$(SAMPLERS),$(OUT)/$(1).$(s).tsv): $(OUT)/$(1).%.tsv: \
    $(OUT)/$(1).base.pmr $(PMSIM_STAMP) $(PMVIEW_STAMP) $(PMPROF_STAMP)
	$$(RUN) $$(SIM) --truth $$$$(PMVIEW=$$(PMVIEW) bash $(TOP)/examples/samplers-spec.bash \
	    $$* $$< $(N)) $(call trace,$(1)) | \
	    $$(PMPROF) score -f tsv > $$@
endef
$(foreach t,$(TRACES),$(eval $(call runs,$(t))))

$(OUT)/summary.tsv: $(foreach t,$(TRACES),$(foreach s,$(SAMPLERS),\
    $(OUT)/$(t).$(s).tsv))
	{ printf 'trace\tsampler\tby\tsamples\terr_cycles\tfloor_cycles'; \
	  printf '\terr_retired\n'; \
	  for t in $(TRACES); do for s in $(SAMPLERS); do \
	    awk -F '\t' -v t=$$t -v s=$$s ' \
	      $$1 == "#error" { for (i = 2; i <= NF; i++) h[$$i] = i } \
	      $$1 == "error" { print t "\t" s "\t" $$h["by"] "\t" \
	          $$h["samples"] "\t" 100 * $$h["err_cycles"] "\t" \
	          100 * $$h["floor_cycles"] "\t" 100 * $$h["err_retired"] }' \
	      $(OUT)/$$t.$$s.tsv || exit 1; \
	  done; done; } > $@

$(OUT)/table.tsv: $(OUT)/summary.tsv
	awk -F '\t' 'NR > 1 { k = $$2 "\t" $$3; if (!(k in n)) o[++m] = k; \
	    n[k]++; e[k] += $$5; f[k] += $$6; if ($$5 > x[k]) x[k] = $$5 } \
	  END { print "sampler\tby\ttraces\tmean_err_pct\tmax_err_pct" \
	      "\tmean_floor_pct"; \
	    for (i = 1; i <= m; i++) { k = o[i]; printf "%s\t%d\t%.1f\t%.1f" \
	      "\t%.1f\n", k, n[k], e[k] / n[k], x[k], f[k] / n[k] } }' \
	    $< > $@
	column -t -s "$$(printf '\t')" $@
	@if [ -n "$(GNUPLOT)" ] && command -v $(GNUPLOT) >/dev/null 2>&1; then \
	  awk -F '\t' '$$3 == "insn" { print $$1 "\t" $$2 "\t" $$5 "\t" $$6 }' \
	      $< > $(OUT)/insn.tsv && \
	  $(GNUPLOT) -e "in='$(OUT)/insn.tsv'; out='$(OUT)/samplers.png'" \
	      $(TOP)/examples/samplers.gp && \
	  echo "plot: $(OUT)/samplers.png"; fi

clean:
	rm -rf $(OUT)
