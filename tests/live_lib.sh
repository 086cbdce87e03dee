# live_lib.sh: what the live tests (tests/e2e_*live*.sh) share, sourced
# after tmux is found: a temporary directory ($TMP) with a tmux server of
# its own ($SOCK, killed on exit), ok/not_ok counters, and waiting for
# the pane to show (or stop showing) a line while pressing nothing.
# LIVE_NAME names the temporary directory.
TMP=$(mktemp -d "${TMPDIR:-/tmp}/scopeview-${LIVE_NAME:-live}-XXXXXX")
SOCK="$TMP/tmux.sock"
export LC_ALL=C.UTF-8 TZ=UTC TERM=xterm-256color
passed=0
failed=0
# How long a view may take to appear (s): the worker's time on a loaded
# two-core machine, with room; each view's own time is printed.
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

# live_start W H: a clean shell in a W x H tmux window "sv".
live_start() {
	T new-session -d -s sv -x "$1" -y "$2" \
		"env -i PATH=/usr/bin:/bin HOME=$TMP TERM=xterm-256color LC_ALL=C.UTF-8 TZ=UTC PS1='$ ' bash --norc --noprofile"
	T set-option -t sv status off >/dev/null
	T set-option -t sv -g window-size manual >/dev/null 2>&1
	T resize-window -t sv -x "$1" -y "$2" >/dev/null 2>&1
	wait_for '^\$' || not_ok "the shell did not start"
}
