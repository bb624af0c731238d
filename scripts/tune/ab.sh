#!/usr/bin/env bash
# One variant of an A/B of tuning constants on a GPU machine: edit a tuning header with a sed
# expression, rebuild the parprim CLI in an existing build (scripts/gpu-check.sh build first),
# run `parprim bench` with the given arguments into $OUT/ab-TAG.json, and put the header back,
# whatever happened. Run it once per variant, the unedited build included, in one call, so
# every variant is timed on the same machine against its same-run yardstick.
#   scripts/tune/ab.sh HEADER SED_EXPR TAG BENCH_ARGS...
# e.g. scripts/tune/ab.sh include/parprim/cuda/tuning/by_key_tuning.hpp \
#        's/Bytes <= 4 ? 29 :/Bytes <= 4 ? 25 :/' items25 by_key --sizes 2^28 --reps 20
# (an empty SED_EXPR times the build as it is).
set -uo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 4 ] || { echo "usage: $0 HEADER SED_EXPR TAG BENCH_ARGS..." >&2; exit 2; }
header=$1 expr=$2 tag=$3
shift 3
OUT=${OUT:-$PWD/out}
BUILD=${BUILD:-$PWD/build-gpu}
mkdir -p "$OUT"
saved=$(mktemp)
cp "$header" "$saved"
trap 'cp "$saved" "$header"; rm -f "$saved"' EXIT
if [ -n "$expr" ]; then
  sed -i "$expr" "$header"
  if cmp -s "$header" "$saved"; then echo "ab $tag: the expression changed nothing" >&2; exit 2; fi
  diff "$saved" "$header"
fi
start=$(date +%s)
cmake --build "$BUILD" -j "$(nproc)" --target parprim_cli >"$OUT/ab-$tag-build.log" 2>&1 ||
  { tail -n 30 "$OUT/ab-$tag-build.log"; echo "ab $tag: build FAILED" >&2; exit 1; }
echo "ab $tag: rebuilt in $(( $(date +%s) - start )) s"
"$BUILD/parprim" bench --backend cuda "$@" --json "$OUT/ab-$tag.json"
