#!/bin/bash
# tests/bench/trace.sh: trace speed and size (issue 3): pmtrace on the
# microbenchmarks and on gzip -9 of an 8 MB input (about 2 G instructions),
# then the readers of every format.  See traces/micro/bench.sh.
set -euo pipefail
top=${PM_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
echo "== trace benchmarks (pmtrace, readers)"
PM_TOP=$top bash "$top/traces/micro/bench.sh"
