#!/bin/bash
# e2e_tree.sh: `scopeview tree --format json` and `scopeview export
# --format collapsed` checked against an independent computation of the
# call paths from the raw HDF5 columns (tests/tree_check.py) on files
# written by `scopeview gen` (schemas 1, 2 and 3; threads, tasks, deep
# recursion; several seeds) and on the fixtures in tests/fixtures, with
# --ranks, --range, --expand-recursion, --include and --exclude.  Also checks that the checker
# notices an exclusive time off by one nanosecond.
#
# Exits 77 (skipped) when /usr/bin/python3 cannot import h5py and numpy,
# unless SCOPEVIEW_REQUIRE_H5PY=1 (or SCOPEVIEW_NO_SKIP=1).
set -u

PY=/usr/bin/python3
here=$(cd "$(dirname "$0")" && pwd)
exe=${SCOPEVIEW_EXE:-$here/../build/scopeview}
fixtures=${SCOPEVIEW_FIXTURES:-$here/fixtures}
check_py="$here/tree_check.py"

if ! "$PY" -c 'import h5py, numpy' 2>/dev/null; then
	if [ "${SCOPEVIEW_REQUIRE_H5PY:-${SCOPEVIEW_NO_SKIP:-0}}" = 1 ]; then
		echo "FAIL: $PY cannot import h5py and numpy (install python3-h5py)"
		exit 1
	fi
	echo "SKIP: $PY cannot import h5py and numpy"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sv-e2e-tree.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

check() { # check FILE [tree options...]
	if "$PY" "$check_py" "$exe" "$@" >"$tmp/out" 2>&1; then
		passed=$((passed + 1))
		tail -n 1 "$tmp/out"
	else
		failed=$((failed + 1))
		echo "FAIL tree_check $*"
		sed 's/^/     /' "$tmp/out" | head -n 20
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

gen s3 --schema 3 --ranks 3 --threads 2 --tasks 1 --await --no-exclusive \
	--events 20k --seed 7 &&
	{
		check "$tmp/s3.h5"
		check "$tmp/s3.h5" --ranks 1-2
		check "$tmp/s3.h5" --expand-recursion
		check "$tmp/s3.h5" --range 5ms:9ms
		check "$tmp/s3.h5" --range 6.5ms:6.6ms --ranks 0
		check "$tmp/s3.h5" --range 0:1s --expand-recursion
		check "$tmp/s3.h5" --include solve
		check "$tmp/s3.h5" --exclude kernel --exclude 'mpi:(wait|isend)'
		check "$tmp/s3.h5" --include 'kernel:p' --include fetch \
			--exclude timestep
		check "$tmp/s3.h5" --include 'mpi:' --exclude halo \
			--range 5ms:9ms --ranks 0-1
		check "$tmp/s3.h5" --include fib --expand-recursion
	}
gen deep --schema 3 --ranks 2 --depth 7 --events 10k --seed 19 &&
	{
		check "$tmp/deep.h5"
		check "$tmp/deep.h5" --expand-recursion
		check "$tmp/deep.h5" --range 5.2ms:7ms
	}
gen s2 --schema 2 --ranks 2 --threads 2 --events 8k --seed 3 &&
	check "$tmp/s2.h5"
gen s1 --schema 1 --ranks 2 --events 4k --seed 5 && check "$tmp/s1.h5"

if [ -d "$fixtures" ]; then
	for f in "$fixtures"/*.h5; do
		case $f in *aggregate*) continue ;; esac
		check "$f"
	done
	check "$fixtures/four_ranks.h5" --ranks 1-2
	check "$fixtures/schema2_ties_zero_length.h5" --expand-recursion
	check "$fixtures/single_rank_nested.h5" --range 0:50ms
	check "$fixtures/four_ranks.h5" --exclude comp --range 0:1s
else
	echo "FAIL: no fixtures at $fixtures"
	failed=$((failed + 1))
fi

# The checker must be able to fail: one exclusive time a nanosecond off.
cat >"$tmp/liar.sh" <<LIAR
#!/bin/bash
"$exe" "\$@" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
d["roots"][0]["exclusive_ns"] += 1
json.dump(d, sys.stdout)
'
LIAR
chmod +x "$tmp/liar.sh"
if [ -f "$tmp/s3.h5" ]; then
	if "$PY" "$check_py" "$tmp/liar.sh" "$tmp/s3.h5" --range 0:1s \
		>"$tmp/out" 2>&1; then
		failed=$((failed + 1))
		echo "FAIL tree_check accepted an exclusive time 1 ns off"
	elif ! grep -q 'MISMATCH.*exclusive_ns' "$tmp/out"; then
		failed=$((failed + 1))
		echo "FAIL tree_check failed for another reason:"
		sed 's/^/     /' "$tmp/out" | head
	else
		passed=$((passed + 1))
		echo "ok   tree_check rejects an exclusive time 1 ns off"
	fi
fi

echo "e2e_tree: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
