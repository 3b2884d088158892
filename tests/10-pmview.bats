#!/usr/bin/env bats
# pmview: every option, the text forms, goldens of small streams.

load test_helper

setup() {
	T=$BATS_TEST_TMPDIR
	"$PMVIEW" -r --no-pg -o "$T/small.pmr" "$DATA/pmview/small.tsv"
}

@test "pmview --help prints the options on stdout and exits 0" {
	run -0 --separate-stderr "$PMVIEW" --help
	[[ $output == *"usage: pmview"* ]]
	[[ $output == *"--format=FMT"* ]]
	[[ $output == *"--no-pg"* ]]
	[ -z "$stderr" ]
}

@test "pmview -V prints the version" {
	run -0 "$PMVIEW" -V
	[[ $output == "pmview (pmtools) "[0-9]* ]]
}

@test "pmview with a bad option exits 2 with usage on stderr" {
	run -2 --separate-stderr "$PMVIEW" --bogus "$T/small.pmr"
	[[ $stderr == *"usage: pmview"* ]]
	[[ $stderr == *"Try 'pmview --help'."* ]]
	[ -z "$output" ]
}

@test "pmview -f with an unknown format exits 2" {
	run -2 --separate-stderr "$PMVIEW" -f xml "$T/small.pmr"
	[[ $stderr == *"pmview: --format: value 'xml' is unknown (text, tsv, json)"* ]]
}

@test "pmview --head 0 is a usage error" {
	run -2 --separate-stderr "$PMVIEW" --head 0 "$T/small.pmr"
	[[ $stderr == *"pmview: --head: value '0' is too small"* ]]
}

@test "pmview -f tsv matches the golden dump" {
	run -0 "$PMVIEW" -f tsv "$T/small.pmr"
	printf '%s\n' "$output" > "$T/out"
	assert_same "$T/out" "$DATA/pmview/small.tsv.expected"
}

@test "pmview -f text matches the golden dump" {
	"$PMVIEW" -f text "$T/small.pmr" > "$T/out"
	assert_same "$T/out" "$DATA/pmview/small.text.expected"
}

@test "pmview -f json matches the golden dump, one valid object a line" {
	"$PMVIEW" -f json "$T/small.pmr" > "$T/out"
	assert_same "$T/out" "$DATA/pmview/small.json.expected"
	if command -v python3 >/dev/null; then
		python3 -c 'import json,sys
for l in open(sys.argv[1]): json.loads(l)' "$T/out"
	fi
}

@test "pmview writes TSV when stdout is not a terminal" {
	run -0 "$PMVIEW" "$T/small.pmr"
	[[ ${lines[0]} == "#HEADER"$'\t'"minor"* ]]
}

@test "pmview -t selects record types by name and number" {
	run -0 "$PMVIEW" -t EVENT,77 "$T/small.pmr"
	[ "${#lines[@]}" -eq 5 ]
	[ "${lines[0]}" = "#EVENT"$'\t'"kind"$'\t'"pc"$'\t'"value" ]
	[ "${lines[4]}" = "77"$'\t'"deadbeef" ]
}

@test "pmview -t with an unknown name is a usage error" {
	run -2 --separate-stderr "$PMVIEW" -t NOSUCH "$T/small.pmr"
	[[ $stderr == *"pmview: --type: value 'NOSUCH' is unknown (pmview -l lists the types)"* ]]
}

@test "pmview -t with an empty list is a usage error" {
	run -2 --separate-stderr "$PMVIEW" -t , "$T/small.pmr"
	[ "${stderr_lines[0]}" = "pmview: --type: value ',' is empty" ]
	[ "${stderr_lines[-1]}" = "Try 'pmview --help'." ]
}

@test "pmview --head N stops after N printed records" {
	run -0 "$PMVIEW" -f text --head 2 -t EVENT "$T/small.pmr"
	[ "${#lines[@]}" -eq 2 ]
	[[ ${lines[1]} == "EVENT   kind=1   pc=0x400104 "* ]]
}

@test "pmview -r then pmview gives back the same TSV (round trip)" {
	"$PMVIEW" -f tsv "$T/small.pmr" > "$T/a.tsv"
	"$PMVIEW" -r --no-pg -o "$T/b.pmr" "$T/a.tsv"
	"$PMVIEW" -f tsv "$T/b.pmr" > "$T/b.tsv"
	assert_same "$T/b.tsv" "$T/a.tsv"
	cmp "$T/small.pmr" "$T/b.pmr"
}

@test "pmview -r reports the file and line of a bad line and leaves no file" {
	printf 'EVENT\t1\t0x1\t0x2\nEVENT\t1\tzz\t0x2\n' > "$T/bad.tsv"
	run -1 --separate-stderr "$PMVIEW" -r -o "$T/out.pmr" "$T/bad.tsv"
	[ "$stderr" = "pmview: '$T/bad.tsv', line 2: EVENT field pc: bad value 'zz'" ]
	[ ! -e "$T/out.pmr" ]
	run ls -A "$T"
	[[ $output != *".out.pmr."* ]]
}

@test "pmview -r refuses to write a stream to a terminal" {
	run -1 script -qec "$PMVIEW -r $DATA/pmview/small.tsv" /dev/null
	[[ $output == *"refusing to write a binary stream to a terminal"* ]]
}

@test "pmview -r -z and -o name.zst write zstd that zstd -t accepts" {
	"$PMVIEW" -r -z --no-pg "$DATA/pmview/small.tsv" > "$T/a.zst"
	"$PMVIEW" -r --level 19 --no-pg -o "$T/b.pmr.zst" "$DATA/pmview/small.tsv"
	zstd -q -t "$T/a.zst"
	zstd -q -t "$T/b.pmr.zst"
	zstd -dc "$T/a.zst" | cmp - "$T/small.pmr"
	zstd -dc "$T/b.pmr.zst" | cmp - "$T/small.pmr"
}

@test "pmview --level out of range is a usage error" {
	run -2 --separate-stderr "$PMVIEW" -r --level 25 "$DATA/pmview/small.tsv"
	[[ $stderr == *"pmview: --level: value '25' is too large (1..19)"* ]]
}

@test "pmview -r appends a PROV record with the command line and --seed" {
	"$PMVIEW" -r --seed 1234 -o "$T/p.pmr" "$DATA/pmview/small.tsv"
	run -0 "$PMVIEW" -t PROV "$T/p.pmr"
	[[ ${lines[1]} == "PROV"$'\t'"1234"$'\t'"1"$'\t'"pmview"$'\t'*$'\t'*"-r --seed 1234 -o $T/p.pmr $DATA/pmview/small.tsv" ]]
}

@test "provenance passed through a filter keeps its order" {
	"$PMVIEW" -r --seed 1 -o "$T/p1.pmr" "$DATA/pmview/small.tsv"
	"$PMVIEW" "$T/p1.pmr" | "$PMVIEW" -r --seed 2 -o "$T/p2.pmr"
	run -0 "$PMVIEW" -s "$T/p2.pmr"
	[[ $output == *$'prov\tpmview '*$'\tseed 1\t'*$'\nprov\tpmview '*$'\tseed 2\t'* ]]
}

@test "pmview --stats counts records and bytes per type" {
	run -0 "$PMVIEW" --stats "$T/small.pmr"
	[[ $output == *$'records\t7\n'* ]]
	[[ $output == *$'type\tEVENT\t3\t75\t25.0'* ]]
	[[ $output == *$'type\t77\t1\t12\t12.0'* ]]
	[[ $output == *$'type\t100\t1\t8\t8.0'* ]]
	[[ $output == *$'stream\t1\tversion 1.6\tcreator pmview'* ]]
	[[ $output == *$'codec\traw'* ]]
}

@test "pmview --check passes a good stream and prints a summary" {
	run -0 "$PMVIEW" --check "$T/small.pmr"
	[ "$output" = "$T/small.pmr: ok, 7 records in 1 stream" ]
	run -0 "$PMVIEW" --check -q "$T/small.pmr"
	[ -z "$output" ]
}

@test "pmview reads zstd, xz and gzip input the same as raw" {
	"$PMVIEW" "$T/small.pmr" > "$T/raw.tsv"
	zstd -q -c "$T/small.pmr" > "$T/s.zst"
	xz -c "$T/small.pmr" > "$T/s.xz"
	gzip -c "$T/small.pmr" > "$T/s.gz"
	for f in s.zst s.xz s.gz; do
		"$PMVIEW" "$T/$f" > "$T/$f.tsv"
		assert_same "$T/$f.tsv" "$T/raw.tsv"
	done
}

@test "concatenated raw and zstd streams read as several streams" {
	zstd -q -c "$T/small.pmr" > "$T/s.zst"
	cat "$T/small.pmr" "$T/s.zst" "$T/small.pmr" > "$T/cat.pmr"
	run -0 "$PMVIEW" --check "$T/cat.pmr"
	[ "$output" = "$T/cat.pmr: ok, 21 records in 3 streams" ]
	run -0 "$PMVIEW" -t HEADER "$T/cat.pmr"
	[ "${#lines[@]}" -eq 4 ]
}

@test "pmview reads standard input as - and when no file is given" {
	run -0 "$PMVIEW" -c - < "$T/small.pmr"
	[ "$output" = "<stdin>: ok, 7 records in 1 stream" ]
	run -0 "$PMVIEW" -c < "$T/small.pmr"
	[ "$output" = "<stdin>: ok, 7 records in 1 stream" ]
}

@test "pmview goes on after an unreadable file and exits 1" {
	run -1 --separate-stderr "$PMVIEW" -c "$T/nope.pmr" "$T/small.pmr"
	[ "$stderr" = "pmview: cannot open '$T/nope.pmr': No such file or directory" ]
	[ "$output" = "$T/small.pmr: ok, 7 records in 1 stream" ]
}

@test "pmview -o writes the dump to a file" {
	run -0 "$PMVIEW" -f tsv -o "$T/dump.tsv" "$T/small.pmr"
	[ -z "$output" ]
	assert_same "$T/dump.tsv" "$DATA/pmview/small.tsv.expected"
}

@test "pmview | head exits quietly" {
	for i in $(seq 2000); do printf 'EVENT\t1\t0x%x\t0x1\n' $i; done > "$T/many.tsv"
	"$PMVIEW" -r --no-pg -o "$T/many.pmr" "$T/many.tsv"
	run -0 --separate-stderr bash -c "set -o pipefail; '$PMVIEW' '$T/many.pmr' | head -n 2 >/dev/null; echo \${PIPESTATUS[0]}"
	[ -z "$stderr" ]
}

@test "pmview -v and --force are accepted" {
	run -0 "$PMVIEW" -v --force -c -q "$T/small.pmr"
}

@test "pmview runs clean under valgrind (under ASan in a SAN=1 build)" {
	local vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"
	[ "${PM_SAN:-}" = 1 ] && vg=""
	zstd -q -c "$T/small.pmr" > "$T/s.zst"
	cat "$T/s.zst" "$T/small.pmr" > "$T/cat.pmr"
	run -0 $vg "$PMVIEW" -f json "$T/cat.pmr"
	run -0 $vg "$PMVIEW" --stats "$T/cat.pmr"
	run -1 $vg "$PMVIEW" --check "$DATA/bad/truncated-zstd.pmr.zst"
	run -0 $vg "$PMVIEW" -r -z -o "$T/v.pmr.zst" "$DATA/pmview/small.tsv"
}

@test "pmview -o leaves no partial dump when the input is bad" {
	run -1 --separate-stderr "$PMVIEW" -f tsv -o "$T/dump.tsv" "$DATA/bad/missing-end.pmr"
	[ "$stderr" = "pmview: '$DATA/bad/missing-end.pmr': missing END record after record 7" ]
	[ ! -e "$T/dump.tsv" ]
	run ls -A "$T"
	[[ $output != *"dump.tsv"* ]]
}

@test "pmview -o into a missing directory fails with one line" {
	run -1 --separate-stderr "$PMVIEW" -o "$T/no/such/dir.tsv" "$T/small.pmr"
	[ "$stderr" = "pmview: cannot create '$T/no/such/dir.tsv': No such file or directory" ]
}

@test "pmview -o /dev/null writes in place and leaves /dev/null a device" {
	run -0 "$PMVIEW" -r -o /dev/null "$DATA/pmview/small.tsv"
	run -0 "$PMVIEW" -o /dev/null "$T/small.pmr"
	[ -c /dev/null ]
}

@test "pmview reads ChampSim and drmemtrace traces directly" {
	run -0 "$PMVIEW" --stats "$EXT/simple_app.champsim.xz"
	[[ $output == *$'creator pmtrace-import'* ]]
	[[ $output == *$'type\tSINSN\t'* ]]
	[[ $output == *$'type\tDINSN\t'* ]]
	run -0 "$PMVIEW" -t DINSN "$EXT/drmemtrace.allasm_x86_64.trace.zip"
	[ "${lines[1]%%$'\t'0x*}" = $'DINSN\t133\t2\t1992554' ]
}

@test "pmview -F names the input format; a wrong one fails with one line" {
	cp "$EXT/simple_app.champsim.xz" "$T/noname.xz"
	run -1 --separate-stderr "$PMVIEW" -c "$T/noname.xz"
	[ "$stderr" = "pmview: '$T/noname.xz': not a pmr stream (bad magic)" ]
	run -0 "$PMVIEW" -F champsim -c "$T/noname.xz"
	[[ $output == "$T/noname.xz: ok, "*" records in 1 stream" ]]
	run -2 --separate-stderr "$PMVIEW" -F vcd "$T/noname.xz"
	[[ $stderr == *"pmview: --from: value 'vcd' is unknown (auto, pmr, champsim, drmemtrace)"* ]]
}

@test "pmview stops early on a converted trace without hanging" {
	run -0 "$PMVIEW" -n 2 "$EXT/simple_app.champsim.xz"
	[ "${#lines[@]}" -eq 4 ]
	[ "${lines[3]%%$'\t'*}" = SINSN ]
}
