#!/usr/bin/env bash
# Multi-pass scatter (gather_scatter suite, 2^26 u32 by a random permutation): k sweeps vs the
# binned scheme, and the cost model's B_rand calibration (0: random fill of regions, 1: backed
# out of the timed scatter itself). Switches: src/cuda/tuning/multi_pass_scatter_tuning.hpp.
# Per variant: one line "k:ms/predicted" for k = 1..16, the model's pick, the best fixed k.
set -uf  # -f: the gtest filters below are not file globs
B=${BUILD:-build-gpu}
H=src/cuda/tuning/multi_pass_scatter_tuning.hpp
cp "$H" /tmp/msc_tuning.orig
trap 'cp /tmp/msc_tuning.orig "$H"' EXIT

summarize() {
  awk -F'|' '
    /^\| *single pass/ { s = $4; gsub(/ /, "", s) }
    /^\| *multi-pass \|/ { k = $3; ms = $4; p = $5; gsub(/ /, "", k); gsub(/ /, "", ms); gsub(/ /, "", p)
                           line = line sprintf(" %s:%s/%s", k, ms, p) }
    /^\| *multi-pass, model/ { k = $3; ms = $4; p = $5; r = $6; v = $8
                  gsub(/ /, "", k); gsub(/ /, "", ms); gsub(/ /, "", p); gsub(/ /, "", r); gsub(/ /, "", v)
                  m = sprintf("model k=%s %s ms (pred %s, B_rand %s GB/s) %sx single", k, ms, p, r, v) }
    /best fixed k/ { sub(/^ +/, ""); b = $0 }
    END { printf "  single %s ms | k:ms/pred%s\n  %s\n  %s\n", s, line, m, b }'
}

# Variants: binned, calibration, test filter (- for none; the k-sweep kernels are unchanged).
for v in "true 1 *cuda*" "false 1 *CostModel*cuda*" "true 0 -"; do
  set -- $v
  cp /tmp/msc_tuning.orig "$H"
  sed -i -E "s/(static constexpr bool binned = )(true|false);/\1$1;/; s/(static constexpr int calibration = )[0-9]+;/\1$2;/" "$H"
  grep -q "bool binned = $1;" "$H" && grep -q "int calibration = $2;" "$H" || { echo "msc binned=$1 calibration=$2: sed failed"; continue; }
  echo "=== msc binned=$1 calibration=$2"
  if ! cmake --build "$B" --target parprim_cli test_gather_scatter > /tmp/msc_variant_build.log 2>&1; then
    echo "  build failed:"; grep -m5 -E "error" /tmp/msc_variant_build.log; continue
  fi
  if [ "$3" != "-" ]; then
    echo -n "  test $3: "; "$B"/tests/test_gather_scatter --gtest_filter="$3" --gtest_brief=1 2>&1 | tail -2 | tr '\n' ' '; echo
  fi
  "$B"/parprim bench gather_scatter --backend cuda --sizes 2^26 --reps 10 2>&1 | summarize
  # Calibration 1 measures at the 2^26 u32 size itself; 2^24 shows how the model carries over.
  if [ "$2" = 1 ]; then
    echo "  -- n=2^24:"; "$B"/parprim bench gather_scatter --backend cuda --sizes 2^24 --reps 10 2>&1 | summarize
  fi
done
