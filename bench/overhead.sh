#!/usr/bin/env bash
# Overhead reference: skampi's Pingpong_Send_Recv against a plain C ping-pong
# (bench/pingpong.c) doing the same thing, run alternately; prints every pair, both
# medians and the median of the per-run ratios skampi/C. See bench/README.md.
# Run by `make bench-overhead` (which builds bin/skampi first); works from any directory.
#
# Environment: RUNS (5) runs of each program; BYTES (1), ITERS (2000), REPS (32),
# WARMUP (2) describe one point, the same for both programs; PVARS (e.g. "all") makes
# skampi read the library's performance variables around the point (the setting pvars:
# outside the timed repetitions, so the ratio must not move); KEEP=1 keeps the
# temporary directory. skampi keeps REPS repetitions like the C program: where its engine
# drops the first ones as a start-up transient (measure/steady.go), it measures as many
# more (up to 2 x REPS) and says so; the C program keeps its first REPS whatever they are.
set -euo pipefail

die() { echo "overhead: $*" >&2; exit 1; }

cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." || die "cannot cd to the repository root"

RUNS=${RUNS:-5}
BYTES=${BYTES:-1}
ITERS=${ITERS:-2000}
REPS=${REPS:-32}
WARMUP=${WARMUP:-2}
for v in RUNS BYTES ITERS REPS WARMUP; do
	[[ ${!v} =~ ^[0-9]+$ ]] || die "$v must be a non-negative integer, got '${!v}'"
done
((RUNS >= 1 && ITERS >= 1 && REPS >= 1)) || die "RUNS, ITERS and REPS must be at least 1"

SKAMPI=bin/skampi
[[ -x $SKAMPI ]] || die "$SKAMPI not found: run \`make build\` (or \`make bench-overhead\`)"
command -v mpicc >/dev/null || die "mpicc not found: run \`make setup\`"
command -v mpirun >/dev/null || die "mpirun not found: run \`make setup\`"
command -v python3 >/dev/null || die "python3 not found"
if [[ $(id -u) == 0 ]]; then
	export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
	export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
fi

mpicc -O2 -Wall -o bench/pingpong bench/pingpong.c || die "compiling bench/pingpong.c failed"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/skampi-overhead.XXXXXX") || die "mktemp failed"
if [[ ${KEEP:-0} == 1 ]]; then
	echo "overhead: keeping $TMP" >&2
else
	trap 'rm -rf "$TMP"' EXIT
fi

SUITE=$TMP/overhead.toml
cat >"$SUITE" <<EOF
# Written by bench/overhead.sh: one point, set up like bench/pingpong.
description = "overhead reference: Pingpong_Send_Recv, $BYTES B"

[settings]
iterations = $ITERS
min_repetitions = $REPS
max_repetitions = $((2 * REPS))
max_relative_stderr = 0.99
warmup = $WARMUP
timer = "global-loop"
sync = "barrier"
pair = "default"
max_time_per_point = "300s"
buffer = $((BYTES > 0 ? BYTES : 1))
$([[ -z ${PVARS:-} ]] || { [[ $PVARS == all ]] && echo 'pvars = "all"' || echo "pvars = [\"${PVARS//,/\", \"}\"]"; })

[[measurement]]
name = "overhead reference"
op = "Pingpong_Send_Recv"
sizes = [$BYTES]
EOF

# run_c N: one run of the C reference; prints its time.
run_c() {
	local log=$TMP/c.$1.log out
	if ! mpirun -np 2 bench/pingpong "$BYTES" "$ITERS" "$REPS" "$WARMUP" >"$log.out" 2>"$log"; then
		cat "$log.out" "$log" >&2
		die "run $1: bench/pingpong failed (mpirun -np 2 bench/pingpong $BYTES $ITERS $REPS $WARMUP)"
	fi
	out=$(tr -d '[:space:]' <"$log.out")
	[[ $out =~ ^[0-9.eE+-]+$ ]] || { cat "$log.out" "$log" >&2; die "run $1: bench/pingpong printed no time"; }
	echo "$out"
}

# run_skampi N: one run of skampi into a fresh directory; prints time_s of the point.
run_skampi() {
	local dir=$TMP/skampi.$1 log=$TMP/skampi.$1.log
	if ! "$SKAMPI" -i "$SUITE" -o "$dir" >"$log" 2>&1; then
		cat "$log" >&2
		die "run $1: $SKAMPI -i $SUITE -o $dir failed"
	fi
	python3 - "$dir/results.jsonl" "$BYTES" "$ITERS" "$REPS" <<'PY' || { cat "$log" >&2; die "run $1: no usable point in $dir/results.jsonl"; }
import json, sys
path, size, iters, reps = sys.argv[1], *map(int, sys.argv[2:])
points = []
with open(path) as f:
    for line in f:
        if line.strip():
            rec = json.loads(line)
            if rec.get("kind") == "point":
                points.append(rec)
if len(points) != 1:
    sys.exit(f"overhead: expected 1 point record, found {len(points)}")
p = points[0]
if p.get("op") != "Pingpong_Send_Recv" or p.get("msg_bytes") != size:
    sys.exit(f"overhead: unexpected point: op {p.get('op')}, {p.get('msg_bytes')} B")
if p.get("iterations") != iters:
    sys.exit(f"overhead: skampi ran {p.get('iterations')} iterations, not {iters}")
if p.get("reps") != reps:
    sys.exit(f"overhead: skampi kept {p.get('reps')} repetitions, not {reps}")
if p.get("transient_reps"):
    print(f"overhead: skampi dropped {p['transient_reps']} repetitions as a start-up transient and measured as many more", file=sys.stderr)
t = p.get("time_s")
if not isinstance(t, (int, float)) or not t > 0:
    sys.exit(f"overhead: bad time_s {t!r}")
print(f"{t:.6e}")
PY
}

echo "overhead: Pingpong_Send_Recv, $BYTES B, $ITERS iterations x $REPS repetitions (+$WARMUP warm-up), $RUNS runs each, alternating"
echo "overhead: both report the mean of the middle half of rank 0's per-repetition times (s per round trip);"
echo "overhead: the ratio is the median over runs of skampi's time / the C time of the same run"
c_times=() s_times=()
for ((i = 1; i <= RUNS; i++)); do
	c=$(run_c "$i") || exit 1
	s=$(run_skampi "$i") || exit 1
	c_times+=("$c") s_times+=("$s")
	printf 'run %d: C %s  skampi %s  ratio %s\n' "$i" "$c" "$s" \
		"$(python3 -c 'import sys; print(f"{float(sys.argv[2]) / float(sys.argv[1]):.3f}")' "$c" "$s")"
done

python3 - "$RUNS" "${c_times[@]}" "${s_times[@]}" <<'PY' || die "summarising failed"
import statistics as st, sys
n = int(sys.argv[1])
c = [float(x) for x in sys.argv[2:2 + n]]
s = [float(x) for x in sys.argv[2 + n:2 + 2 * n]]
mc, ms = st.median(c), st.median(s)
print(f"median C:      {mc:.4e} s per round trip (runs {min(c):.3e} .. {max(c):.3e})")
print(f"median skampi: {ms:.4e} s per round trip (runs {min(s):.3e} .. {max(s):.3e})")
# The headline is the median of the per-run ratios: each skampi run is compared with
# the C run just before it, under nearly the same machine state, which is what
# alternating is for. The ratio of the two medians is shown too; it swings much more
# when the machine's latency jumps between levels from one run to the next.
print(f"ratio of the medians: {ms / mc:.3f}")
ratios = sorted(b / a for a, b in zip(c, s))
print(f"ratio skampi/C (median of {n}): {st.median(ratios):.3f}")
# How far that median can be trusted, without assuming a distribution (the per-run ratios
# are bimodal where a launch lands in a slower placement): the order statistics that
# bracket the median with at least 95 % confidence under the binomial(n, 1/2) law.
from math import comb
k = 0  # ratios[k] .. ratios[n-1-k] is the interval
while k + 1 < n - 1 - (k + 1) and sum(comb(n, i) for i in range(k + 2)) / 2 ** n <= 0.025:
    k += 1
if n >= 6:
    lo, hi = ratios[k], ratios[n - 1 - k]
    conf = 1 - 2 * sum(comb(n, i) for i in range(k + 1)) / 2 ** n
    print(f"ratio skampi/C, {100 * conf:.0f} % interval of the median: {lo:.3f} .. {hi:.3f}: " +
          ("at or under 1.00 within noise" if lo <= 1.0 else "above 1.00 beyond noise"))
else:
    print("ratio skampi/C: too few runs for an interval of the median (RUNS >= 6)")
spread = max(max(c) / min(c), max(s) / min(s))
if spread > 1.10:
    print(f"note: one program's runs differ by up to x{spread:.2f}, far more than the 5 % target; "
          f"the ratio is dominated by machine noise: raise RUNS (e.g. RUNS=25) or use a quiet machine")
PY
