package report

import (
	"slices"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

// A latency view of OpenSHMEM puts and gets: `skampi run Shmem_Put -W 1` is what
// osu_oshm_put measures, the put and its shmem_quiet, so its table shows that time
// (time_s, the breakdown's full) with the MB/s and messages per second beside it,
// not the breakdown into post, wait and overlap. The flags that concern the breakdown
// alone (its parts against the full, the computation's length, the overlap ratio)
// say nothing of that time: they stay in the record, and in the breakdown's table.

// latencyView says whether the point is shown as a plain line though it has a breakdown.
func (t *Table) latencyView(p *record.Point) bool {
	if !t.opt.Latency || p.Breakdown == nil {
		return false
	}
	in, ok := ops.Lookup(p.Op)
	return ok && in.SHMEM && in.Nonblocking
}

// breakdownFlags are about a breakdown's parts, not the operation's time.
var breakdownFlags = []string{record.FlagRatioClamped, record.FlagComputeOffTarget, record.FlagFullMismatch, record.FlagBreakdownMissing}

func withoutBreakdownFlags(flags []string) []string {
	var out []string
	for _, f := range flags {
		if !slices.Contains(breakdownFlags, f) {
			out = append(out, f)
		}
	}
	return out
}
