#!/usr/bin/env bash
# fuzz.sh - builds the libFuzzer targets (make fuzz) and runs each for a while.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# SECONDS per target (default 60); TARGETs among sql text_reader manifest ddl partitions
# parquet_meta parquet_page json whole
# (default all). Two targets run at a time (FUZZ_JOBS to change). Each target
# starts from its checked-in seeds (tests/fuzz/corpus/<target>/, read only)
# plus a working corpus in build-fuzz/corpus/<target>/ that grows across
# runs; crashes, leaks and timeouts land in build-fuzz/artifacts/<target>/
# and the log in build-fuzz/logs/<target>.log. Exit 1 if any target found
# something. Needs clang with libFuzzer (Debian: clang, libclang-rt-14-dev).
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${1:-60}
shift || true
targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=(sql text_reader manifest ddl partitions parquet_meta parquet_page json whole)
jobs=${FUZZ_JOBS:-2}
out=build-fuzz

make -s -j"$jobs" fuzz

run_one() {
    local t=$1
    mkdir -p "$out/corpus/$t" "$out/artifacts/$t" "$out/logs"
    local dict=()
    [[ -f tests/fuzz/$t.dict ]] && dict=(-dict="tests/fuzz/$t.dict")
    if "$out/fuzz/fuzz_$t" "$out/corpus/$t" "tests/fuzz/corpus/$t" "${dict[@]}" \
        -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
        -print_final_stats=1 -artifact_prefix="$out/artifacts/$t/" >"$out/logs/$t.log" 2>&1; then
        echo "fuzz $t: ok ($(grep -c . "$out/logs/$t.log") log lines, corpus $(ls "$out/corpus/$t" | wc -l))"
    else
        echo "fuzz $t: FOUND SOMETHING, see $out/logs/$t.log and $out/artifacts/$t/"
        return 1
    fi
}

status=0
pids=()
for t in "${targets[@]}"; do
    run_one "$t" &
    pids+=($!)
    if [[ ${#pids[@]} -ge $jobs ]]; then
        wait "${pids[0]}" || status=1
        pids=("${pids[@]:1}")
    fi
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
exit $status
