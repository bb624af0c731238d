#!/usr/bin/env bash
# Runs each libFuzzer target of fuzz/ for a bounded time (PARPRIM_FUZZ_SECONDS, default 30),
# two at a time, starting from its seed corpus in fuzz/corpus/<name>. The targets are built in
# the sanitizer build (ci-sanitize-build.sh: ASan + UBSan, no recovery), so a crash, a hang
# past 10 s on one input, or any sanitizer report fails this script; the input that caused it
# is left in $build/fuzz-artifacts/ and its log printed. New inputs go to a scratch directory:
# the seeds in the tree are only read.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${PARPRIM_SANITIZE_BUILD:-build-sanitize}"
seconds="${PARPRIM_FUZZ_SECONDS:-30}"
names=(body_file scene sizes frontend)
scripts/ci-sanitize-build.sh "${names[@]/#/fuzz_}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/scripts/ci-sanitizers.supp}"
mkdir -p "$build/fuzz-artifacts"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

fuzz_one() {  # fuzz_one NAME: runs one target, returns its status
  local name="$1"
  mkdir -p "$scratch/$name"
  "$build/fuzz/fuzz_$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
    -artifact_prefix="$build/fuzz-artifacts/${name}-" -print_final_stats=1 \
    "$scratch/$name" "fuzz/corpus/$name" >"$scratch/$name.log" 2>&1
}

status=0
for ((i = 0; i < ${#names[@]}; i += 2)); do
  pids=()
  for name in "${names[@]:i:2}"; do
    fuzz_one "$name" &
    pids+=("$!:$name")
  done
  for entry in "${pids[@]}"; do
    name="${entry#*:}"
    if wait "${entry%%:*}"; then
      echo "ci-fuzz: fuzz_$name: $(grep -E '^stat::number_of_executed_units' "$scratch/$name.log" | awk '{print $2}') inputs in ${seconds} s, no finding"
    else
      echo "ci-fuzz: fuzz_$name FAILED:"
      tail -n 60 "$scratch/$name.log"
      status=1
    fi
  done
done
exit $status
