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
