#!/usr/bin/env bash
# Reference comparison: skampi beside small C programs that measure the way OSU and IMB
# do (bench/ref_latency.c, ref_bw.c, ref_coll.c) and the way the method paper breaks a
# non-blocking operation down (bench/ref_overlap.c), one-sided latency under OSU's
# synchronisation modes and skampi's lock_all_flush (bench/ref_rma.c) and
# OpenSHMEM's put + quiet (bench/ref_shmem.c, when skampi has OpenSHMEM), the halo step
# with and without its computation (bench/ref_halo.c), synchronisation calls with a late
# partner (bench/ref_sync.c), a strided ping-pong through an MPI vector datatype and packed
# by hand (bench/ref_datatype.c), a busy passive target (bench/ref_busy.c), a collective
# write with and without MPI_File_sync and under IMB-IO's sync, barrier, sync, one write or
# a window of them a sample (bench/ref_io.c, in a directory of TMP), a multi-threaded
# ping-pong under MPI_THREAD_MULTIPLE in thread pairs and at 1:N (bench/ref_mt.c,
# ref_mt_1ton.c, beside a skampi run of their own), run alternately
# for RUNS rounds; prints
# every pair, and per row the median of the per-round ratios skampi/C.
# See bench/README.md. Run by `make bench-reference`; works from any directory.
#
# Environment: RUNS (5) rounds; SKAMPI (bin/skampi) the binary to compare; REF_LOOPS (5)
# timed loops per size in each C run, of which it prints the median; KEEP=1 keeps the
# temporary directory; IO_IMB_WINDOWS ("1 8") the windows of the IMB-IO rows; ONLY=rma (or shmem,
# halo, sync, datatype, busy, mpi4, io, mt) runs the one-sided
# (or OpenSHMEM, halo, late-partner synchronisation, strided ping-pong, busy-target, neighbourhood
# all-to-all and persistent allreduce, MPI-IO, multi-threaded) rows alone.
set -euo pipefail

die() { echo "reference: $*" >&2; exit 1; }

cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." || die "cannot cd to the repository root"

RUNS=${RUNS:-5}
[[ $RUNS =~ ^[0-9]+$ ]] && ((RUNS >= 1)) || die "RUNS must be a positive integer, got '$RUNS'"
export REF_LOOPS=${REF_LOOPS:-5}
[[ $REF_LOOPS =~ ^[0-9]+$ ]] && ((REF_LOOPS >= 1 && REF_LOOPS <= 101)) || die "REF_LOOPS must be 1 to 101, got '$REF_LOOPS'"
ONLY=${ONLY:-}
[[ -z $ONLY || $ONLY == rma || $ONLY == shmem || $ONLY == halo || $ONLY == sync || $ONLY == datatype || $ONLY == busy || $ONLY == mpi4 || $ONLY == io || $ONLY == mt ]] ||
	die "ONLY must be empty, rma, shmem, halo, sync, datatype, busy, mpi4, io or mt, got '$ONLY'"
all() { [[ -z $ONLY ]]; }
want() { [[ -z $ONLY || $ONLY == "$1" ]]; }
SKAMPI=${SKAMPI:-bin/skampi}
[[ -x $SKAMPI ]] || die "$SKAMPI not found: run \`make build\` (or \`make bench-reference\`)"
command -v mpicc >/dev/null || die "mpicc not found: run \`make setup\`"
command -v mpirun >/dev/null || die "mpirun not found: run \`make setup\`"
command -v python3 >/dev/null || die "python3 not found"
if [[ $(id -u) == 0 ]]; then
	export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
	export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/skampi-reference.XXXXXX") || die "mktemp failed"
if [[ ${KEEP:-0} == 1 ]]; then
	echo "reference: keeping $TMP" >&2
else
	trap 'rm -rf "$TMP"' EXIT
fi

# The C programs are built into the temporary directory: nothing to clean in the tree.
PROGS=(ref_latency ref_bw ref_coll ref_overlap ref_rma ref_halo ref_sync ref_datatype ref_busy ref_mpi4 ref_io ref_mt ref_mt_1ton)
for p in "${PROGS[@]}"; do
	mpicc -O2 -Wall -o "$TMP/$p" "bench/$p.c" || die "compiling bench/$p.c failed"
done
# OpenSHMEM's row when the binary has it (skampi version says so).
SHMEM=0
# The version is read whole first: under pipefail, grep -q leaving at the first line
# killed skampi version with SIGPIPE, and the row was left out in some runs.
version=$("$SKAMPI" version 2>/dev/null || true)
if want shmem && [[ $version == *OpenSHMEM* ]]; then
	SHMEM=1
	mpicc -O2 -Wall -o "$TMP/ref_shmem" bench/ref_shmem.c -loshmem || die "compiling bench/ref_shmem.c failed"
fi
SHMEM_SIZES="8 4096 65536"
# bench/ref_shmem.c's modes, each beside the skampi point of the same sequence.
SHMEM_MODES="put_quiet put_post putnbi_quiet get get_sym quiet add add_quiet fetch_add bcast_ack"

PP_SIZES="1 4096 65536 1048576"
# The collective write (bench/ref_io.c) beside skampi's File_Write_At_All(_Sync), one
# measurement per size named as ref_io prints it, both writing in IO_DIR.
IO_SIZES="4096 65536 1048576"
IO_DIR=$TMP/io
# IMB-IO's C_Write_expl (bench/ref_io.c imb WINDOW) beside skampi's File_Write_At_All
# [imb]: window 1 is IMB's non-aggregate mode, a larger one its aggregate mode.
IO_IMB_WINDOWS=${IO_IMB_WINDOWS:-1 8}
IO_IMB_SIZES="1024 65536"
mkdir -p "$IO_DIR"
BW_SIZES="4096 65536 1048576"
COLL_SIZES="4 4096 65536"
NB_SIZES="1 4096 65536 1048576"
RMA_SIZES="8 4096 65536 1048576"
# skampi's Put methods beside bench/ref_rma.c's modes of the same names: OSU's flush,
# lock_all and fence (the ping-pong), and skampi's lock_all_flush.
RMA_MODES="lock_all_flush flush lock_all fence"
# bench/ref_sync.c's modes and the partner's delays (us), each beside the skampi
# measurement its output line names ("Win_start,delay=10us").
SYNC_MODES="start complete"
SYNC_DELAYS="0 10 50 100"
# The halo steps: bench/ref_halo.c's modes beside skampi's operations of the same
# sequence, each without and with HALO_COMPUTE_US of computation, HALO_ITERS steps a loop
# (skampi's iterations).
HALO_SIZES="8 16384 131072"
HALO_MODES="twosided pscw fence"
HALO_COMPUTE_US=50
HALO_ITERS=100
# skampi's Pingpong_Send_Recv under data_layout vector and packed beside
# bench/ref_datatype.c's modes of the same names: doubles, every DT_STRIDE-th.
DT_SIZES="64 4096 65536"
DT_STRIDE=2
DT_MODES="vector packed"
# The busy target's rows (bench/ref_busy.c): Put under lock, 8 bytes, the target
# computing BUSY_US microseconds per operation, polling every BUSY_PROGRESS spins (0:
# never), beside skampi's Put [lock] with target_busy and progress.
BUSY_US="10 50"
BUSY_PROGRESS="0 1000"
BUSY_SIZES="8"
# The neighbourhood all-to-all on MPI_Dims_create's periodic grid and the persistent
# allreduce (bench/ref_mpi4.c) beside skampi's Neighbor_alltoall and Allreduce_persistent.
MPI4_SIZES="4 4096 65536"
# The multi-threaded ping-pong (bench/ref_mt.c) at MT_THREADS threads per rank, beside
# skampi's Pingpong_Send_Recv_MT in a suite of its own (it runs under
# MPI_THREAD_MULTIPLE, which would slow every other row's ping-pong).
MT_THREADS=${MT_THREADS:-1 2}
MT_SIZES="1 4096"
# osu_latency_mt's default, one sender thread to MT_FAN_THREADS receivers (bench/ref_mt_1ton.c,
# OSU's -t 1:2), beside skampi's Pingpong_Send_Recv_MT_1toN.
MT_FAN_THREADS=${MT_FAN_THREADS:-2}
MT_FAN_SIZES="1 64 1024"
# Round trips a loop on both sides: two threads per rank share a core here (2 cores,
# ranks bound to one each), a round trip then takes milliseconds.
export REF_MT_ITERS=${REF_MT_ITERS:-100}
# One-sided communication in Open MPI 4.1 needs the UCX component (skampi's launcher
# sets the same for its own runs).
export OMPI_MCA_osc=${OMPI_MCA_osc:-ucx}
list() { local s=$1; echo "[${s// /, }]"; }

# skampi's side of every row. Repetitions are fixed so that every round measures the
# same amount; the bandwidth window is 64 as in osu_bw, measured with one receive buffer
# for the window (osu_bw's way, recv_slots = "shared") and with a slot per message.
SUITE=$TMP/reference.toml
write_suite() {
	cat <<TOML
# Written by bench/reference.sh.
description = "reference: skampi beside OSU-style C programs"

[settings]
warmup = 2
max_time_per_point = "60s"
buffer = "1MiB"
TOML
	if ((SHMEM)); then
		for m in "Shmem_Put" "Shmem_Put_Nbi" "Shmem_Get" "Shmem_Get_Symmetric"; do
			cat <<TOML

[[measurement]]
name = "$m"
op = "$m"
window = 1
sizes = $(list "$SHMEM_SIZES")
min_repetitions = 16
max_repetitions = 16
TOML
		done
		cat <<TOML

[[measurement]]
name = "shmem quiet"
op = "Shmem_Quiet"
sizes = [0]
min_repetitions = 16
max_repetitions = 16

[[measurement]]
name = "shmem add"
op = "Shmem_Atomic_Add_Long"
sizes = [8]
min_repetitions = 16
max_repetitions = 16

[[measurement]]
name = "shmem add, quiet subtracted"
op = "Shmem_Atomic_Add_Long"
sizes = [8]
method = "quiet_subtracted"
min_repetitions = 16
max_repetitions = 16

[[measurement]]
name = "shmem fetch_add"
op = "Shmem_Atomic_Fetch_Add_Long"
sizes = [8]
min_repetitions = 16
max_repetitions = 16

[[measurement]]
name = "shmem broadcast ack"
op = "Shmem_Broadcast"
method = "ack"
sizes = $(list "$SHMEM_SIZES")
min_repetitions = 16
max_repetitions = 16
TOML
	fi
	if want busy; then
		for b in $BUSY_US; do
			for p in $BUSY_PROGRESS; do
				cat <<TOML

[[measurement]]
name = "busy target $b us, progress $p"
op = "Put"
method = "lock"
window = 1
sizes = $(list "$BUSY_SIZES")
target_busy = "${b}us"
progress = $p
min_repetitions = 16
max_repetitions = 16
TOML
			done
		done
	fi
	want io && for op in File_Write_At_All File_Write_At_All_Sync; do
		for n in $IO_SIZES; do
			cat <<TOML

[[measurement]]
name = "$op,$n"
op = "$op"
sizes = [$n]
io_dir = "$IO_DIR"
min_repetitions = 64
max_repetitions = 64
TOML
		done
	done
	want io && for w in $IO_IMB_WINDOWS; do
		for n in $IO_IMB_SIZES; do
			cat <<TOML

[[measurement]]
name = "File_Write_At_All_imb,W=$w,$n"
op = "File_Write_At_All"
method = "imb"
window = $w
sizes = [$n]
io_dir = "$IO_DIR"
min_repetitions = 64
max_repetitions = 64
TOML
		done
	done
	want datatype && for m in $DT_MODES; do
		cat <<TOML

[[measurement]]
name = "datatype $m"
op = "Pingpong_Send_Recv"
data_layout = "$m"
stride = $DT_STRIDE
sizes = $(list "$DT_SIZES")
min_repetitions = 32
max_repetitions = 32
TOML
	done
	if want halo; then
		for op in Halo_Twosided Halo_Onesided_PSCW Halo_Onesided_Fence; do
			for us in 0 $HALO_COMPUTE_US; do
				cat <<TOML

[[measurement]]
name = "halo $op $us"
op = "$op"
halo_compute = "${us}us"
iterations = $HALO_ITERS
sizes = $(list "$HALO_SIZES")
min_repetitions = 16
max_repetitions = 16
TOML
			done
		done
	fi
	want mpi4 && for op in Neighbor_alltoall Allreduce_persistent; do
		cat <<TOML

[[measurement]]
name = "$op"
op = "$op"
sizes = $(list "$MPI4_SIZES")
min_repetitions = 64
max_repetitions = 64
TOML
	done
	if want sync; then
		for m in $SYNC_MODES; do
			for d in $SYNC_DELAYS; do
				op=Win_${m}
				cat <<TOML

[[measurement]]
name = "$op,delay=${d}us"
op = "$op"
delay = "${d}us"
sizes = [8]
min_repetitions = 16
max_repetitions = 16
TOML
			done
		done
	fi
	want rma || return 0
	cat <<TOML

[[measurement]]
name = "rma put"
op = "Put"
method = [$(echo "$RMA_MODES" | sed 's/[^ ][^ ]*/"&"/g; s/ /, /g')]
window = 1
sizes = $(list "$RMA_SIZES")
min_repetitions = 16
max_repetitions = 16
TOML
	all || return 0
	cat <<TOML

[[measurement]]
name = "ping-pong"
op = "Pingpong_Send_Recv"
sizes = $(list "$PP_SIZES")
min_repetitions = 32
max_repetitions = 32

TOML
	for slots in shared per-message; do
		cat <<TOML

[[measurement]]
name = "bandwidth, recv_slots $slots"
op = "Bandwidth_Isend_Irecv"
sizes = $(list "$BW_SIZES")
window = 64
recv_slots = "$slots"
buffer = "$([[ $slots == shared ]] && echo 1MiB || echo 64MiB)"
min_repetitions = 16
max_repetitions = 16
TOML
	done
	for op in Isend Irecv; do
		cat <<TOML

[[measurement]]
name = "nb $op"
op = "$op"
sizes = $(list "$NB_SIZES")
min_repetitions = 16
max_repetitions = 16
TOML
	done
	for op in Allreduce Bcast Alltoall; do
		cat <<TOML

[[measurement]]
name = "$op"
op = "$op"
sizes = $(list "$COLL_SIZES")
min_repetitions = 64
max_repetitions = 64
TOML
	done
	cat <<TOML

[[measurement]]
name = "Bcast, ack"
op = "Bcast"
method = "ack"
sizes = $(list "$COLL_SIZES")
min_repetitions = 64
max_repetitions = 64
TOML
}
write_suite >"$SUITE"
MT_SUITE=$TMP/mt.toml
{
	printf '# Written by bench/reference.sh.\ndescription = "reference: multi-threaded ping-pong"\n\n[settings]\nwarmup = 2\nmax_time_per_point = "60s"\n'
	for t in $MT_THREADS; do
		printf '\n[[measurement]]\nname = "mt %s"\nop = "Pingpong_Send_Recv_MT"\nthreads = %s\nsizes = %s\niterations = %s\nmin_repetitions = 16\nmax_repetitions = 16\n' "$t" "$t" "$(list "$MT_SIZES")" "$REF_MT_ITERS"
	done
	for t in $MT_FAN_THREADS; do
		printf '\n[[measurement]]\nname = "mt 1:%s"\nop = "Pingpong_Send_Recv_MT_1toN"\nthreads = %s\nsizes = %s\niterations = %s\nmin_repetitions = 16\nmax_repetitions = 16\n' "$t" "$t" "$(list "$MT_FAN_SIZES")" "$REF_MT_ITERS"
	done
} >"$MT_SUITE"

# run_c ROUND PROG SIZES...: one run of a C program; its output in $TMP/ROUND.PROG.
run_c() {
	local round=$1 prog=$2
	shift 2
	if ! mpirun -np 2 -x REF_LOOPS -x REF_MT_ITERS "$TMP/$prog" "$@" >"$TMP/$round.$prog" 2>"$TMP/$round.$prog.err"; then
		cat "$TMP/$round.$prog.err" >&2
		die "round $round: mpirun -np 2 $prog $* failed"
	fi
}

# run_skampi ROUND [SUITE NAME]: one run of the suite; results in $TMP/ROUND.NAME
# (skampi).
run_skampi() {
	local suite=${2:-$SUITE} dir=$TMP/$1.${3:-skampi}
	if ! "$SKAMPI" -i "$suite" -o "$dir" >"$dir.log" 2>&1; then
		cat "$dir.log" >&2
		die "round $1: $SKAMPI -i $suite -o $dir failed"
	fi
}

echo "reference: $RUNS rounds, each: $(all && echo "ref_latency, ref_bw, ref_coll, ref_overlap, ")$(want rma && echo "ref_rma ")$(want halo && echo "ref_halo ")$(want datatype && echo "ref_datatype ")$(want busy && echo "ref_busy ")$(want mpi4 && echo "ref_mpi4 ")$(want io && echo "ref_io ")$(want sync && echo "ref_sync ")$(want mt && echo "ref_mt, ref_mt_1ton + skampi's mt suite ")(mpirun -np 2; the median of $REF_LOOPS timed loops per size), then $SKAMPI (-np 2) on the same points"
for ((i = 1; i <= RUNS; i++)); do
	# shellcheck disable=SC2086 # the size lists are meant to split
	want busy && for b in $BUSY_US; do
		for p in $BUSY_PROGRESS; do
			run_c "$i" ref_busy "$b" "$p" $BUSY_SIZES
			mv "$TMP/$i.ref_busy" "$TMP/$i.ref_busy.$b.$p"
		done
	done
	# shellcheck disable=SC2086
	want datatype && for m in $DT_MODES; do
		run_c "$i" ref_datatype "$m" $DT_STRIDE $DT_SIZES
		mv "$TMP/$i.ref_datatype" "$TMP/$i.ref_datatype.$m"
	done
	# shellcheck disable=SC2086
	want halo && for m in $HALO_MODES; do
		for us in 0 $HALO_COMPUTE_US; do
			run_c "$i" ref_halo "$m" "$us" "$HALO_ITERS" $HALO_SIZES
			mv "$TMP/$i.ref_halo" "$TMP/$i.ref_halo.$m.$us"
		done
	done
	# shellcheck disable=SC2086
	want io && for w in $IO_IMB_WINDOWS; do
		run_c "$i" ref_io "$IO_DIR" imb "$w" $IO_IMB_SIZES
		mv "$TMP/$i.ref_io" "$TMP/$i.ref_io.imb.$w"
	done
	# shellcheck disable=SC2086
	want io && run_c "$i" ref_io "$IO_DIR" $IO_SIZES
	want mt && {
		for t in $MT_THREADS; do
			run_c "$i" ref_mt "$t" $MT_SIZES
			mv "$TMP/$i.ref_mt" "$TMP/$i.ref_mt.$t"
		done
		for t in $MT_FAN_THREADS; do
			run_c "$i" ref_mt_1ton "$t" $MT_FAN_SIZES
			mv "$TMP/$i.ref_mt_1ton" "$TMP/$i.ref_mt_1ton.$t"
		done
		run_skampi "$i" "$MT_SUITE" mt.skampi
	}
	want sync && for m in $SYNC_MODES; do
		run_c "$i" ref_sync "$m" $SYNC_DELAYS
		mv "$TMP/$i.ref_sync" "$TMP/$i.ref_sync.$m"
	done
	# shellcheck disable=SC2086
	want mpi4 && run_c "$i" ref_mpi4 $MPI4_SIZES
	want rma && for m in $RMA_MODES; do
		run_c "$i" ref_rma "$m" $RMA_SIZES
		mv "$TMP/$i.ref_rma" "$TMP/$i.ref_rma.$m"
	done
	if ((SHMEM)); then
		for m in $SHMEM_MODES; do
			run_c "$i" ref_shmem "$m" $SHMEM_SIZES
			mv "$TMP/$i.ref_shmem" "$TMP/$i.ref_shmem.$m"
		done
	fi
	# shellcheck disable=SC2086
	all && {
		run_c "$i" ref_latency $PP_SIZES
		run_c "$i" ref_bw $BW_SIZES
		run_c "$i" ref_coll $COLL_SIZES
		run_c "$i" ref_overlap isend $NB_SIZES
		mv "$TMP/$i.ref_overlap" "$TMP/$i.ref_overlap.isend"
		run_c "$i" ref_overlap irecv $NB_SIZES
		mv "$TMP/$i.ref_overlap" "$TMP/$i.ref_overlap.irecv"
	}
	[[ $ONLY == mt ]] || run_skampi "$i"
	echo "round $i done"
done

python3 bench/reference_summary.py "$TMP" "$RUNS" "$SHMEM" "$RMA_MODES" "${ONLY:-all}" "$SHMEM_MODES" "$SYNC_MODES" "$HALO_MODES" "$HALO_COMPUTE_US" "$DT_MODES" "$BUSY_US" "$BUSY_PROGRESS" "$MT_THREADS" "$IO_IMB_WINDOWS" "$MT_FAN_THREADS" || die "summarising failed"
