#!/usr/bin/env bash
# The CPU backend then and now on this machine's 2 threads: builds the CPU-only library from two
# source trees, links scripts/tune/cpu_then_now.cpp against each and runs the two alternately,
# ROUNDS times each, printing the load average before every run.
#   git worktree add --detach /tmp/parprim-before 905c761^1
#   scripts/tune/cpu_then_now.sh /tmp/parprim-before . [ROUNDS=3] [LOG2N=24]
# Builds go to $BUILDS-build-{before,after}, the drivers to $BUILDS-bin-{before,after}
# (BUILDS=/tmp/cpu_then_now).
set -eu
src_before=$(realpath "$1"); src_after=$(realpath "$2")
rounds=${3:-3}; log2n=${4:-24}; builds=${BUILDS:-/tmp/cpu_then_now}
driver=$(realpath "$(dirname "$0")/cpu_then_now.cpp")
for name in before after; do
  src=$src_before; [ $name = after ] && src=$src_after
  bld=$builds-build-$name
  cmake -S "$src" -B "$bld" -G Ninja -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DPARPRIM_CUDA=OFF \
    -DCMAKE_BUILD_TYPE=Release -DPARPRIM_BUILD_APPS=OFF -DPARPRIM_BUILD_TESTS=OFF >/dev/null
  cmake --build "$bld" -j2 --target parprim >/dev/null
  g++ -O2 -std=c++17 -fopenmp -march=native -I"$src/include" -I"$bld/include" "$driver" \
    "$bld/src/libparprim.a" -o "$builds-bin-$name"
done
for r in $(seq "$rounds"); do
  for name in before after; do
    echo "# round $r $name, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    OMP_WAIT_POLICY=passive OMP_NUM_THREADS=2 "$builds-bin-$name" "$name" "$log2n"
  done
done
