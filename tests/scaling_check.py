#!/usr/bin/python3
"""scaling_check.py: `scopeview scaling` and `scopeview trend` checked
against an independent numpy computation from the raw HDF5 columns (read
by numpy_check.load_raw), following doc/format.md 10.5 and 10.6.

usage:
  scaling_check.py scaling EXE [--x F] [--ranks R] [--include RE]...
                   [--exclude RE]... RUN...
  scaling_check.py trend EXE FILE --region NAME [--metric M] [--ranks R]
                   [--expect RANK:INDEX[,RANK:INDEX...] | --expect-none]

scaling: T(run, region) is numpy.mean of the durations (end - start) of
the region's calls on the selected ranks; runs of one x are averaged
(numpy.mean of their T); x0 is the smallest x when every x is a number,
else the first; only regions with a call in every run, in the first
run's region-table order; speedup = T0/T, efficiency = speedup * x0/x
(speedup for text), normalized_runtime = T/T0, weak_efficiency = T0/T.
Every field of the JSON is compared (numbers within 1e-9 relative, a
ratio that is not finite must be null), key by key against the shape
the issue gives, and the CSV against the JSON.

trend: iteration k is the k-th call of the region on each rank in start
order (a stable sort: ties in storage order); per k the count, min,
numpy.median, max and the lowest rank holding the max; drift is
numpy.polyfit's slope of the medians over their mean, x 100 x 100;
jitter numpy.median(|m - median(m)|) / median(m) x 100.  The change
points must be exactly the expected (rank, iteration) pairs, each with
the means of its rank's series over the segments either side.

Exit status: 0 everything agrees ("ok ..." on the last line), 1 a
mismatch (each printed), 2 usage.
"""
import csv
import io
import json
import math
import os
import re
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from numpy_check import exclusive_of, load_raw, parse_ranks, text  # noqa: E402

REL = 1e-9
bad = 0


def fail(what):
    global bad
    bad += 1
    if bad <= 30:
        print(f"MISMATCH {what}")


def close(want, got, rel=REL, floor=1e-300):
    if want is None or (isinstance(want, float) and not math.isfinite(want)):
        return got is None
    if got is None:
        return False
    return abs(float(want) - float(got)) <= rel * abs(float(want)) + floor


def run(exe, args, want_rc=0):
    r = subprocess.run([exe, *args], capture_output=True)
    if r.returncode != want_rc:
        print(f"scopeview {' '.join(args)} exited {r.returncode}: "
              f"{r.stderr.decode(errors='replace')}")
        sys.exit(1)
    return r.stdout.decode()


def keys_are(where, obj, want):
    got = list(obj.keys())
    if got != want:
        fail(f"{where}: keys {got}, want {want}")


# ---- scaling ------------------------------------------------------------------


def as_number(v):
    """A metadata value as a finite number, or None."""
    if isinstance(v, (bool, np.bool_)):
        return None
    if isinstance(v, (int, np.integer)):
        return float(v)
    if isinstance(v, (float, np.floating)):
        return float(v) if math.isfinite(v) else None
    if isinstance(v, (bytes, str)):
        try:
            f = float(text(v).strip())
        except ValueError:
            return None
        return f if math.isfinite(f) else None
    return None


def x_of(prof, field):
    meta = prof["meta"]
    if field == "num_ranks":
        return float(prof["num_ranks"]), str(prof["num_ranks"])
    if field == "total_cores" and field not in meta:
        return float(prof["num_ranks"] * int(meta["omp_num_threads"])), None
    v = meta[field]
    num = as_number(v)
    return num, (text(v) if isinstance(v, (bytes, str)) else str(v))


def region_means(prof, ranks, include, exclude):
    """{name: T in ns} of the regions kept with a call on the ranks: the
    mean of the durations, or for the aggregate layout the stored totals
    over the stored counts."""
    per, agg = {}, {}
    for r in prof["rows"]:
        if ranks is not None and r.rank not in ranks:
            continue
        name = prof["names"][r.region]
        if include and not any(re.match(p, name) for p in include):
            continue
        if any(re.match(p, name) for p in exclude):
            continue
        if r.count and r.agg is not None:
            tot, cnt = agg.get(r.region, (0, 0))
            agg[r.region] = (tot + r.agg["total"], cnt + r.count)
        elif r.count:
            per.setdefault(r.region, []).append(r.end - r.start)
    out = {prof["names"][k]: float(np.mean(np.concatenate(v)))
           for k, v in sorted(per.items())}
    out.update({prof["names"][k]: t / c for k, (t, c) in agg.items()})
    return out


def check_scaling(exe, args):
    field, ranks, include, exclude, runs = "num_ranks", None, [], [], []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--x":
            field = args[i + 1]
            i += 2
        elif a == "--ranks":
            ranks = parse_ranks(args[i + 1])
            i += 2
        elif a == "--include":
            include.append(args[i + 1])
            i += 2
        elif a == "--exclude":
            exclude.append(args[i + 1])
            i += 2
        else:
            runs.append(a)
            i += 1
    profs = [load_raw(p) for p in runs]
    xs = [x_of(p, field) for p in profs]
    numeric = all(x[0] is not None for x in xs)
    if numeric:
        keys = sorted({x[0] for x in xs})
        point = [keys.index(x[0]) for x in xs]
        key_text = keys
    else:
        key_text = list(dict.fromkeys(x[1] for x in xs))
        point = [key_text.index(x[1]) for x in xs]
    means = [region_means(p, ranks, include, exclude) for p in profs]
    first = profs[0]["names"]
    regions = [n for n in first if n in means[0]
               and all(n in m for m in means)]

    got = json.loads(run(exe, ["scaling", "--format", "json", *args]))
    keys_are("study", got, ["x_field", "baseline", "runs", "regions"])
    if got["x_field"] != field:
        fail(f"x_field {got['x_field']}")
    base = key_text[0]
    if (numeric and not close(base, got["baseline"])) or \
            (not numeric and got["baseline"] != base):
        fail(f"baseline {got['baseline']}, want {base}")
    if len(got["runs"]) != len(runs):
        fail(f"{len(got['runs'])} runs")
    for k, (path, prof) in enumerate(zip(runs, profs)):
        g = got["runs"][k]
        keys_are(f"run {k}", g, ["file", "label", "x"])
        label = text(prof["meta"].get("label", "")) or os.path.basename(path)
        if g["file"] != path or g["label"] != label:
            fail(f"run {k}: {g['file']!r} {g['label']!r}")
        want = xs[k][0] if numeric else xs[k][1]
        if (numeric and not close(want, g["x"])) or \
                (not numeric and g["x"] != want):
            fail(f"run {k} x {g['x']}, want {want}")
    names = [g["name"] for g in got["regions"]]
    if names != regions:
        fail(f"regions {names}, want {regions}")
    checked = 0
    for g in got["regions"]:
        if g["name"] not in regions:
            continue
        keys_are(f"region {g['name']}", g, ["name", "points"])
        t = [[] for _ in key_text]
        for k in range(len(runs)):
            t[point[k]].append(means[k][g["name"]])
        tx = [float(np.mean(v)) for v in t]
        t0 = tx[0]
        if len(g["points"]) != len(key_text):
            fail(f"{g['name']}: {len(g['points'])} points")
            continue
        for j, pt in enumerate(g["points"]):
            where = f"{g['name']} point {j}"
            keys_are(where, pt, ["x", "runs", "mean_duration", "speedup",
                                 "efficiency", "normalized_runtime",
                                 "weak_efficiency"])
            with np.errstate(divide="ignore", invalid="ignore"):
                sp = np.float64(t0) / np.float64(tx[j])
                eff = sp * (key_text[0] / key_text[j]) if numeric else sp
                want = dict(mean_duration=tx[j] / 1e9, speedup=float(sp),
                            efficiency=float(eff),
                            normalized_runtime=float(
                                np.float64(tx[j]) / np.float64(t0)),
                            weak_efficiency=float(sp))
            if pt["runs"] != len(t[j]):
                fail(f"{where} runs {pt['runs']}, want {len(t[j])}")
            if (numeric and not close(key_text[j], pt["x"])) or \
                    (not numeric and pt["x"] != key_text[j]):
                fail(f"{where} x {pt['x']}")
            for key, w in want.items():
                if not close(w, pt[key]):
                    fail(f"{where} {key}: {pt[key]}, want {w}")
                checked += 1

    # The CSV says the same as the JSON.
    rows = list(csv.reader(io.StringIO(
        run(exe, ["scaling", "--format", "csv", *args]))))
    if rows[0] != ["region", "x", "runs", "mean_duration", "speedup",
                   "efficiency", "normalized_runtime", "weak_efficiency"]:
        fail(f"CSV header {rows[0]}")
    flat = [(g["name"], pt) for g in got["regions"] for pt in g["points"]]
    if len(rows) - 1 != len(flat):
        fail(f"CSV has {len(rows) - 1} rows, the JSON {len(flat)} points")
    for cells, (name, pt) in zip(rows[1:], flat):
        if cells[0] != name or int(cells[2]) != pt["runs"]:
            fail(f"CSV row {cells} for {name}")
        for cell, key in zip(cells[3:], ["mean_duration", "speedup",
                                         "efficiency", "normalized_runtime",
                                         "weak_efficiency"]):
            want = pt[key]
            if (want is None) != (cell == "null") or \
                    (want is not None and float(cell) != want):
                fail(f"CSV {name} {key}: {cell} vs {want}")
    run(exe, ["scaling", *args])  # the table is printed
    return f"{len(regions)} regions, {len(key_text)} points, " \
           f"{checked} figures"


# ---- trend ----------------------------------------------------------------------


def exclusive_per_call(prof):
    """{row index: per-call exclusive ns}, rebuilt per rank and lane as
    scope-profiler's call_stack does (numpy_check.exclusive_of)."""
    by_rank = {}
    for i, r in enumerate(prof["rows"]):
        if r.start is not None and r.count:
            by_rank.setdefault(r.rank, []).append(i)
    out = {}
    for rank, idxs in by_rank.items():
        idxs.sort(key=lambda i: prof["rows"][i].region)
        rows = [prof["rows"][i] for i in idxs]
        start = np.concatenate([r.start for r in rows])
        end = np.concatenate([r.end for r in rows])
        th = [r.thread if r.thread is not None else np.full(r.count, -1)
              for r in rows]
        tk = [r.task if r.task is not None else np.full(r.count, -1)
              for r in rows]
        th, tk = np.concatenate(th), np.concatenate(tk)
        lane = np.where(tk >= 0, tk, np.where(th < 0, -1, -2 - th))
        excl = np.zeros(start.size, dtype=np.int64)
        for ln in np.unique(lane):
            m = np.flatnonzero(lane == ln)
            excl[m] = exclusive_of(start[m], end[m])
        at = 0
        for i, r in zip(idxs, rows):
            out[i] = excl[at:at + r.count]
            at += r.count
    return out


def check_trend(exe, args):
    path, region, metric, ranks, expect = None, None, "duration", None, None
    passed = []
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--region", "--metric", "--ranks"):
            passed += [a, args[i + 1]]
            if a == "--region":
                region = args[i + 1]
            elif a == "--metric":
                metric = args[i + 1]
            else:
                ranks = parse_ranks(args[i + 1])
            i += 2
        elif a == "--expect":
            expect = sorted((int(x.split(":")[1]), int(x.split(":")[0]))
                            for x in args[i + 1].split(","))
            i += 2
        elif a == "--expect-none":
            expect = []
            i += 1
        else:
            path = a
            i += 1
    prof = load_raw(path)
    excl = exclusive_per_call(prof) if metric == "exclusive" else None
    series = {}
    for i, r in enumerate(prof["rows"]):
        if prof["names"][r.region] != region or not r.count:
            continue
        if ranks is not None and r.rank not in ranks:
            continue
        val = excl[i] if excl is not None else r.end - r.start
        old = series.get(r.rank, (np.zeros(0, np.int64), np.zeros(0, np.int64)))
        series[r.rank] = (np.concatenate([old[0], r.start]),
                          np.concatenate([old[1], val]))
    ordered = {}
    for rank, (start, val) in sorted(series.items()):
        ordered[rank] = val[np.argsort(start, kind="stable")]
    n = max((len(v) for v in ordered.values()), default=0)

    got = json.loads(run(exe, ["trend", "--format", "json", *passed, path]))
    keys_are("trend", got, ["region", "metric", "ranks", "points",
                            "change_points", "drift_pct_per_100",
                            "jitter_pct"])
    if got["region"] != region or got["metric"] != metric or \
            got["ranks"] != len(ordered):
        fail(f"head {got['region']} {got['metric']} {got['ranks']}")
    if len(got["points"]) != n:
        fail(f"{len(got['points'])} points, want {n}")
    med = np.zeros(n)
    for k in range(min(n, len(got["points"]))):
        vals = [(rank, int(v[k])) for rank, v in ordered.items()
                if len(v) > k]
        arr = np.array([x for _, x in vals], dtype=np.int64)
        mx = int(arr.max())
        want = dict(index=k, count=len(vals), min_ns=int(arr.min()),
                    median_ns=float(np.median(arr)), max_ns=mx,
                    max_rank=min(rk for rk, x in vals if x == mx))
        med[k] = want["median_ns"]
        pt = got["points"][k]
        if k == 0:
            keys_are("point", pt, list(want.keys()))
        for key, w in want.items():
            if pt[key] != w:
                fail(f"point {k} {key}: {pt[key]}, want {w}")
    if n >= 2 and med.mean() != 0:
        drift = np.polyfit(np.arange(n, dtype=np.float64), med, 1)[0] \
            / med.mean() * 100 * 100
    else:
        drift = None
    m0 = np.median(med) if n else 0
    jitter = np.median(np.abs(med - m0)) / m0 * 100 if n and m0 else None
    if not close(drift, got["drift_pct_per_100"], 1e-6, 1e-9):
        fail(f"drift {got['drift_pct_per_100']}, want {drift}")
    if not close(jitter, got["jitter_pct"]):
        fail(f"jitter {got['jitter_pct']}, want {jitter}")

    cps = [(c["index"], c["rank"]) for c in got["change_points"]]
    if cps != sorted(cps):
        fail(f"change points not by iteration: {cps}")
    if expect is not None and sorted(cps) != expect:
        fail(f"change points {cps}, want {expect}")
    for c in got["change_points"]:
        keys_are("change point", c, ["index", "rank", "before_ns",
                                     "after_ns"])
        cuts = sorted(x["index"] for x in got["change_points"]
                      if x["rank"] == c["rank"])
        v = ordered[c["rank"]]
        j = cuts.index(c["index"])
        a = cuts[j - 1] if j else 0
        b = cuts[j + 1] if j + 1 < len(cuts) else len(v)
        for key, lo, hi in (("before_ns", a, c["index"]),
                            ("after_ns", c["index"], b)):
            w = float(np.mean(v[lo:hi]))
            if not close(w, c[key]):
                fail(f"change {c['rank']}:{c['index']} {key}: {c[key]}, "
                     f"want {w}")
    # The CSV has the same points and change points.
    rows = run(exe, ["trend", "--format", "csv", *passed, path]).splitlines()
    if rows[0] != "kind,index,count,min_ns,median_ns,max_ns,rank," \
                  "before_ns,after_ns":
        fail(f"CSV header {rows[0]}")
    npt = sum(1 for r in rows[1:] if r.startswith("point,"))
    nch = sum(1 for r in rows[1:] if r.startswith("change,"))
    if npt != n or nch != len(cps):
        fail(f"CSV: {npt} points and {nch} changes")
    run(exe, ["trend", *passed, path])  # the table is printed
    return f"{n} iterations over {len(ordered)} ranks, change points {cps}"


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("scaling", "trend"):
        print(__doc__)
        return 2
    what = check_scaling if sys.argv[1] == "scaling" else check_trend
    said = what(sys.argv[2], sys.argv[3:])
    if bad:
        print(f"{bad} mismatches")
        return 1
    print(f"ok   {sys.argv[1]} {' '.join(sys.argv[3:])}: {said}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
