#!/usr/bin/env bash
# Onesweep radix sort tuning variants (src/cuda/tuning/sort_tuning.hpp) at 2^27 keys.
#   bash scripts/tune/sortperf.sh                 the default list below
#   bash scripts/tune/sortperf.sh lean384 ...     named variants only
# First the 2^30-key multi-segment test and the baseline on the build as it is, then per
# variant: edit the tuning header, rebuild, the CUDA Onesweep tests, `bench sort --quick`
# (uniform u32, u32/u32, u64 and u32 at every entropy). One line per bench row:
#   <variant> <keys/values> <input> <ms> x<CUB ms / ours> <same as CUB>
# The header is restored (and the build rebuilt with it) at the end.
# Environment: SKIP_HUGE=1 skips the 2^30-key test, SKIP_RESTORE=1 the final rebuild,
# SORT_TESTS=<gtest filter> narrows the per-variant tests. A name that is not a variant
# (e.g. `base`) runs only the tests and the bench of the build as it is.
set -u
BUILD=${BUILD:-$PWD/build-gpu}
H=src/cuda/tuning/sort_tuning.hpp
ORIG=/tmp/sortperf_tuning.orig
cp "$H" "$ORIG"
trap 'cp "$ORIG" "$H"' EXIT

declare -A VARIANTS=(
  [lean256]="threads=256"
  [lean384]="threads=384 items=20 items_wide=12 min_blocks=2"
  [lean512]="threads=512 items=15 items_wide=10 min_blocks=2"
  [lean256x20]="threads=256 items=20 items_wide=12 min_blocks=3"
  [asm]="rank_ordered_asm=true"
  [i26]="items=26"
  [sk4k]="temp_values_skew=4352"
  [sk1m]="temp_values_skew=1049344"
  [h8]="histogram_blocks_per_sm=8"
  [hi32]="histogram_items=32"
  [w20m1]="items_wide=20 min_blocks=1"
  [w23m1]="items_wide=23 min_blocks=1"
  [i28]="items=28"
  [i23]="items=23"
  [any23]="rank_match_any=true items=23"
  [w16]="items_wide=16"
  [w20]="items_wide=20"
  [w23]="items_wide=23"
  [any23w20]="rank_match_any=true items=23 items_wide=20"
)
LIST=("$@")
[ ${#LIST[@]} -eq 0 ] && LIST=(lean384 lean256x20 lean384h)

build() { cmake --build "$BUILD" --target parprim_cli test_sort test_sort_segments >/tmp/sortperf_build.log 2>&1; }
tests() {
  local a b
  a=$("$BUILD/tests/test_sort" --gtest_filter="${SORT_TESTS:-*cuda_onesweep*}" --gtest_brief=1 2>&1 | tail -1)
  b=$("$BUILD/tests/test_sort_segments" --gtest_brief=1 2>&1 | tail -1)
  echo "$1 tests: test_sort[cuda_onesweep] $a | test_sort_segments $b"
}
bench() {
  "$BUILD/parprim" bench sort --backend cuda --sizes 2^27 --reps 10 --quick 2>&1 |
    awk -v v="$1" -F'|' '/^\| +u(32|64)/ {
      for (i = 2; i <= NF; ++i) gsub(/^ +| +$/, "", $i);
      input = ($3 ~ /^[0-9,]+$/) ? "uniform" : $3;
      printf "%s %s %s %sms x%s %s\n", v, $2, input, $4, $8, $9 }'
}

echo "== sortperf: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
# The multi-segment test at full size, once, on the default tuning (about 16 GB of host memory).
[ -n "${SKIP_HUGE:-}" ] || echo "base huge: $("$BUILD/tests/test_sort" --gtest_filter='*Huge*' --gtest_brief=1 2>&1 | tail -1)"
tests base
bench base

for v in "${LIST[@]}"; do
  kv=${VARIANTS[$v]:-}
  if [ -z "$kv" ]; then echo "$v: unknown variant"; continue; fi
  cp "$ORIG" "$H"
  ok=1
  for p in $kv; do
    k=${p%%=*} val=${p#*=}
    sed -i -E "/struct onesweep_tuning/,/^};/ s/(static constexpr (bool|int) $k = )[^;]+;/\1$val;/" "$H"
    sed -n '/struct onesweep_tuning/,/^};/p' "$H" | grep -q "static constexpr [a-z]* $k = $val;" ||
      { echo "$v: pattern for $k did not match"; ok=0; }
  done
  [ $ok = 1 ] || continue
  t0=$(date +%s)
  if ! build; then echo "$v: build failed"; grep -m3 -E "error" /tmp/sortperf_build.log; continue; fi
  echo "$v ($kv): built in $(( $(date +%s) - t0 )) s"
  tests "$v"
  bench "$v"
done

cp "$ORIG" "$H"
[ -n "${SKIP_RESTORE:-}" ] || build && echo "restored $H and rebuilt" || echo "restored $H; rebuild FAILED"
