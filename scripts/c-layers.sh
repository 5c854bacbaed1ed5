#!/bin/bash
# The C side's layering, for `make layers`: no cycle among the C files of ops/mpi and
# the families' kernels, by what each file's object uses that another file's defines (a function
# or a variable, from nm), nor among the headers they include. tsort names a cycle.
# Usage: scripts/c-layers.sh PKG (the MPI library's pkg-config name: ompi-c or mpich).
set -euo pipefail
pkg=$1
cd "$(dirname "$0")/.."
dirs=(ops/mpi)
# A family's kernels (families/NAME/kernels) are the engine's guests: they may use it,
# it never uses them (checked below). OpenSHMEM's (families/shmem/kernels) are built
# only where its header is (the Makefile's TAGS).
shmem=$([ -f "$(pkg-config --variable=includedir "$pkg")/shmem.h" ] && echo yes || true)
for d in families/*/kernels; do
	if [ "$d" = families/shmem/kernels ] && [ -z "$shmem" ]; then continue; fi
	if compgen -G "$d/*.c" > /dev/null; then dirs+=("$d"); fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cflags=$(pkg-config --cflags "$pkg")
for d in "${dirs[@]}"; do
	for f in "$d"/*.c; do
		# shellcheck disable=SC2086
		gcc -O0 -w -I ops/mpi -I "$d" $cflags -c "$f" -o "$tmp/$(echo "$f" | tr / _).o"
	done
done
# Who defines each global symbol; then one edge per (user, definer) pair.
for o in "$tmp"/*.o; do
	nm --defined-only -g "$o" | awk -v f="$(basename "$o" .o)" 'NF == 3 {print $3, f}'
done | sort > "$tmp/defs"
for o in "$tmp"/*.o; do
	nm -u "$o" | awk -v f="$(basename "$o" .o)" '{print $2, f}'
done | sort > "$tmp/uses"
join "$tmp/uses" "$tmp/defs" | awk '$2 != $3 {print $2, $3}' | sort -u > "$tmp/edges"
if ! tsort "$tmp/edges" > /dev/null; then
	echo "c-layers: the C files above call each other in a cycle (one of them should move what the other uses)" >&2
	exit 1
fi
# The engine calls no family's C: a family is linked in or left out without it
# changing.
bad=$(awk '$1 !~ /^families_/ && $2 ~ /^families_/' "$tmp/edges")
if [ -n "$bad" ]; then
	echo "c-layers: the engine uses a family's C (user, definer): $bad" >&2
	exit 1
fi
# Headers: each quoted include is an edge from the including file.
for d in "${dirs[@]}"; do
	grep -H '^#include "' "$d"/*.[ch] | sed -E 's|^([^:]*/)?([^:/]*):#include "([^"]*)".*|\2 \3|'
done | sort -u > "$tmp/includes"
if ! tsort "$tmp/includes" > /dev/null; then
	echo "c-layers: headers include each other in a cycle" >&2
	exit 1
fi
echo "c-layers: ok ($(wc -l < "$tmp/edges") file dependencies, no cycle)"
