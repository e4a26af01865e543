#!/usr/bin/env bash
# run.sh - the S3 integration tier: starts real S3-compatible servers on free
# 127.0.0.1 ports and runs the S3 store's tests against them.
#
#   tests/integration/s3/run.sh BUILD_DIR      (make s3test)
#
#   moto_server     test_io (conformance) + test_s3 mode moto: everything
#   s3rver          test_s3 mode s3rver: SigV4 verified, key encoding, a wrong
#                   secret -> STORAGE_CREDENTIALS_UNAVAILABLE
#   fake_s3.mjs     test_s3 mode fault: 503/429/reset/500/timeouts retried or
#                   classified
#   fake_s3.mjs     test_s3 mode kill: the server is killed mid-test
# With SQE_LOG=debug on the moto run, the log must not contain the secret.
# Servers are always killed (trap). Without moto_server the tier is skipped
# with a message, unless SQE_REQUIRE_S3=1.
set -euo pipefail

build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/sqe-s3test.XXXXXX")
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

moto=$(command -v moto_server 2>/dev/null || ls "$HOME"/.pyenv/versions/*/bin/moto_server 2>/dev/null |
    head -1 || true)
if [[ -z "$moto" ]]; then
    if [[ "${SQE_REQUIRE_S3:-0}" == 1 ]]; then
        echo "s3test: moto_server not found (SQE_REQUIRE_S3=1)" >&2
        exit 1
    fi
    echo "s3test: SKIPPED: moto_server not found (neither on PATH nor under ~/.pyenv)"
    exit 0
fi
if [[ ! -d "$here/node_modules/@20minutes/s3rver" ]]; then
    echo "s3test: run scripts/deps.sh first (npm ci in tests/integration/s3)" >&2
    exit 2
fi

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null ||
        node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

# wait_http PORT PATH: until the server answers (any HTTP status), max 15 s.
wait_http() {
    for _ in $(seq 1 150); do
        if curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$1$2"; then return 0; fi
        sleep 0.1
    done
    echo "s3test: server on port $1 did not start" >&2
    return 1
}

start_moto() { # sets moto_port, moto_pid
    moto_port=$(free_port)
    "$moto" -H 127.0.0.1 -p "$moto_port" >"$work/moto-$moto_port.log" 2>&1 &
    moto_pid=$!
    pids+=("$moto_pid")
    wait_http "$moto_port" /moto-api/
    curl -sf -X PUT --aws-sigv4 "aws:amz:us-east-1:s3" --user test:test \
        "http://127.0.0.1:$moto_port/test-bucket" -o /dev/null
}

t0=$(date +%s)
fail=0
run() { # name, then the command
    local name=$1
    shift
    echo "== s3test: $name"
    if ! "$@"; then
        echo "s3test: FAILED: $name" >&2
        fail=1
    fi
}

# moto: the whole path. The secret must never reach the debug log.
start_moto
secret="sqe-secret-$RANDOM-MUST-NOT-LEAK"
export SQE_TEST_S3_BUCKET=test-bucket SQE_TEST_S3_KEY=test SQE_TEST_S3_SECRET="$secret"
run "conformance on moto" env SQE_TEST_S3_ENDPOINT="http://127.0.0.1:$moto_port" \
    "$build/tests/test_io"
run "moto" env SQE_TEST_S3_ENDPOINT="http://127.0.0.1:$moto_port" SQE_TEST_S3_MODE=moto \
    SQE_LOG=debug "$build/tests/test_s3" 2>"$work/moto-debug.log" || true
tail -3 "$work/moto-debug.log"
if grep -q "checks, 0 failures" "$work/moto-debug.log"; then :; else
    grep -v "DEBUG" "$work/moto-debug.log" | tail -40 >&2
    fail=1
fi
if grep -q -e "$secret" -e "Authorization" -e "Signature=" "$work/moto-debug.log"; then
    echo "s3test: FAILED: the secret or a signature appears in the debug log" >&2
    fail=1
fi
grep -c "DEBUG s3:" "$work/moto-debug.log" | sed 's/^/s3test: debug log lines checked: /'

# s3rver: SigV4 really verified
s3rver_port=$(free_port)
mkdir -p "$work/s3rver"
(cd "$here" && NODE_OPTIONS=--openssl-legacy-provider exec node s3rver.mjs "$s3rver_port" \
    "$work/s3rver" >"$work/s3rver.log" 2>&1) &
pids+=($!)
wait_http "$s3rver_port" /
run "s3rver" env SQE_TEST_S3_ENDPOINT="http://127.0.0.1:$s3rver_port" SQE_TEST_S3_MODE=s3rver \
    SQE_TEST_S3_KEY=S3RVER SQE_TEST_S3_SECRET=S3RVER "$build/tests/test_s3"

# fault injection
fake_port=$(free_port)
node "$here/fake_s3.mjs" "$fake_port" >"$work/fake.log" 2>&1 &
fake_pid=$!
pids+=("$fake_pid")
wait_http "$fake_port" /__ready
# the readiness probe above counted as a request for its own key only
run "faults" env SQE_TEST_S3_ENDPOINT="http://127.0.0.1:$fake_port" SQE_TEST_S3_MODE=fault \
    "$build/tests/test_s3"

# a server killed mid-test (the fake: it starts in a fraction of moto's time)
run "server killed" env SQE_TEST_S3_ENDPOINT="http://127.0.0.1:$fake_port" SQE_TEST_S3_MODE=kill \
    SQE_TEST_S3_BUCKET=fake SQE_TEST_S3_KILL_PID="$fake_pid" "$build/tests/test_s3"

echo "s3test: done in $(($(date +%s) - t0)) s"
exit $fail
