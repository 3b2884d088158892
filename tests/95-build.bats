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
