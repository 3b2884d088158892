#!/usr/bin/env bats
# man/pmr.5 is the normative specification of the stream: its field tables
# must be exactly the library's registry (pmview -l), field by field, in
# wire order, with the same kinds, so the page and the code cannot drift.

load test_helper

# Prints "NAME field kind since" for every field table row of pmr.5, from
# the sections ".Ss NAME (type N)" and ".Ss HEADER ...".
spec_fields() {
	awk '
	/^\.Ss / { name = ($2 ~ /^[A-Z]+$/) ? $2 : ""; next }
	/^\.Sh / { name = ""; next }
	name != "" && /^\.It [a-z_]+ Ta [a-z0-9]+ Ta [0-9.]+ Ta/ {
		print name, $2, $4, $6 }' "$TOP/man/pmr.5"
}

# Prints "NAME number" for every ".Ss NAME (type N)" heading.
spec_types() {
	sed -n 's/^\.Ss \([A-Z]*\) (type \([0-9]*\))$/\1 \2/p' "$TOP/man/pmr.5"
}

@test "pmview -l lists the registry" {
	run -0 "$PMVIEW" -l
	[[ $output == *$'type\t1\tEND\t'* ]]
	[[ $output == *$'field\tEVENT\tpc\tx64\t1.0\t'* ]]
}

@test "every field table of pmr.5 is the registry's, in order" {
	local reg spec
	reg=$("$PMVIEW" -l | awk -F'\t' '$1 == "field" { print $2, $3, $4, $5 }')
	spec=$(spec_fields)
	[ -n "$spec" ]
	if [ "$reg" != "$spec" ]; then
		diff <(echo "$spec") <(echo "$reg") || true
		echo "man/pmr.5 (left) and the registry (right) differ"
		return 1
	fi
}

@test "every registered type has a section of pmr.5 with its number" {
	local types
	types=$("$PMVIEW" -l | awk -F'\t' '$1 == "type" && $2 > 0 { print $3, $2 }' | sort)
	[ "$types" = "$(spec_types | sort)" ]
}
