#!/bin/bash
# e2e_ranks.sh: `scopeview ranks`, `scopeview calls` and `scopeview calls
# --histogram` checked by tests/ranks_check.py against the raw HDF5 columns
# (numpy), against `scopeview summary --format json` (per-rank totals,
# exclusive times, rank_imbalance_pct) and against the fixtures' expected
# values, on the fixtures and on files written by `scopeview gen` (one
# with a slow rank, GPU and await columns; a 1,000-rank one).  Also checks
# the table and CSV formats and the command lines' mistakes, and the call
# list's metadata column against a golden screen.
#
# Exits 77 (skipped) when /usr/bin/python3 cannot import h5py and numpy,
# unless SCOPEVIEW_REQUIRE_H5PY=1 (or SCOPEVIEW_NO_SKIP=1).
set -u

PY=/usr/bin/python3
here=$(cd "$(dirname "$0")" && pwd)
exe=${SCOPEVIEW_EXE:-$here/../build/scopeview}
fixtures=${SCOPEVIEW_FIXTURES:-$here/fixtures}

if ! "$PY" -c 'import h5py, numpy' 2>/dev/null; then
	if [ "${SCOPEVIEW_REQUIRE_H5PY:-${SCOPEVIEW_NO_SKIP:-0}}" = 1 ]; then
		echo "FAIL: $PY cannot import h5py and numpy"
		exit 1
	fi
	echo "SKIP: $PY cannot import h5py and numpy"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sv-e2e-ranks.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

check() { # check FILE [EXPECTED]
	if "$PY" "$here/ranks_check.py" "$exe" "$@" >"$tmp/out" 2>&1; then
		passed=$((passed + 1))
		tail -n 1 "$tmp/out"
	else
		failed=$((failed + 1))
		echo "FAIL ranks_check $*"
		sed 's/^/     /' "$tmp/out"
	fi
}

expect() { # expect WHAT STATUS COMMAND...: exit status and no crash
	local what=$1 want=$2
	shift 2
	"$@" >"$tmp/cmd.out" 2>&1
	local got=$?
	if [ "$got" = "$want" ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL $what: exit $got, want $want"
		sed 's/^/     /' "$tmp/cmd.out"
	fi
}

for f in "$fixtures"/*.h5; do
	e=${f%.h5}.expected.json
	if [ -f "$e" ]; then check "$f" "$e"; else check "$f"; fi
done

"$exe" gen --quiet --ranks 16 --imbalance 1.5 --gpu --await --tasks 2 \
	--events 40k --seed 3 "$tmp/slow16.h5" && check "$tmp/slow16.h5"
"$exe" gen --quiet --schema 1 --ranks 3 --events 5k --seed 2 \
	"$tmp/s1.h5" && check "$tmp/s1.h5"
"$exe" gen --quiet --ranks 1000 --events 200k --seed 5 "$tmp/r1000.h5" &&
	check "$tmp/r1000.h5"

# The slow rank of a 16-rank run is the slowest rank of most regions.
if "$exe" ranks --format json "$tmp/slow16.h5" >"$tmp/slow.json"; then
	slow=$("$PY" -c '
import json, collections, sys
d = json.load(open(sys.argv[1]))
c = collections.Counter(g["slowest_rank"] for g in d["regions"]
                        if g["slowest_rank"] is not None)
print(c.most_common(1)[0][0])' "$tmp/slow.json")
	echo "slow rank of slow16.h5: $slow"
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	echo "FAIL ranks --format json slow16.h5"
fi

expect "ranks table" 0 "$exe" ranks "$fixtures/four_ranks.h5"
expect "ranks csv" 0 "$exe" ranks --format csv --metric exclusive \
	"$fixtures/four_ranks.h5"
expect "calls table" 0 "$exe" calls --region solve --ranks 1-2 \
	"$fixtures/four_ranks.h5"
expect "calls csv" 0 "$exe" calls --region solve --format csv \
	--sort exclusive --reverse "$fixtures/four_ranks.h5"
expect "histogram table" 0 "$exe" calls --region solve --histogram 5 \
	"$fixtures/four_ranks.h5"
expect "calls without --region" 2 "$exe" calls "$fixtures/four_ranks.h5"
expect "calls unknown region" 1 "$exe" calls --region nope \
	"$fixtures/four_ranks.h5"
expect "calls bad sort" 2 "$exe" calls --region solve --sort nope \
	"$fixtures/four_ranks.h5"
expect "calls bad histogram" 2 "$exe" calls --region solve --histogram 0 \
	"$fixtures/four_ranks.h5"
expect "ranks bad metric" 2 "$exe" ranks --metric nope \
	"$fixtures/four_ranks.h5"
expect "ranks missing file" 1 "$exe" ranks "$tmp/none.h5"
expect "ranks help" 0 "$exe" ranks --help
expect "calls help" 0 "$exe" calls --help

# CSV rows: one per (region, rank with calls), as the JSON lists them.
"$exe" ranks --format csv "$fixtures/four_ranks.h5" >"$tmp/r.csv"
"$exe" ranks --format json "$fixtures/four_ranks.h5" >"$tmp/r.json"
if "$PY" -c '
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
d = json.load(open(sys.argv[2]))
want = [(g["name"], c["rank"], c["total_ns"]) for g in d["regions"]
        for c in g["ranks"]]
got = [(r["region"], int(r["rank"]), int(r["total_ns"])) for r in rows]
sys.exit(0 if got == want else 1)' "$tmp/r.csv" "$tmp/r.json"; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	echo "FAIL ranks CSV disagrees with JSON"
fi

# The call list's metadata column, on a file with event metadata (a gen
# file with /rank_region_index/event_metadata added by h5py as scope-
# profiler 0.7 writes it): a golden screen, rewritten with
# SCOPEVIEW_UPDATE_GOLDEN=1 (then read the diff by eye).
golden="$here/golden/calls_metadata_file.txt"
if "$exe" gen --quiet --ranks 2 --events 2k --seed 3 "$tmp/m0.h5" &&
	(cd "$here" && "$PY" -c 'import sys, groupby_check
groupby_check.write_metadata(sys.argv[1], sys.argv[2], False)' \
		"$tmp/m0.h5" "$tmp/meta.h5") &&
	"$exe" snapshot --size 120x16 \
		--keys ': r e g i o n Space s o l v e Enter L' "$tmp/meta.h5" |
	sed "s|$tmp/||" >"$tmp/calls_meta.txt"; then
	if [ "${SCOPEVIEW_UPDATE_GOLDEN:-0}" = 1 ]; then
		cp "$tmp/calls_meta.txt" "$golden"
	fi
	if cmp -s "$tmp/calls_meta.txt" "$golden"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		cp "$tmp/calls_meta.txt" "${golden%.txt}.actual"
		echo "FAIL call list with metadata: diff -u $golden ${golden%.txt}.actual"
	fi
else
	failed=$((failed + 1))
	echo "FAIL call list with metadata: the file or the snapshot failed"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
