package report

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/skampi/skampi/clocksync"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

// Names a record field holds: a name this skampi does not know is an error, but the
// record is kept, as for an unknown operation (a newer skampi may have written it).

// The values of the settings a point records (inputs' timer, sync, cache and
// recv_slots, ops' rma_window and poll; a test keeps them the same).
var (
	timers    = []string{"global-loop", "iteration"}
	syncs     = []string{"barrier", "window", "none"}
	rmaWins   = []string{"allocate", "create", "dynamic"}
	caches    = []string{"warm", "cold"}
	recvSlots = []string{"shared", "per-message"}
	polls     = []string{"iprobe", "flush", "quiet"}
)

// stops are the verdicts a point's stop can hold: the engine's, and an import's.
var stops = func() []string {
	out := []string{SKOImportStop}
	for v := measure.Verdict(0); v.String() != "unknown"; v++ {
		out = append(out, v.String())
	}
	return out
}()

// pointNames checks the names in a point ("" is an unset field, always fine).
func pointNames(p *record.Point) []string {
	var fp fieldProblems
	if info, ok := ops.Lookup(p.Op); ok && p.Method != "" {
		if now, retired := info.RetiredMethods[p.Method]; retired {
			fp.addf("method %q of %s is a retired name (now %s): a record from an older skampi; the record is kept", p.Method, p.Op, now)
		} else if _, ok := info.Method(p.Method); !ok {
			known := "it has none"
			if len(info.Methods) > 0 {
				known = "known: " + strings.Join(info.MethodNames(), ", ")
			}
			fp.addf("method %q is not a timing method of %s (%s); the record is kept", p.Method, p.Op, known)
		}
	}
	fp.oneOf("timer", p.Timer, timers...)
	fp.oneOf("sync", p.Sync, syncs...)
	fp.oneOf("stop", p.Stop, stops...)
	fp.oneOf("rma_window", p.RMAWindow, rmaWins...)
	fp.oneOf("cache", p.Cache, caches...)
	fp.oneOf("recv_slots", p.RecvSlots, recvSlots...)
	fp.oneOf("poll", p.Poll, polls...)
	fp.oneOf("data_layout", p.DataLayout, ops.DataLayouts...)
	fp.oneOf("type_commit", p.TypeCommit, ops.TypeCommits...)
	fp.oneOf("thread_comm", p.ThreadComm, ops.ThreadComms...)
	fp.oneOf("thread_pinning", p.ThreadPinning, ops.ThreadPinnings...)
	return fp
}

func (fp *fieldProblems) oneOf(field, v string, known ...string) {
	if v != "" && !slices.Contains(known, v) {
		fp.addf("%s %q is not one this skampi knows (%s); the record is kept", field, v, strings.Join(known, ", "))
	}
}

// cpuList is a Linux CPU list, as rank_cpus records a binding: "0", "0-1", "0,2,4-7".
var cpuList = regexp.MustCompile(`^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$`)

// runWarnings checks a run header's provenance: rank_cpus only describes the run, so a
// list that is wrong is said but never costs the run header and with it every point.
func runWarnings(r *record.Run) []string {
	var fp fieldProblems
	if len(r.RankCPUs) > 0 && len(r.RankCPUs) != r.NProcs {
		fp.addf("rank_cpus names %d binding(s) for nprocs %d: one for every rank; the run is kept", len(r.RankCPUs), r.NProcs)
	}
	for rank, cpus := range r.RankCPUs {
		if cpus != "" && !cpuList.MatchString(cpus) { // "": the kernel did not say
			fp.addf("rank_cpus gives rank %d %q: not a CPU list such as 0-3,8; the run is kept", rank, Printable(cpus))
		}
	}
	return fp
}

// runFields checks a run header beyond its id and process count: a problem here
// leaves the run out.
func runFields(r *record.Run) []string {
	var fp fieldProblems
	if len(r.RankHosts) > 0 && len(r.RankHosts) != r.NProcs {
		fp.addf("rank_hosts names %d host(s) for nprocs %d: one for every rank", len(r.RankHosts), r.NProcs)
	}
	if len(r.RanksPerHost) > 0 {
		sum := 0
		for h, n := range r.RanksPerHost {
			if n < 1 {
				fp.addf("ranks_per_host gives host %q %d ranks: a host listed has at least 1", Printable(h), n)
			}
			sum += n
		}
		if sum != r.NProcs {
			fp.addf("ranks_per_host adds up to %d ranks for nprocs %d", sum, r.NProcs)
		}
	}
	if !(r.TimerResolution >= 0) {
		fp.addf("timer_resolution_s is %g: a resolution is never negative", r.TimerResolution)
	}
	if r.Points < 0 {
		fp.addf("points is %d: a count is never negative", r.Points)
	}
	if r.SettleRounds < 0 {
		fp.addf("settle_rounds is %d: a count is never negative", r.SettleRounds)
	}
	if !(r.SettleBarrierS >= 0) {
		fp.addf("settle_barrier_s is %g: a duration is never negative", r.SettleBarrierS)
	}
	return fp
}

// faultFields checks a fault's ranks and the bad byte of a corrupt point against its
// run (nil: none before it).
func faultFields(f *record.Fault, run *record.Run) []string {
	var fp fieldProblems
	if run != nil && f.NProcs > run.NProcs {
		fp.addf("nprocs is %d, more than the %d processes of run %s", f.NProcs, run.NProcs, f.RunID)
	}
	fp.rankList("ranks", f.Ranks, run)
	if !(f.ElapsedS >= 0) {
		fp.addf("elapsed_s is %g: a duration is never negative", f.ElapsedS)
	}
	switch {
	case !(f.StalledS >= 0):
		fp.addf("stalled_s is %g: a duration is never negative", f.StalledS)
	case f.StalledS > 0 && f.Fault != record.FaultTimeout:
		fp.addf("stalled_s is given for a %s fault: only a timeout stalls", f.Fault)
	case f.StalledS > f.ElapsedS && !near(f.StalledS, f.ElapsedS):
		fp.addf("stalled_s %g is more than elapsed_s %g: the point stalled within its own time", f.StalledS, f.ElapsedS)
	}
	c := f.Corrupt
	switch {
	case c == nil:
	case f.Fault != record.FaultCorrupt:
		fp.addf("corrupt (the first bad byte) is given for a %s fault, not a %s one", f.Fault, record.FaultCorrupt)
	case c.Offset < 0 || c.Slot < 0 || c.Repetition < 0:
		fp.addf("corrupt has offset %d, slot %d, repetition %d: none is negative", c.Offset, c.Slot, c.Repetition)
	case c.Expected < 0 || c.Expected > 255 || c.Actual < 0 || c.Actual > 255:
		fp.addf("corrupt has expected %d, actual %d: bytes are 0 to 255", c.Expected, c.Actual)
	case c.Rank < 0 || c.From < 0 || run != nil && (c.Rank >= run.NProcs || c.From >= run.NProcs):
		fp.addf("corrupt has rank %d, from %d: both are world ranks of the run", c.Rank, c.From)
	}
	return fp
}

// stepFields checks a step against its run: its processes and ranks, times that are
// the refined points' (positive: refinement only brackets positive times), and a
// confirmed step at the sizes it was found between, measured again at least once.
func stepFields(st *record.Step, run *record.Run) []string {
	var fp fieldProblems
	if run != nil && st.NProcs > run.NProcs {
		fp.addf("nprocs is %d, more than the %d processes of run %s", st.NProcs, run.NProcs, st.RunID)
	}
	fp.rankList("ranks", st.Ranks, run)
	if !(st.BeforeS > 0 && st.AfterS > 0) {
		fp.addf("before_s %g and after_s %g: a step lies between two positive times", st.BeforeS, st.AfterS)
	}
	for i, r := range st.Rounds {
		if !(r[0] > 0 && r[1] > 0) {
			fp.addf("rounds[%d] is %v: a round is kept only with both times positive", i, r)
			break
		}
	}
	if st.Confirmed && (st.LoBytes != st.FoundLo || st.HiBytes != st.FoundHi || len(st.Rounds) == 0) {
		fp.addf("confirmed, but lo_bytes %d, hi_bytes %d are not found_lo_bytes %d, found_hi_bytes %d or it has no rounds: a confirmed step was measured again at the sizes it was found between",
			st.LoBytes, st.HiBytes, st.FoundLo, st.FoundHi)
	}
	return fp
}

// faultNames checks a fault's method against its operation; the record is kept.
func faultNames(f *record.Fault) []string {
	return pointNames(&record.Point{Op: f.Op, Method: f.Method})
}

// clockFields checks a clock record against its run.
func clockFields(c *record.Clock, run *record.Run) []string {
	var fp fieldProblems
	if c.Rank < 0 || run != nil && c.Rank >= run.NProcs {
		fp.addf("rank %d is not a rank of run %s", c.Rank, c.RunID)
	}
	for _, v := range []struct {
		name string
		v    float64
	}{{"elapsed_s", c.ElapsedS}, {"rtt_s", c.RTTS}, {"uncertainty_s", c.UncertaintyS}} {
		if !(v.v >= 0) {
			fp.addf("%s is %g: it is never negative", v.name, v.v)
		}
	}
	return fp
}

// clockNames checks a clock record's algorithm; the record is kept.
func clockNames(c *record.Clock) []string {
	if _, err := clocksync.New(c.Algorithm); err != nil {
		return []string{fmt.Sprintf("algorithm %q is not a clock synchronisation this skampi knows (hca, skampi); the record is kept", c.Algorithm)}
	}
	return nil
}
