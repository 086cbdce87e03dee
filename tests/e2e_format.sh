#!/usr/bin/env bash
# e2e_format.sh: every C source and header is formatted with the
# repository's .clang-format (clang-format --dry-run --Werror).  Skipped
# (77) without clang-format unless SCOPEVIEW_REQUIRE_FORMAT=1 (or
# SCOPEVIEW_NO_SKIP=1).
set -u
root=${SCOPEVIEW_SOURCE_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
if ! command -v clang-format >/dev/null; then
	echo "clang-format is not installed: skipped"
	[ "${SCOPEVIEW_REQUIRE_FORMAT:-${SCOPEVIEW_NO_SKIP:-0}}" = 1 ] && exit 1
	exit 77
fi
cd "$root" || exit 1
files=$(git ls-files '*.c' '*.h' 2>/dev/null)
[ -n "$files" ] || files=$(find src include tests bench -name '*.[ch]')
bad=0
for f in $files; do
	if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
		echo "not formatted: $f (run clang-format -i $f)"
		bad=$((bad + 1))
	fi
done
n=$(echo "$files" | wc -w)
echo "format: $((n - bad)) passed, $bad failed"
[ "$bad" -eq 0 ]
