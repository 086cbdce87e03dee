#!/usr/bin/env bash
# e2e_scaling_live.sh: the real curses viewer on a scaling study, driven
# in tmux with no key pressed between an action and its check.
#
# `scopeview gen --strong-scaling 1` writes runs at 1, 2, 4 and 8 ranks
# (300,000 calls each); the viewer opens on them and a file that is not a
# profile.  The runs must be read in the background (the view shows each
# run's state and the loop takes each one in as it is measured, no key
# pressed), the broken file listed with its error, and the figures in the
# table must be those `scopeview scaling --format csv` prints.  Then the
# shared list keys (j, 5j, G, Home, PageDown, counts), x cycling the
# metric, / selecting regions, Esc on the study staying there, Enter on
# two points opening those runs on the two-run timeline, Esc and q there
# coming back to the study where it was, and q on the study quitting.
#
# Exit 77 (skipped) when tmux is missing, unless SCOPEVIEW_REQUIRE_TMUX=1
# (or SCOPEVIEW_NO_SKIP=1).
set -u

LIB_NAME=e2e_scaling_live
# shellcheck source=tests/tmux_lib.sh
. "$(dirname "$0")/tmux_lib.sh"

for r in 1 2 4 8; do
	if ! "$EXE" gen --ranks $r --events 300k --strong-scaling 1 \
		--seed $r --quiet "$TMP/r$r.h5"; then
		echo "e2e_scaling_live: scopeview gen failed"
		exit 1
	fi
done
echo "not a profile" >"$TMP/broken.h5"
# The figures to find on the screen, as the command prints them.
if ! "$EXE" scaling --format csv "$TMP"/r{1,2,4,8}.h5 >"$TMP/study.csv"; then
	echo "e2e_scaling_live: scopeview scaling failed"
	exit 1
fi

# The files by their names: the shell starts in $TMP.
cd "$TMP" || exit 1
open_viewer 160 45 r1.h5 r2.h5 broken.h5 r4.h5 r8.h5

expect "the study opens on the runs as they are read" \
	'(reading: [0-9]+%|waiting|✓ r1.h5)'
expect "every run read by itself, the chart drawn" \
	'4 runs, num_ranks 1 2 4 8 \(log2 axis\), baseline 1'
expect "the broken file listed with its error" 'broken\.h5.*(not|cannot|HDF5|signature)'
expect "a run's line: its x and calls" '✓ r8\.h5 +num_ranks 8 +[0-9]+ calls'
expect "the axes: x labels at 1 2 4 8" '^ +1 +2 +4 +8( |$)'

# The table's figures are the command's: speedup and efficiency of two
# regions at 8 ranks (csv: region,x,runs,mean_duration,speedup,efficiency,...).
for region in kernel:assemble_local io; do
	line=$(awk -F, -v r="$region" '$1 == r && $2 == 8' "$TMP/study.csv")
	sp=$(echo "$line" | awk -F, '{printf "%.2f", $5}')
	ef=$(echo "$line" | awk -F, '{printf "%.2f", $6}')
	if [ -z "$line" ]; then
		not_ok "no csv line for $region at 8 ranks"
		continue
	fi
	send /
	T send-keys -t sv -l "^$region\$"
	send Enter
	expect "$region charted alone" "1 of [0-9]+ regions"
	send G
	expect "$region at 8 ranks: speedup $sp efficiency $ef" \
		"^ $region +8 +1 +[0-9.]+ [mun]?s +$sp +$ef "
done
send / Enter
expect "/ with nothing: every region again" '([0-9]+) of \1 regions'

# The shared list keys; the status line says the cursor's row.  Home and
# End go as the pane's TERM spells them (send_cap).
send G
send_cap khome
expect "Home: the first point" 'point 1/[0-9]+ '
send_cap kend
expect "End: the last point" 'point ([0-9]+)/\1 '
rows=$(status | sed -n 's/.*point \([0-9]*\)\/\([0-9]*\) .*/\2/p')
send k
expect "k: the one before" "point $((rows - 1))/$rows "
send_cap khome
send j
expect "j: the next point" 'point 2/[0-9]+ '
send 5 j
expect "5j: five more" 'point 7/[0-9]+ '
send G
expect "G: the last point" "point $rows/$rows "
send g
expect "g: the first" 'point 1/[0-9]+ '
send PageDown
expect "PageDown: a page on" 'point ([2-9]|[1-9][0-9]+)/[0-9]+ '
send PageUp
expect "PageUp: a page back" 'point 1/[0-9]+ '
send 3 G
expect "3G: the third" 'point 3/[0-9]+ '
send x
expect "x: efficiency" 'point 3/[0-9]+ +efficiency'
send x
expect "x: weak efficiency" 'weak efficiency'
send x
expect "x: speedup again" 'point 3/[0-9]+ +speedup'
send Escape
expect "Esc on the study: still the study" '4 runs, num_ranks 1 2 4 8'

# Enter on two points (main at 1 and at 4 ranks) opens those two runs.
send g Enter 2 j Enter
expect "Enter twice: the pair on the two-run timeline" 'B: r4\.h5'
expect "the pair's timeline" 'span .* from .*cursor'
send Escape
expect "Esc: back to the study where it was" 'point 3/[0-9]+ +speedup'
send Enter j Enter
expect "the pair again" 'B: r8\.h5'
send q
expect "q on the pair: back to the study" 'point 4/[0-9]+ +speedup'
send q
if wait_for '^status=0$'; then
	ok "q on the study quits, status 0"
else
	not_ok "q did not quit"
	capture | tail -n 3
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
