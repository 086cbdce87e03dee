# bench/lib.sh: what the benchmark scripts share; sourced, not run.
#
#     . "$(dirname "$0")/lib.sh"
#     build=$(bench_build_dir "$build")
#     bench_need_built NAME "$build" "$build/scopeview" ...
#     f=$(bench_scale_file NAME "$exe" DIR SIZE KIND)

bench_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# The build directory: $1, or the one beside bench/ when empty.
bench_build_dir() {
	if [ -n "$1" ]; then echo "$1"; else echo "$bench_here/../build"; fi
}

# Stop (exit 1) unless every FILE after NAME and BUILD is built; NAME
# starts the message.
bench_need_built() {
	local name=$1 build=$2 f
	shift 2
	for f in "$@"; do
		if [ ! -x "$f" ]; then
			echo "$name: $f is not built (ninja -C $build)" >&2
			exit 1
		fi
	done
}

# DIR/calls-SIZE-KIND.h5, written with EXE's gen when missing (16 ranks,
# 64 for a billion calls; schema 3): KIND 2 is the two-column file (start deltas and durations,
# --no-call-ids), KIND 5 the five-column one (call, parent and thread
# ids, --threads 2), both in scope-profiler's writer's layout (chunks of
# 1024 values, shuffle + deflate); KIND 2c is the two-column file in
# chunks of 65536 values (few large chunks, as a writer that sizes them
# to the data leaves).  Prints the path.
bench_scale_file() {
	local name=$1 exe=$2 dir=$3 size=$4 kind=$5 f extra ranks=16
	f=$dir/calls-$size-$kind.h5
	case "$size" in 1G|1000M|1000000000) ranks=64 ;; esac
	if [ ! -s "$f" ]; then
		case "$kind" in
		2) extra=(--no-call-ids) ;;
		2c) extra=(--no-call-ids --chunk 65536) ;;
		*) extra=(--threads 2) ;;
		esac
		echo "$name: writing $f" >&2
		mkdir -p "$dir"
		"$exe" gen --quiet --ranks "$ranks" --events "$size" "${extra[@]}" \
			"$f.tmp"
		mv "$f.tmp" "$f"
	fi
	echo "$f"
}
