#!/usr/bin/env bash
# Everything a GPU machine should check, in stages (default: all, in this order):
#   build     configure for sm_90 and build everything with all cores
#   test      the whole ctest suite (GPU tests included), log in $OUT/ctest.log
#   sanitize  compute-sanitizer memcheck, racecheck and synccheck on the device tests, with
#             sizes capped (PARPRIM_TEST_MAX_N) so they finish; summary in $OUT/sanitize-summary.txt, logs in
#             $OUT/sanitize-logs.tgz
#   bench     `parprim info` and `parprim bench --backend cuda` with JSON, in $OUT/bench.*
#   examples  the example images (N-body frame, ray-traced spheres) in $OUT/
#   python    `python3 -m pip install .` into the image's Python (both backends, no network:
#             --no-build-isolation), the pytest suite on NumPy/CuPy/PyTorch arrays, and
#             bench/python against torch/cupy, in $OUT/
#   multi     device groups on every GPU of the machine (scripts/multi-gpu-check.sh)
#   cpu       a CPU-only build (TBB taken from .deps/ when the machine has none: carry it) and
#             `parprim bench cpu` on every host thread against TBB, std::execution::par and
#             the GNU parallel mode, in $OUT/cpu.json; fails when TBB was not found
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
  # CTEST_ARGS narrows the run, e.g. CTEST_ARGS="-R 'scan|reduce'". The tests run 5 at a time
  # (CTEST_JOBS), except test_large and test_gpu_faults, which size their inputs to the free
  # GPU memory and so run alone afterwards (beside them test_sort and test_scan ran out of
  # memory). On the H100: 143 s for the 68, 16 s for the two; one at a time the whole suite
  # took about 600 s.
  local alone='test_large|test_gpu_faults' rc
  if [ -n "${CTEST_ARGS:-}" ]; then
    eval ctest --test-dir "$BUILD" --output-on-failure --timeout 900 ${CTEST_ARGS} >"$OUT/ctest.log" 2>&1
    rc=$?
  else
    ctest --test-dir "$BUILD" --output-on-failure --timeout 900 -j "${CTEST_JOBS:-5}" -E "$alone" \
      >"$OUT/ctest.log" 2>&1
    rc=$?
    ctest --test-dir "$BUILD" --output-on-failure --timeout 900 -R "$alone" >>"$OUT/ctest.log" 2>&1 || rc=1
  fi
  grep -E "tests passed|tests failed|\*\*\*|Failed|Passed" "$OUT/ctest.log" | tail -n 40
  note "ctest rc=$rc"
  return $rc
}

# compute-sanitizer runs: one line per job, "TOOL BINARY FILTER". memcheck covers every test
# binary's GPU cases with sizes up to 70000 elements; racecheck and synccheck (much slower)
# cover every binary with shared-memory or barrier code, with sizes up to 20000 (still several
# tiles of every multi-tile kernel). Tests that loop over backends inside (dot, gemm, raytrace)
# run whole. SANITIZE_TOOLS picks tools (default: all three).
gpu_cases='*cuda*:*Cuda*:*CUDA*:*BothBackends*:-*Huge*:*Large*'
# racecheck is 10-100x slower than memcheck: the largest suites run as one job per test (so
# the jobs run side by side), GPU cases only, every algorithm's production path included.
racecheck_split() {
  case "$1" in
    test_scan) printf '%s\n' '*cuda_decoupled_lookback_plus*' '*cuda_decoupled_lookback_m*' \
        '*cuda_blelloch_conflict_free_plus*' '*cuda_blelloch_plus*' '*cuda_hillis_steele_plus*' \
        'ScanEdges.*' ;;
    test_sort)
      for t in Keys{I,U,F}{32,64}EverySizeAndOrder Pairs{32,64}BitKeysEveryValueType \
        KeysI8U8EverySizeAndOrder KeysI16U16F16EverySizeAndOrder PairsNarrowKeysEveryValueWidth \
        DuplicatesAllEqualSpecialSortedReversed BitRanges FewMillion; do
        echo "All/RadixSort.$t/cuda_onesweep"
      done
      # The 1-bit split's only shared-memory code is the library's scan, checked above.
      echo 'All/RadixSort.KeysU32EverySizeAndOrder/cuda_split_1bit:All/RadixSort.KeysF32EverySizeAndOrder/cuda_split_1bit'
      echo 'RadixSortEdges.FloatOrderOnBothBackends:RadixSortEdges.HalfFloatOrderOnBothBackends' ;;
    test_generic_sort) printf '%s\n' 'MergeSortCuda.EveryCase' 'MergeSortCuda.OrderedInputs:MergeSortCuda.ExtendedLambdaComparator' \
        'SortByKeyCuda.*' ;;
    test_nbody) printf '%s\n' 'NbodyCuda.*' \
        'Backends/NbodyBackend.'{ForcesMatchTheOracle,ForcesOfLargerSystems,StateRoundTripAndChecks}/cuda \
        'Backends/NbodyBackend.'{EnergyDriftAndMomentum,KeplerOrbitClosesAfterOnePeriod}/cuda ;;
    test_partition) printf 'All/Partition.%s/cuda\n' CopyIfAndPartitionEveryTypeAndPredicate \
        SplitEveryTypeAndBucketFunction LargeAndMisalignedInputs AllOrNothingSelected
      echo 'PartitionEdges.*' ;;
    test_gemm) printf 'GemmTest/*.%s\n' OddSizesAllAlgorithms Transposes AlphaBeta MultiTileShapes \
        InteriorTileLoops UnalignedViews Reproducible ;;
    *) return 1 ;;
  esac
}
# Suites whose GPU cases together outlast a job's limit even under memcheck (each of
# test_by_key, test_segmented and test_top_k ran past 200 s as one job): one job per GPU test
# under every tool, so the cases run side by side.
one_job_per_test='test_by_key test_segmented test_top_k'
gpu_tests_of() {
  "$BUILD/tests/$1" --gtest_list_tests --gtest_filter="$gpu_cases" |
    awk '/^[^ ]/ { suite = $1 } /^  / { print suite $1 }'
}
# The pipelined kernels (the scan's and the scans by key) start at 128 tiles, past the caps
# below: these jobs run the tests that reach them with their own cap (a fourth field), about
# 130-160 tiles, so every tool sees the warp-specialized blocks. The pipelined reductions of
# every pair shape (AlignedAndMisaligned...) took racecheck 55 s and synccheck 6 s on the H100;
# SixteenByteValues reaches the pipelined kernels of 16-byte values at its largest size
# (racecheck 29 s).
pipelined_jobs() {
  echo "$1 test_scan ScanCuda.LargeScan* 1100000"
  echo "$1 test_by_key_generic_cuda ByKeyGenericCuda.SixteenByteValues 1408017"
  echo "$1 test_by_key ByKeyPipelined.SegmentedScansByFlagsGiveTheSameBits 500000"
  echo "$1 test_by_key All/ByKey.FloatFoldsAreReproducible/cuda 600011"
  if [ "$1" = memcheck ]; then
    echo "$1 test_by_key ByKeyPipelined.* 600011"
  else
    echo "$1 test_by_key ByKeyPipelined.AlignedAndMisalignedGiveTheSameBits 600011"
  fi
}
sanitize_jobs() {
  local tools=${SANITIZE_TOOLS:-memcheck racecheck synccheck}
  for tool in $tools; do
    pipelined_jobs "$tool"
    # SANITIZE_BINS_<tool> (e.g. SANITIZE_BINS_racecheck) overrides SANITIZE_BINS per tool.
    local per_tool="SANITIZE_BINS_$tool"
    for bin in ${!per_tool:-${SANITIZE_BINS:-$(cd "$BUILD/tests" && ls test_* | grep -v '\.')}}; do
      if [[ " $one_job_per_test " == *" $bin "* ]]; then
        gpu_tests_of "$bin" | while read -r t; do echo "$tool $bin $t"; done
        continue
      fi
      if [ "$tool" = racecheck ] && racecheck_split "$bin" >/dev/null; then
        racecheck_split "$bin" | while read -r f; do echo "$tool $bin $f"; done
        continue
      fi
      case "$bin" in
        test_sort) echo "$tool $bin *cuda_onesweep*:-*Huge*"
          echo "$tool $bin *cuda_split_1bit*:RadixSortEdges.*:-*Huge*" ;;
        test_dot|test_gemm|test_raytrace) echo "$tool $bin *:-*Huge*:*Large*" ;;
        test_dot_race) echo "$tool $bin DotRaceDemo.Parprim*" ;;
        test_public_api_cuda) echo "$tool $bin PublicApiNvcc.*Gpu*" ;;
        # Host-only suites, the >2^31-element suite, and the fault tests (which fill the GPU
        # and fault on purpose) have nothing for a sanitizer.
        test_merge_sort|test_sort_by_key|test_runs_large|test_gpu_faults) ;;
        test_context|test_errors|test_transform_fn|test_user_transform|test_large)
          [ "$tool" = memcheck ] && echo "$tool $bin $gpu_cases" ;;
        *) echo "$tool $bin $gpu_cases" ;;
      esac
    done
  done
}
# SANITIZE_TIMEOUT bounds each job (default 420 s; a job stopped by it reports rc=124) and
# SANITIZE_BUDGET the whole stage (jobs that would start past it are listed as not run), so a
# stage inside a time-limited call still ends with its summary and logs written.
sanitize_one() {
  local tool=$1 bin=$2 filter=$3 max=70000
  [ "$tool" = memcheck ] || max=20000
  # SANITIZE_MAX_N_<tool> (e.g. SANITIZE_MAX_N_racecheck=5000) lowers the cap for one tool;
  # a job's own cap (pipelined_jobs) comes first.
  local per_tool_max="SANITIZE_MAX_N_$tool"
  max=${4:-${!per_tool_max:-$max}}
  local limit=${SANITIZE_TIMEOUT:-420} left=$((SANITIZE_DEADLINE - $(date +%s)))
  [ $left -lt $limit ] && limit=$left
  if [ $limit -lt 15 ]; then
    echo "$tool $bin [$filter] not run: stage time budget used up" >>"$OUT/sanitize-summary.txt"
    return
  fi
  local log="$SANITIZE_LOGS/$tool-$bin-$(echo "$filter $4" | md5sum | cut -c1-6).log"
  PARPRIM_TEST_MAX_N=$max timeout "$limit" compute-sanitizer --tool "$tool" \
    --error-exitcode 97 "$BUILD/tests/$bin" --gtest_brief=1 --gtest_filter="$filter" >"$log" 2>&1
  local rc=$?
  # Appended as each job ends, so a stopped run still leaves what finished.
  echo "$tool $bin [$filter] rc=$rc; $(grep -E '^\[  PASSED|^\[  FAILED' "$log" | head -1); $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)" \
    >>"$OUT/sanitize-summary.txt"
}
export -f sanitize_one
export BUILD OUT

stage_sanitize() {
  export SANITIZE_LOGS=${SANITIZE_LOGS:-/tmp/parprim-sanitize}
  export SANITIZE_DEADLINE=$(( $(date +%s) + ${SANITIZE_BUDGET:-100000} ))
  rm -rf "$SANITIZE_LOGS" && mkdir -p "$SANITIZE_LOGS"
  : >"$OUT/sanitize-summary.txt"
  # Independent processes share the GPU; SANITIZE_PARALLEL (default 8) at a time.
  # SANITIZE_JOBS names a file of "TOOL BINARY FILTER" lines to run instead of the full list
  # (e.g. the jobs a summary reported as stopped or not run).
  if [ -n "${SANITIZE_JOBS:-}" ]; then cat "$SANITIZE_JOBS"; else sanitize_jobs; fi | xargs -P "${SANITIZE_PARALLEL:-8}" -L 1 bash -c 'sanitize_one "$0" "$1" "$2" "$3"'
  sort -o "$OUT/sanitize-summary.txt" "$OUT/sanitize-summary.txt"
  cat "$OUT/sanitize-summary.txt"
  local rc=0
  grep -q -v -E 'rc=0;' "$OUT/sanitize-summary.txt" && rc=1
  if [ -x "$BUILD/tests/test_dot_race" ] && echo "${SANITIZE_TOOLS:-racecheck}" | grep -q racecheck; then
    # The seed's dot product without its barrier must be flagged by racecheck.
    compute-sanitizer --tool racecheck --racecheck-report hazard \
      "$BUILD/tests/test_dot_race" --gtest_filter='DotRaceDemo.SeedKernel*' \
      >"$SANITIZE_LOGS/racecheck-planted.log" 2>&1
    local planted
    planted=$(grep 'RACECHECK SUMMARY' "$SANITIZE_LOGS/racecheck-planted.log" | tail -1)
    if echo "$planted" | grep -q " 0 hazards"; then
      note "racecheck did NOT flag the planted dot-product race: $planted"; rc=1
    else
      note "racecheck flagged the planted dot-product race: $planted"
    fi
  fi
  # Logs travel as one archive.
  tar -C "$SANITIZE_LOGS" -czf "$OUT/sanitize-logs.tgz" .
  note "sanitize rc=$rc"
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
    cp "$(ls "$OUT"/frames/*.png | tail -n 1)" "$OUT/nbody_plummer_100k.png"
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

stage_python() {
  note "python: pip install + pytest + bench"
  # The image's own python3, which has nanobind, scikit-build-core, numpy, torch and cupy
  # (no network, so no build isolation and no dependency resolution). PARPRIM_CUDA=ON makes a
  # build without the CUDA toolkit fail here instead of installing the CPU backend alone.
  PARPRIM_CUDA=ON CUDACXX=/usr/local/cuda/bin/nvcc PIP_BREAK_SYSTEM_PACKAGES=1 \
    CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) python3 -m pip install --no-build-isolation --no-deps . \
    >"$OUT/pip.log" 2>&1
  local rc=$?
  [ $rc -eq 0 ] || { tail -n 20 "$OUT/pip.log"; note "python install FAILED"; return 1; }
  (cd /tmp && python3 -c "import parprim; print(parprim.build_info())") | tee "$OUT/python-build-info.txt"
  grep -q "'cuda_built': True" "$OUT/python-build-info.txt" || { note "python: no CUDA backend"; rc=1; }
  python3 -m pytest tests/python -q -rs -p no:cacheprovider --durations=15 \
    --junitxml="$OUT/pytest.xml" >"$OUT/pytest.log" 2>&1 || rc=1
  tail -n 5 "$OUT/pytest.log"
  python3 bench/python/bench_python.py --out "$OUT/python-bench" >"$OUT/python-bench.log" 2>&1 ||
    { tail -n 20 "$OUT/python-bench.log"; rc=1; }
  note "python rc=$rc"
  return $rc
}

stage_cpu() {
  local threads=${CPU_THREADS:-$(nproc)} cpu_build="$BUILD-cpu"
  note "cpu: CPU-only build + bench cpu on $threads threads"
  cmake -S . -B "$cpu_build" -G Ninja -DPARPRIM_CUDA=OFF -DCMAKE_BUILD_TYPE=Release \
    -DPARPRIM_BUILD_TESTS=OFF >"$OUT/cpu-build.log" 2>&1 &&
    cmake --build "$cpu_build" -j "$(nproc)" --target parprim >>"$OUT/cpu-build.log" 2>&1 ||
    { tail -n 20 "$OUT/cpu-build.log"; note "cpu build FAILED"; return 1; }
  # The table is only the evidence it should be with its yardsticks in the same run.
  grep -q "PARPRIM_HAVE_TBB" "$cpu_build/build.ninja" || { note "cpu: TBB not found (carry .deps)"; return 1; }
  OMP_NUM_THREADS=$threads "$cpu_build/parprim" bench cpu --backend cpu \
    --sizes ${CPU_SIZES:-2^27} --json "$OUT/cpu.json" 2>&1 | tee "$OUT/cpu.txt"
  local rc=${PIPESTATUS[0]}
  note "cpu bench rc=$rc"
  return $rc
}

stage_multi() {
  OUT="$OUT/multi-gpu" BUILD="$BUILD-multi" scripts/multi-gpu-check.sh
}

for s in "${stages[@]}"; do
  "stage_$s" || status=1
done
note "gpu-check done, status=$status"
exit $status
