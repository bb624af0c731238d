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

# A variant sets tile shapes (name=threads,keys,min_blocks) and/or plain constants (name=value)
# of onesweep_tuning.
declare -A VARIANTS=(
  [k23]="keys_tile=384,23,2"
  [k28]="keys_tile=384,28,2"
  [k512]="keys_tile=512,18,2"
  [p20]="pairs_tile=384,20,2"
  [p26]="pairs_tile=384,26,2"
  [w14]="wide_tile=384,14,2"
  [w26]="wide_tile=384,26,1"
  [sk4k]="temp_values_skew=4352"
  [sk1m]="temp_values_skew=1049344"
  [h8]="histogram_blocks_per_sm=8"
  [hi32]="histogram_items=32"
)
LIST=("$@")
[ ${#LIST[@]} -eq 0 ] && LIST=(k28 p20 w14)

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
    if [[ $k == *_tile ]]; then
      val="onesweep_tile<${val//,/, }>"
      sed -i -E "/struct onesweep_tuning/,/^};/ s/(using $k = )[^;]+;/\1$val;/" "$H"
      want="using $k = $val;"
    else
      sed -i -E "/struct onesweep_tuning/,/^};/ s/(static constexpr (bool|int) $k = )[^;]+;/\1$val;/" "$H"
      want="$k = $val;"
    fi
    sed -n '/struct onesweep_tuning/,/^};/p' "$H" | grep -qF "$want" ||
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
