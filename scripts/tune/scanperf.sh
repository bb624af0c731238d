#!/usr/bin/env bash
# Decoupled look-back scan: compare the tuning switches of scan_tuning.hpp at 2^28 and 2^20
# (u32 and f32, exclusive and inclusive) against CUB, with a correctness check per variant.
# Runs from the repo root with a Release build in build-gpu/. Prints one line per variant and
# size; full outputs go to $OUT (or /tmp)/scanperf_*.log. Restores the tuning header.
#
# Variant fields: name persistent stages min_blocks_per_sm fold_in_shared lookback_per_lane
# [threads items] (the first five go into the 4- and 8-byte structs, so the tests cover both;
# the optional block shape only into the 4-byte one).
set -u
BUILD=${BUILD:-build-gpu}
LOGDIR=${OUT:-/tmp}
f=src/cuda/tuning/scan_tuning.hpp
backup=$(mktemp)
cp "$f" "$backup"
trap 'cp "$backup" "$f"; rm -f "$backup"' EXIT

# About 30 s per variant (rebuild of scan_lookback.cu, tests, two ladders). More to try, as
# arguments: "occ3 false 2 3 false 1" (register cap alone), "pers3f128 true 3 2 true 4"
# (3 stages = 96 KiB of shared memory, 2 blocks/SM).
VARIANTS=(
  "base      false 2 0 false 1"  # the current default (one block per tile, window 32)
  "occ3f128  false 2 3 true  4"  # 3 blocks/SM, fold through shared memory, window 128
  "pers2f64  true  2 3 true  2"  # persistent, 2 stages, 3 blocks/SM, window 64
  "pers2f128 true  2 3 true  4"  # persistent, 2 stages, 3 blocks/SM, window 128
)
[ $# -gt 0 ] && VARIANTS=("$@")  # e.g. scripts/tune/scanperf.sh "mine true 2 3 true 4"

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
  cp "$backup" "$f"
  python3 - "$f" "$2" "$3" "$4" "$5" "$6" "${7:-}" "${8:-}" <<'PY' || { echo "$name: edit failed"; continue; }
import re, sys
p, pers, stages, mb, fold, per_lane, threads, items = sys.argv[1:]
s = open(p).read()
if threads:  # optional: the 4-byte struct's block shape
    a = s.index('struct scan_lookback_tuning<4> {'); b = s.index('};', a)
    body = re.sub(r'(static constexpr int threads = )\d+;', lambda m: m.group(1) + threads + ';', s[a:b])
    body = re.sub(r'(static constexpr int items = )\d+;', lambda m: m.group(1) + items + ';', body)
    s = s[:a] + body + s[b:]
subs = [(r'(static constexpr bool persistent = )\w+;', pers),
        (r'(static constexpr int stages = )\d+;', stages),
        (r'(static constexpr int min_blocks_per_sm = )\d+;', mb),
        (r'(static constexpr bool fold_in_shared = )\w+;', fold),
        (r'(static constexpr int lookback_per_lane = )\d+;', per_lane)]
for pat, val in subs:
    s, count = re.subn(pat, lambda m: m.group(1) + val + ';', s)
    assert count == 2, (pat, count)  # the 4- and 8-byte structs
open(p, 'w').write(s)
PY
  t0=$(date +%s)
  if ! cmake --build "$BUILD" --target parprim_cli test_scan test_large > "$LOGDIR/scanperf_build_$name.log" 2>&1; then
    echo "$name: BUILD FAILED ($(grep -m1 -i error "$LOGDIR/scanperf_build_$name.log"))"
    continue
  fi
  t1=$(date +%s)
  ts=$("$BUILD/tests/test_scan" --gtest_filter='*cuda*decoupled*' --gtest_brief=1 2>&1 | tail -2 | tr '\n' ' ')
  tl=$("$BUILD/tests/test_large" --gtest_filter='*Reproducible*' --gtest_brief=1 2>&1 | tail -2 | tr '\n' ' ')
  echo "$name [$v] build $((t1 - t0))s | test_scan: $ts| test_large: $tl"
  for size in 2^28 2^20; do
    log="$LOGDIR/scanperf_${name}_${size/^/p}.log"
    "$BUILD/parprim" bench scan --variants --backend cuda --sizes "$size" --reps 10 > "$log" 2>&1
    echo "  $name n=$size: $(summarize "$log")"
  done
done
echo "scanperf: restored $f (build-gpu still holds the last variant until the next build)"
