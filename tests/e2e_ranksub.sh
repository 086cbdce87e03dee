#!/bin/bash
# e2e_ranksub.sh: --ranks reads only the chosen ranks' rows (the rank-subset
# load, doc/format.md 4.14), and every command prints exactly what the full
# read filtered afterwards prints (SCOPEVIEW_NO_RANK_SUBSET=1, the oracle):
# summary (table with --per-rank, CSV, JSON), calls, tree, diff and export
# (chrome, speedscope), standard output, standard error and exit status,
# on every fixture in tests/fixtures and on `scopeview gen` files of
# schemas 1, 2 and 3 (threads, tasks, GPU and await columns, uncompressed
# and compressed, one large enough for the parallel decoder), with the
# rank sets 0, 1,3, 0-1, 2-3,0 and 99 (no such rank).  Also: the viewer's
# screen (snapshot) names the subset it shows, or applies the rank filter
# where the layout is read whole, and a rank set naming no rank of the
# file fails with one line.
set -u

here=$(cd "$(dirname "$0")" && pwd)
exe=${SCOPEVIEW_EXE:-$here/../build/scopeview}
fixtures=${SCOPEVIEW_FIXTURES:-$here/fixtures}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sv-e2e-ranksub.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

fail() {
	failed=$((failed + 1))
	echo "FAIL $*"
}

# same NAME CMD...: the command's output, errors and status, subset read
# against full read.
same() {
	local name=$1
	shift
	SCOPEVIEW_NO_RANK_SUBSET=1 "$exe" "$@" >"$tmp/full.out" \
		2>"$tmp/full.err"
	echo "exit $?" >>"$tmp/full.out"
	"$exe" "$@" >"$tmp/sub.out" 2>"$tmp/sub.err"
	echo "exit $?" >>"$tmp/sub.out"
	if grep -q 'Sanitizer\|runtime error' "$tmp/full.err" "$tmp/sub.err"; then
		fail "$name: $* (a sanitizer report)"
		grep -h -m 3 'Sanitizer\|runtime error' "$tmp/full.err" \
			"$tmp/sub.err" | sed 's/^/     /'
	elif cmp -s "$tmp/full.out" "$tmp/sub.out" &&
		cmp -s "$tmp/full.err" "$tmp/sub.err"; then
		passed=$((passed + 1))
	else
		fail "$name: $*"
		diff "$tmp/full.out" "$tmp/sub.out" | head -n 10 | sed 's/^/     /'
		diff "$tmp/full.err" "$tmp/sub.err" | head -n 4 | sed 's/^/     /'
	fi
}

# The first region of a file, as summary's CSV names it (unquoted names).
first_region() {
	"$exe" summary --format csv "$1" 2>/dev/null | sed -n 2p | cut -d, -f1
}

gen() { # gen OUT ARGS...
	local out=$1
	shift
	if ! "$exe" gen --quiet "$@" "$out"; then
		fail "gen $* $out"
		return 1
	fi
}

gen "$tmp/s3.h5" --schema 3 --ranks 4 --events 20k --threads 2 --seed 3
gen "$tmp/s2.h5" --schema 2 --ranks 4 --events 20k --tasks 2 --seed 4
gen "$tmp/s1.h5" --schema 1 --ranks 4 --events 10k --seed 5
gen "$tmp/gpu.h5" --ranks 4 --events 30k --gpu --await --seed 6
gen "$tmp/flat.h5" --ranks 4 --events 20k --compression none --seed 7
gen "$tmp/noex.h5" --ranks 4 --events 20k --no-exclusive --no-call-ids \
	--seed 8
gen "$tmp/big.h5" --ranks 4 --events 400k --seed 9

files=("$tmp"/*.h5)
for f in "$fixtures"/*.h5; do
	files+=("$f")
done

for f in "${files[@]}"; do
	name=$(basename "$f")
	region=$(first_region "$f")
	for r in 0 1,3 0-1 2-3,0 99; do
		same "$name" summary --per-rank --ranks "$r" "$f"
		same "$name" summary --format csv --per-rank --ranks "$r" "$f"
		same "$name" summary --format json --ranks "$r" "$f"
		same "$name" tree --format json --ranks "$r" "$f"
		same "$name" export --format chrome --ranks "$r" "$f"
		same "$name" export --format speedscope --ranks "$r" "$f"
		if [ -n "$region" ]; then
			same "$name" calls --region "$region" --ranks "$r" \
				--format csv "$f"
		fi
	done
done

# diff of two runs over the same ranks.
gen "$tmp/slow.h5" --schema 3 --ranks 4 --events 20k --threads 2 --seed 3 \
	--slow-region solve:1.5
for r in 0 1,3 99; do
	same diff diff --ranks "$r" "$tmp/s3.h5" "$tmp/slow.h5"
	same diff diff --format json --ranks "$r" "$tmp/s3.h5" "$tmp/slow.h5"
done

# The subset is really read as one: the viewer's status line says so for
# a columnar file, and the full read of a schema 1 file filters by rank.
screen() { # screen FILE RANKS
	"$exe" snapshot --size 150x20 --ranks "$2" "$1" 2>&1 | tail -n 1
}
if screen "$tmp/s3.h5" 1,3 | grep -q 's3.h5 \[ranks 1,3 of 4\]'; then
	passed=$((passed + 1))
else
	fail "snapshot --ranks 1,3 s3.h5 does not name the subset"
	screen "$tmp/s3.h5" 1,3 | sed 's/^/     /'
fi
if "$exe" snapshot --size 150x20 --ranks 1 "$tmp/s1.h5" |
	grep -q 'ranks 1'; then
	passed=$((passed + 1))
else
	fail "snapshot --ranks 1 s1.h5 shows no rank filter"
fi
# A rank naming nothing: one line, exit status 1.
"$exe" snapshot --ranks 99 "$tmp/s3.h5" >"$tmp/out" 2>"$tmp/err"
st=$?
if [ "$st" = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
	grep -q -- '--ranks: no data for rank 99 (the profile has ranks 0-3)' \
		"$tmp/err"; then
	passed=$((passed + 1))
else
	fail "snapshot --ranks 99: exit $st, $(cat "$tmp/err")"
fi

echo "e2e_ranksub: $passed passed, $failed failed"
[ "$failed" = 0 ]
