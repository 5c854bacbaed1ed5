#!/usr/bin/env bash
# skampi's collective method osu beside OSU's own osu_allreduce, osu_bcast and
# osu_alltoall, built from OSU's public sources (OSU=DIR: the build's
# c/mpi/collective/blocking, or wherever the three binaries are), interleaved: each of
# RUNS rounds runs, per operation and size, OSU's binary and then skampi's point. Prints
# every round's µs per call and, per row, the median of the per-round ratios
# skampi/OSU. Both time one call at a time after a barrier and average the ranks' means
# (skampi's time_s is the middle-half mean over repetitions, OSU's the plain mean over
# its 1000 iterations; both MPI_CHAR, OSU's default). See bench/README.md.
#
# Environment: OSU (required) the directory of the OSU binaries; RUNS (5); NP (2);
# SIZES (8,1024,65536: powers of two, OSU's -m takes a range); SKAMPI (bin/skampi).
set -euo pipefail
die() { echo "osu_coll: $*" >&2; exit 1; }
cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." || die "cannot cd to the repository root"
: "${OSU:?set OSU to the directory of osu_allreduce, osu_bcast and osu_alltoall}"
RUNS=${RUNS:-5} NP=${NP:-2} SIZES=${SIZES:-8,1024,65536} SKAMPI=${SKAMPI:-bin/skampi}
[[ $RUNS =~ ^[0-9]+$ ]] && ((RUNS >= 1)) || die "RUNS must be a positive integer, got '$RUNS'"
for b in osu_allreduce osu_bcast osu_alltoall; do [[ -x $OSU/$b ]] || die "$OSU/$b not found"; done
[[ -x $SKAMPI ]] || die "$SKAMPI not found: run \`make build\`"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun_flags=(-np "$NP")
if mpirun --version 2>&1 | grep -q "Open MPI"; then mpirun_flags+=(--oversubscribe); fi
declare -A skname=([allreduce]=Allreduce [bcast]=Bcast [alltoall]=Alltoall)
for r in $(seq 1 "$RUNS"); do
	for op in allreduce bcast alltoall; do
		for s in ${SIZES//,/ }; do
			# One OSU size (-m a:b measures the powers of two from a to b), then skampi's
			# same point right after it: this machine's speed moves between periods of a
			# few seconds, so each ratio compares neighbours in time.
			mpirun "${mpirun_flags[@]}" "$OSU/osu_$op" -m "$s:$s" |
				awk -v op="$op" -v r="$r" -v s="$s" '$1 == s { print r, "osu", op, s, $2 }' >>"$tmp/rows"
			out="$tmp/sk-$r-$op-$s"
			"$SKAMPI" run "${skname[$op]}" --sizes "$s" --method osu --datatype char --np "$NP" -o "$out" >/dev/null
			python3 - "$out/results.jsonl" "$r" >>"$tmp/rows" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    p = json.loads(line)
    if p.get("kind") == "point" and p.get("reps", 0) > 0:
        print(sys.argv[2], "skampi", p["op"].lower(), p["msg_bytes"], p["time_s"] * 1e6)
PY
		done
	done
done
python3 - "$tmp/rows" <<'PY'
import collections, statistics, sys
v = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    r, who, op, size, us = line.split()
    v[(op, int(size))].setdefault(who, {})[r] = float(us)
print(f"{'op':10} {'bytes':>7}  {'OSU µs (per round)':40} {'skampi µs (per round)':40} skampi/OSU")
for (op, size), w in sorted(v.items()):
    o, s = w.get("osu", {}), w.get("skampi", {})
    ratios = [s[r] / o[r] for r in o if r in s and o[r] > 0]
    fmt = lambda d: " ".join(f"{d[k]:.3f}" for k in sorted(d, key=int))
    med = f"{statistics.median(ratios):.3f}" if ratios else "-"
    print(f"{op:10} {size:7d}  {fmt(o):40} {fmt(s):40} {med}")
PY
