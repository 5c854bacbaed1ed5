#!/usr/bin/env bash
# What a number costs: the wall time of the same sweep in skampi, OSU and IMB, in
# interleaved rounds (skampi, OSU, IMB, skampi, ...), each a fresh mpirun -np 2; prints
# per sweep the median wall seconds of each program and skampi's ratio to each peer.
#   bench/sweeptime.sh [ROUNDS]          (default 5)
# The peers are built from their public sources outside this tree: OSU's C benchmarks in
# $OSU_DIR (default /tmp/osu/c), IMB-MPI1 at $IMB (default /tmp/imb/IMB-MPI1); a peer
# that is missing is skipped. The sweeps, 1 B to 1 MiB by powers of two (collectives from
# 4 B):
#   pingpong   skampi run Pingpong_Send_Recv     osu_latency    IMB PingPong
#   bandwidth  skampi run Bandwidth_Isend_Irecv -W 64   osu_bw   IMB Uniband
#   allreduce  skampi run Allreduce              osu_allreduce  IMB Allreduce
# skampi runs with its defaults (a point stops when its mean is known to 3 %, or at its
# time cap); OSU and IMB with theirs (fixed iteration counts). Run on a quiet machine:
# two jobs at once make every number meaningless.
set -uo pipefail
cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." || exit 1
ROUNDS=${1:-5}
SKAMPI=${SKAMPI:-bin/skampi}
OSU_DIR=${OSU_DIR:-/tmp/osu/c}
IMB=${IMB:-/tmp/imb/IMB-MPI1}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
[[ -x $SKAMPI ]] || { echo "sweeptime: $SKAMPI not found: make build" >&2; exit 1; }
tmp=$(mktemp -d /tmp/skampi-sweeptime.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

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
progs=(skampi osu imb)
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
med() { sort -g "$1" | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
printf '%-10s %9s %9s %9s %11s %11s\n' sweep skampi_s osu_s imb_s skampi/osu skampi/imb
for s in "${sweeps[@]}"; do
	declare -A m=()
	for p in "${progs[@]}"; do
		m[$p]=-
		[[ -s $tmp/$s.$p ]] && m[$p]=$(med "$tmp/$s.$p")
	done
	ratio() { [[ ${m[$1]} != - && ${m[skampi]} != - ]] && echo "scale=2; ${m[skampi]} / ${m[$1]}" | bc || echo -; }
	printf '%-10s %9.2f %9s %9s %11s %11s\n' "$s" "${m[skampi]}" "${m[osu]}" "${m[imb]}" "$(ratio osu)" "$(ratio imb)"
done
echo "median wall seconds over $ROUNDS interleaved rounds, mpirun -np 2 each (skampi launches its own)"
