package runner

import (
	"sync"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

// Family is what one measurement family (MPI-IO, multi-threaded, one-sided, busy
// targets, ...) adds to the life of a point whose operation it has. The runner calls
// these hooks and knows no family by name: a family lives in a folder of its own under
// families/, registers itself (Register, from its init) and is linked in by one line of
// families/all. An operation may be of several families (Lock_Held: one-sided, a held
// lock, a passive target); their hooks run in registration order. Every hook but Has
// may be nil.
type Family struct {
	Name string
	// Has: the operation is of the family.
	Has func(op ops.Info) bool
	// Task adjusts how the engine measures the point (every rank, before Prepare).
	Task func(pt *inputs.Point, t *measure.Task)
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

// families: every family registered, in registration order (Go initialises
// families/all's imports in the order of their paths).
var families []Family

// Register adds a family; its init calls it. A second family of the same name, or one
// without Owns, is a programming error.
func Register(f Family) {
	if f.Name == "" || f.Has == nil {
		panic("runner.Register: a family needs a name and Has")
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

// FamiliesOf are the names of op's families, in registration order.
func FamiliesOf(op ops.Info) []string {
	var names []string
	for _, f := range of(op) {
		names = append(names, f.Name)
	}
	return names
}

// of is op's families, in registration order.
func of(op ops.Info) []*Family {
	var out []*Family
	for i := range families {
		if families[i].Has(op) {
			out = append(out, &families[i])
		}
	}
	return out
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

// taskFamilies lets the point's families adjust its task.
func taskFamilies(pt *inputs.Point, t *measure.Task) {
	for _, f := range of(pt.Op()) {
		if f.Task != nil {
			f.Task(pt, t)
		}
	}
}

// prepareFamilies lets the point's families complete its request.
func (r *Runner) prepareFamilies(pt *inputs.Point, spec *ops.Request) error {
	for _, f := range of(pt.Op()) {
		if f.Prepare != nil {
			if err := f.Prepare(r, pt, spec); err != nil {
				return err
			}
		}
	}
	return nil
}

// measuredFamilies runs the Measured hooks of an operation just measured, keeping
// their notes for the point's record.
func (r *Runner) measuredFamilies(op Op, spec ops.Request) error {
	for _, f := range of(spec.Info) {
		if f.Measured == nil {
			continue
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
	}
	return nil
}

// doneFamilies runs the Done hooks after a point.
func (r *Runner) doneFamilies(spec ops.Request) {
	for _, f := range of(spec.Info) {
		if f.Done != nil {
			f.Done(r, spec)
		}
	}
}

// recordFamilies adds the point's families' fields to its record.
func recordFamilies(p *record.Point, pt *inputs.Point, notes map[string]any) {
	for _, f := range of(pt.Op()) {
		if f.Record != nil {
			f.Record(p, pt, notes[f.Name])
		}
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
