"""export_check.py: an independent check of `scopeview export --format
chrome|speedscope|csv`.

Usage: /usr/bin/python3 export_check.py EXE FILE.h5 [--ranks LIST]
           [--range T0:T1]

Reads FILE.h5's raw columns with h5py (numpy_check.load_raw) and keeps
the calls the options select, with the rule export --help gives: a call
of a rank in LIST that meets [T0, T1) (start < t1 and end > t0, or, when
it lasts no time, t0 <= start < t1; t0 and t1 from the time origin that
`scopeview summary --format json` reports).  Then runs the three exports
and checks, for each, that it parses (json, csv), that it holds exactly
one event (chrome "X" event, speedscope open/close pair, csv row) per
selected call, with the exact start and end in ns (the multisets of
(rank, region, start, end) are equal), and each format's own rules:

 - chrome: every event has ph, pid, tid, and X events name, ts, dur >= 0
   (microseconds: ts * 1000 is start - origin, dur * 1000 the duration,
   within float rounding); a thread_name metadata event for every (pid,
   tid) used and a process_name for every pid; args.start_ns/end_ns/
   duration_ns exact; args.call agrees with the csv's call column;
 - speedscope: frames named like the regions; per profile unit
   nanoseconds, events ordered by "at", every "C" closes the innermost
   open frame, nothing left open, startValue/endValue bound the events;
   profile names are lane labels (the csv's lane column);
 - csv: the header; duration_ns = end_ns - start_ns; parent, when set,
   is a call of the same lane.

Exit status: 0 all agree, 1 a mismatch (each printed), 2 usage.
"""

import collections
import csv
import io
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import h5py  # noqa: E402
import numpy_check  # noqa: E402

HEADER = ("call,rank,lane,region,start_ns,end_ns,duration_ns,exclusive_ns,"
          "depth,parent,gpu_ns,await_ns,metadata").split(",")

errors = []


def fail(msg):
    errors.append(msg)
    if len(errors) <= 20:
        print("MISMATCH " + msg)


def parse_time(s):
    units = [("ns", 1), ("us", 1000), ("ms", 1000000), ("s", 1000000000)]
    for u, f in units:
        if s.endswith(u) and (u != "s" or not s.endswith(("ns", "us", "ms"))):
            return int(round(float(s[: -len(u)]) * f))
    return int(s)


def parse_ranks(spec):
    out = set()
    for part in spec.split(","):
        if "-" in part:
            a, b = part.split("-")
            out.update(range(int(a), int(b) + 1))
        else:
            out.add(int(part))
    return out


def meta_key(obj):
    """A call's metadata object as the text compared (None: none)."""
    return json.dumps(obj, sort_keys=True) if obj else None


def event_metadata(path, raw):
    """Per index row, its calls' metadata objects (the columnar layout's
    /rank_region_index/event_metadata), or None without it."""
    if raw["layout"] != "columnar":
        return None
    with h5py.File(path, "r") as f:
        if "event_metadata" not in f["rank_region_index"]:
            return None
        texts = f["rank_region_index/event_metadata"][()]
    out = []
    for t in texts:
        t = t.decode() if isinstance(t, bytes) else t
        out.append(json.loads(t.rstrip("\0")) if t.strip("\0 ") else [])
    return out


def expected_calls(raw, ranks, t0, t1, meta):
    want = collections.Counter()
    for i, r in enumerate(raw["rows"]):
        if ranks is not None and r.rank not in ranks:
            continue
        name = raw["names"][r.region]
        objs = meta[i] if meta else []
        for k, (s, e) in enumerate(zip(r.start.tolist(), r.end.tolist())):
            if t0 is not None:
                if s >= t1:
                    continue
                if not (e > t0 or (s >= t0 and e <= s)):
                    continue
            want[(r.rank, name, s, e,
                  meta_key(objs[k]) if objs else None)] += 1
    return want


def run(exe, fmt, path, opts):
    out = subprocess.run([exe, "export", "--format", fmt] + opts + [path],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if out.returncode != 0:
        fail("export --format %s exited %d: %s" %
             (fmt, out.returncode, out.stderr.decode(errors="replace")))
        return None
    return out.stdout.decode("utf-8")


def compare(what, got, want):
    if got == want:
        return
    extra = got - want
    missing = want - got
    fail("%s: %d calls, expected %d; extra %s; missing %s" %
         (what, sum(got.values()), sum(want.values()),
          list(extra.items())[:3], list(missing.items())[:3]))


def check_csv(text, want):
    rows = list(csv.reader(io.StringIO(text, newline="")))
    if not rows or rows[0] != HEADER:
        fail("csv header %r" % (rows[:1],))
        return {}
    got = collections.Counter()
    by_call = {}
    for row in rows[1:]:
        if len(row) != len(HEADER):
            fail("csv row of %d fields: %r" % (len(row), row))
            continue
        c = dict(zip(HEADER, row))
        s, e = int(c["start_ns"]), int(c["end_ns"])
        if int(c["duration_ns"]) != e - s:
            fail("csv duration of call %s" % c["call"])
        m = json.loads(c["metadata"]) if c["metadata"] else None
        got[(int(c["rank"]), c["region"], s, e, meta_key(m))] += 1
        by_call[int(c["call"])] = c
    for c in by_call.values():
        if c["parent"] and c["parent"] in by_call and \
                by_call[int(c["parent"])]["lane"] != c["lane"]:
            fail("csv: call %s's parent is on another lane" % c["call"])
    compare("csv", got, want)
    return by_call


def check_chrome(text, want, origin, by_call):
    doc = json.loads(text)
    ev = doc.get("traceEvents")
    if not isinstance(ev, list):
        fail("chrome: no traceEvents list")
        return
    named_threads, named_procs = set(), set()
    got = collections.Counter()
    used = set()
    for e in ev:
        for k in ("ph", "pid", "tid"):
            if k not in e:
                fail("chrome: event without %s: %r" % (k, e))
                return
        if e["ph"] == "M":
            if e["name"] == "thread_name":
                named_threads.add((e["pid"], e["tid"]))
            elif e["name"] == "process_name":
                named_procs.add(e["pid"])
            continue
        if e["ph"] != "X":
            fail("chrome: event of phase %r" % e["ph"])
            continue
        a = e["args"]
        s, t, d = a["start_ns"], a["end_ns"], a["duration_ns"]
        if d != t - s or e["dur"] < 0:
            fail("chrome: duration of %r" % e)
        if abs(e["ts"] * 1000 - (s - origin)) > 0.5 + abs(s - origin) * 1e-15 \
                or abs(e["dur"] * 1000 - d) > 0.5 + d * 1e-15:
            fail("chrome: ts/dur (us) %r %r vs ns %d %d" %
                 (e["ts"], e["dur"], s - origin, d))
        used.add((e["pid"], e["tid"]))
        got[(e["pid"], e["name"], s, t, meta_key(a.get("metadata")))] += 1
        c = by_call.get(a["call"])
        if c is None or int(c["start_ns"]) != s or c["region"] != e["name"]:
            fail("chrome: call %r is not the csv's" % a["call"])
    for pid, tid in used:
        if (pid, tid) not in named_threads:
            fail("chrome: no thread_name for pid %d tid %d" % (pid, tid))
        if pid not in named_procs:
            fail("chrome: no process_name for pid %d" % pid)
    compare("chrome", got, want)


def check_speedscope(text, want, origin, lanes):
    doc = json.loads(text)
    frames = doc["shared"]["frames"]
    got = collections.Counter()
    for prof in doc["profiles"]:
        if prof["type"] != "evented" or prof["unit"] != "nanoseconds":
            fail("speedscope: profile %r" % prof.get("name"))
        if prof["name"] not in lanes:
            fail("speedscope: profile name %r is no lane" % prof["name"])
        rank = lanes.get(prof["name"])
        stack, last = [], None
        for e in prof["events"]:
            if last is not None and e["at"] < last:
                fail("speedscope: %s: at goes back at %r" %
                     (prof["name"], e))
            last = e["at"]
            if not (prof["startValue"] <= e["at"] <= prof["endValue"]):
                fail("speedscope: %r outside start/endValue" % e)
            if e["type"] == "O":
                stack.append(e)
            elif not stack or stack[-1]["frame"] != e["frame"]:
                fail("speedscope: %s: close of frame %d not innermost" %
                     (prof["name"], e["frame"]))
                return
            else:
                o = stack.pop()
                got[(rank, frames[e["frame"]]["name"], o["at"] + origin,
                     e["at"] + origin)] += 1
        if stack:
            fail("speedscope: %s: %d frames left open" %
                 (prof["name"], len(stack)))
    # speedscope has no metadata
    compare("speedscope", got, strip_meta(want))


def strip_meta(want):
    out = collections.Counter()
    for k, v in want.items():
        out[k[:4]] += v
    return out


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    exe, path, opts = argv[1], argv[2], argv[3:]
    ranks = t0 = t1 = None
    i = 0
    while i < len(opts):
        if opts[i] == "--ranks":
            ranks = parse_ranks(opts[i + 1])
        elif opts[i] == "--range":
            a, b = opts[i + 1].split(":")
            t0, t1 = parse_time(a), parse_time(b)
        else:
            print("export_check: unknown option " + opts[i])
            return 2
        i += 2
    summ = json.loads(subprocess.run(
        [exe, "summary", "--format", "json", path],
        stdout=subprocess.PIPE, check=True).stdout)
    origin = summ["time_origin_ns"]
    if t0 is not None:
        t0 += origin
        t1 += origin
    raw = numpy_check.load_raw(path)
    if raw["layout"] == "aggregate":
        print("export_check: aggregate layout has no calls")
        return 2
    want = expected_calls(raw, ranks, t0, t1, event_metadata(path, raw))
    text = run(exe, "csv", path, opts)
    by_call = check_csv(text, want) if text is not None else {}
    lanes = {c["lane"]: int(c["rank"]) for c in by_call.values()}
    text = run(exe, "chrome", path, opts)
    if text is not None:
        check_chrome(text, want, origin, by_call)
    text = run(exe, "speedscope", path, opts)
    if text is not None:
        check_speedscope(text, want, origin, lanes)
    if errors:
        print("export_check: %s %s: %d mismatches" %
              (os.path.basename(path), " ".join(opts), len(errors)))
        return 1
    print("export_check: %s %s: %d calls agree in chrome, speedscope, csv" %
          (os.path.basename(path), " ".join(opts), sum(want.values())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
