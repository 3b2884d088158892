#!/usr/bin/env bats
# Documentation that runs: every man page's EXAMPLES and every
# examples/*.sh, in a scratch directory that sees the source tree's
# tests/, traces/ and examples/ and has the programs on PATH.

load test_helper

setup() {
	pm_path
	cd "$BATS_TEST_TMPDIR"
	ln -s "$TOP/tests" tests
	ln -s "$TOP/traces" traces
	ln -s "$TOP/examples" examples
}

# run_lines WHAT MIN: runs each line of standard input with bash -o
# pipefail, stops at the first that fails naming it, and wants MIN lines.
run_lines() {
	local line n=0
	while IFS= read -r line; do
		n=$((n + 1))
		run --separate-stderr bash -o pipefail -c "$line"
		if [ "$status" -ne 0 ]; then
			echo "$1: command failed (status $status): $line"
			echo "$stderr"
			return 1
		fi
	done
	[ "$n" -ge "$2" ] || { echo "$1: only $n commands found"; return 1; }
}

run_examples() {
	run_lines "$1" 1 < <("$TOP/tests/man-examples" "$1")
}

@test "every man page has runnable EXAMPLES" {
	local p
	for p in "$TOP"/man/*.[1-9]; do
		case $p in *.5) continue ;; esac	# file formats: no commands
		run_examples "$p"
	done
}

@test "man pages are lint-clean" {
	run -0 "$TOP/tests/lint-man" "$TOP"/man/*.[1-9]
}

@test "every program in cmd/ has a man page" {
	local c p
	for c in "$TOP"/cmd/*.c; do
		p=$(basename "$c" .c)
		[ -e "$TOP/man/$p.1" ] || { echo "no man/$p.1"; return 1; }
	done
}

@test "every examples/*.sh runs" {
	local e n=0
	for e in "$TOP"/examples/*.sh; do
		[ -e "$e" ] || continue
		n=$((n + 1))
		run --separate-stderr bash "$e"
		[ "$status" -eq 0 ] || { echo "$e failed: $stderr"; return 1; }
	done
	[ "$n" -gt 0 ]
}

@test "make demo ends with the PATH line to paste" {
	run -0 --separate-stderr bash "$TOP/examples/demo.sh"
	[[ ${lines[-1]} == "export PATH=\"$TOP/cmd:\$PATH\"" ]] ||
		{ echo "last line: ${lines[-1]}"; return 1; }
}

@test "every README command runs as written" {
	ln -s "$BIN" cmd
	run_lines README 10 < <("$TOP/tests/readme-commands" "$TOP/README.md")
}

@test "README names only options that --help lists" {
	run -0 "$PMVIEW" --help
	local opt
	for opt in $(grep -o 'pmview [^`]*' "$TOP/README.md" | grep -o -- '--[a-z-]*' | sort -u); do
		[[ $output == *"$opt"* ]] || { echo "README uses $opt"; return 1; }
	done
}
