package inputs

import (
	"errors"
	"fmt"
	"strings"
)

// maxSweepPoints bounds the points of a whole sweep (every launch's), as
// maxPlanPoints bounds one suite's.
const maxSweepPoints = maxPlanPoints

// maxSweepSuiteBytes bounds a sweep's suite text: a suite file is written for every
// combination, and every distinct one is parsed before anything runs.
const maxSweepSuiteBytes = 32 << 20

// checkSuites builds the suite of every combination of suite settings and checks it
// as skampi run checks a suite before it starts: parsed, then expanded on each of the
// grid's process counts. Each setting's values were checked one by one; what they
// make together (a window too large for the buffer, a root the process count does
// not have) is the tune file's mistake too, at the value or process count that makes
// it. It runs once the grid is known to be within max_launches.
func (t *Tune) checkSuites(d *decoder) {
	var sets []Param
	for _, p := range t.Params {
		if p.Kind == "setting" {
			sets = append(sets, p)
		}
	}
	n, _ := t.count()
	combos, tuples := int(n.Int64()), 1
	for _, p := range sets {
		tuples *= len(p.Values)
	}
	// Every pair of suite settings and process count is run by as many launches.
	perRun := combos / (tuples * len(t.NP)) * t.Repeats
	base, err := t.suiteText(nil)
	if err != nil {
		d.el.add(t.suitePos, "suite: %v", err)
		return
	}
	if int64(len(base))*int64(combos) > maxSweepSuiteBytes {
		d.el.add(t.suitePos, "the sweep writes %d suite files (one per combination) of %s each, more than %s in all: a smaller suite, or fewer combinations",
			combos, FormatSize(int64(len(base))), FormatSize(maxSweepSuiteBytes))
		return
	}
	reported := map[string]bool{}
	report := func(pos Pos, format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		if k := fmt.Sprint(pos, msg); !reported[k] {
			reported[k] = true
			d.el.add(pos, "%s", msg)
		}
	}
	baseErr := map[int]string{} // why the baseline's settings do not run on this many processes
	points := 0
	idx := make([]int, len(sets))
	// Why each swept setting changes nothing, until a combination's suite takes it.
	unused := map[string]*unusedWhy{}
	for {
		vs := make([]ParamValue, len(sets))
		baseline := true
		for i, p := range sets {
			vs[i] = ParamValue{p, p.Values[idx[i]], p.raw[idx[i]]}
			baseline = baseline && idx[i] == 0
		}
		with := withText(vs)
		text, err := t.suiteText(vs)
		var plan *Plan
		if err == nil {
			plan, err = Parse(t.Source, text)
		}
		if err != nil {
			msg := messages(err)
			report(t.blame(vs, idx, msg), "suite_settings:%s the suite does not parse: %s", with, msg)
		} else {
			t.noteStartValues(d, plan, vs)
			for _, p := range sets {
				if why, seen := unused[p.Name]; !seen || why != nil {
					unused[p.Name] = defaultUnused(p.Name, plan.Measurements)
				}
			}
			if points += planPoints(plan) * len(t.NP) * perRun; points > maxSweepPoints {
				d.el.add(t.suitePos, "the sweep measures more than %s points (sizes × methods × procs of every launch): fewer sizes, values or repeats",
					grouped(fmt.Sprint(maxSweepPoints)))
				return
			}
			for i, np := range t.NP {
				err := runsOn(plan, np)
				msg := messages(err)
				if baseline {
					baseErr[np] = msg
				}
				switch {
				case err == nil, !baseline && msg == baseErr[np]:
					// runs, or fails as the baseline does: said once, at np
				case !baseline && baseErr[np] == "":
					report(t.blame(vs, idx, msg), "suite_settings:%s the suite does not run on %s: %s", with, procs(np), msg)
				case i < len(t.npPos):
					report(t.npPos[i], "np: the suite does not run on %s%s: %s", procs(np), paren(with), msg)
				default:
					report(t.suitePos, "the suite does not run on %s (np by default)%s: %s", procs(np), paren(with), msg)
				}
			}
		}
		// The next combination of settings, the last one's values fastest.
		k := len(idx) - 1
		for ; k >= 0; k-- {
			if idx[k]++; idx[k] < len(sets[k].Values) {
				break
			}
			idx[k] = 0
		}
		if k < 0 {
			break
		}
	}
	for _, p := range sets {
		if why := unused[p.Name]; why != nil {
			d.errKey("suite_settings."+p.Name, "every value measures the same: %s", why.note)
		}
	}
}

// runsOn is what skampi run would refuse before starting a job of np processes.
func runsOn(plan *Plan, np int) error {
	ex, err := plan.Expand(Job{NProcs: np})
	if err != nil {
		return err
	}
	if len(ex.Points) == 0 {
		return fmt.Errorf("nothing to measure (%s)", strings.Join(ex.Notes, "; "))
	}
	return nil
}

// planPoints is at most how many points a plan measures on any job.
func planPoints(p *Plan) int {
	n := 0
	for _, m := range p.Measurements {
		n += len(m.Sizes) * max(1, len(m.Methods)) * len(m.ProcsList())
	}
	return n
}

// blame is the value a failing combination of suite settings is pointed at: the one
// of a setting the message names, else the last that is not its setting's first (the
// baseline's), else the last.
func (t *Tune) blame(vs []ParamValue, idx []int, msg string) Pos {
	if len(vs) == 0 {
		return t.suitePos
	}
	for i, v := range vs {
		if strings.Contains(msg, v.Param.Name) {
			return v.Param.ValPos[idx[i]]
		}
	}
	for i := len(vs) - 1; i >= 0; i-- {
		if idx[i] != 0 {
			return vs[i].Param.ValPos[idx[i]]
		}
	}
	return vs[len(vs)-1].Param.ValPos[idx[len(vs)-1]]
}

// withText is " with a = 1, b = 2" for the suite settings of a combination.
func withText(vs []ParamValue) string {
	if len(vs) == 0 {
		return ""
	}
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.Param.Name + " = " + v.Shown()
	}
	return " with " + strings.Join(parts, ", ")
}

func procs(n int) string {
	if n == 1 {
		return "1 process"
	}
	return fmt.Sprintf("%d processes", n)
}

// paren is " with a = 1" as " (with a = 1)".
func paren(with string) string {
	if with == "" {
		return ""
	}
	return " (" + strings.TrimPrefix(with, " ") + ")"
}

// messages is an error of a generated suite without its positions (they are in a
// text nobody wrote), three problems at most, on one line.
func messages(err error) string {
	if err == nil {
		return ""
	}
	var el *ErrorList
	if !errors.As(err, &el) {
		return strings.TrimSuffix(err.Error(), " (use --np)")
	}
	var out []string
	for i, e := range el.Errors {
		if i == 3 {
			out = append(out, fmt.Sprintf("and %d more", len(el.Errors)-3))
			break
		}
		out = append(out, e.Msg)
	}
	return strings.Join(out, "; ")
}
