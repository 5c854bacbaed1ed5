#!/usr/bin/env bash
# What a number costs: the wall time of the same sweep in skampi, OSU and IMB, in
# interleaved rounds (skampi, skampi-250us, OSU, IMB, skampi, ...), each a fresh mpirun -np 2;
# prints per sweep and program the median wall seconds and how well its numbers come back:
# per size, the median absolute deviation of the rounds' values from their median, relative
# to it; the median of that over the sizes. A time without a precision says nothing: a
# program that measures half as long and whose numbers move twice as much between runs
# has not saved anything.
#   bench/sweeptime.sh [ROUNDS]          (default 5; 9 for a spread worth quoting)
# The peers are built from their public sources outside this tree: OSU's C benchmarks in
# $OSU_DIR (default /tmp/osu/c), IMB-MPI1 at $IMB (default /tmp/imb/IMB-MPI1); a peer
# that is missing is skipped. The sweeps, 1 B to 1 MiB by powers of two (collectives from
# 4 B):
#   pingpong   skampi run Pingpong_Send_Recv     osu_latency    IMB PingPong
#   bandwidth  skampi run Bandwidth_Isend_Irecv -W 64   osu_bw   IMB Uniband
#   allreduce  skampi run Allreduce              osu_allreduce  IMB Allreduce
# skampi runs with its defaults (a point stops when its mean is known to 3 %, or at its
# time cap), and again as skampi-250us with --rep-time 250us (repetitions a quarter as long:
# the same stop rule, less time per point, more spread between runs); OSU and IMB with
# their defaults (fixed iteration counts). The value read per size: skampi's first time
# column, OSU's only one, IMB's third (t[usec], Mbytes/sec, t_min). Run on a quiet
# machine: two jobs at once make every number meaningless. KEEP=1 keeps the logs.
set -uo pipefail
cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." || exit 1
ROUNDS=${1:-5}
SKAMPI=${SKAMPI:-bin/skampi}
OSU_DIR=${OSU_DIR:-/tmp/osu/c}
IMB=${IMB:-/tmp/imb/IMB-MPI1}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
[[ -x $SKAMPI ]] || { echo "sweeptime: $SKAMPI not found: make build" >&2; exit 1; }
tmp=$(mktemp -d /tmp/skampi-sweeptime.XXXXXX)
if [[ ${KEEP:-0} == 1 ]]; then echo "sweeptime: keeping $tmp" >&2; else trap 'rm -rf "$tmp"' EXIT; fi

declare -A cmd
cmd[pingpong,skampi]="$SKAMPI run Pingpong_Send_Recv -m 1:1MiB"
cmd[pingpong,osu]="mpirun -np 2 $OSU_DIR/mpi/pt2pt/standard/osu_latency -m 1:1048576"
cmd[pingpong,imb]="mpirun -np 2 $IMB PingPong -msglog 0:20"
cmd[bandwidth,skampi]="$SKAMPI run Bandwidth_Isend_Irecv -W 64 -m 1:1MiB"
cmd[bandwidth,osu]="mpirun -np 2 $OSU_DIR/mpi/pt2pt/standard/osu_bw -m 1:1048576"
cmd[bandwidth,imb]="mpirun -np 2 $IMB Uniband -msglog 0:20"
cmd[allreduce,skampi]="$SKAMPI run Allreduce -m 4:1MiB"
cmd[allreduce,osu]="mpirun -np 2 $OSU_DIR/mpi/collective/blocking/osu_allreduce -m 4:1048576"
cmd[allreduce,imb]="mpirun -np 2 $IMB Allreduce -msglog 2:20"
sweeps=(pingpong bandwidth allreduce)
for s in "${sweeps[@]}"; do cmd[$s,skampi-250us]="${cmd[$s,skampi]} --rep-time 250us"; done
progs=(skampi skampi-250us osu imb)
have() { # the program a command runs is there
	local c=${cmd[$1,$2]} exe
	exe=$(awk '{print ($1 == "mpirun") ? $4 : $1}' <<<"$c")
	[[ -x $exe ]]
}
for r in $(seq 1 "$ROUNDS"); do
	for s in "${sweeps[@]}"; do
		for p in "${progs[@]}"; do
			have "$s" "$p" || continue
			t0=$(date +%s.%N)
			# shellcheck disable=SC2086 # the command is words
			if ! ${cmd[$s,$p]} >"$tmp/$s.$p.$r.log" 2>&1; then
				echo "sweeptime: round $r, $s, $p failed:" >&2
				tail -5 "$tmp/$s.$p.$r.log" >&2
				exit 1
			fi
			echo "$(date +%s.%N) - $t0" | bc >>"$tmp/$s.$p"
		done
	done
	echo "round $r done" >&2
done
python3 - "$tmp" "$ROUNDS" "${sweeps[*]}" "${progs[*]}" <<'PY'
import re, statistics as st, sys
from pathlib import Path
tmp, rounds, sweeps, progs = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3].split(), sys.argv[4].split()
# A table row: skampi's "[i/n] BYTES PROCS [METHOD] VALUE ...", OSU's "BYTES VALUE",
# IMB's "BYTES REPS VALUE ..." (OSU and IMB print nothing else that starts with a number).
row = {"osu": re.compile(r"^\s*(\d+)\s+([\d.]+)\s*$"),
       "imb": re.compile(r"^\s*(\d+)\s+\d+\s+([\d.]+)"),
       "skampi": re.compile(r"^\s*\[\d+/\d+\]\s+(\d+)\s+\d+\s+(?:[A-Za-z_][\w-]*\s+)?([\d.]+)")}
def values(prog, log):
    pat = row[prog.split("-")[0]]
    out = {}
    for line in log.read_text(errors="replace").splitlines():
        if m := pat.match(line):
            out[int(m[1])] = float(m[2])
    return out
def spread(per_round):  # median over sizes of MAD/median across rounds
    sizes = set().union(*per_round) if per_round else set()
    rel = []
    for b in sizes:
        v = [r[b] for r in per_round if b in r]
        if len(v) >= 3 and st.median(v) > 0:
            m = st.median(v)
            rel.append(st.median(abs(x - m) for x in v) / m)
    return f"{100 * st.median(rel):.1f}%" if rel else "-"
print(f"{'sweep':<10} " + " ".join(f"{p + ' s':>15} {'spread':>7}" for p in progs) + "  " +
      " ".join(f"{'skampi/' + p:>12}" for p in progs[1:]))
for s in sweeps:
    walls, cells = {}, []
    for p in progs:
        f = tmp / f"{s}.{p}"
        if not f.exists():
            cells.append(f"{'-':>15} {'-':>7}")
            continue
        walls[p] = st.median(float(x) for x in f.read_text().split())
        per_round = [values(p, tmp / f"{s}.{p}.{r}.log") for r in range(1, rounds + 1)]
        cells.append(f"{walls[p]:>15.2f} {spread(per_round):>7}")
    ratios = [f"{walls['skampi'] / walls[p]:>12.2f}" if p in walls and "skampi" in walls else f"{'-':>12}" for p in progs[1:]]
    print(f"{s:<10} " + " ".join(cells) + "  " + " ".join(ratios))
print(f"median wall seconds over {rounds} interleaved rounds, mpirun -np 2 each (skampi launches its own);")
print("spread: per size, the median absolute deviation of the rounds' values over their median; the median over sizes")
PY
