#!/usr/bin/env bash
# copy_if / partition variants (src/cuda/tuning/partition_tuning.hpp): for each variant edit
# the tuning header, rebuild, check the CUDA tests, bench copy_if and partition vs CUB.
# Usage: scripts/tune/selperf.sh [variant ...]   (default: v0 v1 v2 v3 v4; see `set_variant`)
# Output per variant: one header line, the test summary, the copy_if/partition rows
# (columns: n, ms, Gelem/s, GB/s, % of copy, CUB ms, CUB ms / ours).
set -u
BUILD=${BUILD:-$PWD/build-gpu}
H=src/cuda/tuning/partition_tuning.hpp
cp $H /tmp/selperf_tuning.orig
# Leave the header and build-gpu as committed.
trap 'cp /tmp/selperf_tuning.orig $H; cmake --build $BUILD --target parprim_cli test_partition >/dev/null 2>&1' EXIT

# set STRUCT FIELD VALUE: replace `FIELD = ...;` inside `struct STRUCT {...}` of the header.
set_field() {
  python3 - "$1" "$2" "$3" <<'PY'
import re, sys
struct, field, value = sys.argv[1:]
p = 'src/cuda/tuning/partition_tuning.hpp'
src = open(p).read()
head = 'struct %s {' % struct
assert head in src, head
start = src.index(head)
end = src.index('};', start)
body = src[start:end]
new, k = re.subn(r'(\b%s = )[^;]+;' % field, r'\g<1>%s;' % value, body)
assert k == 1, (struct, field)
open(p, 'w').write(src[:start] + new + src[end:])
PY
}

set_variant() {
  cp /tmp/selperf_tuning.orig $H
  case $1 in
    v0) DESC="first kernels: copy_if kernel 0, partition scheme 0 (two look-back passes)"
      set_field select_tuning kernel 0
      set_field partition_tuning scheme 0 ;;
    v1) DESC="as committed: copy_if kernel 1 (16B loads, 32 KiB tiles, 64-tile window); partition scheme 1 (count + place)"
      set_field select_tuning kernel 1
      set_field partition_tuning scheme 1 ;;
    v2) DESC="v1 + 16B stores, 128-tile window; place with 16 KiB tiles, 5 blocks/SM"
      set_field select_tuning kernel 1
      set_field select_lookback_tuning vector_store true
      set_field select_lookback_tuning lookback_per_lane 4
      set_field partition_tuning scheme 1
      set_field partition_tuning items '64 / Bytes'
      set_field partition_tuning blocks_per_sm 5 ;;
    v3) DESC="v1 with copy_if 16 KiB tiles, 6 blocks/SM, 200 ns poll back-off"
      set_field select_tuning kernel 1
      set_field select_lookback_tuning items '64 / Bytes'
      set_field select_lookback_tuning min_blocks 6
      set_field select_lookback_tuning spin_sleep_ns 200
      set_field partition_tuning scheme 1 ;;
    v4) DESC="copy_if kernel 1; partition scheme 0 (two passes of kernel 1)"
      set_field select_tuning kernel 1 ;;
    v5) DESC="as committed + 128-tile window"
      set_field select_lookback_tuning lookback_per_lane 4 ;;
    v6) DESC="as committed + 64 KiB copy_if tiles, 2 blocks/SM"
      set_field select_lookback_tuning items '256 / Bytes'
      set_field select_lookback_tuning min_blocks 2 ;;
    v7) DESC="as committed + 3 blocks/SM"
      set_field select_lookback_tuning min_blocks 3 ;;
    v8) DESC="as committed + 16-byte stores"
      set_field select_lookback_tuning vector_store true ;;
    *) echo "unknown variant $1"; return 1 ;;
  esac
}

[ $# -eq 0 ] && set -- v0 v1 v2 v3 v4
for v in "$@"; do
  set_variant $v || continue
  echo "=== $v: $DESC"
  if ! cmake --build $BUILD --target parprim_cli test_partition >/tmp/selperf_build.log 2>&1; then
    echo "$v: build failed"; grep -m5 -E "error" /tmp/selperf_build.log; continue
  fi
  timeout 120 $BUILD/tests/test_partition --gtest_filter='*cuda*:-*Huge*:*Split*' --gtest_brief=1 2>&1 |
    grep -E "FAILED|PASSED|Failure|error" | head -4
  [ ${PIPESTATUS[0]} -eq 124 ] && echo "$v: test timed out (hang?)"
  timeout 120 $BUILD/parprim bench partition --backend cuda --sizes 2^20,2^24,2^28 --reps 10 2>&1 |
    grep -E "^\| +(copy_if|partition) +\|" | tr -s ' '
done
