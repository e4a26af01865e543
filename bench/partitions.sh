#!/usr/bin/env bash
# partitions.sh - planning cost of a many-partition table with and without
# the partition index (SPEC §6; issue 10 Done-when).
#
#   bench/partitions.sh [BUILD_DIR]            (default build)
#
# For each size in SQE_BENCH_PARTS (default "10000 100000") it generates a
# table `n=0/ .. n=<N-1>/`, one 8-byte CSV file per partition, under
# SQE_BENCH_PARTS_DIR (default /dev/shm when writable, else $TMPDIR or /tmp:
# on a loaded disk creating and deleting 200,000 files takes minutes, and
# the cost measured here is sqe's, not the file system's), registers it
# twice with Athena DDL (one table read by listing, one indexed by MSCK
# REPAIR TABLE), and reports per table:
#   - planning + execution time of `SELECT id FROM t WHERE n = <N/2>` from
#     `--timing`: the first query of a fresh sqe-cli process, and the median
#     of the SQE_BENCH_RUNS (default 5) queries after it in that process
#     (sqe caches no manifest or listing, so each one plans from scratch;
#     the first pays for the process's cold pages and thread start);
#   - the LIST requests and partitions considered (one EXPLAIN ANALYZE);
#   - peak RSS of one such process (/usr/bin/time -f %M, KiB);
#   - for the indexed table: MSCK REPAIR TABLE time, whether the index is
#     inline in the manifest or a separate object, and its size.
# Output: a Markdown table on stdout. Nothing here runs in `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
CLI=$PWD/$BUILD/sqe-cli
RUNS=${SQE_BENCH_RUNS:-5}
SIZES=${SQE_BENCH_PARTS:-"10000 100000"}
if [[ -z ${SQE_BENCH_PARTS_DIR:-} ]]; then
    if [[ -w /dev/shm ]]; then SQE_BENCH_PARTS_DIR=/dev/shm; else SQE_BENCH_PARTS_DIR=${TMPDIR:-/tmp}; fi
fi
[[ -x $CLI ]] || { echo "partitions.sh: build $CLI first (make)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "partitions.sh: /usr/bin/time is needed for peak RSS" >&2; exit 2; }
work=$(mktemp -d "$SQE_BENCH_PARTS_DIR/sqe-bench-parts.XXXXXX")
trap 'rm -rf "$work"' EXIT

cli() { # cli SQL... : one fresh process
    local args=()
    for s in "$@"; do args+=(-c "$s"); done
    "$CLI" --embedded --hive-root "lake=$work/wh" --format tsv "${args[@]}"
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

gen() { # gen N DIR
    python3 - "$1" "$2" <<'PY'
import os, sys
n, d = int(sys.argv[1]), sys.argv[2]
for i in range(n):
    p = os.path.join(d, f"n={i}")
    os.makedirs(p, exist_ok=True)
    with open(os.path.join(p, "part-0.csv"), "w") as f:
        f.write(f"{i},x\n")
PY
}

measure() { # measure TABLE N : prints "cold_ms warm_median_ms lists considered rss_kib"
    local q="SELECT id FROM lake.default.$1 WHERE n = $(($2 / 2))" args=() times
    for _ in $(seq 0 "$RUNS"); do args+=(-c "$q"); done
    times=$("$CLI" --embedded --hive-root "lake=$work/wh" --timing "${args[@]}" 2>&1 >/dev/null |
        grep -o 'Time: [0-9.]* ms' | grep -o '[0-9.]*')
    local cold warm ex lists cons rss
    cold=$(head -1 <<<"$times")
    warm=$(tail -n +2 <<<"$times" | median)
    ex=$(cli "EXPLAIN ANALYZE $q")
    lists=$(grep -o 'Storage: LIST [0-9]*' <<<"$ex" | grep -o '[0-9]*$')
    cons=$(grep -o 'partitions_considered=[0-9]*' <<<"$ex" | grep -o '[0-9]*$')
    rss=$( { /usr/bin/time -f '%M' "$CLI" --embedded --hive-root "lake=$work/wh" -c "$q" >/dev/null; } 2>&1 | tail -1)
    echo "$cold $warm $lists $cons $rss"
}

echo "| partitions | source | first query (ms) | later queries (median of $RUNS, ms) | LIST requests | partitions considered | peak RSS (MiB) | MSCK (ms) | index |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|---|"
for n in $SIZES; do
    rm -rf "$work/wh" "$work/data"
    mkdir -p "$work/wh" "$work/data"
    gen "$n" "$work/data"
    ddl="(id int, s string) PARTITIONED BY (n int) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' LOCATION '$work/data/'"
    cli "CREATE EXTERNAL TABLE lake.default.listed $ddl" "CREATE EXTERNAL TABLE lake.default.indexed $ddl" >/dev/null
    t0=$(date +%s%N)
    cli "MSCK REPAIR TABLE lake.default.indexed" >/dev/null
    msck_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    obj=$(ls "$work/wh/default/" | grep '\.partitions\.' || true)
    if [[ -n $obj ]]; then
        index="object, $(($(stat -c %s "$work/wh/default/$obj") / 1024)) KiB"
    else
        index="inline, manifest $(($(stat -c %s "$work/wh/default/indexed.manifest.json") / 1024)) KiB"
    fi
    read -r cold med lists cons rss < <(measure listed "$n")
    echo "| $n | listing | $cold | $med | $lists | $cons | $((rss / 1024)) | | |"
    read -r cold med lists cons rss < <(measure indexed "$n")
    echo "| $n | index | $cold | $med | $lists | $cons | $((rss / 1024)) | $msck_ms | $index |"
done
