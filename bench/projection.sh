#!/usr/bin/env bash
# bench/projection.sh - what partition projection costs at plan time (SPEC §7).
#
# One table of ten years of daily partitions (2016-01-01 .. 2025-12-31,
# 3,653 days, one small CSV file each), registered twice: projected
# ('projection.dt.type'='date') and listed (no projection). Each case runs
# in a fresh sqe-cli process SQE_BENCH_RUNS times (default 5); reported:
# median statement time (sqe-cli --timing), median peak RSS of the process
# (/usr/bin/time -f %M), and the LIST requests of one EXPLAIN ANALYZE run.
#
#   proj-day   projected, WHERE dt = '2020-06-15'   (one candidate built)
#   proj-all   projected, no predicate              (3,653 partitions listed)
#   proj-show  SHOW PARTITIONS of the projected table (the projection alone)
#   list-day   listed, WHERE dt = '2020-06-15'
#   list-all   listed, no predicate
#   sec-one    2016..2025 at one-second steps (315M candidates) with a
#              one-second predicate: narrowing before the walk
#
# Usage: bench/projection.sh [out.md]   (SQE_CLI: the binary, default build/sqe-cli)
set -euo pipefail
cd "$(dirname "$0")/.."
CLI=${SQE_CLI:-build/sqe-cli}
RUNS=${SQE_BENCH_RUNS:-5}
OUT=${1:-}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/wh" "$W/data"

seq 0 3652 | sed 's/.*/2016-01-01 + & days/' | date -u -f - +%F >"$W/days"
sed "s|^|$W/data/dt=|" "$W/days" | xargs mkdir -p
while read -r d; do echo "1" >"$W/data/dt=$d/part-0.csv"; done <"$W/days"

run() { "$CLI" --embedded --hive-root "w=$W/wh" --threads 2 "$@"; }

run -c "USE w;
CREATE EXTERNAL TABLE proj (v int) PARTITIONED BY (dt string) LOCATION '$W/data/'
TBLPROPERTIES ('projection.enabled'='true', 'projection.dt.type'='date',
  'projection.dt.range'='2016-01-01,2025-12-31', 'projection.dt.format'='yyyy-MM-dd');
CREATE EXTERNAL TABLE listed (v int) PARTITIONED BY (dt string) LOCATION '$W/data/';
CREATE EXTERNAL TABLE sec (v int) PARTITIONED BY (ts string) LOCATION '$W/data/'
TBLPROPERTIES ('projection.enabled'='true', 'projection.ts.type'='date',
  'projection.ts.range'='2016-01-01 00:00:00,2025-12-31 23:59:59',
  'projection.ts.format'='yyyy-MM-dd HH:mm:ss', 'projection.ts.interval.unit'='SECONDS')" >/dev/null

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

declare -A SQL=(
    [proj-day]="SELECT count(*) FROM proj WHERE dt = '2020-06-15'"
    [proj-all]="SELECT count(*) FROM proj"
    [proj-show]="SHOW PARTITIONS proj"
    [list-day]="SELECT count(*) FROM listed WHERE dt = '2020-06-15'"
    [list-all]="SELECT count(*) FROM listed"
    [sec-one]="SELECT count(*) FROM sec WHERE ts = '2020-06-15 12:34:56'"
)

report=$(mktemp)
{
    echo "| case | statement | time ms (median of $RUNS) | peak RSS KiB (median) | LIST requests |"
    echo "|---|---|---|---|---|"
} >"$report"
for c in proj-day proj-all proj-show list-day list-all sec-one; do
    sql=${SQL[$c]}
    : >"$W/t" && : >"$W/m"
    for _ in $(seq "$RUNS"); do
        /usr/bin/time -o "$W/rss" -f %M "$CLI" --embedded --hive-root "w=$W/wh" --threads 2 \
            --timing -c "USE w; $sql" >/dev/null 2>"$W/err"
        grep '^Time:' "$W/err" | tail -1 | awk '{print $2}' >>"$W/t"
        cat "$W/rss" >>"$W/m"
    done
    lists=-
    if [[ $sql == SELECT* ]]; then
        lists=$(run -c "USE w; EXPLAIN ANALYZE $sql" --format tsv |
            sed -n 's/.*Storage: LIST \([0-9]*\),.*/\1/p' | head -1)
    fi
    printf '| %s | `%s` | %s | %s | %s |\n' "$c" "$sql" "$(median <"$W/t")" "$(median <"$W/m")" \
        "$lists" >>"$report"
done
cat "$report"
if [[ -n $OUT ]]; then cp "$report" "$OUT"; fi
rm -f "$report"
