#!/usr/bin/env bats
# make reproduce (examples/reproduce.mk, examples/results.sh): RESULTS.md
# lists a part without outputs as missing, never a number; the launcher
# prefix RUN reaches every simulation of the make-based parts; a tool
# changed since makes what it wrote stale.

load test_helper

setup() {
	T=$BATS_TEST_TMPDIR
}

@test "results.sh: with no outputs, every part is listed as missing and no table is made up" {
	run -0 --separate-stderr bash "$TOP/examples/results.sh" "$T"
	[ -z "$stderr" ]
	for f in profileme/pairs-convergence.summary profileme/pairs-paths.tsv \
	    multihash/mhash-tables.tsv multihash/mhash-traces.tsv \
	    samplers/table.tsv dcpicalc/table.tsv dcpicalc/fig2.txt \
	    profileme-long/pairs-paths.tsv \
	    icost-multisim/summary.tsv icost-long/summary.tsv \
	    shotgun/summary.tsv shotgun-long/summary.tsv; do
		[[ $output == *"*(missing: $T/$f)*"* ]] || { echo "$f not missing"; return 1; }
	done
	run -1 grep -q '^|---' <<<"$output"
}

@test "results.sh: a table present is rendered, its rows and header" {
	mkdir -p "$T/dcpicalc"
	printf 'trace\truns\twithin5\nsqlite\trun 1\t48.9\n' > "$T/dcpicalc/table.tsv"
	run -0 bash "$TOP/examples/results.sh" "$T"
	[[ $output == *$'| trace | runs | within5 |\n|---|---|---|\n| sqlite | run 1 | 48.9 |'* ]]
}

@test "reproduce.mk: RUN prefixes the simulations of every make-based part" {
	local mk
	for mk in samplers dcpicalc icost-multisim shotgun; do
		run -0 make -n -f "$TOP/examples/$mk.mk" TOP="$TOP" RUN=XRUN \
		    PMSIM=/bin/PMSIM ICOST="$BIN/icost" OUT="$T/$mk" TRACES=gzip
		grep -q 'XRUN /bin/PMSIM' <<<"$output" ||
		    { echo "$mk: no RUN prefix"; return 1; }
	done
	# and reproduce.mk hands it down
	# (a '+' line: make -n runs the part's makefile, which prints its
	# runs, and with -j it shares the job slots, without "jobserver
	# unavailable")
	run -0 make -j2 -n -f "$TOP/examples/reproduce.mk" TOP="$TOP" BIN=/bin \
	    RUN=XRUN OUT="$T/o" samplers
	[[ $output == *"RUN='XRUN'"* && $output == *"XRUN /bin/pmsim "* ]]
	[[ $output != *"jobserver unavailable"* ]]
	# to every window of a long trace, too
	run -0 make -n -f "$TOP/examples/icost-multisim.mk" TOP="$TOP" \
	    RUN=XRUN PMSIM=/bin/PMSIM ICOST="$BIN/icost" OUT="$T/w" \
	    TRACES=gzip WINDOWS=2 SKIP=1000 STRIDE=5000 MAX=100
	grep -q 'XRUN /bin/PMSIM.*-o - ' <<<"$output"
}

# The cycles of a pmsim run's final STATS record.
cycles() {
	"$PMVIEW" -t STATS -f tsv "$1" | awk -F '\t' 'NR == 1 {
	    for (i = 1; i <= NF; i++) if ($i == "cycles") c = i }
	    NR == 2 { print $c }'
}

@test "icost-multisim.mk: windows of a trace, cat-merged; icost sums them exactly" {
	# two windows of gzip, 20 K instructions each, 60 K apart, and only
	# the categories win and bmisp (4 runs a window)
	run -0 make -s -f "$TOP/examples/icost-multisim.mk" TOP="$TOP" \
	    PMSIM="$PMSIM" ICOST="$ICOST" OUT="$T/w" TRACES=gzip \
	    CATS=win,bmisp MAX=20000 WINDOWS=2 SKIP=10000 STRIDE=60000 \
	    GNUPLOT=
	# each subset's stream holds the two windows
	run -0 "$PMVIEW" -t META -f tsv "$T/w/gzip/bmisp+win.pmr"
	[ "$(grep -c $'^META\tskip\tskip=10000 ' <<<"$output")" -eq 1 ]
	[ "$(grep -c $'^META\tskip\tskip=70000 ' <<<"$output")" -eq 1 ]
	# the base time is the sum of the two base runs' cycles, and a cost
	# the sum of the windows' savings
	for w in 10000 70000; do
		for s in none win; do
			"$PMSIM" -q --no-pg -m fields03 --warmup 0 --skip=$w \
			    --max 20000 --ideal=$s -o "$T/$s.$w.pmr" \
			    "$TOP/traces/gzip.pmr.zst"
		done
	done
	t=$(( $(cycles "$T/none.10000.pmr") + $(cycles "$T/none.70000.pmr") ))
	win=$(( t - $(cycles "$T/win.10000.pmr") - $(cycles "$T/win.70000.pmr") ))
	echo "t $t win $win"
	run -0 "$ICOST" -f tsv "$T/w/gzip.ms.cost"
	printf '%s\n' "$output"
	grep -q "^win"$'\t'"[0-9.]*"$'\t'"$win"$'\t' <<<"$output"
	grep -q "^Total"$'\t'"100.0000"$'\t'"$t"$'\t' <<<"$output"
	[ -s "$T/w/summary.tsv" ]
	# a window without every subset, or a subset twice in one window
	run -1 "$ICOST" --multisim -c win "$T/none.10000.pmr" \
	    "$T/none.70000.pmr" "$T/win.10000.pmr"
	[[ $output == *"the window at --skip=70000 has other subsets"* ]]
	run -1 "$ICOST" --multisim -c win "$T/none.10000.pmr" \
	    "$T/none.10000.pmr" "$T/win.10000.pmr"
	[[ $output == *"two runs idealize the same subset"* ]]
	# a window that names no skip
	"$PMVIEW" -f tsv "$T/none.10000.pmr" | sed 's/skip=10000 /skip=x /' |
	    "$PMVIEW" -r --no-pg -o "$T/bad.pmr"
	run -1 "$ICOST" --multisim -c win "$T/bad.pmr" "$T/win.10000.pmr"
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"META skip 'skip=x "*"names no window"* ]]
}

@test "icost-multisim.mk: a tool changed since makes what it wrote stale, and only that; a relink that changed nothing, nothing" {
	mkdir -p "$T/bin"
	cp "$PMSIM" "$ICOST" "$T/bin/"
	local mk=(make -f "$TOP/examples/icost-multisim.mk" TOP="$TOP"
	    OUT="$T/m" TRACES=gzip CATS=win MAX=20000 GNUPLOT=)
	run -0 "${mk[@]}" -s PMSIM="$T/bin/pmsim" ICOST="$T/bin/icost"
	[ -s "$T/m/summary.tsv" ]
	[ -s "$T/m/.tools/icost-multisim.mk/icost" ]
	# the outputs and stamps a minute old, so that a file system of whole
	# seconds cannot give them the time of the stamp rewritten next
	find "$T/m" -type f -exec touch -d '1 minute ago' {} +
	run -0 "${mk[@]}" -q PMSIM="$T/bin/pmsim" ICOST="$T/bin/icost"
	# relinked, the same bytes: nothing to do
	touch "$T/bin/pmsim" "$T/bin/icost"
	run -0 "${mk[@]}" -q PMSIM="$T/bin/pmsim" ICOST="$T/bin/icost"
	# another icost (a byte past the ELF's end still runs): its breakdowns
	# and comparisons are stale, the pmsim runs of the subsets are not
	printf x >> "$T/bin/icost"
	run -1 "${mk[@]}" -q PMSIM="$T/bin/pmsim" ICOST="$T/bin/icost"
	run -0 "${mk[@]}" -n PMSIM="$T/bin/pmsim" ICOST="$T/bin/icost"
	[[ $output == *"--multisim"* && $output == *"--compare"* ]]
	[[ $output != *"--ideal"* ]]
	# rerun (icost reads the files among the prerequisites, never the
	# stamps among them), then up to date
	run -0 "${mk[@]}" -s PMSIM="$T/bin/pmsim" ICOST="$T/bin/icost"
	run -0 "${mk[@]}" -q PMSIM="$T/bin/pmsim" ICOST="$T/bin/icost"
	# a bare name is the one on PATH
	find "$T/m" -type f -exec touch -d '1 minute ago' {} +
	run -0 env PATH="$T/bin:$PATH" "${mk[@]}" -q PMSIM=pmsim ICOST=icost
	printf x >> "$T/bin/pmsim"
	run -1 env PATH="$T/bin:$PATH" "${mk[@]}" -q PMSIM=pmsim ICOST=icost
	run -0 env PATH="$T/bin:$PATH" "${mk[@]}" -n PMSIM=pmsim ICOST=icost
	[[ $output == *"pmsim -q"*"--ideal=win"* ]]
	# a setting that changes what the tools write (MAX) makes it all
	# stale too, and back again (it said "Nothing to be done")
	run -0 env PATH="$T/bin:$PATH" "${mk[@]}" -s PMSIM=pmsim ICOST=icost
	find "$T/m" -type f -exec touch -d '1 minute ago' {} +
	run -0 env PATH="$T/bin:$PATH" "${mk[@]}" -q PMSIM=pmsim ICOST=icost
	run -1 env PATH="$T/bin:$PATH" "${mk[@]}" -q PMSIM=pmsim ICOST=icost MAX=20001
	run -0 env PATH="$T/bin:$PATH" "${mk[@]}" -n PMSIM=pmsim ICOST=icost MAX=20001
	[[ $output == *"--max 20001"*"--ideal=win"* ]]
	run -0 env PATH="$T/bin:$PATH" "${mk[@]}" -s PMSIM=pmsim ICOST=icost MAX=20001
	find "$T/m" -type f -exec touch -d '1 minute ago' {} +
	run -1 env PATH="$T/bin:$PATH" "${mk[@]}" -q PMSIM=pmsim ICOST=icost
}

@test "shotgun.mk: each sampling seed a run of its own, scored on its own; the summary their mean and range" {
	run -0 make -s -f "$TOP/examples/shotgun.mk" TOP="$TOP" \
	    PMSIM="$PMSIM" ICOST="$ICOST" SHOTGUN="$BIN/shotgun" OUT="$T/s" \
	    TRACES=gzip MAX=30000 WARMUP=0 SIG=500 LEN=1000 DET=5 FRAGS=20 \
	    WARM=0 SWEEP=10 SEEDS="0 3" GNUPLOT=
	# then up to date: its multisim part (icost-multisim.mk, into the
	# same OUT, with settings of its own) keeps stamps of its own
	find "$T/s" -type f -exec touch -d '1 minute ago' {} +
	run -0 make -q -f "$TOP/examples/shotgun.mk" TOP="$TOP" \
	    PMSIM="$PMSIM" ICOST="$ICOST" SHOTGUN="$BIN/shotgun" OUT="$T/s" \
	    TRACES=gzip MAX=30000 WARMUP=0 SIG=500 LEN=1000 DET=5 FRAGS=20 \
	    WARM=0 SWEEP=10 SEEDS="0 3" GNUPLOT=
	# a comparison without its summary line is an error, not a "-"
	cp -p "$T/s/gzip.r0.t7.tsv" "$T/t7"
	grep -v '^summary' "$T/t7" > "$T/s/gzip.r0.t7.tsv"
	touch -r "$T/t7" "$T/s/gzip.r0.t7.tsv"
	rm "$T/s/seeds.tsv"
	run -2 make -s -f "$TOP/examples/shotgun.mk" TOP="$TOP" \
	    PMSIM="$PMSIM" ICOST="$ICOST" SHOTGUN="$BIN/shotgun" OUT="$T/s" \
	    TRACES=gzip MAX=30000 WARMUP=0 SIG=500 LEN=1000 DET=5 FRAGS=20 \
	    WARM=0 SWEEP=10 SEEDS="0 3" GNUPLOT= "$T/s/seeds.tsv"
	[[ $output == *"gzip.r0.t7.tsv: no summary line"* ]]
	[ ! -e "$T/s/seeds.tsv" ]
	cp -p "$T/t7" "$T/s/gzip.r0.t7.tsv"
	run -0 make -s -f "$TOP/examples/shotgun.mk" TOP="$TOP" \
	    PMSIM="$PMSIM" ICOST="$ICOST" SHOTGUN="$BIN/shotgun" OUT="$T/s" \
	    TRACES=gzip MAX=30000 WARMUP=0 SIG=500 LEN=1000 DET=5 FRAGS=20 \
	    WARM=0 SWEEP=10 SEEDS="0 3" GNUPLOT= "$T/s/seeds.tsv"
	[ -s "$T/s/seeds.tsv" ]
	# another FOCUS remakes only the Table 7 comparisons
	run -0 make -n -f "$TOP/examples/shotgun.mk" TOP="$TOP" \
	    PMSIM="$PMSIM" ICOST="$ICOST" SHOTGUN="$BIN/shotgun" OUT="$T/s" \
	    TRACES=gzip MAX=30000 WARMUP=0 SIG=500 LEN=1000 DET=5 FRAGS=20 \
	    WARM=0 SWEEP=10 SEEDS="0 3" GNUPLOT= FOCUS=win
	[[ $output == *"--focus=win"* ]]
	[[ $output != *"shotgun -n"* ]]
	[[ $output != *"--shotgun="* ]]
	# each fragment alone (CHAIN=0) is other breakdowns of the same
	# samples: only those are remade, with icost without --chain (before
	# another DET below, whose stamps make everything stale)
	run -0 make -n -f "$TOP/examples/shotgun.mk" TOP="$TOP" \
	    PMSIM="$PMSIM" ICOST="$ICOST" SHOTGUN="$BIN/shotgun" OUT="$T/s" \
	    TRACES=gzip MAX=30000 WARMUP=0 SIG=500 LEN=1000 DET=5 FRAGS=20 \
	    WARM=0 SWEEP=10 SEEDS="0 3" GNUPLOT= CHAIN=0
	[[ $output == *"shotgun -n 20"* ]]
	[[ $output != *"--chain"* ]]
	[[ $output != *"--shotgun="* ]]
	[[ $output != *"--multisim"* ]]
	# another DET is other samples
	run -1 make -q -f "$TOP/examples/shotgun.mk" TOP="$TOP" \
	    PMSIM="$PMSIM" ICOST="$ICOST" SHOTGUN="$BIN/shotgun" OUT="$T/s" \
	    TRACES=gzip MAX=30000 WARMUP=0 SIG=500 LEN=1000 DET=6 FRAGS=20 \
	    WARM=0 SWEEP=10 SEEDS="0 3" GNUPLOT=
	# a query deletes nothing (the multisim part's sub-make said "out
	# of date" as a failed recipe, and its breakdown was deleted)
	[ -s "$T/s/gzip.ms.cost" ]
	run -2 make -q -f "$TOP/examples/shotgun.mk" TOP="$TOP" \
	    PMSIM="$PMSIM" ICOST="$ICOST" SHOTGUN="$BIN/shotgun" OUT="$T/s" \
	    TRACES=gzip SEEDS="0 3" CHAIN=yes
	[[ $output == *"CHAIN is 0 or 1, not yes"* ]]
	# the seed is in each run's stream, and draws other samples
	run -0 "$PMVIEW" -t PROV -f tsv "$T/s/gzip.r3.s0.pmr"
	[[ $output == *$'\n'"PROV"$'\t'"3"$'\t'* ]]
	a=$("$PMVIEW" -t DET -f tsv "$T/s/gzip.r0.s0.pmr" | cut -f2 | md5sum)
	b=$("$PMVIEW" -t DET -f tsv "$T/s/gzip.r3.s0.pmr" | cut -f2 | md5sum)
	[ "$a" != "$b" ]
	# a row a seed, each its own comparison's figures
	run -0 awk -F '\t' 'NR > 1 { print $1, $2 }' "$T/s/seeds.tsv"
	[ "$output" = $'gzip 0\ngzip 3' ]
	for r in 0 3; do
		want=$(awk -F '\t' '$1 == "#summary" { for (i = 2; i <= NF; i++)
		    h[$i] = i } $1 == "summary" { print $h["err21_rel"] }' \
		    "$T/s/gzip.r$r.cmp.tsv")
		got=$(awk -F '\t' -v r=$r '$2 == r { print $4 }' "$T/s/seeds.tsv")
		[ -n "$want" ]
		[ "$want" = "$got" ]
		# and the same samples on the true path, from their own
		# comparison
		want=$(awk -F '\t' '$1 == "#summary" { for (i = 2; i <= NF; i++)
		    h[$i] = i } $1 == "summary" { print $h["err21_rel"] }' \
		    "$T/s/gzip.r$r.or.cmp.tsv")
		got=$(awk -F '\t' -v r=$r '$2 == r { print $13 }' "$T/s/seeds.tsv")
		[ -n "$want" ]
		[ "$want" = "$got" ]
		# the signatures the fragments are of, from shotgun's counters
		want=$(tr ' ' '\n' < "$T/s/gzip.r$r.sg.stats" |
		    awk -F = '$1 == "sigs_kept" { print $2 }')
		got=$(awk -F '\t' -v r=$r '$2 == r { print $14 }' "$T/s/seeds.tsv")
		[ -n "$want" ]
		[ "$want" -gt 0 ]
		[ "$want" = "$got" ]
		# the paper's Table 7 rows: the singles and dl1's pairs
		want=$("$ICOST" --compare --focus=dl1 -t 5 -f tsv \
		    "$T/s/gzip.ms.cost" "$T/s/gzip.g.cost" \
		    "$T/s/gzip.r$r.sg.cost" | awk -F '\t' '$1 == "#summary" {
		    for (i = 2; i <= NF; i++) h[$i] = i } $1 == "summary" {
		    print $h["rows"], $h["err21_rel"], $h["err2_rel"],
		    $h["rows21"] }')
		got=$(awk -F '\t' -v r=$r '$2 == r { print $15, $16, $17, $19 }' \
		    "$T/s/seeds.tsv")
		[ -n "$want" ]
		[ "$want" = "$got" ]
		grep -q $'^row\tdl1+dmiss\t' "$T/s/gzip.r$r.t7.tsv"
		run -1 grep -q $'^row\twin+dmiss\t' "$T/s/gzip.r$r.t7.tsv"
		grep -q $'^row\twin+dmiss\t' "$T/s/gzip.r$r.cmp.tsv"
	done
	# which is shotgun --oracle's breakdown of the same samples
	a=$("$BIN/shotgun" -q -n 20 --warm 0 --oracle -p "$TOP/traces/gzip.pmr.zst" \
	    "$T/s/gzip.r0.s0.pmr" | "$ICOST" -q --warm 0 --chain --issue sched -f pmr |
	    "$PMVIEW" -t COST -f tsv)
	b=$("$PMVIEW" -t COST -f tsv "$T/s/gzip.r0.or.cost")
	c=$("$PMVIEW" -t COST -f tsv "$T/s/gzip.r0.sg.cost")
	[ -n "$a" ]
	[ "$a" = "$b" ]
	[ "$b" != "$c" ]
	# the summary: the mean, the lowest and the highest of the two
	run -0 awk -F '\t' 'FNR == NR { v[++n] = $4; next }
	    FNR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	    { m = (v[1] + v[2]) / 2; lo = v[1] < v[2] ? v[1] : v[2];
	      hi = v[1] < v[2] ? v[2] : v[1];
	      if ($h["seeds"] != 2 || sprintf("%.2f", m) != $h["sg_graph_rel"] ||
	          lo + 0 != $h["sg_graph_lo"] + 0 || hi + 0 != $h["sg_graph_hi"] + 0)
	          { print "bad", $0, m, lo, hi; exit 1 } }' \
	    <(tail -n +2 "$T/s/seeds.tsv") "$T/s/summary.tsv"
}

@test "shotgun.mk: no seeds or a seed twice is an error; a seed without a figure gives none, not the mean of the others" {
	run -2 make -n -f "$TOP/examples/shotgun.mk" TOP="$TOP" OUT="$T/e" SEEDS=
	[[ $output == *"SEEDS is empty"* ]]
	run -2 make -n -f "$TOP/examples/shotgun.mk" TOP="$TOP" OUT="$T/e" \
	    SEEDS="1 2 1"
	[[ $output == *"SEEDS names a seed twice"* ]]
	# seed 1 had no row of at least THRESH% ("-"): the relative errors
	# are "-", the largest errors the mean of both
	mkdir -p "$T/f"
	printf '%s\t' trace seed rows sg_graph_rel sg_graph_max sg_ms_rel \
	    sg_ms_max graph_ms_rel consistent_pct detected_pct > "$T/f/seeds.tsv"
	printf 'missing_pct\toffpath_pct\tor_graph_rel\tsigs_kept\t' >> "$T/f/seeds.tsv"
	printf 't7_rows\tt7_graph_rel\tt7_ms_rel\tgraph_rows\tt7_graph_rows\n' >> "$T/f/seeds.tsv"
	printf 'gzip\t0\t4\t5.00\t2.00\t6.00\t3.00\t4.00\t100.0\t-\t0.10\t0.000\t3.00\t200\t3\t4.00\t5.00\t4\t3\n' \
	    >> "$T/f/seeds.tsv"
	printf 'gzip\t1\t0\t-\t4.00\t-\t5.00\t-\t99.0\t50.0\t0.30\t0.010\t-\t215\t3\t-\t7.00\t0\t2\n' \
	    >> "$T/f/seeds.tsv"
	run -0 make -s -f "$TOP/examples/shotgun.mk" TOP="$TOP" OUT="$T/f" \
	    SEEDS="0 1" TRACES=gzip -o "$T/f/seeds.tsv" "$T/f/summary.tsv"
	run -0 tail -n 1 "$T/f/summary.tsv"
	[ "$output" = $'gzip\t2\t0\t-\t-\t-\t3.00\t-\t-\t-\t4.00\t-\t99.5\t50.0\t0.20\t0.005\t-\t207.5\t3\t-\t-\t-\t6.00\t5.00\t7.00\t0\t2' ]
}
