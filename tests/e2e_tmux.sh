#!/usr/bin/env bash
# e2e_tmux.sh: the viewer in a real terminal (tmux), compared with the
# headless `scopeview snapshot` for the same size and keys.
#
# A private tmux server (its own socket, no config) runs a plain shell in a
# 100x30 window; the test types the viewer's command into it with TERM and
# the locale pinned, sends keys with send-keys (and mouse reports as raw
# SGR bytes with send-keys -H), and after each step waits until
# capture-pane equals what `scopeview snapshot --size WxH --keys KEYS`
# draws for all keys so far.  It also resizes the window, suspends with
# Ctrl-Z and resumes with fg, and checks that q leaves a clean shell (no
# alternate screen, no mouse mode, a prompt that answers).
#
# Exit 77 (skipped) when tmux is missing, unless SCOPEVIEW_REQUIRE_TMUX=1 (or SCOPEVIEW_NO_SKIP=1).
set -u

EXE=${SCOPEVIEW_EXE:?set SCOPEVIEW_EXE to the built scopeview}
if ! command -v tmux >/dev/null 2>&1; then
	if [ "${SCOPEVIEW_REQUIRE_TMUX:-${SCOPEVIEW_NO_SKIP:-0}}" = 1 ]; then
		echo "e2e_tmux: tmux is missing and SCOPEVIEW_REQUIRE_TMUX=1"
		exit 1
	fi
	echo "e2e_tmux: tmux is missing: skipped"
	exit 77
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/scopeview-tmux-XXXXXX")
SOCK="$TMP/tmux.sock"
export LC_ALL=C.UTF-8 TZ=UTC TERM=xterm-256color
unset NO_COLOR
passed=0
failed=0

T() { tmux -S "$SOCK" -f /dev/null "$@"; }
cleanup() {
	T kill-server >/dev/null 2>&1
	# The pane's shell may still write its history as it goes.
	rm -rf "$TMP" 2>/dev/null || { sleep 1; rm -rf "$TMP"; }
}
trap cleanup EXIT

ok() {
	passed=$((passed + 1))
	echo "ok: $*"
}
not_ok() {
	failed=$((failed + 1))
	echo "FAIL: $*"
}

# The pane's text, trailing blanks trimmed, as many lines as the pane has.
capture() {
	T capture-pane -p -t sv | sed 's/[[:space:]]*$//'
}

# snapshot W H KEYS: the expected screen, trimmed the same way.
# SNAP_LC and SNAP_OPTS change the locale and add options (--ascii).
SNAP_LC=C.UTF-8
SNAP_OPTS=""
snapshot() {
	# shellcheck disable=SC2086
	LC_ALL=$SNAP_LC "$EXE" snapshot $SNAP_OPTS --size "$1x$2" --keys "$3" \
		--format text "$PROFILE" | sed 's/[[:space:]]*$//'
}

# Wait (up to ~10 s) until the pane shows exactly the file $1.
wait_screen() {
	local want=$1 tries=100
	while [ $tries -gt 0 ]; do
		capture >"$TMP/got.txt"
		if cmp -s "$TMP/got.txt" "$want"; then
			return 0
		fi
		sleep 0.1
		tries=$((tries - 1))
	done
	return 1
}

# Wait until the pane's text contains the regex $1.
wait_for() {
	local tries=100
	while [ $tries -gt 0 ]; do
		if capture | grep -q -- "$1"; then
			return 0
		fi
		sleep 0.1
		tries=$((tries - 1))
	done
	return 1
}

# step NAME W H KEYS: the pane equals the snapshot for all KEYS so far.
step() {
	local name=$1 w=$2 h=$3 keys=$4
	snapshot "$w" "$h" "$keys" >"$TMP/want.txt"
	if [ ! -s "$TMP/want.txt" ]; then
		not_ok "$name: snapshot drew nothing"
		return
	fi
	if wait_screen "$TMP/want.txt"; then
		ok "$name"
	else
		not_ok "$name: the terminal differs from the snapshot for keys '$keys'"
		diff -u "$TMP/want.txt" "$TMP/got.txt" | head -40
	fi
}

# send KEY...: tmux key names, one send-keys each (so none is taken as
# part of an escape sequence).
send() {
	local k
	for k in "$@"; do
		T send-keys -t sv "$k"
		sleep 0.05
	done
}

# mouse B X Y [m]: an SGR mouse report for button code B at the 0-based
# cell (X, Y), typed as raw bytes; "m" makes it a release.
mouse() {
	local seq hex=()
	seq=$(printf '\033[<%d;%d;%d%s' "$1" $(($2 + 1)) $(($3 + 1)) "${4:-M}")
	for b in $(printf '%s' "$seq" | od -An -tx1); do
		hex+=("$b")
	done
	T send-keys -t sv -H "${hex[@]}"
	sleep 0.05
}

PROFILE="$TMP/run.h5"
if ! "$EXE" gen --ranks 3 --threads 2 --events 4000 --seed 7 --quiet \
	"$PROFILE"; then
	echo "e2e_tmux: scopeview gen failed"
	exit 1
fi

T new-session -d -s sv -x 100 -y 30 \
	"env -i PATH=/usr/bin:/bin HOME=$TMP TERM=xterm-256color LC_ALL=C.UTF-8 TZ=UTC PS1='$ ' bash --norc --noprofile"
T set-option -t sv status off >/dev/null
T set-option -t sv -g window-size manual >/dev/null 2>&1
T resize-window -t sv -x 100 -y 30 >/dev/null 2>&1
wait_for '^\$' || not_ok "the shell did not start"

T send-keys -t sv "$EXE '$PROFILE'" Enter

# 1. The first screen, once the load is done.
step "first screen" 100 30 ""

# 2. Resize: the viewer redraws at the new size, and back.
T resize-window -t sv -x 80 -y 24
step "resized to 80x24" 80 24 ""
T resize-window -t sv -x 30 -y 8
step "resized to 30x8 (too small)" 30 8 ""
T resize-window -t sv -x 100 -y 30
step "resized back to 100x30" 100 30 ""

# 3. Keys, step by step, each compared with the snapshot.
keys=""
for k in j l l + + Tab Tab J c t D '<' '<' d a 0 Escape; do
	send "$k"
	keys="${keys:+$keys }$k"
	step "after '$k'" 100 30 "$keys"
done

# 4. Search with highlighted matches and n through them.
send / s o l v e Enter n
keys="$keys / s o l v e Enter n"
step "search 'solve' then n" 100 30 "$keys"

# 5. Popups: help, metadata, source, closed with q.
for k in '?' i v W; do
	send "$k"
	step "popup '$k'" 100 30 "$keys $k"
	send q
	step "popup '$k' closed" 100 30 "$keys $k q"
	keys="$keys $k q"
done

# 6. The mouse: a click selects, the wheel zooms around the pointer, a
#    drag pans.
mouse 0 40 6
mouse 0 40 6 m
keys="$keys Click:40,6 Release:40,6"
step "click at 40,6" 100 30 "$keys"
mouse 64 50 8
keys="$keys WheelUp:50,8"
step "wheel up at 50,8" 100 30 "$keys"
mouse 65 50 8
keys="$keys WheelDown:50,8"
step "wheel down at 50,8" 100 30 "$keys"
mouse 0 60 7
mouse 32 55 7
mouse 0 55 7 m
keys="$keys Click:60,7 Drag:55,7 Release:55,7"
step "drag from 60 to 55" 100 30 "$keys"

# 7. Ctrl-Z gives the shell back; fg brings the same screen.
send C-z
if wait_for 'Stopped'; then
	ok "Ctrl-Z stops the viewer"
else
	not_ok "Ctrl-Z: no 'Stopped' in the shell"
	capture | tail -5
fi
if [ "$(T display-message -p -t sv '#{alternate_on}')" = 0 ]; then
	ok "Ctrl-Z leaves the alternate screen"
else
	not_ok "Ctrl-Z: still on the alternate screen"
fi
T send-keys -t sv "fg" Enter
step "fg redraws" 100 30 "$keys"

# 8. Idle means idle: no CPU time and no bytes written for two seconds.
pid=$(pgrep -n -f "scopeview $PROFILE" || pgrep -n -f "scopeview '$PROFILE'")
if [ -n "$pid" ] && [ -r "/proc/$pid/stat" ]; then
	cpu0=$(awk '{print $14 + $15}' "/proc/$pid/stat")
	w0=$(awk '/^wchar/ {print $2}' "/proc/$pid/io" 2>/dev/null || echo 0)
	sleep 2
	cpu1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
	w1=$(awk '/^wchar/ {print $2}' "/proc/$pid/io" 2>/dev/null || echo 0)
	if [ "$cpu1" = "$cpu0" ] && [ "$w1" = "$w0" ]; then
		ok "idle: no CPU time, no output"
	else
		not_ok "idle: $((cpu1 - cpu0)) CPU ticks, $((w1 - w0)) bytes written in 2 s"
	fi
else
	not_ok "idle: cannot find the viewer's process"
fi

# 9. q leaves a clean shell.
send q
if wait_for '^\$'; then
	ok "q returns to the shell"
else
	not_ok "q: no shell prompt"
	capture | tail -5
fi
T send-keys -t sv 'echo "status=$?"' Enter
if wait_for '^status=0$'; then
	ok "the viewer exited 0 and the shell answers"
else
	not_ok "no 'status=0' after q"
	capture | tail -5
fi
if [ "$(T display-message -p -t sv '#{alternate_on}')" = 0 ]; then
	ok "q leaves the alternate screen"
else
	not_ok "q: still on the alternate screen"
fi
if [ "$(T display-message -p -t sv '#{mouse_any_flag}')" = 0 ]; then
	ok "q turns the mouse reports off"
else
	not_ok "q: the terminal still sends mouse reports"
fi
if [ "$(T display-message -p -t sv '#{cursor_flag}')" = 1 ]; then
	ok "q shows the cursor again"
else
	not_ok "q: the cursor is still hidden"
fi

# 10. Ctrl-C restores the terminal too (the viewer dies by SIGINT).
T send-keys -t sv "clear; $EXE '$PROFILE'" Enter
step "started again" 100 30 ""
send C-c
T send-keys -t sv 'echo "status=$?"' Enter
if wait_for '^status=130$'; then
	ok "Ctrl-C ends the viewer by SIGINT"
else
	not_ok "no 'status=130' after Ctrl-C"
	capture | tail -5
fi
if [ "$(T display-message -p -t sv '#{alternate_on}#{mouse_any_flag}#{cursor_flag}')" = 001 ]; then
	ok "Ctrl-C leaves the alternate screen, the mouse off, the cursor on"
else
	not_ok "Ctrl-C left the terminal in curses mode"
fi

# 11. A crash (SIGSEGV) and SIGTERM restore the terminal, then the process
#     dies of the signal as it would have.
for sig in SEGV TERM; do
	T send-keys -t sv "clear; $EXE '$PROFILE'" Enter
	step "started for SIG$sig" 100 30 ""
	pid=$(pgrep -n -f "scopeview '$PROFILE'" || pgrep -n -f "scopeview $PROFILE")
	kill -s "$sig" "$pid"
	want=$((128 + $(kill -l "$sig")))
	T send-keys -t sv 'echo "status=$?"' Enter
	if wait_for "^status=$want\$"; then
		ok "SIG$sig: the viewer dies of it (status $want)"
	else
		not_ok "SIG$sig: no 'status=$want'"
		capture | tail -3
	fi
	if [ "$(T display-message -p -t sv '#{alternate_on}#{mouse_any_flag}#{cursor_flag}')" = 001 ]; then
		ok "SIG$sig: terminal restored"
	else
		not_ok "SIG$sig left the terminal in curses mode"
	fi
done

# 12. The glyphs follow the locale (or --ascii), never TERM: the viewer
#     in the C locale, and with --ascii, draws what snapshot draws there.
T send-keys -t sv "clear; LC_ALL=C $EXE '$PROFILE'" Enter
SNAP_LC=C
step "C locale: ASCII glyphs" 100 30 ""
send Tab J
step "C locale: after Tab J" 100 30 "Tab J"
send q
SNAP_LC=C.UTF-8
SNAP_OPTS=--ascii
T send-keys -t sv "clear; $EXE --ascii '$PROFILE'" Enter
step "--ascii in a UTF-8 locale" 100 30 ""
send q
SNAP_OPTS=""
if grep -q '[^ -~]' "$TMP/got.txt"; then
	not_ok "--ascii: the screen holds non-ASCII characters"
else
	ok "--ascii: only ASCII on the screen"
fi

# 13. Without a FILE the viewer opens the built-in demo (written once to
#     the cache directory; --demo-path names it).
T send-keys -t sv "clear; XDG_CACHE_HOME='$TMP/cache' $EXE" Enter
if wait_for '^demo '; then
	ok "no FILE: the demo opens"
else
	not_ok "no FILE: no demo on the screen"
	capture | tail -3
fi
send q
demo=$(XDG_CACHE_HOME="$TMP/cache" "$EXE" --demo-path)
if [ "$demo" = "$TMP/cache/scopeview/demo-$("$EXE" --version | cut -d' ' -f2).h5" ] &&
	"$EXE" summary "$demo" >/dev/null; then
	ok "--demo-path names the cached demo, a readable profile"
else
	not_ok "--demo-path said '$demo'"
fi

# 14. --no-mouse leaves the terminal's mouse alone; without it, the
#     viewer asks for button and motion reports (xterm modes 1000/1002).
T send-keys -t sv "clear; $EXE --no-mouse '$PROFILE'" Enter
step "--no-mouse: the same first screen" 100 30 ""
if [ "$(T display-message -p -t sv '#{mouse_any_flag}#{mouse_button_flag}')" = 00 ]; then
	ok "--no-mouse: no mouse reports requested"
else
	not_ok "--no-mouse: the terminal was asked for mouse reports"
fi
send q
T send-keys -t sv "clear; $EXE '$PROFILE'" Enter
step "mouse on: the same first screen" 100 30 ""
if [ "$(T display-message -p -t sv '#{mouse_any_flag}#{mouse_button_flag}#{mouse_sgr_flag}')" = 111 ]; then
	ok "mouse on: button, drag and SGR reports requested"
else
	not_ok "mouse on: flags $(T display-message -p -t sv '#{mouse_any_flag}#{mouse_button_flag}#{mouse_sgr_flag}')"
fi
send q

# 15. An unknown terminal type is a clear error, exit 2, terminal intact.
T send-keys -t sv "clear; TERM=no-such-terminal $EXE '$PROFILE'; echo \"status=\$?\"" Enter
if wait_for '^status=2$' && capture | grep -q "cannot use terminal type 'no-such-terminal'"; then
	ok "unknown TERM: a message and exit 2"
else
	not_ok "unknown TERM"
	capture | tail -3
fi

# 15b. TERM=dumb cannot move the cursor: refused with the commands that
# work there, exit 2, not a blank screen.
# (its own marker: the screen before it ended in status=2 too)
T send-keys -t sv "clear; TERM=dumb $EXE '$PROFILE'; echo \"dumb status=\$?\"" Enter
if wait_for '^dumb status=2$' && capture | grep -q "'dumb' cannot move the cursor: use 'scopeview summary"; then
	ok "TERM=dumb: a message naming summary and snapshot, exit 2"
else
	not_ok "TERM=dumb"
	capture | tail -3
fi

# 16. Not a terminal: a clear message and exit 2.
out=$("$EXE" "$PROFILE" 2>&1 >/dev/null </dev/null)
st=$?
if [ $st = 2 ] && echo "$out" | grep -q "standard output is not a terminal"; then
	ok "stdout not a terminal: exit 2 with a message"
else
	not_ok "stdout not a terminal: exit $st, said '$out'"
fi

# 17. q while the calls are still being read exits at once, with status
#     0, and leaves the terminal as it found it: the loader thread is still
#     inside libhdf5 then, and the viewer leaves without running its exit
#     handlers under it.  A gzip profile of 3M calls read by libhdf5 alone
#     (SCOPEVIEW_NO_FAST_INFLATE: one H5Dread a column, no parallel
#     decoder) takes most of a second here, long enough to be seen reading.
BIG="$TMP/big.h5"
if "$EXE" gen --ranks 4 --events 3M --compression gzip --seed 3 --quiet \
	"$BIG"; then
	T send-keys -t sv "clear; SCOPEVIEW_NO_FAST_INFLATE=1 $EXE '$BIG'; echo \"status=\$? at=\$(date +%s%N)\"" Enter
	if wait_for 'reading events'; then
		t_q=$(date +%s%N)
		T send-keys -t sv q
		if wait_for '^status=0 at=[0-9]*$'; then
			at=$(capture | sed -n 's/^status=0 at=\([0-9]*\)$/\1/p' | tail -1)
			ms=$(((at - t_q) / 1000000))
			if [ "$ms" -lt 500 ]; then
				ok "q during the read: the viewer exited 0 in $ms ms"
			else
				not_ok "q during the read: the viewer took $ms ms to exit"
			fi
		else
			not_ok "q during the read: no 'status=0'"
			capture | tail -5
		fi
		if [ "$(T display-message -p -t sv '#{alternate_on}#{mouse_any_flag}#{cursor_flag}')" = 001 ]; then
			ok "q during the read: terminal restored"
		else
			not_ok "q during the read left the terminal in curses mode"
		fi
	else
		not_ok "the 3M-call load never showed 'reading events'"
		capture | tail -8
	fi
else
	not_ok "scopeview gen of 3M calls failed"
fi

# 18. --memory: a profile bigger than the budget opens with the ranks that
#     fit (ranks 0 and 1: 2667 calls of 68 bytes, five event columns), and
#     :ranks reads another, leaving out the one least recently asked for;
#     the title names the subset and the budget (at 140 columns, where the
#     status line has room for the title and the message whole).
T resize-window -t sv -x 140 -y 30
T send-keys -t sv "clear; $EXE --memory 220K '$PROFILE'" Enter
if wait_for '\[ranks 0-1 of 3, memory 220K\]' && wait_for 'memory 220K holds ranks 0-1'; then
	ok "--memory: the ranks that fit are read, and said"
else
	not_ok "--memory: the first screen"
	capture | tail -3
fi
send : r a n k s Space 2 Enter
if wait_for '\[ranks 0,2 of 3, memory 220K\]'; then
	ok "--memory: :ranks 2 reads rank 2 and leaves rank 1 out"
else
	not_ok "--memory: :ranks 2"
	capture | tail -3
fi
send q
T resize-window -t sv -x 100 -y 30

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
