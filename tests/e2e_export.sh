#!/bin/bash
# e2e_export.sh: `scopeview export --format chrome|speedscope|csv` checked
# against the raw HDF5 columns (tests/export_check.py: exactly one event
# per call in range, exact ns, the metadata, each format's own rules) on
# the fixtures in tests/fixtures and on files written by `scopeview gen`
# (schemas 1, 2 and 3; threads, tasks, GPU and await columns, deep
# recursion, no call ids), with --ranks and --range, and on a file with
# hostile region names and per-call event metadata (tests/export_prep.py).
# Also: the checker notices an end off by one ns; -o, and -o refusing the
# profile itself; the errors of an aggregate file, a bad format and a bad
# range.
#
# Exits 77 (skipped) when /usr/bin/python3 cannot import h5py and numpy,
# unless SCOPEVIEW_REQUIRE_H5PY=1 (or SCOPEVIEW_NO_SKIP=1).
set -u

PY=/usr/bin/python3
here=$(cd "$(dirname "$0")" && pwd)
exe=${SCOPEVIEW_EXE:-$here/../build/scopeview}
fixtures=${SCOPEVIEW_FIXTURES:-$here/fixtures}
check_py="$here/export_check.py"

if ! "$PY" -c 'import h5py, numpy' 2>/dev/null; then
	if [ "${SCOPEVIEW_REQUIRE_H5PY:-${SCOPEVIEW_NO_SKIP:-0}}" = 1 ]; then
		echo "FAIL: $PY cannot import h5py and numpy (install python3-h5py)"
		exit 1
	fi
	echo "SKIP: $PY cannot import h5py and numpy"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sv-e2e-export.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

ok() {
	passed=$((passed + 1))
	echo "ok   $*"
}
bad() {
	failed=$((failed + 1))
	echo "FAIL $*"
}

check() { # check FILE [export options...]
	if "$PY" "$check_py" "$exe" "$@" >"$tmp/out" 2>&1; then
		passed=$((passed + 1))
		tail -n 1 "$tmp/out"
	else
		bad "export_check $*"
		sed 's/^/     /' "$tmp/out" | head -n 20
	fi
}

gen() { # gen NAME [gen options...]
	local name=$1
	shift
	if ! "$exe" gen --quiet "$@" "$tmp/$name.h5" >"$tmp/gen.out" 2>&1; then
		bad "scopeview gen $* $name.h5"
		sed 's/^/     /' "$tmp/gen.out"
		return 1
	fi
}

for f in "$fixtures"/*.h5; do
	case $f in
	*aggregate*) continue ;;
	esac
	check "$f"
done
check "$fixtures/four_ranks.h5" --ranks 1-2
check "$fixtures/threads_tasks.h5" --range 20us:60us

gen s3 --schema 3 --ranks 3 --threads 2 --tasks 1 --await --gpu \
	--events 20k --seed 7 && {
	check "$tmp/s3.h5"
	check "$tmp/s3.h5" --ranks 1
	check "$tmp/s3.h5" --range 10ms:12ms
	check "$tmp/s3.h5" --ranks 0,2 --range 7.5ms:7.6ms
	if "$PY" "$here/export_prep.py" "$tmp/s3.h5" "$tmp/hostile.h5" \
		>"$tmp/out" 2>&1; then
		check "$tmp/hostile.h5"
		check "$tmp/hostile.h5" --ranks 2 --range 10ms:20ms
		# the names reach the CSV quoted, and nothing raw reaches JSON
		if "$exe" export --format csv "$tmp/hostile.h5" |
			grep -q '^[0-9]*,0,r0 MainThread,"a,b main",'; then
			ok "csv quotes a name with a comma"
		else
			bad "csv: no quoted \"a,b main\" row"
		fi
	else
		bad "export_prep.py"
		sed 's/^/     /' "$tmp/out"
	fi
}
gen s1 --schema 1 --ranks 2 --events 5k --seed 3 && check "$tmp/s1.h5"
gen s2 --schema 2 --ranks 2 --depth 12 --no-call-ids --events 5k \
	--seed 4 && {
	check "$tmp/s2.h5"
	check "$tmp/s2.h5" --range 10ms:12ms
}

# The checker notices an end off by one nanosecond.
cat >"$tmp/liar.sh" <<LIAR
#!/bin/sh
case "\$*" in
*chrome*) "$exe" "\$@" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
for e in d["traceEvents"]:
    if e["ph"] == "X":
        e["args"]["end_ns"] += 1
        e["args"]["duration_ns"] += 1
        e["dur"] += 0.001
        break
json.dump(d, sys.stdout)
' ;;
*) exec "$exe" "\$@" ;;
esac
LIAR
chmod +x "$tmp/liar.sh"
if "$PY" "$check_py" "$tmp/liar.sh" "$fixtures/four_ranks.h5" \
	>"$tmp/out" 2>&1; then
	bad "export_check accepted an end off by 1 ns"
elif ! grep -q 'chrome: ' "$tmp/out"; then
	bad "export_check failed for another reason:"
	sed 's/^/     /' "$tmp/out"
else
	ok "export_check rejects an end off by 1 ns"
fi

# -o writes the file; it never overwrites the profile itself.
cp "$fixtures/four_ranks.h5" "$tmp/self.h5"
if "$exe" export --format chrome -o "$tmp/out.json" "$tmp/self.h5" &&
	"$PY" -c 'import json,sys; json.load(open(sys.argv[1]))' \
		"$tmp/out.json"; then
	ok "export -o OUT"
else
	bad "export -o OUT"
fi
"$exe" export --format csv -o "$tmp/self.h5" "$tmp/self.h5" 2>"$tmp/err"
rc=$?
if [ $rc = 2 ] && grep -q 'not overwriting' "$tmp/err" &&
	cmp -s "$tmp/self.h5" "$fixtures/four_ranks.h5"; then
	ok "export -o FILE refuses the profile itself"
else
	bad "export -o FILE: exit $rc, $(cat "$tmp/err")"
fi

expect_fail() { # expect_fail STATUS TEXT ARGS...
	local want=$1 text=$2
	shift 2
	"$exe" export "$@" >/dev/null 2>"$tmp/err"
	local rc=$?
	if [ $rc = "$want" ] && grep -q "$text" "$tmp/err" &&
		[ "$(grep -c '^scopeview:' "$tmp/err")" = 1 ]; then
		ok "export $* -> $rc"
	else
		bad "export $*: exit $rc (want $want): $(cat "$tmp/err")"
	fi
}
expect_fail 1 'aggregate layout' --format chrome \
	"$fixtures/aggregate_layout.h5"
expect_fail 2 'unknown format' --format perfetto "$fixtures/four_ranks.h5"
expect_fail 2 'bad range' --format csv --range 2ms:1ms \
	"$fixtures/four_ranks.h5"
expect_fail 2 'bad range' --format csv --range 1ms "$fixtures/four_ranks.h5"
expect_fail 1 'No such file' --format csv -o "$tmp/no/such/dir.csv" \
	"$fixtures/four_ranks.h5"

echo "e2e_export: $passed passed, $failed failed"
[ "$failed" = 0 ]
