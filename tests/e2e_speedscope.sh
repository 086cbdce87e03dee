#!/bin/bash
# e2e_speedscope.sh: `scopeview export --format speedscope` validated
# against the JSON schema the speedscope npm package ships
# (dist/release/file-format-schema.json), with the ajv validator, both
# installed with npm into the build directory (once; later runs reuse
# them).  Exports of the fixtures with calls, of generated files (threads,
# tasks, deep recursion; with --ranks and --range) and an empty range are
# validated; and a file the schema must refuse (an event without "at") is
# refused, so the validator is known to work.
#
# Exits 77 (skipped) when npm, node or the network to the npm registry is
# missing, unless SCOPEVIEW_NO_SKIP=1 (CI), where that fails the test.
set -u

here=$(cd "$(dirname "$0")" && pwd)
exe=${SCOPEVIEW_EXE:-$here/../build/scopeview}
fixtures=${SCOPEVIEW_FIXTURES:-$here/fixtures}
build=$(cd "${SCOPEVIEW_BUILD_ROOT:-$here/../build}" && pwd)
npmdir="$build/npm-speedscope"
schema="$npmdir/node_modules/speedscope/dist/release/file-format-schema.json"

missing() {
	if [ "${SCOPEVIEW_NO_SKIP:-0}" = 1 ]; then
		echo "FAIL: $*"
		exit 1
	fi
	echo "SKIP: $*"
	exit 77
}

command -v node >/dev/null 2>&1 || missing "no node (install nodejs)"
if [ ! -f "$schema" ] || [ ! -d "$npmdir/node_modules/ajv" ]; then
	command -v npm >/dev/null 2>&1 || missing "no npm (install npm)"
	mkdir -p "$npmdir"
	[ -f "$npmdir/package.json" ] || echo '{"private": true}' \
		>"$npmdir/package.json"
	if ! (cd "$npmdir" && timeout 600 npm install --no-audit --no-fund \
		--silent speedscope@1 ajv@8 >"$npmdir/install.log" 2>&1); then
		sed 's/^/     /' "$npmdir/install.log" | tail -n 5
		missing "npm install speedscope ajv failed (no network?)"
	fi
fi
[ -f "$schema" ] || missing "the speedscope package has no $schema"
echo "speedscope $(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' \
	"$npmdir/node_modules/speedscope/package.json" | head -n 1)," \
	"ajv $(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' \
	"$npmdir/node_modules/ajv/package.json" | head -n 1)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sv-e2e-speedscope.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
files=()

export_to() { # export_to NAME FILE [options...]
	local name=$1
	shift
	if "$exe" export --format speedscope -o "$tmp/$name.json" "$@" \
		2>"$tmp/err"; then
		files+=("$tmp/$name.json")
	else
		failed=$((failed + 1))
		echo "FAIL export $*: $(cat "$tmp/err")"
	fi
}

for f in "$fixtures"/*.h5; do
	case $f in
	*aggregate*) continue ;;
	esac
	export_to "$(basename "$f" .h5)" "$f"
done
if "$exe" gen --quiet --schema 3 --ranks 3 --threads 2 --tasks 1 --await \
	--depth 10 --events 20k --seed 9 "$tmp/g.h5"; then
	export_to g "$tmp/g.h5"
	export_to g_ranks "$tmp/g.h5" --ranks 1-2
	export_to g_range "$tmp/g.h5" --range 10ms:12ms
	export_to g_empty "$tmp/g.h5" --range 1000s:1001s
else
	failed=$((failed + 1))
	echo "FAIL scopeview gen"
fi

if NODE_PATH="$npmdir/node_modules" node "$here/speedscope_check.js" \
	"$schema" "${files[@]}" >"$tmp/out" 2>&1; then
	passed=$((passed + ${#files[@]}))
	cat "$tmp/out"
else
	failed=$((failed + 1))
	echo "FAIL schema validation"
	sed 's/^/     /' "$tmp/out"
fi

# The validator refuses what the schema does not allow.
sed 's/"at":/"when":/' "$tmp/g.json" >"$tmp/broken.json"
if NODE_PATH="$npmdir/node_modules" node "$here/speedscope_check.js" \
	"$schema" "$tmp/broken.json" >"$tmp/out" 2>&1; then
	failed=$((failed + 1))
	echo "FAIL the validator accepted events without \"at\""
elif grep -q INVALID "$tmp/out"; then
	passed=$((passed + 1))
	echo "ok   the validator refuses events without \"at\""
else
	failed=$((failed + 1))
	echo "FAIL the validator failed for another reason"
	sed 's/^/     /' "$tmp/out"
fi

echo "e2e_speedscope: $passed passed, $failed failed"
[ "$failed" = 0 ]
