"""formats_check.py: a file `scopeview convert` wrote, read with h5py and
checked against its input (a directory of .spt traces and per-rank .h5
files, or a JSON profile), the way scope-profiler's read_h5 would read it.

usage: formats_check.py OUT.h5 (--native DIR | --json FILE)
Prints what differs and exits 1, or exits 0.
"""
import gzip
import json
import os
import struct
import sys

import h5py
import numpy as np


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def read_spt(path):
    """rank, {name: (starts, ends, source_file, line)} from the layout."""
    b = open(path, "rb").read()
    assert b[:8] == b"SCOPEPRF"
    order = "<" if struct.unpack("<i", b[8:12])[0] in (1, 2) else ">"
    version, rank = struct.unpack(order + "ii", b[8:16])
    (n,) = struct.unpack(order + "q", b[16:24])
    at, out = 24, {}
    for _ in range(n):
        (ln,) = struct.unpack(order + "i", b[at:at + 4])
        name = b[at + 4:at + 4 + ln].decode()
        at += 4 + ln
        src, line = None, -1
        if version >= 2:
            (sl,) = struct.unpack(order + "i", b[at:at + 4])
            src = b[at + 4:at + 4 + sl].decode() or None
            at += 4 + sl
            (line,) = struct.unpack(order + "i", b[at:at + 4])
            at += 4
        (c,) = struct.unpack(order + "q", b[at:at + 8])
        at += 8
        s = np.frombuffer(b, dtype=order + "i8", count=c, offset=at)
        e = np.frombuffer(b, dtype=order + "i8", count=c, offset=at + 8 * c)
        at += 16 * c
        out[name] = (s.astype(np.int64), e.astype(np.int64), src, line)
    return rank, out


def read_rank_h5(path):
    out = {}
    with h5py.File(path, "r") as f:
        names = [n.decode() if isinstance(n, bytes) else n
                 for n in f["region_table/names"][:]]
        ix = f["rank_region_index"]
        ev = f["events"]
        starts = ev["start_times"][:]
        ends = ev["end_times"][:]
        for r in range(len(ix["region_ids"])):
            o, c = int(ix["event_offsets"][r]), int(ix["event_counts"][r])
            out.setdefault(int(ix["ranks"][r]), {})[
                names[ix["region_ids"][r]]] = (starts[o:o + c], ends[o:o + c])
    return out


def decoded(f):
    """{(rank, name): (starts, ends)} of a schema-3 file."""
    names = [n.decode() if isinstance(n, bytes) else n
             for n in f["region_table/names"][:]]
    ix = f["rank_region_index"]
    deltas = f["events/start_deltas"][:]
    durs = f["events/durations"][:]
    out = {}
    for r in range(len(ix["region_ids"])):
        o, c = int(ix["event_offsets"][r]), int(ix["event_counts"][r])
        s = np.cumsum(deltas[o:o + c], dtype=np.int64)
        out[(int(ix["ranks"][r]), names[ix["region_ids"][r]])] = (
            s, s + durs[o:o + c], r)
    return out


def check_layout(f):
    if int(f.attrs["scope_profiler_schema"]) != 3:
        fail("schema is not 3")
    ix = f["rank_region_index"]
    for need in ("summary_statistics", "exclusive_totals"):
        if need not in ix:
            fail("no " + need)
    n = f["events/durations"].shape[0]
    for name in ("start_deltas", "durations"):
        d = f["events/" + name]
        if n >= 16384:
            if d.compression != "gzip" or d.compression_opts != 4 \
                    or not d.shuffle:
                fail(f"{name}: {n} events but not shuffle + gzip 4")
        elif d.chunks is not None:
            fail(f"{name}: {n} events, yet chunked")
    # stored statistics as the writer computes them
    sm = ix["summary_statistics"][:]
    ex = ix["exclusive_totals"][:]
    dec = decoded(f)
    for (rank, name), (s, e, r) in dec.items():
        d = e - s
        if len(d) == 0:
            continue
        if sm["total"][r] != d.sum() or sm["minimum"][r] != d.min() \
                or sm["maximum"][r] != d.max() or sm["first"][r] != d[0] \
                or sm["last"][r] != d[-1]:
            fail(f"summary_statistics of {name} rank {rank}")
        if sm["mean"][r] != np.mean(d) or sm["m2"][r] != np.var(d) * len(d):
            fail(f"mean/m2 of {name} rank {rank}")
        if ex[r] < 0:
            fail(f"no exclusive total for {name} rank {rank}")
    return dec


def main():
    out, kind, src = sys.argv[1], sys.argv[2], sys.argv[3]
    with h5py.File(out, "r") as f:
        dec = check_layout(f)
        meta = dict(f["metadata"].attrs)
    want = {}
    if kind == "--native":
        for fn in sorted(os.listdir(src)):
            p = os.path.join(src, fn)
            if fn.endswith(".spt"):
                rank, regs = read_spt(p)
                for name, (s, e, _, _) in regs.items():
                    want[(rank, name)] = (s, e)
            elif fn.endswith(".h5") and "_rank" in fn:
                for rank, regs in read_rank_h5(p).items():
                    for name, (s, e) in regs.items():
                        want[(rank, name)] = (s, e)
        if meta.get("source") not in ("native", b"native"):
            fail("metadata source is not native")
        first = min(int(s[0]) for s, _ in want.values() if len(s))
        if int(meta["start_time_ns"]) != first:
            fail("start_time_ns is not the earliest first start")
    else:
        opener = gzip.open if src.endswith(".gz") else open
        with opener(src, "rt") as fh:
            doc = json.load(fh)
        for row in doc["regions"]:
            want[(int(row["rank"]), row["name"])] = (
                np.asarray(row.get("start_times_ns", ()), dtype=np.int64),
                np.asarray(row.get("end_times_ns", ()), dtype=np.int64))
    if set(want) != set(dec):
        fail(f"rows differ: {sorted(set(want) ^ set(dec))[:5]}")
    for key, (s, e) in want.items():
        ds, de, _ = dec[key]
        if not (np.array_equal(s, ds) and np.array_equal(e, de)):
            fail(f"calls of {key} differ")
    print(f"ok: {out}: {len(want)} rows, "
          f"{sum(len(s) for s, _ in want.values())} calls as in {src}")


main()
