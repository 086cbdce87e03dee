#!/bin/bash
# e2e_config.sh: the configuration file seen from the command line: the
# default path under XDG_CONFIG_HOME, --config and --no-config, a bad line
# reported as FILE:LINE and skipped, a rebinding shown by --list-keys and
# in the help popup (snapshot --config), --dump-config read back to
# itself, and snapshot --theme.
set -u

exe=${SCOPEVIEW_EXE:?SCOPEVIEW_EXE must name the built scopeview}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/scopeview-config-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

passed=0
failed=0
ok() { passed=$((passed + 1)); }
fail() {
	echo "FAIL: $*"
	failed=$((failed + 1))
}
# check DESCRIPTION COMMAND...: the command succeeds.
check() {
	local what=$1
	shift
	if "$@"; then ok; else fail "$what"; fi
}

export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/xdg
mkdir -p "$HOME" "$XDG_CONFIG_HOME/scopeview"
conf=$XDG_CONFIG_HOME/scopeview/config
printf '%s\n' '# my keys' 'bind timeline F5 solo-lane' \
	'bind timeline t none' 'set mouse maybe' 'theme light' >"$conf"

"$exe" --list-keys >"$tmp/keys" 2>"$tmp/err"
check "--list-keys with a config exits 0" test $? -eq 0
check "--list-keys shows the rebinding" \
	grep -qE '^  F5 +solo-lane ' "$tmp/keys"
check "--list-keys no longer shows t for solo-lane" \
	test -z "$(grep -E '^  t +solo-lane' "$tmp/keys")"
check "the bad line is named by file and line" \
	grep -qxF "scopeview: $conf:4: mouse is on or off, not 'maybe'" "$tmp/err"
check "one message for one bad line" test "$(wc -l <"$tmp/err")" -eq 1

"$exe" --no-config --list-keys >"$tmp/plain" 2>"$tmp/err"
check "--no-config reads nothing" test ! -s "$tmp/err"
check "--no-config gives the table's keys" \
	grep -qE '^  t +solo-lane ' "$tmp/plain"
XDG_CONFIG_HOME=$tmp/nothing "$exe" --list-keys >"$tmp/none" 2>&1
check "no file at the default path is no error" cmp -s "$tmp/none" "$tmp/plain"

"$exe" --config "$tmp/missing" --list-keys >/dev/null 2>"$tmp/err"
check "a missing --config FILE exits 1" test $? -eq 1
check "and names it" grep -q "$tmp/missing" "$tmp/err"
"$exe" --config "$conf" --no-config --list-keys >/dev/null 2>&1
check "--config with --no-config is a usage error" test $? -eq 2

# --dump-config reads back to itself, without a message.
"$exe" --dump-config >"$tmp/dump" 2>/dev/null
check "--dump-config says theme light" grep -qx 'theme light' "$tmp/dump"
check "--dump-config has the rebinding" \
	grep -qx 'bind timeline F5 solo-lane' "$tmp/dump"
"$exe" --config "$tmp/dump" --dump-config >"$tmp/dump2" 2>"$tmp/err"
check "the dump parses without a message" test ! -s "$tmp/err"
check "the dump reads back to itself" cmp -s "$tmp/dump" "$tmp/dump2"

# The man page's example parses.
printf '%s\n' 'theme light' 'set sort exclusive' 'bind F5 reload' \
	'bind timeline x zoom-fit' 'color selected bright-white red bold' \
	>"$tmp/example"
"$exe" --config "$tmp/example" --dump-config >/dev/null 2>"$tmp/err"
check "the man page's example parses" test ! -s "$tmp/err"

# The help popup shows the rebinding.
"$exe" snapshot --demo --size 100x60 --config "$conf" --keys '?' \
	>"$tmp/help" 2>/dev/null
check "snapshot --config: F5 in the help popup" \
	grep -q 'F5  *Show only the lane' "$tmp/help"
check "snapshot --config: no t in the help popup" \
	test -z "$(grep ' t  *Show only the lane' "$tmp/help")"
"$exe" snapshot --demo --size 100x60 --keys '?' >"$tmp/help0"
check "snapshot reads no config by itself" \
	grep -q ' t  *Show only the lane' "$tmp/help0"

# Themes in the ANSI output.
"$exe" snapshot --demo --format ansi --theme light >"$tmp/light"
"$exe" snapshot --demo --format ansi --theme dark >"$tmp/dark"
check "--theme light changes the colours" test "$(md5sum <"$tmp/light")" != "$(md5sum <"$tmp/dark")"
check "but not the text" cmp -s <(sed 's/\x1b\[[0-9;]*m//g' "$tmp/light") \
	<(sed 's/\x1b\[[0-9;]*m//g' "$tmp/dark")
"$exe" snapshot --demo --theme sepia >/dev/null 2>&1
check "--theme sepia is a usage error" test $? -eq 2

# --config naming what must not be read blindly (infile.h): refused at
# once in one line (exit 1), and a file of escape sequences read with its
# messages escaped.
mkfifo "$tmp/fifo"
ln -s loop2 "$tmp/loop"
ln -s loop "$tmp/loop2"
truncate -s 2G "$tmp/big"
printf 'bind x \033]0;pwned\007 quit\n\033[2J\xc2\x9b1m\0theme dark\n' >"$tmp/esc"
for bad in /dev/zero:"is a character device, not a regular file" \
	"$tmp/fifo":"is a FIFO, not a regular file" \
	"$tmp/loop":"cannot open: Too many levels of symbolic links" \
	"$tmp/big":"holds 2GiB, more than a configuration file may (1MiB): not read"; do
	file=${bad%%:*}
	for cmd in "--list-keys" "snapshot --demo"; do
		# shellcheck disable=SC2086
		timeout 20 "$exe" $cmd --config "$file" >/dev/null 2>"$tmp/err"
		check "$cmd --config $file exits 1 at once" test $? -eq 1
		check "$cmd --config $file: one line" \
			grep -qxF "scopeview: $file: ${bad#*:}" "$tmp/err"
	done
done
"$exe" snapshot --demo --config "$tmp/esc" >/dev/null 2>"$tmp/err"
check "a --config of escape sequences is read" test $? -eq 0
check "its messages hold no raw escape" test -z "$(LC_ALL=C grep -P '[\x07\x1b\x9b]' "$tmp/err")"
check "they show the escape" grep -qF '\x1b[2J' "$tmp/err"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
