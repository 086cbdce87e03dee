#!/bin/bash
# e2e_scaling.sh: `scopeview scaling` and `scopeview trend` checked by
# tests/scaling_check.py against an independent numpy computation from
# the raw HDF5 columns, on runs `scopeview gen` writes for them
# (--strong-scaling at 1, 2, 4 and 8 ranks, two runs at 2 ranks, one run
# with worker threads whose regions the others lack; --slowdown) and on
# the fixtures: x from the rank count, omp_num_threads, total_cores, a
# numeric and a text label, rank and region selections; the JSON shapes
# key by key; the change point of a slowed-down rank (its iteration and
# rank) and none on the steady run; the errors (a run without the key
# named, a count field that is not a number, unreadable files, command
# line mistakes).  Also checks that the checker notices a figure off by
# one part in a million.
#
# Exits 77 (skipped) when /usr/bin/python3 cannot import h5py and numpy,
# unless SCOPEVIEW_REQUIRE_H5PY=1 (or SCOPEVIEW_NO_SKIP=1).
set -u

PY=/usr/bin/python3
here=$(cd "$(dirname "$0")" && pwd)
exe=${SCOPEVIEW_EXE:-$here/../build/scopeview}
fixtures=${SCOPEVIEW_FIXTURES:-$here/fixtures}
check_py="$here/scaling_check.py"

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

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sv-e2e-scaling.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

check() { # check scaling|trend [options...]
	if "$PY" "$check_py" "$1" "$exe" "${@:2}" >"$tmp/out" 2>&1; then
		passed=$((passed + 1))
		tail -n 1 "$tmp/out"
	else
		failed=$((failed + 1))
		echo "FAIL scaling_check $*"
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

# expect WHAT STATUS STDERR-TEXT COMMAND...: the exit status, and the
# text on stderr (one line) when given.
expect() {
	local what=$1 want=$2 says=$3
	shift 3
	"$@" >"$tmp/cmd.out" 2>"$tmp/cmd.err"
	local got=$?
	if [ "$got" != "$want" ]; then
		failed=$((failed + 1))
		echo "FAIL $what: exit $got, want $want"
		sed 's/^/     /' "$tmp/cmd.err"
	elif [ -n "$says" ] && ! grep -qF -- "$says" "$tmp/cmd.err"; then
		failed=$((failed + 1))
		echo "FAIL $what: stderr does not say: $says"
		sed 's/^/     /' "$tmp/cmd.err"
	else
		passed=$((passed + 1))
		echo "ok   $what"
	fi
}

# ---- scaling ---------------------------------------------------------------------

# A strong-scaling study: 1, 2, 4 and 8 ranks, a second run at 2 ranks,
# the 1-rank run with a worker thread (regions no other run has).
gen s1 --ranks 1 --threads 2 --events 40k --strong-scaling 1 --seed 1 \
	--label gcc &&
	gen s2 --ranks 2 --events 40k --strong-scaling 1 --seed 2 \
		--label clang &&
	gen s2b --ranks 2 --events 40k --strong-scaling 1 --seed 3 \
		--label gcc &&
	gen s4 --ranks 4 --events 40k --strong-scaling 1 --seed 4 \
		--label icx &&
	gen s8 --ranks 8 --events 40k --strong-scaling 1 --seed 5 \
		--label 8.5 && {
	runs=("$tmp/s1.h5" "$tmp/s2.h5" "$tmp/s2b.h5" "$tmp/s4.h5" "$tmp/s8.h5")
	check scaling "${runs[@]}"
	check scaling --x omp_num_threads "${runs[@]}"
	check scaling --x total_cores "${runs[@]}"
	check scaling --x label "${runs[@]}"         # text: order of appearance
	check scaling --x label "$tmp/s8.h5" "$tmp/s1.h5"
	check scaling --x mpi_size "${runs[@]}"
	check scaling --ranks 0 "${runs[@]}"
	check scaling --ranks 1-3 "${runs[@]}"      # s1 has no rank 1: no region
	check scaling --include 'kernel:|solve' --exclude '.*spmv' "${runs[@]}"
	check scaling "$tmp/s8.h5" "$tmp/s2.h5"     # the baseline is not first

	# The done-when study: different speedups in different regions.
	"$exe" scaling --format json "${runs[@]}" >"$tmp/study.json" &&
		if "$PY" - "$tmp/study.json" <<'PYEOF'; then
import json, sys
d = json.load(open(sys.argv[1]))
sp = {g["name"]: g["points"][-1]["speedup"] for g in d["regions"]}
assert d["baseline"] == 1 and [p["x"] for p in d["regions"][0]["points"]] == [1, 2, 4, 8], d
assert 6.5 < sp["kernel:assemble_local"] < 9, sp
assert 3.5 < sp["kernel:spmv"] < 6, sp
assert abs(sp["halo_exchange"] - 1) < 0.1, sp
assert 1.5 < sp["timestep"] < sp["assemble"], sp
assert "compress_block" not in sp  # only the 1-rank run has it
PYEOF
			passed=$((passed + 1))
			echo "ok   gen --strong-scaling: assemble_local ~8, spmv ~4.7, halo 1"
		else
			failed=$((failed + 1))
			echo "FAIL the strong-scaling study's speedups"
		fi
	"$exe" scaling "${runs[@]}" >"$tmp/table.txt"
	if grep -q '^scaling over num_ranks: 5 runs at 4 values, baseline 1$' \
		"$tmp/table.txt" &&
		grep -q '^kernel:assemble_local  ' "$tmp/table.txt"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL the scaling table:"
		sed 's/^/     /' "$tmp/table.txt"
	fi

	# Errors: a run without the key, named; a count field that is not a
	# number; a file that cannot be read; command-line mistakes.
	cp "$tmp/s4.h5" "$tmp/nokey.h5"
	cp "$tmp/s4.h5" "$tmp/many.h5"
	"$PY" - "$tmp/nokey.h5" "$tmp/many.h5" <<'PYEOF'
import sys, h5py
with h5py.File(sys.argv[1], "a") as f:
    del f["metadata"].attrs["omp_num_threads"]
with h5py.File(sys.argv[2], "a") as f:
    f["metadata"].attrs["omp_num_threads"] = "many"
PYEOF
	expect "scaling: a run without the key" 1 \
		"scopeview: scaling: run $tmp/nokey.h5 has no metadata key 'omp_num_threads'" \
		"$exe" scaling --x omp_num_threads "$tmp/s1.h5" "$tmp/nokey.h5"
	expect "scaling: total_cores of a run without omp_num_threads" 0 "" \
		"$exe" scaling --x total_cores "$tmp/s1.h5" "$tmp/nokey.h5"
	expect "scaling: a count field that is not a number" 1 \
		"metadata key 'omp_num_threads' is 'many', not a number" \
		"$exe" scaling --x omp_num_threads "$tmp/s1.h5" "$tmp/many.h5"
	expect "scaling: a text key is no error" 0 "" \
		"$exe" scaling --x SLURM_JOB_ID "$tmp/s1.h5" "$tmp/s2.h5"
	expect "scaling: a missing file" 1 "scopeview: $tmp/none.h5: " \
		"$exe" scaling "$tmp/s1.h5" "$tmp/none.h5"
	expect "scaling: no RUN" 2 "scopeview: scaling: no RUN given" \
		"$exe" scaling --x num_ranks
	expect "scaling: bad format" 2 "unknown format 'xml'" \
		"$exe" scaling --format xml "$tmp/s1.h5"
	expect "scaling: bad rank list" 2 "bad rank list" \
		"$exe" scaling --ranks 3-1 "$tmp/s1.h5"
	expect "scaling: bad regex" 2 "scopeview: scaling: " \
		"$exe" scaling --include '(' "$tmp/s1.h5"
}

# The aggregate layout: no calls, the stored totals and counts.
gen a1 --aggregate --ranks 1 --strong-scaling 1 --seed 1 &&
	gen a4 --aggregate --ranks 4 --strong-scaling 1 --seed 2 &&
	check scaling "$tmp/a1.h5" "$tmp/a4.h5" "$tmp/s2.h5"

# The fixtures scope-profiler wrote: every layout reads.
if [ -d "$fixtures" ]; then
	check scaling "$fixtures/hdf5-schema-2.h5" "$fixtures/hdf5-schema-3.h5" \
		"$fixtures/hdf5-schema-1.h5"
	check scaling "$fixtures/four_ranks.h5" "$fixtures/single_rank_nested.h5" \
		"$fixtures/threads_tasks.h5"
	check scaling --ranks 1-2 "$fixtures/four_ranks.h5" \
		"$fixtures/lanes_rebuilt_exclusive.h5"
else
	echo "FAIL: no fixtures at $fixtures"
	failed=$((failed + 1))
fi

# ---- trend -----------------------------------------------------------------------

gen slow --ranks 4 --events 120k --seed 5 --slowdown 2:300:1.4 &&
	gen steady --ranks 4 --events 120k --seed 5 && {
	check trend "$tmp/slow.h5" --region timestep --expect 2:300
	check trend "$tmp/steady.h5" --region timestep --expect-none
	check trend "$tmp/steady.h5" --region solve --expect-none
	check trend "$tmp/slow.h5" --region timestep --ranks 1-2 --expect 2:300
	check trend "$tmp/slow.h5" --region timestep --ranks 0,3 --expect-none
	check trend "$tmp/slow.h5" --region timestep --metric exclusive
	check trend "$tmp/slow.h5" --region kernel:spmv --ranks 0-1
	check trend "$tmp/steady.h5" --region io
	"$exe" trend --region timestep "$tmp/slow.h5" >"$tmp/trend.txt"
	if grep -Eq '^ +300 +2 +[0-9.]+ us +[0-9.]+ (us|ms) +\+[34][0-9]\.[0-9]+%$' \
		"$tmp/trend.txt"; then
		passed=$((passed + 1))
		echo "ok   trend's table names iteration 300 on rank 2"
	else
		failed=$((failed + 1))
		echo "FAIL trend's table:"
		head -n 8 "$tmp/trend.txt" | sed 's/^/     /'
	fi
}
gen threads --ranks 2 --threads 2 --tasks 1 --events 30k --seed 8 &&
	{
		check trend "$tmp/threads.h5" --region compress_block
		check trend "$tmp/threads.h5" --region parse --metric exclusive
	}
if [ -d "$fixtures" ]; then
	check trend "$fixtures/four_ranks.h5" --region \
		"$("$PY" -c 'import h5py,sys; print(h5py.File(sys.argv[1])["region_table/names"][0].decode())' "$fixtures/four_ranks.h5")"
fi

gen agg --aggregate --ranks 2 --seed 4
expect "trend: no region of that name" 1 "scopeview: trend: no region named nope" \
	"$exe" trend --region nope "$tmp/steady.h5"
expect "trend: a file without calls" 1 "holds no per-call data" \
	"$exe" trend --region solve "$tmp/agg.h5"
expect "trend: --region missing" 2 "--region NAME is required" \
	"$exe" trend "$tmp/steady.h5"
expect "trend: bad metric" 2 "unknown metric 'total'" \
	"$exe" trend --region solve --metric total "$tmp/steady.h5"
expect "trend: two files" 2 "more than one FILE" \
	"$exe" trend --region solve "$tmp/steady.h5" "$tmp/slow.h5"

# ---- the checker must be able to fail ------------------------------------------

cat >"$tmp/liar.sh" <<EOF
#!/bin/bash
"$exe" "\$@" | "$PY" -c '
import json, sys
text = sys.stdin.read()
try:
    d = json.loads(text)
except ValueError:
    sys.stdout.write(text)
    sys.exit(0)
if "regions" in d and d["regions"]:
    d["regions"][0]["points"][-1]["speedup"] *= 1 + 1e-6
if "points" in d and d["points"]:
    d["points"][-1]["median_ns"] += 0.5
json.dump(d, sys.stdout)
'
EOF
chmod +x "$tmp/liar.sh"
if [ -f "$tmp/s2.h5" ] && [ -f "$tmp/steady.h5" ]; then
	if "$PY" "$check_py" scaling "$tmp/liar.sh" "$tmp/s2.h5" "$tmp/s4.h5" \
		>"$tmp/out" 2>&1 || ! grep -q 'MISMATCH.*speedup' "$tmp/out"; then
		failed=$((failed + 1))
		echo "FAIL scaling_check accepted a speedup off by 1e-6:"
		sed 's/^/     /' "$tmp/out"
	else
		passed=$((passed + 1))
		echo "ok   scaling_check rejects a speedup off by 1e-6"
	fi
	if "$PY" "$check_py" trend "$tmp/liar.sh" "$tmp/steady.h5" \
		--region timestep >"$tmp/out" 2>&1 ||
		! grep -q 'MISMATCH.*median_ns' "$tmp/out"; then
		failed=$((failed + 1))
		echo "FAIL scaling_check accepted a median off by 0.5 ns:"
		sed 's/^/     /' "$tmp/out"
	else
		passed=$((passed + 1))
		echo "ok   scaling_check rejects a median off by 0.5 ns"
	fi
fi

echo "e2e_scaling: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
