package inputs

import (
	"fmt"
	"slices"
	"strings"
)

// ioDirUse is a directory the MPI-IO measurements of a sweep write in, with the
// first combination of suite settings whose suite writes there and where the tune
// file names it.
type ioDirUse struct {
	dir    string
	values []ParamValue
	pos    Pos
	swept  bool // pos is an io_dir value of [suite_settings]
}

// noteIODirs keeps the directories a combination's plan writes MPI-IO files in, each
// once, for CheckIODirs: whether they exist is a question of the machine, asked
// before launching, not of the file.
func (t *Tune) noteIODirs(d *decoder, plan *Plan, vs []ParamValue) {
	for _, dir := range plan.IODirs() {
		if slices.ContainsFunc(t.ioDirs, func(u ioDirUse) bool { return u.dir == dir }) {
			continue
		}
		u := ioDirUse{dir: dir, values: vs, pos: t.suitePos}
		for _, v := range vs {
			if i := slices.Index(v.Param.Values, v.Value); v.Param.Name == "io_dir" && i >= 0 {
				u.pos, u.swept = v.Param.ValPos[i], true
			}
		}
		if !u.swept && t.SuiteName == "" {
			// Inline measurements: the io_dir line of the one that writes there.
			for _, m := range plan.Measurements {
				if !m.Op.IO || m.Settings.IODir != dir {
					continue
				}
				for _, path := range []string{fmt.Sprintf("measurement.%d.io_dir", m.Index), "settings.io_dir"} {
					if p := d.ix.at(path); p.Line > 0 {
						u.pos = p
						break
					}
				}
				break
			}
		}
		t.ioDirs = append(t.ioDirs, u)
	}
}

// CheckIODirs checks, as skampi run does before it starts, that every directory the
// sweep's MPI-IO measurements write in (io_dir, or the temporary directory) is one
// this process can write in, before the first launch: each launch would fail there.
// Each problem is at the io_dir value the tune file sweeps (else where its suite
// sets it), with the combinations that would have run it.
func (t *Tune) CheckIODirs() error {
	el := &ErrorList{File: t.Source}
	for _, u := range t.ioDirs {
		err := CheckIODir(u.dir)
		if err == nil {
			continue
		}
		what := "suite"
		if u.swept {
			what = "suite_settings:" + withText(u.values)
		}
		el.add(u.pos, "%s (%s): the MPI-IO measurements cannot run: %v", what, t.combinationsWith(u.values), err)
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
