#!/usr/bin/env bash
# Decoupled look-back scan: compare the tuning switches of the 4-byte scan_tuning.hpp at 2^28
# and 2^20 (u32 and f32, exclusive and inclusive) against CUB, with a correctness check per
# variant.
# Runs from the repo root with a Release build in build-gpu/. Prints one line per variant and
# size; full outputs go to $OUT (or /tmp)/scanperf_*.log. Restores the tuning header.
#
# A variant is a name and the fields of scan_lookback_tuning<4> it changes, as field=value:
#   scripts/tune/scanperf.sh "base" "occ2 min_blocks_per_sm=2" "w64 lookback_per_lane=2"
set -u
BUILD=${BUILD:-build-gpu}
LOGDIR=${OUT:-/tmp}
f=include/parprim/cuda/tuning/scan_tuning.hpp
backup=$(mktemp)
cp "$f" "$backup"
trap 'cp "$backup" "$f"; rm -f "$backup"' EXIT

# About 30 s per variant after the first build (rebuild of the scan's translation units,
# tests, two ladders).
VARIANTS=(
  "base"                   # the current default (tile in registers, 3 blocks/SM)
  "w64 lookback_per_lane=2"  # a look-back window of 64 tiles instead of 128
)
[ $# -gt 0 ] && VARIANTS=("$@")

# One summary line from a ladder run: ms, % of copy and the ratio CUB/ours per table.
summarize() {
  python3 - "$1" <<'PY'
import re, sys
out, title, ours = [], None, None
for line in open(sys.argv[1]):
    m = re.match(r'(exclusive|inclusive)_scan (\w+) n=', line)
    if m:
        title = m.group(1)[:2] + ' ' + m.group(2); ours = None; continue
    cells = [c.strip() for c in line.strip().strip('|').split('|')]
    if title and cells and cells[0] == 'decoupled_lookback':
        ours = cells
    elif title and cells and cells[0] == 'CUB' and ours:
        out.append(f"{title} {ours[1]}ms {ours[3]}% x{float(cells[1]) / float(ours[1]):.2f}")
        title = None
print(' | '.join(out) if out else 'no ladder rows (see log)')
PY
}

for v in "${VARIANTS[@]}"; do
  set -- $v
  name=$1
  shift
  cp "$backup" "$f"
  python3 - "$f" "$@" <<'PY' || { echo "$name: edit failed"; continue; }
import re, sys
p, fields = sys.argv[1], sys.argv[2:]
s = open(p).read()
a = s.index('struct scan_lookback_tuning<4> {'); b = s.index('};', a)
body = s[a:b]
for field in fields:
    key, val = field.split('=', 1)
    body, count = re.subn(r'(static constexpr \w+ ' + key + r' = )[^;]+;',
                          lambda m: m.group(1) + val + ';', body)
    assert count == 1, (key, count)
open(p, 'w').write(s[:a] + body + s[b:])
PY
  t0=$(date +%s)
  if ! cmake --build "$BUILD" --target parprim_cli test_scan test_large > "$LOGDIR/scanperf_build_$name.log" 2>&1; then
    echo "$name: BUILD FAILED ($(grep -m1 -i error "$LOGDIR/scanperf_build_$name.log"))"
    continue
  fi
  t1=$(date +%s)
  ts=$("$BUILD/tests/test_scan" --gtest_filter='*cuda*decoupled*:ScanCuda.*' --gtest_brief=1 2>&1 | tail -2 | tr '\n' ' ')
  tl=$("$BUILD/tests/test_large" --gtest_filter='*Reproducible*' --gtest_brief=1 2>&1 | tail -2 | tr '\n' ' ')
  echo "$name [$v] build $((t1 - t0))s | test_scan: $ts| test_large: $tl"
  for size in 2^28 2^20; do
    log="$LOGDIR/scanperf_${name}_${size/^/p}.log"
    "$BUILD/parprim" bench scan --variants --backend cuda --sizes "$size" --reps 10 > "$log" 2>&1
    echo "  $name n=$size: $(summarize "$log")"
  done
done
echo "scanperf: restored $f ($BUILD still holds the last variant until the next build)"
