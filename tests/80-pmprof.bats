#!/usr/bin/env bats
# pmprof: DCPI's reports (SOSP '97 Figs. 1 and 3) on hand-made streams
# with exact figures, symbols against nm and objdump, the scores against
# TRUTH (TIP at the noise floor), run-to-run differences and their noise,
# the profile database, the exports read by their real consumers
# (callgrind_annotate, protoc), perf import, bad input.

load test_helper

setup() {
	T=$BATS_TEST_TMPDIR
}

# Builds tests/data/prof/work.S as $T/work and traces it into $T/w1.trace
# (slow once a round) and $T/w3.trace (slow three times a round).
work() {
	need_plugin "$T"
	cc -nostdlib -static -no-pie -Wl,--build-id -o "$T/work" \
	    "$DATA/prof/work.S"
	"$PMTRACE" -q -o "$T/w1.trace" -- "$T/work"
	"$PMTRACE" -q -o "$T/w3.trace" -- "$T/work" x
}

# sym NAME: the address of symbol NAME of $T/work, as 0x...
sym() {
	nm "$T/work" | awk -v n="$1" '$3 == n { print $1 }' |
	    while read -r a; do printf '0x%x\n' $((16#$a)); done
}

# A stream from lines "sampler pc count" (SAMPLE records) after an IMAGE
# of $T/work: $1 the output, the rest the lines.
samples() {
	local out=$1
	shift
	{
		printf '#IMAGE\tstart\tsize\toffset\tpath\tbuild_id\n'
		printf 'IMAGE\t0x400000\t65536\t0x0\t%s\t\n' "$T/work"
		printf '#SAMPLE\tsampler\tcls\ttrap\thist_len\tevents\tcontext'
		printf '\tseq\tpos\tpc\taddr\thistory\tfetch_cycle\tlat_fm\tlat_md'
		printf '\tlat_dx\tlat_xr\tlat_rr\tlat_ld\tlat_total\tkind\tcpos\n'
		printf '%s\n' "$@" | awk '{ for (i = 0; i < $3; i++)
		    printf "SAMPLE\t%s\t1\t0\t0\t0\t0\t%d\t0\t%s\t0x0\t0x0\t0" \
		        "\t4294967295\t4294967295\t4294967295\t4294967295" \
		        "\t4294967295\t4294967295\t4294967295\t0\t0\n", \
		        $1, n++, $2 }'
	} > "$T/s.tsv"
	"$PMVIEW" -r --no-pg -o "$out" "$T/s.tsv"
}

@test "pmprof --help, -V; a missing or unknown verb and bad options exit 2" {
	run -0 "$PMPROF" --help
	[[ $output == *"usage: pmprof verb"* ]]
	[[ $output == *"--sysroot"* ]]
	run -0 "$PMPROF" -V
	run -2 --separate-stderr "$PMPROF"
	[[ $stderr == *"a verb is needed"* ]]
	[[ $stderr == *"usage:"* ]]
	run -2 --separate-stderr "$PMPROF" frobnicate
	[[ $stderr == *"value 'frobnicate' is unknown (images, procs, list"* ]]
	run -2 --separate-stderr "$PMPROF" procs --bogus
	[[ $stderr == *"usage:"* ]]
	run -2 --separate-stderr "$PMPROF" procs -f xml
	run -2 --separate-stderr "$PMPROF" list
	[[ $stderr == *"a procedure name is needed"* ]]
	run -2 --separate-stderr "$PMPROF" stats a.pmr
	run -2 --separate-stderr "$PMPROF" diff a.pmr
	run -2 --separate-stderr "$PMPROF" export a.pmr
	[[ $stderr == *"-t callgrind, pprof or folded"* ]]
	run -2 --separate-stderr "$PMPROF" procs -t folded a.pmr
	run -2 --separate-stderr "$PMPROF" diff --alpha 2 a b
	run -2 --separate-stderr "$PMPROF" procs --epoch A a.pmr
	[[ $stderr == *"--epoch is for db add, or with --db"* ]]
}

@test "pmprof procs: DCPI's Fig. 1 percentages, each over its own event's total" {
	work
	slow=$(sym slow) fast=$(sym fast)
	# tip 3387 + 6613; counter 389 + 9611 (a scaled Fig. 1:
	# 2064143 / 6095201 = 33.87%, 43443 / 1117002 = 3.89%)
	samples "$T/a.pmr" "4 $slow 3387" "4 $fast 6613" "1 $slow 389" \
	    "1 $fast 9611"
	run -0 "$PMPROF" procs "$T/a.pmr"
	printf '%s\n' "$output"
	[ "${lines[0]}" = "Total samples for event type tip = 10000, counter:cycles = 10000" ]
	# sorted by the first event: fast, then slow; cum% ends at 100
	read -r a b c d e p im <<<"${lines[2]}"
	[ "$a $b $c $d $e $p" = "6613 66.13% 66.13% 9611 96.11% fast" ]
	read -r a b c d e p im <<<"${lines[3]}"
	[ "$a $b $c $d $e $p $im" = "3387 33.87% 100.00% 389 3.89% slow $T/work" ]
	# -e picks and orders the columns; TSV and JSON hold the same
	run -0 "$PMPROF" procs -e counter:cycles -f tsv "$T/a.pmr"
	[ "${lines[0]}" = $'#proc\tcounter:cycles\tcounter:cycles_pct\tcum_pct\tprocedure\timage' ]
	[ "${lines[1]}" = $'proc\t9611\t96.110000\t96.110000\tfast\t'"$T/work" ]
	run -0 "$PMPROF" procs -f json -n 1 "$T/a.pmr"
	[ "${#lines[@]}" -eq 1 ]
	[ "$(printf '%s' "$output" | jq -r '.procedure + " " + (.tip|tostring)')" = "fast 6613" ]
	run -0 "$PMPROF" images "$T/a.pmr"
	[[ ${lines[2]} == "10000 100.00% 100.00% 10000 100.00% $T/work"* ]] ||
	    [[ $(echo ${lines[2]}) == "10000 100.00% 100.00% 10000 100.00% $T/work" ]]
	run -1 --separate-stderr "$PMPROF" procs -e nosuch "$T/a.pmr"
	[[ $stderr == *"--event: no event 'nosuch' in the input (it has: tip, counter:cycles)"* ]]
}

@test "pmprof procs and list on a traced program: names and code as nm and objdump say" {
	work
	"$PMSIM" -q --sampler=tip,S=50 --truth -o "$T/t.pmr" "$T/w1.trace"
	run -0 "$PMPROF" procs -f tsv "$T/t.pmr"
	printf '%s\n' "$output"
	# every sample is in a row; the three procedures of the program
	total=$("$PMVIEW" -t SAMPLE -f tsv "$T/t.pmr" | grep -c '^SAMPLE')
	[ "$(printf '%s\n' "$output" | awk -F '\t' '$1 == "proc" { s += $2 } END { print s }')" -eq "$total" ]
	[ "$(printf '%s\n' "$output" | awk -F '\t' '$1 == "proc" && $6 == "'"$T/work"'" { print $5 }' | sort | tr '\n' ' ')" = "_start fast slow " ]
	# list: the instructions of slow at objdump's addresses
	run -0 "$PMPROF" list slow -f tsv "$T/t.pmr"
	printf '%s\n' "$output" | awk -F '\t' '$1 == "insn" { print $2 }' > "$T/pcs"
	objdump -d "$T/work" | awk '/<slow>:/ { on = 1; next } /^$/ { on = 0 }
	    on && $1 ~ /:$/ { sub(":", "", $1); print "0x" $1 }' > "$T/objdump"
	diff "$T/objdump" "$T/pcs"
	# one block, its samples the sum of its instructions'; exact retired
	printf '%s\n' "$output" | awk -F '\t' '$1 == "#insn" { for (i = 1; i <= NF; i++) h[$i] = i }
	    $1 == "block" { b = $3 } $1 == "insn" { s += $h["tip"]; r[$h["retired"]]++ }
	    END { exit !(b == s && r[3000] == 5) }'
	run -0 "$PMPROF" list slow "$T/t.pmr"
	[[ ${lines[0]} == "procedure slow in $T/work [$(sym slow), $(sym fast)): 5 instructions, 1 basic blocks" ]]
	[[ $output == *"imul rax, rax"* ]]
	[[ $output == *"ret"* ]]
	run -1 --separate-stderr "$PMPROF" list nosuch "$T/t.pmr"
	[ "$stderr" = "pmprof: no procedure 'nosuch' in the images' symbols" ]
	# ProfileMe samples: each instruction's mean stage latencies; the
	# 4-cycle imul chain waits in map-to-data-ready (md), the ret does not
	"$PMSIM" -q --profileme=single,S=20 -o "$T/p.pmr" "$T/w1.trace"
	run -0 "$PMPROF" list slow -f tsv "$T/p.pmr"
	printf '%s\n' "$output"
	printf '%s\n' "$output" | awk -F '\t' '$1 == "#insn" { for (i = 1; i <= NF; i++) h[$i] = i }
	    $1 == "insn" && $NF ~ /imul/ { n++; if ($h["lat:md"] < 2) exit 1 }
	    $1 == "insn" && $NF == "ret" { if ($h["lat:md"] > 1) exit 1 }
	    END { exit n != 4 }'
}

@test "pmprof: a missing binary or another build gives a note, never a wrong name" {
	work
	"$PMSIM" -q --sampler=tip,S=50 -o "$T/t.pmr" "$T/w1.trace"
	mv "$T/work" "$T/work.moved"
	run -0 "$PMPROF" procs "$T/t.pmr"
	[[ $output == *"[no symbols]"* ]]
	[[ $output != *"slow"* ]]
	[[ ${lines[-1]} == "note: no symbols for '$T/work' (No such file or directory)" ]]
	# under --sysroot it is found again
	mkdir -p "$T/root$T" && cp "$T/work.moved" "$T/root$T/work"
	run -0 "$PMPROF" procs --sysroot "$T/root" "$T/t.pmr"
	[[ $output == *" slow "* ]]
	[[ $output != *"note:"* ]]
	# another build at the recorded path
	cc -nostdlib -static -no-pie -DN=7 -o "$T/work" "$DATA/prof/work.S"
	run -0 "$PMPROF" procs "$T/t.pmr"
	[[ $output != *"slow"* ]]
	[[ ${lines[-1]} == *"another build than the traced one: build-ids differ"* ]]
}

@test "pmprof: runs of two builds at the same addresses name no procedure there, and say why" {
	work
	"$PMSIM" -q --sampler=tip,S=50 -o "$T/a.pmr" "$T/w1.trace"
	# another build at the same path and base, slow 64 bytes further
	cc -nostdlib -static -no-pie -Wl,--build-id -DPAD=64 -o "$T/work" \
	    "$DATA/prof/work.S"
	"$PMTRACE" -q -o "$T/p.trace" -- "$T/work"
	"$PMSIM" -q --sampler=tip,S=50 -o "$T/b.pmr" "$T/p.trace"
	# each run alone: the file is the second build, so only b is named
	run -0 "$PMPROF" procs -f tsv "$T/b.pmr"
	[[ $output == *$'\tslow\t'* ]]
	run -0 "$PMPROF" procs -f tsv "$T/a.pmr"
	[[ $output != *$'\tslow\t'* ]]
	# together: a pc of either could be either build's; no names, a note
	run -0 "$PMPROF" procs "$T/a.pmr" "$T/b.pmr"
	printf '%s\n' "$output"
	[[ $output != *" slow "* ]]
	[[ $output != *" fast "* ]]
	[[ ${lines[-1]} == *"another file or build was mapped at the same addresses"* ]]
	run -1 --separate-stderr "$PMPROF" list slow "$T/a.pmr" "$T/b.pmr"
	assert_one_line_stderr
}

@test "pmprof: a stripped binary's names come from its debug file (build-id)" {
	work
	"$PMSIM" -q --sampler=tip,S=50 -o "$T/t.pmr" "$T/w1.trace"
	bid=$(readelf -n "$T/work" | awk '/Build ID/ { print $3 }')
	[ -n "$bid" ]
	d=$T/root/usr/lib/debug/.build-id/${bid:0:2}
	mkdir -p "$d" "$T/root$T"
	objcopy --only-keep-debug "$T/work" "$d/${bid:2}.debug"
	strip --strip-all -o "$T/root$T/work" "$T/work"
	rm "$d/${bid:2}.debug"
	run -0 "$PMPROF" procs --sysroot "$T/root" "$T/t.pmr"
	[[ $output == *"[outside symbols]"* ]]
	[[ $output != *" slow "* ]]
	objcopy --only-keep-debug "$T/work" "$d/${bid:2}.debug"
	run -0 "$PMPROF" procs --sysroot "$T/root" "$T/t.pmr"
	[[ $output == *" slow "* ]]
	[[ $output != *"outside"* ]]
}

@test "pmprof stats: DCPI's Fig. 3 formulas over hand-made runs" {
	work
	slow=$(sym slow) fast=$(sym fast)
	n=0
	for c in 10 20 30 40; do
		n=$((n + 1))
		samples "$T/r$n.pmr" "4 $slow $c" "4 $fast 5"
	done
	run -0 "$PMPROF" stats "$T"/r[1-4].pmr
	printf '%s\n' "$output"
	[ "${lines[0]}" = "Number of samples of type tip" ]
	[ "$(echo ${lines[1]})" = "set 1 = 15 set 2 = 25 set 3 = 35 set 4 = 45 TOTAL 120" ]
	# range% = (max - min) / sum, sum% = sum / TOTAL, sd with n - 1
	[ "$(echo ${lines[4]})" = "30.00% 100.00 83.33% 4 25.00 12.91 10.00 40.00 slow $T/work" ]
	[ "$(echo ${lines[5]})" = "0.00% 20.00 16.67% 4 5.00 0.00 5.00 5.00 fast $T/work" ]
}

@test "pmprof diff: an injected slowdown ranks first; seeds alone differ within noise" {
	work
	"$PMSIM" -q --sampler=tip,S=50 -o "$T/a.pmr" "$T/w1.trace"
	"$PMSIM" -q --sampler=tip,S=50 -o "$T/b.pmr" "$T/w3.trace"
	run -0 "$PMPROF" diff -f tsv "$T/a.pmr" "$T/b.pmr"
	printf '%s\n' "$output"
	[[ ${lines[1]} == *$'\t1\tslow\t'* ]]
	# ten pairs of runs that differ in the seed only: at family-wise 5%,
	# a pair with any row flagged is rare (P(3 or more of 10) < 1.2%)
	flagged=0
	for s in 1 2 3 4 5 6 7 8 9 10; do
		"$PMSIM" -q --seed $s --sampler=tip,S=50 -o "$T/x.pmr" "$T/w1.trace"
		"$PMSIM" -q --seed $((s + 100)) --sampler=tip,S=50 -o "$T/y.pmr" "$T/w1.trace"
		run -0 "$PMPROF" diff "$T/x.pmr" "$T/y.pmr"
		[[ ${lines[0]} == *"; 0 of "* ]] || flagged=$((flagged + 1))
	done
	echo "pairs with a flagged row: $flagged of 10"
	[ "$flagged" -le 2 ]
	# two builds in two directories: procedures matched by name
	mkdir -p "$T/b2"
	cc -nostdlib -static -no-pie -Wl,--build-id -DN=6000 \
	    -Wl,-Ttext=0x500000 -o "$T/b2/work" "$DATA/prof/work.S"
	"$PMTRACE" -q -o "$T/b2.trace" -- "$T/b2/work"
	"$PMSIM" -q --sampler=tip,S=50 -o "$T/c.pmr" "$T/b2.trace"
	run -0 "$PMPROF" diff -f tsv "$T/a.pmr" "$T/c.pmr"
	printf '%s\n' "$output"
	[ "$(printf '%s\n' "$output" | awk -F '\t' '$1 == "diff" && $9 == "slow" && $2 > 0 && $4 > 0' | wc -l)" -eq 1 ]
	run -0 "$PMPROF" stats "$T/a.pmr" "$T/c.pmr"
	[ "$(printf '%s\n' "$output" | grep -c ' slow ')" -eq 1 ]
}

@test "pmprof score: TIP at the noise floor, the other samplers above it" {
	local s
	for s in tip pebs last ibs; do
		spec=--sampler=$s,S=20
		[ $s = pebs ] && spec=--sampler=pebs,S=20,event=cycles
		[ $s = ibs ] && spec=--sampler=ibs,S=30
		"$PMSIM" -q --max 200000 --truth $spec -o "$T/$s.pmr" \
		    "$TOP/traces/gzip.pmr.zst"
		"$PMPROF" score -f tsv "$T/$s.pmr" | awk -F '\t' -v s=$s '
		    $1 == "#error" { for (i = 1; i <= NF; i++) h[$i] = i }
		    $1 == "error" && $h["by"] == "insn" {
		        print s, $h["err_cycles"], $h["floor_cycles"] }'
	done > "$T/scores"
	cat "$T/scores"
	# tip's samples are a random sample of the oracle's cycles: its error
	# is the floor's, give or take the spread of one draw
	awk '$1 == "tip" { exit !($2 < 1.15 * $3 && $2 > 0.85 * $3) }' "$T/scores"
	awk '$1 == "tip" { t = $2 } $1 != "tip" { e[$1] = $2 }
	    END { for (s in e) if (e[s] < 1.5 * t) exit 1 }' "$T/scores"
	run -0 "$PMPROF" score --detail --by proc -f tsv "$T/tip.pmr"
	[[ $output == *$'#row\tlo\tevent\tsamples\test_pct\tcycles_pct'* ]]
	"$PMSIM" -q --max 20000 --sampler=tip -o "$T/nt.pmr" "$TOP/traces/gzip.pmr.zst"
	run -1 --separate-stderr "$PMPROF" score "$T/nt.pmr"
	[ "$stderr" = "pmprof: no TRUTH records to score against (pmsim --truth)" ]
}

@test "pmprof export: callgrind_annotate, protoc and folded stacks read the profile" {
	work
	"$PMSIM" -q --sampler=tip,S=50 --truth -o "$T/t.pmr" "$T/w1.trace"
	total=$("$PMVIEW" -t SAMPLE -f tsv "$T/t.pmr" | grep -c '^SAMPLE')
	"$PMPROF" export -t callgrind -e tip,truth:retired -o "$T/cg.out" "$T/t.pmr"
	run -0 callgrind_annotate "$T/cg.out"
	printf '%s\n' "$output"
	[[ $output == *"Events recorded:  tip truth_retired est_tip"* ]]
	# est:tip, the samples scaled to the run's cycles, adds up to them
	cyc=$("$PMVIEW" -t STATS -f tsv "$T/t.pmr" | awk -F '\t' '$1 == "#STATS" { for (i = 1; i <= NF; i++) h[$i] = i } $1 == "STATS" { print $h["cycles"] }')
	awk -v c="$cyc" '/^totals:/ { d = $4 - c; exit !(d * d <= 4 * 1000) }' "$T/cg.out"
	[ "$(printf '%s\n' "$output" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')" -eq "$total" ]
	printf '%s\n' "$output" | grep -E '\?\?\?:slow \['"$T"'/work\]'
	"$PMPROF" export -t folded "$T/t.pmr" > "$T/f.txt"
	grep -q '^work;slow [0-9]*$' "$T/f.txt"
	[ "$(awk '{ s += $NF } END { print s }' "$T/f.txt")" -eq "$total" ]
	# gzipped protobuf is no text for a terminal
	run script -qec "'$PMPROF' export -t pprof '$T/t.pmr'" /dev/null
	[ "$status" -eq 1 ]
	[[ $output == *"binary output to a terminal (use -o or --force)"* ]]
	run script -qec "'$PMPROF' export -t pprof --force '$T/t.pmr' > /dev/null" /dev/null
	[ "$status" -eq 0 ]
	"$PMPROF" export -t pprof -o "$T/p.pb.gz" "$T/t.pmr"
	gzip -dc "$T/p.pb.gz" | protoc --decode=perftools.profiles.Profile \
	    -I "$DATA/pprof" "$DATA/pprof/profile.proto" > "$T/p.txt"
	# the string table holds the sampler, the image and the procedures
	grep -q 'string_table: "tip"' "$T/p.txt"
	grep -q "string_table: \"$T/work\"" "$T/p.txt"
	grep -q 'string_table: "slow"' "$T/p.txt"
	# two sample types, tip and est:tip: the first value of each sample
	grep -q 'string_table: "est:tip"' "$T/p.txt"
	[ "$(awk '/^sample \{/ { on = 1; k = 0 } on && /value:/ && !k++ { s += $2 } /^\}/ { on = 0 } END { print s }' "$T/p.txt")" -eq "$total" ]
}

@test "pmprof db: add, reopen, report as the streams; sums; epochs; bad input leaves it as it was" {
	work
	"$PMSIM" -q --sampler=tip,S=50 -o "$T/a.pmr" "$T/w1.trace"
	"$PMSIM" -q --sampler=tip,S=50 -o "$T/b.pmr" "$T/w3.trace"
	"$PMPROF" db "$T/p.db" add --epoch A "$T/a.pmr"
	"$PMPROF" db "$T/p.db" add --epoch B "$T/b.pmr"
	run -0 "$PMPROF" db "$T/p.db" epochs
	[ "$output" = $'A\nB' ]
	diff <("$PMPROF" procs "$T/a.pmr") <("$PMPROF" procs --db "$T/p.db" --epoch A)
	diff <("$PMPROF" diff -f tsv "$T/a.pmr" "$T/b.pmr" | cut -f1-10) \
	    <("$PMPROF" diff -f tsv --db "$T/p.db" | cut -f1-10)
	run -0 "$PMPROF" list slow --db "$T/p.db" --epoch B
	[[ $output == *"imul rax, rax"* ]]
	# the same epoch again: every count doubles; users query it with sqlite3
	n=$(sqlite3 "$T/p.db" "select sum(count) from v_samples where epoch = 'A'")
	"$PMPROF" db "$T/p.db" add --epoch A "$T/a.pmr"
	[ "$(sqlite3 "$T/p.db" "select sum(count) from v_samples where epoch = 'A'")" -eq $((2 * n)) ]
	# a truncated stream: refused before the database is touched
	before=$(sqlite3 "$T/p.db" "select count(*), sum(count) from sample")
	head -c 3000 "$T/b.pmr" > "$T/cut.pmr"
	run -1 --separate-stderr "$PMPROF" db "$T/p.db" add --epoch C "$T/a.pmr" "$T/cut.pmr"
	assert_one_line_stderr
	[ "$(sqlite3 "$T/p.db" "select count(*), sum(count) from sample")" = "$before" ]
	[ "$(sqlite3 "$T/p.db" "select count(*) from epoch where name = 'C'")" = 0 ]
	# a foreign database, and a file that is no database
	sqlite3 "$T/f.db" "create table t(x)"
	run -1 --separate-stderr "$PMPROF" procs --db "$T/f.db"
	[[ $stderr == "pmprof: '$T/f.db': "*"not a profile database"* ]]
	assert_one_line_stderr
	head -c 5000 /dev/urandom > "$T/r.db"
	run -1 --separate-stderr "$PMPROF" db "$T/r.db" add "$T/a.pmr"
	assert_one_line_stderr
	run -1 --separate-stderr "$PMPROF" procs --db "$T/nosuch.db"
	assert_one_line_stderr
	run -1 --separate-stderr "$PMPROF" procs --db "$T/p.db" --epoch nosuch
	[ "$stderr" = "pmprof: '$T/p.db': no epoch 'nosuch'" ]
}

@test "pmprof db: kill -9 during an add leaves the database consistent" {
	"$PMSIM" -q --max 400000 --sampler=tip,S=2 --truth -o "$T/big.pmr" \
	    "$TOP/traces/sqlite.pmr.zst"
	"$PMPROF" db "$T/p.db" add --epoch A "$T/big.pmr"
	one=$(sqlite3 "$T/p.db" "select sum(count) from sample")
	local i
	for i in 1 2 3 4 5; do
		"$PMPROF" db "$T/p.db" add --epoch A "$T/big.pmr" &
		pid=$!
		sleep 0.$((i * 2))
		kill -9 $pid 2>/dev/null || true
		wait $pid || true
		[ "$(sqlite3 "$T/p.db" "pragma integrity_check")" = ok ]
		n=$(sqlite3 "$T/p.db" "select sum(count) from sample")
		# whole adds only
		[ $((n % one)) -eq 0 ]
		[ "$(sqlite3 "$T/p.db" "select count(*) from run")" -eq $((n / one)) ]
	done
}

@test "pmprof import: perf script text of IBS op samples to SAMPLE records" {
	run -0 "$PMPROF" import -o "$T/i.pmr" "$DATA/perf/ibs_op.txt"
	[ "$("$PMVIEW" -t SAMPLE -f tsv "$T/i.pmr" | grep -c '^SAMPLE')" -eq 11 ]
	"$PMVIEW" -t META -f tsv "$T/i.pmr" | grep -q $'\tsource\tperf ibs_op'
	run -0 "$PMPROF" procs "$T/i.pmr"
	[[ ${lines[0]} == "Total samples for event type ibs = 11" ]]
	run -1 --separate-stderr "$PMPROF" import -o "$T/x.pmr" "$DATA/perf/bad_hex.txt"
	[[ $stderr == *"bad_hex.txt:3: cannot parse addr"* ]]
	[ ! -e "$T/x.pmr" ]
	run -1 --separate-stderr "$PMPROF" import -o "$T/x.pmr" "$DATA/perf/noevent.txt"
	assert_one_line_stderr
	run -0 "$PMPROF" import --kind ibs -o "$T/x.pmr" "$DATA/perf/noevent.txt"
	# -z, --level, --no-pg, --seed shape the stream
	"$PMPROF" import -z --level 5 --no-pg --seed 7 -o "$T/z.pmr" "$DATA/perf/ibs_op.txt"
	[ "$(head -c 4 "$T/z.pmr" | od -An -tx1 | tr -d ' ')" = 28b52ffd ]
	[ "$("$PMVIEW" -t PROV "$T/z.pmr" | grep -c PROV)" -eq 0 ]
	"$PMPROF" import --seed 7 -o "$T/s.pmr" "$DATA/perf/ibs_op.txt"
	"$PMVIEW" -t PROV -f tsv "$T/s.pmr" | grep -q $'^PROV\t7\t' 
	run -2 --separate-stderr "$PMPROF" import --kind arm "$DATA/perf/ibs_op.txt"
}

@test "pmprof: bad input gives one line and exit 1, no output file" {
	"$PMSIM" -q --max 20000 --sampler=tip,S=50 -o "$T/t.pmr" "$TOP/traces/gzip.pmr.zst"
	head -c 2000 "$T/t.pmr" > "$T/cut.pmr"
	run -1 --separate-stderr "$PMPROF" procs -o "$T/out.txt" "$T/cut.pmr"
	assert_one_line_stderr
	[[ $stderr == "pmprof: '$T/cut.pmr': "* ]]
	[ ! -e "$T/out.txt" ]
	run -1 --separate-stderr "$PMPROF" procs "$T/nosuch.pmr"
	[ "$stderr" = "pmprof: cannot open '$T/nosuch.pmr': No such file or directory" ]
	"$PMSIM" -q --max 20000 -o "$T/none.pmr" "$TOP/traces/gzip.pmr.zst"
	run -1 --separate-stderr "$PMPROF" procs "$T/none.pmr"
	[ "$stderr" = "pmprof: no SAMPLE or PAIR records in the input (pmsim --profileme or --sampler)" ]
	run -1 --separate-stderr "$PMPROF" procs "$TOP/traces/gzip.pmr.zst"
	assert_one_line_stderr
	# runs of other samplers compared: refused, not read as a fall to zero
	"$PMSIM" -q --max 20000 --sampler=pebs,S=50,event=cycles -o "$T/pebs.pmr" "$TOP/traces/gzip.pmr.zst"
	run -1 --separate-stderr "$PMPROF" diff "$T/t.pmr" "$T/pebs.pmr"
	[ "$stderr" = "pmprof: run '$T/pebs.pmr' has no samples of tip: the runs compared need the same sampler (-e)" ]
	run -1 --separate-stderr "$PMPROF" stats "$T/t.pmr" "$T/pebs.pmr" "$T/t.pmr"
	assert_one_line_stderr
	# a sampler whose run has no TRUTH is not scored against another's
	"$PMSIM" -q --max 20000 --sampler=tip,S=50 --truth -o "$T/tt.pmr" "$TOP/traces/gzip.pmr.zst"
	run -0 "$PMPROF" score -f tsv "$T/tt.pmr" "$T/pebs.pmr"
	[[ $output != *$'error\tpebs:cycles'* ]]
	printf '%s\n' "${lines[@]}" | grep -qxF $'note\tnot scored, some of its runs have no TRUTH: pebs:cycles'
	# gzip's 2 samples in no image (qemu's start-up code) are blocks of
	# their own, and a note says so
	printf '%s\n' "${lines[@]}" | grep -qxF $'note\tpcs in no image (the trace names no binary for them): each is a block of its own'
	run -1 --separate-stderr "$PMPROF" score -e pebs:cycles "$T/tt.pmr" "$T/pebs.pmr"
	run -0 "$PMPROF" score "$T/tt.pmr" "$T/pebs.pmr" "$T/tt.pmr"
	# two runs read from standard input are one run
	cat "$T/t.pmr" "$T/t.pmr" | "$PMPROF" procs -f tsv > "$T/two.tsv"
	"$PMPROF" procs -f tsv "$T/t.pmr" > "$T/one.tsv"
	[ "$(awk -F '\t' '$1 == "proc" { s += $2 } END { print s }' "$T/two.tsv")" -eq \
	    "$(awk -F '\t' '$1 == "proc" { s += 2 * $2 } END { print s }' "$T/one.tsv")" ]
}

@test "pmprof procs on every bundled trace: symbols resolved, pcs of named rows inside them" {
	local t named=0
	for t in cc1 grep gzip python sort sqlite xz; do
		"$PMSIM" -q --max 100000 --sampler=tip,S=20 -o "$T/$t.pmr" \
		    "$TOP/traces/$t.pmr.zst"
		run -0 "$PMPROF" procs -f tsv "$T/$t.pmr"
		# a named row's procedure is a symbol of its image (nm -D, or
		# nm of the file itself, or of its debug file)
		printf '%s\n' "$output" | awk -F '\t' '$1 == "proc" && $5 !~ /^\[/ && $5 != "unknown" { print $5 "\t" $6 }' |
		    head -5 > "$T/named"
		# a stripped binary without a debug file has names for its
		# exported functions and those of its unwind table; a file
		# of another build than the traced one (an updated library)
		# has none, and a note says why
		if [ ! -s "$T/named" ]; then
			[[ $output == *$'\t'"[outside symbols]"$'\t'* ]] ||
			    [[ $output == *"build-ids differ"* ]]
			continue
		fi
		named=$((named + 1))
		while IFS=$'\t' read -r p img; do
			# code no symbol holds: a function of the unwind
			# table, named image+0xADDR (the link-time start)
			if [[ $p == "${img##*/}+0x"* ]]; then
				readelf --debug-dump=frames "$img" 2>/dev/null |
				    grep -q " FDE .* pc=0*${p##*+0x}\.\." ||
				    { echo "$t: '$p' starts no FDE of $img"; return 1; }
				continue
			fi
			{ nm -D "$img" 2>/dev/null; nm "$img" 2>/dev/null
			  b=$(readelf -n "$img" | awk '/Build ID/ { print $3 }')
			  nm "/usr/lib/debug/.build-id/${b:0:2}/${b:2}.debug" 2>/dev/null
			} | awk '{ print $NF }' | grep -qx "$p" ||
			    { echo "$t: '$p' is no symbol of $img"; return 1; }
		done < "$T/named"
	done
	[ "$named" -ge 5 ]
}

@test "pmprof import: PERF_RECORD_MMAP2 lines give the images, procs names slow and fast" {
	local load slow fast i
	cc -nostdlib -static -no-pie -Wl,--build-id -o "$T/work" \
	    "$DATA/prof/work.S"
	# the executable PT_LOAD: offset, vaddr, memsz
	load=$(readelf -lW "$T/work" | awk '$1 == "LOAD" && ($7 ~ /E/ || $8 == "E") {
		print $2, $3, $6 }')
	slow=$(nm "$T/work" | awk '$3 == "slow" { print $1 }')
	fast=$(nm "$T/work" | awk '$3 == "fast" { print $1 }')
	{
		echo "# perf script --show-mmap-events -F pid,tid,event,ip,sym,symoff,dso,addr,data_src,weight,ins_lat"
		set -- $load
		printf '   4242/4242    PERF_RECORD_MMAP2 4242/4242: [%#x(%#x) @ %#x fd:01 1234567 0]: r-xp %s\n' \
		    $(($2)) $(($3)) $(($1)) "$T/work"
		for i in 0 2 4 5 6 4 2; do
			if [ "$i" -lt 5 ]; then
				set -- slow $((16#$slow + i))
			else
				set -- fast $((16#$fast + i - 5))
			fi
			printf '   4242/4242    ibs_op//:     7ffd5c3a1f08     10229080142 |OP LOAD|LVL L1 hit|SNP N/A|TLB L1 hit|LCK N/A|BLK  N/A%16d%16d %16x %s+%#x (%s)\n' \
			    0 9 "$2" "$1" $((i % 5)) "$T/work"
		done
	} > "$T/perf.txt"
	run -0 "$PMPROF" import -o "$T/i.pmr" "$T/perf.txt"
	run -0 "$PMPROF" procs -f tsv "$T/i.pmr"
	[ "$(awk -F '\t' '$1 == "proc" && $5 == "slow" { print $2 }' <<<"$output")" -eq 5 ]
	[ "$(awk -F '\t' '$1 == "proc" && $5 == "fast" { print $2 }' <<<"$output")" -eq 2 ]
	[[ $output != *unknown* ]]
	"$PMVIEW" -t IMAGE -f tsv "$T/i.pmr" | grep -q $'^IMAGE\t0x401000\t'
}

@test "pmprof list on every bundled trace: the instructions objdump finds in the procedure" {
	local t p img start lo hi v0 n=0
	for t in cc1 grep gzip python sort sqlite xz; do
		"$PMSIM" -q --max 100000 --sampler=tip,S=20 -o "$T/$t.pmr" \
		    "$TOP/traces/$t.pmr.zst"
		# the procedure with most samples that has a name
		IFS=$'\t' read -r p img < <("$PMPROF" procs -f tsv "$T/$t.pmr" |
		    awk -F '\t' '$1 == "proc" && $5 !~ /^\[/ && $5 != "unknown" { print $5 "\t" $6; exit }') || p=
		[ -n "${p:-}" ] || continue
		n=$((n + 1))
		"$PMPROF" list "$p" -f tsv "$T/$t.pmr" |
		    awk -F '\t' '$1 == "insn" { print $2 }' > "$T/list"
		# run-time to link-time: the image's start is the link address
		# of the segment at file offset 0; objdump's lines of bytes alone
		# (the rest of a long instruction) are no instructions
		start=$("$PMVIEW" -t IMAGE -f tsv "$T/$t.pmr" | awk -F '\t' -v f="$img" '$1 == "IMAGE" && $5 == f { print $2; exit }')
		v0=$(readelf -lW "$img" | awk '$1 == "LOAD" && $2 == "0x000000" { print $3; exit }')
		lo=$(head -1 "$T/list") hi=$(tail -1 "$T/list")
		objdump -d --start-address=$((lo - start + v0)) \
		    --stop-address=$((hi - start + v0 + 1)) "$img" |
		    awk -F '\t' '/^ *[0-9a-f]+:\t/ && NF >= 3 { sub(":", "", $1); sub(/^ +/, "", $1); print $1 }' |
		    while read -r a; do printf '0x%x\n' $((16#$a + start - v0)); done > "$T/objdump"
		diff "$T/objdump" "$T/list" > /dev/null ||
		    { echo "$t: $p differs from objdump"; diff "$T/objdump" "$T/list" | head; return 1; }
	done
	[ "$n" -ge 5 ]
}
