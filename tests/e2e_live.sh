#!/usr/bin/env bash
# e2e_live.sh: the real curses viewer at the size users open, driven in
# tmux with no key pressed between an action and its check.
#
# A generated profile of a million calls over 16 ranks is opened in a
# 160x45 tmux window.  Each view (T, F, C, B, H, L, V) must draw its
# finished screen by itself: the call tree, flame graph and callers are
# built on a worker above 200,000 calls, and the loop must take each
# result in when it arrives, not when a key comes.  Esc must return from
# each to the timeline; in every list G reaches the last row and 5j moves
# five rows.  A range marked with :range must show, in the panel, the
# figures `tree --range` prints for it; a search must show its count of
# matches; :export must say that it wrote its file.  The time each view
# took to appear is printed.
#
# Exit 77 (skipped) when tmux is missing, unless SCOPEVIEW_REQUIRE_TMUX=1
# (or SCOPEVIEW_NO_SKIP=1).
set -u

LIB_NAME=e2e_live
# shellcheck source=tests/tmux_lib.sh
. "$(dirname "$0")/tmux_lib.sh"

PROFILE="$TMP/run.h5"
if ! "$EXE" gen --ranks 16 --events 1M --seed 11 --quiet "$PROFILE"; then
	echo "e2e_live: scopeview gen failed"
	exit 1
fi

open_viewer 160 45 "$PROFILE"

expect_loaded

# Sixteen ranks' lanes do not fit 160x45: every rank opens folded into
# one track, all sixteen on the first screen.
if [ "$(capture | grep -Ec '^▸r([0-9]|1[0-5]) ')" = 16 ]; then
	ok "all 16 ranks on the first screen, folded"
else
	not_ok "not every rank on the first screen: $(capture | grep -Ec '^▸r')"
fi
# Z unfolds them (the rows do not fit), Z folds them again.
send Z
expect "Z unfolds every rank" '^▾r0 '
send Z
expect "Z folds them again" '^▸r15 '

# A region to show in the callers, histogram and call list.
send : r e g i o n Space s o l v e Enter
expect "solve marked, the first of its calls shown" 'match 1 of [0-9]+$'

# view KEY NAME SHOWN: the view's finished screen (SHOWN), by itself;
# then Esc goes back to the timeline.
# The lines of work under way (the tree builder's, the histogram's,
# the call list's).
BUSY='building the|binning [0-9]+ calls|sorting [0-9]+ calls|collecting the calls'
view() {
	local key=$1 name=$2 shown=$3 t0
	t0=$(now_ms)
	send "$key"
	if wait_for "$shown" && wait_gone "$BUSY"; then
		ok "$name ($key) draws its finished view ($(($(now_ms) - t0)) ms)"
	else
		not_ok "$name ($key) never draws its finished view"
		capture | tail -n 6
	fi
}

back() {
	send Escape
	if wait_for "$TIMELINE"; then
		ok "Esc returns from $1 to the timeline"
	else
		not_ok "Esc does not return from $1 to the timeline"
		status
	fi
}

# list_moves NAME POS_RE: G reaches the last row of the list (the status
# says "k/k" in POS_RE's place), g then 5j goes to the sixth row (or the
# last, in a shorter list), 5k back to the first.
list_moves() {
	local name=$1 pos=$2 line a b n want
	send G
	if wait_for "$pos ([0-9]+)/\\1( |$)"; then
		ok "G reaches the last row of the $name"
	else
		not_ok "G: the $name's status is not at its last row"
		status
	fi
	n=$(status | grep -Eo "$pos [0-9]+/[0-9]+" | head -1 | sed 's,.*/,,')
	want=6
	[ "${n:-0}" -lt 6 ] && want=$n
	send g 5 j
	if wait_for "$pos $want/[0-9]+( |$)"; then
		ok "5j moves five rows in the $name (to row $want of $n)"
	else
		not_ok "5j: the $name's status is not at row $want"
		status
	fi
	line=$(status)
	a=$(echo "$line" | grep -Eo "$pos [0-9]+/[0-9]+" | head -1)
	b=$a
	send 5 k
	wait_for "$pos 1/" >/dev/null || true
	b=$(status | grep -Eo "$pos [0-9]+/[0-9]+" | head -1)
	if [ "${b%%/*}" = "$pos 1" ]; then
		ok "5k comes back five rows in the $name ($a -> $b)"
	else
		not_ok "5k in the $name: $a -> $b"
	fi
}

view T "call tree" '^ *16 .*main$|tree 1/[0-9]+'
expect "the tree's rows are drawn" '^ +[0-9]+ +[0-9.]+ ?[mun]?s .*main'
list_moves "call tree" "tree"
back "the call tree"

view F "flame graph" '^Flame graph:'
expect "the flame graph's frames are drawn" 'main'
back "the flame graph"

view C "callers" 'Callers of solve: [0-9]+ calls'
expect "the callers' rows are drawn" 'called from'
list_moves "callers" "callers"
back "the callers"

view B "ranks matrix" '16 ranks x [0-9]+ regions'
list_moves "ranks matrix" "ranks"
back "the ranks matrix"

view H "histogram" 'solve: [0-9]+ calls on the lanes shown'
expect "the histogram's bins are drawn" 'histogram  bin 1/[0-9]+'
list_moves "histogram" "histogram  bin"
back "the histogram"

view L "call list" 'solve: [0-9]+ calls, by duration'
expect "the call list's rows are drawn" 'calls 1/[0-9]+'
list_moves "call list" "calls"
back "the call list"

view V "statistics screen" 'The statistics of the lanes on display'
expect "the statistics' rows are drawn" 'region 1/[0-9]+'
list_moves "statistics screen" "region"
back "the statistics screen"

# A range's figures on screen are what `tree --range` says of it: the
# calls and inclusive time of main, timestep and solve (the panel's
# calls and total columns), with no key pressed after :range.
send : r a n g e Space 1 0 0 m s : 2 0 0 m s Enter
expect "the panel shows the range" 'range \+100 ms \.\. \+200 ms'
tree=$("$EXE" tree --range 100ms:200ms "$PROFILE")
for region in main timestep solve; do
	row=$(echo "$tree" | grep -E "(^| )$region\$" | head -1)
	calls=$(echo "$row" | awk '{print $1}')
	incl=$(echo "$row" | awk '{print $2 $3}')
	if [ -z "$calls" ]; then
		not_ok "tree --range has no row for $region"
		continue
	fi
	if wait_for "█$region +$calls +$incl "; then
		ok "range: $region's $calls calls and $incl on screen equal tree --range"
	else
		not_ok "range: the panel's $region is not $calls calls, $incl"
		capture | grep -E "█$region " | head -2
	fi
done

# A search's count of matches.
send / k e r n e l Enter
expect "the search's matches are counted" 'match [0-9]+ of [0-9]+'

# :export says that it wrote its file (a worker above 200,000 calls).
send : e x p o r t Space c s v Space "$TMP/range.csv" Enter
expect ":export reports completion" "csv of the marked range \\(100ms\\) written to"
if [ -s "$TMP/range.csv" ] && [ "$(wc -l <"$TMP/range.csv")" -gt 100 ]; then
	ok ":export's file holds the range's calls"
else
	not_ok ":export's file is missing or short"
fi

# Q quits from any view.
send T
expect "the tree again" 'tree [0-9]+/[0-9]+'
send Q
if wait_for '^status=0$'; then
	ok "Q quits from the call tree, status 0"
else
	not_ok "Q did not quit"
	capture | tail -n 3
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
