#!/usr/bin/env bash
# test_cli.sh - checks the sqe-cli program from the outside: flags, exit
# status, error lines, and every output format against exact expected text.
#
#   tests/integration/test_cli.sh [path/to/sqe-cli]     (default build/sqe-cli)
#
# Each check prints "ok - NAME" or "not ok - NAME" with a diff; the script
# exits 1 if any check failed. Run by `make cli-test` (part of `make test`).
set -uo pipefail
cd "$(dirname "$0")/../.."

CLI=${1:-build/sqe-cli}
if [[ ! -x $CLI ]]; then
    echo "test_cli.sh: $CLI is not an executable (run make first)" >&2
    exit 1
fi
CLI=$(cd "$(dirname "$CLI")" && pwd)/$(basename "$CLI")

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sqe-cli-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export SQE_HISTORY=  # never touch the user's history file
unset SQE_LOG

checks=0
failures=0
status=0

# run ARGS...: runs the CLI with stdin from /dev/null unless STDIN_FILE is
# set; stdout -> $tmp/out, stderr -> $tmp/err, exit status -> $status.
run() {
    "$CLI" "$@" <"${STDIN_FILE:-/dev/null}" >"$tmp/out" 2>"$tmp/err"
    status=$?
}

pass() { checks=$((checks + 1)); echo "ok - $1"; }
fail() {
    checks=$((checks + 1))
    failures=$((failures + 1))
    echo "not ok - $1"
    shift
    for line in "$@"; do echo "    $line"; done
    echo "    --- stdout:"; sed 's/^/    | /' "$tmp/out"
    echo "    --- stderr:"; sed 's/^/    | /' "$tmp/err"
}

# expect_status NAME WANT
expect_status() {
    if [[ $status -eq $2 ]]; then pass "$1: exit $2"; else fail "$1: exit $2" "got exit $status"; fi
}

# expect_stdout NAME EXPECTED: stdout must equal EXPECTED plus a final newline.
expect_stdout() {
    printf '%s\n' "$2" >"$tmp/want"
    if cmp -s "$tmp/want" "$tmp/out"; then
        pass "$1: stdout"
    else
        mapfile -t d < <(diff -u "$tmp/want" "$tmp/out" | tail -n +3)
        fail "$1: stdout" "${d[@]}"
    fi
}

expect_stdout_empty() {
    if [[ ! -s $tmp/out ]]; then pass "$1: stdout empty"; else fail "$1: stdout empty"; fi
}

# expect_stderr NAME EXPECTED: stderr must equal EXPECTED plus a final newline.
expect_stderr() {
    printf '%s\n' "$2" >"$tmp/want"
    if cmp -s "$tmp/want" "$tmp/err"; then
        pass "$1: stderr"
    else
        mapfile -t d < <(diff -u "$tmp/want" "$tmp/err" | tail -n +3)
        fail "$1: stderr" "${d[@]}"
    fi
}

# expect_in FILE NAME TEXT: FILE (out or err) must contain TEXT (fixed string).
expect_in() {
    if grep -qF -- "$3" "$tmp/$1"; then pass "$2: $1 has '$3'"; else fail "$2: $1 has '$3'"; fi
}

# expect_line1 FILE NAME REGEX: the first line of FILE must match REGEX.
expect_line1() {
    if head -n 1 "$tmp/$1" | grep -qE -- "$3"; then
        pass "$2: first $1 line matches /$3/"
    else
        fail "$2: first $1 line matches /$3/"
    fi
}

Q="SELECT 1 AS a, 'x' AS b"

# ------------------------------------------------------------- flags
run --help
expect_status "--help" 0
expect_in out "--help" "Usage: sqe-cli --embedded"
expect_in out "--help" "--hive-root NAME=URL"
expect_in out "--help" "AWS_SECRET_ACCESS_KEY"
expect_in out "--help" "SELECT 1 AS a, 2 AS a gives a, a_1"
expect_in out "--help" "Examples:"

expect_in out "--help" "80% of physical memory"
expect_in out "--help" "Ctrl-C cancels the running statement"

run --version
expect_status "--version" 0
expect_stdout "--version" "sqe-cli 0.1.0"

run --embedded --bogus
expect_status "unknown flag" 2
expect_line1 err "unknown flag" "^sqe-cli: unknown flag --bogus$"
expect_in err "unknown flag" "Usage: sqe-cli"
expect_stdout_empty "unknown flag"

run --embedded -c
expect_status "missing value" 2
expect_line1 err "missing value" "^sqe-cli: missing value for -c$"

run --embedded extra
expect_status "stray argument" 2

run -c "$Q"
expect_status "no --embedded" 2
expect_stderr "no --embedded" \
    "sqe-cli: server mode (without --embedded) is not supported yet; run with --embedded"

# S3 flags are accepted (nothing is contacted until an s3:// URL is used).
for flag in --s3-endpoint --s3-access-key --s3-secret-key --s3-region; do
    run --embedded "$flag" http://127.0.0.1:1 -c "$Q"
    expect_status "$flag" 0
    expect_in out "$flag" "x"
done
run --embedded --s3-virtual-hosted -c "$Q"
expect_status "--s3-virtual-hosted" 0
run --embedded --s3-region= -c "$Q"
expect_status "--s3-region empty" 2
expect_line1 err "--s3-region empty" "^sqe-cli: --s3-region needs a non-empty value$"
# An S3 root behind a dead endpoint: the statement fails naming the
# endpoint, quickly (no hang), and the secret key appears nowhere.
run --embedded --s3-endpoint http://127.0.0.1:1 --s3-access-key AKID \
    --s3-secret-key cli-secret-value-123 --hive-root lake=s3://bucket/wh \
    -c "SHOW DATABASES FROM lake"
expect_status "S3 root, dead endpoint" 1
expect_in err "S3 root, dead endpoint" "cannot connect to endpoint 'http://127.0.0.1:1'"
if grep -q "cli-secret-value-123" "$tmp/out" "$tmp/err"; then
    fail "S3 root, dead endpoint: secret key not shown" "the secret key was printed"
else
    pass "S3 root, dead endpoint: secret key not shown"
fi

# Once parsed, --s3-secret-key's value is overwritten in argv, so the
# process list no longer shows it (the statement below retries a dead
# endpoint for about a second, long enough to look).
"$CLI" --embedded --s3-endpoint http://127.0.0.1:1 --s3-access-key AKID \
    --s3-secret-key cmdline-secret-456 --hive-root lake=s3://bucket/wh \
    -c "SHOW DATABASES FROM lake" >/dev/null 2>&1 &
cli_pid=$!
cmdline=
for _ in $(seq 1 50); do
    sleep 0.02
    cmdline=$(tr '\0' ' ' <"/proc/$cli_pid/cmdline" 2>/dev/null) || break
    [[ $cmdline == *"SHOW DATABASES"* ]] && break
done
sleep 0.2
cmdline=$(tr '\0' ' ' <"/proc/$cli_pid/cmdline" 2>/dev/null) || cmdline=
wait "$cli_pid" 2>/dev/null
if [[ -z $cmdline ]]; then
    pass "--s3-secret-key hidden from the process list (skipped: process ended too soon)"
elif [[ $cmdline == *"--s3-secret-key xxxxxxxxxxxxxxxxxx "* && $cmdline != *cmdline-secret-456* ]]; then
    pass "--s3-secret-key hidden from the process list"
else
    fail "--s3-secret-key hidden from the process list" "cmdline: $cmdline"
fi

# The shell keeps CREATE SECRET (and its keys) out of its history file.
if command -v script >/dev/null; then
    printf "CREATE SECRET s (TYPE S3, KEY_ID 'a', SECRET 'hist-secret-77');\nSELECT 42;\n\\\\q\n" |
        SQE_HISTORY="$tmp/hist" timeout 20 script -qec "$CLI --embedded" /dev/null >"$tmp/out" 2>"$tmp/err"
    if grep -q "SELECT.*42" "$tmp/hist" 2>/dev/null && ! grep -qi "secret" "$tmp/hist"; then
        pass "shell history leaves out CREATE SECRET"
    else
        fail "shell history leaves out CREATE SECRET" "history: $(cat "$tmp/hist" 2>/dev/null)"
    fi
fi

run --embedded --format xml -c "$Q"
expect_status "--format xml" 2
expect_in err "--format xml" "unknown format 'xml'"

for bad in 12XB -5MB MB 1.2.3GB; do
    run --embedded --memory-limit "$bad" -c "$Q"
    expect_status "--memory-limit $bad" 2
done
for good in 512MB 4GB 1GiB 1048576 "1.5 GB" 0; do
    run --embedded --memory-limit "$good" --format csv -c "$Q"
    expect_status "--memory-limit $good" 0
done

run --embedded --threads abc -c "$Q"
expect_status "--threads abc" 2
run --embedded --threads 2 --format csv -c "$Q"
expect_status "--threads 2" 0

run --embedded --hive-root noequals -c "$Q"
expect_status "--hive-root without =" 2

run --embedded --hive-root "system=$tmp" -c "$Q"
expect_status "--hive-root colliding with a built-in catalog" 1
expect_line1 err "--hive-root colliding with a built-in catalog" "^sqe-cli: cannot attach --hive-root system="

# ------------------------------------------------------------- formats
run --embedded -c "$Q"
expect_status "table" 0
expect_stdout "table" " a | b
---+---
 1 | x
(1 row)"

run --embedded --format csv -c "$Q"
expect_stdout "csv" "a,b
1,x"

run --embedded --format tsv -c "$Q"
expect_stdout "tsv" "a	b
1	x"

run --embedded --format json -c "$Q"
expect_stdout "json" '[
{"a":1,"b":"x"}
]'

run --embedded --format jsonl -c "$Q"
expect_stdout "jsonl" '{"a":1,"b":"x"}'

run --embedded --format markdown -c "$Q"
expect_stdout "markdown" "| a | b |
|---:|---|
| 1 | x |"

run --embedded --format=csv -c "$Q"
expect_stdout "--format=csv" "a,b
1,x"

# NULL, empty string, quoting and escaping
run --embedded --format csv -c "SELECT NULL AS n, '' AS e, 'a,b' AS c, 'say \"hi\"' AS q"
expect_stdout "csv NULL/empty/quoting" 'n,e,c,q
,"","a,b","say ""hi"""'

run --embedded --format tsv -c "SELECT NULL AS n, 'a	b' AS t, 'back\\slash' AS s"
expect_stdout "tsv NULL/escapes" 'n	t	s
	a\tb	back\\slash'

run --embedded --format json -c "SELECT NULL AS n, 'a	\"b\"' AS s, true AS t"
expect_stdout "json NULL/escapes/boolean" '[
{"n":null,"s":"a\t\"b\"","t":true}
]'

run --embedded --format markdown -c "SELECT 'a|b' AS p"
expect_stdout "markdown pipe" '| p |
|---|
| a\|b |'

run --embedded -c "SELECT NULL AS n, 'x' AS b"
expect_stdout "table NULL" "  n   | b
------+---
 NULL | x
(1 row)"

run --embedded --format json -c "SELECT 1 AS a WHERE false"
expect_stdout "json no rows" "[]"
run --embedded --format jsonl -c "SELECT 1 AS a WHERE false"
expect_stdout_empty "jsonl no rows"
run --embedded -c "SELECT 1 AS a WHERE false"
expect_stdout "table no rows" " a
---
(0 rows)"

# expect_stdout_bytes NAME PRINTF_FORMAT: stdout must equal the bytes
# printf FORMAT makes (for NUL and other bytes a shell string cannot hold).
expect_stdout_bytes() {
    # shellcheck disable=SC2059
    printf "$2" >"$tmp/want"
    if cmp -s "$tmp/want" "$tmp/out"; then
        pass "$1: stdout"
    else
        fail "$1: stdout" "want: $(od -c "$tmp/want" | head -20 | tr '\n' '~')" \
            "got:  $(od -c "$tmp/out" | head -20 | tr '\n' '~')"
    fi
}

# NUL bytes and invalid UTF-8 inside values: shown whole in every format,
# raw (csv), escaped (tsv \0, table and markdown \xHH, json \u0000 and
# U+FFFD), never cut at the NUL; '' still differs from NULL.
mkdir -p "$tmp/bytes/db/t"
printf '1,a\000b\n2,\377\376ok\n3,\n4,\\N\n' >"$tmp/bytes/db/t/data.csv"
bytes_ddl="CREATE EXTERNAL TABLE b.db.t (id int, s string) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE LOCATION '$tmp/bytes/db/t/'"
run --embedded --hive-root "b=$tmp/bytes" --format csv -c "$bytes_ddl"
expect_status "bytes table" 0
bytes_q="SELECT id, s FROM b.db.t ORDER BY id"
run --embedded --hive-root "b=$tmp/bytes" --format csv -c "$bytes_q"
expect_stdout_bytes "csv NUL and invalid UTF-8" 'id,s\n1,a\000b\n2,\377\376ok\n3,""\n4,\n'
run --embedded --hive-root "b=$tmp/bytes" --format tsv -c "$bytes_q"
expect_stdout_bytes "tsv NUL and invalid UTF-8" 'id\ts\n1\ta\\0b\n2\t\377\376ok\n3\t\n4\t\n'
run --embedded --hive-root "b=$tmp/bytes" --format json -c "$bytes_q"
expect_stdout_bytes "json NUL and invalid UTF-8" '[\n{"id":1,"s":"a\\u0000b"},\n{"id":2,"s":"\357\277\275\357\277\275ok"},\n{"id":3,"s":""},\n{"id":4,"s":null}\n]\n'
run --embedded --hive-root "b=$tmp/bytes" --format jsonl -c "$bytes_q"
expect_stdout_bytes "jsonl NUL and invalid UTF-8" '{"id":1,"s":"a\\u0000b"}\n{"id":2,"s":"\357\277\275\357\277\275ok"}\n{"id":3,"s":""}\n{"id":4,"s":null}\n'
run --embedded --hive-root "b=$tmp/bytes" --format markdown -c "$bytes_q"
expect_stdout_bytes "markdown NUL and invalid UTF-8" '| id | s |\n|---:|---|\n| 1 | a\\x00b |\n| 2 | \\xFF\\xFEok |\n| 3 |  |\n| 4 | NULL |\n'
run --embedded --hive-root "b=$tmp/bytes" -c "$bytes_q"
expect_stdout "table NUL and invalid UTF-8" ' id |     s
----+------------
  1 | a\x00b
  2 | \xFF\xFEok
  3 |
  4 | NULL
(4 rows)'

# table streams: widths come from the first 1,000 rows; a later, wider value
# is printed whole and pushes its line right.
mkdir -p "$tmp/long/db/t"
{
    for i in $(seq 1 1000); do echo "$i,ab"; done
    echo "123456,abcdefgh"
} >"$tmp/long/db/t/data.csv"
long_ddl="CREATE EXTERNAL TABLE l.db.t (id int, s string) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE LOCATION '$tmp/long/db/t/'"
run --embedded --hive-root "l=$tmp/long" --format csv -c "$long_ddl"
run --embedded --hive-root "l=$tmp/long" -c "SELECT id, s FROM l.db.t ORDER BY id"
expect_status "table over 1000 rows" 0
head -n 3 "$tmp/out" >"$tmp/out.head"
tail -n 3 "$tmp/out" >"$tmp/out.tail"
if [[ $(cat "$tmp/out.head") == "$(printf '  id  | s\n------+----\n    1 | ab')" &&
    $(cat "$tmp/out.tail") == "$(printf ' 1000 | ab\n 123456 | abcdefgh\n(1001 rows)')" ]]; then
    pass "table over 1000 rows: widths of the first 1000, wider values whole"
else
    fail "table over 1000 rows: widths of the first 1000, wider values whole" \
        "head: $(tr '\n' '~' <"$tmp/out.head")" "tail: $(tr '\n' '~' <"$tmp/out.tail")"
fi

# A statement failing after rows were printed: the rows stay, then the
# error (the reader fails on its third batch of 2048 rows); the table
# format drops the rows it was still holding.
mkdir -p "$tmp/late/db/t"
{
    seq 1 5000
    echo "x"
} >"$tmp/late/db/t/data.csv"
run --embedded --hive-root "l=$tmp/late" --format csv \
    -c "CREATE EXTERNAL TABLE l.db.t (id int) STORED AS TEXTFILE LOCATION '$tmp/late/db/t/'" \
    -c "SELECT id FROM l.db.t"
expect_status "error after rows" 1
expect_line1 err "error after rows" "^Error: .*'x'"
if [[ $(wc -l <"$tmp/out") -eq 4097 && $(tail -n 1 "$tmp/out") == 4096 ]]; then
    pass "error after rows: the rows before the failing batch are printed"
else
    fail "error after rows: the rows before the failing batch are printed"
fi
printf 'x,late\n' >>"$tmp/long/db/t/data.csv"
run --embedded --hive-root "l=$tmp/long" -c "SELECT id FROM l.db.t"
expect_status "error after rows (table)" 1
expect_stdout_empty "error after rows (table)"

# ------------------------------------------------------------- execution
run --embedded --format csv -c "$Q; SELECT 2 AS c" -c "SELECT 3 AS d"
expect_status "several statements" 0
expect_stdout "several statements" "a,b
1,x
c
2
d
3"

run --embedded -c "$Q" -c "SELECT 2 AS c"
expect_stdout "table results separated by a blank line" " a | b
---+---
 1 | x
(1 row)

 c
---
 2
(1 row)"

run --embedded --format csv -c "$Q; SELEC 1; SELECT 2 AS c"
expect_status "failing statement" 1
expect_stdout "failing statement stops the script" "a,b
1,x"
expect_line1 err "failing statement" "^Error: ."

SQE_LOG=debug run --embedded -c "SELEC 1"
expect_status "SQE_LOG=debug" 1
expect_line1 err "SQE_LOG=debug" "^Error: ."
expect_in err "SQE_LOG=debug" "SQLSTATE: "

run --embedded --timing --format csv -c "$Q"
expect_status "--timing" 0
expect_line1 err "--timing" "^Time: [0-9]+\.[0-9]{3} ms$"
expect_stdout "--timing keeps stdout clean" "a,b
1,x"

printf '%s;\n-- a comment\nSELECT 2 AS c;\n' "$Q" >"$tmp/script.sql"
run --embedded --format csv -f "$tmp/script.sql"
expect_status "-f script" 0
expect_stdout "-f script" "a,b
1,x
c
2"

run --embedded -f "$tmp/no-such-file.sql"
expect_status "-f missing file" 1

STDIN_FILE=$tmp/script.sql run --embedded --format csv
expect_status "stdin script" 0
expect_stdout "stdin script" "a,b
1,x
c
2"

STDIN_FILE=$tmp/script.sql run --embedded --format jsonl -f -
expect_stdout "-f -" '{"a":1,"b":"x"}
{"c":2}'

printf 'SELECT 1 AS a;\nSELEC 1;\nSELECT 2 AS c;\n' >"$tmp/bad.sql"
STDIN_FILE=$tmp/bad.sql run --embedded --format csv
expect_status "stdin script with an error" 1
expect_stdout "stdin script with an error" "a
1"

# DDL: status word in table mode only
mkdir -p "$tmp/wh/db/t"
printf '1,x\n2,y\n' >"$tmp/wh/db/t/data.csv"
ddl="CREATE EXTERNAL TABLE w.db.t (id int, name string) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE LOCATION '$tmp/wh/db/t/'"
run --embedded --hive-root "w=$tmp/wh" -c "$ddl"
expect_status "CREATE EXTERNAL TABLE" 0
expect_stdout "CREATE EXTERNAL TABLE prints its status" "CREATE EXTERNAL TABLE"
run --embedded --hive-root "w=$tmp/wh" --format csv -c "DROP TABLE w.db.t" -c "$ddl" \
    -c "SELECT name FROM w.db.t ORDER BY id"
expect_status "DDL in csv" 0
expect_stdout "DDL prints nothing in csv" "name
x
y"

# ------------------------------------------------------------- memory limit
# Strings built inside expressions count against --memory-limit (issue 5):
# a value larger than the limit fails the statement (never SIGABRT), and a
# batch whose intermediate strings pass the limit runs in pieces.
mkdir -p "$tmp/mem/db/t"
for i in $(seq 1 50); do printf '%d,s%d\n' "$i" "$i"; done >"$tmp/mem/db/t/data.csv"
mem_ddl="CREATE EXTERNAL TABLE m.db.t (id int, s string) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE LOCATION '$tmp/mem/db/t/'"
run --embedded --hive-root "m=$tmp/mem" -c "$mem_ddl"
expect_status "memory table" 0
run --embedded --hive-root "m=$tmp/mem" --memory-limit 8MB \
    -c "SELECT length(lpad(s, 10000000, 'x')) FROM m.db.t"
expect_status "10 MB value under 8MB" 1
expect_stderr "10 MB value under 8MB" "Error: query exceeded the memory limit of 8388608 bytes in lpad"
run --embedded --hive-root "m=$tmp/mem" --memory-limit 16MB --format csv \
    -c "SELECT id, length(lpad(s, 1000000, 'x')) AS n FROM m.db.t"
expect_status "50 MB of padding under 16MB" 0
if [[ $(grep -c ',1000000$' "$tmp/out") -eq 50 ]]; then
    pass "50 MB of padding under 16MB: 50 rows"
else
    fail "50 MB of padding under 16MB: 50 rows"
fi
if [[ -x /usr/bin/time ]]; then
    /usr/bin/time -o "$tmp/rss" -f '%M' "$CLI" --embedded --hive-root "m=$tmp/mem" \
        --memory-limit 16MB --format csv -c "SELECT length(lpad(s, 1000000, 'x')) FROM m.db.t" \
        >/dev/null 2>&1
    rss=$(tail -1 "$tmp/rss")
    if [[ $rss -lt 81920 ]]; then
        pass "padding under 16MB: peak RSS ${rss} KB < limit + 64 MB"
    else
        fail "padding under 16MB: peak RSS ${rss} KB >= limit + 64 MB"
    fi
fi

# ------------------------------------------------------------- Ctrl-C
# A query that runs for many seconds: 600 files of 3 rows, each row a LIKE
# whose pattern depends on the row (the general matcher, ~5 ms a row).
mkdir -p "$tmp/slow/db/t"
for i in $(seq 1 600); do printf 'x%d,1\ny%d,2\nz%d,3\n' "$i" "$i" "$i" >"$tmp/slow/db/t/f$i.csv"; done
slow_ddl="CREATE EXTERNAL TABLE s.db.t (s string, n int) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE LOCATION '$tmp/slow/db/t/'"
slow_q="SELECT count(*) FROM s.db.t WHERE lpad(s, 4000, 'a') LIKE concat('%', lpad('b', 1000 + n, 'a'))"
run --embedded --hive-root "s=$tmp/slow" -c "$slow_ddl"
expect_status "slow table" 0

# start_slow ARGS...: the CLI in the background with SIGINT at its default
# (a non-interactive shell starts background jobs with SIGINT ignored, and
# sqe-cli then leaves it ignored, as other tools do).
start_slow() {
    perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die' -- "$CLI" "$@" </dev/null >"$tmp/out" 2>"$tmp/err" &
    slow_pid=$!
}

start_slow --embedded --hive-root "s=$tmp/slow" --format csv -c "$slow_q" -c "SELECT 'after' AS x"
sleep 0.7
t0=$(date +%s%N)
kill -INT "$slow_pid"
wait "$slow_pid"
status=$?
ms=$((($(date +%s%N) - t0) / 1000000))
expect_status "Ctrl-C cancels a running statement" 1
expect_stderr "Ctrl-C cancels a running statement" "Error: query was cancelled"
expect_stdout_empty "Ctrl-C cancels a running statement (the script stops)"
if [[ $ms -lt 3000 ]]; then pass "Ctrl-C: ends in ${ms} ms"; else fail "Ctrl-C: ends in ${ms} ms (> 3 s)"; fi

# One file of 1000 such rows is one batch of several seconds: the statement
# fails at once on Ctrl-C, but its operators stop only after the batch, so
# sqe-cli is still waiting for them when the second Ctrl-C comes.
mkdir -p "$tmp/slow/db/one"
for i in $(seq 1 1000); do echo "x$i,$((i % 3 + 1))"; done >"$tmp/slow/db/one/f.csv"
run --embedded --hive-root "s=$tmp/slow" \
    -c "CREATE EXTERNAL TABLE s.db.one (s string, n int) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE LOCATION '$tmp/slow/db/one/'"
start_slow --embedded --hive-root "s=$tmp/slow" --format csv -c "${slow_q/s.db.t/s.db.one}"
sleep 0.7
t0=$(date +%s%N)
kill -INT "$slow_pid"
sleep 0.3
kill -INT "$slow_pid"
wait "$slow_pid"
status=$?
ms=$((($(date +%s%N) - t0) / 1000000))
expect_status "a second Ctrl-C exits at once" 130
expect_in err "a second Ctrl-C exits at once" "Error: query was cancelled"
expect_in err "a second Ctrl-C exits at once" "Interrupted again while cancelling; exiting."
if [[ $ms -lt 2000 ]]; then pass "second Ctrl-C: ends in ${ms} ms"; else fail "second Ctrl-C: ends in ${ms} ms (> 2 s)"; fi

# ------------------------------------------------------------- shell
if command -v script >/dev/null 2>&1; then
    printf "SELECT 1 AS a,\n 'x' AS b;\n\\\\format csv\nSELEC 1;\nSELECT 2 AS c;\n\\\\q\n" \
        | timeout 20 script -qec "$CLI --embedded" /dev/null 2>&1 | tr -d '\r' >"$tmp/out"
    : >"$tmp/err"
    expect_in out "shell" "sqe> "
    expect_in out "shell" "  -> "
    expect_in out "shell" " 1 | x"
    expect_in out "shell" "Output format is csv."
    expect_in out "shell" "Error: "
    if grep -qx "c" "$tmp/out" && grep -qx "2" "$tmp/out"; then
        pass "shell: runs statements after an error"
    else
        fail "shell: runs statements after an error"
    fi

    # Ctrl-C (the terminal's ^C) cancels the running statement; the shell goes on
    {
        printf '%s;\n' "$slow_q"
        sleep 1.5
        printf '\003'
        sleep 1
        printf "SELECT 'still here' AS s;\n\\\\q\n"
    } | timeout 30 script -qec "$CLI --embedded --hive-root s=$tmp/slow" /dev/null 2>&1 \
        | tr -d '\r' >"$tmp/out"
    expect_in out "shell Ctrl-C" "Error: query was cancelled"
    expect_in out "shell Ctrl-C" " still here"
else
    echo "skip - shell tests (no 'script' program)"
fi


# ------------------------------------------------ adversarial (issue 7)
# Hostile scripts, files and values; each case is named after what broke.

# run_t ARGS...: like run, but a hang fails the check (exit 124) instead of
# hanging the suite.
run_t() {
    timeout 20 "$CLI" "$@" <"${STDIN_FILE:-/dev/null}" >"$tmp/out" 2>"$tmp/err"
    status=$?
}

# item 4: a NUL byte silently ended a script with exit 0 (SELECT 3 never ran)
printf 'SELECT 1 AS a;\nSELECT 2 AS a; -- \000\nSELECT 3 AS a;\n' >"$tmp/nul.sql"
STDIN_FILE=$tmp/nul.sql run --embedded --format csv
expect_status "NUL in a piped script" 1
expect_stdout "NUL in a piped script" "a
1
a
2"
expect_stderr "NUL in a piped script" "Error: syntax error at line 1:4: NUL byte (\\0) in the SQL text; SQL text cannot hold NUL bytes, not even in string literals or comments: remove it (is the script UTF-16? save it as UTF-8)"
run --embedded --format csv -f "$tmp/nul.sql"
expect_status "NUL in a -f script" 1
expect_in err "NUL in a -f script" "syntax error at line 1:4: NUL byte"
printf "SELECT 1 AS a;\nSELECT\n  'x\000y' AS b;\nSELECT 3;\n" >"$tmp/nul2.sql"
run --embedded --format csv -f "$tmp/nul2.sql"
expect_status "NUL in a string literal" 1
expect_stdout "NUL in a string literal" "a
1"
expect_in err "NUL in a string literal" "Error: syntax error at line 2:5: NUL byte (\\0) in the SQL text"
# a script ending in a comment with a NUL: still reported
printf 'SELECT 1 AS a;\n/* \000 */\n' >"$tmp/nul3.sql"
run --embedded --format csv -f "$tmp/nul3.sql"
expect_status "NUL in a trailing comment" 1
expect_in err "NUL in a trailing comment" "NUL byte (\\0)"

# item 11: a UTF-8 BOM at the start of a script is skipped (it showed as
# "found 'SELECT'"); anywhere else it is shown as \ufeff
printf '\357\273\277SELECT 1 AS a;\n' >"$tmp/bom.sql"
run --embedded --format csv -f "$tmp/bom.sql"
expect_status "BOM at the start of a -f script" 0
expect_stdout "BOM at the start of a -f script" "a
1"
STDIN_FILE=$tmp/bom.sql run --embedded --format csv
expect_status "BOM at the start of piped stdin" 0
run --embedded --format csv -c $'\xef\xbb\xbfSELECT 1 AS a'
expect_status "BOM at the start of -c" 0
run --embedded -c $'SELECT \xef\xbb\xbfa'
expect_status "BOM inside a statement" 1
expect_in err "BOM inside a statement" "column '\\ufeffa' cannot be resolved"

# item 11: invisible bytes inside error messages are escaped
mkdir -p "$tmp/inv/db/t"
printf '3\000\n' >"$tmp/inv/db/t/a.csv"
run --embedded --hive-root "v=$tmp/inv" -c "CREATE EXTERNAL TABLE v.db.t (a int) LOCATION '$tmp/inv/db/t/'" -c "SELECT * FROM v.db.t"
expect_status "NUL inside a value in an error" 1
expect_in err "NUL inside a value in an error" "cannot parse '3\\0' as integer"
printf '4\033[31m\007\n' >"$tmp/inv/db/t/a.csv"
run --embedded --hive-root "v=$tmp/inv" -c "SELECT * FROM v.db.t"
expect_in err "ESC and BEL inside a value in an error" "cannot parse '4\\x1b[31m\\x07' as integer"
if LC_ALL=C grep -q $'\033' "$tmp/err"; then fail "no raw ESC on stderr"; else pass "no raw ESC on stderr"; fi

# item 10: output formats
run --embedded --format json -c "SELECT 1 AS a, 2 AS a, 3 AS b, 4 AS a"
expect_stdout "json duplicate column names" '[
{"a":1,"a_1":2,"b":3,"a_2":4}
]'
run --embedded --format jsonl -c "SELECT 1 AS a, 2 AS a"
expect_stdout "jsonl duplicate column names" '{"a":1,"a_1":2}'
run --embedded --format csv -c "SELECT 1 AS a, 2 AS a"
expect_stdout "csv keeps duplicate column names" 'a,a
1,2'
mkdir -p "$tmp/md/db/t"
# JSON strings carry CR and LF inside a value (in text files CR and LF end
# lines, as in Hadoop)
cat >"$tmp/md/db/t/a.json" <<'EOF'
{"id": 1, "v": "<b>x</b> & y \\ `z` |", "w": "p\rq\ns\tt\u001b[1m\u0007\u007f"}
EOF
cat >"$tmp/md/ddl.sql" <<EOF
CREATE EXTERNAL TABLE m.db.t (id int, v string, w string)
ROW FORMAT SERDE 'org.openx.data.jsonserde.JsonSerDe'
LOCATION '$tmp/md/db/t/';
EOF
run --embedded --hive-root "m=$tmp/md" -f "$tmp/md/ddl.sql"
expect_status "markdown table" 0
run --embedded --hive-root "m=$tmp/md" --format markdown -c 'SELECT id, v, w AS "w|<&>" FROM m.db.t'
expect_stdout_bytes "markdown escapes HTML, backslash, backtick, CR vs LF, controls" '| id | v | w\\|&lt;&amp;> |\n|---:|---|---|\n| 1 | &lt;b>x&lt;/b> &amp; y \\\\ \\`z\\` \\| | p\\rq<br>s\\tt\\x1B[1m\\x07\\x7F |\n'
run --embedded --hive-root "m=$tmp/md" -c 'SELECT w FROM m.db.t'
expect_stdout_bytes "table escapes CR, TAB, ESC, BEL, DEL" '          w\n---------------------\n p\\rq               +\n s\\tt\\x1B[1m\\x07\\x7F\n(1 row)\n'

# item 13: a missing root (or a file) failed only later, as "database does not exist"
run --embedded --hive-root "lake=$tmp/no_such_dir" -c "SHOW DATABASES"
expect_status "--hive-root folder that does not exist" 1
expect_stderr "--hive-root folder that does not exist" "sqe-cli: cannot attach --hive-root lake=$tmp/no_such_dir: folder '$tmp/no_such_dir' does not exist; create it first or correct the path (local roots are checked when attached, S3 roots at first use)"
run --embedded --hive-root "lake=$tmp/nul.sql" -c "SHOW DATABASES"
expect_status "--hive-root that is a file" 1
expect_in err "--hive-root that is a file" "'$tmp/nul.sql' is a file, not a folder"

# item 1: a FIFO named like a manifest or a data file blocked forever
mkdir -p "$tmp/fifo/db" "$tmp/fifo/data"
mkfifo "$tmp/fifo/db/t.manifest.json"
run_t --embedded --hive-root "f=$tmp/fifo" -c "SELECT * FROM f.db.t"
expect_status "FIFO manifest: SELECT" 1
expect_in err "FIFO manifest: SELECT" "cannot read '$tmp/fifo/db/t.manifest.json': it is a FIFO, not a regular file"
run_t --embedded --hive-root "f=$tmp/fifo" -c "DESCRIBE f.db.t"
expect_status "FIFO manifest: DESCRIBE" 1
run_t --embedded --hive-root "f=$tmp/fifo" --format csv -c "SHOW TABLES FROM f.db"
expect_stdout "FIFO manifest: SHOW TABLES lists the taken name" "Table
t"
run_t --embedded --hive-root "f=$tmp/fifo" -c "CREATE EXTERNAL TABLE f.db.t (a int) LOCATION '$tmp/fifo/data/'"
expect_status "FIFO manifest: CREATE refuses" 1
expect_in err "FIFO manifest: CREATE refuses" "cannot create table 'f.db.t': cannot read '$tmp/fifo/db/t.manifest.json': it is a FIFO"
printf '1\n' >"$tmp/fifo/data/a.csv"
mkfifo "$tmp/fifo/data/b.csv"
run_t --embedded --hive-root "f=$tmp/fifo" -c "CREATE EXTERNAL TABLE f.db.u (a int) LOCATION '$tmp/fifo/data/'" -c "SELECT count(*) FROM f.db.u"
expect_status "FIFO data file" 1
expect_in err "FIFO data file" "cannot read '$tmp/fifo/data/b.csv': it is a FIFO, not a regular file"

# item 3: a link to the location's parent made rows appear twice
mkdir -p "$tmp/links/x/tbl" "$tmp/links/x/sib" "$tmp/links/wh"
printf '1\n' >"$tmp/links/x/tbl/a.csv"
printf '100\n' >"$tmp/links/x/sib/b.csv"
ln -s .. "$tmp/links/x/tbl/up"
ln -s . "$tmp/links/x/tbl/self"
run --embedded --hive-root "l=$tmp/links/wh" --format csv -c "CREATE EXTERNAL TABLE l.db.t (a int) LOCATION '$tmp/links/x/tbl/'" -c "SELECT a FROM l.db.t ORDER BY a"
expect_status "symlink to the parent and to itself" 0
expect_stdout "symlink to the parent and to itself" "a
1"
expect_in err "symlink to the parent and to itself" "sqe WARN io: skipping symbolic link '$tmp/links/x/tbl/up': its target is a folder that contains the listed folder"
ln -s ../sib "$tmp/links/x/tbl/sib"
run --embedded --hive-root "l=$tmp/links/wh" --format csv -c "SELECT a FROM l.db.t ORDER BY a"
expect_stdout "symlink to a sibling is followed" "a
1
100"

# item 8: of 8 concurrent same-name CREATEs, 2 to 8 reported success (the
# last write won). Exactly one must succeed; the others say "already exists".
mkdir -p "$tmp/race/wh" "$tmp/race/data"
for round in 1 2 3 4 5; do
    for i in 1 2 3 4 5 6 7 8; do
        timeout 20 "$CLI" --embedded --hive-root "r=$tmp/race/wh" \
            -c "CREATE EXTERNAL TABLE r.db.t$round (a int COMMENT 'writer $i') LOCATION '$tmp/race/data/'" \
            </dev/null >"$tmp/race/out.$i" 2>"$tmp/race/err.$i" &
    done
    wait
    won=0 lost=0
    for i in 1 2 3 4 5 6 7 8; do
        if [[ ! -s $tmp/race/err.$i ]]; then
            won=$((won + 1))
        elif grep -qF "table 'r.db.t$round' already exists" "$tmp/race/err.$i"; then
            lost=$((lost + 1))
        fi
    done
    : >"$tmp/out"; cat "$tmp"/race/err.* >"$tmp/err"
    if [[ $won -eq 1 && $lost -eq 7 ]]; then
        pass "8 concurrent CREATEs, round $round: one succeeds, 7 already exist"
    else
        fail "8 concurrent CREATEs, round $round: one succeeds, 7 already exist" "won $won, lost $lost"
    fi
done
run --embedded --hive-root "r=$tmp/race/wh" --format csv -c "SELECT count(*) AS n FROM r.db.t1"
expect_stdout "concurrent CREATE leaves a loadable manifest" "n
0"
ls -a "$tmp/race/wh/db" >"$tmp/out"
if grep -q sqe-tmp "$tmp/out"; then fail "concurrent CREATE leaves no temp files"; else pass "concurrent CREATE leaves no temp files"; fi

# item 6: CREATE wrote a manifest larger than manifest_max_bytes (1 MiB) that
# no later statement could load. Now CREATE refuses, naming limit and size.
mkdir -p "$tmp/big/wh" "$tmp/big/data"
{
    printf "CREATE EXTERNAL TABLE b.db.t (a int COMMENT '"
    head -c 1100000 /dev/zero | tr '\0' x
    printf "') LOCATION '%s';\n" "$tmp/big/data/"
} >"$tmp/big/create.sql"
STDIN_FILE="$tmp/big/create.sql" run --embedded --hive-root "b=$tmp/big/wh"
expect_status "manifest over manifest_max_bytes at CREATE" 1
expect_in err "manifest over manifest_max_bytes at CREATE" "the manifest of this table would be 1100"
expect_in err "manifest over manifest_max_bytes at CREATE" "more than manifest_max_bytes (1048576 bytes)"
if [[ -e $tmp/big/wh/db/t.manifest.json ]]; then
    fail "manifest over manifest_max_bytes: nothing written"
else
    pass "manifest over manifest_max_bytes: nothing written"
fi

# leftovers of items 11/12: a manifest starting with a UTF-8 BOM failed as
# "invalid JSON"; a hand-written manifest with a 768-character column name
# was loaded although CREATE refuses such a name.
mkdir -p "$tmp/mbom/wh" "$tmp/mbom/data"
printf '5\n' >"$tmp/mbom/data/a.csv"
run --embedded --hive-root "m=$tmp/mbom/wh" -c "CREATE EXTERNAL TABLE m.db.t (a int) LOCATION '$tmp/mbom/data/'"
mf="$tmp/mbom/wh/db/t.manifest.json"
{ printf '\xef\xbb\xbf'; cat "$mf"; } >"$mf.new" && mv "$mf.new" "$mf"
run --embedded --hive-root "m=$tmp/mbom/wh" --format csv -c "SELECT a FROM m.db.t"
expect_status "manifest with a BOM" 0
expect_stdout "manifest with a BOM" "a
5"
long=$(printf 'c%.0s' $(seq 768))
sed "s/\"Name\": \"a\"/\"Name\": \"$long\"/" "$mf" >"$mf.new" && mv "$mf.new" "$mf"
run --embedded --hive-root "m=$tmp/mbom/wh" -c "SELECT * FROM m.db.t"
expect_status "manifest column name over 767 characters" 1
expect_in err "manifest column name over 767 characters" "is longer than the limit of 767 characters"
expect_in err "manifest column name over 767 characters" "StorageDescriptor.Columns[0].Name"

# --time-zone / SQE_TIME_ZONE / TZ set the session's local time zone (what
# SET TIME ZONE LOCAL returns to); a bad flag or SQE_TIME_ZONE is a usage
# error, a TZ sqe cannot read falls back to UTC with a warning.
run --embedded --time-zone Asia/Tokyo --format csv -c "SET TIME ZONE 'UTC'; SET TIME ZONE LOCAL; SELECT current_timezone() AS z"
expect_status "--time-zone" 0
expect_stdout "--time-zone" "z
Asia/Tokyo"
SQE_TIME_ZONE=+01:00 TZ=Europe/Paris run --embedded --format csv -c "SELECT current_timezone() AS z"
expect_stdout "SQE_TIME_ZONE before TZ" "z
+01:00"
TZ=:Europe/Paris run --embedded --format csv -c "SELECT current_timezone() AS z"
expect_stdout "TZ with a colon" "z
Europe/Paris"
run --embedded --time-zone Mars/Base -c "SELECT 1"
expect_status "--time-zone unknown" 2
expect_line1 err "--time-zone unknown" "^sqe-cli: --time-zone Mars/Base: Time zone not supported: Mars/Base$"
TZ=EST5EDT,M3.2.0,M11.1.0 run --embedded --format csv -c "SELECT current_timezone() AS z"
expect_status "TZ not a zone name" 0
expect_stdout "TZ not a zone name" "z
UTC"
expect_in err "TZ not a zone name" "using UTC"

echo "$checks checks, $failures failures"
[[ $failures -eq 0 ]]
