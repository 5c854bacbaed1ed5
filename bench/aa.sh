#!/usr/bin/env bash
# The A/A check, for real: identical configurations must show no significant difference.
#  1. compare: TRIALS times, RUNS runs of bench/aa/aa.toml for side "a" and RUNS for "b",
#     interleaved (a b a b ...), compared with `skampi compare`; prints each trial's
#     totals and the share of rows not significant over all trials.
#  2. tune: bench/aa/tune-aa.toml (a dummy environment variable, 5 repeats); prints the
#     verdict's recommendation.
# Exit 1 when fewer than 95 % of the rows are "no significant difference", or the tune
# recommends a setting. Run by `make bench-aa`; works from any directory.
# Environment: TRIALS (3), RUNS (5), SKAMPI (bin/skampi), KEEP=1 keeps the directory.
set -euo pipefail
die() { echo "aa: $*" >&2; exit 1; }
cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." || die "cannot cd to the repository root"
TRIALS=${TRIALS:-3}
RUNS=${RUNS:-5}
[[ $TRIALS =~ ^[0-9]+$ ]] && ((TRIALS >= 1)) || die "TRIALS must be a positive integer, got '$TRIALS'"
[[ $RUNS =~ ^[0-9]+$ ]] && ((RUNS >= 2)) || die "RUNS must be an integer of at least 2, got '$RUNS'"
SKAMPI=${SKAMPI:-bin/skampi}
[[ -x $SKAMPI ]] || die "$SKAMPI not found: run \`make build\`"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d /tmp/skampi-aa.XXXXXX)
[[ ${KEEP:-} == 1 ]] && echo "aa: keeping $tmp" || trap 'rm -rf "$tmp"' EXIT

rows=0 sig=0
for t in $(seq 1 "$TRIALS"); do
	args=()
	for r in $(seq 1 "$RUNS"); do
		for side in a b; do
			d=$tmp/t$t/$side$r
			"$SKAMPI" -i bench/aa/aa.toml -o "$d" >"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; die "run $d failed"; }
			args+=("$side=$d/results.jsonl")
		done
	done
	"$SKAMPI" compare "${args[@]}" >"$tmp/t$t.txt"
	total=$(grep '^total b vs a' "$tmp/t$t.txt")
	echo "trial $t: ${total#total }"
	n=$(sed -E 's/.*: ([0-9]+) rows, ([0-9]+) compared, ([0-9]+) significantly.*/\2 \3/' <<<"$total")
	rows=$((rows + ${n% *})) sig=$((sig + ${n#* }))
done
((rows > 0)) || die "no row compared"
share=$(awk -v r="$rows" -v s="$sig" 'BEGIN { printf "%.1f", 100 * (r - s) / r }')
echo "compare A/A: $((rows - sig)) of $rows rows not significant ($share %), $RUNS runs a side, $TRIALS trials"

"$SKAMPI" tune -i bench/aa/tune-aa.toml -o "$tmp/tune" >"$tmp/tune.log" 2>&1 || { cat "$tmp/tune.log" >&2; die "the A/A tune failed"; }
rec=$(grep -E '^(recommendation|recommended per size range)' "$tmp/tune/verdict.txt" | head -1)
echo "tune A/A: $rec"
fail=0
awk -v r="$rows" -v s="$sig" 'BEGIN { exit !(s > 0.05 * r) }' && { echo "aa: more than 5 % of A/A rows significant" >&2; fail=1; }
grep -qE '^(recommendation for every size|recommended per size range)' <<<"$rec" && { echo "aa: the A/A tune recommends a setting" >&2; fail=1; }
exit $fail
