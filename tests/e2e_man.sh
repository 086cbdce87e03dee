#!/bin/bash
# e2e_man.sh: the manual page.  groff formats it without a warning (-ww),
# man -l shows it, it lists every command of `scopeview --help`, and its
# KEYS section, read back from the formatted page, equals `scopeview
# --list-keys` line for line.
#
# The page is built by meson when scdoc is installed (doc/meson.build);
# without it this test skips (exit 77), or fails under SCOPEVIEW_NO_SKIP=1.
set -u

exe=${SCOPEVIEW_EXE:?SCOPEVIEW_EXE must name the built scopeview}
build=${SCOPEVIEW_BUILD_ROOT:?SCOPEVIEW_BUILD_ROOT must name the build}
page=$build/doc/scopeview.1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/scopeview-man-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if [ ! -f "$page" ] || ! command -v groff >/dev/null ||
	! command -v man >/dev/null; then
	echo "no $page (scdoc missing?) or no groff/man"
	[ "${SCOPEVIEW_NO_SKIP:-0}" = 1 ] && exit 1
	exit 77
fi

passed=0
failed=0
ok() { passed=$((passed + 1)); }
fail() {
	echo "FAIL: $*"
	failed=$((failed + 1))
}

export LC_ALL=C.UTF-8
groff -man -Tutf8 -ww "$page" >"$tmp/groff.txt" 2>"$tmp/groff.err"
if [ -s "$tmp/groff.err" ]; then
	fail "groff -man -Tutf8 -ww warns:"
	sed 's/^/  /' "$tmp/groff.err"
else
	ok
fi

MANWIDTH=300 man --warnings -l "$page" 2>"$tmp/man.err" | col -bx >"$tmp/man.txt"
if [ -s "$tmp/man.err" ] || ! grep -q '^NAME' "$tmp/man.txt"; then
	fail "man -l: $(cat "$tmp/man.err")"
else
	ok
fi

# Every command of --help has a section and a synopsis line.
for cmd in $("$exe" --help | awk '/^Commands:/ { on = 1; next }
	on && /^  [a-z]/ { print $1 } on && /^$/ { exit }'); do
	if grep -q "^   scopeview $cmd\$" "$tmp/man.txt" &&
		grep -q "^       scopeview $cmd " "$tmp/man.txt"; then
		ok
	else
		fail "the man page has no section for 'scopeview $cmd'"
	fi
done

# The KEYS section in --list-keys's layout: a scope title, then one line
# "  KEYS ACTION HELP" per action; the mouse paragraph joined into words.
awk '
/^KEYS$/ { on = 1; next }
on && /^[A-Z]/ { exit }
!on { next }
/^   Mouse$/ { mouse = 1; next }
mouse { for (i = 1; i <= NF; i++) words = words " " $i; next }
/^   [^ ]/ { sub(/^   /, ""); printf "%s%s\n", n++ ? "\n" : "", $0; next }
/^       [^ ]/ {
	sub(/^       /, "")
	name = $NF
	gsub(/[()]/, "", name)
	keys = $0
	sub(/ \([^ ]*\)$/, "", keys)
	next
}
/^           [^ ]/ {
	sub(/^           /, "")
	printf "  %-18s %-17s %s\n", keys, name, $0
}
END { print "MOUSE" words }' "$tmp/man.txt" >"$tmp/man-keys.txt"
"$exe" --list-keys | awk '
/^Mouse:/ { mouse = 1 }
mouse { for (i = 1; i <= NF; i++) words = words " " $i; next }
{ lines[++n] = $0 }
END {
	while (n > 0 && lines[n] == "") n--
	for (i = 1; i <= n; i++) print lines[i]
	print "MOUSE" words
}' >"$tmp/list-keys.txt"
if diff -u "$tmp/list-keys.txt" "$tmp/man-keys.txt" >"$tmp/keys.diff"; then
	ok
else
	fail "the man page's KEYS differ from --list-keys:"
	sed 's/^/  /' "$tmp/keys.diff"
fi
if [ "$(grep -c '^  ' "$tmp/man-keys.txt")" -lt 20 ]; then
	fail "the man page's KEYS section looks empty"
else
	ok
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
