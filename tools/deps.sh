#!/bin/sh
# Install the Debian packages scopeview needs to build, test and make its
# screenshots.  Installs only what is missing; run as root (or with sudo
# available).
set -eu
PKGS="build-essential meson ninja-build pkg-config libhdf5-dev \
libncurses-dev libpcre2-dev zlib1g-dev liblzf-dev libzstd-dev libjansson-dev check python3 python3-h5py \
python3-numpy hdf5-tools tmux librsvg2-bin locales clang-format \
scdoc groff-base man-db zsh fish debhelper dpkg-dev fakeroot lintian \
valgrind clang libclang-rt-dev"

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
