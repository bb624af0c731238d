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
[ "$(head -1 "$tmp/b.csv")" = $'primitive,variant,type,n,ms,ms_min,ms_max,gbps,yardstick,yardstick_ms,vs_yardstick,copy_gbps,pct_of_copy,seq_cpu_ms\r' ] \
  || { echo "FAIL: csv header"; fail=1; }

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

exit $fail
