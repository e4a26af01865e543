#!/usr/bin/env bash
# deps.sh - installs the Debian packages sqe's build and tests need.
#
# Idempotent: asks dpkg which packages are missing and runs apt-get only
# when something is (apt-get update, then install --no-install-recommends).
# Uses sudo when not root. Prints one line saying what it did.
# Benchmark peers (npm ci in bench/) are not installed here. The differential
# test tier's npm packages (DuckDB) are: npm ci in tests/differential from its
# committed package-lock.json, only when they are missing.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
npm_deps() {
    local dir="$repo/tests/differential"
    if [[ -d "$dir/node_modules/@duckdb/node-api" ]]; then
        echo "deps: tests/differential npm packages already installed"
    else
        if ! (cd "$dir" && npm ci --silent --no-audit --no-fund) >&2; then
            echo "deps: npm ci failed in tests/differential" >&2
            exit 1
        fi
        echo "deps: installed tests/differential npm packages (npm ci)"
    fi
    # S3 integration tier: @20minutes/s3rver (a SigV4-verifying S3 server)
    local s3dir="$repo/tests/integration/s3"
    if [[ -d "$s3dir/node_modules/@20minutes/s3rver" ]]; then
        echo "deps: tests/integration/s3 npm packages already installed"
        return 0
    fi
    if ! (cd "$s3dir" && npm ci --silent --no-audit --no-fund) >&2; then
        echo "deps: npm ci failed in tests/integration/s3" >&2
        exit 1
    fi
    echo "deps: installed tests/integration/s3 npm packages (npm ci)"
}

packages=(
    build-essential pkg-config          # gcc, make
    libjansson-dev                      # manifests
    libedit-dev                         # sqe-cli line editing
    libcurl4-openssl-dev libssl-dev     # S3 over HTTPS, SigV4; md5/sha* functions (libcrypto)
    zlib1g-dev libzstd-dev libsnappy-dev liblz4-dev libbz2-dev libbrotli-dev  # codecs
    libpcre2-dev                        # RegexSerDe, regexp_* functions
    libicu-dev                          # normalize() (Unicode normalization forms)
    tzdata                              # time zones: src/types/tz.c reads /usr/share/zoneinfo (TZif)
    postgresql-client                   # psql against sqe-server
)
# Integration tests use node tools (s3rver) and the differential tier runs
# DuckDB from npm; install Debian's node/npm only if they are not on the PATH.
if ! command -v node >/dev/null 2>&1; then
    packages+=(nodejs)
fi
if ! command -v npm >/dev/null 2>&1; then
    packages+=(npm)
fi

missing=()
for p in "${packages[@]}"; do
    if [[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true) != "install ok installed" ]]; then
        missing+=("$p")
    fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
    echo "deps: all ${#packages[@]} packages already installed"
    npm_deps
    exit 0
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo=(sudo)
    else
        echo "deps: missing ${missing[*]}; run this script as root (no sudo found)" >&2
        exit 1
    fi
fi

export DEBIAN_FRONTEND=noninteractive
log=$(mktemp "${TMPDIR:-/tmp}/sqe-deps.XXXXXX")
trap 'rm -f "$log"' EXIT
if ! { "${sudo[@]}" apt-get update &&
       "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "deps: apt-get failed installing ${missing[*]}" >&2
    exit 1
fi
echo "deps: installed ${missing[*]}"
npm_deps
