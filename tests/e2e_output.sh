#!/bin/bash
# e2e_output.sh: the output rule of every command that writes (issue 42,
# issue 40 item 5; src/core/outfile.c): `snapshot -o`, `export -o`, the
# viewer's `:export` (driven through `snapshot --keys`) and `gen`.
#
# Each refuses, with exit 2 and one line (the viewer: on its message
# line), an input profile by the same path, a symbolic link and a hard
# link, and a target that is a FIFO, a directory, a device or a
# symbolic link; the input is left byte for byte as it was and nothing
# is created.  On a full file system each exits 1 with one line naming
# the system's reason and leaves the old file whole and no partial
# file: a 16 KiB tmpfs in a private mount namespace when this runs as
# root (CI does), else a file size limit (ulimit -f, EFBIG), the same
# failure of write(2) seen from the program.  A directory run's member
# is checked by test_outfile: no command reads a directory run yet.
set -u

exe=${SCOPEVIEW_EXE:?SCOPEVIEW_EXE must name the built scopeview}

# keys TEXT: the --keys script that types TEXT (spaces as Space).
keys() {
	local s=$1 out="" i c
	for ((i = 0; i < ${#s}; i++)); do
		c=${s:i:1}
		[ "$c" = " " ] && c=Space
		out+="$c "
	done
	echo "${out}Enter"
}

# run KIND OUT: one writing command with OUT as its output, reading
# $input; stdout in $tmp/out, stderr in $tmp/err, the status in $rc.
run() {
	local kind=$1 out=$2
	case $kind in
	snapshot)
		timeout 60 "$exe" snapshot --size 400x100 -o "$out" "$input" ;;
	export)
		timeout 60 "$exe" export --format csv -o "$out" "$input" ;;
	viewer)
		timeout 60 "$exe" snapshot --size 600x12 \
			--keys "$(keys ":export csv $out")" "$input" ;;
	gen)
		timeout 60 "$exe" gen --quiet --events 20000 "$out" ;;
	esac >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
}

# Inside a private mount namespace (unshare -m): a 16 KiB tmpfs on DIR,
# an old file DIR/keep, KIND writing over it; what came of it in
# DIR.rc, DIR.out, DIR.err and DIR.state (keep's text, then every name
# left in DIR).
if [ "${1-}" = --full-inner ]; then
	kind=$2 dir=$3 input=$4 tmp=$5
	mount --make-rprivate / &&
		mount -t tmpfs -o size=16k scopeview-e2e "$dir" || exit 99
	echo old >"$dir/keep"
	run "$kind" "$dir/keep"
	echo "$rc" >"$dir.rc"
	cp "$tmp/out" "$dir.out"
	cp "$tmp/err" "$dir.err"
	{ cat "$dir/keep"; ls -A "$dir"; } >"$dir.state"
	exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/scopeview-e2e-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() {
	passed=$((passed + 1))
	echo "ok: $*"
}
bad() {
	failed=$((failed + 1))
	echo "FAIL: $*"
	sed 's/^/     stderr: /' "$tmp/err"
}

input=$tmp/run.h5
if ! "$exe" gen --quiet --events 2000 --ranks 2 "$input"; then
	echo "FAIL: gen could not make the input profile"
	exit 1
fi
cp "$input" "$tmp/run.orig"
ln -s run.h5 "$tmp/sym.h5"
ln "$input" "$tmp/hard.h5"
mkfifo "$tmp/fifo"
mkdir "$tmp/dir"
echo other >"$tmp/other.txt"
ln -s other.txt "$tmp/other-link"
# A device: a private node when root (a broken command would replace
# only that), else /dev/full (a broken command could not write /dev).
if [ "$(id -u)" = 0 ] && mknod "$tmp/full" c 1 7 2>/dev/null; then
	device=$tmp/full
else
	device=/dev/full
fi

# refused KIND OUT FRAGMENT: KIND refuses OUT saying FRAGMENT; the input
# and OUT are as they were and no temporary is left.
refused() {
	local kind=$1 out=$2 frag=$3 what before after
	before=$(ls -ld "$out" 2>/dev/null | cut -c1)
	run "$kind" "$out"
	what="$kind over ${out#"$tmp"/}"
	if [ "$kind" = viewer ]; then
		if [ $rc != 0 ] || ! grep -qF -- "$frag" "$tmp/out"; then
			bad "$what: exit $rc, screen lacks '$frag'"
			return
		fi
	elif [ $rc != 2 ] || [ "$(wc -l <"$tmp/err")" != 1 ] ||
		! grep -q '^scopeview: ' "$tmp/err" ||
		! grep -qF -- "$frag" "$tmp/err"; then
		bad "$what: exit $rc (want 2 and one line with '$frag')"
		return
	fi
	after=$(ls -ld "$out" 2>/dev/null | cut -c1)
	if ! cmp -s "$input" "$tmp/run.orig"; then
		bad "$what: the input profile changed"
	elif [ "$before" != "$after" ]; then
		bad "$what: ${out#"$tmp"/} changed kind ($before to $after)"
	elif [ "$(cat "$tmp/other.txt")" != other ]; then
		bad "$what: wrote through a symbolic link"
	elif ls -A "$tmp" "$tmp/dir" | grep -q '\.tmp$'; then
		bad "$what: a temporary file is left"
	else
		ok "$what: refused ('$frag')"
	fi
}

# full KIND: KIND on a full file system: exit 1 (the viewer: its message
# line), the reason, the old file whole, nothing else left.
full() {
	local kind=$1 dir=$tmp/fs-$1 reason state want=1
	mkdir -p "$dir"
	if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
		reason="No space left on device"
		unshare -m bash "$0" --full-inner "$kind" "$dir" "$input" \
			"$tmp"
		if [ $? != 0 ] || [ ! -f "$dir.rc" ]; then
			bad "$kind: could not mount a tmpfs as root"
			return
		fi
		rc=$(cat "$dir.rc")
		cp "$dir.out" "$tmp/out"
		cp "$dir.err" "$tmp/err"
		state=$(cat "$dir.state")
	else
		reason="File too large"
		echo old >"$dir/keep"
		(
			ulimit -f 16
			trap '' XFSZ
			run "$kind" "$dir/keep"
			exit $rc
		)
		rc=$?
		state=$(
			cat "$dir/keep"
			ls -A "$dir"
		)
	fi
	[ "$kind" = viewer ] && want=0
	if [ "$rc" != $want ]; then
		bad "$kind on a full disk: exit $rc, want $want"
	elif [ "$kind" = viewer ] && ! grep -qF "$reason" "$tmp/out"; then
		bad "$kind on a full disk: the screen lacks '$reason'"
	elif [ "$kind" != viewer ] && { [ "$(wc -l <"$tmp/err")" != 1 ] ||
		! grep -qF "$reason" "$tmp/err"; }; then
		bad "$kind on a full disk: want one line with '$reason'"
	elif [ "$state" != "$(printf 'old\nkeep')" ]; then
		bad "$kind on a full disk: left '$(echo "$state" | tr '\n' ' ')'"
	else
		ok "$kind on a full disk: exit $rc, '$reason', old file whole"
	fi
}

for kind in snapshot export viewer; do
	refused $kind "$input" "is an input of this command"
	refused $kind "$tmp/sym.h5" "same file as"
	refused $kind "$tmp/hard.h5" "same file as"
done
for kind in snapshot export viewer gen; do
	refused $kind "$tmp/fifo" "is a FIFO, not a regular file"
	refused $kind "$tmp/dir" "is a directory, not a regular file"
	refused $kind "$device" "is a character device, not a regular file"
	refused $kind "$tmp/other-link" "is a symbolic link, not a regular"
	full $kind
done

# snapshot's --config and second run are inputs too; a regular file
# that is none of them is replaced whole.
echo "bind timeline j pan-left" >"$tmp/config"
cp "$tmp/config" "$tmp/config.orig"
"$exe" snapshot -o "$tmp/config" --config "$tmp/config" "$input" \
	>/dev/null 2>"$tmp/err"
rc=$?
if [ $rc = 2 ] && cmp -s "$tmp/config" "$tmp/config.orig"; then
	ok "snapshot -o its own --config file: refused"
else
	bad "snapshot -o its own --config file: exit $rc"
fi
cp "$input" "$tmp/second.h5"
"$exe" snapshot -o "$tmp/second.h5" "$input" "$tmp/second.h5" \
	>/dev/null 2>"$tmp/err"
rc=$?
if [ $rc = 2 ] && cmp -s "$tmp/second.h5" "$input"; then
	ok "snapshot -o its second run: refused"
else
	bad "snapshot -o its second run: exit $rc"
fi
echo stale >"$tmp/stale"
for kind in snapshot export viewer gen; do
	cp "$tmp/stale" "$tmp/replace.out"
	chmod 640 "$tmp/replace.out"
	run $kind "$tmp/replace.out"
	if [ $rc = 0 ] && ! cmp -s "$tmp/replace.out" "$tmp/stale" &&
		[ -s "$tmp/replace.out" ] &&
		[ "$(stat -c %a "$tmp/replace.out")" = 640 ]; then
		ok "$kind replaces a regular file whole, keeping its mode"
	else
		bad "$kind over a regular file: exit $rc"
	fi
done

echo "e2e_output: $passed passed, $failed failed"
[ "$failed" = 0 ]
