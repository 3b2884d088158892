#!/usr/bin/env bats
# 30-mhash.bats: the mhash command line (see man/mhash.1).  Golden outputs
# are hand-made traces with an injected index map (mhash(1), --hash=given).

bats_require_minimum_version 1.5.0
load test_helper

G=$DATA/mhash
G3="--text --hash=given -n 2 -H 4 -L 10 -t 30 -A 3 --no-retain --eval"
G1="--text --hash=given -n 1 -H 1 -A 3 --no-retain --eval"

# Runs mhash in $G with the arguments and compares the output, without the
# version header line, with the expected file $1.
golden() {
	local exp=$1
	shift
	cd "$G"
	run -0 --separate-stderr "$MHASH" "$@"
	[ -z "$stderr" ]
	printf '%s\n' "$output" | grep -v '^# mhash ' >"$BATS_TEST_TMPDIR/out"
	grep -v '^# mhash ' "$exp" >"$BATS_TEST_TMPDIR/exp"
	assert_same "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/exp"
}

# Prints the E_net column of the text summary row of configuration $1.
enet() {
	printf '%s\n' "$output" | awk -v c="$1" '$1 == "#" && $2 == c {
		sub("%", "", $4); print $4 }'
}

@test "mhash --help prints the options on stdout and exits 0" {
	run -0 --separate-stderr "$MHASH" --help
	[[ $output == usage:* ]]
	[[ $output == *--interval=N* ]]
	[[ $output == *"[10000]"* ]]
	[[ $output == *--seed* ]]
	[ -z "$stderr" ]
}

@test "mhash --version prints the version" {
	run -0 "$MHASH" --version
	[[ $output == "mhash (pmtools) "* ]]
}

@test "mhash: an unknown option is a usage error" {
	run -2 --separate-stderr "$MHASH" --bogus
	[[ $stderr == *usage:* ]]
	[[ $stderr == *"Try 'mhash --help'."* ]]
	[ -z "$output" ]
}

@test "mhash: a bad threshold is a usage error" {
	run -2 --separate-stderr "$MHASH" -t 0 --text "$G/empty.txt"
	[[ $stderr == *"--threshold: value '0' is not a percentage"* ]]
	[[ $stderr == *usage:* ]]
}

@test "mhash: H not a multiple of N is a usage error" {
	run -2 --separate-stderr "$MHASH" -H 2047 -n 4 --text "$G/empty.txt"
	[[ $stderr == *"multiple of the number of tables"* ]]
}

@test "mhash: the paper hash refuses a table size not a power of two" {
	run -2 --separate-stderr "$MHASH" -H 498 -n 3 --text "$G/empty.txt"
	[[ $stderr == *"power-of-two"* ]]
	run -0 "$MHASH" -H 498 -n 3 --hash=tab --text "$G/empty.txt"
}

@test "mhash: unknown preset, sweep, algo and format are usage errors" {
	run -2 "$MHASH" --preset=nope --text "$G/empty.txt"
	run -2 "$MHASH" --sweep=nope --text "$G/empty.txt"
	run -2 "$MHASH" --algo=mh,nope --text "$G/empty.txt"
	run -2 "$MHASH" -f xml --text "$G/empty.txt"
	run -2 "$MHASH" --synth=n=x
}

@test "mhash: golden C1R0 trace gives the exact profile, E 0%" {
	golden g3-c1r0.expected $G3 --cu --no-reset g3.txt
	[[ $output == *"E 0 0.00% "* ]]
}

@test "mhash: golden C0R0 trace overcounts b, E 10% all NP" {
	golden g3-c0r0.expected $G3 --no-cu --no-reset g3.txt
	[[ $output == *"C 0 0xb 0x1 4 3 NP"* ]]
	[[ $output == *"E 0 10.00% NP=10.00% "* ]]
}

@test "mhash: golden C1R1 trace misses b, E 30% all FN" {
	golden g3-c1r1.expected $G3 --cu --reset g3.txt
	[[ $output == *"C 0 0xb 0x1 0 3 FN"* ]]
	[[ $output == *"FN=30.00%"* ]]
}

@test "mhash: golden C0R1 trace misses b, E 30%" {
	golden g3-c0r1.expected $G3 --no-cu --reset g3.txt
	[[ $output == *"E 0 30.00% "* ]]
}

@test "mhash: golden single counter without reset: b is a FP, E 75%" {
	golden g1-aaab-r0.expected $G1 -L 4 -t 75 --no-reset g1-aaab.txt
	[[ $output == *"C 0 0xb 0x1 4 1 FP"* ]]
	[[ $output == *"E 0 75.00% "* ]]
}

@test "mhash: golden single counter with reset: E 0%" {
	golden g1-aaab-r1.expected $G1 -L 4 -t 75 --reset g1-aaab.txt
	[[ $output == *"E 0 0.00% "* ]]
}

@test "mhash: golden FP with fp 1 and fh 3 gives E 200%, not clamped" {
	golden g1-aab-r0.expected $G1 -L 3 -t 100 --no-reset g1-aab.txt
	[[ $output == *"E 0 200.00% "* ]]
}

@test "mhash: the header records the full configuration and seed" {
	run -0 --separate-stderr "$MHASH" --text --seed=7 "$G/empty.txt"
	[ "$stderr" = "mhash: warning: no events in the input" ]
	[[ ${lines[0]} == "# mhash "* ]]
	for k in algo=mh N=4 H=2048 S=512 cbits=24 cu=1 reset=0 retain=1 \
	    A=100 L=10000 theta=1% T=100 hash=paper seed=7; do
		[[ ${lines[0]} == *" $k "* ]]
	done
}

@test "mhash: a bad text value gives its line number and exit 1" {
	printf '0x10 1\n# comment\n\n0x10 zz\n' >"$BATS_TEST_TMPDIR/bad.txt"
	run -1 --separate-stderr "$MHASH" --text "$BATS_TEST_TMPDIR/bad.txt"
	assert_one_line_stderr
	[[ $stderr == *"line 4: bad value 'zz'"* ]]
}

@test "mhash: a text line with one field is an error" {
	run -1 --separate-stderr "$MHASH" --text <<<"5"
	assert_one_line_stderr
	[[ $stderr == *"line 1: expected 2 fields, got 1"* ]]
}

@test "mhash: a given index beyond the table is an error" {
	run -1 --separate-stderr "$MHASH" --text --hash=given -n 2 -H 4 \
	    <<<"1 2 0 2"
	assert_one_line_stderr
	[[ $stderr == *"line 1: index 2 is not below the table size 2"* ]]
}

@test "mhash: an unreadable file is an error" {
	run -1 --separate-stderr "$MHASH" "$BATS_TEST_TMPDIR/none.pmr"
	[[ $stderr == *"cannot open"* ]]
}

@test "mhash: a stream that is not pmr is an error" {
	printf 'hello world\n' >"$BATS_TEST_TMPDIR/x.pmr"
	run -1 --separate-stderr "$MHASH" "$BATS_TEST_TMPDIR/x.pmr"
	assert_one_line_stderr
}

@test "mhash: text numbers are decimal, 0x hex, and hex with --hex" {
	printf '16 1\n0x10 1\n10 1\n' >"$BATS_TEST_TMPDIR/n.txt"
	run -0 "$MHASH" --text --exact -L 3 -t 30 "$BATS_TEST_TMPDIR/n.txt"
	[[ $output == *"C 0 0x10 0x1 2"* ]]
	[[ $output == *"C 0 0xa 0x1 1"* ]]
	run -0 "$MHASH" --text --hex --exact -L 3 -t 30 \
	    "$BATS_TEST_TMPDIR/n.txt"
	[[ $output == *"C 0 0x10 0x1 2"* ]]
	[[ $output == *"C 0 0x16 0x1 1"* ]]
}

@test "mhash --exact prints every tuple with count >= T, exact counts" {
	cd "$G"
	run -0 "$MHASH" --text --exact -L 10 -t 30 g3.txt
	[ "${lines[1]}" = "I 0 events=10 T=3 cand=3" ]
	[ "${lines[2]}" = "C 0 0xc 0x1 4" ]
	[ "${lines[3]}" = "C 0 0xa 0x1 3" ]
	[ "${lines[4]}" = "C 0 0xb 0x1 3" ]
}

@test "mhash: the final partial interval is tagged and kept out of E_net" {
	cd "$G"
	run -0 "$MHASH" --text --eval -L 4 -t 50 g3.txt
	[[ $output == *"I 2 events=2 T=2 cand=1 partial"* ]]
	run -0 --separate-stderr "$MHASH" --text --eval -L 4 -t 50 -f tsv \
	    g3.txt
	[[ $(printf '%s\n' "$output" | grep '^summary') == *$'\t2\t0\t1\t'* ]]
	run -0 "$MHASH" --text --eval -L 4 -t 50 --partial -f tsv g3.txt
	[[ $(printf '%s\n' "$output" | grep '^summary') == *$'\t3\t0\t0\t'* ]]
}

@test "mhash --empty=zero counts intervals without candidates" {
	seq 1 40 | awk '{ print $1, 1 }' >"$BATS_TEST_TMPDIR/u.txt"
	run -0 "$MHASH" --text --eval -L 10 -t 50 -f tsv \
	    "$BATS_TEST_TMPDIR/u.txt"
	[[ $(grep -c . <<<"$output") -gt 0 ]]
	[[ $(printf '%s\n' "$output" | grep '^summary' | cut -f14,15) == \
	    $'0\t4' ]]
	run -0 "$MHASH" --text --eval -L 10 -t 50 -f tsv --empty=zero \
	    "$BATS_TEST_TMPDIR/u.txt"
	[[ $(printf '%s\n' "$output" | grep '^summary' | cut -f14,15) == \
	    $'4\t4' ]]
}

@test "mhash --area reproduces the paper's 7 KB and 16 KB" {
	run -0 "$MHASH" --area -p hpca03-1pct
	[[ ${lines[1]} == *" 6144 "*" 100 "*" 1000 "*" 7144 "*" 1925.00 "* ]]
	run -0 "$MHASH" --area -p hpca03-01pct -f tsv
	[[ ${lines[1]} == $'area\tmh-n4-c1r0p1\t6144\t1000\t154\t10000\t16144\t'* ]]
}

@test "mhash --area --accounting=exact sizes baselines by 19-byte entries" {
	run -0 "$MHASH" --area --accounting=exact -a ss,mg -f tsv
	[[ $output == *$'ss-k424\t'* ]]
	[[ $output == *$'mg-k424\t'* ]]
	run -0 "$MHASH" --area --bytes=1900 -a ss -f tsv
	[[ $output == *$'ss-k190\t'* ]]
}

@test "mhash: binary EVENT input gives the same profile as text" {
	"$MHASH" --synth=n=30000,noise=500 --dump-events --no-pg \
	    -o "$BATS_TEST_TMPDIR/e.pmr"
	"$PMVIEW" -f tsv "$BATS_TEST_TMPDIR/e.pmr" |
	    awk '$1 == "EVENT" { print $3, $4 }' >"$BATS_TEST_TMPDIR/e.txt"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/e.txt")" -eq 30000 ]
	run -0 "$MHASH" --eval "$BATS_TEST_TMPDIR/e.pmr"
	grep -v '^# mhash' <<<"$output" >"$BATS_TEST_TMPDIR/a"
	run -0 "$MHASH" --eval --text "$BATS_TEST_TMPDIR/e.txt"
	grep -v '^# mhash' <<<"$output" >"$BATS_TEST_TMPDIR/b"
	assert_same "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
}

@test "mhash --kind selects value or edge EVENT records" {
	printf 'EVENT\t1\t0x10\t0x1\nEVENT\t2\t0x20\t0x2\nEVENT\t2\t0x20\t0x2\n' |
	    "$PMVIEW" -r --no-pg -o "$BATS_TEST_TMPDIR/k.pmr"
	run -0 "$MHASH" --exact -L 3 -t 1 "$BATS_TEST_TMPDIR/k.pmr"
	[[ $output == *"C 0 0x10 0x1 1"* ]]
	[[ $output != *0x20* ]]
	run -0 "$MHASH" --exact -L 3 -t 1 -k edge "$BATS_TEST_TMPDIR/k.pmr"
	[[ $output == *"C 0 0x20 0x2 2"* ]]
	run -0 "$MHASH" --exact -L 3 -t 1 -k all "$BATS_TEST_TMPDIR/k.pmr"
	[[ $output == *"I 0 events=3 "* ]]
}

@test "mhash reads concatenated and compressed streams" {
	run -0 "$MHASH" --exact "$G/value-20k.pmr.zst" "$G/value-20k.pmr.zst"
	[ "$(grep -c '^I ' <<<"$output")" -eq 4 ]
}

@test "mhash -f tsv has one header per line kind" {
	cd "$G"
	run -0 "$MHASH" $G3 --stats -f tsv g3.txt
	[ "$(grep -c '^#' <<<"$output")" -eq 6 ]
	[[ $output == *$'#C\tinterval\tpc\tvalue\tfh\tfp\tclass'* ]]
	[[ $output == *$'C\t0\t0xb\t0x1\t3\t3\tok'* ]]
}

@test "mhash -f json prints one valid object per line" {
	cd "$G"
	run -0 "$MHASH" $G3 --stats -f json g3.txt
	printf '%s\n' "$output" | jq -e -c . >/dev/null
	[[ ${lines[0]} == '{"type":"config",'* ]]
	[[ $output == *'"type":"E","interval":0,"E":0.000000'* ]]
}

@test "mhash --stats reports the counters of each interval" {
	cd "$G"
	run -0 "$MHASH" $G3 --cu --reset --stats g3.txt
	[[ $output == *"S 0 hashed=9 shielded=1 promotions=2 "* ]]
	[[ $output == *" resets=2 "* ]]
	[[ $output == *" exact_cand=3 hw_cand=2 churn=1"* ]]
}

@test "mhash --stats gives the churn of the perfect candidates" {
	cd "$G"
	run -0 "$MHASH" --text --stats -L 4 -t 50 g3.txt
	[[ ${lines[4]} == "S 0 "*" churn=1" ]]
	[[ ${lines[10]} == "S 2 "*" churn=0" ]]
}

@test "mhash: output is deterministic, and the seed changes the hash" {
	run -0 "$MHASH" --synth=n=50000,noise=100000,hot=200 -H 256 --eval
	a=$output
	run -0 "$MHASH" --synth=n=50000,noise=100000,hot=200 -H 256 --eval
	[ "$a" = "$output" ]
	run -0 "$MHASH" --synth=n=50000,noise=100000,hot=200 -H 256 --eval \
	    --seed=5
	[ "$a" != "$output" ]
}

@test "mhash --sweep=fig12 runs N = 1..16 and the best single hash" {
	run -0 "$MHASH" --synth=n=100000,noise=100000,hot=200 --sweep=fig12 \
	    --eval
	for c in mh-n1-c1r0p1 mh-n2-c1r0p1 mh-n4-c1r0p1 mh-n8-c1r0p1 \
	    mh-n16-c1r0p1 bsh-n1-c0r1p1; do
		[[ $output == *"# $c "* ]]
	done
}

@test "mhash --sweep=fig7 and fig10 have 4 and 16 configurations" {
	run -0 "$MHASH" --synth=n=20000 --sweep=fig7 -f tsv
	[ "$(grep -c '^summary' <<<"$output")" -eq 4 ]
	run -0 "$MHASH" --synth=n=20000 --sweep=fig10 -f tsv
	[ "$(grep -c '^summary' <<<"$output")" -eq 16 ]
}

@test "mhash: multi-hash with CU beats the best single hash" {
	run -0 "$MHASH" --synth=n=300000,noise=1000000,hot=200 \
	    --sweep=baselines --eval
	mh=$(enet mh-n4-c1r0p1)
	bsh=$(enet bsh-n1-c0r1p1)
	awk -v a="$mh" -v b="$bsh" 'BEGIN { exit !(a < 1 && a < b) }'
}

@test "mhash --algo runs the baselines at equal bytes" {
	run -0 "$MHASH" --synth=n=100000 -a mh,ss,cmcu,mg --eval -f tsv
	[ "$(grep -c '^summary' <<<"$output")" -eq 4 ]
	[[ $output == *$'summary\tss-k714\t7140\t'* ]]
	[[ $output == *$'summary\tcmcu-d4w512\t7144\t'* ]]
	[[ $output == *$'summary\tmg-k714\t7140\t'* ]]
}

@test "mhash: Misra-Gries never overestimates, Space-Saving never under" {
	run -0 "$MHASH" --synth=n=100000,noise=50000 -a mg --eval --summary \
	    -f tsv
	[[ $(grep '^summary' <<<"$output" | cut -f9,11) == \
	    $'0.000000\t0.000000' ]]
	run -0 "$MHASH" --synth=n=100000,noise=50000 -a ss --eval --summary \
	    -f tsv
	[[ $(grep '^summary' <<<"$output" | cut -f10,12) == \
	    $'0.000000\t0.000000' ]]
}

@test "mhash --hash=exact equals the exact profile" {
	run -0 "$MHASH" --synth=n=50000 --hash=exact --eval --reset -A 1000
	[[ $(enet mh-n4-c1r1p1-ideal) == 0.000 ]]
}

@test "mhash: the model knobs are accepted and recorded" {
	run -0 "$MHASH" --synth=n=30000 --sbox=random --victim=fifo \
	    --acc-init=threshold --reset-on-overflow -c 8 --no-cu --reset \
	    --no-retain -A 10 --eval
	for k in sbox=random victim=fifo acc_init=threshold \
	    reset_on_overflow=1 cbits=8 cu=0 reset=1 retain=0 A=10; do
		[[ ${lines[0]} == *" $k "* ]]
	done
	run -0 "$MHASH" --synth=n=30000 --victim=lru --acc-init=one -A 5
	run -0 "$MHASH" --synth=n=30000 --victim=random -A 5
}

@test "mhash: narrow counters saturate" {
	run -0 "$MHASH" --synth=n=20000,share=100,hot=1 -c 4 -t 0.01 --stats \
	    --no-cu
	[[ $output == *"saturations=0 "* ]]
	run -0 "$MHASH" --synth=n=20000,share=100,hot=1 -c 4 -t 90 --stats
	[[ $output == *"saturations=9985 "* ]]
}

@test "mhash -o writes the report to a file" {
	cd "$G"
	run -0 "$MHASH" $G3 -o "$BATS_TEST_TMPDIR/r.txt" g3.txt
	[ -z "$output" ]
	grep -q '^E 0 0.00%' "$BATS_TEST_TMPDIR/r.txt"
}

@test "mhash --dump-events writes an EVENT stream pmview reads" {
	"$MHASH" --text --dump-events -o "$BATS_TEST_TMPDIR/d.pmr" \
	    "$G/g3.txt"
	run -0 "$PMVIEW" -f tsv "$BATS_TEST_TMPDIR/d.pmr"
	[ "$(grep -c '^EVENT' <<<"$output")" -eq 10 ]
	[[ $output == *$'EVENT\t1\t0xa\t0x1'* ]]
}

@test "mhash --trace derives edge tuples from a ChampSim trace" {
	run -0 --separate-stderr "$MHASH" --trace -k edge -p hpca03-1pct \
	    --eval "$EXT/simple_app.champsim.xz"
	[[ $output == *"I 0 events=10000 T=100 "* ]]
	[[ $output == *"# mh-n4-c1r0p1 "* ]]
	[ -z "$stderr" ]
}

@test "mhash --trace -k addr profiles load addresses" {
	run -0 "$MHASH" --trace -k addr -e -L 10 -t 20 \
	    "$DATA/trace/simple_app.head48.champsim"
	[[ $output == *"I 0 events=4 T=2 cand="*" partial"* ]]
}

@test "mhash --trace warns when a trace has no loaded values" {
	run -0 --separate-stderr "$MHASH" --trace \
	    "$DATA/trace/simple_app.head48.champsim"
	[[ $stderr == *"no loaded values; try --kind=addr"* ]]
}

@test "mhash --kind=addr without --trace is a usage error" {
	run -2 --separate-stderr "$MHASH" -k addr --text "$G/empty.txt"
	[[ $stderr == *"--kind=addr needs --trace"* ]]
}

@test "mhash --theory prints the Fig. 9 bound" {
	run -0 "$MHASH" --theory -H 1000 -n 1 -f tsv
	[ "${lines[0]}" = $'#theory\tN\tZ\tt\tp' ]
	[ "${lines[4]}" = $'theory\t4\t1000\t1\t0.0256' ]
	[ "${#lines[@]}" -eq 17 ]
}

@test "mhash --trace --dump-events keeps the kind of each tuple" {
	t=$EXT/simple_app.champsim.xz
	"$MHASH" --trace -k all --dump-events --no-pg \
	    -o "$BATS_TEST_TMPDIR/t.pmr" "$t"
	run -0 "$MHASH" -k edge --eval "$BATS_TEST_TMPDIR/t.pmr"
	grep -v '^# mhash' <<<"$output" >"$BATS_TEST_TMPDIR/a"
	run -0 "$MHASH" --trace -k edge --eval "$t"
	grep -v '^# mhash' <<<"$output" >"$BATS_TEST_TMPDIR/b"
	assert_same "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
}

@test "mhash -f pmr writes HOT records and META lines" {
	cd "$G"
	run -0 "$MHASH" $G3 --no-cu --no-reset -f pmr --no-pg \
	    -o "$BATS_TEST_TMPDIR/h.pmr" g3.txt
	run -0 "$PMVIEW" -f tsv "$BATS_TEST_TMPDIR/h.pmr"
	[ "$(grep -c $'^HOT\t' <<<"$output")" -eq 3 ]
	[[ $output == *$'HOT\t0\t0xb\t0x1\t4\t3\t1\n'* ]]
	[[ $output == *$'META\tmhash.config\tname=mh-n2-c0r0p0-given '* ]]
	[[ $output == *$'META\tmhash.E\t0 10.000000 NP=10.000000 '* ]]
}

@test "mhash -o leaves no partial report when the input is bad" {
	run -1 --separate-stderr "$MHASH" -o "$BATS_TEST_TMPDIR/r.txt" "$DATA/bad/truncated-record.pmr"
	[ "$stderr" = "mhash: '$DATA/bad/truncated-record.pmr': record 6: truncated record header" ]
	run ls -A "$BATS_TEST_TMPDIR"
	[[ $output != *"r.txt"* ]]
}

# audit (issue 12)

@test "mhash --stats -E on an input with no candidates (no memcpy to NULL)" {
	run -0 --separate-stderr "$MHASH" --text --stats -E "$G/empty.txt"
	[[ $output == *"mh-n4-c1r0p1"* ]]
}

@test "mhash: output errors name the output" {
	run -1 --separate-stderr "$MHASH" $G3 -o /dev/full "$G/g3.txt"
	[ "$stderr" = "mhash: '/dev/full': No space left on device" ]
	run -1 --separate-stderr "$MHASH" $G3 --dump-events -o /dev/full "$G/g3.txt"
	[ "$stderr" = "mhash: '/dev/full': write error: No space left on device" ]
	run -1 --separate-stderr "$MHASH" $G3 -f pmr -o /dev/full "$G/g3.txt"
	[ "$stderr" = "mhash: '/dev/full': write error: No space left on device" ]
	run -1 --separate-stderr bash -c '"$0" $1 "$2" >/dev/full' "$MHASH" "$G3" "$G/g3.txt"
	[ "$stderr" = "mhash: stdout: No space left on device" ]
}

@test "mhash --text and pmview -r on binary input say so, and echo no raw bytes" {
	run -1 --separate-stderr "$MHASH" --text "$G/value-20k.pmr.zst"
	[ "$stderr" = "mhash: '$G/value-20k.pmr.zst', line 1: not text (binary data: a pmr stream or a trace is read without --text)" ]
	run -1 --separate-stderr "$PMVIEW" -r -o /dev/null "$G/value-20k.pmr.zst"
	[ "$stderr" = "pmview: '$G/value-20k.pmr.zst', line 1: not text (binary data: a pmr stream or a trace is read without -r)" ]
	printf '0x10 zz\xc3\n' > "$BATS_TEST_TMPDIR/t.txt"
	run -1 --separate-stderr "$MHASH" --text "$BATS_TEST_TMPDIR/t.txt"
	[ "$stderr" = "mhash: '$BATS_TEST_TMPDIR/t.txt', line 1: bad value 'zz\\xc3'" ]
	printf 'FOO\xc3\xa9\n' > "$BATS_TEST_TMPDIR/t.tsv"
	run -1 --separate-stderr "$PMVIEW" -r -o /dev/null "$BATS_TEST_TMPDIR/t.tsv"
	[ "$stderr" = "pmview: '$BATS_TEST_TMPDIR/t.tsv', line 1: unknown record type 'FOO\\xc3\\xa9'" ]
}

@test "mhash -f pmr passes the input's PROV chain and unknown records through" {
	printf 'PROV\t7\t1\tpmsim\t0.1.0\tpmsim x\n100\t0a0b0c\nEVENT\t1\t0x10\t0x20\n' |
	    "$PMVIEW" -r --no-pg -o "$BATS_TEST_TMPDIR/in.pmr"
	run -0 --separate-stderr "$MHASH" -f pmr -o "$BATS_TEST_TMPDIR/out.pmr" "$BATS_TEST_TMPDIR/in.pmr"
	run -0 "$PMVIEW" -f tsv "$BATS_TEST_TMPDIR/out.pmr"
	[[ $output == *$'\tmhash\t0.1.0\t'* ]]
	[[ $output == *$'PROV\t7\t1\tpmsim\t0.1.0\tpmsim x'* ]]
	[[ $output == *$'\n100\t0a0b0c\n'* ]]
	[ "$(grep -c '^EVENT' <<<"$output")" = 0 ]
}

# -a dcpi: prints the value of field $1 of the "dcpi" line in $output.
dfield() {
	printf '%s\n' "$output" | awk -v k="$1" '$1 == "dcpi" {
		for (i = 2; i <= NF; i++) { split($i, kv, "=");
			if (kv[1] == k) { sub("%", "", kv[2]); print kv[2] } } }'
}

@test "mhash -a dcpi on a bundled trace's EVENTs hands over every sample once" {
	"$PMSIM" --events=value --max 200000 "$TOP/traces/gzip.pmr.zst" >"$BATS_TEST_TMPDIR/ev.pmr"
	run -0 --separate-stderr "$MHASH" -a dcpi "$BATS_TEST_TMPDIR/ev.pmr"
	[ -z "$stderr" ]
	[[ $output == *"name=dcpi-e16384-w4-rr algo=dcpi entries=16384 ways=4 buckets=4096 policy=rr hash=mix overflow=8192 bytes=524288 kind=value"* ]]
	[ "$(dfield samples)" -gt 10000 ]
	[ "$(dfield counted)" = "$(dfield samples)" ]
	[ "$(dfield records)" = "$(dfield misses)" ]
	[ "$(dfield records)" = $(($(dfield evictions) + $(dfield flushed))) ]
}

@test "mhash -a dcpi -k sample reads pmsim's counter SAMPLEs as (pid, pc, sampler)" {
	"$PMSIM" --sampler=counter,S=64 --max 200000 "$TOP/traces/gzip.pmr.zst" >"$BATS_TEST_TMPDIR/s.pmr"
	run -0 --separate-stderr "$MHASH" -a dcpi -k sample -f tsv "$BATS_TEST_TMPDIR/s.pmr"
	[ -z "$stderr" ]
	[[ $output == *$'\tkind\tsource\tinput\n'*$'\tsample\tevents\t'* ]]
	n=$("$PMVIEW" -f tsv "$BATS_TEST_TMPDIR/s.pmr" | grep -c '^SAMPLE')
	[ "$(awk '$1 == "dcpi" { print $3 }' <<<"$output")" = "$n" ]
	[ "$(awk '$1 == "dcpi" { print $12 }' <<<"$output")" = "$n" ]
}

@test "mhash -a dcpi: a loop stream aggregates 20x or more with under 2% misses (T11)" {
	for p in rr swap-front; do
		run -0 "$MHASH" -a dcpi --dcpi-policy=$p --synth=n=200000,hot=40,share=90,noise=400
		awk -v r="$(dfield reduction)" 'BEGIN { exit !(r >= 20) }'
		awk -v m="$(dfield miss_rate)" 'BEGIN { exit !(m < 2) }'
	done
}

@test "mhash -a dcpi: a new pid every 1000 samples misses at tens of percent (T11)" {
	run -0 "$MHASH" -a dcpi --synth=n=200000,newpid=1000
	awk -v m="$(dfield miss_rate)" 'BEGIN { exit !(m >= 10 && m < 100) }'
	[ "$(dfield handoffs)" -gt 0 ]
	[ "$(dfield counted)" = 200000 ]
}

@test "mhash -a dcpi: 6-way swap-front misses no more than 4-way rr (T12)" {
	run -0 "$MHASH" -a dcpi --dcpi-entries=4096 --synth=n=200000,hot=400,noise=20000
	rr=$(dfield misses)
	run -0 "$MHASH" -a dcpi --dcpi-entries=6144 --dcpi-ways=6 --dcpi-policy=swap-front --synth=n=200000,hot=400,noise=20000
	[ "$(dfield misses)" -le "$rr" ]
}

@test "mhash -a dcpi -f json writes the configuration and the statistics" {
	run -0 "$MHASH" -a dcpi -f json --dcpi-hash=xor --dcpi-overflow=16 --synth=n=1000
	[[ ${lines[0]} == '{"type":"config","name":"dcpi-e16384-w4-rr","algo":"dcpi"'*'"hash":"xor","overflow":16,'* ]]
	[[ ${lines[1]} == '{"type":"dcpi","config":"dcpi-e16384-w4-rr","samples":1000,'*'"counted":1000}' ]]
}

@test "mhash -a dcpi: bad option values are usage errors" {
	for a in "--dcpi-ways=0" "--dcpi-ways=65" "--dcpi-entries=x" "--dcpi-policy=lru" \
	    "--dcpi-hash=crc" "--dcpi-overflow=0" "--dcpi-ways=6" "-a dcpi,mh" "--eval"; do
		run -2 --separate-stderr "$MHASH" -a dcpi $a --synth=n=10
		[[ $stderr == *usage:* ]]
		[ -z "$output" ]
	done
	run -2 --separate-stderr "$MHASH" -a dcpi --dcpi-ways=6 --synth=n=10
	[[ $stderr == "mhash: -a dcpi: entries: 16384 is not a multiple of the 6 ways"* ]]
	run -2 --separate-stderr "$MHASH" --dcpi-ways=2 --synth=n=10
	[[ $stderr == "mhash: the --dcpi-* options need -a dcpi"* ]]
	run -2 --separate-stderr "$MHASH" -k sample --trace "$TOP/traces/grep.pmr.zst"
	[[ $stderr == "mhash: --kind=sample excludes --trace and --dump-events"* ]]
}

@test "mhash --help lists the dcpi options and newpid" {
	run -0 "$MHASH" --help
	for o in --dcpi-entries=N --dcpi-ways=N --dcpi-policy=P --dcpi-overflow=N --dcpi-hash=FN newpid=N "sample:"; do
		[[ $output == *"$o"* ]]
	done
}
