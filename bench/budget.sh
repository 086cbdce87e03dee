#!/usr/bin/env bash
# bench/budget.sh: the viewer on a profile bigger than its memory budget,
# in a real terminal (tmux), step by step.
#
#     bench/budget.sh [--file F] [--size 200M] [--memory 2G] [--dir DIR]
#                     [--build DIR] [--steps "4;12-15"]
#
# Opens F (default DIR/calls-SIZE-2.h5, written with `scopeview gen
# --ranks 16 --no-call-ids` when missing, as bench/scale.sh does; DIR
# defaults to /tmp/scopeview-scale) with `scopeview --memory MEMORY`,
# then types `:ranks STEP` for each step (default: rank 4, which keeps
# three of the ranks read; then ranks 12-15, which keeps none) and
# prints one line per step: the wall time until the status line says
# which ranks memory holds, the calls kept and read, the RSS after and
# the peak RSS during the step (VmHWM, reset before each step through
# /proc/PID/clear_refs), in MiB.  Needs tmux and a quiet machine.
set -euo pipefail

file=
size=200M
memory=2G
dir=/tmp/scopeview-scale
build=
steps="4;12-15"
while [ $# -gt 0 ]; do
	case "$1" in
	--file) file=$2; shift 2 ;;
	--size) size=$2; shift 2 ;;
	--memory) memory=$2; shift 2 ;;
	--dir) dir=$2; shift 2 ;;
	--build) build=$2; shift 2 ;;
	--steps) steps=$2; shift 2 ;;
	-h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "budget.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
. "$(dirname "$0")/lib.sh"
build=$(bench_build_dir "$build")
exe=$build/scopeview
bench_need_built budget.sh "$build" "$exe"
command -v tmux >/dev/null || { echo "budget.sh: needs tmux" >&2; exit 1; }
[ -n "$file" ] || file=$(bench_scale_file budget.sh "$exe" "$dir" "$size" 2)

sock=scopeview-budget-$$
tm() { tmux -L "$sock" "$@"; }
trap 'tm kill-server 2>/dev/null || true' EXIT
now() { date +%s.%N; }
mib() { awk -v k="$1" '$1 == k":" { printf "%.0f", $2 / 1024 }' \
	"/proc/$pid/status"; }
status() { tm capture-pane -p -t bench | grep -o 'memory [^;]* holds ranks.*' \
	| head -1 || true; }

# Wait until the status line names the ranks held and differs from $1;
# print the time taken since $2.
wait_held() {
	local before=$1 t0=$2 s
	while :; do
		s=$(status)
		# (said when the load is done and the view shown)
		if [ -n "$s" ] && [ "$s" != "$before" ]; then
			awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'
			return
		fi
		if awk -v a="$t0" -v b="$(now)" 'BEGIN { exit !(b - a > 300) }'; then
			echo "budget.sh: after 5 minutes memory holds the same" \
				"ranks (a step asking for ranks held reads nothing)" >&2
			exit 1
		fi
		if ! kill -0 "$pid" 2>/dev/null; then
			echo "budget.sh: the viewer exited" >&2
			exit 1
		fi
		sleep 0.05
	done
}

row() { # step time
	local s kept read
	s=$(status)
	kept=$(sed -n 's/.* \([0-9]*\) calls kept.*/\1/p' <<<"$s")
	read=$(sed -n 's/.* \([0-9]*\) read).*/\1/p' <<<"$s")
	printf '| %s | %s s | %s | %s | %s | %s | %s |\n' "$1" "$2" \
		"$(sed -n 's/.*holds ranks \([^ ]*\) .*/\1/p' <<<"$s")" \
		"${kept:--}" "${read:--}" "$(mib VmRSS)" "$(mib VmHWM)"
}

t0=$(now)
tm new-session -d -s bench -x 200 -y 50 \
	"exec '$exe' --memory '$memory' '$file'"
pid=$(tm display-message -p -t bench '#{pane_pid}')
echo "$file, --memory $memory (RSS in MiB)"
echo "| step | wall time | ranks held | calls kept | calls read | RSS | peak RSS |"
echo "|---|---|---|---|---|---|---|"
row open "$(wait_held "" "$t0")"
IFS=';' read -r -a list <<<"$steps"
for step in "${list[@]}"; do
	before=$(status)
	echo 5 >"/proc/$pid/clear_refs" # the peak from here
	t0=$(now)
	tm send-keys -t bench ":ranks $step" Enter
	row ":ranks $step" "$(wait_held "$before" "$t0")"
done
tm send-keys -t bench q
