#!/bin/sh
# Build and run every test twice: in the plain build (./build) and under
# AddressSanitizer + UndefinedBehaviorSanitizer (./build-asan, where any
# UBSan finding aborts); then the model and loader suites under valgrind's
# memcheck (meson test --setup=valgrind), and each libFuzzer harness for a
# minute (tools/fuzz.sh: clang, ./build-fuzz; SCOPEVIEW_FUZZ_SECONDS
# changes the time).  Prints Check's summary lines for every suite and
# ends with one "tests: N passed, N failed, N skipped" line.
#
# A skipped test (exit 77: something it needs is missing here) is counted
# apart, never as a pass.  Under SCOPEVIEW_NO_SKIP=1 (which .ci/run sets)
# any skip fails the run, and the tests themselves fail instead of
# skipping.  In CI (CI set, or SCOPEVIEW_NO_SKIP=1) the goldens are
# compared, never rewritten: SCOPEVIEW_UPDATE_GOLDEN refuses to run.
set -u
cd "$(dirname "$0")/.."

in_ci=0
case "${CI:-}" in
"" | false | 0) ;;
*) in_ci=1 ;;
esac
[ "${SCOPEVIEW_NO_SKIP:-0}" = 1 ] && in_ci=1
if [ "$in_ci" = 1 ] && [ -n "${SCOPEVIEW_UPDATE_GOLDEN:-}" ]; then
	echo "tools/test.sh: SCOPEVIEW_UPDATE_GOLDEN is set in CI; CI" \
		"compares the goldens and never rewrites them" >&2
	exit 1
fi

setup() {
	dir=$1
	shift
	if [ -d "$dir/meson-private" ]; then
		meson setup --reconfigure "$dir" "$@" >/dev/null
	else
		meson setup "$dir" "$@" >/dev/null
	fi
}

# No committed file may switch the golden rewrite on for everyone.
if git rev-parse --git-dir >/dev/null 2>&1 &&
	git grep -nE "(setenv\(\"|putenv\(\"|export |env\.set\(')SCOPEVIEW_UPDATE_GOLDEN" \
		-- . ':!tools/test.sh'; then
	echo "tools/test.sh: a committed file sets SCOPEVIEW_UPDATE_GOLDEN" \
		"(above); goldens are rewritten by hand only" >&2
	exit 1
fi

passed=0
failed=0
skipped=0
failures=""
# count LOG: add the results of a meson test log to the totals.
count() {
	log=$1
	if [ -f "$log" ]; then
		p=$(grep -c '"result": "OK"' "$log" || true)
		s=$(grep -c '"result": "SKIP"' "$log" || true)
		t=$(grep -c '"result":' "$log" || true)
		passed=$((passed + p))
		skipped=$((skipped + s))
		failed=$((failed + t - p - s))
		# The names of the tests that did not pass, for the last lines
		# (a CI log may keep only its tail).
		f=$(grep -v -e '"result": "OK"' -e '"result": "SKIP"' "$log" |
			sed -n 's/^{"name": "\([^"]*\)".*"result": "\([A-Z]*\)".*/\1 (\2)/p' |
			sed "s|^|$log: |")
		[ -n "$f" ] && failures="$failures$f
"
	fi
}

run() {
	dir=$1
	shift
	echo "=== meson test in $dir"
	if ! meson compile -C "$dir"; then
		failed=$((failed + 1))
		failures="${failures}meson compile -C $dir
"
		return
	fi
	meson test -C "$dir" --setup=full -v --print-errorlogs "$@"
	count "$dir/meson-logs/testlog-full.json"
}

# The model and loader suites under memcheck (meson.build's valgrind
# setup); any error report fails the suite.  The loader's two slowest
# cases stay with the sanitizer build: its large-file decoding (a minute
# and more under valgrind) and its byte-flip fuzzing, whose children crash
# libhdf5 on purpose.
VALGRIND_SUITES="profile nest stats regex callpath load hostile"
# (Check has no list of cases to leave out: those test cases carry the
# tag no-valgrind.)  The load suite is one executable built from
# tests/test_load*.c (every part of src/io/load*.c's tests), so "load"
# runs them all.
VALGRIND_EXCLUDE_TAGS="no-valgrind"
run_valgrind() {
	echo "=== meson test --setup=valgrind in build"
	if ! command -v valgrind >/dev/null 2>&1; then
		echo "tools/test.sh: valgrind is not installed (tools/deps.sh)"
		skipped=$((skipped + 1))
		return
	fi
	rm -f build/meson-logs/testlog-valgrind.json
	# shellcheck disable=SC2086
	CK_EXCLUDE_TAGS=$VALGRIND_EXCLUDE_TAGS \
		meson test -C build --setup=valgrind -v --print-errorlogs \
		$VALGRIND_SUITES
	count build/meson-logs/testlog-valgrind.json
}

run_fuzz() {
	echo "=== tools/fuzz.sh ${SCOPEVIEW_FUZZ_SECONDS:-60}"
	rm -f build-fuzz/meson-logs/testlog.json
	./tools/fuzz.sh "${SCOPEVIEW_FUZZ_SECONDS:-60}"
	rc=$?
	if [ "$rc" = 77 ]; then
		skipped=$((skipped + 1))
	elif [ -f build-fuzz/meson-logs/testlog.json ]; then
		count build-fuzz/meson-logs/testlog.json
	else
		failed=$((failed + 1))
		failures="${failures}tools/fuzz.sh (no test log)
"
	fi
}

setup build || exit 1
run build
setup build-asan -Dbuildtype=debug -Db_sanitize=address,undefined \
	-Db_lundef=false -Dc_args=-fno-sanitize-recover=all || exit 1
CK_TIMEOUT_MULTIPLIER=10 run build-asan
run_valgrind
run_fuzz

if [ -n "$failures" ]; then
	echo "tests that did not pass:"
	printf '%s' "$failures" | sed 's/^/  /'
fi
echo "tests: $passed passed, $failed failed, $skipped skipped"
if [ "$skipped" -gt 0 ] && [ "${SCOPEVIEW_NO_SKIP:-0}" = 1 ]; then
	echo "tools/test.sh: $skipped skipped, but SCOPEVIEW_NO_SKIP=1:" \
		"nothing may skip here" >&2
	exit 1
fi
[ "$failed" -eq 0 ]
