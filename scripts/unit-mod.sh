#!/usr/bin/env bash
# Builds and runs one unit test against only the modules it names, so a
# module can be developed while others are half-written.
#   scripts/unit-mod.sh test_types base types vector
set -euo pipefail
cd "$(dirname "$0")/.."
test=$1; shift
srcs=()
for m in "$@"; do srcs+=(src/$m/*.c); done
mkdir -p build/unit-mod
${CC:-cc} -std=c11 -D_GNU_SOURCE -O1 -g -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
  -Wno-unused-parameter -Wno-format-truncation -Werror -pthread -fsanitize=address,undefined \
  -Iinclude -Isrc -Itests/unit -o build/unit-mod/$test tests/unit/$test.c "${srcs[@]}" -ljansson -lpcre2-8 -lcrypto -licuuc -licudata -lz -lm
./build/unit-mod/$test
