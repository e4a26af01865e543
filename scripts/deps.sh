#!/usr/bin/env bash
# deps.sh - installs the Debian packages sqe's build and tests need.
#
# Idempotent: asks dpkg which packages are missing and runs apt-get only
# when something is (apt-get update, then install --no-install-recommends).
# Uses sudo when not root. Prints one line saying what it did.
# Benchmark peers (npm ci in bench/) are not installed here.
set -euo pipefail

packages=(
    build-essential pkg-config          # gcc, make
    libjansson-dev                      # manifests
    libedit-dev                         # sqe-cli line editing
    libcurl4-openssl-dev libssl-dev     # S3 over HTTPS, SigV4
    zlib1g-dev libzstd-dev libsnappy-dev liblz4-dev libbz2-dev libbrotli-dev  # codecs
    libpcre2-dev                        # RegexSerDe
    postgresql-client                   # psql against sqe-server
)
# Integration tests use node tools (s3rver); install Debian's node only if
# no node is on the PATH.
if ! command -v node >/dev/null 2>&1; then
    packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
    if [[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true) != "install ok installed" ]]; then
        missing+=("$p")
    fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
    echo "deps: all ${#packages[@]} packages already installed"
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
