package inputs

import (
	"fmt"
	"slices"
	"strings"
)

// startValue is a value of a setting a family checks on this machine before start
// (StartCheck) that a sweep's plans take, with the first combination of suite settings
// whose suite takes it and where the tune file names it.
type startValue struct {
	check  int // in startChecks
	value  any
	values []ParamValue
	pos    Pos
	swept  bool // pos is a value of the setting in [suite_settings]
}

// noteStartValues keeps the values of the checked settings (StartCheck.Setting) a
// combination's plan takes, each once, for CheckStart: whether the machine takes them
// (a directory exists) is a question of the machine, asked before launching, not of
// the file.
func (t *Tune) noteStartValues(d *decoder, plan *Plan, vs []ParamValue) {
	for ci, c := range startChecks {
		if c.Value == nil {
			continue
		}
		for _, val := range plan.SettingValues(c.Setting) {
			if t.noted(ci, val) {
				continue
			}
			u := startValue{check: ci, value: val, values: vs, pos: t.suitePos}
			for _, v := range vs {
				if i := slices.Index(v.Param.Values, v.Value); v.Param.Kind == "setting" && v.Param.Name == c.Setting && i >= 0 {
					u.pos, u.swept = v.Param.ValPos[i], true
				}
			}
			if !u.swept && t.SuiteName == "" {
				// Inline measurements: the setting's line of the first that takes the value.
				sc, scoped := scopes[c.Setting]
				for i := range plan.Measurements {
					m := &plan.Measurements[i]
					if (scoped && !sc.applies(m)) || !containsValue([]any{m.Settings.Value(c.Setting)}, val) {
						continue
					}
					for _, path := range []string{fmt.Sprintf("measurement.%d.%s", m.Index, c.Setting), "settings." + c.Setting} {
						if p := d.ix.at(path); p.Line > 0 {
							u.pos = p
							break
						}
					}
					break
				}
			}
			t.startValues = append(t.startValues, u)
		}
	}
}

// noted: check ci's value val is kept already.
func (t *Tune) noted(ci int, val any) bool {
	for _, u := range t.startValues {
		if u.check == ci && containsValue([]any{u.value}, val) {
			return true
		}
	}
	return false
}

// CheckStart makes the families' checks of this machine before start
// (RegisterStartCheck) on every value the sweep's plans take of a checked setting
// (io_dir, say), as skampi run does before it starts, before the first launch: each
// launch would fail there. Each problem is at the value the tune file sweeps (else where
// its suite sets it), with the combinations that would have run it. The points' checks
// are left to each launch.
func (t *Tune) CheckStart() error {
	el := &ErrorList{File: t.Source}
	for _, u := range t.startValues {
		c := startChecks[u.check]
		err := c.Value(u.value)
		if err == nil {
			continue
		}
		what := "suite"
		if u.swept {
			what = "suite_settings:" + withText(u.values)
		}
		el.add(u.pos, "%s (%s): %s cannot run: %v", what, t.combinationsWith(u.values), c.What, err)
	}
	if len(el.Errors) > 0 {
		return el
	}
	return nil
}

// combinationsWith names the sweep's combinations that have the suite settings vs:
// "combination NAME", or "combinations NAME and N more".
func (t *Tune) combinationsWith(vs []ParamValue) string {
	var names []string
	for _, c := range t.Combinations() {
		if settingsOf(c.Values) == settingsOf(vs) {
			names = append(names, c.Name)
		}
	}
	switch len(names) {
	case 0:
		return "no combination"
	case 1:
		return "combination " + names[0]
	}
	return fmt.Sprintf("combinations %s and %d more", names[0], len(names)-1)
}

// settingsOf is the suite settings among a combination's values, as text.
func settingsOf(vs []ParamValue) string {
	var parts []string
	for _, v := range vs {
		if v.Param.Kind == "setting" {
			parts = append(parts, v.Param.Name+"\x00"+v.Value)
		}
	}
	return strings.Join(parts, "\x00")
}
