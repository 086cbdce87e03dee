#!/usr/bin/python3
"""ranks_check.py: check `scopeview ranks`, `scopeview calls` and
`scopeview calls --histogram` against the raw HDF5 columns (read by
numpy_check.load_raw) and against `scopeview summary --format json`.

usage: ranks_check.py SCOPEVIEW FILE [EXPECTED.json]

Prints one "ok ..." line and exits 0, or lists the mismatches and exits 1.
"""
import json
import math
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from numpy_check import load_raw  # noqa: E402

bad = 0


def fail(what):
    global bad
    bad += 1
    if bad <= 20:
        print(f"MISMATCH {what}")


def run(exe, *args):
    r = subprocess.run([exe, *args], capture_output=True)
    if r.returncode != 0:
        print(f"scopeview {' '.join(args)} exited {r.returncode}: "
              f"{r.stderr.decode(errors='replace')}")
        sys.exit(1)
    return json.loads(r.stdout)


def check_ranks(exe, path, prof, expected):
    summ = run(exe, "summary", "--format", "json", path)
    for metric in ("total", "exclusive"):
        got = run(exe, "ranks", "--metric", metric, "--format", "json", path)
        if got["metric"] != metric:
            fail(f"metric {got['metric']}")
        if got["num_ranks"] != summ["num_ranks"]:
            fail(f"num_ranks {got['num_ranks']} != {summ['num_ranks']}")
        names = [g["name"] for g in got["regions"]]
        if names != [g["name"] for g in summ["regions"]]:
            fail(f"region order {names}")
            continue
        for g, s in zip(got["regions"], summ["regions"]):
            where = f"{metric} {g['name']!r}"
            # The raw columns: per-rank total and call count.
            raw = {}
            for r in prof["rows"]:
                if prof["names"][r.region] != g["name"]:
                    continue
                n, t = raw.get(r.rank, (0, 0))
                if r.agg is not None:  # the aggregate layout's totals
                    t += r.agg["total"]
                elif r.start is not None:
                    t += int((r.end - r.start).sum())
                raw[r.rank] = (n + r.count, t)
            raw = {k: v for k, v in raw.items() if v[0] > 0}
            mine = {c["rank"]: c for c in g["ranks"]}
            if sorted(mine) != sorted(raw):
                fail(f"{where}: ranks {sorted(mine)} != raw {sorted(raw)}")
                continue
            for rank, (n, t) in raw.items():
                c = mine[rank]
                if c["num_calls"] != n or c["total_ns"] != t:
                    fail(f"{where} rank {rank}: {c} != raw ({n}, {t})")
            # summary --per-rank: same totals, exclusive and imbalance.
            srank = {r["rank"]: r for r in s["ranks"] if r["num_calls"]}
            for rank, c in mine.items():
                sr = srank.get(rank)
                if sr is None:
                    fail(f"{where} rank {rank} not in summary")
                    continue
                if not math.isclose(c["total_ns"] / 1e9, sr["total_duration"],
                                    rel_tol=1e-12, abs_tol=1e-18):
                    fail(f"{where} rank {rank} total vs summary")
                ex = sr["exclusive_duration"]
                if (ex is None) != (c["exclusive_ns"] is None) or (
                        ex is not None and not math.isclose(
                            c["exclusive_ns"] / 1e9, ex, rel_tol=1e-12,
                            abs_tol=1e-18)):
                    fail(f"{where} rank {rank} exclusive {c['exclusive_ns']}"
                         f" vs summary {ex}")
            if g["rank_imbalance_pct"] != s["rank_imbalance_pct"]:
                fail(f"{where} imbalance {g['rank_imbalance_pct']} != "
                     f"{s['rank_imbalance_pct']}")
            # The load-balance figures, recomputed with numpy.
            key = "total_ns" if metric == "total" else "exclusive_ns"
            vals = [(c["rank"], c[key]) for c in g["ranks"]
                    if c[key] is not None]
            if not vals:
                if g["min_ns"] is not None:
                    fail(f"{where}: figures without values")
                continue
            v = np.array([x for _, x in vals], dtype=np.int64)
            mean = float(np.mean(v.astype(np.float64)))
            slow = vals[int(np.argmax(v))][0]
            want = dict(min_ns=int(v.min()), max_ns=int(v.max()),
                        slowest_rank=slow)
            for k, w in want.items():
                if g[k] != w:
                    fail(f"{where} {k} {g[k]} != {w}")
            if not math.isclose(g["mean_ns"], mean, rel_tol=1e-12):
                fail(f"{where} mean {g['mean_ns']} != {mean}")
            if not math.isclose(g["excess_ns"], float(v.max()) - mean,
                                rel_tol=1e-9, abs_tol=1e-6):
                fail(f"{where} excess {g['excess_ns']}")
            if expected and metric == "total":
                e = expected["regions"].get(g["name"])
                if e is None:
                    fail(f"{where} not in expected")
                    continue
                if not math.isclose(e["rank_imbalance_pct"],
                                    g["rank_imbalance_pct"], rel_tol=1e-9,
                                    abs_tol=1e-9):
                    fail(f"{where} imbalance vs expected "
                         f"{e['rank_imbalance_pct']}")
                for rank, c in mine.items():
                    er = e["ranks"].get(str(rank))
                    if er is None or not math.isclose(
                            er["total_duration"], c["total_ns"] / 1e9,
                            rel_tol=1e-9, abs_tol=1e-15):
                        fail(f"{where} rank {rank} total vs expected")
    return len(summ["regions"])


def raw_calls(prof, name):
    """(rank, start, end, gpu, await) of every call of region name, in the
    file's row order."""
    out = []
    for r in prof["rows"]:
        if prof["names"][r.region] != name or r.start is None:
            continue
        for k in range(r.count):
            out.append((r.rank, int(r.start[k]), int(r.end[k]),
                        None if r.gpu is None else int(r.gpu[k]),
                        None if r.aw is None else int(r.aw[k])))
    return out


def check_calls(exe, path, prof):
    names = sorted({prof["names"][r.region] for r in prof["rows"]
                    if r.count and r.start is not None})
    ncalls = 0
    for name in names[:6]:
        want = raw_calls(prof, name)
        got = run(exe, "calls", "--region", name, "--format", "json",
                  path)["calls"]
        ncalls += len(got)
        if len(got) != len(want):
            fail(f"calls {name!r}: {len(got)} != raw {len(want)}")
            continue
        mine = sorted((c["rank"], c["start_ns"], c["end_ns"]) for c in got)
        if mine != sorted((w[0], w[1], w[2]) for w in want):
            fail(f"calls {name!r}: contents differ from the raw columns")
        durs = [c["duration_ns"] for c in got]
        if any(c["duration_ns"] != c["end_ns"] - c["start_ns"] for c in got):
            fail(f"calls {name!r}: duration != end - start")
        if durs != sorted(durs, reverse=True):
            fail(f"calls {name!r}: not longest first")
        # Stable: equal durations keep the file's order.
        order = {(w[0], w[1], w[2]): i for i, w in enumerate(want)}
        for a, b in zip(got, got[1:]):
            if a["duration_ns"] == b["duration_ns"]:
                ia = order[(a["rank"], a["start_ns"], a["end_ns"])]
                ib = order[(b["rank"], b["start_ns"], b["end_ns"])]
                if ia > ib:
                    fail(f"calls {name!r}: ties out of file order")
                    break
        gpu = {(w[0], w[1], w[2]): w[3] for w in want}
        aw = {(w[0], w[1], w[2]): w[4] for w in want}
        for c in got:
            k = (c["rank"], c["start_ns"], c["end_ns"])
            if prof.get("has_await") and c["await_ns"] != aw[k]:
                fail(f"calls {name!r}: await {c['await_ns']} != {aw[k]}")
                break
            if gpu[k] is not None and c["gpu_ns"] != gpu[k]:
                fail(f"calls {name!r}: gpu {c['gpu_ns']} != {gpu[k]}")
                break
        st = run(exe, "calls", "--region", name, "--sort", "start",
                 "--limit", "7", "--format", "json", path)["calls"]
        starts = sorted(w[1] for w in want)[:7]
        if [c["start_ns"] for c in st] != starts:
            fail(f"calls {name!r} --sort start --limit 7")
        check_histogram(exe, path, name, want)
    return ncalls


def check_histogram(exe, path, name, want):
    d = np.array([w[2] - w[1] for w in want], dtype=np.int64)
    for bins in (1, 7, 40):
        h = run(exe, "calls", "--region", name, "--histogram", str(bins),
                "--format", "json", path)
        pos = d[d > 0]
        if h["num_calls"] != len(d) or h["nonpositive"] != int((d <= 0).sum()):
            fail(f"histogram {name!r}: counts of calls")
        if len(pos) == 0:
            if h["counts"]:
                fail(f"histogram {name!r}: bins without durations")
            continue
        lo, hi = int(pos.min()), int(pos.max())
        n = 1 if lo == hi else bins
        edges = np.array(h["edges_ns"])
        ref = np.logspace(np.log10(lo), np.log10(hi), n + 1)
        if len(edges) != n + 1 or not np.allclose(edges, ref, rtol=1e-12):
            fail(f"histogram {name!r} {bins}: edges {edges[:3]} vs {ref[:3]}")
            continue
        if edges[0] != lo or edges[-1] != hi:
            fail(f"histogram {name!r}: end edges")
        if lo == hi:
            cnt = np.array([len(pos)])
        else:
            cnt, _ = np.histogram(pos.astype(np.float64), bins=edges)
        if list(cnt) != h["counts"]:
            fail(f"histogram {name!r} {bins}: counts {h['counts']} != "
                 f"numpy {list(cnt)}")
        for p in (50, 95, 99):
            w = float(np.percentile(d, p))
            if not math.isclose(h[f"p{p}_ns"], w, rel_tol=1e-12):
                fail(f"histogram {name!r}: p{p} {h[f'p{p}_ns']} != {w}")
        if not math.isclose(h["mean_ns"], float(d.mean()), rel_tol=1e-9):
            fail(f"histogram {name!r}: mean")


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    exe, path = sys.argv[1], sys.argv[2]
    expected = None
    if len(sys.argv) > 3:
        with open(sys.argv[3]) as f:
            expected = json.load(f)
    prof = load_raw(path)
    nreg = check_ranks(exe, path, prof, expected)
    ncalls = check_calls(exe, path, prof) if prof["layout"] != "aggregate" \
        else 0
    if bad:
        print(f"ranks_check: {bad} mismatches in {path}")
        return 1
    print(f"ok {path}: {nreg} regions, {ncalls} calls, histograms agree "
          f"with numpy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
