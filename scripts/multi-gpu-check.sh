#!/usr/bin/env bash
# Device groups on a machine with several GPUs, in one run of a few minutes:
#   build    configure for sm_90 with NCCL and build only what this needs, with all cores
#   info     `parprim info` (GPUs, NCCL, how each pair is linked)
#   test     the distributed tests (NCCL groups of 2-4 GPUs, in-process CPU groups)
#   bench    `parprim bench distributed --gpus N`: reduce/scan 2^32 u32 and radix sort (pairs)
#            2^31 u32 on 1, 2, 4 ... N GPUs against one GPU of the same run
#   nbody    all-pairs N-body 2^20 f32, whole steps, on 1, 2, 4 ... N GPUs (one process)
#   procs    the same N-body run with one process per GPU (2 processes, NCCL id by file),
#            beside the one-process group of the same 2 GPUs
# Writes logs, JSON and a markdown summary under $OUT (default ./out/multi-gpu).
# Usage: scripts/multi-gpu-check.sh [stage...]   GPUS=N (default: all GPUs), BUILD=dir
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out/multi-gpu}
BUILD=${BUILD:-$PWD/build-multi-gpu}
mkdir -p "$OUT"
export PATH="$PATH:/usr/local/cuda/bin"
# NVLink multicast stays off in everything this starts (the library sets it too).
export NCCL_NVLS_ENABLE=0
stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(build info test bench nbody procs)
GPUS=${GPUS:-$(nvidia-smi -L 2>/dev/null | wc -l)}
[ "$GPUS" -ge 1 ] 2>/dev/null || GPUS=1
CLI="$BUILD/parprim"
status=0
md="$OUT/multi-gpu.md"

note() { echo "== $(date -u +%H:%M:%S) $*" | tee -a "$OUT/summary.txt"; }

stage_build() {
  note "configure + build ($(nproc) cores)"
  cmake -S . -B "$BUILD" -G Ninja -DPARPRIM_CUDA=ON -DPARPRIM_NCCL=ON -DCMAKE_BUILD_TYPE=Release \
    >"$OUT/build.log" 2>&1 &&
    cmake --build "$BUILD" -j "$(nproc)" --target parprim_cli test_distributed test_distributed_sort test_distributed_nbody \
      >>"$OUT/build.log" 2>&1
  local rc=$?
  grep -E "parprim: (NCCL|CUDA)" "$OUT/build.log"
  [ $rc -eq 0 ] || { grep -E "error|FAILED" "$OUT/build.log" | head -40; note "build FAILED"; return 1; }
  note "build ok"
}

stage_info() {
  "$CLI" info >"$OUT/info.txt" 2>&1
  grep -E "device [0-9]+:|device groups|<->" "$OUT/info.txt"
}

stage_test() {
  note "distributed tests"
  (cd "$BUILD/tests" &&
    timeout 300 ./test_distributed --gtest_brief=1 >"$OUT/test_distributed.log" 2>&1 &&
    timeout 300 ./test_distributed_sort --gtest_brief=1 >"$OUT/test_distributed_sort.log" 2>&1 &&
    timeout 300 ./test_distributed_nbody --gtest_brief=1 >"$OUT/test_distributed_nbody.log" 2>&1)
  local rc=$?
  tail -n 3 "$OUT"/test_distributed*.log
  grep -c "Skipped" "$OUT"/test_distributed*.log
  note "tests rc=$rc"
  return $rc
}

stage_bench() {
  note "bench distributed --gpus $GPUS"
  timeout 300 "$CLI" bench distributed --gpus "$GPUS" --reps 5 --warmup 1 \
    --json "$OUT/distributed.json" >"$OUT/bench-distributed.txt" 2>&1
  local rc=$?
  cat "$OUT/bench-distributed.txt"
  note "bench rc=$rc"
  return $rc
}

stage_nbody() {
  note "nbody scaling"
  : >"$OUT/nbody-scaling.txt"
  local g=1
  while [ "$g" -le "$GPUS" ]; do
    timeout 120 "$CLI" nbody --n 1048576 --steps 3 --gpus "$g" --init plummer \
      >>"$OUT/nbody-scaling.txt" 2>&1 || status=1
    [ "$g" -lt "$GPUS" ] && [ $((g * 2)) -gt "$GPUS" ] && g=$GPUS || g=$((g * 2))
  done
  grep -E "gpus|ms per step" "$OUT/nbody-scaling.txt"
}

stage_procs() {
  note "nbody: one process per GPU (2 processes) vs one process driving 2 GPUs"
  rm -f "$OUT/nccl.id"
  for r in 0 1; do
    PARPRIM_RANK=$r PARPRIM_RANKS=2 PARPRIM_DEVICE=$r PARPRIM_NCCL_ID="file:$OUT/nccl.id" \
      timeout 120 "$CLI" nbody --n 1048576 --steps 3 --gpus-from-env --init plummer \
      >"$OUT/nbody-proc$r.txt" 2>&1 &
  done
  wait
  timeout 120 "$CLI" nbody --n 1048576 --steps 3 --gpus 2 --init plummer \
    >"$OUT/nbody-group2.txt" 2>&1
  grep -H -E "ms per step|error" "$OUT"/nbody-proc*.txt "$OUT/nbody-group2.txt"
}

for s in "${stages[@]}"; do
  "stage_$s" || status=1
done
{
  echo "# Device groups on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1) x $GPUS"
  echo
  echo '```'
  grep -E "device groups|<->" "$OUT/info.txt" 2>/dev/null
  echo
  sed -n '/distributed primitives/,$p' "$OUT/bench-distributed.txt" 2>/dev/null
  echo
  grep -h -E "gpus|ms per step" "$OUT/nbody-scaling.txt" 2>/dev/null
  echo
  grep -H -E "ms per step" "$OUT"/nbody-proc*.txt "$OUT/nbody-group2.txt" 2>/dev/null
  echo '```'
} >"$md"
note "done, status $status"
exit $status
