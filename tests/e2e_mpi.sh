#!/bin/bash
# e2e_mpi.sh: `mpirun -n N scopeview-mpi CMD ARGS` (summary, tree,
# ranks, calls, scaling, diff, trend, export) prints byte for byte what
# `scopeview CMD ARGS` prints (standard output, standard error and exit
# status) for N = 1, 2 and 3, on the fixtures and on files written
# by `scopeview gen` (schemas 1-3, threads, tasks, GPU, await, no call
# ids, aggregation mode, a JSON profile, a rank subset, a one-rank file
# read by more processes than it has ranks); a file that cannot be read
# fails the same way on every process with one message; command-line
# mistakes give exit 2.  Native traces and the C API's per-rank files
# are read by each process for its ranks, JSON profiles whole.
#
# Exits 77 (skipped) when scopeview-mpi was not built (SCOPEVIEW_MPI_EXE
# unset or missing: meson found no libhdf5-openmpi-dev or Open MPI) or
# mpirun is missing, unless SCOPEVIEW_NO_SKIP=1, where that fails.
set -u

here=$(cd "$(dirname "$0")" && pwd)
exe=${SCOPEVIEW_EXE:-$here/../build/scopeview}
mpi_exe=${SCOPEVIEW_MPI_EXE:-}
fixtures=${SCOPEVIEW_FIXTURES:-$here/fixtures}

skip() {
	if [ "${SCOPEVIEW_NO_SKIP:-0}" = 1 ]; then
		echo "FAIL: $*"
		exit 1
	fi
	echo "SKIP: $*"
	exit 77
}
[ -n "$mpi_exe" ] && [ -x "$mpi_exe" ] ||
	skip "scopeview-mpi was not built (meson -Dmpi=enabled needs" \
		"libhdf5-openmpi-dev and Open MPI: tools/deps.sh)"
command -v mpirun >/dev/null 2>&1 || skip "mpirun is missing (openmpi-bin)"

# More processes than cores (CI machines have two), and as root where CI
# runs as root (Open MPI refuses root without both of these); -q: without
# it mpirun adds its own paragraph to standard error when the exit status
# is not 0.
mpirun_args=(-q --oversubscribe)
if [ "$(id -u)" = 0 ]; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
# One machine, no network interfaces to probe.
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
# Under ASAN: what Open MPI keeps until exit is not scopeview's leak
# (lsan-mpi.supp); its components stay loaded so their frames have names.
export OMPI_MCA_mca_base_component_disable_dlclose=1
export LSAN_OPTIONS="suppressions=$here/lsan-mpi.supp:fast_unwind_on_malloc=0:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# The leak check itself is off for the MPI processes: at exit Open MPI's
# runtime threads are still going while LeakSanitizer stops the world,
# and its tracer then dies now and again ("Tracer caught signal 11") on a
# loaded machine.  ASAN's other checks stay on; the serial scopeview they
# are compared with keeps its leak check, and its code is theirs.
mpi_asan="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sv-e2e-mpi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

# same N CMD ARGS...: scopeview-mpi on N processes against scopeview.
same() {
	local n=$1 s_rc m_rc
	shift
	"$exe" "$@" >"$tmp/s.out" 2>"$tmp/s.err"
	s_rc=$?
	ASAN_OPTIONS=$mpi_asan timeout 300 mpirun "${mpirun_args[@]}" \
		-n "$n" "$mpi_exe" "$@" \
		>"$tmp/m.out" 2>"$tmp/m.err"
	m_rc=$?
	if [ "$s_rc" = "$m_rc" ] && cmp -s "$tmp/s.out" "$tmp/m.out" &&
		cmp -s "$tmp/s.err" "$tmp/m.err"; then
		passed=$((passed + 1))
		return 0
	fi
	failed=$((failed + 1))
	echo "FAIL -n $n $*: exit $m_rc, scopeview's $s_rc"
	diff "$tmp/s.out" "$tmp/m.out" | head -n 10 | sed 's/^/     /'
	diff "$tmp/s.err" "$tmp/m.err" | head -n 10 | sed 's/^/     /'
	return 1
}

# expect WHAT STATUS N ARGS...: scopeview-mpi's exit status alone.
expect() {
	local what=$1 want=$2 n=$3 got
	shift 3
	ASAN_OPTIONS=$mpi_asan timeout 300 mpirun "${mpirun_args[@]}" \
		-n "$n" "$mpi_exe" "$@" \
		>"$tmp/m.out" 2>"$tmp/m.err"
	got=$?
	if [ "$got" = "$want" ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL $what: exit $got, want $want"
		sed 's/^/     /' "$tmp/m.out" "$tmp/m.err"
	fi
}

gen() { # gen NAME GEN-OPTIONS...
	local name=$1
	shift
	"$exe" gen --quiet "$@" "$tmp/$name" >/dev/null ||
		{
			echo "FAIL scopeview gen $* $name"
			exit 1
		}
}
gen g3.h5 --events 30000 --ranks 5
gen g2.h5 --events 20000 --schema 2
gen g1.h5 --events 20000 --schema 1
gen threads.h5 --events 30000 --threads 3 --tasks 2
gen gpu_await.h5 --events 30000 --gpu --await
gen noids.h5 --events 20000 --no-call-ids --no-exclusive
gen agg.h5 --events 20000 --aggregate
gen one.h5 --events 5000 --ranks 1
gen json.json --events 5000 --format json
gen slow.h5 --events 30000 --ranks 5 --slow-region solve:1.5
mkdir "$tmp/spt" "$tmp/rh5" "$tmp/mixed"
gen spt/t --events 20000 --format spt
gen rh5/r --events 20000 --format rank-h5
cp "$tmp"/spt/* "$tmp"/rh5/* "$tmp/mixed/"

files=("$fixtures"/*.h5 "$tmp"/g3.h5 "$tmp"/g2.h5 "$tmp"/g1.h5
	"$tmp"/threads.h5 "$tmp"/gpu_await.h5 "$tmp"/noids.h5 "$tmp"/agg.h5
	"$tmp"/one.h5 "$tmp"/json.json "$tmp"/spt/t_rank00000.spt
	"$tmp"/rh5/r_rank00000.h5)
for f in "${files[@]}"; do
	for n in 1 2 3; do
		same "$n" summary --format json "$f"
	done
	same 3 ranks --format json "$f"
	same 3 tree --format json "$f"
done
# The table and CSV formats and the other options on a few.
for f in "$fixtures/threads_tasks.h5" "$fixtures/hdf5-schema-1.h5" \
	"$tmp/g3.h5" "$tmp/gpu_await.h5" "$tmp/one.h5"; do
	same 3 summary "$f"
	same 2 summary --format csv --per-rank --sort p95 "$f"
	same 2 ranks --metric exclusive "$f"
done
# A rank subset (the whole run's figures come from the stored statistics)
# and filters.
for n in 1 2 3; do
	same "$n" summary --format json --ranks 1,3-4 "$tmp/g3.h5"
	same "$n" summary --include 'solve|assemble' --exclude fib \
		--counters "$fixtures/gpu_likwid_perf_lineprof.h5"
done
# diff, with its gates (exit 3 and the regions named on stderr).
for n in 1 2 3; do
	same "$n" diff --format json "$tmp/g3.h5" "$tmp/slow.h5"
	same "$n" diff --metric p95 --ranks 0-2 "$tmp/g3.h5" "$tmp/slow.h5"
	same "$n" diff --fail-above 5 "$tmp/g3.h5" "$tmp/slow.h5"
done

# tree: each process's tree merged by path on process 0, with every
# option: formats, a rank subset, a range (the origin is the whole
# run's), recursion expanded, sort keys, region filters.
for n in 1 2 3; do
	same "$n" tree "$tmp/threads.h5"
	same "$n" tree --format csv --expand-recursion --sort calls \
		"$fixtures/lanes_rebuilt_exclusive.h5"
	same "$n" tree --format json --range 1ms:20ms "$tmp/gpu_await.h5"
	same "$n" tree --ranks 1,3-4 --range 2ms:9ms --sort excl "$tmp/g3.h5"
	same "$n" tree --include 'solve|assemble' --exclude fib \
		--sort avg "$fixtures/gpu_likwid_perf_lineprof.h5"
	same "$n" tree --range 0.3ms:2ms --expand-recursion --sort max \
		"$fixtures/schema2_ties_zero_length.h5"
done
same 3 tree --ranks 7 "$tmp/g3.h5"
# Five and seven processes: the pairwise merge's odd rounds.
same 5 tree --format json --range 1ms:20ms "$tmp/threads.h5"
same 7 tree --format csv "$tmp/g3.h5"
same 2 tree --range 5ms:1ms "$tmp/g3.h5"

# scaling: every run loaded split, the 128-bit sums and the counts
# reduced; runs of several sizes, a rank list, metadata x fields,
# aggregate and JSON runs, and more processes than ranks.
gen r2.h5 --events 20000 --ranks 2
gen r4.h5 --events 20000 --ranks 4
for n in 1 2 3; do
	same "$n" scaling "$tmp/one.h5" "$tmp/r2.h5" "$tmp/r4.h5" \
		"$tmp/g3.h5"
	same "$n" scaling --format json --ranks 0-1 --include solve \
		"$tmp/r2.h5" "$tmp/r4.h5"
	same "$n" scaling --format csv --x omp_num_threads "$tmp/r4.h5" \
		"$tmp/agg.h5" "$tmp/json.json" "$tmp/g2.h5"
done
same 5 scaling "$tmp/one.h5" "$tmp/r2.h5"
same 3 scaling --ranks 3 "$tmp/r2.h5" "$tmp/r4.h5"
same 2 scaling --x nosuchkey "$tmp/r2.h5" "$tmp/r4.h5"

# calls: each process's first --limit calls of its share, put in the
# serial order on process 0 (ties by the call's number in scopeview's
# load), every sort key both ways, every format, the histogram added up
# from the processes' counts, a rank subset, a region a share lacks,
# more processes than ranks, and the file kinds without rank subsets.
for k in duration start end rank lane exclusive gpu await; do
	same 3 calls --region solve --sort "$k" --format csv --limit 150 \
		"$tmp/gpu_await.h5"
	same 2 calls --region solve --sort "$k" --reverse --limit 60 \
		"$tmp/threads.h5"
done
for n in 1 2 3; do
	same "$n" calls --region solve "$tmp/g3.h5"
	same "$n" calls --region solve --format json --ranks 1,3-4 \
		--sort lane "$tmp/g3.h5"
	same "$n" calls --region main --format json "$tmp/threads.h5"
	same "$n" calls --region solve --histogram 25 "$tmp/gpu_await.h5"
	same "$n" calls --region solve --histogram 9 --format json \
		--ranks 0,2 "$tmp/g3.h5"
	same "$n" calls --region solve --histogram 4 --format csv \
		"$tmp/noids.h5"
	same "$n" calls --region nosuch "$tmp/g3.h5"
done
for f in "$fixtures"/*.h5 "$tmp"/json.json "$tmp"/spt/t_rank00000.spt \
	"$tmp"/rh5/r_rank00000.h5 "$tmp"/agg.h5 "$tmp"/g1.h5 "$tmp"/g2.h5; do
	r=$("$exe" summary --format csv --sort calls "$f" | sed -n '2s/,.*//p')
	same 3 calls --region "$r" --format json --sort lane --limit 500 "$f"
	same 2 calls --region "$r" --histogram 6 "$f"
done
same 7 calls --region solve --format json --limit 40 "$tmp/g3.h5"
same 6 calls --region solve --histogram 30 --ranks 4 "$tmp/g3.h5"
# trend: each process finds its ranks' series and change points, and
# every iteration's values go to process 0 a block at a time; one region
# of every file above (the most called: schemas 1-3, threads, tasks, GPU,
# await, no call ids, JSON, native traces, per-rank files, a one-rank
# file on three processes, aggregation mode's refusal).
for f in "${files[@]}"; do
	region=$("$exe" summary --format csv --sort calls "$f" 2>/dev/null |
		sed -n 2p | cut -d, -f1)
	same 3 trend --region "${region:-main}" "$f"
	same 2 trend --format json --metric exclusive --region \
		"${region:-main}" "$f"
done
# A slowdown (a change point on rank 2) in every format and option, in
# blocks of 7 values too (a block then holds one iteration of the five
# ranks: the gather of many blocks), and more processes than ranks.
gen steps.h5 --events 60000 --ranks 5 --slowdown 2:40 --threads 2
for n in 1 2 3; do
	same "$n" trend --region timestep "$tmp/steps.h5"
	same "$n" trend --format json --metric exclusive --region solve \
		"$tmp/steps.h5"
	same "$n" trend --format csv --ranks 1-2,4 --region timestep \
		"$tmp/steps.h5"
	SCOPEVIEW_MPI_TREND_BLOCK=7 same "$n" trend --format csv \
		--region kernel:spmv "$tmp/steps.h5"
	SCOPEVIEW_MPI_TREND_BLOCK=7 same "$n" trend --format json \
		--metric exclusive --ranks 0,2 --region timestep \
		"$tmp/steps.h5"
done
same 7 trend --region timestep "$tmp/steps.h5"
same 4 trend --format json --region timestep "$tmp/one.h5"
same 3 trend --ranks 9 --region timestep "$tmp/steps.h5"
same 3 trend --region nosuchregion "$tmp/steps.h5"
same 2 trend --metric p95 --region timestep "$tmp/steps.h5"
same 2 trend "$tmp/steps.h5"
# export: each process writes its share's lanes (chrome, speedscope,
# csv) or rows (json, region by region) and process 0 puts the parts in
# order into one output; folded stacks from the merged tree.  Every
# format, on standard output and with -o (the file compared, and no
# temporary left beside it), with --ranks and --range, more processes
# than ranks.
formats=(chrome speedscope csv json collapsed)
for f in "${files[@]}"; do
	for fmt in "${formats[@]}"; do
		same 3 export --format "$fmt" "$f"
	done
done
for f in "$tmp/g3.h5" "$tmp/threads.h5" "$tmp/gpu_await.h5" \
	"$tmp/g1.h5" "$tmp/json.json" "$fixtures/threads_tasks.h5"; do
	for fmt in "${formats[@]}"; do
		for n in 1 2; do
			same "$n" export --format "$fmt" "$f"
		done
		same 2 export --format "$fmt" --ranks 1,3-4 --range 1ms:9ms "$f"
		same 3 export --format "$fmt" --ranks 0,2 "$f"
	done
done
for fmt in "${formats[@]}"; do
	same 5 export --format "$fmt" "$tmp/one.h5"
	same 3 export --format "$fmt" --range 0.5ms:3ms "$tmp/one.h5"
	same 2 export --format "$fmt" --ranks 9 "$tmp/g3.h5"
done
# same_out N ARGS... with @ for OUT: as same, and the files -o writes
# compared, no temporary left beside them.
same_out() {
	local n=$1 s_rc m_rc
	shift
	rm -rf "$tmp/o" && mkdir "$tmp/o"
	"$exe" "${@//@/$tmp/o/serial}" >"$tmp/s.out" 2>"$tmp/s.err"
	s_rc=$?
	ASAN_OPTIONS=$mpi_asan timeout 300 mpirun "${mpirun_args[@]}" \
		-n "$n" "$mpi_exe" "${@//@/$tmp/o/mpi}" \
		>"$tmp/m.out" 2>"$tmp/m.err"
	m_rc=$?
	sed -i "s|$tmp/o/mpi|$tmp/o/serial|g" "$tmp/m.err"
	if [ "$s_rc" = "$m_rc" ] && cmp -s "$tmp/s.out" "$tmp/m.out" &&
		cmp -s "$tmp/s.err" "$tmp/m.err" &&
		{ { [ ! -e "$tmp/o/serial" ] && [ ! -e "$tmp/o/mpi" ]; } ||
			cmp -s "$tmp/o/serial" "$tmp/o/mpi"; } &&
		[ "$(ls -A "$tmp/o" | grep -c tmp)" = 0 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL -n $n $*: exit $m_rc, scopeview's $s_rc"
		ls -la "$tmp/o" | sed 's/^/     /'
		diff "$tmp/s.err" "$tmp/m.err" | head -n 10 | sed 's/^/     /'
	fi
}
for fmt in "${formats[@]}"; do
	same_out 3 export --format "$fmt" -o @ "$tmp/threads.h5"
	same_out 2 export --format "$fmt" --ranks 1 -o @ "$tmp/g3.h5"
	same_out 3 export --format "$fmt" -o @ "$tmp/agg.h5"
	same_out 7 export --format "$fmt" -o @ "$tmp/g2.h5"
done
# Refusals (exit 2: an input, a directory) and a directory that is not
# there (exit 1), as scopeview says them.
mkdir "$tmp/adir"
same 2 export --format chrome -o "$tmp/adir" "$tmp/g3.h5"
same 2 export --format json -o "$tmp/g3.h5" "$tmp/g3.h5"
same 2 export --format csv -o "$tmp/nodir/x.csv" "$tmp/g3.h5"
same 2 export --format xml "$tmp/g3.h5"
same 2 export --format csv --range 5:1 "$tmp/g3.h5"

# Files that cannot be read: the same one message and exit 1 as
# scopeview, printed once.
head -c 3000 "$fixtures/four_ranks.h5" >"$tmp/cut.h5"
printf 'not a profile\n' >"$tmp/text.h5"
for bad in "$tmp/cut.h5" "$tmp/text.h5" "$tmp/missing.h5" "$tmp/mixed"; do
	for n in 1 3; do
		if same "$n" summary --format json "$bad"; then
			if [ "$(wc -l <"$tmp/m.err")" = 1 ] &&
				[ "$(wc -c <"$tmp/m.out")" = 0 ]; then
				passed=$((passed + 1))
			else
				failed=$((failed + 1))
				echo "FAIL -n $n $bad: not one line on stderr"
				sed 's/^/     /' "$tmp/m.out" "$tmp/m.err"
			fi
		fi
		same "$n" diff "$tmp/g3.h5" "$bad"
		same "$n" ranks "$bad"
		same "$n" tree --format json "$bad"
		same "$n" scaling "$tmp/r2.h5" "$bad"
		same "$n" calls --region solve "$bad"
		same "$n" trend --region solve "$bad"
		same "$n" export --format chrome "$bad"
		same_out "$n" export --format json -o @ "$bad"
	done
done

# Command-line mistakes: exit 2, as scopeview.
same 2 summary --sort nosuchkey "$tmp/g3.h5"
same 2 ranks --metric p95 "$tmp/g3.h5"
same 2 diff "$tmp/g3.h5"
expect "unknown command" 2 2 view "$tmp/g3.h5"
expect "no command" 2 2
expect "--group-by refused" 2 2 summary --group-by phase "$tmp/g3.h5"
same 2 tree --sort nosuchkey "$tmp/g3.h5"
same 2 scaling --x '' "$tmp/g3.h5"
same 2 calls --region solve --sort nosuchkey "$tmp/g3.h5"
same 2 calls --histogram 0 --region solve "$tmp/g3.h5"
expect "convert is not split" 2 2 convert "$tmp/g3.h5" "$tmp/c.h5"
if grep -q "run 'scopeview convert'" "$tmp/m.err"; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	echo "FAIL scopeview-mpi convert does not point to scopeview"
	sed 's/^/     /' "$tmp/m.err"
fi
expect "--help" 0 2 --help
for c in summary tree ranks calls scaling diff trend export; do
	grep -q "^  $c " "$tmp/m.out" && passed=$((passed + 1)) ||
		{
			failed=$((failed + 1))
			echo "FAIL scopeview-mpi --help does not list $c"
		}
done

echo "e2e_mpi: $passed passed, $failed failed"
[ "$failed" = 0 ]
