#!/usr/bin/env python3
"""Runs `parprim bench` on a small CPU case and checks what it writes:
  - the header states the warm-up and repetition counts in force (--quick: 1 and 5),
  - --csv is RFC 4180: every record has the header's field count, a variant holding a comma
    ("uniform [0,1)") reads back whole, lines end in CRLF,
  - the CSV carries every field of the JSON rows (extra keys as columns), with equal values,
  - the JSON has min <= median <= max for every timed row and the timing counts.
Usage: check_bench_output.py PARPRIM WORKDIR
"""
import csv
import json
import math
import pathlib
import subprocess
import sys


def fail(message):
    print("check_bench_output: " + message)
    sys.exit(1)


def main(parprim, workdir):
    work = pathlib.Path(workdir)
    work.mkdir(parents=True, exist_ok=True)
    json_path, csv_path = work / "bench.json", work / "bench.csv"
    run = subprocess.run([parprim, "bench", "histogram", "--backend", "cpu", "--quick",
                          "--sizes", "4096", "--json", str(json_path), "--csv", str(csv_path)],
                         capture_output=True, text=True, check=False)
    if run.returncode != 0:
        fail(f"parprim bench failed ({run.returncode}):\n{run.stdout}\n{run.stderr}")
    if "1 warm-up run(s), then 5 timed run(s)" not in run.stdout:
        fail("the header does not state --quick's counts:\n" + run.stdout[:600])

    doc = json.loads(json_path.read_text())
    if doc.get("timing", {}).get("warmup") != 1 or doc["timing"].get("repetitions") != 5:
        fail(f"JSON timing block is {doc.get('timing')}")
    rows = doc["results"]

    raw = csv_path.read_bytes()
    if raw.count(b"\r\n") != len(rows) + 1 or raw.replace(b"\r\n", b"").count(b"\n"):
        fail("CSV lines do not all end in CRLF")
    with open(csv_path, newline="") as f:
        records = list(csv.reader(f, strict=True))
    header, body = records[0], records[1:]
    if len(body) != len(rows):
        fail(f"{len(body)} CSV records for {len(rows)} JSON rows")
    if any(len(r) != len(header) for r in body):
        fail("a CSV record has a different field count from the header")
    if not any("," in r[header.index("variant")] for r in body):
        fail("no variant with a comma came through (expected 'uniform [0,1)')")

    for row, record in zip(rows, body):
        fields = dict(zip(header, record))
        flat = {k: v for k, v in row.items() if k != "extra"}
        flat.update(row.get("extra", {}))
        for key, value in flat.items():
            if key not in fields:
                fail(f"JSON field {key} has no CSV column")
            text = fields[key]
            if value is None:
                ok = text == ""
            elif isinstance(value, (int, float)) and not isinstance(value, bool):
                ok = text != "" and math.isclose(float(text), float(value), rel_tol=1e-12)
            else:
                ok = text == str(value)
            if not ok:
                fail(f"{key}: JSON {value!r} but CSV {text!r}")
        if row.get("ms_min") is not None and not row["ms_min"] <= row["ms"] <= row["ms_max"]:
            fail(f"min/median/max out of order in {row}")
    timed = sum(1 for row in rows if row.get("ms_min") is not None)
    if timed == 0:
        fail("no row carries ms_min/ms_max")
    print(f"check_bench_output: {len(rows)} rows ({timed} with min/max), {len(header)} columns: ok")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
