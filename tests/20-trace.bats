#!/usr/bin/env bats
# pmtrace import and stats: the ChampSim, drmemtrace and pmr trace readers
# through the command line, on tests/data/trace and the external traces in
# $EXT (test_helper.bash).

load test_helper

# Builds what the tracing tests run: the plugin (unless the build put one
# beside pmtrace), and the known loop of tests/data/trace/loop.S.
setup_file() {
	local d=$BATS_FILE_TMPDIR
	need_plugin "$d"
	cc -nostdlib -static -no-pie -DN=100 -x assembler-with-cpp \
		-o "$d/loop100" "$TOP/tests/data/trace/loop.S"
	cc -nostdlib -static -no-pie -DN=100000 -x assembler-with-cpp \
		-o "$d/loop100k" "$TOP/tests/data/trace/loop.S"
	cc -O2 -pthread -o "$d/threads" "$TOP/tests/data/trace/threads.c"
	cc -nostdlib -static -no-pie -DN=1000 -o "$d/chain" "$TOP/traces/micro/chain.S"
	cc -nostdlib -static -no-pie -DN=1000 -o "$d/muldiv" "$TOP/traces/micro/muldiv.S"
}

setup() {
	T=$DATA/trace
	B=$BATS_FILE_TMPDIR
}

# Prints the value of key $1 (first column) from "pmtrace stats" output.
stat_of() {
	awk -F '\t' -v k="$1" '$1 == k { print $2 }' <<<"$output"
}

@test "pmtrace --help prints the options on stdout" {
	run --separate-stderr -0 "$PMTRACE" --help
	[[ $output == *"--from=FORMAT"* ]]
	[ -z "$stderr" ]
}

@test "pmtrace -V, and -V after a command, print the version" {
	run --separate-stderr -0 "$PMTRACE" -V
	[[ $output == "pmtrace (pmtools) "[0-9]* ]]
	run --separate-stderr -0 "$PMTRACE" stats --version
	[[ $output == "pmtrace (pmtools) "[0-9]* ]]
	[ -z "$stderr" ]
}

@test "pmtrace with a bad option is a usage error" {
	run --separate-stderr -2 "$PMTRACE" import --bogus
	[[ $stderr == *"usage: pmtrace"* ]]
	[[ $stderr == *"pmtrace import [-qvz]"* ]]
	[[ $stderr == *"Try 'pmtrace --help'."* ]]
}

@test "pmtrace with an unknown format is a usage error" {
	run --separate-stderr -2 "$PMTRACE" stats -F nope "$T/simple_app.head48.champsim"
	[ "${stderr_lines[0]}" = "pmtrace: --from: value 'nope' is unknown (auto, pmr, champsim, drmemtrace)" ]
}

@test "tracing needs -o" {
	run --separate-stderr -2 "$PMTRACE" -- /bin/true
	[[ $stderr == *"tracing needs -o file"* ]]
	[[ $stderr == *"usage: pmtrace"* ]]
}

@test "trace of the known loop: 3 + 4N + 4 instructions, N branches" {
	run --separate-stderr -0 "$PMTRACE" -o "$BATS_TEST_TMPDIR/l.pmr" -- "$B/loop100"
	[[ $stderr == "pmtrace: 407 instructions, "* ]]
	run -0 "$PMTRACE" stats "$BATS_TEST_TMPDIR/l.pmr"
	[ "$(stat_of instructions)" = 407 ]
	[ "$(stat_of loads)" = 100 ]
	[ "$(stat_of stores)" = 1 ]
	[[ $output == *$'class\tbr_cond\t100\t99'* ]]
	[[ $output == *$'class\tsyscall\t1\t0'* ]]
}

@test "trace of the known loop: outcomes, addresses and loaded values" {
	"$PMTRACE" -q -o "$BATS_TEST_TMPDIR/l.pmr" -- "$B/loop100"
	run -0 "$PMTRACE" dump "$BATS_TEST_TMPDIR/l.pmr"
	# the loads: arr[i] at arr + 8i, 8 bytes, value 3i
	local n=0 base=-1 acc val
	while IFS=$'\t' read -r acc val; do
		[[ $acc =~ ^L0x([0-9a-f]+):8$ ]] || { echo "bad access $acc"; return 1; }
		[ "$base" -ge 0 ] || base=$((16#${BASH_REMATCH[1]}))
		[ $((16#${BASH_REMATCH[1]})) -eq $((base + 8 * n)) ] || { echo "load $n at $acc"; return 1; }
		[ $((val)) -eq $((3 * n)) ] || { echo "load $n value $val"; return 1; }
		n=$((n + 1))
	done < <(awk -F '\t' '$3 == "load" { print $8 "\t" $9 }' <<<"$output")
	[ "$n" -eq 100 ]
	# the jnz: taken back to the add 99 times, then falls through
	run -0 awk -F '\t' '$3 == "br_cond" { t += $6; last = $6; nx[$5]++ }
		END { print t, last, length(nx) }' <<<"$output"
	[ "$output" = "99 0 2" ]
}

@test "trace of a long loop agrees with valgrind's instruction count" {
	"$PMTRACE" -q -o "$BATS_TEST_TMPDIR/l.pmr.zst" -- "$B/loop100k"
	run -0 "$PMTRACE" stats "$BATS_TEST_TMPDIR/l.pmr.zst"
	[ "$(stat_of instructions)" = 400007 ]
	run -0 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$B/loop100k"
	local ir
	ir=$(sed -n 's/.*I *refs: *//p' <<<"$output" | tr -d ,)
	echo "valgrind: $ir, pmtrace: 400007"
	# callgrind leaves out the final block that exits: within 8
	[ $((400007 - ir)) -ge 0 ]
	[ $((400007 - ir)) -le 8 ]
}

@test "traces/micro: chain and muldiv have their analytic counts" {
	"$PMTRACE" -q -o "$BATS_TEST_TMPDIR/c.pmr" -- "$B/chain"
	run -0 "$PMTRACE" stats "$BATS_TEST_TMPDIR/c.pmr"
	[ "$(stat_of instructions)" = 10005 ]
	[[ $output == *$'class\tint\t9004\t0'* ]]
	[[ $output == *$'class\tbr_cond\t1000\t999'* ]]
	"$PMTRACE" -q -o "$BATS_TEST_TMPDIR/m.pmr" -- "$B/muldiv"
	run -0 "$PMTRACE" stats "$BATS_TEST_TMPDIR/m.pmr"
	[ "$(stat_of instructions)" = 8007 ]
	[[ $output == *$'class\timul\t4000\t0'* ]]
	[[ $output == *$'class\tidiv\t1000\t0'* ]]
}

@test "tracing passes the program's output and exit status through" {
	run --separate-stderr -7 "$PMTRACE" -q -o "$BATS_TEST_TMPDIR/s.pmr" -- sh -c 'echo hello; echo oops >&2; exit 7'
	[ "$output" = hello ]
	[ "$stderr" = oops ]
	[ -s "$BATS_TEST_TMPDIR/s.pmr" ]
}

@test "tracing a dynamic PIE program records an IMAGE per file" {
	run --separate-stderr -0 "$PMTRACE" -o "$BATS_TEST_TMPDIR/t.pmr.zst" -- /bin/true
	run -0 "$PMVIEW" --stats "$BATS_TEST_TMPDIR/t.pmr.zst"
	local n
	n=$(awk -F '\t' '$1 == "type" && ($2 == "8" || $2 == "IMAGE") { print $3 }' <<<"$output")
	echo "IMAGE records: $n"
	[ "$n" -ge 3 ]	# /usr/bin/true, ld.so, libc
	run -0 "$PMTRACE" stats "$BATS_TEST_TMPDIR/t.pmr.zst"
	[ "$(stat_of instructions)" -gt 50000 ]
}

@test "--skip and --max choose the recorded instructions" {
	"$PMTRACE" -q --max 30 -o "$BATS_TEST_TMPDIR/a.pmr" -- "$B/loop100"
	"$PMTRACE" -q --skip 10 --max 20 -o "$BATS_TEST_TMPDIR/b.pmr" -- "$B/loop100"
	run -0 "$PMTRACE" stats "$BATS_TEST_TMPDIR/a.pmr"
	[ "$(stat_of instructions)" = 30 ]
	run -0 "$PMTRACE" dump "$BATS_TEST_TMPDIR/a.pmr"
	local a
	a=$(awk -F '\t' 'NR > 11 { print $2, $8, $9 }' <<<"$output")
	run -0 "$PMTRACE" dump "$BATS_TEST_TMPDIR/b.pmr"
	[ "$(awk -F '\t' 'NR > 1 { print $2, $8, $9 }' <<<"$output")" = "$a" ]
}

@test "a multi-threaded program is refused clearly" {
	run --separate-stderr -1 "$PMTRACE" -o "$BATS_TEST_TMPDIR/th.pmr" -- "$B/threads"
	[[ $stderr == *"pmtrace: the program started a second thread; pmtrace traces single-threaded programs only"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/th.pmr" ]
}

@test "a missing emulator is reported" {
	PMTRACE_QEMU=/nonexistent/qemu run --separate-stderr -1 "$PMTRACE" -o "$BATS_TEST_TMPDIR/q.pmr" -- /bin/true
	[[ $stderr == *"cannot run '/nonexistent/qemu'"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/q.pmr" ]
}

@test "ChampSim slice: branch classes match the hand count" {
	run --separate-stderr -0 "$PMTRACE" stats "$T/simple_app.head48.champsim.gz"
	[ "$(stat_of format)" = champsim ]
	[ "$(stat_of instructions)" = 48 ]
	[[ $output == *$'class\tbr_cond\t6\t2'* ]]
	[[ $output == *$'class\tjmp\t1\t1'* ]]
	[[ $output == *$'class\tcall\t1\t1'* ]]
	[[ $output == *$'class\tload\t3\t0'* ]]
	[[ $output == *$'class\tstore\t12\t0'* ]]
	[[ $output == *$'class\tldst\t1\t0'* ]]
	[[ $output == *$'class\tother\t24\t0'* ]]
}

@test "ChampSim by -F when the name does not say so" {
	cp "$T/simple_app.head48.champsim" "$BATS_TEST_TMPDIR/head.trace"
	run --separate-stderr -1 "$PMTRACE" stats "$BATS_TEST_TMPDIR/head.trace"
	[[ $stderr == *"unknown trace format"* ]]
	run --separate-stderr -0 "$PMTRACE" stats -F champsim "$BATS_TEST_TMPDIR/head.trace"
	[ "$(stat_of instructions)" = 48 ]
}

@test "simple_app.champsim.xz has 136,051 instructions" {
	run --separate-stderr -0 "$PMTRACE" stats "$EXT/simple_app.champsim.xz"
	[ "$(stat_of instructions)" = 136051 ]
	[[ $output == *$'class\tbr_cond\t26297\t9505'* ]]
	[[ $output == *$'class\tret\t880\t880'* ]]
}

@test "drmemtrace simple_app has 136,051 instructions and the same branches" {
	run --separate-stderr -0 "$PMTRACE" stats "$EXT/drmemtrace.simple_app.trace.zip"
	[ "$(stat_of format)" = drmemtrace ]
	[ "$(stat_of instructions)" = 136051 ]
	[ "$(stat_of static)" = 11374 ]
	[[ $output == *$'class\tbr_cond\t26297\t9505'* ]]
	[[ $output == *$'class\tret\t880\t880'* ]]
	[[ $output == *$'class\tsyscall\t31\t0'* ]]
}

@test "drmemtrace allasm reads" {
	run --separate-stderr -0 "$PMTRACE" stats "$EXT/drmemtrace.allasm_x86_64.trace.zip"
	[ "$(stat_of instructions)" = 133 ]
	[[ $output == *$'class\tbr_cond\t16\t15'* ]]
}

@test "import of drmemtrace: the pmr stream reads back the same" {
	local out=$BATS_TEST_TMPDIR/sa.pmr.zst
	run --separate-stderr -0 "$PMTRACE" import -o "$out" "$EXT/drmemtrace.simple_app.trace.zip"
	assert_one_line_stderr
	[[ $stderr == *"136051 instructions, 11374 static"* ]]
	run -0 "$PMTRACE" stats "$EXT/drmemtrace.simple_app.trace.zip"
	local a=${output#*$'\n'*$'\n'}
	run -0 "$PMTRACE" stats "$out"
	[ "$(stat_of format)" = pmr ]
	[ "${output#*$'\n'*$'\n'}" = "$a" ]
}

# ChampSim's static instructions learn their length and target as the
# trace goes on; the stream repeats such a SINSN once it has learned more,
# so only the static count differs.
@test "import of ChampSim: the pmr stream reads back the same" {
	local out=$BATS_TEST_TMPDIR/sa.pmr
	run --separate-stderr -0 "$PMTRACE" import -q -o "$out" "$EXT/simple_app.champsim.xz"
	[ -z "$stderr" ]
	run -0 "$PMTRACE" stats "$EXT/simple_app.champsim.xz"
	local a=${output#*$'\n'*$'\n'}
	run -0 "$PMTRACE" stats "$out"
	[ "$(grep -v '^static' <<<"${output#*$'\n'*$'\n'}")" = "$(grep -v '^static' <<<"$a")" ]
}

@test "import writes about one byte per instruction" {
	run --separate-stderr -0 "$PMTRACE" import -o "$BATS_TEST_TMPDIR/a.pmr.zst" "$EXT/simple_app.champsim.xz"
	local bpi=${stderr##*(}
	bpi=${bpi%% *}
	echo "bytes/instruction: $bpi"
	awk -v b="$bpi" 'BEGIN { exit !(b > 0 && b <= 1.2) }'
}

@test "imported streams pass pmview --check, also concatenated" {
	"$PMTRACE" import -q -o "$BATS_TEST_TMPDIR/a.pmr.zst" "$T/simple_app.head48.champsim"
	run -0 "$PMVIEW" --check "$BATS_TEST_TMPDIR/a.pmr.zst"
	cat "$BATS_TEST_TMPDIR/a.pmr.zst" "$BATS_TEST_TMPDIR/a.pmr.zst" > "$BATS_TEST_TMPDIR/b.pmr.zst"
	run -0 "$PMTRACE" stats "$BATS_TEST_TMPDIR/b.pmr.zst"
	[ "$(stat_of instructions)" = 96 ]
}

@test "the committed pmr seeds read as the traces they were imported from" {
	# tests/data/trace/head48.pmr and allasm.pmr seed the trace fuzz
	# target; a reader change that decodes them differently fails here
	"$PMTRACE" dump "$T/head48.pmr" > "$BATS_TEST_TMPDIR/a"
	"$PMTRACE" dump "$T/simple_app.head48.champsim" > "$BATS_TEST_TMPDIR/b"
	cmp "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/a")" -ge 48 ]
	"$PMTRACE" dump "$T/allasm.pmr" > "$BATS_TEST_TMPDIR/a"
	"$PMTRACE" dump "$T/allasm_x86_64.trace.gz" > "$BATS_TEST_TMPDIR/b"
	cmp "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/a")" -ge 133 ]
}

@test "import --skip/--max cut a window out of a trace" {
	"$PMTRACE" import -q --no-pg --skip=10 --max=20 -o "$BATS_TEST_TMPDIR/c.pmr" "$T/simple_app.head48.champsim"
	run -0 "$PMTRACE" stats "$BATS_TEST_TMPDIR/c.pmr"
	[ "$(stat_of instructions)" = 20 ]
	# the same instructions as records 11-30 of the input, renumbered
	"$PMTRACE" dump "$BATS_TEST_TMPDIR/c.pmr" | cut -f 2- > "$BATS_TEST_TMPDIR/a"
	"$PMTRACE" dump "$T/simple_app.head48.champsim" | sed -n 12,31p | cut -f 2- > "$BATS_TEST_TMPDIR/b"
	sed -i 1d "$BATS_TEST_TMPDIR/a"
	cmp "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
	# past the end: what there is; --max=0: an empty trace
	"$PMTRACE" import -q --skip=40 --max=20 -o "$BATS_TEST_TMPDIR/d.pmr" "$T/simple_app.head48.champsim"
	run -0 "$PMTRACE" stats "$BATS_TEST_TMPDIR/d.pmr"
	[ "$(stat_of instructions)" = 8 ]
	"$PMTRACE" import -q --max=0 -o "$BATS_TEST_TMPDIR/e.pmr" "$T/simple_app.head48.champsim"
	run -0 "$PMTRACE" stats "$BATS_TEST_TMPDIR/e.pmr"
	[ "$(stat_of instructions)" = 0 ]
	run -2 --separate-stderr "$PMTRACE" stats --max=3 "$T/simple_app.head48.champsim"
	[[ $stderr == *"--max is for tracing, import and export only"* ]]
	run -2 --separate-stderr "$PMTRACE" import --skip=-1 "$T/simple_app.head48.champsim"
	[[ $stderr == *"pmtrace: --skip: value '-1' is too small"* ]]
}

@test "import to standard output and from standard input" {
	run -0 bash -c "'$PMTRACE' import -q '$T/simple_app.head48.champsim' | '$PMTRACE' stats"
	[ "$(stat_of instructions)" = 48 ]
	[ "$(stat_of file)" = "<stdin>" ]
}

# file, format, message part
bad_case() {
	run --separate-stderr -1 "$PMTRACE" stats -F "$2" "$T/$1"
	assert_one_line_stderr
	[[ $stderr == "pmtrace: '$T/$1': "* ]]
	[[ $stderr == *"$3"* ]]
}

@test "bad input: ChampSim size not a multiple of 64" {
	bad_case bad-size.champsim auto "not a multiple of 64"
}

@test "bad input: truncated xz ChampSim" {
	bad_case truncated.champsim.xz auto "truncated xz data"
}

@test "bad input: not a zip" {
	bad_case notzip.trace.zip auto "unknown trace format"
	bad_case notzip.trace.zip drmemtrace "not a drmemtrace"
}

@test "bad input: truncated zip" {
	bad_case truncated.trace.zip auto "not a zip archive"
}

@test "bad input: zip without chunks" {
	bad_case nochunk.trace.zip auto "no chunk.NNNN members"
}

@test "bad input: drmemtrace without encodings says what is needed" {
	bad_case noenc.trace.zip auto "no instruction encodings"
	[[ $stderr == *"ENCODING entries"* ]]
}

@test "a failed import leaves no output file" {
	run --separate-stderr -1 "$PMTRACE" import -o "$BATS_TEST_TMPDIR/x.pmr" "$T/bad-size.champsim"
	assert_one_line_stderr
	[ ! -e "$BATS_TEST_TMPDIR/x.pmr" ]
	run -0 find "$BATS_TEST_TMPDIR" -name '*x.pmr*'
	[ -z "$output" ]
}

@test "a pmr stream named *.champsim* is read as pmr: the magic wins over the name" {
	"$PMSIM" --max 1000 -o "$BATS_TEST_TMPDIR/run.champsim.pmr" \
	    "$DATA/sim/app30k.champsim.xz"
	run -0 "$PMVIEW" --check "$BATS_TEST_TMPDIR/run.champsim.pmr"
	[[ $output == *": ok, "* ]]
	# and a ChampSim trace is still known by its name
	run -0 "$PMVIEW" -s "$DATA/sim/app30k.champsim.xz"
	[[ $output == *"creator pmtrace-import"* ]]
}

# A core-sharded drmemtrace holds several threads one after another, each
# with its own HEADER, THREAD_EXIT and FOOTER: all of them are read.
@test "drmemtrace core-sharded: every thread of the core, 123,406 instructions" {
	run --separate-stderr -0 "$PMTRACE" stats "$EXT/drmemtrace.core.000003.trace.zip"
	[ -z "$stderr" ]
	[ "$(stat_of format)" = drmemtrace ]
	[ "$(stat_of instructions)" = 123406 ]
}

@test "drmemtrace core-sharded: the threads' instructions carry their ids" {
	run --separate-stderr -0 "$PMTRACE" dump "$EXT/drmemtrace.core.000003.trace.zip"
	# thread 872904 (0xd51c8) runs first, to its exit; then 872903
	run -0 awk -F '\t' 'NR > 1 { if ($7 != last) printf "%s%s", sep, $7; sep = " "; last = $7; n[$7]++ }
		END { printf " | %d %d\n", n[872904], n[872903] }' <<<"$output"
	[ "$output" = "872904 872903 | 45355 78051" ]
}

# tests/data/trace/core2.trace.zip (made by mkcore.py): allasm's 133
# instructions as thread 1001, switched out after 60 for all of thread
# 1002, then its other 73; a FOOTER is followed by more threads.
@test "drmemtrace core-sharded: a thread switched out and back" {
	run --separate-stderr -0 "$PMTRACE" stats "$T/core2.trace.zip"
	[ -z "$stderr" ]
	[ "$(stat_of instructions)" = 266 ]
	[[ $output == *$'class\tbr_cond\t32\t30'* ]]
	run -0 "$PMTRACE" dump "$T/core2.trace.zip"
	run -0 awk -F '\t' 'NR > 1 { if ($7 != last) { if (c) printf "%s:%d ", last, c; c = 0 } last = $7; c++ }
		END { printf "%s:%d\n", last, c }' <<<"$output"
	[ "$output" = "1001:60 1002:133 1001:73" ]
}

@test "drmemtrace core-sharded: the threads are allasm's instruction stream" {
	"$PMTRACE" dump "$EXT/drmemtrace.allasm_x86_64.trace.zip" | awk -F '\t' 'NR > 1 { print $2, $3, $4, $8 }' > "$BATS_TEST_TMPDIR/a"
	"$PMTRACE" dump "$T/core2.trace.zip" | awk -F '\t' 'NR > 1 { print $2, $3, $4, $8 }' > "$BATS_TEST_TMPDIR/c"
	{ head -n 60 "$BATS_TEST_TMPDIR/a"; cat "$BATS_TEST_TMPDIR/a"; tail -n +61 "$BATS_TEST_TMPDIR/a"; } > "$BATS_TEST_TMPDIR/b"
	cmp "$BATS_TEST_TMPDIR/b" "$BATS_TEST_TMPDIR/c"
}

@test "drmemtrace core-sharded: import keeps every thread" {
	"$PMTRACE" import -q --no-pg -o "$BATS_TEST_TMPDIR/c.pmr" "$T/core2.trace.zip"
	"$PMTRACE" dump "$T/core2.trace.zip" > "$BATS_TEST_TMPDIR/a"
	"$PMTRACE" dump "$BATS_TEST_TMPDIR/c.pmr" > "$BATS_TEST_TMPDIR/b"
	cmp "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
	run -0 "$PMSIM" --no-pg -o /dev/null -v "$EXT/drmemtrace.core.000003.trace.zip"
	[[ $output == *"pmsim: 123406 instructions"* ]]
}

# Copies allasm with its members stored (not deflated) into $1.
stored_allasm() {
	python3 - "$EXT/drmemtrace.allasm_x86_64.trace.zip" "$1" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_STORED) as o:
    for i in z.infolist():
        o.writestr(i, z.read(i), compress_type=zipfile.ZIP_STORED)
PY
}

# Flips bit $5 of byte $4 of the data of member $3 of zip $1 into $2.
flip_bit() {
	python3 - "$@" <<'PY'
import struct, sys, zipfile
src, dst, member, off, bit = sys.argv[1:6]
d = bytearray(open(src, "rb").read())
i = zipfile.ZipFile(src).getinfo(member)
n, x = struct.unpack_from("<HH", d, i.header_offset + 26)
assert int(off) < i.compress_size
d[i.header_offset + 30 + n + x + int(off)] ^= 1 << int(bit)
open(dst, "wb").write(d)
PY
}

@test "drmemtrace: a member whose CRC-32 does not match is rejected" {
	stored_allasm "$BATS_TEST_TMPDIR/s.zip"
	run -0 "$PMTRACE" stats "$BATS_TEST_TMPDIR/s.zip"
	[ "$(stat_of instructions)" = 133 ]
	# an address in the last member, which ends with the FOOTER
	flip_bit "$BATS_TEST_TMPDIR/s.zip" "$BATS_TEST_TMPDIR/f.zip" chunk.0006 126 3
	run --separate-stderr -1 "$PMTRACE" dump "$BATS_TEST_TMPDIR/f.zip"
	assert_one_line_stderr
	[ "$stderr" = "pmtrace: '$BATS_TEST_TMPDIR/f.zip': member 'chunk.0006': CRC error" ]
}

# Bits all over the data of the first and the last member, which ends
# with the FOOTER (where the reader used to stop, before libzip's check).
@test "drmemtrace: no bit flip in a member's data gives another instruction stream" {
	local f n=0
	"$PMTRACE" dump "$EXT/drmemtrace.allasm_x86_64.trace.zip" > "$BATS_TEST_TMPDIR/ref"
	python3 - "$EXT/drmemtrace.allasm_x86_64.trace.zip" "$BATS_TEST_TMPDIR" <<'PY'
import struct, sys, zipfile
src, out = sys.argv[1:3]
d = open(src, "rb").read()
for m in ("chunk.0000", "chunk.0006"):
    i = zipfile.ZipFile(src).getinfo(m)
    n, x = struct.unpack_from("<HH", d, i.header_offset + 26)
    p = i.header_offset + 30 + n + x
    for off in range(0, i.compress_size, 7):
        f = bytearray(d)
        f[p + off] ^= 1 << off % 8
        open("%s/f-%s-%d.zip" % (out, m, off), "wb").write(f)
PY
	for f in "$BATS_TEST_TMPDIR"/f-*.zip; do
		if "$PMTRACE" dump "$f" > "$BATS_TEST_TMPDIR/out" 2>/dev/null; then
			cmp -s "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/ref" ||
				{ echo "${f##*/}: exit 0, other instructions"; return 1; }
		fi
		n=$((n + 1))
	done
	[ "$n" -gt 40 ]
}

@test "drmemtrace: a trace without its FOOTER is truncated" {
	python3 - "$EXT/drmemtrace.allasm_x86_64.trace.zip" "$BATS_TEST_TMPDIR/t.zip" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as o:
    for i in z.infolist():
        d = z.read(i)
        o.writestr(i, d[:-24] if i.filename == "chunk.0006" else d)
PY
	run --separate-stderr -1 "$PMTRACE" stats "$BATS_TEST_TMPDIR/t.zip"
	assert_one_line_stderr
	[[ $stderr == "pmtrace: '$BATS_TEST_TMPDIR/t.zip': "*"ends without a FOOTER"* ]]
	# the stream form, cut at an entry boundary, and an empty one
	gzip -dc "$T/allasm_x86_64.trace.gz" | head -c 1200 > "$BATS_TEST_TMPDIR/t.trace"
	run --separate-stderr -1 "$PMTRACE" stats -F drmemtrace "$BATS_TEST_TMPDIR/t.trace"
	assert_one_line_stderr
	[[ $stderr == "pmtrace: '$BATS_TEST_TMPDIR/t.trace': "*"ends without a FOOTER"* ]]
	: > "$BATS_TEST_TMPDIR/e.trace"
	run --separate-stderr -1 "$PMTRACE" stats -F drmemtrace "$BATS_TEST_TMPDIR/e.trace"
	assert_one_line_stderr
}

@test "drmemtrace: a missing chunk is an error" {
	python3 - "$EXT/drmemtrace.allasm_x86_64.trace.zip" "$BATS_TEST_TMPDIR/m.zip" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as o:
    for i in z.infolist():
        if i.filename != "chunk.0003":
            o.writestr(i, z.read(i))
PY
	run --separate-stderr -1 "$PMTRACE" stats "$BATS_TEST_TMPDIR/m.zip"
	assert_one_line_stderr
	[[ $stderr == "pmtrace: '$BATS_TEST_TMPDIR/m.zip': "*"chunk.0003"* ]]
}

@test "drmemtrace: a member cut at an entry boundary is an error" {
	python3 - "$EXT/drmemtrace.allasm_x86_64.trace.zip" "$BATS_TEST_TMPDIR/t.zip" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as o:
    for i in z.infolist():
        d = z.read(i)
        o.writestr(i, d[:-36] if i.filename == "chunk.0002" else d)
PY
	run --separate-stderr -1 "$PMTRACE" stats "$BATS_TEST_TMPDIR/t.zip"
	assert_one_line_stderr
	[[ $stderr == "pmtrace: '$BATS_TEST_TMPDIR/t.zip': member 'chunk.0002' "* ]]
}

# Writes the entries of allasm (one stream, raw) with python code $2
# applied to the list e of (type, size, addr) into $1.
edit_allasm() {
	python3 - "$T/allasm_x86_64.trace.gz" "$1" "$2" <<'PY'
import gzip, struct, sys
d = gzip.open(sys.argv[1]).read()
e = [struct.unpack_from("<HHQ", d, i) for i in range(0, len(d), 12)]
exec(sys.argv[3])
open(sys.argv[2], "wb").write(b"".join(struct.pack("<HHQ", *x) for x in e))
PY
}

@test "drmemtrace: an unknown entry type is an error" {
	edit_allasm "$BATS_TEST_TMPDIR/u.trace" 'e.insert(40, (77, 0, 0))'
	run --separate-stderr -1 "$PMTRACE" stats -F drmemtrace "$BATS_TEST_TMPDIR/u.trace"
	assert_one_line_stderr
	[[ $stderr == "pmtrace: '$BATS_TEST_TMPDIR/u.trace': entry 41: unknown entry type 77"* ]]
}

@test "drmemtrace: instructions after a FOOTER without a THREAD entry are an error" {
	edit_allasm "$BATS_TEST_TMPDIR/u.trace" 'e = e + [x for x in e if x[0] not in (22, 23, 24, 25, 26)] + [(26, 0, 0)]'
	run --separate-stderr -1 "$PMTRACE" stats -F drmemtrace "$BATS_TEST_TMPDIR/u.trace"
	assert_one_line_stderr
	[[ $stderr == "pmtrace: '$BATS_TEST_TMPDIR/u.trace': entry "*": instruction outside any thread"* ]]
}

@test "drmemtrace: a stream read to its end, with all its threads" {
	edit_allasm "$BATS_TEST_TMPDIR/u.trace" 'e = e + [(22, 4, 7)] + [x for x in e if x[0] not in (22, 25)]'
	run --separate-stderr -0 "$PMTRACE" stats -F drmemtrace "$BATS_TEST_TMPDIR/u.trace"
	[ "$(stat_of instructions)" = 266 ]
}

# 64 zero bytes would read as one more record
@test "ChampSim: compressed data followed by raw bytes is an error" {
	head -c 64 /dev/zero | cat "$DATA/sim/app30k.champsim.xz" - > "$BATS_TEST_TMPDIR/g.champsim.xz"
	run --separate-stderr -1 "$PMTRACE" stats "$BATS_TEST_TMPDIR/g.champsim.xz"
	assert_one_line_stderr
	[[ $stderr == "pmtrace: '$BATS_TEST_TMPDIR/g.champsim.xz': uncompressed bytes after the xz data"* ]]
	# a concatenation of compressed streams is one trace
	cat "$DATA/sim/app30k.champsim.xz" "$DATA/sim/app30k.champsim.xz" > "$BATS_TEST_TMPDIR/2.champsim.xz"
	run -0 "$PMTRACE" stats "$BATS_TEST_TMPDIR/2.champsim.xz"
	[ "$(stat_of instructions)" = 60000 ]
}

# ChampSim has no header: an empty file is no trace, never zero instructions
@test "ChampSim: an empty trace is an error" {
	: > "$BATS_TEST_TMPDIR/e.champsim"
	xz -c "$BATS_TEST_TMPDIR/e.champsim" > "$BATS_TEST_TMPDIR/e.champsim.xz"
	for f in e.champsim e.champsim.xz; do
		run --separate-stderr -1 "$PMTRACE" stats "$BATS_TEST_TMPDIR/$f"
		assert_one_line_stderr
		[[ $stderr == "pmtrace: '$BATS_TEST_TMPDIR/$f': empty ChampSim trace (no records)" ]]
		[ -z "$output" ]
		run --separate-stderr -1 "$PMSIM" --no-pg -o /dev/null "$BATS_TEST_TMPDIR/$f"
		[[ $stderr == *"empty ChampSim trace"* ]]
	done
}

# pmr decode errors on the trace-reader path name the file.
@test "a truncated pmr trace: pmsim and pmtrace name the file" {
	head -c 500 "$T/allasm.pmr" > "$BATS_TEST_TMPDIR/t.pmr"
	run --separate-stderr -1 "$PMSIM" --no-pg -o /dev/null "$BATS_TEST_TMPDIR/t.pmr"
	assert_one_line_stderr
	[[ $stderr == "pmsim: '$BATS_TEST_TMPDIR/t.pmr': record "*"truncated"* ]]
	run --separate-stderr -1 "$PMTRACE" dump "$BATS_TEST_TMPDIR/t.pmr"
	assert_one_line_stderr
	[[ $stderr == "pmtrace: '$BATS_TEST_TMPDIR/t.pmr': record "*"truncated"* ]]
	run --separate-stderr -1 "$PMTRACE" stats "$BATS_TEST_TMPDIR/t.pmr"
	assert_one_line_stderr
	[[ $stderr == "pmtrace: '$BATS_TEST_TMPDIR/t.pmr': "* ]]
}

@test "a truncated pmr trace on standard input is named <stdin>" {
	run --separate-stderr -1 "$PMTRACE" dump - < <(head -c 500 "$T/allasm.pmr")
	assert_one_line_stderr
	[[ $stderr == "pmtrace: '<stdin>': record "* ]]
}

@test "pmview names the file of a bad foreign trace once" {
	stored_allasm "$BATS_TEST_TMPDIR/s.zip"
	flip_bit "$BATS_TEST_TMPDIR/s.zip" "$BATS_TEST_TMPDIR/f.zip" chunk.0006 126 3
	run --separate-stderr -1 "$PMVIEW" --check "$BATS_TEST_TMPDIR/f.zip"
	assert_one_line_stderr
	[ "$stderr" = "pmview: '$BATS_TEST_TMPDIR/f.zip': member 'chunk.0006': CRC error" ]
}

# --- pmtrace export: ChampSim traces out ----------------------------------

# Prints the dump of trace $1 as pc, branch class ("-" for the other
# classes, which ChampSim derives from the memory accesses), taken and the
# access addresses (sizes left out: ChampSim has none), one a line.
cs_view() {
	"$PMTRACE" dump "${@:2}" "$1" | awk -F '\t' 'NR > 1 {
		a = $8; gsub(/:[0-9]+/, "", a)
		c = $3
		if (c !~ /^(br_cond|jmp|jmp_ind|call|call_ind|ret)$/) c = "-"
		print $2, c, $6, a }'
}

@test "pmtrace --help lists export and --to" {
	run --separate-stderr -0 "$PMTRACE" --help
	[[ $output == *"pmtrace export [options] [file]"* ]]
	[[ $output == *"--to=FORMAT"* ]]
}

@test "export of ChampSim: the same stats and instructions come back" {
	local x=$BATS_TEST_TMPDIR/a.champsim.xz
	run --separate-stderr -0 "$PMTRACE" export -o "$x" "$EXT/simple_app.champsim.xz"
	assert_one_line_stderr
	[[ $stderr == *": 136051 instructions, 0 with registers left out, "* ]]
	xz -t "$x"
	diff <("$PMTRACE" stats "$EXT/simple_app.champsim.xz" | tail -n +3) \
	    <("$PMTRACE" stats "$x" | tail -n +3)
	diff <("$PMTRACE" dump "$EXT/simple_app.champsim.xz" | cut -f 2-) \
	    <("$PMTRACE" dump "$x" | cut -f 2-)
}

@test "export of ChampSim: records differ only by the ip that non-branches and jumps read" {
	local o=$BATS_TEST_TMPDIR/b.champsim
	"$PMTRACE" export -q -o "$o" "$EXT/simple_app.champsim.xz"
	# 26 (the instruction pointer) taken out of the sources of records
	# that do not write it, and of jumps: then every record is the
	# original's
	xz -dc "$EXT/simple_app.champsim.xz" | od -An -v -tx1 -w64 |
	    awk '{ o = 0
		for (i = 13; i <= 16; i++)
			o += $i != "00" && $i != "1a"
		if (($11 != "1a" && $12 != "1a") || o == 0) {
			k = 13
			for (i = 13; i <= 16; i++)
				if ($i != "1a") $(k++) = $i
			for (; k <= 16; k++) $k = "00"
		}
		$1 = $1; print }' > "$BATS_TEST_TMPDIR/want"
	od -An -v -tx1 -w64 "$o" | awk '{ $1 = $1; print }' > "$BATS_TEST_TMPDIR/got"
	cmp "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
	# and the export of the export is the same bytes
	"$PMTRACE" export -q -o "$BATS_TEST_TMPDIR/c.champsim" "$o"
	cmp "$o" "$BATS_TEST_TMPDIR/c.champsim"
}

@test "export of a pmr trace: pcs, outcomes, branch classes and addresses come back in order" {
	local x=$BATS_TEST_TMPDIR/gzip.champsim.gz
	run --separate-stderr -0 "$PMTRACE" export --max 30000 -o "$x" "$TOP/traces/gzip.pmr.zst"
	gzip -t "$x"
	cs_view "$TOP/traces/gzip.pmr.zst" -n 30000 > "$BATS_TEST_TMPDIR/want"
	cs_view "$x" > "$BATS_TEST_TMPDIR/got"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/got")" -eq 30000 ]
	cmp "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
}

@test "export of drmemtrace: accesses beyond 4 loads and 2 stores are counted once" {
	local o=$BATS_TEST_TMPDIR/dr.champsim
	run --separate-stderr -0 "$PMTRACE" export -q -o "$o" "$EXT/drmemtrace.simple_app.trace.zip"
	assert_one_line_stderr
	[ "$stderr" = "pmtrace: '$o': 2 instructions had more memory accesses than a ChampSim record holds (4 loads, 2 stores): 0 loads and 12 stores left out" ]
	[ "$(stat -c %s "$o")" -eq $((136051 * 64)) ]
	# everything else comes back: the two rep stos keep their first 2 stores
	cs_view "$EXT/drmemtrace.simple_app.trace.zip" |
	    awk '{ n = split($4, a, ","); if (n > 2) $4 = a[1] "," a[2]; print }' > "$BATS_TEST_TMPDIR/want"
	cs_view "$o" > "$BATS_TEST_TMPDIR/got"
	cmp "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
}

@test "export compresses by the output's name: raw, .xz, .gz, .zst" {
	local d=$BATS_TEST_TMPDIR f
	"$PMTRACE" export -q -o "$d/h.champsim" "$T/simple_app.head48.champsim.gz"
	[ "$(stat -c %s "$d/h.champsim")" -eq 3072 ]
	"$PMTRACE" export -q -o "$d/h.champsim.xz" "$T/simple_app.head48.champsim"
	xz -dc "$d/h.champsim.xz" | cmp - "$d/h.champsim"
	"$PMTRACE" export -q -o "$d/h.champsim.gz" "$T/simple_app.head48.champsim"
	gzip -dc "$d/h.champsim.gz" | cmp - "$d/h.champsim"
	"$PMTRACE" export -q -o "$d/h.champsim.zst" "$T/simple_app.head48.champsim"
	zstd -qdc "$d/h.champsim.zst" | cmp - "$d/h.champsim"
}

@test "export to standard output and from standard input" {
	run -0 bash -c "'$PMTRACE' import -q '$T/simple_app.head48.champsim' |
	    '$PMTRACE' export | '$PMTRACE' dump -F champsim - | cut -f 2-"
	diff <(printf '%s\n' "$output") <("$PMTRACE" dump "$T/simple_app.head48.champsim" | cut -f 2-)
}

@test "export --skip/--max cut a window" {
	"$PMTRACE" export -q --skip 10 --max 20 -o "$BATS_TEST_TMPDIR/w.champsim" "$T/simple_app.head48.champsim"
	[ "$(stat -c %s "$BATS_TEST_TMPDIR/w.champsim")" -eq $((20 * 64)) ]
	dd if="$T/simple_app.head48.champsim" bs=64 skip=10 count=20 status=none |
	    "$PMTRACE" dump -F champsim - | cut -f 2,3,6,8 > "$BATS_TEST_TMPDIR/want"
	"$PMTRACE" dump "$BATS_TEST_TMPDIR/w.champsim" | cut -f 2,3,6,8 > "$BATS_TEST_TMPDIR/got"
	cmp "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
}

@test "export of a bad trace: one line, status 1, no file and no temporary" {
	run --separate-stderr -1 "$PMTRACE" export -o "$BATS_TEST_TMPDIR/t.champsim.xz" "$T/truncated.champsim.xz"
	assert_one_line_stderr
	[[ $stderr == "pmtrace: '$T/truncated.champsim.xz': truncated xz data"* ]]
	run -0 find "$BATS_TEST_TMPDIR" -name '*t.champsim*'
	[ -z "$output" ]
}

@test "export usage errors: unknown --to, --level beyond xz's, two inputs" {
	run --separate-stderr -2 "$PMTRACE" export --to=pmr "$T/simple_app.head48.champsim"
	[[ $stderr == *"pmtrace: --to: value 'pmr' is unknown (champsim)"* ]]
	[[ $stderr == *"usage: pmtrace"* ]]
	run --separate-stderr -2 "$PMTRACE" export --level 12 -o "$BATS_TEST_TMPDIR/l.champsim.xz" "$T/simple_app.head48.champsim"
	[[ $stderr == *"--level 12 is beyond 9"* ]]
	run --separate-stderr -2 "$PMTRACE" export "$T/simple_app.head48.champsim" "$T/simple_app.head48.champsim"
	[[ $stderr == *"export takes one input"* ]]
	run --separate-stderr -2 "$PMTRACE" import --to=champsim "$T/simple_app.head48.champsim"
	[[ $stderr == *"--to is for export only"* ]]
}

# --- pmtrace's own messages ----------------------------------------------

@test "stats of a bad trace prints nothing on stdout" {
	run --separate-stderr -1 "$PMTRACE" stats "$T/truncated.champsim.xz"
	[ -z "$output" ]
	assert_one_line_stderr
	[[ $stderr == "pmtrace: '$T/truncated.champsim.xz': truncated xz data"* ]]
}

@test "tracing a missing program names it: status 127" {
	run --separate-stderr -127 "$PMTRACE" -o "$BATS_TEST_TMPDIR/n.pmr" -- ./no-such-prog
	[ "$stderr" = "pmtrace: cannot run './no-such-prog': No such file or directory" ]
	run --separate-stderr -127 "$PMTRACE" -o "$BATS_TEST_TMPDIR/n.pmr" -- no-such-prog-in-path
	[ "$stderr" = "pmtrace: cannot run 'no-such-prog-in-path': No such file or directory" ]
	[ ! -e "$BATS_TEST_TMPDIR/n.pmr" ]
}

@test "tracing what is not an x86-64 program says why: status 126" {
	local s=$BATS_TEST_TMPDIR/script.sh
	printf '#!/bin/sh\necho hi\n' > "$s"
	chmod +x "$s"
	run --separate-stderr -126 "$PMTRACE" -o "$BATS_TEST_TMPDIR/n.pmr" -- "$s"
	[ "$stderr" = "pmtrace: cannot run '$s': Exec format error" ]
	chmod -x "$s"
	run --separate-stderr -126 "$PMTRACE" -o "$BATS_TEST_TMPDIR/n.pmr" -- "$s"
	[ "$stderr" = "pmtrace: cannot run '$s': Permission denied" ]
}

# Starts tracing a long loop into $BATS_TEST_TMPDIR/out.pmr.zst in the
# background (pid in $pid) and waits until its temporary file exists.
start_long_trace() {
	cd "$BATS_TEST_TMPDIR"
	"$PMTRACE" -q -o out.pmr.zst -- sh -c 'i=0; while [ $i -lt 3000000 ]; do i=$((i+1)); done' 3>&- &
	pid=$!
	local i
	for i in $(seq 200); do
		compgen -G '.out.pmr.zst.*' > /dev/null && return 0
		sleep 0.05
	done
	echo "no temporary file appeared" >&2
	return 1
}

# killed_trace SIG STATUS: pmtrace killed by SIG while tracing exits with
# STATUS and leaves neither the trace nor its temporary file.
killed_trace() {
	local status=0
	start_long_trace
	sleep 0.2
	kill -"$1" "$pid"
	wait "$pid" || status=$?
	[ "$status" -eq "$2" ]
	run -0 find . -name '*out.pmr.zst*'
	[ -z "$output" ]
}

@test "SIGTERM while tracing: no trace, no temporary, status 143" {
	killed_trace TERM 143
}

@test "SIGHUP while tracing: no trace, no temporary, status 129" {
	killed_trace HUP 129
}

@test "SIGINT sent to pmtrace goes to the program: the trace of what ran is written" {
	local status=0
	start_long_trace
	sleep 0.2
	kill -INT "$pid"
	wait "$pid" || status=$?
	[ "$status" -eq 130 ]
	run -0 find . -name '.out.pmr.zst.*'
	[ -z "$output" ]
	run -0 "$PMVIEW" --check out.pmr.zst
}

# Progress on a terminal: script(1) gives the program one; the input pauses
# so that the line is drawn at least once.
@test "pmtrace prints progress on a terminal, none with -q" {
	cs="$TOP/tests/data/ext-traces/core.000003.champsim.xz"
	run -0 script -qfec "{ xz -dc '$cs'; sleep 0.6; } | '$PMTRACE' stats -F champsim - >/dev/null" /dev/null
	[[ $output == *$'\r'"pmtrace: 123.4 k instructions, "*" k/s"$'\e[K\r'* ]]
	[[ $output == *$'\r\e[K' ]]
	run -0 script -qfec "{ xz -dc '$cs'; sleep 0.6; } | '$PMTRACE' stats -q -F champsim - >/dev/null" /dev/null
	[ -z "$output" ]
}
