#!/bin/bash
# make build MPICC=...: a build from each MPI compiler wrapper here (Open MPI's,
# MPICH's), as on a cluster without pkg-config, into a temporary directory; each binary
# must name its library and measure one point on 2 ranks. For make test.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
n=0
for pair in "mpicc.openmpi:Open MPI" "mpicc.mpich:MPICH"; do
	cc=${pair%%:*} lib=${pair#*:}
	command -v "$cc" >/dev/null || continue
	n=$((n + 1))
	bin=$out/skampi-$cc
	make --no-print-directory build MPICC="$(command -v "$cc")" BIN="$bin" >/dev/null
	v=$("$bin" version)
	grep -q "^MPI library: $lib" <<<"$v" || { echo "test-mpicc: $cc built: $v" >&2; exit 1; }
	"$bin" run Pingpong_Send_Recv --sizes 1 -o "$out/$cc" >/dev/null
	grep -q '"kind":"point"' "$out/$cc/results.jsonl" || { echo "test-mpicc: $cc: no point measured" >&2; exit 1; }
done
[ "$n" -gt 0 ] || { echo "test-mpicc: no MPI compiler wrapper (mpicc.openmpi, mpicc.mpich) here" >&2; exit 1; }
echo "test-mpicc: ok ($n wrappers)"
