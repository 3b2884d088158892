#!/bin/bash
# demo.sh: the main job on a bundled input ("make demo").  For now pmtools
# has its stream layer and pmview: this encodes a small hand-written stream,
# shows it as text, shows its statistics and provenance, and checks a
# concatenation of two copies, as a user merging shards would.  It grows
# as pmtrace, pmsim and the analysis programs land.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
command -v pmview >/dev/null 2>&1 || PATH=$top/cmd:$PATH
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== pmview -r: hand-written TSV -> zstd stream"
pmview -r --seed 42 -o "$tmp/small.pmr.zst" "$top/tests/data/pmview/small.tsv"
echo "== pmview -f text"
pmview -f text "$tmp/small.pmr.zst"
echo "== pmview --stats"
pmview --stats "$tmp/small.pmr.zst"
echo "== cat two shards | pmview --check"
cat "$tmp/small.pmr.zst" "$tmp/small.pmr.zst" | pmview --check
