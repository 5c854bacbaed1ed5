#!/usr/bin/env bash
# Convergence benchmark: runs the built-in pt2pt and coll suites on 2 ranks and prints,
# per suite, how many points converged (stop = converged), the p50/p90/max relative
# standard error (stderr_s / |time_s|) and the suite's wall time.
# Run by `make bench-convergence` (which builds bin/skampi first); works from any directory.
#
# Environment: SKAMPI_BIN (bin/skampi) the binary to run; SUITES ("pt2pt coll");
# NP (2); LOCK (/tmp/skampi-mpi.lock) the flock that keeps MPI jobs from overlapping;
# KEEP=1 keeps the result directories.
set -euo pipefail

die() { echo "convergence: $*" >&2; exit 1; }

cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." || die "cannot cd to the repository root"

SKAMPI=${SKAMPI_BIN:-bin/skampi}
SUITES=${SUITES:-pt2pt coll}
NP=${NP:-2}
LOCK=${LOCK:-/tmp/skampi-mpi.lock}
[[ -x $SKAMPI ]] || die "$SKAMPI not found: run \`make build\` (or \`make bench-convergence\`)"
command -v mpirun >/dev/null || die "mpirun not found: run \`make setup\`"
command -v python3 >/dev/null || die "python3 not found"
command -v flock >/dev/null || die "flock not found"
if [[ $(id -u) == 0 ]]; then
	export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
	export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/skampi-convergence.XXXXXX") || die "mktemp failed"
if [[ ${KEEP:-0} == 1 ]]; then
	echo "convergence: keeping $TMP" >&2
else
	trap 'rm -rf "$TMP"' EXIT
fi

printf '%-8s %7s %10s %9s %9s %9s %9s\n' suite points converged p50_rse p90_rse max_rse wall_s
for suite in $SUITES; do
	out=$TMP/$suite
	# One MPI job at a time on this machine (timings of overlapping jobs mean nothing);
	# the clock runs inside the lock, so waiting for it is not the suite's time.
	flock "$LOCK" bash -c 'w=$1; shift; date +%s.%N >"$w"; "$@"; rc=$?; date +%s.%N >>"$w"; exit $rc' \
		_ "$TMP/$suite.wall" "$SKAMPI" -i "$suite" -o "$out" --np "$NP" >"$TMP/$suite.log" 2>&1 ||
		die "$suite failed: see $TMP/$suite.log (KEEP=1 keeps it)"
	python3 - "$suite" "$out/results.jsonl" "$TMP/$suite.wall" <<'EOF'
import json, math, sys
suite, path = sys.argv[1], sys.argv[2]
start, end = map(float, open(sys.argv[3]).read().split())
pts = [r for r in map(json.loads, open(path)) if r.get("kind") == "point"]
conv = sum(1 for p in pts if p["stop"] == "converged")
rse = sorted(p["stderr_s"] / abs(p["time_s"]) if p["time_s"] else float("inf") for p in pts)
def q(f):  # nearest rank
    return rse[min(len(rse) - 1, max(0, math.ceil(f * len(rse)) - 1))] if rse else float("nan")
n = len(pts)
print(f"{suite:<8} {n:7d} {conv:4d} {100 * conv / max(n, 1):4.1f}% {100 * q(0.5):8.2f}% "
      f"{100 * q(0.9):8.2f}% {100 * q(1.0):8.2f}% {end - start:9.1f}")
EOF
done
