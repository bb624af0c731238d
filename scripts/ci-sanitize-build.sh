#!/usr/bin/env bash
# Configures and builds the sanitizer build of parprim: CPU only (-DPARPRIM_CUDA=OFF), clang
# with LLVM's OpenMP runtime, AddressSanitizer + UndefinedBehaviorSanitizer with
# -fno-sanitize-recover=all (the first report ends the process with an error), and
# -fsanitize=fuzzer-no-link so the libFuzzer targets of fuzz/ link against the same objects.
# Usage: scripts/ci-sanitize-build.sh [TARGET...]   (no target: everything, tests included)
# The build directory is $PARPRIM_SANITIZE_BUILD (default build-sanitize); ccache is used
# when installed. Shared by scripts/ci-sanitizers.sh and scripts/ci-fuzz.sh.
# Debug information is line tables only (-gline-tables-only): the reports still name file and
# line in every frame, and it compiles faster than -g (tests/test_sort.cpp: 73 s against 92 s
# of CPU time, 2026-11-23), the full debug information being needed only under a debugger.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${PARPRIM_SANITIZE_BUILD:-build-sanitize}"
flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -fsanitize=fuzzer-no-link"
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S . -B "$build" -G Ninja -DPARPRIM_CUDA=OFF -DPARPRIM_FUZZ=ON \
  -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DCMAKE_CXX_FLAGS="$flags" "${launcher[@]}" >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$build" -j "$(nproc)" "${targets[@]}"
