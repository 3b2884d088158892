#!/bin/bash
# merge-shards.sh: streams concatenate, so work split across machines merges
# with cat.  Two shards are made here from one TSV file, one compressed and
# one raw; their concatenation reads as one input of two streams, and the
# EVENT records of the merge are those of the shards, in order.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
command -v pmview >/dev/null 2>&1 || PATH=$top/cmd:$PATH
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$top/tests/data/pmview/small.tsv
pmview -r -o "$tmp/shard1.pmr.zst" "$src"
pmview -r -o "$tmp/shard2.pmr" "$src"
cat "$tmp/shard1.pmr.zst" "$tmp/shard2.pmr" > "$tmp/all.pmr"
pmview --check "$tmp/all.pmr"
n=$(pmview -t EVENT "$tmp/all.pmr" | grep -c '^EVENT')
echo "EVENT records in the merge: $n"
[ "$n" -eq 6 ]
