#!/usr/bin/env bash
# bench/formats.sh: native traces and JSON profiles against the gzip HDF5
# file of the same calls (issue 37's targets).
#
#     bench/formats.sh [--calls 100M] [--json-calls 10M] [--dir DIR]
#                      [--build DIR] [--runs N]
#
# Writes with `scopeview gen` (16 ranks, two columns, one seed) the run
# as a gzip HDF5 file, as 16 .spt traces in a directory, and JSON of
# --json-calls calls plain and gzip, into DIR (default
# /tmp/scopeview-formats; kept and reused: 100M calls are 1.6 GB of
# traces), then runs build/bench/formats_bench on them.  Every file is
# read from the page cache (just written, or read by the first run).
set -euo pipefail

calls=100M
jcalls=10M
dir=/tmp/scopeview-formats
build=
runs=3
while [ $# -gt 0 ]; do
	case "$1" in
	--calls) calls=$2; shift 2 ;;
	--json-calls) jcalls=$2; shift 2 ;;
	--dir) dir=$2; shift 2 ;;
	--build) build=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	-h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "formats.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
. "$(dirname "$0")/lib.sh"
build=$(bench_build_dir "$build")
exe=$build/scopeview
bench=$build/bench/formats_bench
bench_need_built formats.sh "$build" "$exe" "$bench"
mkdir -p "$dir"
g=(--quiet --ranks 16 --no-call-ids --seed 37)
[ -s "$dir/gz-$calls.h5" ] ||
	"$exe" gen "${g[@]}" --events "$calls" --compression gzip "$dir/gz-$calls.h5"
if [ ! -d "$dir/spt-$calls" ]; then
	mkdir -p "$dir/spt-$calls.tmp"
	"$exe" gen "${g[@]}" --events "$calls" --format spt "$dir/spt-$calls.tmp/run"
	mv "$dir/spt-$calls.tmp" "$dir/spt-$calls"
fi
[ -s "$dir/json-$jcalls.json" ] ||
	"$exe" gen "${g[@]}" --events "$jcalls" --format json "$dir/json-$jcalls.json"
[ -s "$dir/json-$jcalls.json.gz" ] ||
	"$exe" gen "${g[@]}" --events "$jcalls" --format json "$dir/json-$jcalls.json.gz"
uptime >&2 || true
exec "$bench" --runs "$runs" "$dir/gz-$calls.h5" \
	"spt, 16 files=$dir/spt-$calls" \
	"json=$dir/json-$jcalls.json" \
	"json.gz=$dir/json-$jcalls.json.gz"
