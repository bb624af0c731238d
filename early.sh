#!/usr/bin/env bash
export NCCL_NVLS_ENABLE=0
scripts/gpu-check.sh build
CPU_THREADS=16 scripts/gpu-check.sh cpu
ctest --test-dir build-gpu -j4 --timeout 200 -R "by_key|public_api|runs|unique" > $OUT/ctest-sub.log 2>&1; tail -5 $OUT/ctest-sub.log
SANITIZE_TOOLS=racecheck SANITIZE_BINS=test_by_key SANITIZE_TIMEOUT=170 timeout 200 scripts/gpu-check.sh sanitize
cat $OUT/summary.txt
