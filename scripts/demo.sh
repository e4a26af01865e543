#!/usr/bin/env bash
# demo.sh - builds a small Hive-style warehouse in ./demo-warehouse and
# queries it with sqe-cli (run by `make demo`, after the build).
#
#   demo-warehouse/                          the root, attached as "demo"
#     sales/orders.manifest.json             the table (written by CREATE EXTERNAL TABLE)
#     sales/orders/dt=2026-01-01/part-0.csv  data, one folder per partition
#     sales/orders/dt=__HIVE_DEFAULT_PARTITION__/part-0.csv   dt IS NULL
set -euo pipefail
cd "$(dirname "$0")/.."

CLI=${SQE_CLI:-build/sqe-cli}
if [[ ! -x $CLI ]]; then
    echo "demo: $CLI not found; run 'make demo' (or make) first" >&2
    exit 1
fi

root=$PWD/demo-warehouse
data=$root/sales/orders
rm -rf "$root"
mkdir -p "$data/dt=2026-01-01" "$data/dt=2026-01-02" "$data/dt=2026-01-03" \
    "$data/dt=__HIVE_DEFAULT_PARTITION__"

# id,customer,amount,status  (no header line, as Athena expects by default)
cat >"$data/dt=2026-01-01/part-0.csv" <<'EOF'
1,alice,120.50,PAID
2,bob,35.00,PAID
3,carol,410.25,SHIPPED
4,dave,15.99,CANCELLED
5,erin,89.90,PAID
EOF
cat >"$data/dt=2026-01-02/part-0.csv" <<'EOF'
6,alice,42.00,SHIPPED
7,frank,250.00,PAID
8,grace,18.75,PENDING
9,bob,99.99,PAID
10,heidi,310.00,SHIPPED
11,ivan,5.25,CANCELLED
EOF
cat >"$data/dt=2026-01-03/part-0.csv" <<'EOF'
12,judy,77.70,PAID
13,carol,640.00,PAID
14,mallory,22.10,PENDING
15,alice,130.00,SHIPPED
16,oscar,54.45,PAID
EOF
cat >"$data/dt=__HIVE_DEFAULT_PARTITION__/part-0.csv" <<'EOF'
17,peggy,64.00,PENDING
18,trent,12.30,PAID
19,victor,480.00,SHIPPED
20,walter,9.99,CANCELLED
EOF

sql() {
    printf '\nsqe> %s;\n' "$1"
    "$CLI" --embedded --hive-root demo=./demo-warehouse -c "$1"
}

echo "demo: wrote 20 orders in 4 partitions under $data/"
sql "CREATE EXTERNAL TABLE demo.sales.orders (
    id int,
    customer string,
    amount decimal(10,2),
    status string)
PARTITIONED BY (dt string)
ROW FORMAT DELIMITED FIELDS TERMINATED BY ','
STORED AS TEXTFILE
LOCATION '$data/'"
echo "(manifest: demo-warehouse/sales/orders.manifest.json)"

sql "SELECT count(*) AS orders FROM demo.sales.orders"
sql "SELECT status, count(*) AS orders, sum(amount) AS total, avg(amount) AS average
FROM demo.sales.orders
GROUP BY status
ORDER BY total DESC"
sql "SELECT id, customer, amount, status FROM demo.sales.orders WHERE dt = '2026-01-02' ORDER BY id"
sql "SELECT id, customer, amount, dt FROM demo.sales.orders ORDER BY amount DESC LIMIT 3"
sql "SHOW CREATE TABLE demo.sales.orders"
sql "DESCRIBE demo.sales.orders"
sql "SELECT id, customer, amount, dt FROM demo.sales.orders WHERE dt IS NULL ORDER BY id"

printf '\ndemo: done. Try it yourself:\n  %s --embedded --hive-root demo=./demo-warehouse\n' "$CLI"
