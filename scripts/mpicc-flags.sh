#!/bin/sh
# What an MPI compiler wrapper compiles and links with, for a build without pkg-config
# (`make build MPICC=/path/to/mpicc`: a cluster's module, a library in its own prefix).
# Usage: scripts/mpicc-flags.sh MPICC flavour|cflags|ldflags|incdirs
#   flavour: openmpi or mpich (Intel MPI and MVAPICH wrappers are MPICH's);
#   cflags, ldflags: for CGO_CFLAGS and CGO_LDFLAGS; incdirs: the -I directories.
# Open MPI's wrapper answers -showme:compile and -showme:link; MPICH's prints its whole
# command line with -show, of which the compiler's name is left out here.
set -eu
cc=$1 what=$2
if ! command -v "$cc" >/dev/null 2>&1; then
	echo "MPICC=$cc: no such program" >&2
	exit 1
fi
if compile=$("$cc" -showme:compile 2>/dev/null) && link=$("$cc" -showme:link 2>/dev/null); then
	flavour=openmpi
elif all=$("$cc" -show 2>/dev/null) && [ -n "$all" ]; then
	flavour=mpich
	set -f # the flags are words, never patterns
	# shellcheck disable=SC2086
	set -- $all
	shift # the compiler itself
	compile= link=
	for f in "$@"; do
		case $f in
		-I* | -D* | -U* | -isystem* | -std=* | -f*) compile="$compile $f" ;;
		-pthread) compile="$compile $f" link="$link $f" ;;
		-c | -o | -W | -W[!l]* | -O*) ;; # the wrapper's own build choices, not the library's
		*) link="$link $f" ;;
		esac
	done
else
	echo "MPICC=$cc: not an MPI compiler wrapper (neither -showme:compile nor -show answers)" >&2
	exit 1
fi
case $what in
flavour) echo "$flavour" ;;
cflags) echo $compile ;;
ldflags) echo $link ;;
incdirs)
	for f in $compile; do
		case $f in -I*) echo "${f#-I}" ;; esac
	done
	;;
*)
	echo "usage: $0 MPICC flavour|cflags|ldflags|incdirs" >&2
	exit 2
	;;
esac
