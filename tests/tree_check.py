"""tree_check.py: an independent check of `scopeview tree --format json`
and `scopeview export --format collapsed`.

Usage: /usr/bin/python3 tree_check.py EXE FILE.h5 [--ranks LIST]
           [--range T0:T1] [--expand-recursion] [--include RE]...
           [--exclude RE]...

Reads FILE.h5's raw columns with h5py (numpy_check.load_raw), nests every
lane's calls with scope-profiler's rule (doc/format.md 9.3: sort by start
ascending, end descending, then region display position and storage
order; a call closes at its end, a zero-length call stays open at its
start; a child is charged to its parent only for the part the parent
covers), and builds the call paths here, call by call, without any of
scopeview's C code:

 - a call's path is its ancestors' regions, root first, then its own;
   with recursion collapsed (the default) a call of a region already open
   on its lane joins the node of the outermost open call of that region,
   the node is marked recursive and only outermost calls (entries) count
   for inclusive, min, max and average (inclusive // entries);
 - with --range the range [t0_ns, t1_ns) that scopeview reports is used,
   every call counts with the part of its time inside it, a call counts
   when it meets the range (a zero-length one when it lies inside), and
   exclusive is the clipped time minus the clipped parts its children
   cover;
 - pct is 100 * inclusive / the sum of the roots' inclusive time;
 - --include and --exclude (Python's re.match on region names: anchored at
   the start) only choose which nodes are printed, never their figures: a
   node is left out when a region on its path matches an exclude pattern,
   and, given includes, kept only when a region on its path or on the path
   of a node below it that is not left out matches one.

Then compares every node of the JSON (paths, figures exactly, pct within
1e-9, the recursive flag without a range, children by inclusive time
largest first) and, without a range or options other than --ranks, the
folded stacks of `export --format collapsed` (expanded recursion, one
line per stack with self time above 0, names escaped as --help says).

Exit status: 0 all agree, 1 a mismatch (each printed), 2 usage.
"""

import json
import os
import re
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy_check  # noqa: E402


def lanes_of(prof, ranks):
    """Per lane: (start, end, region, storage index) arrays, each lane in
    nesting order."""
    rows = [r for r in prof["rows"] if r.start is not None and r.count]
    if not rows:
        return []
    first = {}
    for r in rows:
        s = int(r.start.min())
        first[r.region] = min(first.get(r.region, s), s)
    nreg = len(prof["names"])
    order = sorted(range(nreg), key=lambda g: (first.get(g, 0), g))
    pos = np.empty(nreg, dtype=np.int64)
    pos[order] = np.arange(nreg)
    start = np.concatenate([r.start for r in rows])
    end = np.concatenate([r.end for r in rows])
    region = np.concatenate([np.full(r.count, r.region) for r in rows])
    rank = np.concatenate([np.full(r.count, r.rank) for r in rows])
    th = np.concatenate([r.thread if r.thread is not None
                         else np.full(r.count, -1) for r in rows])
    tk = np.concatenate([r.task if r.task is not None
                         else np.full(r.count, -1) for r in rows])
    key = np.where(tk >= 0, tk, np.where(th < 0, -1, -2 - th))
    idx = np.arange(start.size)
    out = []
    for rk in sorted(set(rank.tolist())):
        if ranks is not None and rk not in ranks:
            continue
        for ln in np.unique(key[rank == rk]):
            m = np.flatnonzero((rank == rk) & (key == ln))
            o = np.lexsort((idx[m], pos[region[m]], -end[m], start[m]))
            m = m[o]
            out.append((start[m], end[m], region[m]))
    return out


def build(prof, ranks, expand, rng):
    """{path tuple: dict of figures} and the tree's total."""
    nodes = {}
    names = prof["names"]

    def clip(s, e):
        if rng is None:
            return e - s
        a, b = max(s, rng[0]), min(e, rng[1])
        return b - a if b > a else 0

    def meets(s, e):
        if rng is None:
            return True
        if e <= s:
            return rng[0] <= s < rng[1]
        return s < rng[1] and e > rng[0]

    def node(path):
        if path not in nodes:
            nodes[path] = dict(calls=0, entries=0, incl=0, excl=0, min=0,
                               max=0, rec=False)
            if len(path) > 1:
                node(path[:-1])
        return nodes[path]

    for start, end, region in lanes_of(prof, ranks):
        start, end, region = start.tolist(), end.tolist(), region.tolist()
        stack = []  # (call, path, region)
        open_path = {}  # region -> path of the outermost open call
        excl = {}
        for c in range(len(start)):
            s, e = start[c], end[c]
            while stack:
                top = stack[-1][0]
                ts, te = start[top], end[top]
                closed = ts < s if te <= ts else te <= s
                if not closed:
                    break
                _, _, rg = stack.pop()
                if not any(x[2] == rg for x in stack):
                    del open_path[rg]
            r = region[c]
            nested = r in open_path
            parent_path = stack[-1][1] if stack else ()
            if nested and not expand:
                path = open_path[r]
            else:
                path = parent_path + (names[r],)
            entry = not nested or expand
            if meets(s, e):
                n = node(path)
                n["rec"] = n["rec"] or nested
                d = clip(s, e)
                n["calls"] += 1
                if entry:
                    if n["entries"] == 0 or d < n["min"]:
                        n["min"] = d
                    if n["entries"] == 0 or d > n["max"]:
                        n["max"] = d
                    n["entries"] += 1
                    n["incl"] += d
                own = d if rng is not None else (e - s)
                excl[c] = (path, own)
            if stack:
                par = stack[-1][0]
                pe = end[par]
                ce = pe if (e > pe and pe >= start[par]) else e
                covered = clip(s, ce) if rng is not None else (
                    (ce - s) if (e > pe and pe >= start[par]) else (e - s))
                if covered > 0 and par in excl:
                    pp, v = excl[par]
                    excl[par] = (pp, v - covered)
            stack.append((c, path, r))
            if r not in open_path:
                open_path[r] = path
        for path, v in excl.values():
            nodes[path]["excl"] += v
    total = sum(n["incl"] for p, n in nodes.items() if len(p) == 1)
    return nodes, total


def shown(path, nodes, inc, exc):
    """Whether the node of path passes --include / --exclude."""
    def hit(pats, names):
        return any(r.match(x) for r in pats for x in names)

    if hit(exc, path):
        return False
    if not inc or hit(inc, path):
        return True
    n = len(path)
    return any(len(q) > n and q[:n] == path and hit(inc, q[n:]) and
               not hit(exc, q) for q in nodes)


def escape(name):
    return (name.replace("\\", "\\\\").replace(";", "\\x3b")
            .replace("\n", "\\n").replace("\r", "\\r"))


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    exe, path, opts = sys.argv[1], sys.argv[2], sys.argv[3:]
    ranks, expand, rng_spec = None, False, None
    inc, exc = [], []
    i = 0
    while i < len(opts):
        if opts[i] == "--ranks":
            ranks = numpy_check.parse_ranks(opts[i + 1])
            i += 2
        elif opts[i] == "--range":
            rng_spec = opts[i + 1]
            i += 2
        elif opts[i] in ("--include", "--exclude"):
            (inc if opts[i] == "--include" else exc).append(
                re.compile(opts[i + 1]))
            i += 2
        elif opts[i] == "--expand-recursion":
            expand = True
            i += 1
        else:
            print("tree_check: unknown option", opts[i])
            return 2
    prof = numpy_check.load_raw(path)
    got = json.loads(subprocess.run([exe, "tree", "--format", "json"] + opts
                                    + [path], check=True,
                                    capture_output=True).stdout)
    rng = None
    if rng_spec is not None:
        rng = (got["scope"]["range"]["t0_ns"], got["scope"]["range"]["t1_ns"])
    want, total = build(prof, ranks, expand, rng)
    if inc or exc:
        want = {p: w for p, w in want.items() if shown(p, want, inc, exc)}
    bad = []

    def walk(n, parent_incl):
        p = tuple(n["path"])
        w = want.get(p)
        if w is None:
            bad.append("MISMATCH extra node %r" % (p,))
            return
        w["seen"] = True
        avg = w["incl"] // w["entries"] if w["entries"] else 0
        pct = 100.0 * w["incl"] / total if total > 0 else 0.0
        for k, v in (("num_calls", w["calls"]), ("inclusive_ns", w["incl"]),
                     ("exclusive_ns", w["excl"]), ("min_ns", w["min"]),
                     ("max_ns", w["max"]), ("average_ns", avg)):
            if n[k] != v:
                bad.append("MISMATCH %r %s: want %r got %r" % (p, k, v, n[k]))
        if abs(n["pct"] - pct) > 1e-9 * max(1.0, pct):
            bad.append("MISMATCH %r pct: want %r got %r" % (p, pct, n["pct"]))
        if n["inclusive"] != n["inclusive_ns"] / 1e9 and abs(
                n["inclusive"] - n["inclusive_ns"] / 1e9) > 1e-15:
            bad.append("MISMATCH %r inclusive seconds" % (p,))
        if rng is None and n["recursive"] != w["rec"]:
            bad.append("MISMATCH %r recursive: want %r" % (p, w["rec"]))
        incl = [c["inclusive_ns"] for c in n["children"]]
        if incl != sorted(incl, reverse=True):
            bad.append("MISMATCH %r children not by inclusive" % (p,))
        for c in n["children"]:
            walk(c, n["inclusive_ns"])

    for root in got["roots"]:
        walk(root, None)
    for p, w in want.items():
        if "seen" not in w:
            bad.append("MISMATCH missing node %r %r" % (p, w))
    if got["scope"]["total_ns"] != total:
        bad.append("MISMATCH total: want %d got %d" % (total,
                                                       got["scope"]["total_ns"]))
    checked = len(want)
    if rng is None and not expand and not inc and not exc:
        cmd = [exe, "export", "--format", "collapsed"]
        if ranks is not None:
            cmd += opts[opts.index("--ranks"):opts.index("--ranks") + 2]
        out = subprocess.run(cmd + [path], check=True,
                             capture_output=True).stdout.decode("utf-8")
        full, _ = build(prof, ranks, True, None)
        lines = {";".join(escape(x) for x in p): w["excl"]
                 for p, w in full.items() if w["excl"] > 0}
        seen = {}
        for line in out.split("\n")[:-1]:
            stack, _, v = line.rpartition(" ")
            seen[stack] = int(v)
        if seen != lines:
            for k in sorted(set(seen) | set(lines)):
                if seen.get(k) != lines.get(k):
                    bad.append("MISMATCH collapsed %r: want %r got %r" %
                               (k, lines.get(k), seen.get(k)))
        checked += len(lines)
    for b in bad[:40]:
        print(b)
    if bad:
        print("tree_check: %d mismatches in %s %s" % (len(bad), path,
                                                    " ".join(opts)))
        return 1
    print("ok   tree_check %s %s (%d nodes and stacks)" % (
        os.path.basename(path), " ".join(opts), checked))
    return 0


if __name__ == "__main__":
    sys.exit(main())
