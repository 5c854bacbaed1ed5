#!/usr/bin/env bash
# The never-hang proof: runs suites again and again (one job at a time) and counts, per
# suite, the runs that timed out (a point hung: exit 3), crashed or failed otherwise.
#   bench/stress.sh RUNS NP SUITE...    (make stress RUNS=200 NP=2 SUITES="...")
# A failing run's output stays in $STRESS_DIR (default /tmp/skampi-stress). STRESS_FLAGS
# are added to every run (--smoke: every point at two repetitions, for a stack where a
# measured suite takes hours; a hang still hangs).
set -uo pipefail
BIN=${SKAMPI_BIN:-bin/skampi}
runs=${1:?runs}; np=${2:?np}; shift 2
dir=${STRESS_DIR:-/tmp/skampi-stress}
mkdir -p "$dir"
printf '%-28s %4s %6s %9s %8s %7s %9s\n' suite np runs timeouts crashes other wall_s
total_bad=0
for suite in "$@"; do
	to=0 cr=0 other=0
	name=$(basename "$suite" .toml)
	t0=$(date +%s.%N)
	for i in $(seq 1 "$runs"); do
		out="$dir/$name-np$np-run$i"
		rm -rf "$out"
		# shellcheck disable=SC2086 # STRESS_FLAGS is a list of flags
		"$BIN" -i "$suite" --np "$np" -o "$out" --max-restarts 0 ${STRESS_FLAGS:-} >"$out.log" 2>&1
		rc=$?
		case $rc in
		0) rm -rf "$out" "$out.log" ;;
		3) to=$((to + 1)) ;;
		# With --max-restarts 0 a rank that dies of a signal ends skampi with 128+N or,
		# once recorded, 1 with a crash fault.
		1) if grep -q '"fault":"crash"' "$out/results.jsonl" 2>/dev/null; then cr=$((cr + 1)); else other=$((other + 1)); fi ;;
		*) if [ "$rc" -ge 128 ] && ! grep -q 'interrupted by' "$out.log"; then cr=$((cr + 1)); else other=$((other + 1)); fi ;;
		esac
	done
	wall=$(echo "$(date +%s.%N) - $t0" | bc)
	printf '%-28s %4d %6d %9d %8d %7d %9.1f\n' "$name" "$np" "$runs" "$to" "$cr" "$other" "$wall"
	total_bad=$((total_bad + to + cr + other))
done
[ "$total_bad" -eq 0 ] || { echo "failed runs: logs in $dir" >&2; exit 1; }
