"""numpy_check.py: an independent check of `scopeview summary --format json`.

Usage: /usr/bin/python3 numpy_check.py EXE FILE.h5 [summary options...]

Reads FILE.h5's raw columns with h5py and computes every figure of the
summary from them with numpy, following doc/format.md section 10 (what
scope-profiler's reader does), without any of scopeview's C code: per
(rank, region) row, per region across the selected ranks, the display
order and the run-level fields.  Exclusive time is the stored
exclusive_totals when >= 0, else rebuilt per rank and lane with
scope-profiler's algorithm (call_stack.build_call_arrays: sort by start
ascending, end descending; depth from doubled timestamps with zero-length
calls open at their own start; parent = nearest preceding call one level
shallower; exclusive = duration - sum of direct children).  Then runs
`EXE summary --format json [options] FILE.h5` and compares every field:
integers exactly, seconds within 1e-9 relative.

The options understood (and passed on) are --ranks LIST, --include RE,
--exclude RE and --sort KEY; the filters are applied here with Python's
re.match, the semantics scope-profiler's get_regions() has, and the sort
is scope-profiler's summary.region_rows(): by name, then a stable sort on
(figure is not None, figure) descending, so ties go by name and regions
without the figure come last ("name" ascending; "start" the display
order).

Where scopeview deliberately reports null instead of scope-profiler's 0.0
(figures of a selection without calls, and first/last/std/percentiles of
the aggregate layout), this script expects null, as stats.h documents.

Exit status: 0 all fields agree, 1 a mismatch (each printed), 2 usage.
"""

import json
import re
import subprocess
import sys

import h5py
import numpy as np

REL = 1e-9
ABS = 1e-12  # seconds: a thousandth of a nanosecond


def text(v):
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    return str(v)


def parse_ranks(spec):
    out = set()
    for part in spec.split(","):
        a, dash, b = part.partition("-")
        lo = int(a.strip())
        hi = int(b.strip()) if dash else lo
        out.update(range(lo, hi + 1))
    return out


# ---- reading the file ---------------------------------------------------------


class Row:
    """One (rank, region) row: its calls (None without per-call data)."""

    def __init__(self, region, rank):
        self.region = region
        self.rank = rank
        self.start = self.end = None
        self.gpu = self.thread = self.task = self.aw = None
        self.count = 0
        self.excl_stored = -1
        self.source_file = None
        self.source_line = None
        self.tags = ()
        self.agg = None  # aggregate layout: dict of stored figures


def load(path):
    prof = load_raw(path)
    f = h5py.File(path, "r")
    raw = f.attrs.get("scope_profiler_schema")
    prof["schema_attr"] = None if raw is None else int(raw)
    return prof


def load_raw(path):
    f = h5py.File(path, "r")
    raw = f.attrs.get("scope_profiler_schema")
    schema = 1 if raw is None else int(raw)
    layout = text(f.attrs.get("storage_layout", "columnar"))
    meta = dict(f["metadata"].attrs) if "metadata" in f else {}
    rows = []
    names = []
    if schema == 1:
        rank_groups = sorted(
            (int(k[4:]), k) for k in f.keys() if k.startswith("rank") and k[4:].isdigit()
        )
        num_ranks = len(rank_groups)
        index = {}
        for rank, key in rank_groups:
            g = f[key]
            if "regions" not in g:
                continue
            for name in g["regions"].keys():  # h5py: name order
                rg = g["regions"][name]
                if name not in index:
                    index[name] = len(names)
                    names.append(name)
                r = Row(index[name], rank)
                r.start = rg["start_times"][:].astype(np.int64)
                r.end = rg["end_times"][:].astype(np.int64)
                r.count = len(r.start)
                if "gpu_durations" in rg:
                    gd = rg["gpu_durations"][:].astype(np.int64)
                    r.gpu = gd if (gd >= 0).any() else None
                a = rg.attrs
                if "source_file" in a and text(a["source_file"]):
                    r.source_file = text(a["source_file"])
                if "source_lineno" in a and int(a["source_lineno"]) >= 0:
                    r.source_line = int(a["source_lineno"])
                if "tags" in a:
                    r.tags = tuple(text(t) for t in np.atleast_1d(a["tags"]))
                rows.append(r)
        return dict(schema=schema, layout="groups", meta=meta, names=names,
                    rows=rows, num_ranks=num_ranks, has_thread=False)

    names = [text(n) for n in f["region_table/names"][:]]
    idx = f["rank_region_index"]
    rid = idx["region_ids"][:].astype(np.int64)
    rk = idx["ranks"][:].astype(np.int64)
    mpi = meta.get("mpi_size", 1)
    try:
        mpi = int(mpi)
    except (TypeError, ValueError):
        mpi = 1
    num_ranks = max(mpi, int(rk.max()) + 1) if len(rk) else 0
    if layout == "aggregate":
        cnt = idx["aggregate_counts"][:]
        tot = idx["aggregate_totals"][:]
        mn = idx["aggregate_minimums"][:]
        mx = idx["aggregate_maximums"][:]
        ex = idx["aggregate_exclusives"][:]
        for i in range(len(rid)):
            r = Row(int(rid[i]), int(rk[i]))
            r.count = int(cnt[i])
            r.agg = dict(total=int(tot[i]), min=int(mn[i]), max=int(mx[i]))
            r.excl_stored = int(ex[i])
            rows.append(r)
        return dict(schema=schema, layout="aggregate", meta=meta, names=names,
                    rows=rows, num_ranks=num_ranks, has_thread=False)

    off = idx["event_offsets"][:].astype(np.int64)
    cnt = idx["event_counts"][:].astype(np.int64)
    excl = (idx["exclusive_totals"][:].astype(np.int64)
            if "exclusive_totals" in idx else np.full(len(rid), -1))
    lines = idx["source_lines"][:] if "source_lines" in idx else None
    files = idx["source_files"][:] if "source_files" in idx else None
    tags = idx["tags"][:] if "tags" in idx else None
    ev = f["events"]
    if "start_deltas" in ev:
        sd = ev["start_deltas"][:].astype(np.int64)
        du = ev["durations"][:].astype(np.int64)
    else:
        st = ev["start_times"][:].astype(np.int64)
        en = ev["end_times"][:].astype(np.int64)
    col = {k: ev[k][:].astype(np.int64) for k in
           ("gpu_durations", "thread_ids", "task_ids", "await_ns") if k in ev}
    for i in range(len(rid)):
        r = Row(int(rid[i]), int(rk[i]))
        s, n = int(off[i]), int(cnt[i])
        if "start_deltas" in ev:
            r.start = np.cumsum(sd[s:s + n])
            r.end = r.start + du[s:s + n]
        else:
            r.start, r.end = st[s:s + n], en[s:s + n]
        r.count = n
        if "gpu_durations" in col:
            g = col["gpu_durations"][s:s + n]
            r.gpu = g if (g >= 0).any() else None
        if "thread_ids" in col:
            r.thread = col["thread_ids"][s:s + n]
        if "task_ids" in col:
            r.task = col["task_ids"][s:s + n]
        if "await_ns" in col:
            r.aw = col["await_ns"][s:s + n]
        r.excl_stored = int(excl[i])
        if files is not None and text(files[i]):
            r.source_file = text(files[i])
        if lines is not None and int(lines[i]) >= 0:
            r.source_line = int(lines[i])
        if tags is not None:
            r.tags = tuple(json.loads(text(tags[i]) or "[]"))
        rows.append(r)
    return dict(schema=schema, layout="columnar", meta=meta, names=names,
                rows=rows, num_ranks=num_ranks, has_await="await_ns" in col)


# ---- exclusive time, rebuilt as scope-profiler's call_stack does ------------------


def exclusive_of(start, end):
    """Per-call exclusive ns of calls in one lane (any order); returns an
    array parallel to the input."""
    n = start.size
    out = np.zeros(n, dtype=np.int64)
    if n == 0:
        return out
    order = np.lexsort((-end, start))  # stable: ties keep input order
    s, e = start[order], end[order]
    ss, se = s * 2, e * 2
    se[se == ss] += 1
    closed = np.searchsorted(np.sort(se), ss, side="right")
    depth = np.arange(n, dtype=np.int64) - closed
    if depth.min() < 0:
        raise SystemExit("numpy_check: calls not properly nested")
    parent = np.full(n, -1, dtype=np.int64)
    index = np.arange(n, dtype=np.int64)
    cand = np.empty(n, dtype=np.int64)
    for level in range(1, int(depth.max()) + 1):
        np.copyto(cand, index)
        cand[depth != level - 1] = -1
        np.maximum.accumulate(cand, out=cand)
        np.copyto(parent, cand, where=depth == level)
    nested = np.flatnonzero(parent >= 0)
    if (e[parent[nested]] < e[nested]).any():
        raise SystemExit("numpy_check: partial overlap in a lane")
    dur = e - s
    covered = np.zeros(n, dtype=np.int64)
    np.add.at(covered, parent[nested], dur[nested])
    out[order] = dur - covered
    return out


def rebuild_exclusive(prof):
    """Per-row rebuilt exclusive totals (ns), over all regions of each rank,
    lanes separate; rows taken in region order, calls in storage order."""
    by_rank = {}
    for i, r in enumerate(prof["rows"]):
        if r.start is not None:
            by_rank.setdefault(r.rank, []).append(i)
    totals = {}
    for rank, idxs in by_rank.items():
        idxs.sort(key=lambda i: prof["rows"][i].region)
        rows = [prof["rows"][i] for i in idxs]
        start = np.concatenate([r.start for r in rows])
        end = np.concatenate([r.end for r in rows])
        owner = np.concatenate([np.full(r.count, k) for k, r in enumerate(rows)])
        if rows[0].thread is not None or rows[0].task is not None:
            th = (np.concatenate([r.thread for r in rows]) if rows[0].thread is not None
                  else np.full(start.size, -1))
            tk = (np.concatenate([r.task for r in rows]) if rows[0].task is not None
                  else np.full(start.size, -1))
            lane = np.where(tk >= 0, tk, np.where(th < 0, -1, -2 - th))
        else:
            lane = np.full(start.size, -1)
        excl = np.zeros(start.size, dtype=np.int64)
        for ln in np.unique(lane):
            m = np.flatnonzero(lane == ln)
            excl[m] = exclusive_of(start[m], end[m])
        sums = np.zeros(len(rows), dtype=np.int64)
        np.add.at(sums, owner, excl)
        for k, i in enumerate(idxs):
            totals[i] = int(sums[k])
    return totals


# ---- the expected summary --------------------------------------------------------


def row_figs(prof, i, r, rebuilt):
    n = r.count
    out = dict(num_calls=n)
    nulls = ("average_duration", "min_duration", "max_duration", "first_duration",
             "last_duration", "std_duration", "p50_duration", "p95_duration",
             "p99_duration")
    if r.agg is not None:
        out.update({k: None for k in nulls})
        out["total_duration"] = r.agg["total"] / 1e9
        if n:
            out["average_duration"] = r.agg["total"] / n / 1e9
            out["min_duration"] = r.agg["min"] / 1e9
            out["max_duration"] = r.agg["max"] / 1e9
        out["inclusive_duration"] = out["total_duration"]
        out["exclusive_duration"] = (r.excl_stored / 1e9 if r.excl_stored >= 0
                                     else None)
        out["gpu_total_duration"] = None
        out["total_await_duration"] = None
        out["first_start_ns"] = out["last_end_ns"] = None
        return out
    d = r.end - r.start
    out["total_duration"] = float(np.sum(d)) / 1e9 if n else 0.0
    if n:
        p = np.percentile(d, [50, 95, 99])
        out.update(average_duration=float(np.mean(d)) / 1e9,
                   min_duration=float(np.min(d)) / 1e9,
                   max_duration=float(np.max(d)) / 1e9,
                   first_duration=float(d[0]) / 1e9,
                   last_duration=float(d[-1]) / 1e9,
                   std_duration=float(np.std(d)) / 1e9,
                   p50_duration=float(p[0]) / 1e9,
                   p95_duration=float(p[1]) / 1e9,
                   p99_duration=float(p[2]) / 1e9,
                   first_start_ns=int(r.start.min()),
                   last_end_ns=int(r.end.max()))
    else:
        out.update({k: None for k in nulls})
        out["first_start_ns"] = out["last_end_ns"] = None
    out["inclusive_duration"] = out["total_duration"]
    ex = r.excl_stored if r.excl_stored >= 0 else rebuilt.get(i, 0)
    out["exclusive_duration"] = ex / 1e9
    out["gpu_total_duration"] = (float(np.sum(r.gpu)) / 1e9
                                 if r.gpu is not None else None)
    out["total_await_duration"] = (float(np.sum(r.aw)) / 1e9
                                   if r.aw is not None else None)
    return out


def expected(prof, ranks_sel, include, exclude):
    rebuilt = rebuild_exclusive(prof) if prof["layout"] != "aggregate" else {}
    rows = prof["rows"]
    regions = []
    for g, name in enumerate(prof["names"]):
        if include and not any(re.match(p, name) for p in include):
            continue
        if exclude and any(re.match(p, name) for p in exclude):
            continue
        mine = [(i, r) for i, r in enumerate(rows) if r.region == g and
                (ranks_sel is None or r.rank in ranks_sel)]
        per = [(i, r, row_figs(prof, i, r, rebuilt)) for i, r in mine]
        reg = dict(name=name, base=g)
        reg["num_calls"] = sum(r.count for _, r in mine)
        # Totals: Python sums the ranks' seconds.
        reg["total_duration"] = float(sum(f["total_duration"] for _, _, f in per))
        reg["inclusive_duration"] = reg["total_duration"]
        ex = [f["exclusive_duration"] for _, _, f in per]
        reg["exclusive_duration"] = (float(sum(ex)) if all(x is not None for x in ex)
                                     else None)
        gp = [f["gpu_total_duration"] for _, _, f in per
              if f["gpu_total_duration"] is not None]
        reg["gpu_total_duration"] = float(sum(gp)) if gp else None
        aw = [f["total_await_duration"] for _, _, f in per
              if f["total_await_duration"] is not None]
        reg["total_await_duration"] = float(sum(aw)) if aw else None
        timed = [(i, r, f) for i, r, f in per if r.count]
        if prof["layout"] == "aggregate":
            pooled = None
        else:
            pooled = (np.concatenate([r.end - r.start for _, r, _ in timed])
                      if timed else np.zeros(0, dtype=np.int64))
        for k in ("average_duration", "min_duration", "max_duration",
                  "first_duration", "last_duration", "std_duration",
                  "p50_duration", "p95_duration", "p99_duration"):
            reg[k] = None
        if pooled is not None and pooled.size:
            p = np.percentile(pooled, [50, 95, 99])
            reg.update(average_duration=float(np.mean(pooled)) / 1e9,
                       min_duration=float(np.min(pooled)) / 1e9,
                       max_duration=float(np.max(pooled)) / 1e9,
                       std_duration=float(np.std(pooled)) / 1e9,
                       p50_duration=float(p[0]) / 1e9,
                       p95_duration=float(p[1]) / 1e9,
                       p99_duration=float(p[2]) / 1e9)
            # First / last: Python's min/max over ranks with calls, in the
            # file's row order (the first of equals wins), as seconds.
            first = min(timed, key=lambda t: t[1].start.min() / 1e9)
            last = max(timed, key=lambda t: t[1].end.max() / 1e9)
            reg["first_duration"] = first[2]["first_duration"]
            reg["last_duration"] = last[2]["last_duration"]
        elif timed:  # aggregate
            reg["average_duration"] = reg["total_duration"] / reg["num_calls"]
            reg["min_duration"] = min(f["min_duration"] for _, _, f in timed)
            reg["max_duration"] = max(f["max_duration"] for _, _, f in timed)
        totals = [f["total_duration"] for _, _, f in per]
        totals = [t for t in totals if t > 0]
        if len(totals) < 2:
            reg["rank_imbalance_pct"] = 0.0
        else:
            ratio = float(max(totals) / np.mean(totals))
            reg["rank_imbalance_pct"] = (ratio - 1.0) * 100.0 if ratio else 0.0
        byrank = sorted(per, key=lambda t: t[1].rank)
        reg["tags"] = list(byrank[0][1].tags) if byrank else []
        reg["source_file"] = next((r.source_file for _, r, _ in byrank
                                   if r.source_file is not None), None)
        reg["source_lineno"] = next((r.source_line for _, r, _ in byrank
                                     if r.source_line is not None), None)
        ranks = []
        for i, r, f in byrank:
            e = dict(f)
            e["rank"] = r.rank
            e["tags"] = list(r.tags)
            e["source_file"] = r.source_file
            e["source_lineno"] = r.source_line
            ranks.append(e)
        reg["ranks"] = ranks
        # Display key: min over the selected ranks of each rank's first start
        # (0.0 for a rank without calls or stored starts; 0 without ranks).
        keys = [(f["first_start_ns"] or 0) / 1e9 for _, _, f in per]
        reg["_order"] = min(keys) if keys else 0.0
        reg["_first_start"] = min((f["first_start_ns"] for _, _, f in timed
                                   if f["first_start_ns"] is not None), default=None)
        regions.append(reg)
    regions.sort(key=lambda g: g["_order"])  # stable: base order on ties
    starts = [g["_first_start"] for g in regions if g["_first_start"] is not None]
    top = dict(schema=prof["schema_attr"], layout=prof["layout"],
               num_ranks=prof["num_ranks"],
               minimum_start_ns=min(starts) if starts else None)
    # time_origin: start_time_ns when float()-convertible, else the first
    # call of the whole file (not of the selection).
    origin = None
    if "start_time_ns" in prof["meta"]:
        try:
            origin = float(prof["meta"]["start_time_ns"])
        except (TypeError, ValueError):
            origin = None
    if origin is None:
        allstarts = [int(r.start.min()) for r in rows
                     if r.start is not None and r.count]
        origin = min(allstarts) if allstarts else 0
    top["time_origin_ns"] = origin
    return top, regions


SORT_FIGURE = dict(total="total_duration", avg="average_duration",
                   min="min_duration", max="max_duration",
                   first="first_duration", last="last_duration",
                   std="std_duration", p50="p50_duration",
                   p95="p95_duration", p99="p99_duration",
                   exclusive="exclusive_duration")


def sort_regions(regions, key):
    """scope-profiler's summary.region_rows() order for --sort key."""
    if key == "start":
        return
    regions.sort(key=lambda g: g["name"])
    if key == "name":
        return

    def value(g):
        if key == "calls":
            return g["num_calls"]
        if key == "imbalance":
            return g["rank_imbalance_pct"]
        v = g[SORT_FIGURE[key]]
        # A total over no calls is shown as "-" and sorts last.
        if key in ("total", "exclusive") and not g["num_calls"]:
            return None
        return v

    regions.sort(key=lambda g: (value(g) is not None, value(g) or 0),
                 reverse=True)


# ---- comparing -------------------------------------------------------------------

bad = 0


def same(want, got):
    if want is None or got is None:
        return want is None and got is None
    if isinstance(want, bool) or isinstance(got, bool):
        return want == got
    if isinstance(want, (int, np.integer)) and isinstance(got, int):
        return int(want) == got
    if isinstance(want, (list, tuple)):
        return list(want) == list(got)
    if isinstance(want, str) or isinstance(got, str):
        return want == got
    return abs(want - got) <= max(REL * max(abs(want), abs(got)), ABS)


def cmp(where, key, want, got):
    global bad
    if not same(want, got):
        bad += 1
        if bad <= 40:
            print(f"MISMATCH {where} {key}: numpy {want!r}, scopeview {got!r}")


INT_KEYS = ("num_calls", "first_start_ns", "last_end_ns", "rank", "source_lineno")


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    exe, path, opts = sys.argv[1], sys.argv[2], sys.argv[3:]
    ranks_sel, include, exclude, sort = None, [], [], "start"
    i = 0
    while i < len(opts):
        o = opts[i]
        if o in ("--ranks", "--include", "--exclude", "--sort"):
            v = opts[i + 1]
            i += 2
        elif o.split("=", 1)[0] in ("--ranks", "--include", "--exclude",
                                    "--sort"):
            o, v = o.split("=", 1)
            i += 1
        else:
            print(f"numpy_check: unknown option {o}")
            return 2
        if o == "--sort":
            sort = v
        elif o == "--ranks":
            ranks_sel = parse_ranks(v)
        elif o == "--include":
            include.append(v)
        else:
            exclude.append(v)
    run = subprocess.run([exe, "summary", "--format", "json", *opts, path],
                         capture_output=True)
    if run.returncode != 0:
        print(f"numpy_check: scopeview exited {run.returncode}: "
              f"{run.stderr.decode(errors='replace')}")
        return 1
    got = json.loads(run.stdout)
    prof = load(path)
    top, regions = expected(prof, ranks_sel, include, exclude)
    sort_regions(regions, sort)
    for k, v in top.items():
        cmp("run", k, v, got.get(k))
    names_want = [g["name"] for g in regions]
    names_got = [g["name"] for g in got["regions"]]
    if names_want != names_got:
        cmp("run", "region order", names_want, names_got)
        return 1
    for w, g in zip(regions, got["regions"]):
        where = f"region {w['name']!r}"
        for k, v in w.items():
            if k.startswith("_") or k in ("base", "ranks"):
                continue
            cmp(where, k, v, g.get(k, "<absent>"))
        if len(w["ranks"]) != len(g["ranks"]):
            cmp(where, "ranks", [r["rank"] for r in w["ranks"]],
                [r["rank"] for r in g["ranks"]])
            continue
        for wr, gr in zip(w["ranks"], g["ranks"]):
            for k, v in wr.items():
                cmp(f"{where} rank {wr['rank']}", k, v, gr.get(k, "<absent>"))
    nfig = sum(1 + len(g["ranks"]) for g in regions)
    if bad:
        print(f"numpy_check: {bad} mismatches in {path} {' '.join(opts)}")
        return 1
    print(f"ok {path} {' '.join(opts)}: {len(regions)} regions, {nfig} rows "
          f"agree with numpy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
