#!/bin/sh
# Run one fuzz harness: run.sh EXE NAME SECONDS [LIBFUZZER-OPTION...].
# First every input in fuzz/regress/NAME/ is replayed (each a crash found
# before, now a regression test); then the harness fuzzes for SECONDS
# from the working corpus in the build directory (kept between runs,
# never committed) and the seed corpus in fuzz/corpus/NAME/ (written by
# fuzz/corpus.c: `build/fuzz/fuzz_corpus fuzz/corpus` rewrites it).  The
# further options go to libFuzzer (-max_len, -close_fd_mask, -dict).  A
# crash leaves its input in FUZZ_BUILD_DIR/artifacts/ and fails the run.
set -eu
exe=$1
name=$2
seconds=$3
shift 3
src=${FUZZ_SOURCE_DIR:-$(dirname "$0")}
out=${FUZZ_BUILD_DIR:-.}
corpus="$out/corpus/$name"
art="$out/artifacts"
mkdir -p "$corpus" "$art"

if [ -d "$src/regress/$name" ] && [ -n "$(ls -A "$src/regress/$name")" ]; then
	echo "fuzz_$name: replaying $(ls "$src/regress/$name" | wc -l) regression inputs"
	"$exe" -rss_limit_mb=2048 -timeout=30 "$@" "$src/regress/$name"/*
fi
seeds=""
[ -d "$src/corpus/$name" ] && seeds="$src/corpus/$name"
echo "fuzz_$name: fuzzing for $seconds s"
# shellcheck disable=SC2086
if ! "$exe" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 \
	-max_len=4096 -print_final_stats=1 "$@" \
	-artifact_prefix="$art/$name-" "$corpus" $seeds; then
	echo "fuzz_$name: found a crash: its input is in $art/;" \
		"add it to fuzz/regress/$name/ and a case to the suite of" \
		"the module at fault" >&2
	exit 1
fi
