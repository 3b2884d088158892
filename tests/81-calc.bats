#!/usr/bin/env bats
# pmprof calc: DCPI's stall analysis (SOSP '97 §6) on an in-order core,
# checked against the truth of the same run: a program with known static
# stalls (tests/data/prof/calc.S) on a perfect memory system, where M_i
# must be pmsim's head cycles exactly, and with its misses, where the
# stall must be blamed on the load; then the bundled sqlite trace.

load test_helper

setup_file() {
	local d=$BATS_FILE_TMPDIR
	need_plugin "$d"
	cc -nostdlib -static -no-pie -o "$d/calc" "$DATA/prof/calc.S"
	"$PMTRACE" -q -o "$d/calc.trace" -- "$d/calc"
	# perfect caches and predictor; then the real thing
	"$PMSIM" -q -m alpha21164 --ideal=dmiss,imiss,bmisp --truth \
	    --sampler=counter,event=cycles,S=16 -o "$d/ideal.pmr" \
	    "$d/calc.trace"
	"$PMSIM" -q -m alpha21164 --truth --sampler=counter,event=cycles,S=16 \
	    -o "$d/real.pmr" "$d/calc.trace"
	"$PMSIM" -q -m alpha21164 --truth --sampler=counter,event=cycles,S=16 \
	    --max=400000 -o "$d/sq1.pmr" "$TOP/traces/sqlite.pmr.zst"
	"$PMSIM" -q -m alpha21164 --truth --sampler=counter,event=cycles,S=16 \
	    --max=400000 --seed=2 -o "$d/sq2.pmr" "$TOP/traces/sqlite.pmr.zst"
}

setup() {
	D=$BATS_FILE_TMPDIR
	T=$BATS_TEST_TMPDIR
}

# The address of _start + $1, as 0x...
at() {
	printf '0x%x\n' $((16#$(nm "$D/calc" | awk '$3 == "_start" { print $1 }') + $1))
}

# Column $2 of the calc TSV row of pc $1 (in $output).
col() {
	awk -F '\t' -v pc="$1" -v c="$2" '
	    /^#/ { for (i = 1; i <= NF; i++) k[$i] = i; next }
	    $1 == pc { print $(k[c]) }' <<<"$output"
}

@test "pmprof calc: on a perfect memory system M_i is pmsim's head cycles per execution, and F P the loop's count within 2%" {
	local pc n=0
	run -0 --separate-stderr "$PMPROF" calc -f tsv _start "$D/ideal.pmr"
	[ -z "$stderr" ]
	# the loop's eight instructions ran 20000 times each
	for pc in $(awk -F '\t' '$1 !~ /^#/ && $15 == 20000 { print $1 }' <<<"$output"); do
		n=$((n + 1))
		awk -v m="$(col "$pc" M)" -v t="$(col "$pc" true_cpi)" \
		    -v f="$(col "$pc" freq)" -v pc="$pc" 'BEGIN {
			d = m - t; if (d < 0) d = -d
			e = f / 20000 - 1; if (e < 0) e = -e
			if (d > 0.005 || e > 0.02) {
				print pc ": M " m ", head cycles " t ", F P " f
				exit 1
			}
		}'
	done
	[ "$n" -eq 8 ]
	[ "$(col "$(at 0x10)" conf)" = H ]
}

@test "pmprof calc: static stalls and their culprits, exactly" {
	run -0 "$PMPROF" calc -f tsv _start "$D/ideal.pmr"
	# add rbx, rax waits the load's 2 cycles (l1d_lat), issuing in the
	# second: 2 head cycles, a register dependency on the load
	[ "$(col "$(at 0x13)" M)" -eq 2 ]
	[ "$(col "$(at 0x13)" static_why)" = r ]
	[ "$(col "$(at 0x13)" static_culprit)" = "$(at 0x10)" ]
	# add rdx, 1 issues with it
	[ "$(col "$(at 0x16)" M)" -eq 0 ]
	# add r8, rdi waits for the multiply: lat_imul = 12
	[ "$(col "$(at 0x1e)" M)" -eq 12 ]
	[ "$(col "$(at 0x1e)" static_culprit)" = "$(at 0x1a)" ]
	# the listing shows the bubble and the culprit
	run -0 "$PMPROF" calc _start "$D/ideal.pmr"
	[[ $output == *"*** Best-case "* ]]
	[[ $output == *"*** Actual "* ]]
	grep -Eq "^ +r 11\.0cy static$" <<<"$output"
	# (its CPI from samples: 12 within sampling noise)
	grep -Eq "^$(at 0x1e) +[0-9]+ +[0-9]+ +H +1[12]\.[0-9]cy +$(at 0x1a | sed 's/^0x//') +add r8, rdi$" <<<"$output"
}

@test "pmprof calc: a load that misses is the culprit of its consumer's dynamic stall (d, D), nothing else is blamed on the D-cache" {
	run -0 "$PMPROF" calc -f tsv _start "$D/real.pmr"
	[ "$(col "$(at 0x13)" causes)" = dD ]
	[ "$(col "$(at 0x13)" load)" = "$(at 0x10)" ]
	awk -v d="$(col "$(at 0x13)" dynamic)" 'BEGIN { exit !(d > 50) }'
	# the loop's count from the issue points that did not stall
	awk -v f="$(col "$(at 0x1e)" freq)" 'BEGIN { e = f / 20000 - 1; exit !(e < 0.03 && e > -0.03) }'
	# mid-line, not a block head: never the I-cache or a mispredict
	[[ $(col "$(at 0x16)" causes) != *[ip]* ]]
	run -0 "$PMPROF" calc --top-stalls=2 _start "$D/real.pmr"
	[ "${#lines[@]}" -eq 3 ]
	[[ ${lines[1]} == "$(at 0x13) "*" dD "*"$(at 0x10 | sed 's/^0x//') "*"add rbx, rax" ]]
}

@test "pmprof calc --whatcg: the summary's shares close at 100% (T4), ranges in order, gain not positive" {
	run -0 "$PMPROF" calc --whatcg -f tsv "$D/sq1.pmr"
	awk -F '\t' '
	    NR == 1 { next }
	    $2 == "Subtotal static" || $2 == "Subtotal dynamic" || $2 == "Execution" || $2 == "Net sampling error" { t += $3 }
	    $3 > $4 + 1e-9 { print "range:", $0; bad = 1 }
	    $2 == "Unexplained gain" && $3 > 0 { bad = 1 }
	    END { d = t - 100; if (d < 0) d = -d; if (d > 0.1) { print "total", t; bad = 1 }; exit bad }' <<<"$output"
	run -0 "$PMPROF" calc --whatcg "$D/sq1.pmr"
	[[ ${lines[0]} == "procedure"*"top cause" ]]
	[[ $output == *"*** Total tallied 100.0%"* ]]
}

@test "pmprof calc: mispredicts only at block heads or return points, I-cache only where a line may start" {
	local p
	p=$("$PMPROF" procs -f tsv "$D/sq1.pmr" | awk -F '\t' '$1 == "proc" && $5 !~ /^\[/ && $5 != "unknown" { print $5; exit }')
	run -0 "$PMPROF" calc -f tsv "$p" "$D/sq1.pmr"
	awk -F '\t' '
	    /^#/ { next }
	    { head = $2 != pb; pb = $2 }
	    $13 ~ /p/ && !head && prev !~ /^call/ { print "p inside a block:", $0; bad = 1 }
	    { prev = $NF }
	    END { exit bad }' <<<"$output"
}

@test "pmprof calc --score: frequency and cause accuracy of one run and the runs merged" {
	run -0 "$PMPROF" calc --whatcg --score -f tsv "$D/sq1.pmr" "$D/sq2.pmr"
	[ "${#lines[@]}" -eq 3 ]
	[[ ${lines[1]} == "run 1"$'\t'* ]]
	[[ ${lines[2]} == "2 runs"$'\t'* ]]
	awk -F '\t' 'NR > 1 { for (i = 2; i <= 6; i++) if ($i < 0 || $i > 100) exit 1
	    if (!($2 <= $3 && $3 <= $4)) exit 1 }' <<<"$output"
	# the test program, perfect memory: every sample's instruction within
	# 5%, and no dynamic stall in TRUTH to recall
	run -0 "$PMPROF" calc --score -f tsv _start "$D/ideal.pmr"
	[[ ${lines[1]} == "1 run"$'\t100.0\t100.0\t100.0\t-\t100.0\t-\t'* ]]
	# pmprof score says it too, after the samplers' scores
	run -0 "$PMPROF" score "$D/ideal.pmr"
	[[ $output == *"DCPI's stall analysis (pmprof calc --whatcg --score):"* ]]
	[[ ${lines[-1]} == "1 run "*" 100.0% "*" 100.0% "*" 100.0% "*" - "* ]]
	# with its misses: TRUTH's causes (pmr 1.6) are those reported
	run -0 "$PMPROF" calc --score -f tsv _start "$D/real.pmr"
	awk -F '\t' 'NR == 2 { exit !($7 >= 99 && $9 >= 99) }' <<<"$output"
	# and on sqlite, merged: the true cause is reported for nearly all of
	# the dynamic stall
	run -0 "$PMPROF" calc --whatcg --score -f tsv "$D/sq1.pmr" "$D/sq2.pmr"
	awk -F '\t' 'NR == 3 { exit !($7 >= 90) }' <<<"$output"
}

@test "pmprof calc refuses an out-of-order run, and says why" {
	"$PMSIM" -q -m alpha21264 --sampler=counter,event=cycles,S=64 \
	    --max=20000 -o "$T/ooo.pmr" "$TOP/traces/sqlite.pmr.zst"
	run -1 --separate-stderr "$PMPROF" calc --whatcg "$T/ooo.pmr"
	[ -z "$output" ]
	[[ $stderr == "pmprof: '$T/ooo.pmr': an out-of-order core (inorder = 0):"*"--profileme=paired, then pairs)" ]]
	[ "${#stderr_lines[@]}" -eq 1 ]
}

@test "pmprof calc: bad uses give one line and a non-zero exit" {
	"$PMSIM" -q -m alpha21164 --sampler=tip,S=64 --max=20000 \
	    -o "$T/tip.pmr" "$TOP/traces/sqlite.pmr.zst"
	run -1 --separate-stderr "$PMPROF" calc --whatcg "$T/tip.pmr"
	[[ $stderr == "pmprof: no CYCLES samples in the input (pmsim --sampler=counter,event=cycles)" ]]
	run -1 --separate-stderr "$PMPROF" calc no_such_proc "$D/real.pmr"
	[[ $stderr == "pmprof: no procedure 'no_such_proc' in the images' symbols" ]]
	# a trace that names no binary has no code: said why
	"$PMSIM" -q -m alpha21164 --sampler=counter,event=cycles,S=64 \
	    -o "$T/cs.pmr" "$TOP/tests/data/ext-traces/simple_app.champsim.xz"
	run -1 --separate-stderr "$PMPROF" calc --whatcg "$T/cs.pmr"
	[ "$stderr" = "pmprof: no CYCLES samples in any procedure of the images' symbols (the runs have no IMAGE records: their trace names no binary, as a ChampSim or drmemtrace trace does not)" ]
	run -1 --separate-stderr "$PMPROF" calc main "$T/cs.pmr"
	[ "$stderr" = "pmprof: no procedure 'main' in the images' symbols (the runs have no IMAGE records: their trace names no binary, as a ChampSim or drmemtrace trace does not)" ]
	run -1 --separate-stderr "$PMPROF" calc --score _start "$T/tip.pmr"
	[ "${#stderr_lines[@]}" -eq 1 ]
	"$PMSIM" -q -m alpha21164 --sampler=counter,event=cycles,S=64 \
	    -o "$T/nt.pmr" "$D/calc.trace"
	run -1 --separate-stderr "$PMPROF" calc --score _start "$T/nt.pmr"
	[[ $stderr == "pmprof: --score: no TRUTH in the input (pmsim --truth)" ]]
	run -2 --separate-stderr "$PMPROF" calc
	[[ $stderr == *"calc: a procedure name, or --whatcg, is needed"* ]]
	run -2 --separate-stderr "$PMPROF" procs --whatcg "$D/real.pmr"
	run -2 --separate-stderr "$PMPROF" calc --top-stalls=0 _start "$D/real.pmr"
	run -2 --separate-stderr "$PMPROF" calc -e tip _start "$D/real.pmr"
	run -2 --separate-stderr "$PMPROF" calc -f json _start "$D/real.pmr"
	head -c 3000 "$D/real.pmr" > "$T/cut.pmr"
	run -1 --separate-stderr "$PMPROF" calc _start "$T/cut.pmr"
	[ "${#stderr_lines[@]}" -eq 1 ]
}

@test "pmprof calc is deterministic: the same input, the same bytes" {
	"$PMPROF" calc --whatcg "$D/sq1.pmr" > "$T/a"
	"$PMPROF" calc --whatcg "$D/sq1.pmr" > "$T/b"
	cmp "$T/a" "$T/b"
	"$PMPROF" calc -f tsv --whatcg --score "$D/sq1.pmr" "$D/sq2.pmr" > "$T/a"
	"$PMPROF" calc -f tsv --score --whatcg "$D/sq1.pmr" "$D/sq2.pmr" > "$T/b"
	cmp "$T/a" "$T/b"
}

@test "pmprof calc --histogram: Figs. 8 and 9, each column sums to 100%, and the ideal loop in the buckets around 0" {
	run -0 "$PMPROF" calc --whatcg --histogram -f tsv "$D/sq1.pmr" "$D/sq2.pmr"
	[ "${#lines[@]}" -eq 41 ]
	[ "${lines[0]}" = $'#runs\tbucket\tinsns\tedges' ]
	awk -F '\t' 'NR > 1 { i[$1] += $3; e[$1] += $4; n[$1]++ }
	    END { for (k in i) if (n[k] != 20 || i[k] < 99.9 || i[k] > 100.1 ||
	        e[k] < 99.9 || e[k] > 100.1) { print k, n[k], i[k], e[k]; exit 1 } }' <<<"$output"
	run -0 "$PMPROF" calc --histogram -f tsv _start "$D/ideal.pmr"
	awk -F '\t' '$2 == "-5" || $2 == "0" { s += $3 } END { exit !(s > 99.9) }' <<<"$output"
}
