#!/bin/sh
# Install the Debian packages scopeview needs to build, test and make its
# screenshots.  Installs only what is missing; run as root (or with sudo
# available).
set -eu
PKGS="build-essential meson ninja-build pkg-config libhdf5-dev \
libncurses-dev libpcre2-dev zlib1g-dev liblzf-dev libzstd-dev libjansson-dev check python3 python3-h5py \
python3-numpy hdf5-tools tmux librsvg2-bin locales clang-format \
scdoc groff-base man-db zsh fish debhelper dpkg-dev fakeroot lintian nodejs \
valgrind clang libclang-rt-dev"
# npm fetches speedscope's schema and a validator for e2e_speedscope.sh;
# a Node.js from elsewhere (NodeSource) brings its own npm, which Debian's
# npm package would conflict with.
command -v npm >/dev/null 2>&1 || PKGS="$PKGS npm"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	echo "installing:$missing"
	$SUDO apt-get update -q
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q $missing
fi
