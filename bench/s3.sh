#!/usr/bin/env bash
# s3.sh - the same scans from S3 (moto_server on 127.0.0.1) and from local
# disk: wall time, requests per query and bytes transferred (EXPLAIN
# ANALYZE's Storage line), and moto's raw throughput with curl alone, which
# bounds what any client can get from it (see bench/README.md).
#
#   bench/s3.sh [rows=10000000]
#
# Env: SQE_BENCH_DATA (a gen.mjs folder with csv/orders and parquet/orders;
#      default bench/work/data/<rows>), SQE_S3BENCH_RUNS (3 timed runs after
#      one warm-up), SQE_S3BENCH_CLI (build/sqe-cli), SQE_S3BENCH_OUT
#      (bench/work/s3-<rows>: report.md, moto.log), SQE_S3BENCH_BASELINE (another
#      sqe-cli, e.g. one built from main: its S3 time and requests are added).
# Needs moto_server (on the machine image; see ../shared/s3-test-server.md)
# and curl. Uploads about 1 GB into moto's memory for 10M rows.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
rows=${1:-10000000}
data=${SQE_BENCH_DATA:-$repo/bench/work/data/$rows}
runs=${SQE_S3BENCH_RUNS:-3}
cli=${SQE_S3BENCH_CLI:-$repo/build/sqe-cli}
out=${SQE_S3BENCH_OUT:-$repo/bench/work/s3-$rows}
for f in csv parquet; do
    [[ -d $data/$f/orders ]] || { echo "s3.sh: no $data/$f/orders (run bench/run.sh or gen.mjs first)" >&2; exit 2; }
done
moto=$(command -v moto_server || ls "$HOME"/.pyenv/versions/*/bin/moto_server 2>/dev/null | head -1)
[[ -n $moto ]] || { echo "s3.sh: moto_server not found" >&2; exit 2; }
mkdir -p "$out"
rm -rf "$out/wh" && mkdir -p "$out/wh"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$moto" -H 127.0.0.1 -p "$port" >"$out/moto.log" 2>&1 &
moto_pid=$!
trap 'kill $moto_pid 2>/dev/null; wait $moto_pid 2>/dev/null' EXIT
EP=http://127.0.0.1:$port
for _ in $(seq 1 300); do curl -s -o /dev/null "$EP/moto-api/" && break; sleep 0.1; done
# moto wants an Authorization header and checks no signature
AUTH="Authorization: AWS4-HMAC-SHA256 Credential=test/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=0"
curl -sf -X PUT -H "$AUTH" "$EP/bench" >/dev/null

now() { date +%s.%N; }
base=${SQE_S3BENCH_BASELINE:-}
echo "s3.sh: uploading $data/{csv,parquet}/orders to moto on port $port" >&2
t0=$(now)
(cd "$data" && find csv/orders parquet/orders -type f | sort) >"$out/files"
sed "s|.*|upload-file = \"$data/&\"\nurl = \"$EP/bench/&\"\noutput = \"/dev/null\"|" "$out/files" \
    >"$out/upload.curl"
curl -sf -Z --parallel-max 4 -H "$AUTH" -H "Content-Type: application/octet-stream" \
    -K "$out/upload.curl" 2>/dev/null
t1=$(now)
bytes_all=$(cd "$data" && xargs stat -c %s <"$out/files" | paste -sd+ | bc)
echo "s3.sh: uploaded $bytes_all bytes in $(echo "$t1 - $t0" | bc) s" >&2

# Raw throughput: every Parquet object with curl alone, 1 and 4 at a time,
# and the largest object in one GET.
raw() { # parallelism, list file -> MB/s (one curl process, connections kept alive)
    local t0 t1 b
    sed "s|.*|url = \"$EP/bench/&\"\noutput = \"/dev/null\"|" "$2" >"$2.curl"
    t0=$(now)
    if [[ $1 -gt 1 ]]; then
        curl -sf -Z --parallel-max "$1" -H "$AUTH" -K "$2.curl" 2>/dev/null
    else
        curl -sf -H "$AUTH" -K "$2.curl"
    fi
    t1=$(now)
    b=$(cd "$data" && xargs stat -c %s <"$2" | paste -sd+ | bc)
    echo "scale=1; $b / 1000000 / ($t1 - $t0)" | bc
}
grep '^parquet/' "$out/files" >"$out/files.pq"
grep '^csv/' "$out/files" >"$out/files.csv"
raw1=$(raw 1 "$out/files.pq")
raw4=$(raw 4 "$out/files.pq")
rawcsv4=$(raw 4 "$out/files.csv")
big=$(cd "$data" && xargs stat -c '%s %n' <"$out/files" | sort -nr | awk 'NR == 1 {print $2}')
echo "$big" >"$out/files.big"
rawbig=$(raw 1 "$out/files.big")

export AWS_ENDPOINT_URL=$EP AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_REGION=us-east-1 \
    AWS_EC2_METADATA_DISABLED=true
unset SQE_LOG AWS_PROFILE
ROOT=(--embedded --hive-root "lake=$out/wh")
COLS="(id bigint, customer_id bigint, amount double, status string, note string, qty int) PARTITIONED BY (dt string)"
CSVFMT="ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE"
"$cli" "${ROOT[@]}" -c "CREATE DATABASE lake.b" \
    -c "CREATE EXTERNAL TABLE lake.b.csv_local $COLS $CSVFMT LOCATION '$data/csv/orders/'" \
    -c "CREATE EXTERNAL TABLE lake.b.csv_s3 $COLS $CSVFMT LOCATION 's3://bench/csv/orders/'" \
    -c "CREATE EXTERNAL TABLE lake.b.pq_local $COLS STORED AS PARQUET LOCATION '$data/parquet/orders/'" \
    -c "CREATE EXTERNAL TABLE lake.b.pq_s3 $COLS STORED AS PARQUET LOCATION 's3://bench/parquet/orders/'" \
    >/dev/null

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
time_query() { # sql [cli] -> median seconds of $runs runs after a warm-up
    local c=${2:-$cli}
    "$c" "${ROOT[@]}" --format csv -c "$1" >"$out/last.out" 2>&1
    for _ in $(seq 1 "$runs"); do
        local a b
        a=$(now)
        "$c" "${ROOT[@]}" --format csv -c "$1" >/dev/null 2>&1
        b=$(now)
        echo "$b - $a" | bc
    done | median
}
storage() { # sql [cli] -> "LIST l, GET n, HEAD h, b bytes" from EXPLAIN ANALYZE
    "${2:-$cli}" "${ROOT[@]}" --format csv -c "EXPLAIN ANALYZE $1" 2>&1 |
        sed -n 's/.*Storage: LIST \([0-9]*\), GET \([0-9]*\), HEAD \([0-9]*\).*bytes read \([0-9]*\).*/LIST \1, GET \2, HEAD \3, \4 bytes/p'
}

{
    echo "# S3 (moto_server) vs local disk, $rows rows ($(date -u +%Y-%m-%d))"
    echo
    echo "Data: $data (orders: 100 dt= partitions x 2 files). sqe: $cli, $runs runs after a warm-up, medians."
    echo
    echo "moto raw throughput (curl alone, GET whole objects): Parquet objects 1 at a time $raw1 MB/s,"
    echo "4 at a time $raw4 MB/s; CSV objects 4 at a time $rawcsv4 MB/s; largest object ($big) $rawbig MB/s."
    echo
    echo "| query | table | local s | S3 s | S3/local | S3 requests, bytes (EXPLAIN ANALYZE) | S3 MB/s |${base:+ baseline S3 s | baseline S3 requests |}"
    echo "|---|---|---|---|---|---|---|${base:+---|---|}"
} >"$out/report.md"
for q in "csv|SELECT count(*), round(sum(amount), 2) FROM lake.b.TBL" \
    "csv|SELECT status, count(*), round(sum(amount), 2), round(avg(qty), 6) FROM lake.b.TBL GROUP BY status ORDER BY status" \
    "pq|SELECT count(*), round(sum(amount), 2) FROM lake.b.TBL" \
    "pq|SELECT status, count(*), round(sum(amount), 2), round(avg(qty), 6) FROM lake.b.TBL GROUP BY status ORDER BY status" \
    "pq|SELECT count(*) FROM lake.b.TBL"; do
    fmt=${q%%|*}
    sql=${q#*|}
    lq=${sql//TBL/${fmt}_local}
    sq=${sql//TBL/${fmt}_s3}
    tl=$(time_query "$lq")
    ts=$(time_query "$sq")
    cmp -s <("$cli" "${ROOT[@]}" --format csv -c "$lq" 2>&1) <("$cli" "${ROOT[@]}" --format csv -c "$sq" 2>&1) ||
        echo "s3.sh: WARNING: local and S3 answers differ for: $sql" >&2
    st=$(storage "$sq")
    b=$(echo "$st" | sed -n 's/.*, \([0-9]*\) bytes/\1/p')
    mbs=$(echo "scale=1; ${b:-0} / 1000000 / $ts" | bc)
    ratio=$(echo "scale=2; $ts / $tl" | bc)
    extra=
    if [[ -n $base ]]; then
        extra=" $(time_query "$sq" "$base") | $(storage "$sq" "$base") |"
    fi
    echo "| \`${sql//TBL/orders}\` | $fmt | $tl | $ts | $ratio | $st | $mbs |$extra" >>"$out/report.md"
    echo "s3.sh: $fmt: $sql: local $tl s, S3 $ts s ($st)" >&2
done
cat "$out/report.md"
