package inputs

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

// Job is what expanding a plan needs to know about the job that runs it.
type Job struct {
	NProcs int
	Hosts  []string // processor name of every rank; nil when not known (one host)
}

// Point is one point of a plan: one operation at one message size, with one timing
// method, on one set of ranks. A plan is expanded into its points once, and the
// runner, resume, crash blame, `skampi check` and the tests all iterate that list.
type Point struct {
	Index       int // 1-based position in the run
	Measurement *Measurement
	Method      string // "" for the operation's only way of timing
	Size        int64
	// NProcs is the size of the communicator the point runs on; Comm its world ranks
	// in communicator order, nil for the whole job.
	NProcs int
	Comm   []int
	// Pair is the pair of a two-rank operation (world ranks). Pending: the pair is
	// chosen at run time (pair = "max-latency" with more than one candidate), so Pair
	// and Ranks are not known until Resolve.
	Pair    [2]int
	Pending bool
	Probed  bool // the pair was chosen at run time: another run may choose another
	// Fallback says why the requested pair selection could not be honoured (the
	// default pair is measured and the points are flagged).
	Fallback string
	// Ranks are the world ranks whose times count, initiator first.
	Ranks []int
	// Refined: a size refinement added after the listed ones (Settings.Refine).
	Refined bool
}

// Op is the point's operation.
func (p *Point) Op() ops.Info { return p.Measurement.Op }

// Settings are the settings that apply to the point.
func (p *Point) Settings() Settings { return p.Measurement.Settings }

// Key identifies the point across runs; its ranks are empty while Pending.
func (p *Point) Key() record.Key {
	return record.Key{Measurement: p.Measurement.Name, Op: p.Op().Name, Method: p.Method,
		MsgBytes: p.Size, NProcs: p.NProcs, Ranks: record.RanksKey(p.Ranks)}
}

// Fault is a fault record of the point, to be given its verdict (record.Fault.Mark).
func (p *Point) Fault(runID string) record.Fault {
	return record.NewFault(record.Where{RunID: runID, PointIndex: p.Index,
		Measurement: p.Measurement.Name, MeasurementIndex: p.Measurement.Index, Op: p.Op().Name,
		Method: p.Method, MsgBytes: p.Size, NProcs: p.NProcs, Ranks: p.Ranks})
}

// LookupKey is the key to look the point up by in earlier results: a pair chosen by
// measuring may come out differently in another run of the same job, so its ranks
// are left out (the empty ranks of a Key match any).
func (p *Point) LookupKey() record.Key {
	k := p.Key()
	if p.Pending || p.Probed {
		k.Ranks = ""
	}
	return k
}

// Resolve sets the pair chosen at run time.
func (p *Point) Resolve(pair [2]int) {
	p.Pair, p.Pending, p.Probed = pair, false, true
	p.Ranks = participants(p.Op(), p.Method, p.Settings(), p.NProcs, nil, pair)
}

// Expansion is a plan's list of points on one job, with notes on what was left out
// or merged.
type Expansion struct {
	Points []Point
	Notes  []string
}

// Expand lists the plan's points, in the order they are measured, on a job of
// job.NProcs processes. Process counts above the job are left out with a note; points
// that would be measured twice (procs = [2, "all"] on a 2-process job) are merged with
// a note. It fails when the plan cannot run on the job at all.
func (p *Plan) Expand(job Job) (*Expansion, error) {
	if err := p.check(job.NProcs); err != nil {
		return nil, err
	}
	el := &ErrorList{File: p.Source}
	ex := &Expansion{}
	seen := map[record.Key]bool{}
	// What procs left out or merged, said once for every measurement it happened to.
	var notes noteList
	for mi := range p.Measurements {
		m := &p.Measurements[mi]
		pair, fallback, pending := choosePair(m, job)
		merged := 0
		for _, n := range m.ProcsList() {
			comm, ok := commRanks(m.Settings.Layout, n, job)
			if !ok {
				notes.add(fmt.Sprintf("procs = %d is more than the job's %d processes: skipped", n, job.NProcs), m.Name)
				continue
			}
			nprocs := job.NProcs
			if comm != nil {
				nprocs = len(comm)
			}
			if nprocs < m.Op.MinProcs { // procs of [settings]: in the measurement, an error
				notes.add(fmt.Sprintf("procs = %d is fewer than %s needs (%d: %s): skipped", n, m.Op.Name, m.Op.MinProcs, m.Op.MinProcsWhy), m.Name)
				continue
			}
			if m.Op.Rooted && m.Settings.Root >= nprocs {
				el.add(m.Pos, "measurement %q: root %d is not a rank of its %d-process communicators (procs): lower root or raise procs", m.Name, m.Settings.Root, nprocs)
				break
			}
			if msg := commProblem(m, nprocs); msg != "" { // a family's (RegisterCommCheck)
				el.add(m.Pos, "measurement %q: %s", m.Name, msg)
				break
			}
			// Left to skampi, the buffers grow with the job up to the cap, and the
			// symmetric heap a collective needs with its PEs up to the heap in effect:
			// points beyond are left out, with a note.
			var capped, heapCapped droppedSizes
			var heap Heap
			for _, size := range m.Sizes {
				for _, method := range methodList(m) {
					pt := Point{Measurement: m, Method: method, Size: size, NProcs: nprocs, Comm: comm,
						Pair: pair, Pending: pending, Fallback: fallback}
					if !m.Settings.BufferSet {
						if need := pointMemory(&pt); need > RankMemoryCap(job.NProcs) {
							capped.add(size, need, RankMemoryCap(job.NProcs))
							continue
						}
						if m.Op.Heap != ops.HeapNone {
							var need int64
							if need, heap = heapGrown(&pt); need > 0 {
								heapCapped.add(size, need, heap.Bytes)
								continue
							}
						}
					}
					if !pending {
						pt.Ranks = participants(m.Op, method, m.Settings, job.NProcs, comm, pair)
					}
					if k := pt.Key(); seen[k] {
						merged++
						continue
					} else {
						seen[k] = true
					}
					pt.Index = len(ex.Points) + 1
					ex.Points = append(ex.Points, pt)
				}
			}
			if len(capped.sizes) > 0 {
				notes.add(capped.note(nprocs, job.NProcs, len(m.Sizes), capNote(job.NProcs)), m.Name)
			}
			if len(heapCapped.sizes) > 0 {
				notes.add(heapCapped.note(nprocs, job.NProcs, len(m.Sizes), heapNote(heap, heapCapped.most)), m.Name)
			}
		}
		if merged > 0 {
			notes.add(fmt.Sprintf("procs %v on %d processes names one communicator twice: measured once", procsText(m.Settings.Procs), job.NProcs), m.Name)
		}
		if fallback != "" {
			ex.Notes = append(ex.Notes, fmt.Sprintf("measurement %q: %s", m.Name, fallback))
		}
	}
	checkJob(el, ex.Points, job)
	if len(el.Errors) > 0 {
		return nil, el
	}
	ex.Notes = append(append(slices.Clone(p.Notes), notes.lines()...), ex.Notes...)
	return ex, nil
}

// noteList gathers notes by text, with the measurements each applies to, in order.
type noteList struct {
	texts []string
	of    map[string][]string
}

func (n *noteList) add(text, measurement string) {
	if n.of == nil {
		n.of = map[string][]string{}
	}
	if _, ok := n.of[text]; !ok {
		n.texts = append(n.texts, text)
	}
	n.of[text] = append(n.of[text], measurement)
}

// lines: `measurement "A": text`, or `measurements "A", "B" and 5 more: text`.
func (n *noteList) lines() []string {
	var out []string
	for _, t := range n.texts {
		ms := n.of[t]
		quoted := make([]string, 0, 3)
		for _, m := range ms[:min(len(ms), 3)] {
			quoted = append(quoted, strconv.Quote(m))
		}
		who := "measurement " + quoted[0]
		if len(ms) > 1 {
			who = "measurements " + strings.Join(quoted, ", ")
			if len(ms) > 3 {
				who += fmt.Sprintf(" and %d more", len(ms)-3)
			}
		}
		out = append(out, who+": "+t)
	}
	return out
}

// methodList is the methods a measurement's points run under: the chosen ones, else
// the operation's default by its name where it has one (ops.Info.DefaultMethod).
func methodList(m *Measurement) []string {
	if len(m.Methods) == 0 {
		return []string{m.Op.DefaultMethod}
	}
	return m.Methods
}

func procsText(procs []int) []string {
	out := make([]string, len(procs))
	for i, n := range procs {
		out[i] = fmt.Sprint(n)
		if n == 0 {
			out[i] = `"all"`
		}
	}
	return out
}

// check verifies that the plan can run on this many processes, before anything runs:
// every measurement that cannot, at its position.
func (p *Plan) check(nprocs int) error {
	if nprocs > MaxJobProcs {
		return fmt.Errorf("a job of %d processes is more than skampi plans (at most %d: every point holds its ranks)", nprocs, MaxJobProcs)
	}
	if nprocs < 2 && len(p.Measurements) > 0 {
		m := p.Measurements[0]
		return fmt.Errorf("measurement %q: %s needs at least 2 processes, the job has %d (use --np)", m.Name, m.Op.Name, nprocs)
	}
	el := &ErrorList{File: p.Source}
	for _, m := range p.Measurements {
		if m.Settings.Pair == PairRanks {
			for _, r := range m.Settings.PairRanks {
				if r >= nprocs {
					el.add(m.Pos, "measurement %q: pair rank %d does not exist in a job of %d processes", m.Name, r, nprocs)
					break
				}
			}
		}
		if m.Op.Rooted && m.Settings.Root >= nprocs {
			el.add(m.Pos, "measurement %q: root %d does not exist in a job of %d processes", m.Name, m.Settings.Root, nprocs)
		}
		// Blocks for the largest communicator the job makes of procs.
		comm := 0
		for _, n := range m.ProcsList() {
			switch {
			case n == 0:
				comm = max(comm, nprocs)
			case n <= nprocs: // above the job: left out
				comm = max(comm, n)
			}
		}
		// A buffer the suite wrote is a limit; one it left to skampi grows with the job
		// (Expand leaves out what exceeds RankMemoryCap, with a note).
		if last := m.Sizes[len(m.Sizes)-1]; m.Settings.BufferSet && m.Op.PerProcess && m.Op.BufferBytes(last, m.Settings.Window, comm) > m.Settings.Buffer {
			el.add(m.Pos, "measurement %q: %s needs %d bytes of buffer for %d-byte blocks with %d processes, buffer is %d: raise buffer, or leave buffer out and skampi sizes it for the job",
				m.Name, m.Op.Name, m.Op.BufferBytes(last, m.Settings.Window, comm), last, comm, m.Settings.Buffer)
		} else if msg := displacementsFit(m, comm); msg != "" {
			el.add(m.Pos, "measurement %q: %s", m.Name, msg)
		}
	}
	if len(el.Errors) > 0 {
		return el
	}
	return nil
}

// displacementsFit says why the blocks of an operation that places them at C int
// displacements would pass what an int holds on a communicator of comm processes ("":
// they fit). Only a buffer the suite sets holds so much: skampi's own stays within
// RankMemoryCap, far below.
func displacementsFit(m Measurement, comm int) string {
	unit := m.Op.Displacements
	if unit == "" {
		return ""
	}
	block := slices.Max(m.Sizes)
	if unit == ops.DisplElements {
		block /= m.Settings.TypeSize(m.Op)
	}
	if span := ops.MulSat(block, int64(comm)); span <= ops.MaxBytes {
		return ""
	}
	return fmt.Sprintf("%s places its blocks at C int displacements (in %s): %s blocks on %d processes span %d %s, more than an int holds: lower the sizes or procs",
		m.Op.Name, unit, FormatSize(slices.Max(m.Sizes)), comm, ops.MulSat(block, int64(comm)), unit)
}

// choosePair resolves a measurement's pair selection as far as the job's shape
// allows; pending means it takes a measurement (max-latency among several peers).
func choosePair(m *Measurement, job Job) (pair [2]int, fallback string, pending bool) {
	if m.Op.Pattern != ops.PatternPair {
		return [2]int{0, 1}, "", false
	}
	switch m.Settings.Pair {
	case PairRanks:
		return m.Settings.PairRanks, "", false
	case PairAcrossNodes:
		host := "one host"
		if len(job.Hosts) == job.NProcs && job.NProcs > 0 {
			for rank, h := range job.Hosts {
				if h != job.Hosts[0] {
					return [2]int{0, rank}, "", false
				}
			}
			host = job.Hosts[0]
		}
		return [2]int{0, 1}, fmt.Sprintf("pair = %q: all ranks run on %s; measured ranks 0 and 1 instead", PairAcrossNodes, host), false
	case PairMaxLatency:
		return [2]int{0, 1}, "", job.NProcs > 2
	}
	return [2]int{0, 1}, "", false
}

// commRanks picks the world ranks of an n-process communicator (nil: all of them);
// ok is false when the job has fewer than n processes.
func commRanks(layout string, n int, job Job) ([]int, bool) {
	size := job.NProcs
	if n == 0 || n == size {
		return nil, true
	}
	if n > size {
		return nil, false
	}
	ranks := make([]int, size)
	for i := range ranks {
		ranks[i] = i
	}
	if layout == "one-per-node" && len(job.Hosts) == size {
		// One rank per host first, then a second one per host, and so on.
		seen := map[string]int{}
		order := make([]int, size)
		for rank, h := range job.Hosts {
			order[rank] = seen[h]
			seen[h]++
		}
		sort.SliceStable(ranks, func(i, j int) bool { return order[ranks[i]] < order[ranks[j]] })
	}
	return ranks[:n], true
}

// participants are the world ranks whose times count, initiator first: the pair, every
// rank of a multi-pair operation, the communicator of a collective, or only its root
// when a timing method has the root time the operation.
func participants(op ops.Info, method string, s Settings, nprocs int, comm []int, pair [2]int) []int {
	if comm == nil && op.Pattern == ops.PatternAll {
		comm = make([]int, nprocs)
		for i := range comm {
			comm[i] = i
		}
	}
	if m, ok := op.Method(method); ok && m.RootTimed && op.Pattern == ops.PatternAll {
		return []int{comm[s.Root]}
	}
	if op.Pattern == ops.PatternAll {
		return slices.Clone(comm)
	}
	return op.Participants(nprocs, pair)
}
