#!/usr/bin/env bash
# bench/ranksub.sh: what reading only some ranks saves.  Runs `scopeview
# summary` on FILE under /usr/bin/time -v: the whole file, then each
# --ranks LIST read as a subset (only those ranks' rows, doc/format.md
# 4.14) and read whole then filtered (SCOPEVIEW_NO_RANK_SUBSET=1, as every
# --ranks was read before), and prints the wall time, the peak RSS and
# whether the two reads print the same summary.
#
#     bench/ranksub.sh [--build DIR] [--runs N] [--ranks LIST;LIST...] [FILE]
#
# FILE defaults to /tmp/big10m.h5, written once when missing with
# `scopeview gen --events 10M --ranks 16 --seed 1` (45 MB); --ranks
# defaults to "0;0-7".  With --runs N each figure is the fastest of N runs
# (the RSS of that run).
set -euo pipefail

build=
runs=1
lists='0;0-7'
file=/tmp/big10m.h5
while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--ranks) lists=$2; shift 2 ;;
	-h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "ranksub.sh: unknown argument '$1'" >&2; exit 2 ;;
	*) file=$1; shift ;;
	esac
done
. "$(dirname "$0")/lib.sh"
build=$(bench_build_dir "$build")
exe=$build/scopeview
bench_need_built ranksub.sh "$build" "$exe"
if [ ! -x /usr/bin/time ]; then
	echo "ranksub.sh: needs GNU time as /usr/bin/time" >&2
	exit 1
fi
if [ ! -e "$file" ]; then
	"$exe" gen --quiet --events 10M --ranks 16 --seed 1 "$file"
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sv-ranksub.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# measure OUT ENV... -- ARGS...: "seconds kB" of the fastest run, the
# summary in OUT.
measure() {
	local out=$1 best= rss= i s m
	shift
	local envs=()
	while [ "$1" != -- ]; do
		envs+=("$1")
		shift
	done
	shift
	for ((i = 0; i < runs; i++)); do
		env "${envs[@]}" /usr/bin/time -v "$exe" summary "$@" "$file" \
			>"$out" 2>"$tmp/time"
		s=$(sed -n 's/.*Elapsed (wall clock) time.*: //p' "$tmp/time" |
			awk -F: '{ t = 0; for (k = 1; k <= NF; k++) t = t * 60 + $k; print t }')
		m=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time")
		if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$s
			rss=$m
		fi
	done
	echo "$best $rss"
}

row() { # row LABEL "seconds kB" [same]
	read -r s m <<<"$2"
	printf '| %s | %.2f s | %d MB | %s |\n' "$1" "$s" $((m / 1024)) "${3:--}"
}

echo "file: $file ($(du -h "$file" | cut -f1)), $(nproc) CPUs, load average $(cut -d' ' -f1 /proc/loadavg)"
echo
echo '| summary | wall time | peak RSS | same summary |'
echo '|---|---|---|---|'
row "whole file" "$(measure "$tmp/all" -- )"
IFS=';' read -r -a sets <<<"$lists"
for r in "${sets[@]}"; do
	sub=$(measure "$tmp/sub" -- --ranks "$r")
	full=$(measure "$tmp/full" SCOPEVIEW_NO_RANK_SUBSET=1 -- --ranks "$r")
	same=no
	cmp -s "$tmp/sub" "$tmp/full" && same=yes
	row "--ranks $r, subset read" "$sub" "$same"
	row "--ranks $r, whole read, filtered" "$full" "$same"
done
