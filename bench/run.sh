#!/usr/bin/env bash
# Side-by-side benchmark: sqe vs DuckDB on the same Hive-partitioned CSV files, in one run,
# alternating case by case (see bench/README.md).
#
#   bench/run.sh [rows=10000000]
#
# Env: SQE_BENCH_PEER (default ../shared/bench, the DuckDB harness),
#      SQE_BENCH_DIR (default bench/work: peer copy, data, shipments, results),
#      SQE_BENCH_DATA (an existing gen.mjs output folder to use instead of <dir>/data/<rows>),
#      SQE_BENCH_RUNS (5), SQE_BENCH_EXPORT_RUNS (3), SQE_BENCH_THREADS (2),
#      SQE_BENCH_QUERIES (cases or groups: queries,pruning,export,g10m,mem; default all),
#      SQE_BENCH_TIMEOUT (900 s per process), SQE_BENCH_CHECK_TIMEOUT (120 s per memory check),
#      SQE_BENCH_RSS_CAP_MB (4096: a measured process above it is killed),
#      SQE_BENCH_FORMAT (csv, parquet or json: the format of orders and customers; default csv).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
rows=${1:-10000000}
peer_src=${SQE_BENCH_PEER:-$repo/../shared/bench}
work=${SQE_BENCH_DIR:-$repo/bench/work}
mkdir -p "$work"
work=$(cd "$work" && pwd)
for tool in node /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is needed" >&2; exit 2; }
done
if [ ! -d "$work/peer/node_modules" ]; then
  if [ ! -f "$peer_src/duck.mjs" ]; then
    echo "bench: DuckDB harness not found at $peer_src (set SQE_BENCH_PEER)" >&2
    exit 2
  fi
  rm -rf "$work/peer" && mkdir -p "$work/peer"
  cp -r "$peer_src"/. "$work/peer/"
  (cd "$work/peer" && npm ci --silent)
fi
data=${SQE_BENCH_DATA:-$work/data/$rows}
if [ ! -f "$data/MANIFEST.json" ]; then
  echo "bench: generating $rows rows of CSV into $data (takes ~40 s for 10M)" >&2
  (cd "$work/peer" && node gen.mjs "$data" "$rows" --formats csv,parquet,json)
fi
format=${SQE_BENCH_FORMAT:-csv}
if [ ! -d "$data/$format/orders" ] || [ ! -d "$data/$format/customers" ]; then
  echo "bench: $data has no $format/orders or $format/customers (gen.mjs --formats $format)" >&2
  exit 2
fi
# The third join table: one shipment per tenth order, generated once (about 1 s per 1M rows).
ships="$work/shipments-$rows"
if [ ! -f "$ships/part-0.csv" ]; then
  mkdir -p "$ships"
  node "$repo/bench/gen-shipments.mjs" "$ships/part-0.csv" "$rows"
fi
node "$repo/bench/bench.mjs" --sqe "$repo/build/sqe-cli" --peer "$work/peer" --data "$data" --shipments "$ships" \
  --out "$work/results-$rows-$format" --runs "${SQE_BENCH_RUNS:-5}" --export-runs "${SQE_BENCH_EXPORT_RUNS:-3}" \
  --threads "${SQE_BENCH_THREADS:-2}" --only "${SQE_BENCH_QUERIES:-queries,pruning,export,g10m,mem}" \
  --timeout "${SQE_BENCH_TIMEOUT:-900}" --check-timeout "${SQE_BENCH_CHECK_TIMEOUT:-120}" \
  --rss-cap-mb "${SQE_BENCH_RSS_CAP_MB:-4096}" --format "$format"
