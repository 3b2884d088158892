# examples/icost-multisim.mk: the interaction-cost paper's validation
# (Fields et al., MICRO-36, section 4.2 and Table 7) on every bundled trace:
# the breakdown icost reads off pmsim's dependence graph against multisim,
# the ground truth of one pmsim run per idealized subset.  Run in parallel:
#
#   make -f examples/icost-multisim.mk -j2                 # 2 M instructions a trace
#   make -f examples/icost-multisim.mk -j2 MAX=200000 TRACES="gzip sort"
#   make -f examples/icost-multisim.mk -j2 WARMUP=500000  # measure after it
#   make -f examples/icost-multisim.mk -j2 TRACEDIR=long TRACES=gzip \
#       SKIP=50000000 WINDOWS=2 STRIDE=50000000       # windows of a long trace
#   make icost-multisim                                    # the same, from the top
#
# Writes into $(OUT):
#   TRACE/SUBSET.pmr   one pmsim run per subset (--ideal=SUBSET, + for ,)
#   TRACE.ms.cost      multisim's breakdown (COST records)
#   TRACE.g.cost       the graph's breakdown (COST records)
#   TRACE.cmp          icost --compare: multisim and the graph's error
#   summary.tsv        a row per trace: cycles, rows compared, the mean
#                      relative error (percent) and the largest error
#                      (points) over the rows with multisim >= $(THRESH)%
#                      (RULE=paper, signed, as the paper's Table 7; RULE=
#                      multisim, |multisim|, before 2026-12-02),
#                      and each category's cost, multisim and graph
#   points.tsv         trace, row, multisim, graph (percent of t), every row
#   icost-multisim.png the graph's costs and icosts against multisim's,
#                      every row of every trace (if gnuplot is installed;
#                      GNUPLOT= skips it)
#
# Long traces run as windows: WINDOWS pmsim runs of MAX instructions each,
# the i-th after SKIP + i * STRIDE of them (pmsim --skip, which warms the
# caches and predictors on what it skips), cat-merged into each subset's
# stream and into the graph's; icost sums them (SKIP = 0 and WINDOWS = 1,
# the default, is one plain run).  TRACEDIR holds TRACE.pmr.zst.
#
# The subsets are the ones icost evaluates (icost --subsets: the eight
# categories, their 28 pairs and all eight, 38 runs a trace); CATS and
# ORDER change them.  The machine is the paper's (fields03); MACHINE
# changes it.  Memory is that of one pmsim and one icost per job.
# The graph's icost runs with --issue $(ISSUE): sched (here the default:
# each lane schedules its own issue slots, within 3 points of multisim on
# every trace at 2 M instructions) or observed (icost's default, 4x faster:
# every lane keeps the base run's issue waits; up to 5.1 points).

TOP ?= $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))/..
PMSIM ?= pmsim
RUN ?=
ICOST ?= icost
GNUPLOT ?= gnuplot
OUT ?= examples/out/icost-multisim
TRACES ?= cc1 grep gzip python sort sqlite xz
MAX ?= 2000000
WARMUP ?= 0
MACHINE ?= fields03
CATS ?= dl1,win,bw,bmisp,dmiss,shalu,lgalu,imiss
ORDER ?= 2
THRESH ?= 5
RULE ?= paper
ISSUE ?= sched
TRACEDIR ?= $(TOP)/traces
SKIP ?= 0
WINDOWS ?= 1
STRIDE ?= $(MAX)

# every rule that runs a tool depends on its stamp (tools.mk): a tool
# rebuilt since makes what it wrote stale, not silently up to date
# the settings that change what the tools write (tools.mk)
STAMP_SETTINGS = MAX=$(MAX) WARMUP=$(WARMUP) MACHINE=$(MACHINE) CATS=$(CATS) ORDER=$(ORDER) THRESH=$(THRESH) RULE=$(RULE) TRACEDIR=$(TRACEDIR) SKIP=$(SKIP) WINDOWS=$(WINDOWS) STRIDE=$(STRIDE)
include $(TOP)/examples/tools.mk
PMSIM_STAMP := $(call stamp,$(PMSIM))
ICOST_STAMP := $(call stamp,$(ICOST))
# the graph's --issue, stamped as the tools are: another remakes the
# graph's breakdowns
ISSUE_STAMP := $(call setting,issue,$(ISSUE))
# the tools among a rule's prerequisites, which its $^ leaves out
TOOLS := $(PMSIM_STAMP) $(ICOST_STAMP) $(ISSUE_STAMP)

comma := ,
SUBSETS := $(subst $(comma),+,$(shell $(ICOST) --subsets -c $(CATS) \
	--order $(ORDER)))
ifeq ($(SUBSETS),)
$(error $(ICOST) --subsets printed nothing: is icost on PATH (or ICOST=)?)
endif
SIM = $(RUN) $(PMSIM) -q -m $(MACHINE) --warmup $(WARMUP) --max $(MAX)
trace = $(TRACEDIR)/$(1).pmr.zst
# each window's run of $(SIM) ARGS on the trace $<, one stream after another
windows = for i in $$(seq 0 $$(($(WINDOWS) - 1))); do \
	  s=$$(($(SKIP) + i * $(STRIDE))); \
	  $(SIM) $$([ $$s -eq 0 ] || echo --skip=$$s) $(1) -o - $< || exit 1; \
	done
# a pmsim that fails in a pipe fails the recipe
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

all: $(OUT)/summary.tsv
.PHONY: all clean
.DELETE_ON_ERROR:

# One pmsim run per trace and subset.
define runs
$(OUT)/$(1)/%.pmr: $(call trace,$(1)) $(PMSIM_STAMP) | $(OUT)/$(1)
	$$(call windows,--ideal=$$(subst +,$$(comma),$$*)) > $$@
$(OUT)/$(1):
	mkdir -p $$@
$(OUT)/$(1).ms.cost: $(addprefix $(OUT)/$(1)/,$(addsuffix .pmr,$(SUBSETS))) \
    $(ICOST_STAMP)
	$$(ICOST) -q --multisim -c $(CATS) --order $(ORDER) -f pmr -o $$@ \
	    $$(filter-out $$(TOOLS),$$^)
$(OUT)/$(1).g.cost: $(call trace,$(1)) $(PMSIM_STAMP) $(ICOST_STAMP) \
    $(ISSUE_STAMP) | $(OUT)/$(1)
	$$(call windows,--graph) | $$(ICOST) -q -c $(CATS) --order $(ORDER) \
	    -m $(MACHINE) --issue $(ISSUE) -f pmr -o $$@
endef
$(foreach t,$(TRACES),$(eval $(call runs,$(t))))

$(OUT)/%.cmp: $(OUT)/%.ms.cost $(OUT)/%.g.cost $(ICOST_STAMP)
	$(ICOST) --compare -t $(THRESH) --rule=$(RULE) --order $(ORDER) -o $@ \
	    $(filter-out $(TOOLS),$^)
$(OUT)/%.cmp.tsv: $(OUT)/%.ms.cost $(OUT)/%.g.cost $(ICOST_STAMP)
	$(ICOST) --compare -t $(THRESH) --rule=$(RULE) --order $(ORDER) -f tsv -o $@ \
	    $(filter-out $(TOOLS),$^)

# A row per trace: the summary line of the comparison, the cycles of the
# base run, and the single categories (multisim, graph).
$(OUT)/summary.tsv: $(addprefix $(OUT)/,$(addsuffix .cmp.tsv,$(TRACES)) \
    $(addsuffix .cmp,$(TRACES))) $(ICOST_STAMP)
	{ printf 'trace\tcycles\trows\tmean_rel_err\tmax_err'; \
	  for c in $(subst $(comma), ,$(CATS)); do \
	    printf '\t%s_ms\t%s_graph' $$c $$c; done; printf '\n'; \
	  for t in $(TRACES); do \
	    cyc=$$($(ICOST) -f tsv $(OUT)/$$t.ms.cost | \
	        awk -F '\t' '$$1 == "Total" { print $$3 }'); \
	    [ -n "$$cyc" ] || { echo "$$t: no base cycles in $$t.ms.cost" >&2; \
	        exit 1; }; \
	    awk -F '\t' -v t=$$t -v cyc=$$cyc -v cats=$(CATS) ' \
	      $$1 == "#summary" { for (i = 2; i <= NF; i++) h[$$i] = i } \
	      $$1 == "summary" { s = $$h["rows"] "\t" $$h["err1_rel"] "\t" $$h["err1_max"] } \
	      $$1 == "row" { v[$$2] = sprintf("%.1f\t%.1f", $$3, $$3 + $$4) } \
	      END { if (s == "") { print t ": no summary line" > "/dev/stderr"; \
	          exit 1 } \
	        n = split(cats, c, ","); printf "%s\t%s\t%s", t, cyc, s; \
	        for (i = 1; i <= n; i++) printf "\t%s", v[c[i]]; printf "\n" }' \
	      $(OUT)/$$t.cmp.tsv || exit 1; \
	  done; } > $@
	for t in $(TRACES); do \
	  awk -F '\t' -v t=$$t '$$1 == "row" { print t "\t" $$2 "\t" $$3 "\t" $$3 + $$4 }' \
	      $(OUT)/$$t.cmp.tsv; done > $(OUT)/points.tsv
	column -t -s "$$(printf '\t')" $@ | cut -c1-100
	@if [ -n "$(GNUPLOT)" ] && command -v $(GNUPLOT) >/dev/null 2>&1; then \
	  $(GNUPLOT) -e "in='$(OUT)/points.tsv'; out='$(OUT)/icost-multisim.png'" \
	      $(TOP)/examples/icost-multisim.gp && \
	  echo "plot: $(OUT)/icost-multisim.png"; fi

clean:
	rm -rf $(OUT)
