"""The summary of bench/reference.sh: every pair C/skampi by round, and per row the median
of the per-round ratios skampi/C. Arguments: TMP RUNS SHMEM RMA_MODES ONLY SHMEM_MODES
SYNC_MODES HALO_MODES HALO_COMPUTE_US DT_MODES BUSY_US BUSY_PROGRESS MT_THREADS IO_IMB_WINDOWS
MT_FAN_THREADS (as reference.sh passes them); the C programs' outputs and skampi's results are in TMP."""
import json, statistics as st, sys
tmp, runs, shmem, rma_modes, only = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4].split(), sys.argv[5]
shmem_modes = sys.argv[6].split()
if only not in ("all", "rma"):
    rma_modes = []
# Programs whose lines are "MEASUREMENT TIME_S": each beside the skampi point of that
# measurement name (one size each).
named = [f"ref_sync.{m}" for m in sys.argv[7].split()] if only in ("all", "sync") else []
named += ["ref_io"] if only in ("all", "io") else []  # the collective write, by measurement name
# IMB-IO's sequence, one file per window (its lines name skampi's measurements too)
io_windows = sys.argv[14].split() if len(sys.argv) > 14 else []
named += [f"ref_io.imb.{w}" for w in io_windows] if only in ("all", "io") else []
halo_modes, halo_us = sys.argv[8].split(), sys.argv[9]
if only not in ("all", "halo"):
    halo_modes = []
dt_modes = sys.argv[10].split() if only in ("all", "datatype") else []
busy_us, busy_progress = sys.argv[11].split(), sys.argv[12].split()
if only not in ("all", "busy"):
    busy_us = []
mt_threads = sys.argv[13].split() if len(sys.argv) > 13 and only in ("all", "mt") else []
mt_fan = sys.argv[15].split() if len(sys.argv) > 15 and only in ("all", "mt") else []
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
    with open(f"{tmp}/{r}.skampi/results.jsonl" if only != "mt" else "/dev/null") as f:
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
    if mt_threads or mt_fan:  # skampi's run of its own, under MPI_THREAD_MULTIPLE
        mts = {}
        with open(f"{tmp}/{r}.mt.skampi/results.jsonl") as f:
            for line in f:
                d = json.loads(line) if line.strip() else {}
                if d.get("kind") == "point":
                    mts[(d["op"], d["threads"], d["msg_bytes"])] = d
        # ref_mt beside the thread pairs, ref_mt_1ton (one sender, N receivers) beside 1:N.
        for prog, op, ts, what in (("ref_mt", "Pingpong_Send_Recv_MT", mt_threads, "mt ping-pong {n}, {t} threads"),
                                   ("ref_mt_1ton", "Pingpong_Send_Recv_MT_1toN", mt_fan, "mt 1:{t} ping-pong {n}")):
            for t in ts:
                for line in open(f"{tmp}/{r}.{prog}.{t}"):
                    th, n, lat = line.split()
                    p = mts.get((op, int(th), int(n)))
                    if p is None:
                        sys.exit(f"reference: round {r}: skampi has no {op} point at {n} B, {th} threads")
                    add((15, int(th), int(n), what.format(n=size(int(n)), t=th) + ", one-way", "us"), float(lat) * 1e6,
                        p["latency_s"] * 1e6)
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
    if only in ("all", "mpi4"):
        for line in open(f"{tmp}/{r}.ref_mpi4"):
            op, n, _, t = line.split()
            n = int(n)
            add((25, op, n, f"{op} {size(n)}", "us"), float(t) * 1e6, point(op, n)["time_s"] * 1e6)  # after the named rows (17 + k)
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
