#!/bin/bash
# e2e_h5py.sh: files written by `scopeview gen` read with h5py (Debian's
# python3-h5py, through /usr/bin/python3) and compared with the fixtures
# scope-profiler wrote: every dataset and attribute a fixture has must exist
# in ours with the same HDF5 type class, size, sign and string kind; summary
# statistics and exclusive totals must be what scope-profiler's writer would
# store (numpy's figures, nesting rebuilt per lane); storage must follow the
# publish step.  Also checks that the same seed writes the same bytes when
# the runs are more than a second apart, and that a file h5py recompresses
# with LZF (with and without shuffle) reads the same as the original in
# both decoding paths, with no plugin set-up.
#
# Exits 77 (skipped) when /usr/bin/python3 cannot import h5py, unless
# SCOPEVIEW_REQUIRE_H5PY=1 (or SCOPEVIEW_NO_SKIP=1).
set -u

PY=/usr/bin/python3
here=$(cd "$(dirname "$0")" && pwd)
exe=${SCOPEVIEW_EXE:-$here/../build/scopeview}
fixtures=${SCOPEVIEW_FIXTURES:-$here/fixtures}
layout="$here/h5layout.py"

if ! "$PY" -c 'import h5py, numpy' 2>/dev/null; then
	if [ "${SCOPEVIEW_REQUIRE_H5PY:-${SCOPEVIEW_NO_SKIP:-0}}" = 1 ]; then
		echo "FAIL: $PY cannot import h5py (install python3-h5py)"
		exit 1
	fi
	echo "SKIP: $PY cannot import h5py"
	exit 77
fi
if [ ! -x "$exe" ]; then
	echo "FAIL: no scopeview executable at $exe"
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sv-e2e-h5py.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

check() { # check NAME COMMAND...
	local name=$1
	shift
	if "$@" >"$tmp/out" 2>&1; then
		passed=$((passed + 1))
		echo "ok   $name"
	else
		failed=$((failed + 1))
		echo "FAIL $name"
		sed 's/^/     /' "$tmp/out"
	fi
}

gen() { "$exe" gen --quiet "$@"; }

check "gen small, every column" gen --events 3000 --ranks 3 --threads 2 \
	--tasks 2 --gpu --await --seed 7 "$tmp/small.h5"
check "gen 20000 events (auto compression)" gen --events 20000 --ranks 2 \
	--threads 2 --tasks 1 --await --seed 8 "$tmp/large.h5"
check "gen schema 2" gen --events 2500 --ranks 2 --schema 2 --gpu \
	"$tmp/s2.h5"
check "gen schema 1" gen --events 2500 --ranks 2 --schema 1 --gpu \
	"$tmp/s1.h5"
check "gen aggregate" gen --events 2000 --ranks 2 --aggregate \
	"$tmp/agg.h5"
check "gen no call ids, one rank" gen --events 500 --ranks 1 --no-call-ids \
	"$tmp/noids.h5"

check "verify small" "$PY" "$layout" verify "$tmp/small.h5" --uncompressed
check "verify large" "$PY" "$layout" verify "$tmp/large.h5" --compressed
check "verify schema 2" "$PY" "$layout" verify "$tmp/s2.h5" --uncompressed
check "verify no call ids" "$PY" "$layout" verify "$tmp/noids.h5"

if [ -d "$fixtures" ]; then
	for fx in single_rank_nested threads_tasks; do
		check "layout of $fx" "$PY" "$layout" compare \
			"$fixtures/$fx.h5" "$tmp/small.h5"
	done
	check "layout of gpu_likwid_perf_lineprof (without rank groups)" \
		"$PY" "$layout" compare "$fixtures/gpu_likwid_perf_lineprof.h5" \
		"$tmp/small.h5" --skip-rank-groups
	check "layout of large_auto_gzip" "$PY" "$layout" compare \
		"$fixtures/large_auto_gzip.h5" "$tmp/large.h5"
	check "layout of hdf5-schema-2" "$PY" "$layout" compare \
		"$fixtures/hdf5-schema-2.h5" "$tmp/s2.h5"
	check "layout of aggregate_layout" "$PY" "$layout" compare \
		"$fixtures/aggregate_layout.h5" "$tmp/agg.h5"
	check "layout of legacy_schema1" "$PY" "$layout" compare \
		"$fixtures/legacy_schema1.h5" "$tmp/s1.h5"
else
	# The fixtures are part of the repository: missing is a failure.
	echo "FAIL: no fixtures at $fixtures"
	failed=$((failed + 1))
fi

# LZF as h5py writes it (compression="lzf"), with and without shuffle,
# opens without plugin set-up and reads the same as the original: 70000
# events take the parallel chunk path, SCOPEVIEW_NO_FAST_INFLATE=1 H5Dread.
check "gen 70000 events" gen --events 70000 --ranks 2 --threads 2 --seed 9 \
	"$tmp/lzfsrc.h5"
"$exe" summary --format json "$tmp/lzfsrc.h5" >"$tmp/lzfsrc.json" 2>&1
for sh in "" --shuffle; do
	check "h5py recompress lzf $sh" "$PY" "$layout" recompress \
		"$tmp/lzfsrc.h5" "$tmp/lzf$sh.h5" $sh
	for fast in 0 1; do
		check "summary of lzf $sh (no fast path: $fast)" bash -c \
			"SCOPEVIEW_NO_FAST_INFLATE=$fast '$exe' summary \
			--format json '$tmp/lzf$sh.h5' | sed 's|lzf$sh.h5|lzfsrc.h5|g' |
			cmp - '$tmp/lzfsrc.json'"
	done
done

# Same seed, same bytes, also more than a second apart.
check "gen determinism run 1" gen --events 5000 --ranks 2 --threads 2 \
	--tasks 1 --await --gpu --seed 42 "$tmp/d1.h5"
sleep 1.2
check "gen determinism run 2" gen --events 5000 --ranks 2 --threads 2 \
	--tasks 1 --await --gpu --seed 42 "$tmp/d2.h5"
check "same seed, same bytes" cmp "$tmp/d1.h5" "$tmp/d2.h5"
check "gen other seed" gen --events 5000 --ranks 2 --threads 2 --tasks 1 \
	--await --gpu --seed 43 "$tmp/d3.h5"
check "other seed, other bytes" bash -c "! cmp -s '$tmp/d1.h5' '$tmp/d3.h5'"

# A path that cannot be written exits 1; a usage mistake exits 2.
"$exe" gen --quiet --events 10 "$tmp/no/such/dir/x.h5" 2>/dev/null
check "unwritable path exits 1" test $? = 1
"$exe" gen --quiet --ranks nope "$tmp/x.h5" 2>/dev/null
check "bad number exits 2" test $? = 2
"$exe" gen --quiet --schema 4 "$tmp/x.h5" 2>/dev/null
check "bad schema exits 2" test $? = 2

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
