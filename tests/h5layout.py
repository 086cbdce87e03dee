#!/usr/bin/python3
"""h5layout.py: check files written by `scopeview gen` with h5py and numpy.

    h5layout.py compare FIXTURE.h5 OURS.h5 [--skip-rank-groups]
        every dataset and attribute FIXTURE has must exist in OURS with the
        same HDF5 type class, size, sign, string kind (variable or fixed
        length) and character set; compound members likewise.
    h5layout.py verify OURS.h5 [--compressed | --uncompressed]
        decode a schema-2/3 file the way scope-profiler's reader does and
        check what its writer would have stored: summary statistics equal
        numpy's figures exactly (mean and m2 bit for bit), exclusive totals
        equal a per-lane nesting rebuilt here with scope-profiler's rule,
        rows tile the event columns, tags are JSON arrays, optional columns
        are as long as the event columns, and the storage follows the
        publish step (<= 64 KiB contiguous and fixed, larger chunked and
        unlimited; with --compressed the event columns carry shuffle +
        deflate 4, with --uncompressed no filter at all).
    h5layout.py recompress IN.h5 OUT.h5 [--shuffle]
        copy IN to OUT with every dataset of more than one element stored
        chunked and compressed with h5py's own LZF filter (HDF5 filter
        32000), shuffled first with --shuffle: what a user gets from
        scope-profiler's compression="lzf".

Prints one line per problem and exits 1 if there was any.
"""

import json
import sys

import h5py
import numpy as np

problems = []


def bad(msg):
    problems.append(msg)
    print("FAIL:", msg)


def type_key(tid):
    """The properties of an HDF5 type that must agree."""
    cls = tid.get_class()
    key = {"class": cls, "size": tid.get_size()}
    if cls == h5py.h5t.INTEGER:
        key["sign"] = tid.get_sign()
        key["order"] = tid.get_order()
    elif cls == h5py.h5t.FLOAT:
        key["order"] = tid.get_order()
    elif cls == h5py.h5t.STRING:
        key["vlen"] = tid.is_variable_str()
        key["cset"] = tid.get_cset()
        if key["vlen"]:
            del key["size"]
        else:
            key["size"] = "fixed"
    elif cls == h5py.h5t.COMPOUND:
        key["members"] = [
            (tid.get_member_name(i).decode(), tid.get_member_offset(i),
             tuple(sorted(type_key(tid.get_member_type(i)).items())))
            for i in range(tid.get_nmembers())
        ]
    elif cls == h5py.h5t.ENUM:
        key["base"] = tuple(sorted(type_key(tid.get_super()).items()))
    return key


def collect(f, skip_rank_groups):
    """path -> (kind, type key, rank of shape) for datasets and attrs."""
    out = {}

    def attrs(path, obj):
        for name in obj.attrs:
            aid = h5py.h5a.open(obj.id, name.encode())
            space = aid.get_space()
            out[f"{path}@{name}"] = ("attr", type_key(aid.get_type()),
                                     space.get_simple_extent_ndims())

    attrs("/", f)

    def visit(name, obj):
        if skip_rank_groups and name.startswith("rank"):
            return
        path = "/" + name
        if isinstance(obj, h5py.Dataset):
            out[path] = ("dataset", type_key(obj.id.get_type()), obj.ndim)
        attrs(path, obj)

    f.visititems(visit)
    return out


def compare(fixture, ours, skip_rank_groups):
    with h5py.File(fixture, "r") as a, h5py.File(ours, "r") as b:
        want = collect(a, skip_rank_groups)
        have = collect(b, False)
    for path, (kind, key, ndim) in sorted(want.items()):
        if path not in have:
            bad(f"{ours}: {kind} {path} (in {fixture}) is missing")
            continue
        hkind, hkey, hndim = have[path]
        if hkind != kind or hkey != key or hndim != ndim:
            bad(f"{ours}: {path}: {hkind} {hkey} ndim {hndim}, but "
                f"{fixture} has {kind} {key} ndim {ndim}")
    print(f"compared {len(want)} objects of {fixture} with {ours}")


def lane_keys(thread, task):
    return np.where(task >= 0, task, np.where(thread < 0, -1, -2 - thread))


def rank_exclusive(start, end, lane, row, order_index, nrows):
    """scope-profiler's nesting, per lane, with numpy (call_stack.py)."""
    totals = np.zeros(nrows, dtype=np.int64)
    for key in np.unique(lane):
        sel = np.flatnonzero(lane == key)
        s, e, r, idx = start[sel], end[sel], row[sel], order_index[sel]
        order = np.lexsort((idx, -e, s))
        s, e, r = s[order], e[order], r[order]
        n = s.size
        s2, e2 = s * 2, e * 2
        e2[e2 == s2] += 1
        closed = np.searchsorted(np.sort(e2), s2, side="right")
        depth = np.arange(n) - closed
        if n and depth.min() < 0:
            return None
        parent = np.full(n, -1)
        index = np.arange(n)
        for level in range(1, int(depth.max(initial=0)) + 1):
            cand = np.where(depth == level - 1, index, -1)
            cand = np.maximum.accumulate(cand)
            parent = np.where(depth == level, cand, parent)
        nested = np.flatnonzero(parent >= 0)
        if np.any(e[parent[nested]] < e[nested]):
            return None
        dur = e - s
        covered = np.zeros(n, dtype=np.int64)
        np.add.at(covered, parent[nested], dur[nested])
        np.add.at(totals, r, dur - covered)
    return totals


def check_storage(ds, compressed):
    nbytes = ds.size * ds.dtype.itemsize
    is_event = ds.name.startswith("/events/")
    if ds.chunks is None:
        if ds.maxshape != ds.shape:
            bad(f"{ds.name}: contiguous but maxshape {ds.maxshape}")
        if nbytes > 64 * 1024:
            bad(f"{ds.name}: {nbytes} bytes stored contiguously")
    else:
        if ds.maxshape != (None,):
            bad(f"{ds.name}: chunked but maxshape {ds.maxshape}")
        want = 1024 if (is_event or "_table/" in ds.name
                        and not ds.name.startswith("/region_table")) else 256
        if ds.chunks != (want,):
            bad(f"{ds.name}: chunks {ds.chunks}, expected ({want},)")
    if compressed is True and is_event:
        if ds.compression != "gzip" or ds.compression_opts != 4 \
                or not ds.shuffle:
            bad(f"{ds.name}: expected shuffle + deflate 4, got "
                f"{ds.compression} {ds.compression_opts} {ds.shuffle}")
    if compressed is False and (ds.compression or ds.shuffle):
        bad(f"{ds.name}: filters on an uncompressed file")


def verify(path, compressed):
    with h5py.File(path, "r") as f:
        schema = int(f.attrs["scope_profiler_schema"])
        if f.attrs["scope_profiler_schema"].dtype != np.int64:
            bad("scope_profiler_schema is not int64")
        if f.attrs["storage_layout"] != "columnar":
            bad("storage_layout is not columnar")
        ev = f["events"]
        idx = f["rank_region_index"]
        names = [n.decode() if isinstance(n, bytes) else n
                 for n in f["region_table/names"][()]]
        if schema == 3:
            deltas = ev["start_deltas"][()]
            durs = ev["durations"][()]
            nev = deltas.size
            start = np.empty(nev, dtype=np.int64)
        else:
            start = ev["start_times"][()]
            end = ev["end_times"][()]
            nev = start.size
        cols = {}
        for name in ("gpu_durations", "call_ids", "parent_ids", "thread_ids",
                     "task_ids", "await_ns"):
            if name in ev:
                cols[name] = ev[name][()]
                if cols[name].size != nev or cols[name].dtype != np.int64:
                    bad(f"/events/{name}: {cols[name].size} int64 values "
                        f"expected {nev}")
        offsets = idx["event_offsets"][()]
        counts = idx["event_counts"][()]
        ranks = idx["ranks"][()]
        region_ids = idx["region_ids"][()]
        excl = idx["exclusive_totals"][()]
        summ = idx["summary_statistics"][()]
        tags = idx["tags"][()]
        nrows = offsets.size
        if schema == 3:
            for r in range(nrows):
                s, n = int(offsets[r]), int(counts[r])
                start[s:s + n] = np.cumsum(deltas[s:s + n])
            end = start + durs
        covered = 0
        for r in range(nrows):
            if int(offsets[r]) != covered:
                bad(f"row {r}: offset {offsets[r]}, expected {covered}")
            covered += int(counts[r])
            if int(region_ids[r]) >= len(names):
                bad(f"row {r}: region id {region_ids[r]} out of range")
            t = json.loads(tags[r])
            if not isinstance(t, list):
                bad(f"row {r}: tags {tags[r]!r} is not a JSON array")
        if covered != nev:
            bad(f"rows cover {covered} events of {nev}")
        # Summary statistics, exactly as h5writer._timing_summary.
        for r in range(nrows):
            s, n = int(offsets[r]), int(counts[r])
            st, en = start[s:s + n], end[s:s + n]
            d = en - st
            rec = summ[r]
            if n:
                exp = {
                    "total": int(np.sum(d, dtype=np.int64)),
                    "minimum": int(d.min()), "maximum": int(d.max()),
                    "first": int(d[0]), "last": int(d[-1]),
                    "start_minimum": int(st.min()),
                    "end_maximum": int(en.max()),
                    "mean": float(np.mean(d, dtype=np.float64)),
                    "m2": float(np.var(d, dtype=np.float64)) * n,
                }
            else:
                exp = dict.fromkeys(("total", "minimum", "maximum", "first",
                                     "last", "start_minimum",
                                     "end_maximum", "mean", "m2"), 0)
            gpu_count = gpu_total = 0
            if "gpu_durations" in cols:
                g = cols["gpu_durations"][s:s + n]
                valid = g[g >= 0]
                gpu_count, gpu_total = valid.size, int(valid.sum())
            exp["gpu_count"], exp["gpu_total"] = gpu_count, gpu_total
            for k, v in exp.items():
                got = rec[k].item()
                if got != v:
                    bad(f"row {r} ({names[region_ids[r]]}): summary {k} "
                        f"= {got!r}, numpy says {v!r}")
        # Exclusive totals, per rank and lane.
        row_of = np.repeat(np.arange(nrows), counts.astype(np.int64))
        thread = cols.get("thread_ids", np.full(nev, -1, dtype=np.int64))
        task = cols.get("task_ids", np.full(nev, -1, dtype=np.int64))
        lane = lane_keys(thread, task)
        stored_any = False
        for rank in np.unique(ranks):
            rows = np.flatnonzero(ranks == rank)
            sel = np.flatnonzero(np.isin(row_of, rows))
            totals = rank_exclusive(start[sel], end[sel], lane[sel],
                                    row_of[sel], sel, nrows)
            for r in rows:
                if excl[r] < 0:
                    continue
                stored_any = True
                if totals is None:
                    bad(f"rank {rank}: calls do not nest, but row {r} "
                        f"stores exclusive {excl[r]}")
                elif totals[r] != excl[r]:
                    bad(f"row {r} ({names[region_ids[r]]}, rank {rank}): "
                        f"exclusive_totals {excl[r]}, rebuilt "
                        f"{totals[r]}")
        # Call ids: unique within a rank; a parent has a smaller id.
        if "call_ids" in cols:
            ids, parents = cols["call_ids"], cols["parent_ids"]
            for rank in np.unique(ranks):
                rows = np.flatnonzero(ranks == rank)
                sel = np.isin(row_of, rows)
                if np.unique(ids[sel]).size != ids[sel].size:
                    bad(f"rank {rank}: call ids are not unique")
                p = parents[sel]
                if np.any((p >= 0) & (p >= ids[sel])):
                    bad(f"rank {rank}: a parent id is not below its child")
        if "gpu_durations" in cols:
            g = cols["gpu_durations"]
            dur = end - start
            has = g >= 0
            if np.any(g[has] > dur[has]):
                bad("a GPU time is longer than its call")
        if "await_ns" in cols:
            a = cols["await_ns"]
            if np.any(a < 0) or np.any(a > end - start):
                bad("an await time is negative or longer than its call")
        for grp in ("events", "rank_region_index", "region_table",
                    "thread_table", "task_table"):
            if grp in f:
                for ds in f[grp].values():
                    check_storage(ds, compressed)
        print(f"verified {path}: schema {schema}, {nev} events, {nrows} "
              f"rows, {len(names)} regions, exclusive totals "
              f"{'checked' if stored_any else 'not stored'}")


def recompress(src, dst, shuffle):
    with h5py.File(src, "r") as fin, h5py.File(dst, "w") as fout:
        def copy_attrs(a, b):
            for k, v in a.attrs.items():
                b.attrs.create(k, v, dtype=a.attrs.get_id(k).dtype)

        def visit(name, obj):
            if isinstance(obj, h5py.Group):
                copy_attrs(obj, fout.require_group(name))
                return
            data = obj[()]
            opts = {}
            if obj.shape and obj.size > 1:
                opts = {"compression": "lzf", "shuffle": shuffle,
                        "chunks": True}
            d = fout.create_dataset(name, data=data, dtype=obj.dtype,
                                    **opts)
            copy_attrs(obj, d)

        copy_attrs(fin, fout)
        fin.visititems(visit)
        lzf = []
        def count(name, obj):
            if isinstance(obj, h5py.Dataset) and obj.compression == "lzf":
                lzf.append(name)
        fout.visititems(count)
        if not lzf:
            bad(f"{dst}: no dataset came out LZF-compressed")


def main(argv):
    if len(argv) >= 4 and argv[1] == "recompress":
        recompress(argv[2], argv[3], "--shuffle" in argv[4:])
    elif len(argv) >= 4 and argv[1] == "compare":
        compare(argv[2], argv[3], "--skip-rank-groups" in argv[4:])
    elif len(argv) >= 3 and argv[1] == "verify":
        compressed = None
        if "--compressed" in argv[3:]:
            compressed = True
        if "--uncompressed" in argv[3:]:
            compressed = False
        verify(argv[2], compressed)
    else:
        print(__doc__)
        return 2
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
