// Package runner measures a Plan: for every measurement it selects the ranks, builds
// each point's operation, has the engine measure it, and hands the record to the
// sinks as soon as it is complete. It is pure Go; the MPI world comes in through the
// World interface.
package runner

import (
	"fmt"
	"io"
	"math"
	"sort"
	"time"

	"github.com/skampi/skampi/clocksync"
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
	psync "github.com/skampi/skampi/sync"
)

// World is the communicator plus the operation factory of one library.
type World interface {
	measure.Comm
	Barrier() error
	NewOp(OpSpec) (measure.Op, error)
	// Clock is the primitive clock synchronisation runs over; Now reads the clock the
	// operations use (window synchronisation waits on it).
	Clock() clocksync.Exchanger
	Now() float64
}

// OpSpec is everything that makes an operation at one point.
type OpSpec struct {
	Info     ops.Info
	Bytes    int64
	Settings inputs.Settings
	Pair     [2]int // two-rank operations
	Method   string // a timing method of the op ("" for none)
	Ranks    []int  // collectives on a subset of the ranks (nil: all)
}

// Runner measures plans on a world. Sink and Log are used on rank 0 only.
type Runner struct {
	World World
	Hosts []string // processor name of every rank
	RunID string
	Sink  report.Sink
	Log   io.Writer

	Library     string              // the library's version string, for the deny-list
	AllowBroken bool                // run routines on the deny-list anyway
	Done        map[record.Key]bool // rank 0: points a resumed run leaves alone
	Watchdog    *Watchdog           // optional: armed around every point

	// Skipped counts the points left alone because Done had them (rank 0).
	Skipped int
	// ClockSyncs counts clock synchronisations (window sync re-synchronises only when
	// some rank's model has grown too uncertain).
	ClockSyncs int

	model     *clocksync.Model // this rank's clock model, once synchronised
	modelAlgo string           // the algorithm that fitted it

	maxLatencyPeer int // cached: 0 = not probed yet
}

// What rank 0 decides for a point, broadcast so all ranks agree.
const (
	actMeasure = iota
	actDone    // measured (or faulted) in an earlier run
	actDenied  // known to crash in this library
)

// Check verifies that the plan can run on this many processes, before anything runs.
func Check(plan *inputs.Plan, nprocs int) error {
	for _, m := range plan.Measurements {
		if nprocs < 2 {
			return fmt.Errorf("measurement %q: %s needs at least 2 processes, the job has %d (use --np)", m.Name, m.Op.Name, nprocs)
		}
		if m.Settings.Pair == inputs.PairRanks {
			for _, r := range m.Settings.PairRanks {
				if r >= nprocs {
					return fmt.Errorf("measurement %q: pair rank %d does not exist in a job of %d processes", m.Name, r, nprocs)
				}
			}
		}
		if m.Op.Rooted && m.Settings.Root >= nprocs {
			return fmt.Errorf("measurement %q: root %d does not exist in a job of %d processes", m.Name, m.Settings.Root, nprocs)
		}
		if last := m.Sizes[len(m.Sizes)-1]; m.Op.PerProcess && m.Op.BufferBytes(last, m.Settings.Window, nprocs) > m.Settings.Buffer {
			return fmt.Errorf("measurement %q: %s needs %d bytes of buffer for %d-byte blocks with %d processes, buffer is %d: raise buffer",
				m.Name, m.Op.Name, m.Op.BufferBytes(last, m.Settings.Window, nprocs), last, nprocs, m.Settings.Buffer)
		}
	}
	return nil
}

// Run measures every point of the plan in order.
func (r *Runner) Run(plan *inputs.Plan) error {
	w := r.World
	if err := Check(plan, w.Size()); err != nil {
		return err
	}
	index := 0
	for _, m := range plan.Measurements {
		pair, fallback, err := r.pair(m)
		if err != nil {
			return fmt.Errorf("measurement %q: selecting the pair: %w", m.Name, err)
		}
		// Window synchronisation may fit the clocks first: watched like a point.
		r.arm(record.Fault{RunID: r.RunID, Measurement: m.Name + " (clock synchronisation)", Op: m.Op.Name, NProcs: w.Size()}, m.Settings.Hang())
		syncer, err := r.syncer(m.Settings.Sync, m.Settings.ClockSync)
		r.disarm()
		if err != nil {
			return err
		}
		task := measure.Task{
			Participants: m.Op.Participants(w.Size(), pair),
			Reduce:       m.Op.Reduce,
			Stop: measure.StopRule{Min: m.Settings.MinReps, Max: m.Settings.MaxReps,
				MaxRelStderr: m.Settings.MaxRelStderr, MaxTime: m.Settings.MaxTime,
				MaxDiscarded: m.Settings.MaxDiscarded},
			Warmup: m.Settings.Warmup, Iterations: iterations(m),
			RepTime: m.Settings.RepTime, Sync: syncer,
		}
		for _, n := range m.ProcsList() {
			ranks, ok := r.ranksFor(m, n)
			if !ok {
				index += len(m.Sizes) * len(methodsOf(m))
				if w.Rank() == 0 && r.Log != nil {
					fmt.Fprintf(r.Log, "note: measurement %q: procs = %d is more than the job's %d processes: skipped\n", m.Name, n, w.Size())
				}
				continue
			}
			t := task
			if ranks != nil {
				t.Participants = ranks
			}
			for _, size := range m.Sizes {
				for _, method := range methodsOf(m) {
					index++
					if err := r.runPoint(m, OpSpec{Info: m.Op, Bytes: size, Settings: m.Settings, Pair: pair,
						Method: method, Ranks: ranks}, t, index, fallback); err != nil {
						return err
					}
				}
			}
		}
		if fallback != "" && w.Rank() == 0 && r.Log != nil {
			fmt.Fprintf(r.Log, "note: measurement %q: %s\n", m.Name, fallback)
		}
	}
	return nil
}

// runPoint decides, measures and records one point.
func (r *Runner) runPoint(m inputs.Measurement, spec OpSpec, task measure.Task, index int, fallback string) error {
	nprocs := r.World.Size()
	if spec.Ranks != nil {
		nprocs = len(spec.Ranks)
	}
	id := record.Fault{RunID: r.RunID, PointIndex: index, Measurement: m.Name, MeasurementIndex: m.Index,
		Op: m.Op.Name, Method: spec.Method, MsgBytes: spec.Bytes, NProcs: nprocs}
	act, err := r.decide(&id)
	if err != nil || act != actMeasure {
		return err
	}
	r.arm(id, m.Settings.Hang())
	p, err := r.measurePoint(m, spec, task, index)
	r.disarm()
	if err != nil {
		return fmt.Errorf("measurement %q, %d bytes: %w", m.Name, spec.Bytes, err)
	}
	if p == nil { // not rank 0
		return nil
	}
	p.NProcs = nprocs
	if fallback != "" {
		p.AddFlag(record.FlagPairFallback)
	}
	if err := r.Sink.Write(p); err != nil {
		return fmt.Errorf("writing results: %w", err)
	}
	return nil
}

// ranksFor picks the world ranks of an n-process communicator (nil: all of them);
// ok is false when the job has fewer than n processes.
func (r *Runner) ranksFor(m inputs.Measurement, n int) ([]int, bool) {
	size := r.World.Size()
	if n == 0 || n == size {
		return nil, true
	}
	if n > size {
		return nil, false
	}
	if m.Settings.Layout != "one-per-node" || len(r.Hosts) != size {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out, true
	}
	// One rank per host first, then a second one per host, and so on.
	seen := map[string]int{}
	order := make([]int, size)
	for rank, h := range r.Hosts {
		order[rank] = seen[h]
		seen[h]++
	}
	ranks := make([]int, size)
	for i := range ranks {
		ranks[i] = i
	}
	sort.SliceStable(ranks, func(i, j int) bool { return order[ranks[i]] < order[ranks[j]] })
	return ranks[:n], true
}

// iterations per repetition: a collective called back to back pipelines, so "auto"
// means one call per repetition for them (each repetition starts synchronised).
func iterations(m inputs.Measurement) int {
	if m.Settings.Iterations == 0 && m.Op.SingleShot {
		return 1
	}
	return m.Settings.Iterations
}

// decide is taken by rank 0 and broadcast: measure the point, leave it (resume), or
// record it as denied.
func (r *Runner) decide(id *record.Fault) (int, error) {
	act := actMeasure
	root := r.World.Rank() == 0
	if root {
		if r.Done[id.Key()] {
			act = actDone
			r.Skipped++
		} else if reason, denied := ops.Denied(id.Op, r.Library); denied && !r.AllowBroken {
			act = actDenied
			f := *id
			f.Kind, f.Fault, f.Time = record.KindFault, record.FaultDenied, time.Now().UTC()
			f.Detail = reason + " (--allow-broken runs it anyway)"
			if err := r.Sink.Write(&f); err != nil {
				return 0, fmt.Errorf("writing results: %w", err)
			}
		}
	}
	got, err := r.World.Bcast(int64(act))
	return int(got), err
}

func (r *Runner) arm(id record.Fault, timeout time.Duration) {
	if r.Watchdog != nil {
		r.Watchdog.Start(id, timeout)
	}
}

func (r *Runner) disarm() {
	if r.Watchdog != nil {
		r.Watchdog.Stop()
	}
}

func (r *Runner) point(index int, m inputs.Measurement, size int64, ranks []int, res *measure.Result) *record.Point {
	w := r.World
	p := &record.Point{
		RunID: r.RunID, PointIndex: index, Measurement: m.Name, MeasurementIndex: m.Index,
		Op: m.Op.Name, Family: m.Op.Family, MsgBytes: size, NProcs: w.Size(), Ranks: ranks,
		Timer: m.Settings.Timer, Sync: m.Settings.Sync,
	}
	if m.Op.Windowed {
		p.Window = m.Settings.Window
	}
	fill(p, res, m.Settings.MinReps)
	if res.Subtracted != 0 && res.N > 0 && p.TimeS < 0 {
		p.AddFlag(record.FlagNegative)
	}
	if res.N > 0 && m.Op.RoundTrip {
		lat := p.TimeS / 2
		p.LatencyS = &lat
	}
	if res.N > 0 && m.Op.Throughput() && p.TimeS > 0 {
		tp := float64(w.Size()-1) * float64(size) / p.TimeS
		p.ThroughputBps = &tp
	}
	if res.N > 0 && m.Op.Bandwidth && p.TimeS > 0 {
		bw := m.Op.BytesMoved(size, m.Settings.Window, m.Op.Pairs(w.Size())) / p.TimeS
		if !math.IsInf(bw, 0) {
			p.BandwidthBps = &bw
		}
	}
	return p
}

// pair resolves a measurement's pair selection. fallback explains a selection that
// could not be honoured (the default pair is used instead and points are flagged).
func (r *Runner) pair(m inputs.Measurement) (pair [2]int, fallback string, err error) {
	switch m.Settings.Pair {
	case inputs.PairRanks:
		return m.Settings.PairRanks, "", nil
	case inputs.PairAcrossNodes:
		for rank, h := range r.Hosts {
			if h != r.Hosts[0] {
				return [2]int{0, rank}, "", nil
			}
		}
		return [2]int{0, 1}, fmt.Sprintf("pair = %q: all ranks run on %s; measured ranks 0 and 1 instead", inputs.PairAcrossNodes, r.Hosts[0]), nil
	case inputs.PairMaxLatency:
		if r.maxLatencyPeer == 0 {
			if r.maxLatencyPeer, err = r.probeMaxLatency(m.Settings); err != nil {
				return pair, "", err
			}
		}
		return [2]int{0, r.maxLatencyPeer}, "", nil
	}
	return [2]int{0, 1}, "", nil
}

// probeMaxLatency measures a 1-byte ping-pong from rank 0 to every other rank and
// returns the slowest to reach, as SKaMPI's comm2_max_latency_with_root does.
func (r *Runner) probeMaxLatency(s inputs.Settings) (int, error) {
	w := r.World
	info, _ := ops.Lookup("Pingpong_Send_Recv")
	probe := s
	probe.MinReps, probe.MaxReps, probe.Warmup, probe.Iterations = 5, 5, 1, 50
	sy, err := psync.New("barrier", w)
	if err != nil {
		return 0, err
	}
	best, bestT := 1, -1.0
	for peer := 1; peer < w.Size(); peer++ {
		pair := [2]int{0, peer}
		op, err := w.NewOp(OpSpec{Info: info, Bytes: 1, Settings: probe, Pair: pair})
		if err != nil {
			return 0, err
		}
		r.arm(record.Fault{RunID: r.RunID, Measurement: "pair probe", Op: info.Name, MsgBytes: 1, NProcs: w.Size()}, s.Hang())
		res, err := measure.Measure(w, op, measure.Task{
			Participants: info.Participants(w.Size(), pair), Reduce: info.Reduce,
			Stop:   measure.StopRule{Min: 5, Max: 5, MaxRelStderr: 1, MaxTime: probe.MaxTime},
			Warmup: 1, Iterations: 50, Sync: sy,
		})
		r.disarm()
		if err != nil {
			return 0, err
		}
		if res != nil && res.N > 0 && res.Time > bestT {
			best, bestT = peer, res.Time
		}
	}
	chosen, err := w.Bcast(int64(best))
	return int(chosen), err
}
