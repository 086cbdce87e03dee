#!/bin/sh
# mkman.sh TEMPLATE SCOPEVIEW OUT: build the manual page.  The template's
# lines @SYNOPSIS@, @COMMANDS@ and @KEYS@ become the sections the built
# program prints from its tables (--list-options=scdoc, --list-keys=scdoc),
# so the manual lists every command, option and key the program has; then
# scdoc turns the whole into roff.
set -eu
template=$1
exe=$2
out=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/scopeview-man-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$exe" --list-options=scdoc >"$tmp/options"
"$exe" --list-keys=scdoc >"$tmp/keys"
awk '/^# COMMANDS$/ { exit } { print }' "$tmp/options" >"$tmp/synopsis"
awk '/^# COMMANDS$/ { on = 1 } on { print }' "$tmp/options" >"$tmp/commands"
awk -v syn="$tmp/synopsis" -v cmd="$tmp/commands" -v keys="$tmp/keys" '
function put(f, line) {
	while ((getline line < f) > 0)
		print line
	close(f)
}
$0 == "@SYNOPSIS@" { put(syn); next }
$0 == "@COMMANDS@" { put(cmd); next }
$0 == "@KEYS@" { put(keys); next }
{ print }' "$template" >"$tmp/page.scd"
scdoc <"$tmp/page.scd" >"$tmp/page.1" || { cp "$tmp/page.scd" "$out.scd"; exit 1; }
mv "$tmp/page.1" "$out"
