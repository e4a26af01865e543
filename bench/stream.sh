#!/usr/bin/env bash
# Streaming benchmark: `SELECT * FROM orders` written as CSV to /dev/null,
# with the peak RSS and the wall time of sqe-cli (see bench/README.md).
#
#   bench/stream.sh [rows=10000000]
#
# Reuses the data bench/run.sh generates in $SQE_BENCH_DIR/data/<rows>
# (default bench/work), or generates it the same way (the DuckDB harness's
# gen.mjs: 100 dt= partitions x 2 headerless CSV files). The result is never
# held whole: rows stream from the scan through the cursor to stdout, so the
# peak RSS should stay far below the result's size.
#
# Env: SQE_BENCH_PEER, SQE_BENCH_DIR (as run.sh), SQE_STREAM_TARGET_MB
# (default 300): exit 1 when the peak RSS is above it.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
rows=${1:-10000000}
target_mb=${SQE_STREAM_TARGET_MB:-300}
peer_src=${SQE_BENCH_PEER:-$repo/../shared/bench}
work=${SQE_BENCH_DIR:-$repo/bench/work}
cli=$repo/build/sqe-cli
if [ ! -x "$cli" ]; then
  echo "stream: $cli not built (run make)" >&2
  exit 2
fi
if [ ! -x /usr/bin/time ]; then
  echo "stream: /usr/bin/time is needed for the peak RSS (apt-get install time)" >&2
  exit 2
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)
data="$work/data/$rows"
if [ ! -f "$data/MANIFEST.json" ]; then
  if [ ! -f "$peer_src/gen.mjs" ]; then
    echo "stream: no data in $data and no generator at $peer_src (set SQE_BENCH_PEER)" >&2
    exit 2
  fi
  if [ ! -d "$work/peer/node_modules" ]; then
    rm -rf "$work/peer" && mkdir -p "$work/peer"
    cp -r "$peer_src"/. "$work/peer/"
    (cd "$work/peer" && npm ci --silent)
  fi
  echo "stream: generating $rows rows of CSV into $data (takes ~40 s for 10M)" >&2
  (cd "$work/peer" && node gen.mjs "$data" "$rows" --formats csv,parquet)
fi

wh="$work/stream-warehouse"
mkdir -p "$wh"
loc="$data/csv/orders/"
"$cli" --embedded --hive-root "bench=$wh" --format csv -c \
  "CREATE EXTERNAL TABLE IF NOT EXISTS bench.b.orders (id bigint, customer_id bigint, amount double, status string, note string, qty int) PARTITIONED BY (dt string) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE LOCATION '$loc'"

bytes=$(du -sb "$loc" | cut -f1)
echo "stream: SELECT * FROM orders ($rows rows, $((bytes / 1048576)) MiB of CSV) --format csv > /dev/null"
stats=$(mktemp)
trap 'rm -f "$stats"' EXIT
/usr/bin/time -f '%M %e' -o "$stats" \
  "$cli" --embedded --hive-root "bench=$wh" --format csv -c "SELECT * FROM bench.b.orders" >/dev/null
read -r peak_kb secs <"$stats"
peak_mb=$((peak_kb / 1024))
echo "stream: peak RSS ${peak_mb} MB, ${secs} s wall"
if [ "$peak_mb" -ge "$target_mb" ]; then
  echo "stream: peak RSS is over the target of ${target_mb} MB" >&2
  exit 1
fi
echo "stream: under the target of ${target_mb} MB"
