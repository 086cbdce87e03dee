#!/bin/bash
# e2e_diff.sh: `scopeview diff` end to end on files `scopeview gen` writes:
# two runs that differ in one region (--slow-region) put it at the top of
# --sort delta and fail --fail-above 5 with exit 3, naming it on stderr;
# a run against itself passes any gate; --fail-on-new catches regions only
# B has; the JSON parses with the contract's keys; and the exit codes 0,
# 1 (a profile that cannot be read) and 2 (command-line mistakes); the
# viewer's timeline of two runs against a golden screen.
set -u

here=$(cd "$(dirname "$0")" && pwd)
exe=${SCOPEVIEW_EXE:-$here/../build/scopeview}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sv-e2e-diff.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

ok() { passed=$((passed + 1)); }
fail() {
	failed=$((failed + 1))
	echo "FAIL $*"
}

expect() { # expect WHAT STATUS COMMAND...: the exit status, and no crash
	local what=$1 want=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	local got=$?
	if [ "$got" = "$want" ]; then
		ok
	else
		fail "$what: exit $got, want $want"
		sed 's/^/     /' "$tmp/out" "$tmp/err"
	fi
}

"$exe" gen --quiet --events 20000 "$tmp/a.h5" || exit 1
"$exe" gen --quiet --events 20000 --slow-region solve:1.5 "$tmp/b.h5" ||
	exit 1
"$exe" gen --quiet --events 20000 --threads 2 "$tmp/c.h5" || exit 1
printf 'not hdf5' >"$tmp/bad.h5"

# The slowed region on top, the gate failing on it.
expect "diff A B" 0 "$exe" diff --sort delta "$tmp/a.h5" "$tmp/b.h5"
top=$(awk '$1 == "region" { getline; print $1; exit }' "$tmp/out")
if [ "$top" = solve ]; then ok; else
	fail "top of --sort delta is '$top', not solve"
	cat "$tmp/out"
fi
expect "--fail-above 5" 3 "$exe" diff --fail-above 5 "$tmp/a.h5" "$tmp/b.h5"
if grep -q '^scopeview: diff: regression: solve: total +' "$tmp/err"; then
	ok
else
	fail "--fail-above 5 does not name solve on stderr"
	cat "$tmp/err"
fi
# The table still goes to stdout when the gate fails.
if grep -q '^  solve ' "$tmp/out"; then ok; else fail "no table on exit 3"; fi
expect "--fail-above 60" 0 "$exe" diff --fail-above 60% --include solve \
	"$tmp/a.h5" "$tmp/b.h5"
expect "A against A" 0 "$exe" diff --fail-above 0 --fail-on-new \
	"$tmp/a.h5" "$tmp/a.h5"
expect "B against A: faster" 0 "$exe" diff --fail-above 5 --include \
	'solve|kernel' "$tmp/b.h5" "$tmp/a.h5"

# The viewer on both runs: the panel's B and change columns, and the
# differential flame graph with solve red (white on red: slower by 10%
# or more; the style's look in tests/../src/ui/grid.c).
expect "snapshot A B" 0 "$exe" snapshot --size 120x12 --format ansi \
	--keys 'F j' "$tmp/a.h5" "$tmp/b.h5"
if grep -q $'\e\\[0;1;97;41m solve ' "$tmp/out"; then ok; else
	fail "solve is not drawn red (much slower) in the flame graph"
	cat -v "$tmp/out"
fi
expect "snapshot solve" 0 "$exe" snapshot --size 120x12 --keys 'F j j' \
	"$tmp/a.h5" "$tmp/b.h5"
if grep -q 'compared with .*b.h5' "$tmp/out" &&
	grep -q '^solve: incl .*, B: .*(+5[0-9].[0-9]%' "$tmp/out"; then ok; else
	fail "the flame graph does not name B or give solve's B figure"
	cat "$tmp/out"
fi
expect "snapshot panel" 0 "$exe" snapshot --size 140x30 "$tmp/a.h5" "$tmp/b.h5"
if grep -q 'B: .*b.h5' "$tmp/out" && grep -q 'solve .* +51%' "$tmp/out"; then
	ok
else
	fail "the panel lacks B's column or solve's +51%"
	cat "$tmp/out"
fi
# The timeline of both runs, rank by rank (A's lanes, then B's, marked B
# with a dotted border), from each run's start: a golden screen,
# rewritten with SCOPEVIEW_UPDATE_GOLDEN=1 (then read the diff by eye).
golden="$here/golden/two_runs_timeline.txt"
if "$exe" gen --quiet --events 20k --ranks 2 --seed 1 "$tmp/ta.h5" &&
	"$exe" gen --quiet --events 20k --ranks 2 --seed 1 \
		--slow-region solve:1.5 "$tmp/tb.h5" &&
	(cd "$tmp" && "$exe" snapshot --size 120x30 ta.h5 tb.h5) \
		>"$tmp/two.txt"; then
	if [ "${SCOPEVIEW_UPDATE_GOLDEN:-0}" = 1 ]; then
		cp "$tmp/two.txt" "$golden"
	fi
	if cmp -s "$tmp/two.txt" "$golden"; then ok; else
		cp "$tmp/two.txt" "${golden%.txt}.actual"
		fail "two-run timeline: diff -u $golden ${golden%.txt}.actual"
	fi
else
	fail "two-run timeline: gen or snapshot failed"
fi
# Three files are a scaling study (tests/e2e_scaling_live.sh); one of
# them unreadable is listed, all of them exit 1.
expect "snapshot three files: a runs workspace" 0 "$exe" snapshot \
	"$tmp/a.h5" "$tmp/b.h5" "$tmp/c.h5"
expect "snapshot three unreadable files" 1 "$exe" snapshot \
	"$tmp/none.h5" "$tmp/bad.h5" "$tmp/none2.h5"
expect "snapshot unreadable B" 1 "$exe" snapshot "$tmp/a.h5" "$tmp/bad.h5"

# Regions only in B.
expect "--fail-on-new" 3 "$exe" diff --fail-on-new "$tmp/a.h5" "$tmp/c.h5"
if grep -q '^scopeview: diff: new region: compress_block' "$tmp/err"; then
	ok
else
	fail "--fail-on-new does not name compress_block"
	cat "$tmp/err"
fi
if grep -q '^Only in B (3):' "$tmp/out"; then ok; else
	fail "the table does not list the 3 regions only in B"
	cat "$tmp/out"
fi
expect "new regions without the gate" 0 "$exe" diff "$tmp/a.h5" "$tmp/c.h5"

# JSON for scripts.
expect "json" 0 "$exe" diff --format json --sort pct --ranks 0-1 \
	--threshold 1 "$tmp/a.h5" "$tmp/c.h5"
if python3 - "$tmp/out" "$tmp/a.h5" "$tmp/c.h5" <<'EOF'; then ok; else fail "json shape"; fi
import json, sys
d = json.load(open(sys.argv[1]))
assert d["a"] == sys.argv[2] and d["b"] == sys.argv[3], d
assert d["metric"] == "total"
assert set(d) == {"a", "b", "metric", "regions", "only_in_a", "only_in_b"}
assert d["only_in_b"] == ["checksum", "compress_block", "prefetch"], d
pcts = [r["pct"] for r in d["regions"]]
assert pcts == sorted(pcts, reverse=True), pcts
for r in d["regions"]:
    assert set(r) == {"name", "a", "b", "delta", "pct"}, r
    assert abs(r["b"] - r["a"] - r["delta"]) < 1e-12, r
    assert abs(r["pct"]) >= 1, r
EOF
expect "csv" 0 "$exe" diff --format csv --metric calls "$tmp/a.h5" "$tmp/c.h5"
if head -n 1 "$tmp/out" | grep -qx 'region,in,a,b,delta,pct' &&
	grep -q '^compress_block,b,,' "$tmp/out"; then ok; else
	fail "csv rows"
	cat "$tmp/out"
fi

# Mistakes and unreadable files.
expect "unreadable B" 1 "$exe" diff "$tmp/a.h5" "$tmp/bad.h5"
if [ "$(wc -l <"$tmp/err")" = 1 ]; then ok; else
	fail "unreadable B: not one line on stderr"
	cat "$tmp/err"
fi
expect "missing A" 1 "$exe" diff "$tmp/none.h5" "$tmp/a.h5"
expect "one file" 2 "$exe" diff "$tmp/a.h5"
expect "three files" 2 "$exe" diff "$tmp/a.h5" "$tmp/a.h5" "$tmp/a.h5"
expect "bad metric" 2 "$exe" diff --metric first "$tmp/a.h5" "$tmp/b.h5"
expect "bad sort" 2 "$exe" diff --sort start "$tmp/a.h5" "$tmp/b.h5"
expect "bad pct" 2 "$exe" diff --fail-above -3 "$tmp/a.h5" "$tmp/b.h5"
expect "bad threshold" 2 "$exe" diff --threshold x "$tmp/a.h5" "$tmp/b.h5"
expect "bad regex" 2 "$exe" diff --include '(' "$tmp/a.h5" "$tmp/b.h5"
expect "bad ranks" 2 "$exe" diff --ranks 3-1 "$tmp/a.h5" "$tmp/b.h5"
expect "no value" 2 "$exe" diff "$tmp/a.h5" "$tmp/b.h5" --fail-above
expect "help" 0 "$exe" diff --help
if grep -q -- '--fail-above PCT' "$tmp/out" && grep -q '3 --fail-above' "$tmp/out"; then
	ok
else
	fail "diff --help lacks --fail-above or exit status 3"
fi
expect "slow-region typo" 2 "$exe" gen --slow-region nosuch "$tmp/x.h5"
expect "slow-region factor" 2 "$exe" gen --slow-region solve:0 "$tmp/x.h5"

echo "e2e_diff: $passed passed, $failed failed"
[ "$failed" = 0 ]
