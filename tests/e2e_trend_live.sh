#!/usr/bin/env bash
# e2e_trend_live.sh: the trend view (:view trend, E) in the real curses
# viewer, driven in tmux with no key pressed between an action and its
# check.
#
# A generated run of a million calls over 16 ranks in which rank 5's
# timesteps take 1.4 times as long from iteration 300 on (gen
# --slowdown 5:300:1.4) is opened in a 160x45 tmux window.  With
# timestep marked, E must draw the trend by itself: its 976 iterations,
# the change point marked above the chart with its rank (▼r5) and
# listed (300 r5), the same as `scopeview trend` reports.  c goes to
# the change point, Enter must then show the timeline with that
# iteration's slowest call selected: rank 5's timestep number 300, at
# the start `scopeview calls` gives for it.  The list keys move along
# the iterations (G, 5j, 300G, PgDn/PgUp, Home/End), q leaves the view
# without quitting, b adds the rank rows, and a region of
# 575,040 calls (kernel:spmv), worked out on a worker, must appear
# without a key pressed; Esc returns to the timeline, Q quits.  The time
# each screen took to appear is printed.
#
# Exit 77 (skipped) when tmux is missing, unless SCOPEVIEW_REQUIRE_TMUX=1
# (or SCOPEVIEW_NO_SKIP=1).
set -u

LIB_NAME=e2e_trend_live
# shellcheck source=tests/tmux_lib.sh
. "$(dirname "$0")/tmux_lib.sh"

PROFILE="$TMP/slow.h5"
if ! "$EXE" gen --ranks 16 --events 1M --slowdown 5:300:1.4 --seed 3 \
	--quiet "$PROFILE"; then
	echo "e2e_trend_live: scopeview gen failed"
	exit 1
fi

# What the batch commands say of the run: the change point, and the
# start of rank 5's timestep number 300 (calls by start: the 301st).
report=$("$EXE" trend --region timestep "$PROFILE")
if echo "$report" | grep -Eq '^ +300 +5 '; then
	ok "trend reports the change point at iteration 300 on rank 5"
else
	not_ok "trend does not report iteration 300, rank 5"
	echo "$report" | head -6
fi
start=$("$EXE" calls --region timestep --ranks 5 --sort start --format csv \
	"$PROFILE" | awk -F, 'NR == 302 { print $3 }')

open_viewer 160 45 "$PROFILE"

expect_loaded
send : r e g i o n Space t i m e s t e p Enter
expect "timestep marked" 'match 1 of [0-9]+$'

# E: the trend draws by itself, the change point marked with its rank.
t0=$(now_ms)
send E
expect "E shows timestep's 976 iterations on 16 ranks" \
	'^ timestep \(duration\): 976 iterations, 16 ranks, 1 change point'
expect "the change point is marked above the chart with its rank" \
	'^changes +▼r5'
expect "the change points' line lists it" \
	'change points \(c: next\): 300 r5 '
expect "the iterations' table and the status" 'trend  iteration 0, row 1/976'
echo "   (the trend view drawn $(($(now_ms) - t0)) ms after E)"

# The list keys move along the iterations.
send G
expect "G goes to the last iteration" 'trend  iteration 975, row 976/976'
send g 5 j
expect "5j moves five iterations" 'trend  iteration 5, row 6/976'
send 3 0 0 G
expect "300G goes to row 300 (iteration 299)" 'trend  iteration 299, row 300/976'
# Pages move by the table's rows (whatever they are: the page is read
# off the screen), Home and End to the ends.
send NPage
if wait_gone 'trend  iteration 299, row 300/976'; then
	page=$(($(status | grep -Eo 'row [0-9]+' | grep -Eo '[0-9]+$') - 300))
	if [ "$page" -gt 1 ]; then
		ok "PgDn moves a page ($page iterations)"
	else
		not_ok "PgDn moved $page iterations"
	fi
	send PPage
	expect "PgUp moves back the same page" 'trend  iteration 299, row 300/976'
else
	not_ok "PgDn did not move"
fi
send_cap kend
expect "End goes to the last iteration" 'trend  iteration 975, row 976/976'
# q leaves the view for the timeline (it does not quit); E comes back.
send q
expect "q leaves the trend for the timeline" "$TIMELINE"
if capture | grep -q '^status='; then
	not_ok "q quit the viewer from the trend view"
fi
send E
expect "E again: the same region, the cursor kept" \
	'trend  iteration 975, row 976/976'
send_cap khome
expect "Home goes to the first iteration" 'trend  iteration 0, row 1/976'
send 3 0 0 G

# b: a row a rank, rank 5's row highlighted as it holds a change point.
send b
expect "b shows a sparkline row a rank" "^ r15 +│"
send b

# c: the change point; Enter: its slowest call on the timeline.
send c
expect "c goes to the change point" 'trend  iteration 300, row 301/976'
expect "its row in the table names it" '^ +300 +16 .* r5  ▼ r5 '
send Enter
expect "Enter shows the timeline" "$TIMELINE"
expect "the selected call is a timestep on rank 5" '█ timestep  on r5, depth'
expect "it is rank 5's timestep number 300" "region call #300 "
if [ -n "$start" ]; then
	abs=$(capture | grep -Eo 'abs start [0-9]+' | grep -Eo '[0-9]+$')
	if [ "$abs" = "$start" ]; then
		ok "its start is the one calls --ranks 5 --sort start gives ($start)"
	else
		not_ok "its start $abs is not calls' $start"
	fi
else
	not_ok "calls --format csv gave no start for rank 5's 301st timestep"
fi

# Back in the view the cursor is where it was; Esc returns.
send E
expect "E again: the cursor stays on the change point" \
	'trend  iteration 300, row 301/976'
send Escape
expect "Esc returns to the timeline" "$TIMELINE"

# A region of 575,040 calls: worked out on a worker, drawn by itself.
send : r e g i o n Space k e r n e l : s p m v Enter
expect "kernel:spmv marked" 'match 1 of [0-9]+$'
t0=$(now_ms)
send E
expect "the trend of 575,040 calls appears by itself" \
	'^ kernel:spmv \(duration\): [0-9]+ iterations, 16 ranks'
echo "   (drawn $(($(now_ms) - t0)) ms after E)"
expect "its table is drawn" 'trend  iteration 0, row 1/[0-9]+'

send Q
if wait_for '^status=0$'; then
	ok "Q quits from the trend view, status 0"
else
	not_ok "Q did not quit"
	capture | tail -n 3
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
