#!/bin/sh
# Build and run every test twice: in the plain build (./build) and under
# AddressSanitizer + UndefinedBehaviorSanitizer (./build-asan, where any
# UBSan finding aborts).  Prints Check's summary lines for every suite and
# ends with one "N passed, N failed" line.
set -u
cd "$(dirname "$0")/.."

setup() {
	dir=$1
	shift
	if [ -d "$dir/meson-private" ]; then
		meson setup --reconfigure "$dir" "$@" >/dev/null
	else
		meson setup "$dir" "$@" >/dev/null
	fi
}

passed=0
failed=0
run() {
	dir=$1
	shift
	echo "=== meson test in $dir"
	if ! meson compile -C "$dir"; then
		failed=$((failed + 1))
		return
	fi
	meson test -C "$dir" -v --print-errorlogs "$@"
	log="$dir/meson-logs/testlog.json"
	if [ -f "$log" ]; then
		p=$(grep -c '"result": "OK"' "$log" || true)
		s=$(grep -c '"result": "SKIP"' "$log" || true)
		t=$(grep -c '"result":' "$log" || true)
		passed=$((passed + p))
		failed=$((failed + t - p - s))
	fi
}

setup build || exit 1
run build
setup build-asan -Dbuildtype=debug -Db_sanitize=address,undefined \
	-Db_lundef=false -Dc_args=-fno-sanitize-recover=all || exit 1
CK_TIMEOUT_MULTIPLIER=10 run build-asan

echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
