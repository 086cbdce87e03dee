#!/usr/bin/python3
"""groupby_check.py: `scopeview summary --group-by KEY` against numpy.

    groupby_check.py SCOPEVIEW IN.h5 WORKDIR

Copies IN.h5 (a schema 3 file from `scopeview gen`) and adds
/rank_region_index/event_metadata the way scope-profiler 0.7 writes it
(json.dumps of one list per row: one object per call, "[]" for a row
without metadata, and "" for some rows), once as variable-length and once
as fixed-length NUL-padded UTF-8 strings.  Then runs `summary --format
json --group-by KEY` for a string key, an integer key and a key most calls
lack, and checks every group of every region against numpy over the raw
columns: the group values, num_calls, total, average, min, max, std
(ddof 0) and the 50/95/99th percentiles (numpy 'linear'), with the calls
without the key in the group whose value is null.  Groups are the keys of
a Python dict (1, 1.0 and true are one group; the key "level" mixes such
values).

Prints one line per problem and exits 1 if there was any.
"""

import json
import shutil
import subprocess
import sys

import h5py
import numpy as np

problems = []


def bad(msg):
    problems.append(msg)
    print("FAIL:", msg)


# Values of the "level" key (with mixed=True): numbers and booleans that
# Python's dict takes as one key (1, 1.0, True; 0, -0.0, False) and ones it
# does not (2, 2.5, "1").
LEVELS = ["1", "1.0", "true", "2", "2.5", "\"1\"", "0", "-0.0", "false",
          "1e0"]


def write_metadata(src, dst, fixed, mixed=False):
    shutil.copy(src, dst)
    rng = np.random.default_rng(11)
    texts = []
    with h5py.File(dst, "r+") as f:
        counts = f["rank_region_index/event_counts"][()]
        for r, n in enumerate(counts):
            if r % 7 == 3:
                texts.append("[]")
                continue
            if r % 7 == 5:
                texts.append("")
                continue
            calls = []
            for k in range(int(n)):
                m = {}
                if rng.random() < 0.8:
                    m["phase"] = ["steady", "warm\u00e9", "cool"][
                        int(rng.integers(3))]
                m["iter"] = int(k % 4)
                if rng.random() < 0.1:
                    m["rare"] = {"x": [1, None]}
                if mixed:
                    m["level"] = json.loads(LEVELS[(k + r) % len(LEVELS)])
                calls.append(m)
            texts.append(json.dumps(calls))
        g = f["rank_region_index"]
        if fixed:
            size = max(len(t.encode()) for t in texts) + 3
            dt = h5py.string_dtype("utf-8", size)
            g.create_dataset("event_metadata", data=[
                t.encode() for t in texts], dtype=dt)
        else:
            g.create_dataset("event_metadata", data=texts,
                             dtype=h5py.string_dtype("utf-8"))
    return texts


MISSING = ("missing",)


def group_key(v):
    """The key a value is grouped by: the value itself, as a Python dict
    takes it (1 == 1.0 == True), or its JSON text when it cannot be a key
    (lists, objects)."""
    try:
        hash(v)
        return v
    except TypeError:
        return ("json", json.dumps(v, separators=(",", ":")))


def expected(path, texts, key):
    """region name -> {group_key(value) or MISSING: durations (ns)}"""
    with h5py.File(path, "r") as f:
        names = [n.decode() if isinstance(n, bytes) else n
                 for n in f["region_table/names"][()]]
        ix = f["rank_region_index"]
        regions = ix["region_ids"][()]
        offsets = ix["event_offsets"][()]
        counts = ix["event_counts"][()]
        dur = f["events/durations"][()]
    out = {}
    for r in range(len(counts)):
        lst = json.loads(texts[r]) if texts[r] else []
        d = dur[offsets[r]:offsets[r] + counts[r]]
        groups = out.setdefault(names[regions[r]], {})
        for k in range(int(counts[r])):
            vk = group_key(lst[k][key]) if lst and key in lst[k] \
                else MISSING
            groups.setdefault(vk, []).append(int(d[k]))
    return out


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def check(exe, path, texts, key):
    run = subprocess.run([exe, "summary", "--format", "json", "--group-by",
                          key, path], capture_output=True)
    if run.returncode != 0:
        bad(f"{path} --group-by {key}: exit {run.returncode}: "
            f"{run.stderr.decode(errors='replace')}")
        return 0
    got = json.loads(run.stdout)
    if got.get("group_by") != key:
        bad(f"group_by is {got.get('group_by')!r}, not {key!r}")
    want = expected(path, texts, key)
    n = 0
    for reg in got["regions"]:
        w = want.get(reg["name"], {})
        gg = {group_key(g["value"]) if g["value"] is not None else MISSING: g
              for g in reg["groups"]}
        if len(gg) != len(reg["groups"]):
            bad(f"{reg['name']} by {key}: two groups of one value")
        if set(gg) != set(w):
            bad(f"{reg['name']} by {key}: groups {sorted(map(str, gg))}, "
                f"want {sorted(map(str, w))}")
            continue
        for v, d in w.items():
            d = np.array(d, dtype=np.int64)
            g = gg[v]
            p = np.percentile(d, [50, 95, 99])
            figs = dict(num_calls=len(d), total_duration=d.sum() / 1e9,
                        average_duration=d.mean() / 1e9,
                        min_duration=d.min() / 1e9,
                        max_duration=d.max() / 1e9,
                        std_duration=float(np.std(d)) / 1e9,
                        p50_duration=p[0] / 1e9, p95_duration=p[1] / 1e9,
                        p99_duration=p[2] / 1e9)
            for name, x in figs.items():
                if name == "num_calls":
                    ok = g[name] == x
                else:
                    ok = close(g[name], float(x))
                if not ok:
                    bad(f"{reg['name']} {key}={v}: {name} {g[name]}, "
                        f"want {x}")
            n += 1
    return n


def main(argv):
    if len(argv) != 4:
        print(__doc__)
        return 2
    exe, src, work = argv[1:]
    groups = 0
    for fixed in (False, True):
        dst = f"{work}/groupby_{'fixed' if fixed else 'vlen'}.h5"
        texts = write_metadata(src, dst, fixed, mixed=True)
        for key in ("phase", "iter", "rare", "level"):
            groups += check(exe, dst, texts, key)
    if groups < 20:
        bad(f"only {groups} groups checked")
    print(f"{'FAIL' if problems else 'ok'}   summary --group-by: {groups} "
          f"groups checked against numpy")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
