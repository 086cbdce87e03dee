#!/usr/bin/env bash
# bench/scale.sh: the viewer at 1M, 10M and 100M calls against the bare
# h5py read of the same files, as one table with issue 39's targets.
#
#     bench/scale.sh [--sizes 1M,10M,100M,1G] [--dir DIR] [--build DIR]
#                    [--runs N] [--no-anchor]
#
# Writes each size three times with `scopeview gen` (16 ranks, schema 3):
# a two-column file (start deltas and durations only, --no-call-ids) and a
# five-column one (with call ids, parent ids and thread ids, --threads 2),
# both in scope-profiler's writer's layout (1024-value chunks, shuffle +
# deflate), and the two-column file in 65536-value chunks (--chunk 65536),
# into DIR (default /tmp/scopeview-scale; kept and reused, so delete it
# when done: 100M calls take about 0.4 GB a file), then runs
# build/bench/scale_bench on them (see bench/scale_bench.c for what each
# figure means).  Default sizes: 1M,10M.  100M needs about a minute to
# write a file, several GB of memory and a quiet machine.  1G (made once,
# not in CI: about 4 GB and a quarter of an hour to write) is the
# two-column file only, over 64 ranks, opened under --memory 8G in a
# second table: the first frame from the stored records, the ranks held
# and those drawn from their stored rows, and a switch of the ranks held
# (:ranks).  The meson test bench_scale runs it at 1M and only checks
# the table is printed.
set -euo pipefail

sizes=1M,10M
dir=/tmp/scopeview-scale
build=
runs=1
anchor=()
while [ $# -gt 0 ]; do
	case "$1" in
	--sizes) sizes=$2; shift 2 ;;
	--dir) dir=$2; shift 2 ;;
	--build) build=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--no-anchor) anchor=(--no-anchor); shift ;;
	-h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "scale.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
. "$(dirname "$0")/lib.sh"
build=$(bench_build_dir "$build")
exe=$build/scopeview
bench=$build/bench/scale_bench
bench_need_built scale.sh "$build" "$exe" "$bench"
args=()
big=()
IFS=, read -r -a list <<<"$sizes"
for size in "${list[@]}"; do
	if [ "$size" = 1G ]; then
		f=$(bench_scale_file scale.sh "$exe" "$dir" "$size" 2)
		big+=("$size 2-col=$f")
		continue
	fi
	for kind in 2 5 2c; do
		f=$(bench_scale_file scale.sh "$exe" "$dir" "$size" "$kind")
		case "$kind" in
		2c) args+=("$size 2-col 64k=$f") ;;
		*) args+=("$size $kind-col=$f") ;;
		esac
	done
done
uptime >&2 || true
if [ ${#args[@]} -gt 0 ]; then
	"$bench" --runs "$runs" "${anchor[@]}" "${args[@]}"
fi
if [ ${#big[@]} -gt 0 ]; then
	echo
	# (no h5py read: a billion calls' columns are 16 GB of numpy
	# arrays, more than the budget is about)
	"$bench" --runs "$runs" --no-anchor --memory 8G "${big[@]}"
fi
