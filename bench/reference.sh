#!/usr/bin/env bash
# Reference comparison: skampi beside small C programs that measure the way OSU and IMB
# do (bench/ref_latency.c, ref_bw.c, ref_coll.c) and the way the method paper breaks a
# non-blocking operation down (bench/ref_overlap.c), one-sided latency under OSU's
# synchronisation modes and skampi's lock_all_flush (bench/ref_rma.c) and
# OpenSHMEM's put + quiet (bench/ref_shmem.c, when skampi has OpenSHMEM), the halo step
# with and without its computation (bench/ref_halo.c), synchronisation calls with a late
# partner (bench/ref_sync.c), a strided ping-pong through an MPI vector datatype and packed
# by hand (bench/ref_datatype.c), a busy passive target (bench/ref_busy.c), run alternately
# for RUNS rounds; prints
# every pair, and per row the median of the per-round ratios skampi/C.
# See bench/README.md. Run by `make bench-reference`; works from any directory.
#
# Environment: RUNS (5) rounds; SKAMPI (bin/skampi) the binary to compare; REF_LOOPS (5)
# timed loops per size in each C run, of which it prints the median; KEEP=1 keeps the
# temporary directory; ONLY=rma (or shmem, halo, sync, datatype, busy) runs the one-sided
# (or OpenSHMEM, halo, late-partner synchronisation, strided ping-pong, busy-target) rows alone.
set -euo pipefail

die() { echo "reference: $*" >&2; exit 1; }

cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." || die "cannot cd to the repository root"

RUNS=${RUNS:-5}
[[ $RUNS =~ ^[0-9]+$ ]] && ((RUNS >= 1)) || die "RUNS must be a positive integer, got '$RUNS'"
export REF_LOOPS=${REF_LOOPS:-5}
[[ $REF_LOOPS =~ ^[0-9]+$ ]] && ((REF_LOOPS >= 1 && REF_LOOPS <= 101)) || die "REF_LOOPS must be 1 to 101, got '$REF_LOOPS'"
ONLY=${ONLY:-}
[[ -z $ONLY || $ONLY == rma || $ONLY == shmem || $ONLY == halo || $ONLY == sync || $ONLY == datatype || $ONLY == busy ]] ||
	die "ONLY must be empty, rma, shmem, halo, sync, datatype or busy, got '$ONLY'"
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
PROGS=(ref_latency ref_bw ref_coll ref_overlap ref_rma ref_halo ref_sync ref_datatype ref_busy)
for p in "${PROGS[@]}"; do
	mpicc -O2 -Wall -o "$TMP/$p" "bench/$p.c" || die "compiling bench/$p.c failed"
done
# OpenSHMEM's row when the binary has it (skampi version says so).
SHMEM=0
if want shmem && "$SKAMPI" version 2>/dev/null | grep -q 'OpenSHMEM'; then
	SHMEM=1
	mpicc -O2 -Wall -o "$TMP/ref_shmem" bench/ref_shmem.c -loshmem || die "compiling bench/ref_shmem.c failed"
fi
SHMEM_SIZES="8 4096 65536"
# bench/ref_shmem.c's modes, each beside the skampi point of the same sequence.
SHMEM_MODES="put_quiet put_post putnbi_quiet get get_sym quiet add add_quiet fetch_add bcast_ack"

PP_SIZES="1 4096 65536 1048576"
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

# run_c ROUND PROG SIZES...: one run of a C program; its output in $TMP/ROUND.PROG.
run_c() {
	local round=$1 prog=$2
	shift 2
	if ! mpirun -np 2 -x REF_LOOPS "$TMP/$prog" "$@" >"$TMP/$round.$prog" 2>"$TMP/$round.$prog.err"; then
		cat "$TMP/$round.$prog.err" >&2
		die "round $round: mpirun -np 2 $prog $* failed"
	fi
}

# run_skampi ROUND: one run of the suite; results in $TMP/ROUND.skampi.
run_skampi() {
	local dir=$TMP/$1.skampi
	if ! "$SKAMPI" -i "$SUITE" -o "$dir" >"$dir.log" 2>&1; then
		cat "$dir.log" >&2
		die "round $1: $SKAMPI -i $SUITE -o $dir failed"
	fi
}

echo "reference: $RUNS rounds, each: $(all && echo "ref_latency, ref_bw, ref_coll, ref_overlap, ")$(want rma && echo "ref_rma ")$(want halo && echo "ref_halo ")$(want datatype && echo "ref_datatype ")$(want busy && echo "ref_busy ")$(want sync && echo "ref_sync ")(mpirun -np 2; the median of $REF_LOOPS timed loops per size), then $SKAMPI (-np 2) on the same points"
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
	want sync && for m in $SYNC_MODES; do
		run_c "$i" ref_sync "$m" $SYNC_DELAYS
		mv "$TMP/$i.ref_sync" "$TMP/$i.ref_sync.$m"
	done
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
	run_skampi "$i"
	echo "round $i done"
done

python3 - "$TMP" "$RUNS" "$SHMEM" "$RMA_MODES" "${ONLY:-all}" "$SHMEM_MODES" "$SYNC_MODES" "$HALO_MODES" "$HALO_COMPUTE_US" "$DT_MODES" "$BUSY_US" "$BUSY_PROGRESS" <<'PY' || die "summarising failed"
import json, statistics as st, sys
tmp, runs, shmem, rma_modes, only = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4].split(), sys.argv[5]
shmem_modes = sys.argv[6].split()
if only not in ("all", "rma"):
    rma_modes = []
# Programs whose lines are "MEASUREMENT TIME_S": each beside the skampi point of that
# measurement name (one size each).
named = [f"ref_sync.{m}" for m in sys.argv[7].split()] if only in ("all", "sync") else []
halo_modes, halo_us = sys.argv[8].split(), sys.argv[9]
if only not in ("all", "halo"):
    halo_modes = []
dt_modes = sys.argv[10].split() if only in ("all", "datatype") else []
busy_us, busy_progress = sys.argv[11].split(), sys.argv[12].split()
if only not in ("all", "busy"):
    busy_us = []
def lines(name):  # a C program's output; none for a program ONLY left out
    return open(f"{tmp}/{name}") if only == "all" else []

def size(n):
    for unit, f in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= f and n % f == 0:
            return f"{n // f} {unit}"
    return f"{n} B"

rows = {}  # sort key + (label, unit) -> [(C, skampi) per round]
def add(key, c, s):
    rows.setdefault(key, []).append((c, s))

for r in range(1, runs + 1):
    pts, puts, shm, by_name, pts_all, dts, busy = {}, {}, {}, {}, [], {}, {}
    with open(f"{tmp}/{r}.skampi/results.jsonl") as f:
        for line in f:
            if line.strip():
                d = json.loads(line)
                if d.get("kind") == "point" and d.get("data_layout"):
                    dts[(d["data_layout"], d["msg_bytes"])] = d
                elif d.get("kind") == "point":
                    pts[(d["op"], d["msg_bytes"], d.get("recv_slots"))] = d
                    by_name[d["measurement"]] = d
                    pts_all.append(d)
                    shm[(d["op"], d.get("method", ""), d["msg_bytes"])] = d
                    if d["op"] == "Put" and d.get("target_busy_s"):
                        busy[(d["msg_bytes"], round(d["target_busy_s"] * 1e6), d.get("poll_every", 0))] = d
                    elif d["op"] == "Put":
                        puts[(d["msg_bytes"], d.get("method"))] = d
    def point(op, n, slots=None):
        p = pts.get((op, n, slots))
        if p is None:
            sys.exit(f"reference: round {r}: skampi has no point {op} {n} B")
        return p
    for line in lines(f"{r}.ref_latency"):
        n, lat = line.split()
        n = int(n)
        add((0, n, 0, f"ping-pong {size(n)}, one-way latency", "us"), float(lat) * 1e6,
            point("Pingpong_Send_Recv", n)["latency_s"] * 1e6)
    for line in lines(f"{r}.ref_bw"):
        n, bw = line.split()
        n = int(n)
        for i, slots in enumerate(("shared", "per-message")):
            p = point("Bandwidth_Isend_Irecv", n, slots)
            if p.get("window") != 64:
                sys.exit(f"reference: skampi's window is {p.get('window')}, not 64")
            add((1, n, i, f"bandwidth {size(n)}, skampi {slots}", "MB/s"), float(bw) / 1e6,
                p["bandwidth_Bps"] / 1e6)
    order = {"Allreduce": 2, "Bcast": 3, "Alltoall": 4}  # the breakdowns: 5, 6
    for line in lines(f"{r}.ref_coll"):
        op, n, how, t = line.split()
        n = int(n)
        if how == "ack":  # Alg. 4-5 beside skampi's method ack
            p = shm.get((op, "ack", n))
            if p is None:
                sys.exit(f"reference: round {r}: skampi has no {op} ack point at {n} B")
            add((order[op], n, 2, f"{op} {size(n)}, ack", "us"), float(t) * 1e6, p["time_s"] * 1e6)
            continue
        add((order[op], n, 0 if how == "sync" else 1, f"{op} {size(n)}, C {how}", "us"), float(t) * 1e6,
            shm[(op, "", n)]["time_s"] * 1e6)

    for i, m in enumerate(rma_modes):
        for line in open(f"{tmp}/{r}.ref_rma.{m}"):
            n, t, osu = line.split()
            n = int(n)
            p = puts.get((n, m))
            if p is None:
                sys.exit(f"reference: round {r}: skampi has no Put {m} point at {n} B")
            add((7, n, 2 * i, f"Put {size(n)}, {m}", "us"), float(t) * 1e6, p["time_s"] * 1e6)
            add((7, n, 2 * i + 1, f"Put {size(n)}, {m}, C OSU-timed", "us"), float(osu) * 1e6, p["time_s"] * 1e6)
    # OpenSHMEM: each C mode beside the skampi value of the same sequence.
    shmem_rows = {  # mode: (order, label, skampi op, method, size or None (C's), field)
        "put_quiet": (8, "shmem put + quiet", "Shmem_Put", "", None, "full_s"),
        "put_post": (8, "shmem put, post (per call)", "Shmem_Put", "", None, "post_s"),
        "putnbi_quiet": (8, "shmem put_nbi + quiet", "Shmem_Put_Nbi", "", None, "full_s"),
        "get": (9, "shmem get (private)", "Shmem_Get", "", None, "time_s"),
        "get_sym": (9, "shmem get (symmetric, OSU)", "Shmem_Get_Symmetric", "", None, "time_s"),
        "quiet": (10, "shmem empty quiet", "Shmem_Quiet", "", 0, "time_s"),
        "add_quiet": (10, "shmem add + quiet", "Shmem_Atomic_Add_Long", "", 8, "time_s"),
        "add": (10, "shmem add: C none (OSU), skampi -quiet", "Shmem_Atomic_Add_Long", "quiet_subtracted", 8, "time_s"),
        "fetch_add": (10, "shmem fetch_add (OSU)", "Shmem_Atomic_Fetch_Add_Long", "", 8, "time_s"),
        "bcast_ack": (11, "shmem broadcast ack", "Shmem_Broadcast", "ack", None, "time_s"),
    }
    for mode in shmem_modes if shmem else []:
        order, label, op, method, at, field = shmem_rows[mode]
        for line in open(f"{tmp}/{r}.ref_shmem.{mode}"):
            n, t = line.split()
            n = int(n)
            if at is not None and n != 8:
                continue  # the sizeless rows once
            p = shm.get((op, method, n if at is None else at))
            if p is None or field not in p:
                sys.exit(f"reference: round {r}: skampi has no {op} {method} {field} at {n} B")
            what = label if at is not None else f"{label} {size(n)}"
            add((order, n, list(shmem_rows).index(mode), what, "us"), float(t) * 1e6, p[field] * 1e6)
    for k, prog in enumerate(named):
        for i, line in enumerate(open(f"{tmp}/{r}.{prog}")):
            name, t = line.split()
            p = by_name.get(name)
            if p is None:
                sys.exit(f"reference: round {r}: skampi has no measurement {name}")
            add((17 + k, i, 0, name, "us"), float(t) * 1e6, p["time_s"] * 1e6)
    for i, b in enumerate(busy_us):
        for j, pe in enumerate(busy_progress):
            for line in open(f"{tmp}/{r}.ref_busy.{b}.{pe}"):
                n, t = line.split()
                n = int(n)
                p = busy.get((n, int(b), int(pe)))
                if p is None:
                    sys.exit(f"reference: round {r}: skampi has no Put lock point at {n} B, target_busy {b} us, progress {pe}")
                poll = f"iprobe every {pe}" if pe != "0" else "no polling"
                add((16, n, 2 * i + j, f"Put {size(n)} lock, target busy {b} us, {poll}", "us"), float(t) * 1e6, p["time_s"] * 1e6)
    for i, m in enumerate(dt_modes):
        for line in open(f"{tmp}/{r}.ref_datatype.{m}"):
            n, lat = line.split()
            n = int(n)
            p = dts.get((m, n))
            if p is None:
                sys.exit(f"reference: round {r}: skampi has no Pingpong_Send_Recv {m} point at {n} B")
            add((14, n, i, f"ping-pong {size(n)}, {m} stride {p.get('stride')}", "us"), float(lat) * 1e6,
                p["latency_s"] * 1e6)
    halo_ops = {"twosided": "Halo_Twosided", "pscw": "Halo_Onesided_PSCW", "fence": "Halo_Onesided_Fence"}
    for i, m in enumerate(halo_modes):
        for j, us in enumerate(("0", halo_us)):
            for line in open(f"{tmp}/{r}.ref_halo.{m}.{us}"):
                n, t = line.split()
                n = int(n)
                p = next((d for d in pts_all if d["op"] == halo_ops[m] and d["msg_bytes"] == n and
                          abs(d.get("halo_compute_s", 0) - float(us) * 1e-6) < 1e-12), None)
                if p is None:
                    sys.exit(f"reference: round {r}: skampi has no {halo_ops[m]} point at {n} B, compute {us} us")
                add((12, i, n, j, f"{halo_ops[m]} {size(n)}, compute {us} us", "us"), float(t) * 1e6, p["time_s"] * 1e6)
    for nb, op in (("isend", "Isend"), ("irecv", "Irecv")):
        for line in lines(f"{r}.ref_overlap.{nb}"):
            _, n, full, post, ov, comp = line.split()
            n, p = int(n), point(op, int(n))
            if "full_s" not in p:
                sys.exit(f"reference: round {r}: skampi's {op} {n} B has no breakdown")
            base = 5 + (nb == "irecv")
            for i, (what, c, s) in enumerate((("full", full, p["full_s"]), ("post", post, p["post_s"]),
                                             ("post+spin+wait", ov, p["overlapped_s"] + p["compute_s"]),
                                             ("spin alone", comp, p["compute_s"]))):
                add((base, n, i, f"{op} {size(n)}, {what}", "us"), float(c) * 1e6, s * 1e6)

print()
print("every pair C/skampi, by round:")
for key in sorted(rows):
    label, unit = key[-2], key[-1]
    print(f"  {label:<40} {unit:<5} " + "  ".join(f"{c:.4g}/{s:.4g}" for c, s in rows[key]))
print()
print("ratio: the median over rounds of skampi's value / the C value of the same round")
print("(latency, time: > 1 means skampi reports more time; bandwidth: > 1 means skampi reports more bandwidth)")
print()
print(f"  {'row':<40} {'unit':<5} {'median C':>10} {'median skampi':>14} {'ratio':>7} {'best':>7} {'spread':>7}")
noisy = 0
for key in sorted(rows):
    label, unit = key[-2], key[-1]
    c = [p[0] for p in rows[key]]
    s = [p[1] for p in rows[key]]
    ratio = st.median(b / a for a, b in rows[key])
    best = max(s) / max(c) if unit == "MB/s" else min(s) / min(c)
    spread = max(max(c) / min(c), max(s) / min(s))
    noisy += spread > 1.10
    print(f"  {label:<40} {unit:<5} {st.median(c):>10.4g} {st.median(s):>14.4g} {ratio:>7.3f} {best:>7.3f} {'x%.2f' % spread:>7}")
print()
print("best: skampi's best round / C's best round (the least time, the most bandwidth): noise only adds time,")
print("      so on a busy machine this compares the programs rather than the moments they ran at")
print("spread: the largest max/min over the rounds of either program's values in the row")
if noisy:
    print(f"note: in {noisy} of {len(rows)} rows one program's rounds differ by more than 10 %; "
          "there the ratio is dominated by machine noise: raise RUNS (e.g. RUNS=15) or use a quiet machine")
PY
