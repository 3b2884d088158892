#!/usr/bin/env bats
# The golden set (tests/golden/cases): every program, preset, sampler,
# truth, graph and shotgun output as committed.  A change meant to alter
# outputs rewrites them with tests/golden/run -u and says why.
load test_helper

@test "the golden set is unchanged" {
	run env BIN="$BIN" "$TOP/tests/golden/run"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "the golden set sees a changed output" {
	local e=$BATS_TEST_TMPDIR/expected
	cp -r "$TOP/tests/golden/expected" "$e"
	sed -i '3s/.*/changed/' "$e/config.txt"
	echo 0000 > "$e/graph.pmr.sha256"
	run -1 env BIN="$BIN" GOLDEN_EXPECTED="$e" "$TOP/tests/golden/run"
	[[ $output == *"golden: config.txt differs"* ]]
	[[ $output == *"golden: graph.pmr differs"* ]]
	[ "$(grep -c '^golden:' <<< "$output")" -eq 2 ]
}
