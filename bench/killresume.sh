#!/usr/bin/env bash
# Kill and resume: runs each suite RUNS times, kills every run part way (SIGTERM or
# SIGKILL, in turn, of skampi itself, of mpirun, or of one rank), finishes it with
# --resume, and checks what a user who lost a night's run would check:
#   - the results validate (skampi validate: no torn line kept, no broken record),
#   - no point measured twice across the killed run and its resumption,
#   - no planned point missing (every point of the plan has a point or a fault record),
#   - no process left running once skampi has ended,
#   - nothing left behind: TMPDIR (where the MPI-IO files go) empty, and -o DIR holding
#     only skampi's result files (and its .skampi.lock, which stays: a lock file removed
#     while another run waits on it would let two runs write).
#   bench/killresume.sh RUNS SUITE...        NP=2 SKAMPI_BIN=bin/skampi
# Prints one line per suite; a failing run's directory stays under $KILL_DIR.
set -uo pipefail
BIN=$(realpath "${SKAMPI_BIN:-bin/skampi}")
NP=${NP:-2}
runs=${1:?runs}
shift
dir=${KILL_DIR:-/tmp/skampi-killresume}
mkdir -p "$dir"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# kids PID: the direct children of PID.
kids() { ps -o pid= --ppid "$1" 2>/dev/null | tr -d ' '; }

# points FILE: how many point records FILE holds.
points() {
	local n
	n=$(grep -c '"kind":"point"' "$1" 2>/dev/null)
	echo "${n:-0}"
}

targets=(skampi mpirun rank)
signals=(TERM KILL)
printf '%-22s %4s %5s %6s %9s %8s %7s %6s %8s %6s %7s\n' suite np runs failed duplicate missing invalid left orphans wall_s killed
total_bad=0
for suite in "$@"; do
	name=$(basename "$suite" .toml)
	bad=0 dup=0 miss=0 inval=0 left=0 killed=0 orphans=0
	t0=$(date +%s)
	for i in $(seq 1 "$runs"); do
		run=$dir/$name-np$NP-$i
		rm -rf "$run"
		mkdir -p "$run/tmp"
		out=$run/out
		target=${targets[$(((i - 1) % 3))]}
		sig=${signals[$((((i - 1) / 3) % 2))]}
		TMPDIR=$run/tmp "$BIN" -i "$suite" --np "$NP" -o "$out" >"$run/first.log" 2>&1 &
		parent=$!
		# Kill once a random number (1-3) of points is written, while the job runs.
		want=$((RANDOM % 3 + 1))
		for _ in $(seq 1 600); do
			[ "$(points "$out/results.jsonl")" -ge "$want" ] && break
			kill -0 "$parent" 2>/dev/null || break
			sleep 0.1
		done
		mpirun=$(kids "$parent" | head -1)
		case $target in
		skampi) pid=$parent ;;
		mpirun) pid=$mpirun ;;
		rank) pid=$(kids "${mpirun:-0}" | head -1) ;;
		esac
		if [ -n "$pid" ] && kill -"$sig" "$pid" 2>/dev/null; then
			killed=$((killed + 1))
		fi
		echo "killed $target ($pid) with SIG$sig after $(points "$out/results.jsonl") point(s)" >"$run/kill.txt"
		# skampi ends (after measuring the rest, when it restarted the job after a rank or
		# mpirun died); mpirun and the ranks end with it (skampi killed outright, the
		# kernel sends mpirun SIGTERM). What still runs 60 s after skampi ended is an
		# orphan: killed, and the run fails.
		ranks=$(kids "${mpirun:-0}")
		ok=1
		for _ in $(seq 1 9000); do kill -0 "$parent" 2>/dev/null || break; sleep 0.1; done
		for _ in $(seq 1 600); do
			alive=
			for p in $parent $mpirun $ranks; do kill -0 "$p" 2>/dev/null && alive=1; done
			[ -z "$alive" ] && break
			sleep 0.1
		done
		for p in $parent $mpirun $ranks; do
			if kill -0 "$p" 2>/dev/null; then
				kill -KILL "$p" 2>/dev/null
				orphans=$((orphans + 1)) ok=0
				echo "still running 60 s after skampi ended: $p" >>"$run/kill.txt"
			fi
		done
		wait "$parent" 2>/dev/null
		if ! TMPDIR=$run/tmp timeout 900 "$BIN" -i "$suite" --np "$NP" -o "$out" --resume >"$run/resume.log" 2>&1; then
			ok=0
		fi
		if ! "$BIN" validate "$out/results.jsonl" >"$run/validate.log" 2>&1; then
			inval=$((inval + 1)) ok=0
		fi
		# Duplicates and missing points, by the plan's point index (the same plan in
		# every run of a resumed chain).
		read -r d m < <(python3 - "$out/results.jsonl" <<'PY'
import json, sys
planned, measured, faulted, dup = 0, set(), set(), 0
for line in open(sys.argv[1]):
    try:
        r = json.loads(line)
    except ValueError:
        continue
    k, i = r.get("kind"), r.get("point_index")
    if k == "run":
        planned = max(planned, r.get("points", 0))
    elif k == "point" and i:
        dup += i in measured
        measured.add(i)
    elif k == "fault" and i:
        faulted.add(i)  # an interrupted point is measured again: both records stay
covered = measured | faulted
print(dup, planned - len([i for i in covered if i <= planned]))
PY
)
		[ "$d" -gt 0 ] && { dup=$((dup + 1)); ok=0; }
		[ "$m" -gt 0 ] && { miss=$((miss + 1)); ok=0; }
		if [ -n "$(ls -A "$run/tmp")" ] || ls -A "$out" | grep -qvE '^(results\.(jsonl|csv|sko)|suite\.toml|\.skampi\.lock|crash-rank[0-9]+\.txt)$'; then
			left=$((left + 1)) ok=0
			{ ls -laR "$run/tmp"; ls -la "$out"; } >"$run/left.txt"
		fi
		if [ "$ok" = 1 ]; then rm -rf "$run"; else bad=$((bad + 1)); fi
	done
	printf '%-22s %4d %5d %6d %9d %8d %7d %6d %8d %6d %7d\n' "$name" "$NP" "$runs" "$bad" "$dup" "$miss" "$inval" "$left" "$orphans" $(($(date +%s) - t0)) "$killed"
	total_bad=$((total_bad + bad))
done
[ "$total_bad" -eq 0 ] || { echo "failed runs: $dir" >&2; exit 1; }
