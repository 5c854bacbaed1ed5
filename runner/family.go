package runner

import (
	"sync"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

// Family is what one measurement family (MPI-IO, multi-threaded, ...) adds to the life
// of a point whose operation it owns. The runner calls these hooks and knows no family
// by name: a family lives in a folder of its own under families/, registers itself
// (Register, from its init) and is linked in by one line of families/all. Every hook
// but Owns may be nil.
type Family struct {
	Name string
	// Owns: the operation is the family's. An operation belongs to at most one family.
	Owns func(op ops.Info) bool
	// Prepare completes the point's request with the family's parameters. Every rank
	// calls it for every point of the family, in the same order: it may communicate.
	Prepare func(r *Runner, pt *inputs.Point, spec *ops.Request) error
	// Measured runs after one of the family's operations was measured without error,
	// before it is released, on every rank (it may communicate). What it returns on
	// rank 0 is the point's note, handed to Record.
	Measured func(r *Runner, op Op, spec ops.Request) (note any, err error)
	// Done runs on every rank after the point was measured, whatever happened.
	Done func(r *Runner, spec ops.Request)
	// Record adds the family's fields to the point's record on rank 0; note is what
	// the point's last Measured returned (nil if none).
	Record func(p *record.Point, pt *inputs.Point, note any)
	// End runs when the run ends, however it ends, maybe on a signal's goroutine.
	End func(r *Runner)
	// JobOver runs in the process that launched the job, once the job is over
	// (what ranks killed outright left behind).
	JobOver func(plan *inputs.Plan)
}

// families: every family registered, in registration order (the order of
// families/all's imports).
var families []Family

// Register adds a family; its init calls it. A second family of the same name, or one
// without Owns, is a programming error.
func Register(f Family) {
	if f.Name == "" || f.Owns == nil {
		panic("runner.Register: a family needs a name and Owns")
	}
	for _, g := range families {
		if g.Name == f.Name {
			panic("runner.Register: family " + f.Name + " registered twice")
		}
	}
	families = append(families, f)
}

// Families are the names of the registered families, in registration order.
func Families() []string {
	var names []string
	for _, f := range families {
		names = append(names, f.Name)
	}
	return names
}

// Owners are the names of the families that own op: at most one in a sound registry.
func Owners(op ops.Info) []string {
	var names []string
	for _, f := range families {
		if f.Owns(op) {
			names = append(names, f.Name)
		}
	}
	return names
}

// familyOf is the family that owns op, or nil.
func familyOf(op ops.Info) *Family {
	for i := range families {
		if families[i].Owns(op) {
			return &families[i]
		}
	}
	return nil
}

// State is the family's state for this run, made by mk on first use (any goroutine).
func (r *Runner) State(family string, mk func() any) any {
	r.stateMu.Lock()
	defer r.stateMu.Unlock()
	if r.states == nil {
		r.states = map[string]any{}
	}
	s, ok := r.states[family]
	if !ok {
		s = mk()
		r.states[family] = s
	}
	return s
}

// familyState is a Runner's part that the families keep.
type familyState struct {
	stateMu sync.Mutex
	states  map[string]any // family name: its state for the run (State)
	notes   map[string]any // family name: rank 0's note of the point being measured
}

// prepareFamily lets the point's family complete its request.
func (r *Runner) prepareFamily(pt *inputs.Point, spec *ops.Request) error {
	if f := familyOf(pt.Op()); f != nil && f.Prepare != nil {
		return f.Prepare(r, pt, spec)
	}
	return nil
}

// measuredFamily runs the family's Measured hook for an operation just measured.
func (r *Runner) measuredFamily(op Op, spec ops.Request) error {
	f := familyOf(spec.Info)
	if f == nil || f.Measured == nil {
		return nil
	}
	note, err := f.Measured(r, op, spec)
	if err != nil {
		return err
	}
	if note != nil {
		if r.notes == nil {
			r.notes = map[string]any{}
		}
		r.notes[f.Name] = note
	}
	return nil
}

// doneFamily runs the family's Done hook after a point.
func (r *Runner) doneFamily(spec ops.Request) {
	if f := familyOf(spec.Info); f != nil && f.Done != nil {
		f.Done(r, spec)
	}
}

// recordFamily adds the point's family fields to its record.
func recordFamily(p *record.Point, pt *inputs.Point, notes map[string]any) {
	if f := familyOf(pt.Op()); f != nil && f.Record != nil {
		f.Record(p, pt, notes[f.Name])
	}
}

// JobOver tells every family, in the process that launched the job, that the job is
// over, however it ended.
func JobOver(plan *inputs.Plan) {
	for _, f := range families {
		if f.JobOver != nil {
			f.JobOver(plan)
		}
	}
}

// End ends the run for every family (their files, directories, state). The job calls
// it when the run ends, however it ends; a second call finds nothing to do.
func (r *Runner) End() {
	if r == nil {
		return
	}
	for _, f := range families {
		if f.End != nil {
			f.End(r)
		}
	}
}
