#!/bin/bash
# e2e_formats.sh: native traces, directories of per-rank files and JSON
# profiles through the command line (doc/format.md 16).  `scopeview gen`
# writes one run as HDF5, as .spt traces, as per-rank .h5 files and as
# JSON (plain and gzip); `summary` of each, of a directory mixing traces
# and per-rank .h5 files, and of each `convert` output must print the same
# figures; every converted file is read with h5py (formats_check.py) and
# compared call by call with its input; bad inputs fail in one line with
# exit status 1.
#
# Exits 77 (skipped) when /usr/bin/python3 cannot import h5py, unless
# SCOPEVIEW_REQUIRE_H5PY=1 (or SCOPEVIEW_NO_SKIP=1).
set -u

PY=/usr/bin/python3
here=$(cd "$(dirname "$0")" && pwd)
exe=${SCOPEVIEW_EXE:-$here/../build/scopeview}

if ! "$PY" -c 'import h5py, numpy' 2>/dev/null; then
	if [ "${SCOPEVIEW_REQUIRE_H5PY:-${SCOPEVIEW_NO_SKIP:-0}}" = 1 ]; then
		echo "FAIL: $PY cannot import h5py (install python3-h5py)"
		exit 1
	fi
	echo "SKIP: $PY cannot import h5py"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sv-e2e-formats.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

ok() {
	passed=$((passed + 1))
}
bad() {
	echo "FAIL: $*"
	failed=$((failed + 1))
}

# The same run in every format: 40k calls on 8 ranks (auto compression
# applies from 16384 events).
gen() {
	"$exe" gen --quiet --ranks 8 --events 40000 --no-call-ids "$@"
}
mkdir -p "$tmp/spt" "$tmp/mixed" "$tmp/rh5"
gen "$tmp/ref.h5" || bad "gen hdf5"
gen --format spt "$tmp/spt/run" || bad "gen spt"
gen --format rank-h5 "$tmp/rh5/run" || bad "gen rank-h5"
gen --format json "$tmp/run.json" || bad "gen json"
gen --format json "$tmp/run.json.gz" || bad "gen json.gz"
for r in 0 2 4 6; do cp "$tmp/spt/run_rank0000$r.spt" "$tmp/mixed/"; done
for r in 1 3 5 7; do cp "$tmp/rh5/run_rank0000$r.h5" "$tmp/mixed/"; done
# a merged profile beside per-rank files is not one of them
cp "$tmp/ref.h5" "$tmp/mixed/merged.h5"

figures() {
	"$exe" summary --format csv "$1" 2>"$tmp/err" >"$tmp/fig.csv" || {
		cat "$tmp/err"
		return 1
	}
	cat "$tmp/fig.csv"
}
figures "$tmp/ref.h5" >"$tmp/ref.csv" || bad "summary ref.h5"
for input in "$tmp/spt" "$tmp/spt/run_rank00000.spt" "$tmp/mixed" \
	"$tmp/run.json" "$tmp/run.json.gz"; do
	name=$(basename "$input")
	if [ "$input" = "$tmp/spt/run_rank00000.spt" ]; then
		# one rank of the run: its own figures, 8 ranks as rank 7's
		# file would say (here rank 0: 1 rank)
		figures "$input" >/dev/null && ok || bad "summary $name"
		continue
	fi
	if figures "$input" >"$tmp/$name.csv" &&
		cmp -s "$tmp/ref.csv" "$tmp/$name.csv"; then
		ok
	else
		bad "summary $name differs from the HDF5 run's"
		diff "$tmp/ref.csv" "$tmp/$name.csv" | head -5
	fi
	out="$tmp/conv-$name.h5"
	if ! "$exe" convert -o "$out" "$input" 2>"$tmp/err"; then
		bad "convert $name: $(cat "$tmp/err")"
		continue
	fi
	if figures "$out" >"$tmp/conv-$name.csv" &&
		cmp -s "$tmp/ref.csv" "$tmp/conv-$name.csv"; then
		ok
	else
		bad "summary of convert $name differs"
		diff "$tmp/ref.csv" "$tmp/conv-$name.csv" | head -5
	fi
	case $name in
	*.json*) kind=--json ;;
	*) kind=--native ;;
	esac
	if "$PY" "$here/formats_check.py" "$out" "$kind" "$input" \
		>"$tmp/check" 2>&1; then
		ok
	else
		bad "h5py check of convert $name: $(cat "$tmp/check")"
	fi
done
# The directory's JSON export (export --format json) reads back with the
# same figures, and so does a run with every optional column (threads,
# tasks, GPU and await times, call ids) through JSON and convert.
"$exe" export --format json -o "$tmp/mixed.json" "$tmp/mixed" 2>"$tmp/err" ||
	bad "export --format json of a directory: $(cat "$tmp/err")"
if figures "$tmp/mixed.json" >"$tmp/mixed-json.csv" &&
	cmp -s "$tmp/ref.csv" "$tmp/mixed-json.csv"; then
	ok
else
	bad "summary of the directory's JSON export differs"
fi
"$exe" gen --quiet --ranks 3 --threads 2 --tasks 2 --gpu --await \
	--events 30000 "$tmp/full.h5"
"$exe" export --format json -o "$tmp/full.json" "$tmp/full.h5" &&
	"$exe" convert -o "$tmp/full-conv.h5" "$tmp/full.json" ||
	bad "full run through JSON and convert"
for cmd in "summary --format csv" "tree --format csv" "ranks --format csv"; do
	# shellcheck disable=SC2086
	"$exe" $cmd "$tmp/full.h5" >"$tmp/a.txt" 2>&1
	for other in full.json full-conv.h5; do
		# shellcheck disable=SC2086
		"$exe" $cmd "$tmp/$other" >"$tmp/b.txt" 2>&1
		cmp -s "$tmp/a.txt" "$tmp/b.txt" && ok ||
			bad "$cmd of $other differs from the HDF5 run's"
	done
done
"$PY" "$here/formats_check.py" "$tmp/full-conv.h5" --json "$tmp/full.json" \
	>"$tmp/check" 2>&1 && ok || bad "h5py check: $(cat "$tmp/check")"

# --ranks reads only those ranks' files, with the figures of the HDF5
# run's subset
for input in "$tmp/spt" "$tmp/mixed"; do
	if "$exe" summary --format csv --ranks 1,2 "$input" >"$tmp/sub.csv" &&
		"$exe" summary --format csv --ranks 1,2 "$tmp/ref.h5" \
			>"$tmp/subref.csv" && cmp -s "$tmp/sub.csv" "$tmp/subref.csv"; then
		ok
	else
		bad "summary --ranks 1,2 $(basename "$input") differs"
	fi
done
"$exe" snapshot --ranks 3 --size 100x20 "$tmp/mixed" >/dev/null 2>"$tmp/err" &&
	ok || bad "snapshot --ranks of a directory: $(cat "$tmp/err")"

# several inputs: import-native's way of naming files one by one
"$exe" convert -o "$tmp/many.h5" "$tmp/spt/run_rank00000.spt" \
	"$tmp/mixed/run_rank00001.h5" 2>"$tmp/err" && ok ||
	bad "convert of two files: $(cat "$tmp/err")"
"$PY" -c "
import h5py, sys
f = h5py.File(sys.argv[1])
assert sorted(set(f['rank_region_index/ranks'][:])) == [0, 1]
assert f['metadata'].attrs['label'] == 'many'
" "$tmp/many.h5" && ok || bad "two files converted: ranks or label"

# Errors: one line naming the file, exit status 1.
expect1() {
	local words=$1
	shift
	"$exe" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ "$rc" -ne 1 ] || ! grep -qF -- "$words" "$tmp/err" ||
		[ "$(wc -l <"$tmp/err")" -ne 1 ]; then
		bad "$* -> $rc, wanted 1 and '$words': $(cat "$tmp/err")"
	else
		ok
	fi
}
printf 'SCOPEPRF\1\0\0\0' >"$tmp/short.spt"
expect1 "short.spt: too short to be a trace file" summary "$tmp/short.spt"
printf 'SCOPEPRX\2\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0' >"$tmp/magic.spt"
expect1 "magic.spt: not a scope-profiler native trace" summary "$tmp/magic.spt"
printf 'SCOPEPRF\7\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0' >"$tmp/ver.spt"
expect1 "unsupported trace format version 7" tree "$tmp/ver.spt"
head -c 3000 "$tmp/spt/run_rank00001.spt" >"$tmp/cut.spt"
expect1 "cut.spt: truncated trace file: region" ranks "$tmp/cut.spt"
cat "$tmp/spt/run_rank00001.spt" >"$tmp/trail.spt"
printf 'xx' >>"$tmp/trail.spt"
expect1 "2 trailing byte(s)" calls --region main "$tmp/trail.spt"
mkdir "$tmp/dup"
cp "$tmp/spt/run_rank00001.spt" "$tmp/dup/a_rank1.spt"
cp "$tmp/spt/run_rank00001.spt" "$tmp/dup/b_rank1.spt"
expect1 "both claim rank 1" summary "$tmp/dup"
expect1 "both claim rank 1" diff "$tmp/ref.h5" "$tmp/dup"
expect1 "both claim rank 1" export --format csv -o "$tmp/x.csv" "$tmp/dup"
expect1 "both claim rank 1" snapshot "$tmp/dup"
printf '{"format": "speedscope"}' >"$tmp/other.json"
expect1 "not a scope-profiler JSON profile" summary "$tmp/other.json"
head -c 5000 "$tmp/run.json.gz" >"$tmp/cut.json.gz"
expect1 "cut.json.gz: gzip" summary "$tmp/cut.json.gz"
# convert refuses to write over a directory or an input, before it
# reads anything: a command-line mistake (the output rule, outfile.h)
expect2() {
	local words=$1
	shift
	"$exe" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ "$rc" -ne 2 ] || ! grep -qF -- "$words" "$tmp/err" ||
		[ "$(wc -l <"$tmp/err")" -ne 1 ]; then
		bad "$* -> $rc, wanted 2 and '$words': $(cat "$tmp/err")"
	else
		ok
	fi
}
mkdir "$tmp/outdir"
expect2 "not a regular file" convert -o "$tmp/outdir" "$tmp/spt"
expect2 "is an input" convert -o "$tmp/run.json" "$tmp/run.json"
expect2 "a file of the input directory" convert -o "$tmp/spt/run_rank00001.spt" "$tmp/spt"
"$exe" convert "$tmp/spt" >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "convert without -o is not a usage error"

# Every command takes the new inputs (the viewer through snapshot).
for cmd in "tree" "ranks" "calls --region main" "snapshot" "export --format chrome -o $tmp/t.json"; do
	# shellcheck disable=SC2086
	if "$exe" $cmd "$tmp/mixed" >/dev/null 2>"$tmp/err"; then
		ok
	else
		bad "$cmd on a directory: $(cat "$tmp/err")"
	fi
done
"$exe" diff "$tmp/run.json.gz" "$tmp/spt" >"$tmp/diff.txt" 2>"$tmp/err" &&
	ok || bad "diff json.gz vs a directory: $(cat "$tmp/err")"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
