#!/usr/bin/env bats
# The Makefile's install and uninstall honour PREFIX and DESTDIR.

load test_helper

@test "make install puts programs and man pages under DESTDIR/PREFIX; uninstall removes them" {
	local d=$BATS_TEST_TMPDIR/root
	run -0 make -C "$TOP" --no-print-directory install DESTDIR="$d" PREFIX=/opt/pm SAN="${PM_SAN:-}"
	[ -x "$d/opt/pm/bin/pmview" ]
	[ -f "$d/opt/pm/share/man/man1/pmview.1" ]
	[ -f "$d/opt/pm/share/man/man5/pmr.5" ]
	[ -f "$d/opt/pm/share/man/man7/pmtools.7" ]
	run -0 "$d/opt/pm/bin/pmview" -V
	run -0 make -C "$TOP" --no-print-directory uninstall DESTDIR="$d" PREFIX=/opt/pm
	run -0 find "$d" -type f
	[ -z "$output" ]
}

# The layout of lib/: arrows point down, and no two files call each other
# (tests/layout-check reads the symbols of the built objects).
@test "lib/ calls only down, and no two files call each other" {
	run "$TOP/tests/layout-check" "$TOP"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "the layout check sees a call up" {
	run -1 env LAYOUT_ORDER="records util stream sym trace sim pairs mhash" \
	    "$TOP/tests/layout-check" "$TOP"
	[[ $output == *"lib/util/"*" calls up into lib/stream/"* ]]
}

# Under bats' errexit only the last command of an && list fails a test:
# in '[ a ] && [ b ]' a false a fails nothing (112 such lines hid three
# wrong assertions until 2026-11-29), nor does '! cmd' (errexit ignores
# a negated command).  A test is a command of its own, and 'run -1 cmd'
# says a command fails; '[ a ] && x=1' (a condition) is fine.
@test "no bats assertion is the first command of an && list of assertions, nor negated with !" {
	pat='^[[:space:]]*(\[\[? .*\]\]?[[:space:]]*&&[[:space:]]*(\[|$)|! )'
	# the check sees them
	printf '\t[ "$a" = 1 ] && [ "$b" = 2 ]\n\t[[ $x == y ]] &&\n\t! cmp a b\n' |
	    grep -Ec "$pat" | grep -qx 3
	run -1 grep -E "$pat" <<<$'\t[ "$s" = p ] && spec=1\n\tif ! cmp a b; then'
	run grep -En "$pat" "$TOP"/tests/*.bats
	echo "$output"
	[ "$status" -eq 1 ]
}

# make fuzz builds with clang: a construct only GCC takes (target_clones on
# a noinline function did) must not stop it; nothing else runs clang.
@test "clang, make fuzz's compiler, takes every library and fuzz source" {
	command -v clang >/dev/null || skip "clang is not installed (make deps)"
	run -0 make -C "$TOP" -s --no-print-directory fuzz-syntax
	[ -z "$output" ]
}
