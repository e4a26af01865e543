#!/usr/bin/env bash
# Side-by-side benchmark: sqe vs DuckDB on the same Hive-partitioned CSV
# files, in one run, alternating query by query (see bench/README.md).
#
#   bench/run.sh [rows=10000000]
#
# Env: SQE_BENCH_PEER (default ../shared/bench, the DuckDB harness),
#      SQE_BENCH_DIR (default bench/work: peer copy, data, results),
#      SQE_BENCH_RUNS (default 5), SQE_BENCH_QUERIES (default Q1..Q9).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
rows=${1:-10000000}
peer_src=${SQE_BENCH_PEER:-$repo/../shared/bench}
work=${SQE_BENCH_DIR:-$repo/bench/work}
mkdir -p "$work"
work=$(cd "$work" && pwd)
if [ ! -f "$peer_src/duck.mjs" ]; then
  echo "bench: DuckDB harness not found at $peer_src (set SQE_BENCH_PEER)" >&2
  exit 2
fi
if [ ! -d "$work/peer/node_modules" ]; then
  rm -rf "$work/peer" && mkdir -p "$work/peer"
  cp -r "$peer_src"/. "$work/peer/"
  (cd "$work/peer" && npm ci --silent)
fi
data="$work/data/$rows"
if [ ! -f "$data/MANIFEST.json" ]; then
  echo "bench: generating $rows rows of CSV into $data (takes ~40 s for 10M)" >&2
  (cd "$work/peer" && node gen.mjs "$data" "$rows" --formats csv,parquet)
fi
node "$repo/bench/bench.mjs" --sqe "$repo/build/sqe-cli" --peer "$work/peer" --data "$data" \
  --out "$work/results-$rows" --runs "${SQE_BENCH_RUNS:-5}" --only "${SQE_BENCH_QUERIES:-Q1,Q2,Q3,Q4,Q5,Q6,Q7,Q8,Q9}"
