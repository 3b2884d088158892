# examples/shotgun.mk: shotgun profiling's validation (Fields et al.,
# MICRO-36, section 6 and Table 7) on every bundled trace: the breakdown
# icost reads off shotgun's fragments against the full graph of the same
# run and against multisim, the pc inference scored against the trace,
# and the error as the number of fragments grows.  Run in parallel:
#
#   make -f examples/shotgun.mk -j2                  # 2 M instructions a trace
#   make -f examples/shotgun.mk -j2 MAX=800000 WARMUP=200000 TRACES="gzip xz"
#   make shotgun-eval                                # the same, from the top
#   make -f examples/shotgun.mk -j2 TRACEDIR=long TRACES=gzip WARMUP=0 \
#       SKIP=50000000 WINDOWS=2 STRIDE=100000000      # windows of a long trace
#
# Writes into $(OUT):
#   TRACE.g.cost      the full graph's breakdown (pmsim --graph | icost)
#   TRACE.sI.pmr      the samples of window I (pmsim --shotgun, the same
#                     run; I = 0 without windows)
#   TRACE.sg.cost     the breakdown of $(FRAGS) fragments a window (shotgun
#                     | icost), the windows' COST records cat-merged
#   TRACE.sg.stats    shotgun's counters (--stats), summed over windows
#   TRACE.cmp         icost --compare: multisim, the graph's and shotgun's
#                     errors, the paper's Table 7
#   TRACE.ms.cost     multisim (examples/icost-multisim.mk, same MAX,
#                     WARMUP and windows, its runs in MSOUT [OUT])
#   summary.tsv       a row per trace: shotgun against the graph and
#                     against multisim (mean relative error over the rows
#                     of at least $(THRESH)%, largest error in points), and
#                     the pc inference: fragments kept on the true path,
#                     errant ones caught, nodes of pcs without a sample
#   fragments.tsv     trace, fragments, mean relative error and largest
#                     error against the graph, for each of $(SWEEP)
#   shotgun-fragments.png  those errors against the number of fragments
#
# The signatures are longer than the paper's 1000 instructions (LEN) and
# icost counts a fragment's time from its 1280th commit (WARM): win's 20x
# window needs that many instructions to fill (shotgun(1), VALIDATION).
# The sampling rates are denser than a long run's (SIG, DET): a 2 M
# instruction trace must give as many samples per static pc as billions of
# instructions would.
#
# Windows of a long trace as in icost-multisim.mk (TRACEDIR, SKIP, WINDOWS,
# STRIDE): shotgun assembles each window's samples on its own (-p reads the
# trace up to the window for the program, then its path) and icost merges
# the windows' breakdowns by sums.

TOP ?= $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))/..
PMSIM ?= pmsim
RUN ?=
SHOTGUN ?= shotgun
ICOST ?= icost
GNUPLOT ?= gnuplot
OUT ?= examples/out/shotgun
TRACES ?= cc1 grep gzip python sort sqlite xz
MAX ?= 2000000
WARMUP ?= 500000
MACHINE ?= fields03
SIG ?= 2000
LEN ?= 4000
DET ?= 20
FRAGS ?= 1000
WARM ?= 1280
SWEEP ?= 25 50 100 200 400 800 1600
THRESH ?= 5
TRACEDIR ?= $(TOP)/traces
SKIP ?= 0
WINDOWS ?= 1
STRIDE ?= $(MAX)
MSOUT ?= $(OUT)

SIM = $(RUN) $(PMSIM) -q -m $(MACHINE) --warmup $(WARMUP) --max $(MAX)
trace = $(TRACEDIR)/$(1).pmr.zst
WIN := $(shell seq 0 $$(($(WINDOWS) - 1)))
samples = $(foreach i,$(WIN),$(OUT)/$(1).s$(i).pmr)
# each window's run of $(SIM) ARGS on the trace $<, one stream after another
windows = for i in $(WIN); do \
	  s=$$(($(SKIP) + i * $(STRIDE))); \
	  $(SIM) $$([ $$s -eq 0 ] || echo --skip=$$s) $(1) -o - $< || exit 1; \
	done
# shotgun on each window's samples ($(2) fragments), icost on each, the
# COST records one after another
fragments = for s in $(call samples,$(1)); do \
	  $(SHOTGUN) -n $(2) -p $(call trace,$(1)) $(3) $$s | \
	  $(ICOST) -q --warm $(WARM) -f pmr || exit 1; \
	done
# a pmsim or shotgun that fails in a pipe fails the recipe
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

all: $(OUT)/summary.tsv $(OUT)/fragments.tsv
.PHONY: all clean
.DELETE_ON_ERROR:
.SECONDARY:

$(OUT):
	mkdir -p $@

# multisim of the same instructions, by its own makefile
$(OUT)/%.ms.cost: | $(OUT)
	$(MAKE) --no-print-directory -f $(TOP)/examples/icost-multisim.mk \
	    PMSIM=$(PMSIM) ICOST=$(ICOST) OUT=$(MSOUT) MAX=$(MAX) RUN='$(RUN)' \
	    WARMUP=$(WARMUP) MACHINE=$(MACHINE) TRACES=$* TOP=$(TOP) \
	    TRACEDIR=$(TRACEDIR) SKIP=$(SKIP) WINDOWS=$(WINDOWS) \
	    STRIDE=$(STRIDE) $(MSOUT)/$*.ms.cost
	[ "$(MSOUT)" = "$(OUT)" ] || cp $(MSOUT)/$*.ms.cost $@

define runs
$(OUT)/$(1).g.cost: $(call trace,$(1)) | $(OUT)
	$$(call windows,--graph) | $$(ICOST) -q -m $(MACHINE) -f pmr -o $$@
$(OUT)/$(1).s%.pmr: $(call trace,$(1)) | $(OUT)
	s=$$$$(($(SKIP) + $$* * $(STRIDE))); \
	$$(SIM) $$$$([ $$$$s -eq 0 ] || echo --skip=$$$$s) \
	    --shotgun=sig=$(SIG),len=$(LEN),det=$(DET) -o $$@ $$<
$(OUT)/$(1).sg.cost: $(call samples,$(1))
	$$(call fragments,$(1),$(FRAGS),--stats $$$$s.stats) > $$@
	cat $$(addsuffix .stats,$$^) | tr ' ' '\n' | awk -F = 'NF == 2 { \
	    if (!($$$$1 in v)) o[++n] = $$$$1; v[$$$$1] += $$$$2; c[$$$$1]++ } \
	    END { for (i = 1; i <= n; i++) { k = o[i]; \
	      printf "%s%s=%s", (i > 1 ? " " : ""), k, (k == "score" ? \
	          v[k] / c[k] : v[k]) } printf "\n" }' > $(OUT)/$(1).sg.stats
$(OUT)/$(1).sweep.tsv: $(call samples,$(1)) $(OUT)/$(1).g.cost
	for f in $(SWEEP); do \
	  { $$(call fragments,$(1),$$$$f); } > $$@.$$$$f.cost && \
	  $$(ICOST) --compare -t $(THRESH) -f tsv $(OUT)/$(1).g.cost \
	    $$@.$$$$f.cost | awk -F '\t' -v t=$(1) -v f=$$$$f ' \
	    $$$$1 == "#summary" { for (i = 2; i <= NF; i++) h[$$$$i] = i } \
	    $$$$1 == "summary" { print t "\t" f "\t" $$$$h["err1_rel"] "\t" \
	        $$$$h["err1_max"] }' || exit 1; \
	  rm -f $$@.$$$$f.cost; \
	done > $$@
endef
$(foreach t,$(TRACES),$(eval $(call runs,$(t))))

$(OUT)/%.cmp: $(OUT)/%.ms.cost $(OUT)/%.g.cost $(OUT)/%.sg.cost
	$(ICOST) --compare -t $(THRESH) -o $@ $^
$(OUT)/%.cmp.tsv: $(OUT)/%.ms.cost $(OUT)/%.g.cost $(OUT)/%.sg.cost
	$(ICOST) --compare -t $(THRESH) -f tsv -o $@ $^

# key=value of the counters in $(1)
stat = $$(tr ' ' '\n' < $(1) | awk -F = -v k=$(2) '$$1 == k { print $$2 }')

$(OUT)/summary.tsv: $(addprefix $(OUT)/,$(addsuffix .cmp.tsv,$(TRACES)) \
    $(addsuffix .cmp,$(TRACES)))
	{ printf 'trace\trows\tsg_graph_rel\tsg_graph_max\tsg_ms_rel\tsg_ms_max'; \
	  printf '\tgraph_ms_rel\tconsistent_pct\tdetected_pct\tmissing_pct\n'; \
	  for t in $(TRACES); do \
	    s=$(OUT)/$$t.sg.stats; \
	    kept=$(call stat,$$s,kept); cons=$(call stat,$$s,consistent); \
	    err=$(call stat,$$s,errant); det=$(call stat,$$s,detected); \
	    nod=$(call stat,$$s,nodes); mis=$(call stat,$$s,missing); \
	    awk -F '\t' -v t=$$t -v k=$$kept -v c=$$cons -v e=$$err -v d=$$det \
	        -v n=$$nod -v m=$$mis ' \
	      $$1 == "#summary" { for (i = 2; i <= NF; i++) h[$$i] = i } \
	      $$1 == "summary" { printf "%s\t%s\t%s\t%s\t%s\t%s\t%s", t, \
	          $$h["rows"], $$h["err21_rel"], $$h["err21_max"], $$h["err2_rel"], \
	          $$h["err2_max"], $$h["err1_rel"]; \
	        printf "\t%.1f\t%s\t%.2f\n", 100 * c / k, \
	          (e > 0 ? sprintf("%.1f", 100 * d / e) : "-"), 100 * m / n }' \
	      $(OUT)/$$t.cmp.tsv || exit 1; \
	  done; } > $@
	column -t -s "$$(printf '\t')" $@

$(OUT)/fragments.tsv: $(addprefix $(OUT)/,$(addsuffix .sweep.tsv,$(TRACES)))
	{ printf 'trace\tfragments\tmean_rel_err\tmax_err\n'; cat $^; } > $@
	@if [ -n "$(GNUPLOT)" ] && command -v $(GNUPLOT) >/dev/null 2>&1; then \
	  $(GNUPLOT) -e "in='$@'; out='$(OUT)/shotgun-fragments.png'; \
	      traces='$(TRACES)'" $(TOP)/examples/shotgun.gp && \
	  echo "plot: $(OUT)/shotgun-fragments.png"; fi

clean:
	rm -rf $(OUT)
