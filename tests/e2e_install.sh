#!/bin/bash
# e2e_install.sh: `meson install` into a DESTDIR puts the binary, the man
# page, the bash, zsh and fish completions and the README and licence in
# their places; the installed binary runs; the completion scripts load
# (bash -n, complete -p, zsh -n, fish -n) and name every command and every
# option that `--help` and `COMMAND --help` print, and bash completes
# "scopeview su" to "summary".
set -u

exe=${SCOPEVIEW_EXE:?SCOPEVIEW_EXE must name the built scopeview}
build=${SCOPEVIEW_BUILD_ROOT:?SCOPEVIEW_BUILD_ROOT must name the build}
src=${SCOPEVIEW_SOURCE_ROOT:-$(dirname "$0")/..}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/scopeview-install-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
need_all=${SCOPEVIEW_NO_SKIP:-0}

passed=0
failed=0
ok() { passed=$((passed + 1)); }
fail() {
	echo "FAIL: $*"
	failed=$((failed + 1))
}

if ! meson install -C "$build" --no-rebuild --destdir "$tmp/root" \
	>"$tmp/install.log" 2>&1; then
	fail "meson install:"
	sed 's/^/  /' "$tmp/install.log"
	echo "$passed passed, $failed failed"
	exit 1
fi
prefix=$(meson introspect --buildoptions "$build" |
	python3 -c 'import json, sys
print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
root=$tmp/root$prefix
bin=$root/bin/scopeview
man=$root/share/man/man1/scopeview.1
bashc=$root/share/bash-completion/completions/scopeview
zshc=$root/share/zsh/vendor-completions/_scopeview
fishc=$root/share/fish/vendor_completions.d/scopeview.fish
for f in "$bin" "$man" "$bashc" "$zshc" "$fishc" \
	"$root/share/doc/scopeview/README.md" \
	"$root/share/doc/scopeview/LICENSE"; do
	if [ -f "$f" ]; then ok; else fail "not installed: ${f#"$tmp/root"}"; fi
done

if [ "$("$bin" --version 2>&1)" = "$("$exe" --version)" ]; then
	ok
else
	fail "the installed binary: $("$bin" --version 2>&1)"
fi
if "$bin" summary "$src/tests/fixtures/four_ranks.h5" >"$tmp/summary" &&
	[ -s "$tmp/summary" ]; then
	ok
else
	fail "installed scopeview summary four_ranks.h5"
fi

# The scripts load.
if bash -n "$bashc" && [ "$(bash -c "source '$bashc' && complete -p scopeview")" = \
	"complete -F _scopeview scopeview" ]; then
	ok
else
	fail "bash does not load $bashc"
fi
for sh in zsh fish; do
	f=$zshc
	[ "$sh" = fish ] && f=$fishc
	if command -v "$sh" >/dev/null; then
		if "$sh" -n "$f"; then ok; else fail "$sh -n $f"; fi
	elif [ "$need_all" = 1 ]; then
		fail "$sh is not installed (tools/deps.sh installs it)"
	fi
done

# bash completes a subcommand and an option's values.
complete_bash() {
	bash -c "source '$bashc'
COMP_WORDS=($*); COMP_CWORD=\$((\${#COMP_WORDS[@]} - 1)); _scopeview
echo \"\${COMPREPLY[*]}\""
}
[ "$(complete_bash scopeview su)" = summary ] && ok ||
	fail "bash: 'scopeview su<TAB>' gives '$(complete_bash scopeview su)'"
[ "$(complete_bash scopeview summary --format "''")" = "table csv json" ] && ok ||
	fail "bash: 'scopeview summary --format <TAB>'"

# Every command and option of --help is in every script.
options_of() { # the long options of `scopeview $1 --help`
	"$exe" $1 --help | grep -oE '^  (-[A-Za-z], )?--[a-z0-9-]+' |
		grep -oE -- '--[a-z0-9-]+'
}
cmds=$("$exe" --help | awk '/^Commands:/ { on = 1; next }
	on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
[ -n "$cmds" ] && ok || fail "no commands in scopeview --help"
for cmd in "" $cmds; do
	for f in "$bashc" "$zshc" "$fishc"; do
		if [ -n "$cmd" ] && ! grep -qw -- "$cmd" "$f"; then
			fail "$(basename "$f") lacks the command $cmd"
		fi
	done
	n=0
	for opt in $(options_of "$cmd"); do
		n=$((n + 1))
		grep -q -- "$cmd${cmd:+:}$opt\b\|[' ]$opt[ '=]" "$bashc" ||
			fail "bash completion lacks '$cmd $opt'"
		grep -q -- "'$opt[=\[]" "$zshc" ||
			fail "zsh completion lacks '$cmd $opt'"
		grep -q -- "-l ${opt#--}\b" "$fishc" ||
			fail "fish completion lacks '$cmd $opt'"
	done
	[ "$n" -gt 0 ] && ok || fail "no options in 'scopeview $cmd --help'"
done
# Per command, the bash words are exactly its --help options (+ aliases
# and attached values).
for cmd in "" $cmds; do
	want=$(options_of "$cmd" | sort -u)
	got=$(complete_bash scopeview $cmd -- | tr ' ' '\n' | sed 's/=.*//' |
		grep -- '^--' | sort -u)
	if [ "$want" = "$got" ]; then
		ok
	else
		fail "bash: 'scopeview $cmd --<TAB>' differs from --help:"
		diff <(echo "$want") <(echo "$got") | sed 's/^/  /'
	fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
