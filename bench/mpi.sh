#!/usr/bin/env bash
# bench/mpi.sh: scopeview-mpi's memory, time and reads per process against
# the serial scopeview, on the same file in the same run (issue 41).
#
#     bench/mpi.sh [--calls 10M] [--ranks 8] [--procs "1 2"] [--dir DIR]
#                  [--build DIR] [--command "summary --format json"]
#
# Writes DIR/mpi-CALLS-RANKS.h5 with `scopeview gen` when missing (DIR
# defaults to /tmp/scopeview-mpi; kept and reused), runs `scopeview
# COMMAND F` once, then `mpirun -n N scopeview-mpi COMMAND F` for each N
# (oversubscribed when N is more than the cores), each process under
# /usr/bin/time, and prints one line per run: the wall time, the peak
# RSS of the largest process and its ratio to the serial peak (the
# target at N = 2 is at most 0.65), and whether the output is byte for
# byte the serial one.  With strace installed it then counts, per
# process, the bytes read from the file (the read system calls on its
# descriptors), to show that each reads its share.  The file is read
# from the page cache (just written, or read by the first run).
set -euo pipefail

calls=10M
ranks=8
procs="1 2"
dir=/tmp/scopeview-mpi
build=
command="summary --format json"
while [ $# -gt 0 ]; do
	case "$1" in
	--calls) calls=$2; shift 2 ;;
	--ranks) ranks=$2; shift 2 ;;
	--procs) procs=$2; shift 2 ;;
	--dir) dir=$2; shift 2 ;;
	--build) build=$2; shift 2 ;;
	--command) command=$2; shift 2 ;;
	*)
		echo "usage: bench/mpi.sh [--calls N] [--ranks N] [--procs LIST]" \
			"[--dir DIR] [--build DIR] [--command CMD]" >&2
		exit 2
		;;
	esac
done
here=$(cd "$(dirname "$0")" && pwd)
build=${build:-$here/../build}
sv=$build/scopeview
svm=$build/scopeview-mpi
[ -x "$svm" ] || {
	echo "bench/mpi.sh: no $svm (meson setup -Dmpi=enabled)" >&2
	exit 1
}
[ -x /usr/bin/time ] || {
	echo "bench/mpi.sh: needs /usr/bin/time (Debian's time)" >&2
	exit 1
}
if [ "$(id -u)" = 0 ]; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
mkdir -p "$dir"
f=$dir/mpi-$calls-$ranks.h5
[ -f "$f" ] || "$sv" gen --quiet --events "$calls" --ranks "$ranks" "$f"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sv-bench-mpi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
read -r -a cmd <<<"$command"

echo "file $f ($(du -h "$f" | cut -f1)), command: $command"
/usr/bin/time -f '%e %M' -o "$tmp/serial.time" "$sv" "${cmd[@]}" "$f" \
	>"$tmp/serial.out"
read -r s_wall s_peak <"$tmp/serial.time"
printf '%-14s %8s s %10s KB %7s\n' "scopeview" "$s_wall" "$s_peak" "1.00x"
for n in $procs; do
	# Each process writes its own time file: $OMPI_COMM_WORLD_RANK.
	start=$(date +%s.%N)
	mpirun -q --oversubscribe -n "$n" sh -c '
		exec /usr/bin/time -f "%e %M" -o "$0.$OMPI_COMM_WORLD_RANK" "$@"
	' "$tmp/p$n" "$svm" "${cmd[@]}" "$f" >"$tmp/p$n.out"
	end=$(date +%s.%N)
	peak=$(cat "$tmp/p$n".[0-9]* | awk '$2 > m { m = $2 } END { print m }')
	same=identical
	cmp -s "$tmp/serial.out" "$tmp/p$n.out" || same=DIFFERENT
	printf '%-14s %8.2f s %10s KB %6.3fx  (%s; per process: %s)\n' \
		"mpirun -n $n" "$(echo "$end - $start" | bc)" "$peak" \
		"$(echo "$peak / $s_peak" | bc -l)" "$same" \
		"$(cat "$tmp/p$n".[0-9]* | awk '{ printf "%s s %s KB; ", $1, $2 }')"
done

command -v strace >/dev/null 2>&1 || exit 0
echo "bytes read from $f per process (strace):"
# Sum what the read system calls return on the descriptors opened to f.
count_reads() { # count_reads TRACE
	awk -v want="$f" '
	/openat\(/ && / = [0-9]+$/ {
		fd = $NF
		if (index($0, "\"" want "\"")) on[fd] = 1; else delete on[fd]
		next
	}
	/^[0-9]+ +close\(/ {
		s = $0; sub(/.*close\(/, "", s); sub(/\).*/, "", s)
		delete on[s]; next
	}
	/(pread64|read|preadv|preadv2)\(/ && / = [0-9]+$/ {
		s = $0; sub(/.*(pread64|read|preadv|preadv2)\(/, "", s)
		sub(/,.*/, "", s)
		if (s in on) { bytes += $NF; calls++ }
	}
	END { printf "%.2f MB in %d reads\n", bytes / 1e6, calls }' "$1"
}
trace="strace -f -e trace=openat,close,read,pread64,preadv,preadv2"
$trace -o "$tmp/serial.trace" "$sv" "${cmd[@]}" "$f" >/dev/null
printf '  %-22s %s\n' "scopeview" "$(count_reads "$tmp/serial.trace")"
for n in $procs; do
	mpirun -q --oversubscribe -n "$n" sh -c '
		t=$1; shift
		exec '"$trace"' -o "$t.$OMPI_COMM_WORLD_RANK" "$@"
	' sh "$tmp/t$n" "$svm" "${cmd[@]}" "$f" >/dev/null
	for t in "$tmp/t$n".[0-9]*; do
		printf '  %-22s %s\n' "-n $n process ${t##*.}" "$(count_reads "$t")"
	done
done
