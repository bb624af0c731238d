#!/usr/bin/env bash
# N-body force kernel (force_tuning in apps/nbody/cuda/kernels.hpp) and f32 GEMM production
# tile (src/cuda/tuning/gemm.hpp) variants. Each round sets one N-body and one GEMM variant,
# rebuilds once (both .cu files compile in parallel), then runs the ladder rows, the bench
# rows and the CUDA tests of both. Round 0 is the current defaults (no header change).
# (test_gemm's cases are typed, not named after the backend: GemmTest/0.* runs the float
# cases on CPU and CUDA.)
#   usage: scripts/tune/fp.sh [round ...]      (default: 0 1 2, about 40 s each on 16 cores; round 3
#                                      is an extra: scripts/tune/fp.sh 3)
set -u
BUILD=${BUILD:-build-gpu}
NB=apps/nbody/cuda/kernels.hpp
GM=src/cuda/tuning/gemm.hpp
save=$(mktemp -d)
cp -p "$NB" "$save/kernels.hpp"
cp -p "$GM" "$save/gemm.hpp"
# Files are written only when their text changes, so that unchanged ones keep their times
# and do not trigger rebuilds.
restore() {
  cmp -s "$save/kernels.hpp" "$NB" || cp "$save/kernels.hpp" "$NB"
  cmp -s "$save/gemm.hpp" "$GM" || cp "$save/gemm.hpp" "$GM"
}
trap restore EXIT

# Rounds: "nbody settings | gemm settings" (key=value; empty = default).
#  N-body keys: block bodies_per_thread_f32 unroll min_blocks_per_sm prefetch_tile
#               balanced_slices max_slices
#  GEMM keys:   tile=BM,BN,BK,TM,TN,lanes_m,double_buffer,min_blocks  lean=0|1|2  group=N
ROUND[0]="|"
ROUND[1]="balanced_slices=true min_blocks_per_sm=1 | lean=2"
ROUND[2]="balanced_slices=true | lean=1"
ROUND[3]="balanced_slices=true min_blocks_per_sm=1 prefetch_tile=true | lean=2 tile=128,128,8,8,16,8,true,2"

set_variant() {  # $1: nbody settings, $2: gemm settings, applied to the saved originals
  python3 - "$save" "$NB" "$GM" "$1" "$2" <<'PY' || return 1
import re, sys
save, nb, gm, nbs, gms = sys.argv[1:]
def put(path, text):
    if open(path).read() != text: open(path, 'w').write(text)
s = open(save + '/kernels.hpp').read()
for kv in nbs.split():
    k, v = kv.split('=')
    s, n = re.subn(r'(static constexpr (?:int|bool) ' + k + r' = )[^;]+;', lambda m: m.group(1) + v + ';', s)
    if n != 1: sys.exit('no force_tuning::' + k)
put(nb, s)
s = open(save + '/gemm.hpp').read()
for kv in gms.split():
    k, v = kv.split('=')
    if k == 'lean':
        s, n = re.subn(r'gemm_production_lean = \d+;', 'gemm_production_lean = ' + v + ';', s)
    elif k == 'group':
        s, n = re.subn(r'gemm_group_rows = \d+;', 'gemm_group_rows = ' + v + ';', s)
    elif k == 'tile':
        v = ', '.join(v.split(','))
        s, n = re.subn(r'(struct gemm_tiles<float> \{.*?using production = gemm_tile<)[^>]*?(, gemm_production_lean>;)',
                       lambda m: m.group(1) + v + m.group(2), s, flags=re.S)
    else:
        sys.exit('unknown gemm key ' + k)
    if n != 1: sys.exit('no match for gemm ' + k)
put(gm, s)
PY
}

nbody_rows() {
  "$BUILD/parprim" nbody --ladder --n 262144 --backend cuda --ladder-cpu 0 \
      --ladder-steps j_slices,equal_mass,gems3_tiled 2>&1 |
    awk -F' *[|] *' '/^[|] (j_slices|equal_mass|gems3_tiled) /{printf "  nbody %-11s %-30s %s ms  %s int/s  err %s\n",$2,$3,$5,$6,$10}
                     /^whole step/{print "  nbody " $0}
                     /rror/{print "  nbody " $0}'
}

gemm_rows() {
  "$BUILD/parprim" bench gemm --backend cuda --sizes 4096,8192 --reps 5 2>&1 |
    awk -F' *[|] *' '$3=="production"{printf "  gemm n=%s production %s TFLOP/s  cuBLAS %s  ratio %s  diff %s\n",$2,$5,$7,$8,$9}
                     /rror/{print "  gemm " $0}'
}

rounds=("$@")
[ ${#rounds[@]} -eq 0 ] && rounds=(0 1 2)
for r in "${rounds[@]}"; do
  spec=${ROUND[$r]:-}
  [ -z "$spec" ] && { echo "== round $r: not defined"; continue; }
  nbs=${spec%%|*}; gms=${spec#*|}
  t0=$SECONDS
  echo "== round $r: nbody [${nbs# }] gemm [${gms# }]"
  set_variant "$nbs" "$gms" || { echo "  round $r: could not set the variant"; continue; }
  if ! cmake --build "$BUILD" --target parprim_cli test_nbody test_gemm >"$save/build.log" 2>&1; then
    echo "  round $r: BUILD FAILED"; grep -m5 -E "error|Error" "$save/build.log"; continue
  fi
  t1=$SECONDS
  nbody_rows
  echo "  nbody tests: $("$BUILD/tests/test_nbody" --gtest_filter='*cuda*:*Cuda*' --gtest_brief=1 2>&1 | tail -2 | tr '\n' ' ')"
  gemm_rows
  echo "  gemm tests: $("$BUILD/tests/test_gemm" --gtest_filter='GemmTest/0.*' --gtest_brief=1 2>&1 | tail -2 | tr '\n' ' ')"
  echo "  (round $r: build $((t1 - t0)) s, runs $((SECONDS - t1)) s)"
done
restore
trap - EXIT
echo "fp.sh: headers restored (the next build of $BUILD recompiles the defaults)"
