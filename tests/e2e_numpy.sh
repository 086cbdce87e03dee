#!/bin/bash
# e2e_numpy.sh: every figure of `scopeview summary --format json` checked
# against an independent numpy computation from the raw HDF5 columns
# (tests/numpy_check.py, following FORMAT.md section 5), on files written
# by `scopeview gen` (schemas 1, 2 and 3; threads, tasks, GPU, await; stored
# exclusive totals left out so they must be rebuilt per lane; several
# seeds; one file of a million calls; the aggregate layout) and on the
# shared fixtures, with --ranks and --include/--exclude variants.  Also
# checks that the checker itself notices a figure that is off by one part
# in a million, so a checker that cannot fail does not pass silently.
#
# Exits 77 (skipped) when /usr/bin/python3 cannot import h5py and numpy,
# unless SCOPEVIEW_REQUIRE_H5PY=1.
set -u

PY=/usr/bin/python3
here=$(cd "$(dirname "$0")" && pwd)
exe=${SCOPEVIEW_EXE:-$here/../build/scopeview}
fixtures=${SCOPEVIEW_FIXTURES:-$here/../../shared/fixtures}
check_py="$here/numpy_check.py"

if ! "$PY" -c 'import h5py, numpy' 2>/dev/null; then
	if [ "${SCOPEVIEW_REQUIRE_H5PY:-0}" = 1 ]; then
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
	echo "note: no fixtures at $fixtures"
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

echo "e2e_numpy: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
