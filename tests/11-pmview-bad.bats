#!/usr/bin/env bats
# The corrupt-input corpus (tests/data/bad, made by mkbad.sh): each file
# gives exit 1 and one line on stderr that names the file and the problem,
# for --check, for the plain dump and for --stats.

load test_helper

# file -> the problem the message must state
declare -gA WANT=(
	[absurd-size.pmr]="record 0: size 4000000000 exceeds the limit 16777216"
	[bad-magic.pmr]="not a pmr stream (bad magic)"
	[bad-xz.pmr.xz]="corrupt xz data"
	[corrupt-zstd-checksum.pmr.zst]="corrupt zstd data: Restored data doesn't match checksum"
	[empty.pmr]="empty input"
	[end-count-mismatch.pmr]="record 1: END counts 5 records, the stream has 1"
	[garbage-after-end.pmr]="data after END record at byte 228 is not a stream header"
	[major-version-2.pmr]="unsupported stream major version 2 (this reader knows 1)"
	[missing-end.pmr]="missing END record after record 7"
	[must-understand-flag.pmr]="stream needs unknown must-understand features 0x8"
	[must-understand-type.pmr]="record 0: unknown must-understand record type 0x80000063"
	[size-below-fixed-part.pmr]="record 0: EVENT size 12 smaller than its fixed part 25"
	[size-below-header.pmr]="record 0: size 4 smaller than the record header"
	[string-past-end.pmr]="record 0: corrupt META record (field key)"
	[truncated-gzip.pmr.gz]="truncated gzip data at end of input"
	[truncated-header.pmr]="truncated stream header"
	[truncated-record.pmr]="record 6: truncated record header"
	[truncated-zstd.pmr.zst]="truncated zstd data at end of input"
	[type-zero.pmr]="record 0: invalid record type 0"
)

@test "every file in tests/data/bad has an expected message" {
	local f n=0
	for f in "$DATA"/bad/*; do
		[ "${f##*/}" = mkbad.sh ] && continue
		[ -n "${WANT[${f##*/}]:-}" ] || { echo "no message for $f"; return 1; }
		n=$((n + 1))
	done
	[ "$n" -eq "${#WANT[@]}" ]
}

# Runs pmview with the given options on every corrupt file and checks the
# status and the one line on stderr.
check_all() {
	local f
	[ "${#WANT[@]}" -ge 19 ]
	for f in "${!WANT[@]}"; do
		run -1 --separate-stderr "$PMVIEW" "$@" "$DATA/bad/$f"
		[ "$stderr" = "pmview: '$DATA/bad/$f': ${WANT[$f]}" ] ||
			{ echo "$f: got '$stderr'"; return 1; }
	done
}

@test "pmview --check: exit 1 and one line naming file and problem" {
	check_all --check
}

@test "pmview dump: exit 1 and the same one line" {
	check_all -f json
}

@test "pmview --stats: exit 1 and the same one line" {
	check_all --stats
}

@test "bad input on standard input is named <stdin>" {
	run -1 --separate-stderr "$PMVIEW" --check < "$DATA/bad/truncated-zstd.pmr.zst"
	[ "$stderr" = "pmview: '<stdin>': truncated zstd data at end of input" ]
}

@test "random bytes never crash the reader" {
	local i
	for i in $(seq 50); do
		head -c $((RANDOM % 4096)) /dev/urandom > "$BATS_TEST_TMPDIR/r"
		run --separate-stderr "$PMVIEW" --check "$BATS_TEST_TMPDIR/r"
		[ "$status" -eq 1 ] || { echo "status $status"; return 1; }
		assert_one_line_stderr
	done
}

# audit (issue 12)
@test "pmview -t 0 is refused: no record has type 0" {
	run -2 --separate-stderr "$PMVIEW" -t 0 "$DATA/mhash/value-20k.pmr.zst"
	[[ $stderr == "pmview: --type: value '0' is unknown"* ]]
}

# Runs "$@" on each of the files $T/m/m*: exit 0 or 1, never a signal, a
# sanitizer's report or a hang; on 1 the last line on stderr is the
# program's own.
on_flipped() {
	local f st err prog=${1##*/}
	for f in "$T"/m/m*; do
		st=0
		timeout 120 "$@" "$f" >/dev/null 2>"$T/err" || st=$?
		err=$(cat "$T/err")
		if [ "$st" -gt 1 ] || [[ $err == *Sanitizer* || $err == *"runtime error"* ]] ||
		    { [ "$st" = 1 ] && [[ $(tail -n 1 "$T/err") != "$prog: "* ]]; }; then
			echo "$*: ${f##*/}: exit $st: $err"
			cp "$f" "$BATS_FILE_TMPDIR/${prog}-${f##*/}" 2>/dev/null
			return 1
		fi
	done
}

@test "bytes flipped in the programs' inputs: exit 0 or 1, never a crash (60 seeded copies each)" {
	T=$BATS_TEST_TMPDIR
	p=$TOP/traces/gzip.pmr.zst
	# a DET of no operation class crashed shotgun, a COST record of
	# absurd cycles overflowed icost's sums: found this way
	"$PMSIM" -q -m fields03 --graph --max 3000 --no-pg -o "$T/g.pmr" "$p"
	"$TOP/tests/flip-bytes" 1 60 "$T/g.pmr" "$T/m"
	on_flipped "$ICOST"
	"$ICOST" -q -f pmr --no-pg -o "$T/c.pmr" "$T/g.pmr"
	"$TOP/tests/flip-bytes" 2 60 "$T/c.pmr" "$T/m"
	on_flipped "$ICOST"
	"$PMSIM" -q -m fields03 --max 20000 --shotgun=sig=500,len=500,det=10 --no-pg -o "$T/s.pmr" "$p"
	"$TOP/tests/flip-bytes" 3 60 "$T/s.pmr" "$T/m"
	on_flipped "$SHOTGUN" -q -n 5 -p "$p" -o /dev/null
	"$PMSIM" -q --max 20000 --sampler=tip,S=50 --truth --no-pg -o "$T/t.pmr" "$p"
	"$TOP/tests/flip-bytes" 4 60 "$T/t.pmr" "$T/m"
	on_flipped "$PMPROF" score
	"$PMSIM" -q --max 20000 --profileme=paired,S=50 --no-pg -o "$T/p.pmr" "$p"
	"$TOP/tests/flip-bytes" 5 60 "$T/p.pmr" "$T/m"
	on_flipped "$PAIRS" -o /dev/null
	"$PMTRACE" import -q --max 5000 -o "$T/tr.pmr" "$p"
	"$TOP/tests/flip-bytes" 6 60 "$T/tr.pmr" "$T/m"
	on_flipped "$PMSIM" -q --graph --truth --profileme=paired,S=50 -o /dev/null
}
