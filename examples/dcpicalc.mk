# examples/dcpicalc.mk: DCPI's stall analysis (Anderson et al., SOSP '97,
# section 6) on an in-order core, scored against the truth of the same
# runs: pmprof calc on every bundled trace, run on pmsim's alpha21164
# with a CYCLES counter, one run and SEEDS runs merged (the paper's 1 run
# against 80), and the shapes of its figures:
#
#   make -f examples/dcpicalc.mk -j2                  # 2 M instructions a trace
#   make -f examples/dcpicalc.mk -j2 MAX=500000 SEEDS="1 2" TRACES="gzip sqlite"
#   make dcpi-eval                                    # the same, from the top
#
# Writes into $(OUT):
#   TRACE.SEED.pmr   pmsim --truth --sampler=counter,event=cycles,S=$(S)
#   TRACE.score.tsv  pmprof calc --whatcg --score: frequencies within 5,
#                    10, 15% (weighted by samples), low confidence among
#                    those off by more, edges within 10% (weighted by
#                    executions), the true cause among those reported
#                    (TRUTH's head-cycle causes), one cause, one or two,
#                    unexplained; the first run, then all merged
#   TRACE.hist.tsv   the same runs' errors in 5% buckets (Figs. 8, 9)
#   table.tsv        a row per trace and the mean, beside the paper's
#   fig2.txt         the listing of a loop whose loads miss (Fig. 2's
#                    shape: bubbles, culprits, best-case and actual CPI)
#   fig4.txt         the summary of the procedure of $(FIG4) [sqlite] with
#                    most samples (Fig. 4)
#   fig8.png         the histograms of the merged runs (gnuplot)
#
# A trace whose images cannot be read here (another build of a library
# than the traced one) has no procedure to analyse: its row says so.

TOP ?= $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))/..
PMSIM ?= pmsim
RUN ?=
PMPROF ?= pmprof
PMTRACE ?= pmtrace
GNUPLOT ?= gnuplot
CC ?= cc
OUT ?= examples/out/dcpicalc
TRACES ?= cc1 grep gzip python sort sqlite xz
SEEDS ?= 1 2 3 4
MAX ?= 2000000
S ?= 16
FIG4 ?= sqlite

# every rule that runs a tool depends on its stamp (tools.mk): a tool
# rebuilt since makes what it wrote stale, not silently up to date
# the settings that change what the tools write (tools.mk)
STAMP_SETTINGS = MAX=$(MAX) S=$(S) FIG4=$(FIG4)
include $(TOP)/examples/tools.mk
PMSIM_STAMP := $(call stamp,$(PMSIM))
PMPROF_STAMP := $(call stamp,$(PMPROF))
PMTRACE_STAMP := $(call stamp,$(PMTRACE))
# the tools among a rule's prerequisites, which its $^ leaves out
TOOLS := $(PMSIM_STAMP) $(PMPROF_STAMP) $(PMTRACE_STAMP)

SIM = $(RUN) $(PMSIM) -q -m alpha21164 --max $(MAX) --truth \
	--sampler=counter,event=cycles,S=$(S)
trace = $(TOP)/traces/$(1).pmr.zst
all: $(OUT)/table.tsv $(OUT)/fig2.txt $(OUT)/fig4.txt
.PHONY: all clean
.DELETE_ON_ERROR:
.SECONDARY:

$(OUT):
	mkdir -p $@

define runs
$(foreach s,$(SEEDS),$(OUT)/$(1).$(s).pmr): $(OUT)/$(1).%.pmr: \
    $(call trace,$(1)) $(PMSIM_STAMP) | $(OUT)
	$$(SIM) --seed $$* -o $$@ $$<
$(OUT)/$(1).score.tsv: $(foreach s,$(SEEDS),$(OUT)/$(1).$(s).pmr) \
    $(PMPROF_STAMP)
	$$(PMPROF) calc --whatcg --score -f tsv $$(filter-out $$(TOOLS),$$^) \
	    > $$@ 2> $$@.err || \
	    { printf '#runs\n# %s\n' "$$$$(cat $$@.err)" > $$@; }
	rm -f $$@.err
$(OUT)/$(1).hist.tsv: $(foreach s,$(SEEDS),$(OUT)/$(1).$(s).pmr) \
    $(PMPROF_STAMP)
	$$(PMPROF) calc --whatcg --histogram -f tsv \
	    $$(filter-out $$(TOOLS),$$^) > $$@ 2>/dev/null || \
	    : > $$@
endef
$(foreach t,$(sort $(TRACES) $(FIG4)),$(eval $(call runs,$(t))))

$(OUT)/table.tsv: $(foreach t,$(TRACES),$(OUT)/$(t).score.tsv \
    $(OUT)/$(t).hist.tsv)
	{ printf 'trace\truns\twithin5\twithin10\twithin15\tlow_of_off15'; \
	  printf '\tedges_within10\tcause_recall\tone_cause\tone_or_two'; \
	  printf '\tunexplained\n'; \
	  for t in $(TRACES); do \
	    awk -F '\t' -v t=$$t '/^# / { sub(/^# /, ""); print t "\t-\t" $$0; next } \
	      !/^#/ { print t "\t" $$0 }' $(OUT)/$$t.score.tsv; \
	  done; } > $@.rows
	awk -F '\t' 'NR == 1 { print; next } \
	  $$3 !~ /^[0-9.]+$$/ { print; next } \
	  { print; k = $$2 ~ /^run/ ? "1 run" : "merged"; n[k]++; \
	    for (i = 3; i <= 11; i++) if ($$i != "-") { s[k, i] += $$i; c[k, i]++ } } \
	  END { for (j = 0; j < 2; j++) { k = j ? "merged" : "1 run"; \
	      if (!n[k]) continue; printf "mean\t%s", k; \
	      for (i = 3; i <= 11; i++) printf "\t%s", c[k, i] ? \
	          sprintf("%.1f", s[k, i] / c[k, i]) : "-"; printf "\n" } \
	    print "DCPI\t1 run\t54\t-\t-\t-\t-\t-\t56\t80\t8.6"; \
	    print "DCPI\t80 runs\t70\t-\t-\t-\t-\t-\t-\t-\t-"; \
	    print "DCPI\t3 runs\t73\t87\t92\tmost\t58\t-\t-\t-\t-" }' \
	    $@.rows > $@
	rm -f $@.rows
	column -t -s "$$(printf '\t')" $@
	@if [ -n "$(GNUPLOT)" ] && command -v $(GNUPLOT) >/dev/null 2>&1; then \
	  cat $(foreach t,$(TRACES),$(OUT)/$(t).hist.tsv) | awk -F '\t' \
	    '!/^#/ && $$1 !~ /^run/ { k = $$2; if (!(k in w)) o[++m] = k; \
	      w[k] += $$3; e[k] += $$4; n[k]++ } \
	     END { for (i = 1; i <= m; i++) { k = o[i]; \
	       printf "%s\t%.2f\t%.2f\n", k, w[k] / n[k], e[k] / n[k] } }' \
	    > $(OUT)/hist.tsv && \
	  $(GNUPLOT) -e "in='$(OUT)/hist.tsv'; out='$(OUT)/fig8.png'" \
	      $(TOP)/examples/dcpicalc.gp && echo "plot: $(OUT)/fig8.png"; fi

# Fig. 2's shape: tests/data/prof/calc.S, a loop whose loads miss
$(OUT)/calc: $(TOP)/tests/data/prof/calc.S | $(OUT)
	$(CC) -nostdlib -static -no-pie -o $@ $<
$(OUT)/calc.pmr: $(OUT)/calc $(PMTRACE_STAMP) $(PMSIM_STAMP)
	$(PMTRACE) -q -o $(OUT)/calc.trace -- $<
	$(SIM) -o $@ $(OUT)/calc.trace
$(OUT)/fig2.txt: $(OUT)/calc.pmr $(PMPROF_STAMP)
	$(PMPROF) calc _start $< > $@
	cat $@

# Fig. 4's shape: the procedure of $(FIG4) with the most samples
$(OUT)/fig4.txt: $(OUT)/$(FIG4).$(firstword $(SEEDS)).pmr $(PMPROF_STAMP)
	p=$$($(PMPROF) procs -f tsv $< | awk -F '\t' '$$1 == "proc" && \
	    $$5 !~ /^\[/ && $$5 != "unknown" { print $$5; exit }') && \
	  $(PMPROF) calc "$$p" $< | sed -n '/^summary of/,$$p' > $@
	cat $@

clean:
	rm -rf $(OUT)
