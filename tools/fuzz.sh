#!/bin/sh
# Fuzz scopeview for a bounded time: tools/fuzz.sh [SECONDS] (default 60)
# builds the libFuzzer harnesses of fuzz/ with clang, ASAN and UBSAN in
# ./build-fuzz and runs each for SECONDS (fuzz/run.sh: the regression
# inputs of fuzz/regress/ first).  tools/test.sh runs it with the default.
# Warnings do not stop this build (clang warns about things gcc, which
# the other builds use with -Werror, does not).
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-60}
if ! command -v clang >/dev/null 2>&1; then
	echo "tools/fuzz.sh: clang is not installed (tools/deps.sh installs" \
		"it with libclang-rt-dev)" >&2
	exit 77
fi
opts="-Dfuzz=true -Dfuzz_seconds=$seconds -Dtests=false -Dbenchmarks=false \
-Dman=disabled -Dwerror=false -Dbuildtype=debugoptimized -Db_sanitize=address,undefined \
-Db_lundef=false -Dc_args=-fno-sanitize-recover=all"
if [ -d build-fuzz/meson-private ]; then
	# shellcheck disable=SC2086
	meson setup --reconfigure build-fuzz $opts >/dev/null
else
	# shellcheck disable=SC2086
	CC=clang meson setup build-fuzz $opts >/dev/null
fi
meson compile -C build-fuzz
meson test -C build-fuzz --suite fuzz -v --print-errorlogs \
	--num-processes 1
