#!/usr/bin/env bash
# Query a partitioned CSV dataset on S3 with Athena DDL, through sqe-cli.
#
#   ./run.sh            (from anywhere; builds sqe-cli first if needed)
#
# 1. starts moto_server (a local S3) on a free port of 127.0.0.1;
# 2. generates a small partitioned dataset (sales by day and country) and
#    uploads it to s3://quickstart-lake/raw/sales/ with curl;
# 3. attaches the warehouse root s3://quickstart-lake/warehouse as `lake`
#    and registers the table with Athena DDL;
# 4. runs a few queries and checks every answer.
# Exits 0 only if every check holds; the server is always stopped.
# Set KEEP=1 to leave the generated files in the printed folder.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
CLI=$repo/build/sqe-cli
[[ -x $CLI ]] || make -C "$repo" -j2 build/sqe-cli >/dev/null

MOTO=$(command -v moto_server || ls "$HOME"/.pyenv/versions/*/bin/moto_server 2>/dev/null | head -1 || true)
if [[ -z $MOTO ]]; then
    echo "run.sh: moto_server not found (pip install 'moto[server]')" >&2
    exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/sqe-quickstart-s3.XXXXXX")
moto_pid=
stop() {
    if [[ -n $moto_pid ]]; then kill "$moto_pid" 2>/dev/null || true; wait "$moto_pid" 2>/dev/null || true; fi
    if [[ ${KEEP:-0} == 1 ]]; then echo "files kept in $work"; else rm -rf "$work"; fi
}
trap stop EXIT

# --- 1. a local S3 -------------------------------------------------------
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$MOTO" -H 127.0.0.1 -p "$port" >"$work/moto.log" 2>&1 &
moto_pid=$!
endpoint=http://127.0.0.1:$port
for _ in $(seq 1 300); do curl -s -o /dev/null "$endpoint/moto-api/" && break; sleep 0.1; done
curl -s -o /dev/null "$endpoint/moto-api/" || { echo "moto_server did not start" >&2; exit 1; }
echo "moto_server on $endpoint"

# Credentials for the local S3 (moto accepts any). Prefer the environment
# to --s3-secret-key: command lines are visible to other users.
export AWS_ACCESS_KEY_ID=quickstart AWS_SECRET_ACCESS_KEY=quickstart-secret
export AWS_REGION=us-east-1 AWS_EC2_METADATA_DISABLED=true

# --- 2. data ---------------------------------------------------------------
bucket=quickstart-lake
# moto needs an Authorization header but checks no signature.
auth="Authorization: AWS4-HMAC-SHA256 Credential=quickstart/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=0"
curl -sf -X PUT -H "$auth" "$endpoint/$bucket" >/dev/null
rows=0
for day in 2026-03-01 2026-03-02 2026-03-03; do
    for country in DE FR US; do
        file=$work/part-0.csv
        : >"$file"
        for i in 1 2 3 4; do
            # order_id, product, quantity, unit_price
            d=${day: -1}
            echo "$d$i${country:0:1},widget-$i,$i,$((i * 10)).50" >>"$file"
            rows=$((rows + 1))
        done
        curl -sf -X PUT -H "$auth" -H "Content-Type: text/csv" --data-binary @"$file" \
            "$endpoint/$bucket/raw/sales/dt=$day/country=$country/part-0.csv" >/dev/null
    done
done
echo "uploaded $rows rows in 9 partitions to s3://$bucket/raw/sales/"

# --- 3 and 4. DDL and queries ----------------------------------------------
sql() {
    "$CLI" --embedded --s3-endpoint "$endpoint" --hive-root "lake=s3://$bucket/warehouse" \
        --format csv "$@"
}
sql -c "CREATE DATABASE IF NOT EXISTS lake.shop" -c "
CREATE EXTERNAL TABLE lake.shop.sales (
    order_id   string,
    product    string,
    quantity   int,
    unit_price decimal(10,2))
PARTITIONED BY (dt date, country string)
ROW FORMAT DELIMITED FIELDS TERMINATED BY ','
STORED AS TEXTFILE
LOCATION 's3://$bucket/raw/sales/'" >/dev/null

failures=0
check() { # check NAME EXPECTED SQL
    local got
    got=$(sql -c "$3" 2>&1) || true
    if [[ $got == "$2" ]]; then
        echo "ok   - $1"
    else
        echo "FAIL - $1"; echo "  expected: $2" | head -5; echo "  got:      $got" | head -5
        failures=$((failures + 1))
    fi
}

check "row count" $'n\n36' "SELECT count(*) AS n FROM lake.shop.sales"
check "partitions discovered" $'partition\ndt=2026-03-01/country=DE
dt=2026-03-01/country=FR
dt=2026-03-01/country=US
dt=2026-03-02/country=DE
dt=2026-03-02/country=FR
dt=2026-03-02/country=US
dt=2026-03-03/country=DE
dt=2026-03-03/country=FR
dt=2026-03-03/country=US' "SHOW PARTITIONS lake.shop.sales"
check "revenue per country" $'country,revenue\nDE,915.00\nFR,915.00\nUS,915.00' \
    "SELECT country, sum(quantity * unit_price) AS revenue FROM lake.shop.sales GROUP BY country ORDER BY country"
check "one day, one country (partition pruning)" $'orders,units\n4,10' \
    "SELECT count(*) AS orders, sum(quantity) AS units FROM lake.shop.sales WHERE dt = DATE '2026-03-02' AND country = 'FR'"
check "tables in the root" $'Table\nsales' "SHOW TABLES FROM lake.shop"

echo
echo "The catalog is a file next to the data:"
curl -sf -H "$auth" "$endpoint/$bucket/warehouse/shop/sales.manifest.json" | head -c 300
echo "..."
echo
sql -c "EXPLAIN ANALYZE SELECT country, count(*) FROM lake.shop.sales WHERE dt = DATE '2026-03-01' GROUP BY country" |
    grep -E "HiveScanExec|Storage" | sed 's/^"//; s/"$//'

if [[ $failures -ne 0 ]]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
