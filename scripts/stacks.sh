#!/usr/bin/env bash
# make test-stacks: every built-in suite on four MPI stacks, one line per stack, suite and
# process count. Why: skampi is developed against Debian 12's Open MPI 4.1.4 and MPICH 4.0;
# a second release of each library (Debian 13's Open MPI 5.0.7 with PRRTE, OpenSHMEM and
# UCX 1.18, and MPICH 4.2.1) finds what only works by the grace of one version.
#
#   scripts/stacks.sh                          all stacks, all suites, --np 2 and 4
#   STACKS=trixie-openmpi SUITES=locks NPS=4 scripts/stacks.sh
#
# Stacks: host-openmpi (bin/skampi), host-mpich (bin/skampi-mpich), trixie-openmpi and
# trixie-mpich (bin/trixie/skampi, bin/trixie/skampi-mpich, built and run in a Debian 13
# chroot). Settings (environment):
#   STACKS, SUITES, NPS   what to run (SUITES default: `skampi list --suites` of each stack)
#   OUT                   results and logs, one directory per line (default /tmp/skampi-stacks)
#   SUITE_TIMEOUT         seconds one suite may run before `timeout` ends it (default 900)
#                         tune-coll is a line of its own (not a suite): skampi tune
#                         --collectives Bcast --segment-sizes 0,16KiB, passing when the library's rules file is
#                         written and its A/B finds it in effect in every run with it
#   SMOKE=1               run the suites with --smoke: every point, two repetitions each (a
#                         check that it runs; where ranks poll on too few cores, minutes
#                         instead of hours)
#   REPEAT=N              run each line N times (the never-hang loop of bench/stress.sh on
#                         every stack, --max-restarts 0): the line counts the runs that timed
#                         out, crashed or failed otherwise, and keeps only their output
#   STACKS_CACHE          where the Debian 13 root is kept between runs (default /var/cache/skampi)
#   DEBIAN_MIRROR         default http://deb.debian.org/debian
# OMPI_MCA_*, PRTE_*, PMIX_MCA_*, UCX_* and MPIR_CVAR_* set by the caller reach every run
# (a diagnostic such as OMPI_MCA_osc=rdma); nothing else of the caller's environment does,
# so the host and the chroot run the same way.
#
# A line fails when skampi's exit status is not 0 or a fault other than `denied` (the
# deny-list's, on purpose) was recorded. Exit status: 0 when every line passed, 1 otherwise.
# Needs root (debootstrap, chroot, mounts); the root takes about 1 GB in STACKS_CACHE.
# Remove it with: rm -rf --one-file-system "$STACKS_CACHE"/trixie-* (with no run going).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd -P)
export PATH="$PATH:/usr/local/go/bin"

STACKS=${STACKS:-host-openmpi host-mpich trixie-openmpi trixie-mpich}
SUITES=${SUITES:-}
NPS=${NPS:-2 4}
OUT=${OUT:-/tmp/skampi-stacks}
SUITE_TIMEOUT=${SUITE_TIMEOUT:-900}
smoke=()
[ "${SMOKE:-}" = 1 ] && smoke=(--smoke)
REPEAT=${REPEAT:-1}
case $REPEAT in '' | *[!0-9]* | 0) echo "stacks.sh: REPEAT must be a positive count, not '$REPEAT'" >&2; exit 2 ;; esac
# A stress loop must see a hang as a hang: no restart hides it.
loopflags=()
[ "$REPEAT" -gt 1 ] && loopflags=(--max-restarts 0)
CACHE=${STACKS_CACHE:-/var/cache/skampi}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
RELEASE=trixie
# libc6-dev comes with gcc; named so that a change of the list is a new root.
PACKAGES="libopenmpi-dev openmpi-bin mpich libmpich-dev gcc libc6-dev pkg-config make"

if [ "$(id -u)" != 0 ]; then
	echo "stacks.sh: needs root (debootstrap, chroot, bind mounts)" >&2
	exit 1
fi
for tool in debootstrap chroot timeout flock findmnt; do
	command -v "$tool" >/dev/null || { echo "stacks.sh: $tool missing (apt-get install debootstrap util-linux coreutils)" >&2; exit 1; }
done

# The root is keyed by what went into it: another release, mirror or package list is
# another directory, never a root half of one and half of the other. It is built under
# NAME.partial and renamed only once complete, so an interrupted build is never taken for
# a finished one (the .partial is thrown away by the next run).
key=$(printf '%s\n' "$RELEASE" minbase "$MIRROR" "$PACKAGES" | sha256sum | cut -c1-12)
ROOT=$CACHE/$RELEASE-$key
mkdir -p "$CACHE" "$OUT"

# One run at a time per cache: a second run's stale-mount cleanup would pull the mounts
# from under the first.
exec 9>"$CACHE/.lock"
if ! flock -n 9; then
	echo "stacks.sh: another run holds $CACHE/.lock; waiting for it..." >&2
	flock 9
fi

# Every mount this script makes is listed in $CACHE/.mounts as it is made; unmount_all
# takes them down, last first (each with what lies under it). It runs at the start (a run
# killed with SIGKILL leaves its mounts, and its list) and on every exit. Mounts that
# someone made by hand in the root are left alone.
MOUNTS=$CACHE/.mounts
bind() { # bind [--ro|--rbind] SRC DST
	local how=$1
	shift
	echo "$2" >>"$MOUNTS"
	case $how in
	--rbind) mount --rbind "$1" "$2" && mount --make-rslave "$2" ;;
	--ro) mount --bind "$1" "$2" && mount -o remount,bind,ro "$2" ;;
	*) mount --bind "$1" "$2" ;;
	esac
}
unmount_all() {
	local m
	[ -f "$MOUNTS" ] || return 0
	for m in $(tac "$MOUNTS"); do
		if findmnt -rn -o TARGET | grep -qxF "$m"; then
			umount -R "$m" 2>/dev/null || umount -R -l "$m" 2>/dev/null || echo "stacks.sh: cannot unmount $m" >&2
		fi
	done
	: >"$MOUNTS"
}
# A directory is only ever deleted with nothing mounted in it (a bound /dev would go too).
remove_root() {
	unmount_all
	if findmnt -rn -o TARGET | grep -q "^$1/"; then
		echo "stacks.sh: $1 still has mounts (findmnt | grep $1); not removing it" >&2
		return 1
	fi
	rm -rf --one-file-system "$1"
}
# A suite runs under `timeout` in a process group of its own, which a Ctrl-C at the
# terminal does not reach: a signal to this script is passed on to it (timeout passes it to
# skampi and the ranks), then the mounts go.
tpid=
on_signal() {
	if [ -n "$tpid" ]; then
		kill -TERM "$tpid" 2>/dev/null || true
		wait "$tpid" 2>/dev/null || true
	fi
	exit "$1"
}
trap unmount_all EXIT
trap 'on_signal 130' INT
trap 'on_signal 143' TERM
unmount_all

# The chroot's view of the host: /proc, /sys and /dev (UCX reads the boot id, the ranks
# share memory in /dev/shm), the Go toolchain and the module cache read-only (the chroot
# has no network for Go: GOPROXY=off), the repository (the binaries are written to
# bin/trixie/) and OUT.
GOROOT_HOST=$(go env GOROOT)
GOMODCACHE_HOST=$(go env GOMODCACHE)
mount_root() {
	local r=$1 m
	for m in proc sys dev; do
		bind --rbind "/$m" "$r/$m"
	done
	mkdir -p "$r/usr/local/go" "$r/root/go/pkg/mod" "$r/src" "$r/out"
	bind --ro "$GOROOT_HOST" "$r/usr/local/go"
	bind --ro "$GOMODCACHE_HOST" "$r/root/go/pkg/mod"
	bind --rw "$REPO" "$r/src"
	bind --rw "$OUT" "$r/out"
}

# A command in the chroot, with a clean environment: Go's toolchain and module cache, a
# build cache of the chroot's own (objects built against trixie's headers never meet the
# host's), no module downloads.
in_root() {
	chroot "$ROOT" /usr/bin/env -i PATH=/usr/local/go/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		GOMODCACHE=/root/go/pkg/mod GOCACHE=/root/.cache/go-build GOPROXY=off GOFLAGS=-mod=mod \
		GOTOOLCHAIN=local "$@"
}

now() { date +%s; }

needs_trixie=false
case " $STACKS " in *" trixie-"*) needs_trixie=true ;; esac

if $needs_trixie && [ ! -f "$ROOT/.skampi-root-complete" ]; then
	[ -f /usr/share/debootstrap/scripts/$RELEASE ] || {
		echo "stacks.sh: this debootstrap knows no $RELEASE (/usr/share/debootstrap/scripts/$RELEASE): apt-get install debootstrap from a newer release" >&2
		exit 1
	}
	[ ! -e "$ROOT" ] || remove_root "$ROOT"
	remove_root "$ROOT.partial"
	t=$(now)
	echo "debootstrap $RELEASE into $ROOT.partial (a few minutes)..." >&2
	debootstrap --variant=minbase "$RELEASE" "$ROOT.partial" "$MIRROR" >"$OUT/debootstrap.log" 2>&1 ||
		{ echo "stacks.sh: debootstrap failed: $OUT/debootstrap.log" >&2; tail -5 "$OUT/debootstrap.log" >&2; exit 1; }
	echo "debootstrap: $(($(now) - t)) s" >&2
	t=$(now)
	for m in proc sys dev; do
		bind --rbind "/$m" "$ROOT.partial/$m"
	done
	# Recommends left out: they bring documentation and Fortran, not what a build needs.
	chroot "$ROOT.partial" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
		sh -c "apt-get update -qq && apt-get install -y -qq --no-install-recommends $PACKAGES && apt-get clean" \
		>"$OUT/apt.log" 2>&1 ||
		{ echo "stacks.sh: apt-get in the chroot failed: $OUT/apt.log" >&2; tail -5 "$OUT/apt.log" >&2; exit 1; }
	unmount_all
	echo "apt-get in the chroot: $(($(now) - t)) s" >&2
	printf '%s\n' "$RELEASE" "$MIRROR" "$PACKAGES" >"$ROOT.partial/.skampi-root-complete"
	mv "$ROOT.partial" "$ROOT"
fi

# The binaries, each stack's own, stamped with the host's version and commit (the chroot
# has no git).
version=$(scripts/version.sh version)
commit=$(scripts/version.sh commit)
declare -A BIN
BIN[host-openmpi]=bin/skampi
BIN[host-mpich]=bin/skampi-mpich
BIN[trixie-openmpi]=bin/trixie/skampi
BIN[trixie-mpich]=bin/trixie/skampi-mpich
declare -A MPIOF
MPIOF[host-openmpi]=openmpi
MPIOF[host-mpich]=mpich
MPIOF[trixie-openmpi]=openmpi
MPIOF[trixie-mpich]=mpich

if $needs_trixie; then
	mount_root "$ROOT"
	go mod download # the chroot builds from this module cache only
fi
for stack in $STACKS; do
	[ -n "${BIN[$stack]:-}" ] || { echo "stacks.sh: unknown stack $stack (host-openmpi host-mpich trixie-openmpi trixie-mpich)" >&2; exit 2; }
	t=$(now)
	case $stack in
	host-*) make --no-print-directory build MPI="${MPIOF[$stack]}" >"$OUT/build-$stack.log" 2>&1 ;;
	trixie-*) in_root make -C /src --no-print-directory build MPI="${MPIOF[$stack]}" BIN="${BIN[$stack]}" \
		VERSION="$version" COMMIT="$commit" >"$OUT/build-$stack.log" 2>&1 ;;
	esac || { echo "stacks.sh: build for $stack failed: $OUT/build-$stack.log" >&2; tail -5 "$OUT/build-$stack.log" >&2; exit 1; }
	echo "build $stack: $(($(now) - t)) s" >&2
done

# What the caller may pass to every run (diagnostics), and the rest of a clean environment.
passenv=()
while IFS= read -r kv; do passenv+=("$kv"); done < <(env | grep -E '^(OMPI_MCA_|PRTE_|PMIX_MCA_|UCX_|MPIR_CVAR_)' || true)

# skampi in a stack, as a command line in the array argv (so `timeout` can run it): on
# the host from the repository, in the chroot from /src; results under OUT (/out in the
# chroot).
stack_argv() {
	local stack=$1
	shift
	case $stack in
	host-*) argv=(env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$HOME" "${passenv[@]}" "$REPO/${BIN[$stack]}" "$@") ;;
	trixie-*) argv=(chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "${passenv[@]}" "/src/${BIN[$stack]}" "$@") ;;
	esac
}

passed=0 failed=0
failures=()
printf '%-15s %-17s %3s %5s %7s %-30s %6s %s\n' stack suite np exit points faults secs result
for stack in $STACKS; do
	suites=$SUITES
	if [ -z "$suites" ]; then
		stack_argv "$stack" list --suites
		suites=$("${argv[@]}")
	fi
	for suite in $suites; do
		for np in $NPS; do
			name=$stack-$suite-np$np
			t=$(now)
			bad=0 timeouts=0 crashes=0 rc=0 lastrc=0 points=0 faults=
			for rep in $(seq 1 "$REPEAT"); do
				run=$name
				[ "$REPEAT" -gt 1 ] && run=$name-run$rep
				dir=$OUT/$run
				rm -rf "$dir" "$dir.log"
				case $stack in host-*) o=$dir ;; *) o=/out/$run ;; esac
				rc=0
				if [ "$suite" = tune-coll ]; then
					# The collective sweep: every algorithm of Bcast forced in turn, the
					# library's own rules file written, its A/B against the default run.
					stack_argv "$stack" tune --collectives Bcast --segment-sizes 0,16KiB --np "$np" -o "$o"
				else
					stack_argv "$stack" -i "$suite" --np "$np" -o "$o" "${smoke[@]}" "${loopflags[@]}"
				fi
				timeout -k 30 "$SUITE_TIMEOUT" "${argv[@]}" >"$dir.log" 2>&1 </dev/null &
				tpid=$!
				wait "$tpid" || rc=$?
				tpid=
				points=0 runfaults=
				if [ -f "$dir/results.jsonl" ]; then
					points=$(grep -c '"kind":"point"' "$dir/results.jsonl" || true)
					runfaults=$(grep -o '"fault":"[a-z_]*"' "$dir/results.jsonl" | cut -d'"' -f4 | sort | uniq -c |
						awk '{printf "%s%s:%s", (NR > 1 ? "," : ""), $2, $1}' || true)
				fi
				[ "$rc" = 124 ] && runfaults="${runfaults:+$runfaults,}suite-timeout"
				if [ "$suite" = tune-coll ] && [ "$rc" = 0 ]; then
					# It passes when the library's rules file is written and the A/B found it
					# in effect in every run with it (MPI_T).
					points=$(find "$dir" -path '*/rep*/results.jsonl' -exec grep -c '"kind":"point"' {} + | awk -F: '{n += $NF} END {print n + 0}')
					ls "$dir"/coll-rules-* >/dev/null 2>&1 || runfaults=no-rules-file
					grep -q '^  in effect: .* in all ' "$dir.log" || runfaults="${runfaults:+$runfaults,}rules-not-in-effect"
				fi
				if [ "$rc" != 0 ] || echo "$runfaults" | tr ',' '\n' | grep -v '^$' | grep -qv '^denied:'; then
					bad=$((bad + 1))
					lastrc=$rc
					faults=$runfaults
					# skampi's watchdog ends a hung point with exit 3; `timeout` a hung suite with 124.
					case $rc in 3 | 124) timeouts=$((timeouts + 1)) ;; esac
					echo "$runfaults" | grep -q 'crash:' && crashes=$((crashes + 1))
					[ "$REPEAT" -gt 1 ] && failures+=("$run")
				else
					[ "$bad" = 0 ] && faults=$runfaults
					# A loop keeps only what failed: 50 good runs of a suite are disk, not evidence.
					[ "$REPEAT" -gt 1 ] && rm -rf "$dir" "$dir.log"
				fi
			done
			secs=$(($(now) - t))
			rc=$lastrc
			result=ok${smoke:+ (smoke)}
			[ "$bad" -gt 0 ] && result=FAIL
			[ "$bad" -gt 0 ] && [ "$REPEAT" = 1 ] && failures+=("$name")
			[ "$REPEAT" -gt 1 ] && result="$result: $REPEAT runs, $bad failed ($timeouts timed out, $crashes crashed)"
			[ "$bad" = 0 ] && passed=$((passed + 1)) || failed=$((failed + 1))
			printf '%-15s %-17s %3s %5s %7s %-30s %6s %s\n' "$stack" "$suite" "$np" "$rc" "$points" "${faults:--}" "$secs" "$result"
		done
	done
done
echo "$passed passed, $failed failed (results and logs in $OUT)"
for f in "${failures[@]}"; do
	echo "  $f: $OUT/$f.log, $OUT/$f/"
done
[ "$failed" = 0 ]
