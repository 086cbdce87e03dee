#!/bin/bash
# e2e_deb.sh: the Debian package.  Copies the source tree to a scratch
# directory (so the build leaves nothing behind in the checkout), runs
# `dpkg-buildpackage -us -uc -b` there (DEB_BUILD_OPTIONS=nocheck: the
# suites run in this build already), and checks the .deb: `dpkg -c` lists
# the binary, the man page and the completions, its Depends come from
# shlibs (libhdf5, libncursesw), lintian reports no error, and the binary
# extracted with `dpkg-deb -x` runs (--version, summary on a fixture).
#
# Needs dpkg-dev, debhelper and lintian (tools/deps.sh installs them);
# without them it skips (77), or fails under SCOPEVIEW_NO_SKIP=1.
set -u

src=${SCOPEVIEW_SOURCE_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
exe=${SCOPEVIEW_EXE:-}
for tool in dpkg-buildpackage dh lintian dpkg-deb; do
	if ! command -v "$tool" >/dev/null; then
		echo "$tool is not installed (tools/deps.sh installs it)"
		[ "${SCOPEVIEW_NO_SKIP:-0}" = 1 ] && exit 1
		exit 77
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/scopeview-deb-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

passed=0
failed=0
ok() { passed=$((passed + 1)); }
fail() {
	echo "FAIL: $*"
	failed=$((failed + 1))
}
finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

# The source as a release tarball would have it: no build directories,
# no VCS metadata, no test leftovers.
version=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)
tree=$tmp/scopeview-$version
mkdir "$tree"
tar -C "$src" --exclude='./build*' --exclude=./.git --exclude='*.actual' \
	--exclude=./bench/out -cf - . | tar -C "$tree" -xf -

if (cd "$tree" && DEB_BUILD_OPTIONS="nocheck parallel=1" \
	dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1; then
	ok
else
	fail "dpkg-buildpackage -us -uc -b; the end of its log:"
	tail -40 "$tmp/build.log" | sed 's/^/  /'
	finish
fi
deb=$(ls "$tmp"/scopeview_"$version"_*.deb 2>/dev/null | head -1)
if [ -z "$deb" ]; then
	fail "no .deb in $tmp"
	finish
fi

dpkg -c "$deb" >"$tmp/contents"
for f in ./usr/bin/scopeview ./usr/share/man/man1/scopeview.1.gz \
	./usr/share/bash-completion/completions/scopeview \
	./usr/share/zsh/vendor-completions/_scopeview \
	./usr/share/fish/vendor_completions.d/scopeview.fish \
	./usr/share/doc/scopeview/copyright; do
	if grep -q " $f\$" "$tmp/contents"; then
		ok
	else
		fail "dpkg -c: no $f"
	fi
done

depends=$(dpkg-deb -f "$deb" Depends)
for lib in libhdf5 libncursesw libpcre2-8 libjansson libc6; do
	case $depends in
	*"$lib"*) ok ;;
	*) fail "Depends lacks $lib: $depends" ;;
	esac
done

lintian --fail-on error "$deb" >"$tmp/lintian" 2>&1
if [ $? -eq 0 ]; then
	ok
else
	fail "lintian reports errors:"
	sed 's/^/  /' "$tmp/lintian"
fi

dpkg-deb -x "$deb" "$tmp/root"
bin=$tmp/root/usr/bin/scopeview
want="scopeview $version"
[ -n "$exe" ] && want=$("$exe" --version)
if [ "$("$bin" --version 2>&1)" = "$want" ]; then
	ok
else
	fail "the packaged scopeview --version: $("$bin" --version 2>&1)"
fi
if "$bin" summary "$src/tests/fixtures/four_ranks.h5" >"$tmp/summary" 2>&1 &&
	grep -q . "$tmp/summary"; then
	ok
else
	fail "the packaged scopeview summary four_ranks.h5:"
	sed 's/^/  /' "$tmp/summary"
fi
if zcat "$tmp/root/usr/share/man/man1/scopeview.1.gz" | grep -q '^\.SH KEYS'; then
	ok
else
	fail "the packaged man page has no KEYS section"
fi
finish
