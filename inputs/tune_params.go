package inputs

import (
	"fmt"
	"slices"
	"strings"
)

// parseRuns reads what multiplies every combination: libraries, process counts,
// repeats, and the bound on launches.
func (t *Tune) parseRuns(d *decoder, doc map[string]any) {
	if v, ok := doc["max_launches"]; ok {
		n, ok := v.(int64)
		if !ok || n < 1 || n > maxLaunchesLimit {
			d.errAt("max_launches", "must be a count from 1 to %d, got %v", maxLaunchesLimit, v)
		} else {
			t.MaxLaunches = int(n)
		}
	}
	if v, ok := doc["libraries"]; ok {
		t.Libraries = nil
		for i, x := range list(v) {
			s, ok := x.(string)
			path := indexPath("libraries", v, i)
			switch {
			case !ok:
				d.errAt(path, "must be a library name (%s), got %s", quoteList(TuneLibraries), typeName(x))
			case !slices.Contains(TuneLibraries, s):
				d.errAt(path, "unknown library %q (%s)", s, quoteList(TuneLibraries))
			case slices.Contains(t.Libraries, s):
				d.errAt(path, "%q is named twice", s)
			default:
				t.Libraries = append(t.Libraries, s)
			}
		}
	}
	if v, ok := doc["np"]; ok {
		t.NP = nil
		for i, x := range list(v) {
			path := indexPath("np", v, i)
			n, ok := x.(int64)
			switch {
			case !ok || n < 1 || n > MaxTuneNP:
				d.errAt(path, "must be a process count from 1 to %d, got %v", MaxTuneNP, x)
			case slices.Contains(t.NP, int(n)):
				// Two equal counts would be one combination measured into one directory.
				d.errAt(path, "%d is listed twice", n)
			default:
				t.NP, t.npPos = append(t.NP, int(n)), append(t.npPos, d.ix.at(path))
			}
		}
	}
	if v, ok := doc["repeats"]; ok {
		n, ok := v.(int64)
		if !ok || n < 1 || n > 100 {
			d.errAt("repeats", "must be a count from 1 to 100, got %v", v)
		} else {
			t.Repeats = int(n)
		}
	}
}

// parseParams reads the grid's parameters: [mca], [cvar], [env], [suite_settings].
func (t *Tune) parseParams(d *decoder, doc map[string]any) {
	for _, kind := range []string{"mca", "cvar", "env", "suite_settings"} {
		v, ok := doc[kind]
		if !ok {
			continue
		}
		tab, ok := v.(map[string]any)
		if !ok {
			d.errAt(kind, "must be a table ([%s]) of names and lists of values, got %s", kind, typeName(v))
			continue
		}
		for _, name := range sortedByPos(d, kind, tab) {
			path := kind + "." + name
			if len(t.Params) == maxTuneParams {
				d.errKey(path, "more than %d parameters: each is a variable of every launch", maxTuneParams)
				return
			}
			p := Param{Kind: kind, Name: name, Pos: d.ix.keyAt(path)}
			if kind == "suite_settings" {
				p.Kind = "setting"
			} else if msg := badName(kind, name); msg != "" {
				d.el.add(p.Pos, "%s: %s", kind, msg)
				continue
			}
			values := list(tab[name])
			if len(values) > t.MaxLaunches {
				// More values than launches allowed: refused before each is looked at.
				d.errKey(path, "%d values, more than max_launches = %d on their own", len(values), t.MaxLaunches)
				continue
			}
			seen := map[string]bool{}
			for i, x := range values {
				vp := indexPath(path, tab[name], i)
				s, ok := scalarText(x)
				switch {
				case !ok:
					d.errAt(vp, "must be a number, a string or a boolean, got %s", typeName(x))
				case len(s) > maxValueBytes:
					d.errAt(vp, "a value of %d bytes, more than %d", len(s), maxValueBytes)
				case p.Kind != "setting" && strings.ContainsRune(s, 0):
					d.errAt(vp, "contains a NUL character, which no environment variable can hold")
				case seen[s]:
					d.errAt(vp, "%s is listed twice", shown(s))
				default:
					seen[s] = true
					p.Values, p.ValPos, p.raw = append(p.Values, s), append(p.ValPos, d.ix.at(vp)), append(p.raw, x)
				}
			}
			if len(p.Values) == 0 {
				if len(values) == 0 {
					d.errAt(path, "no values to try")
				}
				continue
			}
			switch {
			case kind == "suite_settings":
				d.checkSetting(path, name, tab[name])
			case kind == "mca" && strings.HasPrefix(name, "OMPI_MCA_"):
				d.errKey(path, "name the MCA parameter without OMPI_MCA_ (%q)", strings.TrimPrefix(name, "OMPI_MCA_"))
			case kind == "env" && (strings.HasPrefix(name, "OMPI_MCA_") || strings.HasPrefix(name, "MPIR_CVAR_")):
				d.errKey(path, "%s belongs in [mca] or [cvar], where it is checked against the library", name)
			}
			t.Params = append(t.Params, p)
		}
	}
	for _, p := range t.Params {
		if p.Kind == "mca" && !slices.Contains(t.Libraries, "openmpi") || p.Kind == "cvar" && !slices.Contains(t.Libraries, "mpich") {
			d.el.add(p.Pos, "%s.%s: applies to %s, which libraries does not name", p.Kind, p.Name,
				map[string]string{"mca": "openmpi", "cvar": "mpich"}[p.Kind])
		}
	}
}

// badName says what is wrong with a parameter's name, or "": it becomes an
// environment variable (OMPI_MCA_name, MPIR_CVAR_..., or itself), so it must be one
// that the C library and a shell read back as written.
func badName(kind, name string) string {
	what := map[string]string{"mca": "an MCA parameter name", "cvar": "a control variable name", "env": "an environment variable name"}[kind]
	rule := "letters, digits and _, not starting with a digit"
	if kind == "mca" {
		rule = "letters, digits and _"
	}
	switch {
	case name == "":
		return fmt.Sprintf("an empty name is not %s", what)
	case len(name) > maxNameBytes:
		return fmt.Sprintf("a name of %d bytes, more than %d", len(name), maxNameBytes)
	}
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' && (i > 0 || kind == "mca")) {
			return fmt.Sprintf("%q is not %s (%s)", name, what, rule)
		}
	}
	if kind == "cvar" && !strings.HasPrefix(name, "MPIR_CVAR_") {
		return fmt.Sprintf("an MPICH control variable is named MPIR_CVAR_..., got %q", name)
	}
	return ""
}

// errKey reports a problem with a key itself (its name), at the key.
func (d *decoder) errKey(path string, format string, args ...any) {
	d.el.add(d.ix.keyAt(path), "%s: %s", humanPath(path), fmt.Sprintf(format, args...))
}

// checkSetting validates every value of a suite setting as the suite's own would be.
func (d *decoder) checkSetting(path, name string, v any) {
	st, ok := findSetting(name)
	if !ok {
		d.unknownKey(path, name, settingNames())
		return
	}
	for i, x := range list(v) {
		s := Defaults()
		if err := st.set(&s, x); err != nil {
			d.errAt(indexPath(path, v, i), "%v", err)
		}
	}
}
