#!/usr/bin/env bash
# make test-cluster: 4 "hosts" as network namespaces on a private bridge, links shaped
# with tc (200 Mbit/s, 64 KiB queues), Open MPI across them over TCP, skampi run there;
# everything torn down after, even when a step fails. Root only.
#   1. the run header lists the 4 hosts and their ranks
#   2. pair = "across-nodes" picks ranks on different hosts; its bandwidth is the link's
#   3. layout = "one-per-node" makes communicators of one rank per host
#   4. Alltoall_Ordered_Nodes runs on the node map
#   5. skampi clock check synchronises clocks across the hosts
# First, and alone with "scripts/test-cluster.sh updown" (no MPI, a few seconds), the
# checks of cluster.sh up/down themselves (updown_checks).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${SKAMPI_BIN:-$PWD/bin/skampi}
RATE_MBIT=200
[ "$(id -u)" = 0 ] || { echo "test-cluster: needs root (network namespaces)" >&2; exit 1; }

# leftovers prints what of a cluster exists: the bridge, namespaces, veths, state.
leftovers() {
	ip link show skbr0 >/dev/null 2>&1 && echo "bridge skbr0"
	ip netns list 2>/dev/null | awk '/^skh[0-9]+/ {print "namespace " $1}'
	ip -o link show 2>/dev/null | awk -F': ' '$2 ~ /^skv[0-9]+(@|$)/ {print "link " $2}'
	[ -e /run/skampi-cluster ] && echo "state /run/skampi-cluster"
	true
}

# updown_checks: up refuses a bad N or RATE before touching anything (a cluster that
# is up stays up), and an up that fails half way removes all it created.
updown_checks() {
	if [ -n "$(leftovers)" ]; then
		echo "test-cluster: a cluster is up already (scripts/cluster.sh down removes it):" >&2
		leftovers >&2
		exit 1
	fi
	local args rc
	for args in "0" "-1" "abc" "65" "1.5" "4 fast" "4 0mbit" "4 -5mbit" "4 200mbit extra"; do
		rc=0
		# shellcheck disable=SC2086 # the words are the arguments
		scripts/cluster.sh up $args >/dev/null 2>&1 || rc=$?
		if [ $rc != 2 ] || [ -n "$(leftovers)" ]; then
			echo "test-cluster: 'up $args' gave status $rc (want 2) and left: $(leftovers | tr '\n' ' ')" >&2
			scripts/cluster.sh down
			exit 1
		fi
	done
	scripts/cluster.sh up 2 1gbit >/dev/null
	rc=0
	scripts/cluster.sh up 0 >/dev/null 2>&1 || rc=$?
	if [ $rc != 2 ] || ! ip netns list | grep -q '^skh2'; then
		echo "test-cluster: 'up 0' with a cluster up gave status $rc, and took it down" >&2
		scripts/cluster.sh down
		exit 1
	fi
	scripts/cluster.sh down
	# A step fails half way: skv2 is taken, so host 2's link cannot be made.
	ip link add skv2 type veth peer name sktest2
	rc=0
	scripts/cluster.sh up 3 100mbit >/dev/null 2>&1 || rc=$?
	local left; left=$(leftovers | grep -vx 'link skv2' || true)
	ip link del skv2 2>/dev/null || true
	if [ $rc != 1 ] || [ -n "$left" ]; then
		echo "test-cluster: a failed up gave status $rc (want 1) and left: $(echo "$left" | tr '\n' ' ')" >&2
		scripts/cluster.sh down
		exit 1
	fi
	echo "test-cluster: up/down: bad N and RATE refused untouched, a failed up removes all it made"
}

updown_checks
[ "${1:-}" = updown ] && exit 0
[ -x "$BIN" ] || { echo "test-cluster: $BIN is missing (make build)" >&2; exit 1; }
work=$(mktemp -d /tmp/skampi-cluster.XXXXXX)
cleanup() {
	local rc=$?
	scripts/cluster.sh down || true
	if [ $rc != 0 ]; then
		echo "test-cluster: FAILED" >&2
		tail -n 30 "$work"/*.out >&2 2>/dev/null || true
	fi
	rm -rf "$work"
	exit $rc
}
trap cleanup EXIT
scripts/cluster.sh up 4 "${RATE_MBIT}mbit"

cat > "$work/suite.toml" <<SUITE
[settings]
min_repetitions = 8
max_repetitions = 30
max_relative_stderr = 0.05
hang_timeout = "120s"

[[measurement]]
name = "across"
op = "Pingpong_Send_Recv"
sizes = [1, 1024]
pair = "across-nodes"

[[measurement]]
name = "across bandwidth"
op = "Bandwidth_Isend_Irecv"
sizes = ["1MiB"]
window = 8
pair = "across-nodes"

[[measurement]]
name = "one per node"
op = "Bcast"
sizes = [1024]
procs = [4]
layout = "one-per-node"

[[measurement]]
name = "node-aware"
op = "Alltoall_Ordered_Nodes"
sizes = [1024]
SUITE

echo "test-cluster: skampi on 4 hosts x 2 ranks"
timeout 600 scripts/cluster.sh mpirun -np 8 "$BIN" -i "$work/suite.toml" -o "$work/r" >"$work/run.out" 2>&1
python3 - "$work/r/results.jsonl" "$RATE_MBIT" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
rate = float(sys.argv[2]) * 1e6 / 8
run = [r for r in recs if r["kind"] == "run"][0]
pts = {(p["measurement"], p["msg_bytes"]): p for p in recs if p["kind"] == "point"}
faults = [r for r in recs if r["kind"] == "fault"]
assert not faults, faults
assert run["hosts"] == ["skh1", "skh2", "skh3", "skh4"], run["hosts"]
assert run["ranks_per_host"] == {"skh1": 2, "skh2": 2, "skh3": 2, "skh4": 2}, run["ranks_per_host"]
host = run["rank_hosts"]
pp = pts[("across", 1)]
assert host[pp["ranks"][0]] != host[pp["ranks"][1]], pp["ranks"]
bw = pts[("across bandwidth", 1 << 20)]["bandwidth_Bps"]
assert 0.6 * rate < bw < 1.05 * rate, (bw, rate)
one = pts[("one per node", 1024)]
assert sorted(host[r] for r in one["ranks"]) == run["hosts"], one["ranks"]
assert ("node-aware", 1024) in pts
print(f"test-cluster:   hosts {run['hosts']}; across-nodes pair {pp['ranks']}, 1 B round trip {pp['time_s']*1e6:.0f} us,"
      f" bandwidth {bw/1e6:.1f} MB/s of a {rate/1e6:.1f} MB/s link; one-per-node ranks {one['ranks']}")
PY

echo "test-cluster: clock check across the hosts"
timeout 300 scripts/cluster.sh mpirun -np 8 "$BIN" clock check --duration 3s -o "$work/c" >"$work/clock.out" 2>&1
grep -q "synchronisation of 8 processes on 4 host(s)" "$work/clock.out" || { cat "$work/clock.out" >&2; exit 1; }
python3 - "$work/c/clock.jsonl" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
run = [r for r in recs if r["kind"] == "run"][0]
assert len(run["hosts"]) == 4, run["hosts"]
checks = [r for r in recs if r["kind"] != "run"]
assert checks, "no clock checks"
print(f"test-cluster:   {len(checks)} clock records from {len(run['hosts'])} hosts")
PY
echo "test-cluster: a tune across the hosts (--launcher)"
cat > "$work/tune.toml" <<TUNE
np = [8]
repeats = 2
[settings]
min_repetitions = 4
max_repetitions = 8
hang_timeout = "120s"
[[measurement]]
name = "ordered"
op = "Alltoall_Ordered"
sizes = [4096]
[[measurement]]
name = "native (control)"
op = "Alltoall"
sizes = [4096]
[suite_settings]
barrier_above = [0, "never"]
TUNE
timeout 600 "$BIN" tune -i "$work/tune.toml" -o "$work/t" --launcher "$PWD/scripts/cluster.sh mpirun -np {np}" >"$work/tune.out" 2>&1
grep -qE "^recommendation( for every size)?: " "$work/tune.out" || { cat "$work/tune.out" >&2; exit 1; }
python3 - "$work/t" <<'PY'
import glob, json, sys
files = glob.glob(sys.argv[1] + "/*/rep*/results.jsonl")
assert len(files) == 4, files
for f in files:
    run = json.loads(open(f).readline())
    assert run["hosts"] == ["skh1", "skh2", "skh3", "skh4"] and run["nprocs"] == 8, (f, run["hosts"])
print(f"test-cluster:   {len(files)} launches of the tune, each on the 4 hosts")
PY
echo "test-cluster: ok"
