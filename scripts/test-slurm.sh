#!/usr/bin/env bash
# make test-slurm: a single-node Slurm from Debian's packages (munge, slurmctld, slurmd
# on this host), skampi run through it three ways, then everything torn down, even
# when a step fails. Root only (it starts daemons); uses a private config directory
# (SLURM_CONF) and touches nothing of an installed Slurm's.
#   1. srun --mpi=pmix -n 2 skampi       the ranks are srun's
#   2. sbatch -n 2 (a script calling skampi without srun): the self-launch starts the
#      allocation's 2 tasks
#   3. plain srun -n 2 skampi            one line saying to use --mpi=pmix, exit 1
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${SKAMPI_BIN:-$PWD/bin/skampi}
[ "$(id -u)" = 0 ] || { echo "test-slurm: needs root (it starts munged, slurmctld, slurmd)" >&2; exit 1; }
[ -x "$BIN" ] || { echo "test-slurm: $BIN is missing (make build)" >&2; exit 1; }

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
	echo "test-slurm: installing Slurm and munge..."
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi

work=$(mktemp -d /tmp/skampi-slurm.XXXXXX)
chmod 755 "$work"
host=$(hostname -s)
cores=$(nproc)
pids=()
cleanup() {
	local rc=$?
	scancel --full --quiet --user=root 2>/dev/null || true
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	sleep 1
	for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
	if [ $rc != 0 ]; then
		echo "test-slurm: FAILED; daemon logs:" >&2
		tail -n 20 "$work"/*.log "$work"/munge/*.log "$work"/*.out >&2 2>/dev/null || true
	fi
	rm -rf "$work"
	exit $rc
}
trap cleanup EXIT

export SLURM_CONF=$work/slurm.conf
cat > "$SLURM_CONF" <<CONF
ClusterName=skampi-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
StateSaveLocation=$work/ctld
SlurmdSpoolDir=$work/d
SlurmctldPidFile=$work/ctld.pid
SlurmdPidFile=$work/d.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cores State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
mkdir -p "$work/ctld" "$work/d" "$work/munge"
chown munge: "$work/munge"

# munge: its own socket in the work directory, so an installed munged is left alone.
sock=$work/munge/munge.socket
runuser -u munge -- /usr/sbin/munged --socket="$sock" --pid-file="$work/munge/munged.pid" \
	--log-file="$work/munge/munge.log" --seed-file="$work/munge/seed" --force
pids+=("$(cat "$work/munge/munged.pid")")
# Slurm's auth/munge plugin takes the socket from AuthInfo.
sed -i "s|^AuthType=auth/munge|AuthType=auth/munge\nAuthInfo=socket=$sock|" "$SLURM_CONF"

slurmctld -D -f "$SLURM_CONF" >"$work/ctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$work/d.out" 2>&1 &
pids+=($!)
for i in $(seq 60); do
	state=$(sinfo -h -N -o %t 2>/dev/null || true)
	[ "$state" = idle ] && break
	sleep 1
done
[ "$state" = idle ] || { echo "test-slurm: the node never became idle (state '$state')" >&2; exit 1; }
echo "test-slurm: Slurm $(sinfo --version | cut -d' ' -f2) up on $host ($cores CPUs)"

# skampi's results must name the job and hold every point of the quick suite.
check() { # DIR JOB_ID
	python3 - "$1" "$2" <<'PY'
import json, sys
d, job = sys.argv[1], sys.argv[2]
recs = [json.loads(l) for l in open(d + "/results.jsonl")]
runs = [r for r in recs if r["kind"] == "run"]
pts = [r for r in recs if r["kind"] == "point"]
faults = [r for r in recs if r["kind"] == "fault"]
assert len(runs) == 1 and runs[0]["nprocs"] == 2, runs
assert runs[0]["env"].get("SLURM_JOB_ID") == job, runs[0]["env"]
assert len(pts) == runs[0]["points"] and not faults, (len(pts), runs[0]["points"], faults)
print(f"test-slurm:   {len(pts)} points, job {job} in the run header")
PY
}

echo "test-slurm: 1. srun --mpi=pmix -n 2"
out=$work/srun
srun --mpi=pmix -n 2 --job-name=skampi-srun "$BIN" -i quick -o "$out" >"$work/srun.out"
check "$out" "$(python3 -c "import json;print(json.loads(open('$out/results.jsonl').readline())['env']['SLURM_JOB_ID'])")"

echo "test-slurm: 2. sbatch -n 2, skampi without srun"
cat > "$work/job.sh" <<JOB
#!/bin/bash
#SBATCH -n 2
#SBATCH -o $work/batch.out
"$BIN" -i quick -o "$work/batch"
JOB
job=$(sbatch --parsable "$work/job.sh")
for i in $(seq 180); do
	[ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
	sleep 1
done
grep -q "inside Slurm job $job: starting its 2 tasks" "$work/batch.out" || { cat "$work/batch.out" >&2; exit 1; }
check "$work/batch" "$job"

echo "test-slurm: 3. plain srun -n 2 (no PMI)"
set +e
srun -n 2 "$BIN" -i quick >"$work/nopmi.out" 2>"$work/nopmi.err"
rc=$?
set -e
if [ $rc = 0 ] || ! grep -q 'use `srun --mpi=pmix`' "$work/nopmi.err" || [ "$(grep -c . "$work/nopmi.err")" -gt 2 ]; then
	echo "test-slurm: plain srun: exit $rc" >&2; cat "$work/nopmi.err" >&2; exit 1
fi
echo "test-slurm:   exit $rc: $(head -1 "$work/nopmi.err")"
echo "test-slurm: ok"
