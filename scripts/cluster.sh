#!/usr/bin/env bash
# A cluster on one machine: N "hosts" as network namespaces (skh1..skhN) on a private
# bridge (10.77.0.0/24), each link shaped with tc, and Open MPI between them over TCP.
#   scripts/cluster.sh up [N] [RATE]   create (default 4 hosts, 200mbit; N from 1 to 64, RATE a
#                                      tc rate); a failed up removes all it made
#   scripts/cluster.sh down            remove everything it created
#   scripts/cluster.sh mpirun ARGS...  mpirun across the hosts (2 slots each)
# Root only; only the namespaces' own addresses are used. mpirun reaches a host through
# scripts/netns-agent (its plm_rsh_agent), which enters the namespace instead of ssh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
BR=skbr0
NET=10.77.0
state=/run/skampi-cluster
cmd=${1:-}
shift || true

# MAX_HOSTS bounds N: a namespace, a veth pair and two shaped queues each, and two
# slots each in the hostfile; addresses NET.11 up to NET.(10+N) stay in the /24.
MAX_HOSTS=64

# valid_hosts N: a whole number of hosts from 1 to MAX_HOSTS.
valid_hosts() {
	[[ $1 =~ ^[0-9]{1,3}$ ]] && (( 10#$1 >= 1 && 10#$1 <= MAX_HOSTS ))
}

# valid_rate RATE: a positive tc rate, a number and one of tc's units (none: bit/s).
valid_rate() {
	[[ $1 =~ ^([0-9]+(\.[0-9]*)?|\.[0-9]+)(bit|[kmgt]bit|[kmgt]ibit|bps|[kmgt]bps|[kmgt]ibps)?$ ]] &&
		awk -v r="${BASH_REMATCH[1]}" 'BEGIN { exit !(r + 0 > 0) }'
}

up() {
	[ $# -le 2 ] || { echo "cluster: up takes at most N and RATE, got $#: $*" >&2; exit 2; }
	local n=${1:-4} rate=${2:-200mbit}
	# Checked before anything is touched: a mistake never tears down a cluster that is up.
	valid_hosts "$n" || { echo "cluster: up: N must be a whole number of hosts from 1 to $MAX_HOSTS, got '$n'" >&2; exit 2; }
	valid_rate "$rate" || { echo "cluster: up: RATE must be a positive tc rate such as 200mbit, 1gbit or 500kbit, got '$rate'" >&2; exit 2; }
	n=$((10#$n))
	[ "$(id -u)" = 0 ] || { echo "cluster: needs root (network namespaces)" >&2; exit 1; }
	command -v ip >/dev/null && command -v tc >/dev/null || {
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iproute2 >/dev/null; }
	down 2>/dev/null || true
	# From here everything up creates is the cluster's: whatever step fails (or a
	# signal), down removes all of it, so a failed up leaves nothing behind.
	trap 'up_failed' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	mkdir -p "$state"
	echo "$n" > "$state/hosts"
	ip link add "$BR" type bridge
	ip addr add "$NET.1/24" dev "$BR" # mpirun's daemon, in the root namespace, is reached here
	ip link set "$BR" up
	: > "$state/hostfile"
	for i in $(seq 1 "$n"); do
		local ns=skh$i addr=$NET.$((10 + i))
		ip netns add "$ns"
		ip link add "skv$i" type veth peer name eth0 netns "$ns"
		ip link set "skv$i" master "$BR" up
		ip -n "$ns" addr add "$addr/24" dev eth0
		ip -n "$ns" link set eth0 up
		ip -n "$ns" link set lo up
		# Shaped both ways, a queue of 64 KiB: the host's link, not the CPU, is the
		# bottleneck, and many senders to one host fill its queue as a switch port's.
		ip netns exec "$ns" tc qdisc add dev eth0 root tbf rate "$rate" burst 32kb limit 64kb
		tc qdisc add dev "skv$i" root tbf rate "$rate" burst 32kb limit 64kb
		echo "$addr slots=2" >> "$state/hostfile"
	done
	trap - EXIT INT TERM
	echo "cluster: $n hosts (skh1..skh$n, $NET.11..$NET.$((10 + n))), links shaped to $rate"
}

# up_failed: up ended before the cluster was whole; take down what it made.
up_failed() {
	local rc=$?
	trap - EXIT INT TERM
	echo "cluster: up failed (status $rc): removing what it created" >&2
	down 2>/dev/null || true
	[ "$rc" -ge 128 ] || rc=1 # a failed step is 1; 2 stays a usage mistake's
	exit "$rc"
}

down() {
	if [ -f "$state/hosts" ]; then
		for i in $(seq 1 "$(cat "$state/hosts")"); do
			ip netns pids "skh$i" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
			ip netns del "skh$i" 2>/dev/null || true
			ip link del "skv$i" 2>/dev/null || true
		done
	fi
	# Also what a state file does not list (an up that failed before writing it).
	for ns in $(ip netns list 2>/dev/null | awk '/^skh[0-9]+/ {print $1}'); do
		ip netns pids "$ns" | xargs -r kill -9 2>/dev/null || true
		ip netns del "$ns"
	done
	ip link del "$BR" 2>/dev/null || true
	rm -rf "$state"
}

run_mpirun() {
	[ -f "$state/hostfile" ] || { echo "cluster: not up (scripts/cluster.sh up)" >&2; exit 1; }
	local n; n=$(cat "$state/hosts")
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 exec mpirun.openmpi \
		--hostfile "$state/hostfile" --mca plm_rsh_agent "$here/netns-agent" \
		--mca oob_tcp_if_include "$NET.0/24" --mca btl_tcp_if_include "$NET.0/24" \
		--mca pml ob1 --mca btl tcp,self --bind-to none --mca mpi_yield_when_idle 1 \
		-x UCX_ERROR_SIGNALS= -x OMPI_MCA_osc=ucx "$@"
}

case "$cmd" in
up) up "$@" ;;
down) down ;;
mpirun) run_mpirun "$@" ;;
*) echo "usage: $0 up [N] [RATE] | down | mpirun ARGS..." >&2; exit 2 ;;
esac
