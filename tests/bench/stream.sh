#!/bin/bash
# stream.sh: benchmarks of the record stream (issue 2): write throughput raw
# and zstd (levels 1, 3, 9), read+decode throughput raw and zstd, and the
# zstd read time against "zstd -dc FILE > /dev/null" on the same file.
# BENCH_MB sets the decoded size [1000].  Goals: raw read >= 1 GB/s; zstd
# read <= 1.3x zstd -dc.
set -euo pipefail
top=${PM_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
b=$top/tests/bench/bench_stream
mb=${BENCH_MB:-1000}
d=$(mktemp -d "${TMPDIR:-/tmp}/pmbench.XXXXXX")
trap 'rm -rf "$d"' EXIT
echo "== stream benchmarks ($mb MB of 25-byte EVENT records)"
"$b" write "$d/raw.pmr" "$mb"
for l in 1 3 9; do "$b" write "$d/l$l.pmr.zst" "$mb" "$l"; done
ls -l "$d" | awk 'NR > 1 { printf "size  %-28s %10.1f MB\n", $9, $5 / 1e6 }'
cat "$d/raw.pmr" > /dev/null
"$b" read "$d/raw.pmr"
"$b" read "$d/raw.pmr"
"$b" read "$d/l3.pmr.zst"
t0=$(date +%s.%N); zstd -q -dc "$d/l3.pmr.zst" > /dev/null; t1=$(date +%s.%N)
ours=$("$b" read "$d/l3.pmr.zst" | awk '{ for (i = 1; i < NF; i++) if ($(i+1) == "s") print $i }')
awk -v a="$t0" -v b="$t1" -v o="$ours" 'BEGIN {
	printf "zstd -dc l3.pmr.zst > /dev/null: %.2f s; pmr read: %.2f s; ratio %.2f (goal <= 1.3)\n", b - a, o, o / (b - a) }'
