# tmux_lib.sh: what the scripts that drive the real curses viewer in tmux
# share (e2e_live.sh, e2e_trend_live.sh): the skip when tmux is missing,
# a private tmux server and its clean-up, the pass and fail counts, and
# waits that poll the pane and press nothing.  Sourced, not run: set
# LIB_NAME (the script's name, for its messages and temporary directory)
# first.  Defines EXE, TMP, SOCK, WAIT, passed and failed.
#
# Exit 77 (skipped) when tmux is missing, unless SCOPEVIEW_REQUIRE_TMUX=1
# (or SCOPEVIEW_NO_SKIP=1).

EXE=${SCOPEVIEW_EXE:?set SCOPEVIEW_EXE to the built scopeview}
if ! command -v tmux >/dev/null 2>&1; then
	if [ "${SCOPEVIEW_REQUIRE_TMUX:-${SCOPEVIEW_NO_SKIP:-0}}" = 1 ]; then
		echo "$LIB_NAME: tmux is missing and SCOPEVIEW_REQUIRE_TMUX=1"
		exit 1
	fi
	echo "$LIB_NAME: tmux is missing: skipped"
	exit 77
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/scopeview-$LIB_NAME-XXXXXX")
SOCK="$TMP/tmux.sock"
export LC_ALL=C.UTF-8 TZ=UTC TERM=xterm-256color
passed=0
failed=0
# How long a screen may take to appear (s): a worker's time on a loaded
# two-core machine, with room; each script prints its own times.
WAIT=${SCOPEVIEW_LIVE_WAIT:-30}

T() { tmux -S "$SOCK" -f /dev/null "$@"; }
cleanup() {
	T kill-server >/dev/null 2>&1
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

capture() {
	T capture-pane -p -t sv | sed 's/[[:space:]]*$//'
}

now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# wait_for REGEX: until the pane shows a line matching the extended
# regex, polling and pressing nothing; sets waited_ms.
wait_for() {
	local t0 deadline
	t0=$(now_ms)
	deadline=$((t0 + WAIT * 1000))
	while [ "$(now_ms)" -lt $deadline ]; do
		if capture | grep -Eq -- "$1"; then
			waited_ms=$(($(now_ms) - t0))
			return 0
		fi
		sleep 0.05
	done
	waited_ms=$((WAIT * 1000))
	return 1
}

# wait_gone REGEX: until no line matches.
wait_gone() {
	local deadline=$(($(now_ms) + WAIT * 1000))
	while [ "$(now_ms)" -lt $deadline ]; do
		if ! capture | grep -Eq -- "$1"; then
			return 0
		fi
		sleep 0.05
	done
	return 1
}

send() {
	local k
	for k in "$@"; do
		T send-keys -t sv "$k"
	done
}

# send_cap CAP...: the keys whose terminfo capabilities (khome, kend)
# are named, as the viewer's TERM spells them: tmux's own Home and End
# are the sequences of its TERM, not of xterm-256color's.
send_cap() {
	local c
	for c in "$@"; do
		T send-keys -t sv -l "$(tput -T "$TERM" "$c")"
	done
}

# The status line (the pane's last line).
status() {
	capture | tail -n 1
}

# expect NAME REGEX: the pane shows REGEX (waiting, no key pressed).
expect() {
	if wait_for "$2"; then
		ok "$1 (${waited_ms} ms)"
	else
		not_ok "$1: no line matches /$2/"
		capture | tail -n 6
	fi
}

# open_viewer W H ARGS...: the viewer on ARGS in a W x H window's plain
# shell (the environment pinned), then "status=N" printed when it ends.
open_viewer() {
	local w=$1 h=$2 arg args=""
	shift 2
	for arg in "$@"; do
		args="$args '$arg'"
	done
	T new-session -d -s sv -x "$w" -y "$h" \
		"env -i PATH=/usr/bin:/bin HOME=$TMP TERM=xterm-256color LC_ALL=C.UTF-8 TZ=UTC PS1='$ ' bash --norc --noprofile"
	T set-option -t sv status off >/dev/null
	T set-option -t sv -g window-size manual >/dev/null 2>&1
	T resize-window -t sv -x "$w" -y "$h" >/dev/null 2>&1
	wait_for '^\$' || not_ok "the shell did not start"
	T send-keys -t sv "$EXE --no-config$args; echo \"status=\$?\"" Enter
}

# The timeline's status line: the window's span and the cursor.
TIMELINE='span .* from .*cursor'

# expect_loaded: the timeline opens, then the load finishes (its
# progress and "q: stop and quit" gone).
expect_loaded() {
	expect "the timeline opens" "$TIMELINE"
	if wait_gone 'Loading |q: stop and quit'; then
		ok "the load finishes"
	else
		not_ok "the load never finishes"
	fi
}
