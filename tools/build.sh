#!/bin/sh
# Configure (once) and build scopeview in ./build.
set -eu
cd "$(dirname "$0")/.."
if [ -d build/meson-private ]; then
	meson setup --reconfigure build >/dev/null
else
	meson setup build
fi
meson compile -C build
