#!/usr/bin/env bats
# The bundled traces (traces/, traces/micro/): each is a valid stream and
# has the instruction count that traces/README.md gives, and the README
# lists every bundled trace.

load test_helper

# Prints "name count" for every row of a table in traces/README.md.
readme_counts() {
	awk -F'|' '$2 ~ /`[a-z0-9\/]+\.pmr\.zst`/ {
		name = $2; gsub(/[ `]/, "", name)
		n = (NF >= 9) ? $5 : $3; gsub(/[ ,]/, "", n)
		print name, n }' "$TOP/traces/README.md"
}

@test "traces/README.md lists every bundled trace" {
	local f listed
	listed=$(readme_counts | awk '{ print $1 }')
	for f in "$TOP"/traces/*.pmr.zst "$TOP"/traces/micro/*.pmr.zst; do
		f=${f#"$TOP"/traces/}
		grep -qx "$f" <<<"$listed" || { echo "$f not in README"; return 1; }
	done
	[ "$(wc -l <<<"$listed")" -ge 13 ]
}

@test "every bundled trace is valid and has the instructions README gives" {
	local name n got
	while read -r name n; do
		run -0 "$PMVIEW" --check -q "$TOP/traces/$name"
		got=$("$PMTRACE" stats "$TOP/traces/$name" | awk '$1 == "instructions" { print $2 }')
		[ "$got" = "$n" ] || { echo "$name: $got instructions, README says $n"; return 1; }
	done < <(readme_counts)
}
