#!/usr/bin/env bash
# The CPU test suite under AddressSanitizer + UndefinedBehaviorSanitizer (see
# ci-sanitize-build.sh): any report fails the test it occurs in, and so this script.
# PARPRIM_TEST_MAX_N caps the test sizes (sanitized code runs several times slower); the
# default keeps the run to a few minutes on 2 cores.
#   PARPRIM_SANITIZE_TSAN=1 also builds and runs the suite under ThreadSanitizer with LLVM's
#   OpenMP runtime and its Archer tool (build-tsan); too slow for every CI run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ci-sanitize-build.sh
build="${PARPRIM_SANITIZE_BUILD:-build-sanitize}"
export PARPRIM_TEST_MAX_N="${PARPRIM_TEST_MAX_N:-70000}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/scripts/ci-sanitizers.supp}"
# The consumer projects link the installed library from a separate, uninstrumented build: they
# prove the package in the plain build, and here would only fail to find the sanitizer runtime.
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" -E '^consumer_'

if [ "${PARPRIM_SANITIZE_TSAN:-0}" = 1 ]; then
  archer="$(clang -print-file-name=libarcher.so)"
  [ -f "$archer" ] || archer="$(ls /usr/lib/llvm-*/lib/libarcher.so 2>/dev/null | head -1)"
  [ -f "$archer" ] || { echo "ci-sanitizers: libarcher.so not found (libomp-dev)"; exit 1; }
  launcher=()
  if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
  cmake -S . -B build-tsan -G Ninja -DPARPRIM_CUDA=OFF \
    -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" -DCMAKE_CXX_FLAGS="-fsanitize=thread" "${launcher[@]}" >/dev/null
  cmake --build build-tsan -j "$(nproc)"
  OMP_TOOL_LIBRARIES="$archer" TSAN_OPTIONS="halt_on_error=1:ignore_noninstrumented_modules=1" \
    ctest --test-dir build-tsan --output-on-failure -j "$(nproc)"
fi
