#!/usr/bin/env bash
# Everything a GPU machine should check, in stages (default: all, in this order):
#   build     configure for sm_90 and build everything with all cores
#   test      the whole ctest suite (GPU tests included), log in $OUT/ctest.log
#   sanitize  compute-sanitizer memcheck, racecheck and synccheck on the device tests, with
#             sizes capped (PARPRIM_TEST_MAX_N) so they finish; logs in $OUT/sanitize-*.log
#   bench     `parprim info` and `parprim bench --backend cuda` with JSON, in $OUT/bench.*
#   examples  the example images (N-body frame, ray-traced spheres) in $OUT/
# Usage: scripts/gpu-check.sh [stage...]   (OUT defaults to ./out; BUILD to ./build-gpu)
# Dependencies that cannot be installed on the machine are taken from .deps/ when present
# (scripts/fetch-deps-bundle.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
BUILD=${BUILD:-$PWD/build-gpu}
mkdir -p "$OUT"
stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(build test sanitize bench examples)
status=0
export PATH="$PATH:/usr/local/cuda/bin"

note() { echo "== $(date -u +%H:%M:%S) $*" | tee -a "$OUT/summary.txt"; }

stage_build() {
  note "configure + build ($(nproc) cores)"
  cmake -S . -B "$BUILD" -G Ninja -DPARPRIM_CUDA=ON -DCMAKE_BUILD_TYPE=Release >"$OUT/build.log" 2>&1 &&
    cmake --build "$BUILD" -j "$(nproc)" -- -k 0 >>"$OUT/build.log" 2>&1
  local rc=$?
  tail -n 5 "$OUT/build.log"
  # Keep going past a failed target so the rest can still be tested; the failure is reported.
  [ $rc -eq 0 ] || { grep -E "error|FAILED" "$OUT/build.log" | head -40; note "build FAILED (rc=$rc)"; return 1; }
  note "build ok"
}

stage_test() {
  note "ctest"
  # CTEST_ARGS narrows the run, e.g. CTEST_ARGS="-R 'scan|reduce'".
  eval ctest --test-dir "$BUILD" --output-on-failure --timeout 900 ${CTEST_ARGS:-} >"$OUT/ctest.log" 2>&1
  local rc=$?
  grep -E "tests passed|tests failed|\*\*\*|Failed|Passed" "$OUT/ctest.log" | tail -n 40
  note "ctest rc=$rc"
  return $rc
}

# compute-sanitizer on one test binary: sanitize_one TOOL BINARY [gtest args...]
sanitize_one() {
  local tool=$1 bin=$2; shift 2
  local log="$OUT/sanitize-$tool-$(basename "$bin").log"
  PARPRIM_TEST_MAX_N=${PARPRIM_TEST_MAX_N:-70000} timeout 500 \
    compute-sanitizer --tool "$tool" --error-exitcode 97 "$BUILD/tests/$bin" --gtest_brief=1 "$@" >"$log" 2>&1
  local rc=$?
  note "sanitize $tool $bin $* -> rc=$rc ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1))"
  return $rc
}

stage_sanitize() {
  local rc=0
  for bin in $(cd "$BUILD/tests" && ls test_* 2>/dev/null | grep -v '\.'); do
    case "$bin" in
      test_dot_race) continue ;;  # the planted race: checked separately below
    esac
    for tool in memcheck racecheck synccheck; do
      sanitize_one "$tool" "$bin" --gtest_filter='*cuda*:*Cuda*:*CUDA*:*Gpu*:*GPU*:*Device*' || rc=1
    done
  done
  if [ -x "$BUILD/tests/test_dot_race" ]; then
    # The seed's dot product without its barrier must be flagged by racecheck.
    PARPRIM_TEST_MAX_N=70000 compute-sanitizer --tool racecheck "$BUILD/tests/test_dot_race" \
      >"$OUT/sanitize-racecheck-planted.log" 2>&1
    if grep -q "RACECHECK SUMMARY: 0 hazards" "$OUT/sanitize-racecheck-planted.log"; then
      note "racecheck did NOT flag the planted dot-product race"; rc=1
    else
      note "racecheck flagged the planted dot-product race: $(grep 'RACECHECK SUMMARY' "$OUT/sanitize-racecheck-planted.log" | tail -1)"
    fi
  fi
  return $rc
}

stage_bench() {
  note "info + bench"
  "$BUILD/parprim" info | tee "$OUT/info.txt"
  "$BUILD/parprim" bench --backend cuda ${BENCH_ARGS:-} --json "$OUT/bench.json" 2>&1 | tee "$OUT/bench.txt"
  local rc=${PIPESTATUS[0]}
  note "bench rc=$rc"
  return $rc
}

stage_examples() {
  local rc=0
  if "$BUILD/parprim" --help | grep -q nbody; then
    "$BUILD/parprim" nbody --backend cuda --init plummer --n 100000 --steps 200 --dt 0.002 \
      --frames "$OUT/frames" --frame-every 200 --frame-size 512 >"$OUT/nbody-example.log" 2>&1 || rc=1
    cp "$OUT"/frames/*.png "$OUT/nbody_plummer_100k.png" 2>/dev/null
    rm -rf "$OUT/frames"
    note "nbody example rc=$rc"
  fi
  if "$BUILD/parprim" --help | grep -q raytrace; then
    "$BUILD/parprim" raytrace --backend cuda --width 640 --height 360 --spheres 100 --seed 7 \
      --out "$OUT/raytrace_example.png" >"$OUT/raytrace-example.log" 2>&1 || rc=1
    note "raytrace example rc=$rc"
  fi
  return $rc
}

for s in "${stages[@]}"; do
  "stage_$s" || status=1
done
note "gpu-check done, status=$status"
exit $status
