#!/bin/bash
# e2e_numpy.sh: every figure of `scopeview summary --format json` checked
# against an independent numpy computation from the raw HDF5 columns
# (tests/numpy_check.py, following doc/format.md section 10), on files written
# by `scopeview gen` (schemas 1, 2 and 3; threads, tasks, GPU, await; stored
# exclusive totals left out so they must be rebuilt per lane; several
# seeds; one file of a million calls; the aggregate layout) and on the
# fixtures in tests/fixtures, with --ranks and --include/--exclude variants,
# and `summary --group-by` over per-call event metadata h5py adds
# (tests/groupby_check.py).  Also
# checks that the checker itself notices a figure that is off by one part
# in a million, so a checker that cannot fail does not pass silently.
#
# Exits 77 (skipped) when /usr/bin/python3 cannot import h5py and numpy,
# unless SCOPEVIEW_REQUIRE_H5PY=1 (or SCOPEVIEW_NO_SKIP=1).
set -u

PY=/usr/bin/python3
here=$(cd "$(dirname "$0")" && pwd)
exe=${SCOPEVIEW_EXE:-$here/../build/scopeview}
fixtures=${SCOPEVIEW_FIXTURES:-$here/fixtures}
check_py="$here/numpy_check.py"

if ! "$PY" -c 'import h5py, numpy' 2>/dev/null; then
	if [ "${SCOPEVIEW_REQUIRE_H5PY:-${SCOPEVIEW_NO_SKIP:-0}}" = 1 ]; then
		echo "FAIL: $PY cannot import h5py and numpy (install python3-h5py)"
		exit 1
	fi
	echo "SKIP: $PY cannot import h5py and numpy"
	exit 77
fi
if [ ! -x "$exe" ]; then
	echo "FAIL: no scopeview executable at $exe"
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sv-e2e-numpy.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

check() { # check FILE [summary options...]
	if "$PY" "$check_py" "$exe" "$@" >"$tmp/out" 2>&1; then
		passed=$((passed + 1))
		echo "$(tail -n 1 "$tmp/out")"
	else
		failed=$((failed + 1))
		echo "FAIL numpy_check $*"
		sed 's/^/     /' "$tmp/out"
	fi
}

gen() { # gen NAME [gen options...]
	local name=$1
	shift
	if ! "$exe" gen --quiet "$@" "$tmp/$name.h5" >"$tmp/gen.out" 2>&1; then
		failed=$((failed + 1))
		echo "FAIL scopeview gen $* $name.h5"
		sed 's/^/     /' "$tmp/gen.out"
		return 1
	fi
}

# ---- generated files --------------------------------------------------------

gen s3 --schema 3 --ranks 4 --threads 3 --tasks 2 --gpu --await \
	--no-exclusive --events 60k --seed 7 &&
	{
		check "$tmp/s3.h5"
		check "$tmp/s3.h5" --ranks 1-2
		check "$tmp/s3.h5" --ranks ' 3 , 0'
		check "$tmp/s3.h5" --include 'kernel:'
		check "$tmp/s3.h5" --include 's' --exclude 'solve'
		check "$tmp/s3.h5" --include 'mpi:(isend|irecv)' \
			--exclude '.*peer=0' --ranks 0-1
		# Sort keys, ties by name (many regions share a call count).
		for key in total calls avg min max first last std p50 p95 \
			p99 imbalance name exclusive; do
			check "$tmp/s3.h5" --sort "$key"
		done
		# A rank without data: every region listed with no calls.
		check "$tmp/s3.h5" --sort total --ranks 9
	}
gen s3b --schema 3 --ranks 3 --threads 2 --track-threads --gpu \
	--no-exclusive --no-call-ids --events 30k --seed 2 &&
	check "$tmp/s3b.h5"
gen s3c --schema 3 --ranks 2 --depth 7 --events 20k --seed 19 &&
	check "$tmp/s3c.h5" --exclude 'fib$'
gen s2 --schema 2 --ranks 3 --threads 2 --tasks 1 --await \
	--no-exclusive --events 25k --seed 3 &&
	{
		check "$tmp/s2.h5"
		check "$tmp/s2.h5" --ranks 2 --include '(?i)SOLVE|halo'
	}
gen s1 --schema 1 --ranks 2 --gpu --events 8k --seed 5 &&
	{
		check "$tmp/s1.h5"
		check "$tmp/s1.h5" --ranks 1
	}
gen agg --aggregate --ranks 3 --seed 4 &&
	{
		check "$tmp/agg.h5"
		check "$tmp/agg.h5" --ranks 0,2
		check "$tmp/agg.h5" --sort first
		check "$tmp/agg.h5" --sort std --ranks 1
	}
# About a million calls, exclusive time rebuilt over four ranks' lanes.
gen big --events 1M --ranks 4 --threads 2 --tasks 1 --await --gpu \
	--no-exclusive --seed 11 &&
	{
		check "$tmp/big.h5"
		check "$tmp/big.h5" --ranks 3 --exclude 'mpi:'
	}

# ---- hand-made edge cases ------------------------------------------------------
# Rows not in rank order (rank 1 first), so ties of first/last across ranks
# go by row order, not rank; two regions with the same interval on one lane
# (region order decides which encloses the other); zero-length calls at a
# parent's start, inside and at its end; calls stored out of start order
# (negative deltas); rows with no calls (one on a rank of a region that
# has calls elsewhere) and a region with no rows; a rank
# whose total is zero (left out of the imbalance); a partially filled GPU
# column; threads and a task as separate lanes; mpi_size above the ranks;
# start_time_ns a string, numeric (" 50 ") or not ("not a number"); clock
# values past 2^53 ns, where starts 1 ns apart tie as float64 seconds.
cat >"$tmp/edge.py" <<'PYEOF'
import sys, h5py, numpy as np
out, variant = sys.argv[1], sys.argv[2]
S = h5py.string_dtype("utf-8")
names = ["A", "B", "C", "D", "empty_region", "Z"]
# (rank, region id, [(start, end, gpu, thread, task, await)])
rows = [
    (1, 1, [(100, 200, -1, 0, -1, 0)]),
    (1, 0, [(400, 450, -1, 0, -1, 3), (100, 200, -1, 0, -1, 4)]),
    (1, 2, [(100, 100, -1, 0, -1, 0), (200, 200, 7, 0, -1, 0),
            (150, 150, -1, 0, -1, 0)]),
    (1, 3, []),
    (0, 0, [(100, 300, -1, 1, -1, 0), (350, 450, -1, 1, 0, 9)]),
    (0, 5, [(500, 500, -1, 0, -1, 0)]),
    (0, 2, [(120, 130, 5, 0, -1, 1)]),
    (2, 5, [(600, 700, -1, -1, -1, 0)]),
    (2, 0, []),  # no calls: no part in A's first/last, but its order key is 0
]
if variant == "b":  # the same calls, rows in rank order, no lanes
    rows.sort(key=lambda r: r[0])
if variant == "c":
    # Clock values past 2^53 ns (104 days of uptime): rank 0's A starts 1 ns
    # before rank 1's, but as float64 seconds, which scope-profiler
    # compares, they tie and the first row in the file (rank 1) wins.
    B = 1 << 54
    rows[4] = (0, 0, [(99, 300, -1, 1, -1, 0), (350, 450, -1, 1, 0, 9)])
    rows = [(rk, rid, [(s + B, e + B, *rest) for s, e, *rest in calls])
            for rk, rid, calls in rows]
with h5py.File(out, "w") as f:
    f.attrs["scope_profiler_schema"] = np.int64(3)
    f.attrs.create("storage_layout", "columnar", dtype=S)
    m = f.create_group("metadata")
    m.attrs["mpi_size"] = np.int64(4)
    if variant == "c":
        m.attrs["start_time_ns"] = np.int64(1 << 54)
    elif variant == "a":
        m.attrs.create("start_time_ns", "not a number", dtype=S)
    else:
        m.attrs.create("start_time_ns", " 50 ", dtype=S)
    f.create_dataset("region_table/names", data=names, dtype=S)
    idx = f.create_group("rank_region_index")
    off, cols = 0, {k: [] for k in ("sd", "du", "gpu", "th", "tk", "aw")}
    offs, counts = [], []
    for rank, rid, calls in rows:
        offs.append(off); counts.append(len(calls)); off += len(calls)
        prev = None
        for s, e, g, th, tk, aw in calls:
            cols["sd"].append(s if prev is None else s - prev); prev = s
            cols["du"].append(e - s); cols["gpu"].append(g)
            cols["th"].append(th); cols["tk"].append(tk); cols["aw"].append(aw)
    R = len(rows)
    idx["region_ids"] = np.array([r[1] for r in rows], dtype=np.uint32)
    idx["ranks"] = np.array([r[0] for r in rows], dtype=np.uint32)
    idx["event_offsets"] = np.array(offs, dtype=np.uint64)
    idx["event_counts"] = np.array(counts, dtype=np.uint64)
    idx["source_lines"] = np.array([7, -1, 3, -1, 9, -1, 5, 11, 2][:R],
                                   dtype=np.int64)
    idx["exclusive_totals"] = np.full(R, -1, dtype=np.int64)
    idx.create_dataset("source_files", data=["", "b.py", "c.py", "", "a.py", "",
                                             "c0.py", "z.py", ""][:R], dtype=S)
    idx.create_dataset("source_texts", data=[""] * R, dtype=S)
    idx.create_dataset("tags", data=['["t1"]', "[]", '["c"]', "", '["a0"]', "[]",
                                     '["c0", "x"]', "[]", '["r2"]'][:R],
                        dtype=S)
    ev = f.create_group("events")
    ev["start_deltas"] = np.array(cols["sd"], dtype=np.int64)
    ev["durations"] = np.array(cols["du"], dtype=np.int64)
    ev["gpu_durations"] = np.array(cols["gpu"], dtype=np.int64)
    ev["await_ns"] = np.array(cols["aw"], dtype=np.int64)
    if variant != "b":
        ev["thread_ids"] = np.array(cols["th"], dtype=np.int64)
        ev["task_ids"] = np.array(cols["tk"], dtype=np.int64)
PYEOF
for v in a b c; do
	if "$PY" "$tmp/edge.py" "$tmp/edge_$v.h5" "$v" >"$tmp/out" 2>&1; then
		check "$tmp/edge_$v.h5"
		check "$tmp/edge_$v.h5" --ranks 1
		check "$tmp/edge_$v.h5" --ranks 0,2 --sort first
		check "$tmp/edge_$v.h5" --sort last --include '[AB]'
		check "$tmp/edge_$v.h5" --sort imbalance --exclude 'D|e'
	else
		failed=$((failed + 1))
		echo "FAIL writing edge_$v.h5"
		sed 's/^/     /' "$tmp/out"
	fi
done

# ---- the fixtures scope-profiler wrote -------------------------------------------

if [ -d "$fixtures" ]; then
	for f in "$fixtures"/*.h5; do
		check "$f"
	done
	check "$fixtures/four_ranks.h5" --ranks 1-2
	check "$fixtures/four_ranks.h5" --ranks '0, 3,3'
	# Python's x{,2} is x{0,2}; \Z is the very end (PCRE2's \z).
	check "$fixtures/four_ranks.h5" --include 'x{,2}s' --exclude 'io\Z'
	check "$fixtures/single_rank_nested.h5" --include 'f' --include 'main'
	check "$fixtures/schema2_ties_zero_length.h5" --ranks 0,2
	check "$fixtures/lanes_rebuilt_exclusive.h5" --ranks 1
	check "$fixtures/legacy_schema1.h5" --ranks 1
else
	# The fixtures are part of the repository: missing is a failure.
	echo "FAIL: no fixtures at $fixtures"
	failed=$((failed + 1))
fi

# ---- the checker must be able to fail --------------------------------------------

# A scopeview that reports one exclusive time a millionth too large.
cat >"$tmp/liar.sh" <<EOF
#!/bin/bash
"$exe" "\$@" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
for g in d["regions"]:
    if g["num_calls"]:
        g["ranks"][-1]["exclusive_duration"] *= 1 + 1e-6
        break
json.dump(d, sys.stdout)
'
EOF
chmod +x "$tmp/liar.sh"
if [ -f "$tmp/s3.h5" ]; then
	if "$PY" "$check_py" "$tmp/liar.sh" "$tmp/s3.h5" >"$tmp/out" 2>&1; then
		failed=$((failed + 1))
		echo "FAIL numpy_check accepted an exclusive time off by 1e-6"
	elif ! grep -q 'MISMATCH.*exclusive_duration' "$tmp/out"; then
		failed=$((failed + 1))
		echo "FAIL numpy_check failed for another reason:"
		sed 's/^/     /' "$tmp/out"
	else
		passed=$((passed + 1))
		echo "ok   numpy_check rejects an exclusive time off by 1e-6"
	fi
fi

# ---- summary --group-by on per-call event metadata (tests/groupby_check.py)

if gen gb --schema 3 --ranks 3 --threads 2 --events 20k --seed 5; then
	if "$PY" "$here/groupby_check.py" "$exe" "$tmp/gb.h5" "$tmp" \
		>"$tmp/out" 2>&1; then
		passed=$((passed + 1))
		tail -n 1 "$tmp/out"
	else
		failed=$((failed + 1))
		echo "FAIL groupby_check"
		sed 's/^/     /' "$tmp/out"
	fi
	# and the checker notices a figure that is off
	cat >"$tmp/liar_gb.sh" <<EOF
#!/bin/sh
"$exe" "\$@" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
for g in d["regions"]:
    if g.get("groups"):
        g["groups"][0]["p95_duration"] *= 1 + 1e-6
        break
json.dump(d, sys.stdout)
'
EOF
	chmod +x "$tmp/liar_gb.sh"
	if "$PY" "$here/groupby_check.py" "$tmp/liar_gb.sh" "$tmp/gb.h5" \
		"$tmp" >"$tmp/out" 2>&1; then
		failed=$((failed + 1))
		echo "FAIL groupby_check accepted a p95 off by 1e-6"
	elif ! grep -q 'p95_duration' "$tmp/out"; then
		failed=$((failed + 1))
		echo "FAIL groupby_check failed for another reason:"
		sed 's/^/     /' "$tmp/out"
	else
		passed=$((passed + 1))
		echo "ok   groupby_check rejects a p95 off by 1e-6"
	fi
fi

echo "e2e_numpy: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
