#!/usr/bin/env bash
# Per-kernel GPU time of our Onesweep and CUB's at 2^27 u32 keys (ncu, one metric, clocks untouched).
BUILD=${BUILD:-build-gpu}
ncu --clock-control none --metrics gpu__time_duration.sum --csv \
  -k 'regex:onesweep|Onesweep|RadixSort' --launch-skip 0 --launch-count 120 \
  "$BUILD/parprim" bench sort --backend cuda --sizes 2^27 --reps 1 --quick > /tmp/ncu_sort.csv 2>/tmp/ncu_sort.err
echo "ncu rc=$?"; tail -3 /tmp/ncu_sort.err
python3 - <<'PY'
import csv
rows = [r for r in csv.reader(open('/tmp/ncu_sort.csv')) if len(r) > 10]
if not rows: print('no rows'); raise SystemExit
h = rows[0]; ki = h.index('Kernel Name'); vi = h.index('Metric Value'); ui = h.index('Metric Unit')
seq = []
for r in rows[1:]:
    name = r[ki].split('(')[0].split('<')[0][-40:]
    v = float(r[vi].replace(',', '')); unit = r[ui]
    scale = {'ns': 1e-3, 'nsecond': 1e-3, 'us': 1.0, 'usecond': 1.0, 'ms': 1e3, 'msecond': 1e3}
    us = v * scale.get(unit, float('nan'))
    seq.append((name, us, r[ki][:150]))
for name, us, full in seq[:60]:
    print(f'{us:9.1f} us  {full}')
PY
