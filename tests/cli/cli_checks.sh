#!/usr/bin/env bash
# The CLI's contract: every subcommand has --help; info and a quick CPU bench succeed and the
# JSON they write has the documented schema; bad arguments print one line and exit non-zero.
set -u
cli="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

ok() {  # ok DESCRIPTION COMMAND...: must exit 0
  local what="$1"; shift
  if ! "$@" >"$tmp/out" 2>&1; then echo "FAIL (expected success): $what"; cat "$tmp/out"; fail=1; fi
}
rejects() {  # rejects DESCRIPTION EXPECTED_TEXT COMMAND...: must exit non-zero with one stderr line
  local what="$1" text="$2"; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ $rc -eq 0 ]; then echo "FAIL (expected an error): $what"; fail=1; return; fi
  if [ $rc -ge 128 ]; then echo "FAIL (crashed with signal $((rc - 128))): $what"; fail=1; return; fi
  if [ "$(wc -l <"$tmp/err")" -ne 1 ]; then echo "FAIL (not one line): $what"; cat "$tmp/err"; fail=1; fi
  if ! grep -q -- "$text" "$tmp/err"; then echo "FAIL (message lacks '$text'): $what"; cat "$tmp/err"; fail=1; fi
}

ok "--help" "$cli" --help
for sub in $("$cli" --help | awk '/^SUBCOMMANDS:/{f=1;next} f&&NF{print $1}'); do
  ok "$sub --help" "$cli" "$sub" --help
done
ok "info" "$cli" info
grep -q "cpu : OpenMP" "$tmp/out" || { echo "FAIL: info lacks the cpu backend"; fail=1; }
ok "bench --list" "$cli" bench --list
ok "--version" "$cli" --version
grep -Eq '^parprim [0-9]+\.[0-9]+\.[0-9]+' "$tmp/out" || { echo "FAIL: --version"; cat "$tmp/out"; fail=1; }

ok "quick cpu bench" "$cli" bench reduce scan --backend cpu --sizes 1000,2^16 --reps 3 \
  --json "$tmp/b.json" --csv "$tmp/b.csv"
grep -q "seq CPU ms" "$tmp/out" || { echo "FAIL: bench lacks the Table 2 columns"; cat "$tmp/out"; fail=1; }
python3 - "$tmp/b.json" <<'PY' || fail=1
import json, sys
doc = json.load(open(sys.argv[1]))
assert isinstance(doc["device"], str) and isinstance(doc["date"], str) and isinstance(doc["command"], str)
rows = doc["results"]
assert rows, "no rows"
kinds = {"primitive": str, "variant": str, "type": str, "n": int, "ms": float, "gbps": float}
for r in rows:
    for k, t in kinds.items():
        assert isinstance(r[k], (int, float) if t is float else t), (k, r)
    for k in ("yardstick", "yardstick_ms", "vs_yardstick"):
        assert k in r, (k, r)
    assert r["ms"] > 0 and r["n"] > 0
    if r["yardstick_ms"] is not None:
        assert abs(r["vs_yardstick"] - r["yardstick_ms"] / r["ms"]) < 1e-9 * max(1, r["vs_yardstick"])
assert {r["primitive"] for r in rows} >= {"reduce", "exclusive_scan", "inclusive_scan"}
PY
[ "$(head -1 "$tmp/b.csv")" = $'primitive,variant,type,n,ms,ms_min,ms_max,gbps,yardstick,yardstick_ms,vs_yardstick,copy_gbps,matches_sequential,max_rel_diff,pct_of_copy,seq_cpu_ms\r' ] \
  || { echo "FAIL: csv header"; fail=1; }

# The output checks: every row of the by-key, segmented and merge suites is compared with the
# sequential oracle, says so in its JSON, and the run exits 0 (a mismatch would exit 1).
ok "checked cpu bench" "$cli" bench by_key segmented merge_search --backend cpu --sizes 1000,5000 \
  --reps 1 --warmup 0 --json "$tmp/c.json"
python3 - "$tmp/c.json" <<'PY' || fail=1
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
# per n: 12 by-key rows for each of 3 mean run lengths, 6 segment shapes of 3 rows, and merge,
# merge_by_key and both searches on sorted and unsorted queries
assert len(rows) == 2 * (3 * 12 + 6 * 3 + 6), len(rows)
for r in rows:
    assert r["extra"].get("matches_sequential") == 1, r
PY
# The top_k and partition suites' rows (top_k against std::partial_sort, segmented_top_k
# against segmented_sort, the partitions against their sequential definition), and the
# reduce and scan rows of the quick bench above.
ok "checked cpu bench (top_k, partition)" "$cli" bench top_k partition --backend cpu \
  --sizes 1000,5000 --reps 1 --warmup 0 --json "$tmp/d.json"
python3 - "$tmp/d.json" "$tmp/b.json" <<'PY' || fail=1
import json, sys
top_k, reduce_scan = (json.load(open(p))["results"] for p in sys.argv[1:])
# top_k and top_k_pairs: k = 1, 32 (n = 1000) and 1, 32, 1024 (n = 5000); 15 segmented_top_k
# (5 layouts x 3 k) and 4 partition rows per n
assert len(top_k) == 2 * (2 + 3) + 2 * (15 + 4), len(top_k)
for r in top_k + reduce_scan:
    checks = {k: v for k, v in r["extra"].items() if k.startswith("matches_")}
    assert list(checks.values()) == [1], r
PY
# The cpu suite (parprim against TBB, std::execution::par and GNU parallel): each primitive's
# row records its comparison with the sequential oracle; the copy row compares nothing.
ok "checked cpu bench (cpu libraries)" "$cli" bench cpu --backend cpu --sizes 1000,5000 --reps 1 \
  --warmup 0 --json "$tmp/f.json"
python3 - "$tmp/f.json" <<'PY' || fail=1
import collections, json, sys
rows = json.load(open(sys.argv[1]))["results"]
want = {"copy": 2, "reduce": 2, "exclusive_scan": 2, "copy_if": 2, "histogram": 2, "radix_sort": 2}
assert collections.Counter(r["primitive"] for r in rows) == want, collections.Counter(r["primitive"] for r in rows)
for r in rows:
    assert r["extra"].get("matches_sequential") == (None if r["primitive"] == "copy" else 1), r
PY
# The dot, gather_scatter, gemm, sort, segmented_sort and histogram suites' rows: dot against the
# sum in long double, gemm against the product in double, gather/scatter against their
# definition, the sorts against std::stable_sort (of every segment for segmented_sort; all
# "matches_sequential"), histogram against the sequential loop ("mismatch_vs_yardstick" 0).
ok "checked cpu bench (dot, gather_scatter, gemm, sort, segmented_sort, histogram)" "$cli" bench dot \
  gather_scatter gemm sort segmented_sort histogram --backend cpu --sizes 100,1000 --reps 1 --warmup 0 \
  --json "$tmp/e.json"
python3 - "$tmp/e.json" <<'PY' || fail=1
import collections, json, sys
rows = json.load(open(sys.argv[1]))["results"]
# per n: 1 dot, 2 gather and 2 scatter, 1 gemm, 4 radix_sort and 2 radix_sort_pairs (u32/u32, u32/u64),
# 2 merge_sort, 4 segmented_sort and 4 segmented_sort_pairs (segments of 32, skewed, of 1024 and
# one segment: at these n the segments of 1024 are one segment too), 1 histogram; at the larger n:
# 7 multi-pass scatter rows and 4 more histograms.
want = {"dot": 2, "gather": 4, "scatter": 4 + 7, "gemm": 2, "radix_sort": 8, "radix_sort_pairs": 4,
        "merge_sort": 4, "segmented_sort": 8, "segmented_sort_pairs": 8, "histogram": 2 + 4}
assert collections.Counter(r["primitive"] for r in rows) == want, collections.Counter(r["primitive"] for r in rows)
for r in rows:
    checks = {k: v for k, v in r["extra"].items() if k.startswith(("matches_", "mismatch"))}
    assert checks == ({"mismatch_vs_yardstick": 0} if r["primitive"] == "histogram" else {"matches_sequential": 1}), r
PY

rejects "unknown primitive" "unknown primitive 'sorting'" "$cli" bench sorting --backend cpu
rejects "negative size" "is negative" "$cli" bench reduce --backend cpu --sizes -5
rejects "zero size" "at least 1" "$cli" bench reduce --backend cpu --sizes 0
rejects "absurd size" "absurdly large" "$cli" bench reduce --backend cpu --sizes 2^50
rejects "garbage size" "not a number" "$cli" bench reduce --backend cpu --sizes lots
rejects "unknown backend" "--backend" "$cli" bench reduce --backend tpu
rejects "unknown subcommand" "error" "$cli" frobnicate
rejects "unknown option" "error" "$cli" bench --frobnicate
if ! "$cli" info | grep -q "device 0:"; then
  rejects "cuda without a GPU" "cuda" "$cli" bench reduce --backend cuda
fi
rejects "unwritable json" "cannot write" "$cli" bench reduce --backend cpu --sizes 1024 --reps 1 --json /nonexistent/dir/x.json

# Outputs: checked before any work, never left half-written, never replacing what is not a
# regular file; a failed write is an error.
echo "precious" >"$tmp/keep.json"
rejects "nbody bad option keeps --json" "--dt=-1" "$cli" nbody --n 64 --dt -1 --json "$tmp/keep.json"
[ "$(cat "$tmp/keep.json")" = "precious" ] || { echo "FAIL: a rejected nbody run emptied its --json file"; fail=1; }
echo "precious" >"$tmp/keep.csv"
rejects "nbody bad body file keeps --diag" "cannot read body file" "$cli" nbody --init file \
  --file "$tmp/missing.csv" --steps 2 --diag "$tmp/keep.csv"
[ "$(cat "$tmp/keep.csv")" = "precious" ] || { echo "FAIL: a failed nbody run replaced its --diag file"; fail=1; }
echo "not a directory" >"$tmp/plain"
rejects "nbody --frames a file keeps --diag" "is not a directory" "$cli" nbody --n 64 --steps 2 --backend cpu \
  --diag "$tmp/keep.csv" --frames "$tmp/plain"
[ "$(cat "$tmp/keep.csv")" = "precious" ] || { echo "FAIL: a rejected nbody run replaced its --diag file"; fail=1; }
mkfifo "$tmp/pipe.png"
rejects "raytrace --out a FIFO" "not a regular file" "$cli" raytrace --backend cpu --width 16 --height 16 \
  --frames 1 --out "$tmp/pipe.png"
[ -p "$tmp/pipe.png" ] || { echo "FAIL: raytrace replaced a FIFO named by --out"; fail=1; }
rejects "bench --csv a directory" "not a regular file" "$cli" bench reduce --backend cpu --sizes 1024 --reps 1 --csv "$tmp"
grep -q "copy bandwidth" "$tmp/out" && { echo "FAIL: bench ran before finding its --csv path bad"; fail=1; }
# (A 1 KiB limit: LLVM's OpenMP runtime writes a small registration file at start-up, and four
# sizes make a JSON file of several KiB. Through a pipe: the limit would also stop the
# redirection of the messages to a file.)
( ulimit -f 1; exec "$cli" bench reduce --backend cpu --sizes 1000,2000,3000,4000 --reps 1 --json "$tmp/keep.json" ) \
  2>&1 | cat >"$tmp/err"
rc=${PIPESTATUS[0]}
if [ $rc -eq 0 ] || [ $rc -ge 128 ] || ! grep -q "writing failed" "$tmp/err"; then
  echo "FAIL: a --json write past the file-size limit was not an error (rc=$rc)"; cat "$tmp/err"; fail=1
fi
[ "$(cat "$tmp/keep.json")" = "precious" ] || { echo "FAIL: a failed --json write damaged the old file"; fail=1; }
if "$cli" bench reduce --backend cpu --sizes 1024 --reps 1 >/dev/full 2>"$tmp/err"; then
  echo "FAIL: bench exited 0 although its output could not be written (/dev/full)"; fail=1
fi
grep -q "standard output" "$tmp/err" || { echo "FAIL: no message for the failed stdout write"; cat "$tmp/err"; fail=1; }
rejects "--sizes overflow" "absurdly large" "$cli" bench reduce --backend cpu --sizes 4000000000^2
# A body whose speed squared overflows: frames render (this crashed in the colour lookup).
echo "1,0,0,0,1e200,0,0" >"$tmp/fast.csv"
ok "nbody frame of an overflowing speed" "$cli" nbody --init file --file "$tmp/fast.csv" --precision double \
  --steps 0 --backend cpu --frames "$tmp/frames"
[ -s "$tmp/frames/frame_000000.png" ] || { echo "FAIL: no frame written"; fail=1; }

exit $fail
