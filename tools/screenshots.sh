#!/usr/bin/env bash
# screenshots.sh: regenerate the images in screenshots/ from
# `scopeview snapshot` (SVG), converted to PNG with rsvg-convert (Debian
# librsvg2-bin).  The same keys give the same screen in the live viewer, so
# these are what a user sees after typing them.
#
# usage: tools/screenshots.sh [PROFILE]
#   PROFILE  the profile to draw; default: the built-in demo profile
#            (scopeview --demo-path writes it)
#   SCOPEVIEW_EXE  the scopeview to use (default: build/scopeview)
#
# Each shot is one line of the table below: name, size, keys, what it shows.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
exe=${SCOPEVIEW_EXE:-$root/build/scopeview}
out=$root/screenshots
if [ ! -x "$exe" ]; then
	echo "screenshots: $exe is not built (set SCOPEVIEW_EXE)" >&2
	exit 2
fi
command -v rsvg-convert >/dev/null || {
	echo "screenshots: rsvg-convert is missing (apt-get install librsvg2-bin)" >&2
	exit 2
}

# Pin everything a screen depends on.
export LC_ALL=C.UTF-8 TZ=UTC TERM=xterm-256color
unset NO_COLOR

work=$(mktemp -d "${TMPDIR:-/tmp}/scopeview-shots-XXXXXX")
trap 'rm -rf "$work"' EXIT

# The profile is copied to a short name so the status line reads "demo.h5".
# The demo is written fresh into a private cache directory.
if [ $# -ge 1 ]; then
	cp "$1" "$work/demo.h5"
else
	demo=$(XDG_CACHE_HOME="$work/cache" "$exe" --demo-path)
	cp "$demo" "$work/demo.h5"
fi

mkdir -p "$out"
cd "$work"

# The other profiles the shots draw, written by the generator (seeded, so
# the same every time): a 16-rank run of a million calls; two runs of the
# same program, the second with solve twice as slow; a study of runs on
# 2 to 16 ranks; a run whose rank 5 slows down from timestep 300.
"$exe" gen --quiet --ranks 16 --events 1M m16.h5
"$exe" gen --quiet --ranks 4 --events 20k a.h5
"$exe" gen --quiet --ranks 4 --events 20k --slow-region solve:1.5 b.h5
for r in 2 4 8 16; do
	"$exe" gen --quiet --ranks "$r" --events "$((r * 25))k" \
		--strong-scaling 2 "run-$r.h5"
done
"$exe" gen --quiet --ranks 16 --events 1M --slowdown 5:300:1.4 slow.h5

# name | size | keys | what it shows [| the files, default demo.h5]
shots=(
	"overview|100x30||the whole run: every rank, thread and task lane, and the summary panel"
	"solo-thread|100x30|t Tab J ] J ] f J ] ] f -|one thread alone (t), zoomed to single kernel calls of one solve (f, then - once), with the selected call's details"
	"summary-exclusive|100x30|p >|the summary panel focused (p) and sorted by exclusive time (>)"
	"search|100x30|/ s o l v e Enter n|a regex search for 'solve': matching calls highlighted, n jumps to the first"
	"source-popup|100x30|Tab J ] J ] v|the source of the selected call's region (v)"
	"small-80x24|80x24||the overview on an 80x24 terminal"
	"stats-view|100x30|V p >|the statistics screen (V): the panel across the screen, focused (p) and sorted by exclusive time (>)"
	"call-tree|100x30|T * >|the call tree (T), every path open (*), siblings sorted by exclusive time (>)"
	"flame-graph|100x30|F|the flame graph (F) of the whole run, widest first"
	"ranks-matrix|100x30|B|the rank x region matrix (B) with each region's load-balance figures"
	"heat-duration|100x30|y|calls coloured by duration (y): a heat ramp from the shortest call to the longest"
	"legend|100x30|? End|the end of the help (?): the legend of every glyph of the timeline"
	"rank-rows|100x30|p j j Enter p b|solve marked from the panel, then a row a rank (b): each rank's time in solve as a bar, the slowest highlighted, and below the lanes how many ranks are inside solve in each column"
	"folded-16-ranks|160x45||a 16-rank run of a million calls opens folded: one track a rank, each cell in the rank's dominant region, every rank in sight|m16.h5"
	"two-runs-delta|120x30|: s o r t Space d e l t a % Enter|two runs compared: the panel sorted by the change in per cent (Δ%), solve's rise first|a.h5 b.h5"
	"trend|160x45|p j Enter E|the iteration trend (E) of timestep, marked from the panel (p j Enter): the band of each iteration, the median, and rank 5's change point|slow.h5"
	"scaling|160x45||a strong-scaling study of four runs (2 to 16 ranks): each region's speedup against the ideal line|run-2.h5 run-4.h5 run-8.h5 run-16.h5"
)

for shot in "${shots[@]}"; do
	IFS='|' read -r name size keys what files <<<"$shot"
	# shellcheck disable=SC2086
	"$exe" snapshot --size "$size" --keys "$keys" --format svg \
		--output "$out/$name.svg" ${files:-demo.h5}
	rsvg-convert "$out/$name.svg" -o "$out/$name.png"
	printf '%-18s %-8s %-26s %s\n' "$name" "$size" "${keys:-(none)}" "$what"
done
ls -l "$out"
