#!/usr/bin/env bash
# The real-node check: what a cluster administrator runs once on a new node (or after an
# MPI upgrade) to see whether skampi works there and whether its numbers come back.
#
#   bench/node.sh [OUT]          OUT defaults to node-<host>-<date>; N = the node's cores
#   NP=16 SUITES="pt2pt coll" RSS_SUITE=coll REPRO_ROUNDS=4 bench/node.sh
#
# It runs, one job at a time, with skampi launching mpirun itself:
#   1. every built-in suite (`skampi list --suites`) at np = 2 and np = N: exit status,
#      points, faults by kind, seconds;
#   2. `skampi startup` at 2, 4, ..., N (and N) with and without OpenSHMEM;
#   3. `skampi clock check --np N`;
#   4. peak RSS per rank (VmHWM, polled from /proc) of RSS_SUITE at np N and 8N;
#   5. reproducibility: the same 8 collective points (Bcast, Allreduce, Allgather,
#      Alltoall at 8 B and 1 KiB) REPRO_ROUNDS times at np N: median and spread
#      (max/min) of each point across rounds.
# Everything goes under OUT (each step's results and terminal output); the summary table
# is printed at the end and kept in OUT/summary.txt. It needs bash, awk and the MPI the
# binary was built against; no Go. Carry bin/ and bench/ to the node.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${SKAMPI_BIN:-bin/skampi}
N=${NP:-$(nproc)}
OUT=${1:-node-$(hostname -s)-$(date +%Y%m%d-%H%M%S)}
ROUNDS=${REPRO_ROUNDS:-4}
RSS_SUITE=${RSS_SUITE:-coll}
SUITE_TIMEOUT=${SUITE_TIMEOUT:-1800}
mkdir -p "$OUT"
SUMMARY="$OUT/summary.txt"
: >"$SUMMARY"
say() { printf '%s\n' "$*" | tee -a "$SUMMARY"; }
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1} OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}

say "# skampi node check: $(hostname) $(nproc) cores, np $N, $(date -u +%FT%TZ)"
say "# $("$BIN" version 2>&1 | head -3 | tr '\n' ' ')"
say "# presets: $(env | grep -E '^(OMPI_MCA_|PMIX_MCA_|UCX_|MPIR_CVAR_)' | sort | tr '\n' ' ')"

# faults FILE: "timeout=1 crash=2" from a results file's fault records ("-" for none).
faults() {
	[ -f "$1" ] || { echo "no-results"; return; }
	awk -F'"fault":"' 'NF > 1 { split($2, a, "\""); n[a[1]]++ }
		END { s = ""; for (k in n) s = s k "=" n[k] " "; print (s == "" ? "-" : s) }' "$1"
}
points() { [ -f "$1" ] && grep -c '"kind":"point"' "$1" || echo 0; }

# 1. Every suite at np 2 and N.
say ""
say "## suites"
say "$(printf '%-18s %4s %5s %7s %8s  %s' suite np exit points seconds faults)"
suites=${SUITES:-$("$BIN" list --suites)}
bad=0
for np in 2 "$N"; do
	for s in $suites; do
		d="$OUT/suites/$s-np$np"
		rm -rf "$d" && mkdir -p "$OUT/suites"
		t0=$(date +%s)
		timeout -k 30 "$SUITE_TIMEOUT" "$BIN" -i "$s" --np "$np" -o "$d" >"$d.log" 2>&1
		rc=$?
		f=$(faults "$d/results.jsonl")
		say "$(printf '%-18s %4d %5d %7d %8d  %s' "$s" "$np" "$rc" "$(points "$d/results.jsonl")" $(($(date +%s) - t0)) "$f")"
		[ "$rc" -eq 0 ] || bad=$((bad + 1))
	done
	[ "$np" = 2 ] && [ "$N" = 2 ] && break
done

# 2. Start-up at 2, 4, ..., N.
nps=2
for ((p = 4; p < N; p *= 2)); do nps="$nps,$p"; done
[ "$N" -gt 2 ] && nps="$nps,$N"
say ""
say "## startup (np $nps)"
for shm in "" --shmem; do
	d="$OUT/startup${shm:+-shmem}"
	timeout -k 30 900 "$BIN" startup --np "$nps" --launches 3 $shm -o "$d" >"$d.log" 2>&1
	rc=$?
	say "startup ${shm:-(MPI)}: exit $rc"
	grep -E '^ *(procs|[0-9]+) ' "$d.log" | sed 's/^/  /' | tee -a "$SUMMARY"
	[ "$rc" -eq 0 ] || { bad=$((bad + 1)); tail -3 "$d.log" | sed 's/^/  /' | tee -a "$SUMMARY"; }
done

# 3. Clock synchronisation at N.
say ""
say "## clock check (np $N)"
d="$OUT/clock"
timeout -k 30 300 "$BIN" clock check --np "$N" --duration 5s -o "$d" >"$d.log" 2>&1
rc=$?
say "clock check: exit $rc"
sed -n '/residual/,$p' "$d.log" | sed 's/^/  /' | tee -a "$SUMMARY"
[ "$rc" -eq 0 ] || bad=$((bad + 1))

# 4. Peak RSS per rank: each rank is started through a wrapper that polls its VmHWM
# (monotonic, so the last reading is the peak up to ~0.2 s before the end).
say ""
say "## peak RSS per rank ($RSS_SUITE)"
wrap="$OUT/rss-wrap.sh"
cat >"$wrap" <<'EOF'
#!/usr/bin/env bash
"$@" &
pid=$! hwm=0
while kill -0 "$pid" 2>/dev/null; do
	v=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null) && [ -n "$v" ] && hwm=$v
	sleep 0.2
done
wait "$pid"; rc=$?
echo "$hwm" >"$RSS_DIR/rank-${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-$$}}"
exit "$rc"
EOF
chmod +x "$wrap"
launcher=$(command -v mpirun.openmpi || command -v mpirun)
for np in "$N" $((8 * N)); do
	export RSS_DIR="$OUT/rss-np$np"
	rm -rf "$RSS_DIR" && mkdir -p "$RSS_DIR"
	timeout -k 30 "$SUITE_TIMEOUT" "$launcher" -np "$np" --oversubscribe -x RSS_DIR "$wrap" "$(realpath "$BIN")" \
		-i "$RSS_SUITE" -o "$RSS_DIR/results" >"$RSS_DIR.log" 2>&1
	rc=$?
	say "$(cat "$RSS_DIR"/rank-* 2>/dev/null | sort -n | awk -v np="$np" -v rc="$rc" '
		{ v[NR] = $1; s += $1 } END { if (NR == 0) { printf "np %d: exit %d, no reading\n", np, rc; exit }
		printf "np %d: exit %d, %d ranks, peak RSS per rank MiB: min %.0f median %.0f max %.0f, total %.0f\n",
			np, rc, NR, v[1] / 1024, v[int((NR + 1) / 2)] / 1024, v[NR] / 1024, s / 1024 }')"
done

# 5. Reproducibility: the same points ROUNDS times, one job after another.
say ""
say "## reproducibility (np $N, $ROUNDS rounds; us per call)"
for r in $(seq 1 "$ROUNDS"); do
	d="$OUT/repro/round$r"
	rm -rf "$d" && mkdir -p "$OUT/repro"
	timeout -k 30 900 "$BIN" run Bcast Allreduce Allgather Alltoall --sizes 8,1KiB --np "$N" -o "$d" >"$d.log" 2>&1 ||
		{ say "round $r: exit $?" >&2; bad=$((bad + 1)); }
	"$BIN" export "$d/results.jsonl" --format csv 2>/dev/null | awk -F, -v r="$r" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ printf "%s %s %s %s\n", $c["op"], $c["msg_bytes"], r, $c["time_s"] * 1e6 }'
done >"$OUT/repro.txt"
say "$(printf '%-10s %6s %9s %9s %9s %7s  %s' op bytes median min max spread rounds)"
sort -k1,1 -k2,2n -k4,4g "$OUT/repro.txt" | awk '
	function flush() { if (n == 0) return
		med = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		printf "%-10s %6d %9.3f %9.3f %9.3f %6.2fx  %s\n", op, b, med, v[1], v[n], (v[1] > 0 ? v[n] / v[1] : 0), all; n = 0; all = "" }
	$1 != op || $2 != b { flush(); op = $1; b = $2 }
	{ v[++n] = $4; all = all sprintf("%.3f ", $4) }
	END { flush() }' | tee -a "$SUMMARY"

say ""
say "# $bad step(s) failed; everything under $OUT"
[ "$bad" -eq 0 ]
