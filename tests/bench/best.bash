# tests/bench/best.bash: sourced by the benchmarks (not one itself).
# best CMD...: the least wall-clock seconds of $RUNS runs of CMD, its
# output thrown away.
best() {
	local b=999999 t0 t1 i
	for ((i = 0; i < RUNS; i++)); do
		t0=$(date +%s.%N)
		"$@" >/dev/null
		t1=$(date +%s.%N)
		b=$(awk -v b="$b" -v a="$t0" -v z="$t1" \
		    'BEGIN { d = z - a; print (d < b) ? d : b }')
	done
	echo "$b"
}
