#!/bin/sh
# Install the Debian packages scopeview needs to build, test and make its
# screenshots, Open MPI and the parallel libhdf5 included (scopeview-mpi
# and its tests, which must run in CI).  Installs only what is missing;
# run as root (or with sudo available).
set -eu
PKGS="build-essential meson ninja-build pkg-config libhdf5-dev \
libncurses-dev libpcre2-dev libdeflate-dev liblzf-dev libzstd-dev libjansson-dev libyajl-dev zlib1g-dev check python3 python3-h5py \
python3-numpy hdf5-tools tmux librsvg2-bin locales clang-format \
scdoc groff-base man-db zsh fish debhelper dpkg-dev fakeroot lintian nodejs \
valgrind clang libclang-rt-dev \
openmpi-bin libopenmpi-dev libhdf5-openmpi-dev"

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
updated=0
install_missing() {
	missing=""
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q "ok installed" || missing="$missing $p"
	done
	[ -n "$missing" ] || return 0
	echo "installing:$missing"
	if [ "$updated" = 0 ]; then
		$SUDO apt-get update -q
		updated=1
	fi
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q $missing
}
# shellcheck disable=SC2086
install_missing $PKGS
# npm fetches speedscope's schema and a validator for e2e_speedscope.sh.
# Asked for only once nodejs is in: a Node.js from elsewhere (NodeSource)
# brings its own npm, which Debian's npm package conflicts with.
command -v npm >/dev/null 2>&1 || install_missing npm
