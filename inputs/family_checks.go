package inputs

import "reflect"

// A family's own checks of a plan, beside the core's: of each point when the plan is
// expanded for a job (a question of the plan alone), and of the machine before any
// process starts (a question of this machine, which the file cannot answer). The core
// calls every registered check and knows no family's.

// pointChecks: the families' checks of a point (RegisterPointCheck).
var pointChecks []func(pt *Point) string

// RegisterPointCheck adds a family's check of every point of a plan, made where the
// plan is expanded for a job (skampi check, skampi run before it starts, skampi tune
// for every combination): f says why the point cannot be measured, "" when it can. A
// measurement's first such point is said at the measurement's position
// (file:line:col), `measurement "NAME": ` before f's words. Its package's init calls it.
func RegisterPointCheck(f func(pt *Point) string) {
	pointChecks = append(pointChecks, f)
}

// commChecks: the families' checks of a measurement on a communicator size
// (RegisterCommCheck).
var commChecks []func(m *Measurement, nprocs int) string

// RegisterCommCheck adds a family's check of a measurement on communicators of nprocs
// processes, made where the plan is expanded for a job, for every size its procs give
// on the job before any of its points is listed (a process topology that cannot lay
// out nprocs, say): f says why the measurement cannot run on so many processes, ""
// when it can. The first such is said at the measurement's position (file:line:col),
// `measurement "NAME": ` before f's words, and the measurement's further sizes are
// not expanded. Its package's init calls it.
func RegisterCommCheck(f func(m *Measurement, nprocs int) string) {
	commChecks = append(commChecks, f)
}

// commProblem is the first registered check's words against m on nprocs processes.
func commProblem(m *Measurement, nprocs int) string {
	for _, f := range commChecks {
		if msg := f(m, nprocs); msg != "" {
			return msg
		}
	}
	return ""
}

// StartCheck is a family's check of the machine a plan is started on (a directory to
// write in, the space there): the same suite may run on another machine, so skampi
// check does not make it; skampi run makes it before any process starts (Plan.CheckStart),
// skampi tune before its first launch (Tune.CheckStart), with what each value is in the
// tune file.
type StartCheck struct {
	// Setting names a setting (RegisterSetting) whose values Value checks: each value
	// it takes among the plan's measurements that use it (its scope), once, in plan
	// order. "": no value is checked.
	Setting string
	Value   func(v any) error
	// What names, in tune's words, the measurements that cannot run when Value fails:
	// "the MPI-IO measurements".
	What string
	// Points checks the plan's points together, once every value passed (nil: none):
	// the points it returns cannot run here, each said at its measurement's position,
	// `measurement "NAME": ` before its words. skampi run makes it; a sweep leaves it to
	// each launch's skampi run.
	Points func(points []Point) []PointProblem
}

// PointProblem is a point a StartCheck refuses, and why.
type PointProblem struct {
	Point *Point
	Msg   string
}

// startChecks: the families' checks before start (RegisterStartCheck).
var startChecks []StartCheck

// RegisterStartCheck adds a family's check of the machine before start; its package's
// init calls it. A check of no setting's values and no points, or a value check that
// says not which measurements it stops, is a programming error.
func RegisterStartCheck(c StartCheck) {
	if (c.Setting == "") != (c.Value == nil) || (c.Setting == "" && c.Points == nil) {
		panic("inputs.RegisterStartCheck: a check needs Setting with Value, or Points")
	}
	if c.Setting != "" && c.What == "" {
		panic("inputs.RegisterStartCheck: the check of " + c.Setting + " stops some measurements: say which (What)")
	}
	startChecks = append(startChecks, c)
}

// SettingValues are the values a setting registered by a family (Settings.Value) takes
// among the plan's measurements that use it (its scope, applies.go), each once, in plan
// order: the directories a family writes in, say.
func (p *Plan) SettingValues(name string) []any {
	sc, scoped := scopes[name]
	var out []any
	for i := range p.Measurements {
		m := &p.Measurements[i]
		if scoped && !sc.applies(m) {
			continue
		}
		v := m.Settings.Value(name)
		if !containsValue(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// containsValue: v is among vs (values of one setting: strings, numbers, lists).
func containsValue(vs []any, v any) bool {
	for _, x := range vs {
		if reflect.DeepEqual(x, v) {
			return true
		}
	}
	return false
}

// CheckStart makes the families' checks of this machine before any process starts
// (RegisterStartCheck) on the plan and its points: every value first, the first
// problem returned as the check says it (a plain error: the machine's, not the
// file's); then the points, every problem at its measurement (an *ErrorList).
func (p *Plan) CheckStart(points []Point) error {
	for _, c := range startChecks {
		if c.Value == nil {
			continue
		}
		for _, v := range p.SettingValues(c.Setting) {
			if err := c.Value(v); err != nil {
				return err
			}
		}
	}
	el := &ErrorList{File: p.Source}
	for _, c := range startChecks {
		if c.Points == nil {
			continue
		}
		for _, pr := range c.Points(points) {
			m := pr.Point.Measurement
			el.add(m.Pos, "measurement %q: %s", m.Name, pr.Msg)
		}
	}
	if len(el.Errors) > 0 {
		return el
	}
	return nil
}

// TypeName is a TOML value's type in words ("an integer", "a string"), for a family's
// Parse to say what it got.
func TypeName(v any) string { return typeName(v) }

// ApproxSize is n bytes in at most about 8 characters ("59.5GiB"), as the checks before
// start say sizes.
func ApproxSize(n int64) string { return approxSize(n) }
