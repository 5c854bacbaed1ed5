package inputs

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// A tune file (skampi tune -i FILE) names what to measure (suite = a built-in or a
// file, or [settings] and [[measurement]] inline, as in a suite) and a grid of
// settings; every combination is one launch. Its keys:
//
//	libraries      = ["openmpi", "mpich"]          which skampi binaries (default openmpi)
//	np             = [2, 4]                        process counts (default 2)
//	repeats        = 2                             interleaved repeats of every combination
//	max_launches   = 1000                          refuse a grid of more launches (the default)
//	[mca]          name = [values]                 Open MPI MCA parameters (OMPI_MCA_name)
//	[cvar]         MPIR_CVAR_NAME = [values]       MPICH control variables
//	[env]          NAME = [values]                 any environment variable (UCX_RNDV_THRESH)
//	[suite_settings] barrier_above = [values]      suite settings, over the suite's [settings]
var tuneKeys = []string{"suite", "libraries", "np", "repeats", "max_launches", "controls", "mca", "cvar", "env", "suite_settings"}

// DefaultMaxLaunches bounds a sweep's launches (combinations × repeats) unless the
// tune file sets max_launches: values multiply, and a few lines of grid can ask for
// more launches than anyone means to wait for.
const DefaultMaxLaunches = 1000

// MaxTuneNP bounds a process count a tune file (or tune --np) sweeps.
const MaxTuneNP = 1024

// Bounds of what a tune file may ask for, checked before anything is expanded.
const (
	maxLaunchesLimit = 100_000 // max_launches itself
	maxTuneParams    = 64      // parameters: each is a variable of every launch
	maxNameBytes     = 256     // a parameter's name
	maxValueBytes    = 4096    // a value: environment strings have limits of their own
)

// Tune is a parsed tune file.
type Tune struct {
	Name, Source, SHA256, Description string
	// SuiteName is the suite measured: a built-in's name, a file's path (relative to
	// the tune file's directory when not absolute), or "" for inline measurements.
	SuiteName string
	// SuiteSource is what was read for it (a path, or "builtin:NAME") and SuiteSHA256
	// the hash of that text: a sweep's results belong to the text, not to the name.
	SuiteSource, SuiteSHA256 string
	Libraries                []string
	NP                       []int
	Repeats                  int
	MaxLaunches              int
	Params                   []Param // in file order within each kind: mca, cvar, env, suite_settings
	// Controls: measurements the swept parameters cannot affect, named by the file: any
	// change the sweep shows in them is noise, the gauge a recommendation must beat.
	Controls []string
	suiteDoc map[string]any
	npPos    []Pos // of each np value; none when np is the default
	suitePos Pos   // of suite = (or of the first inline measurement)
}

// Param is one dimension of the grid.
type Param struct {
	Kind   string // "mca", "cvar", "env" or "setting"
	Name   string // as written: btl_vader_eager_limit, MPIR_CVAR_..., UCX_TLS, barrier_above
	Values []string
	Pos    Pos   // of the key
	ValPos []Pos // of each value
	raw    []any // each value as the file typed it, for suite settings
}

// EnvName is the variable a library reads the parameter from ("" for suite settings).
func (p Param) EnvName() string {
	switch p.Kind {
	case "mca":
		return "OMPI_MCA_" + p.Name
	case "cvar", "env":
		return p.Name
	}
	return ""
}

// Libraries a tune file may name.
var TuneLibraries = []string{"openmpi", "mpich"}

// LoadTune reads a tune file, or a built-in one by name (tune-eager, ...).
func LoadTune(nameOrPath string) (*Tune, error) { return LoadTuneNP(nameOrPath, nil) }

// LoadTuneNP is LoadTune with the file's process counts replaced by np (skampi tune
// --np: a tune file written for a node with more cores, run where it is); nil keeps
// them. The override is part of the tune's hash: a sweep of other counts is another
// sweep.
func LoadTuneNP(nameOrPath string, np []int) (*Tune, error) {
	data, err := readBounded(nameOrPath)
	if err == nil {
		return parseTune(nameOrPath, data, np)
	}
	if !os.IsNotExist(err) {
		return nil, fmt.Errorf("reading tune file: %w", err)
	}
	if text, ok := builtinTuneText(nameOrPath); ok {
		t, err := parseTune("builtin:"+nameOrPath, text, np)
		if t != nil {
			t.Name = nameOrPath
		}
		return t, err
	}
	return nil, fmt.Errorf("%s: no such file, and no built-in tune file of that name (built-ins: %s)",
		nameOrPath, joinNames(BuiltinTuneNames()))
}

// DefaultTuneRepeats is how many times each combination runs when a tune file does not
// say: each repeat is one sample of a verdict's test, and with fewer than 4 a side the
// U test can call nothing significant; 5 find a change across most sizes after the
// correction over every point, a change at a few sizes of many needs more.
const DefaultTuneRepeats = 5

// ParseTune validates a tune file: its grid, its size, and the suite every
// combination runs (built and checked on the combination's process count), with
// positions in this file, before anything is expanded or launched.
func ParseTune(file string, data []byte) (*Tune, error) { return parseTune(file, data, nil) }

func parseTune(file string, data []byte, np []int) (*Tune, error) {
	doc, d, sum := readDoc(file, data)
	if doc == nil {
		return nil, d.el
	}
	if np != nil {
		vals := make([]any, len(np))
		for i, n := range np {
			vals[i] = int64(n)
		}
		doc["np"] = vals
		h := sha256.Sum256(fmt.Appendf(slices.Clip(data), "\n# --np %v\n", np))
		sum = hex.EncodeToString(h[:])
	}
	t := &Tune{Name: baseName(file), Source: file, SHA256: sum, Repeats: DefaultTuneRepeats, NP: []int{2}, Libraries: []string{"openmpi"},
		MaxLaunches: DefaultMaxLaunches}
	_, inline := doc["measurement"]
	if v, ok := doc["description"]; ok {
		if s, isStr := v.(string); isStr {
			t.Description = s
		} else if !inline {
			d.errAt("description", "must be a string, got %s", typeName(v))
		}
	}
	if v, ok := doc["suite"]; ok {
		s, isStr := v.(string)
		switch {
		case !isStr || s == "":
			d.errAt("suite", "must be a built-in suite's name or a suite file's path, got %s", typeName(v))
		case inline:
			d.errAt("suite", "a tune file measures a suite (suite = ...) or its own [[measurement]]s, not both")
		default:
			t.SuiteName = s
		}
		t.suitePos = d.ix.at("suite")
	} else if !inline {
		d.el.add(Pos{}, "nothing to measure: name a suite (suite = \"pt2pt\") or give [[measurement]]s")
	}
	if inline {
		t.suitePos = d.ix.keyAt("measurement.0")
		t.inlineSuite(d, doc)
	} else {
		for k := range doc {
			if !slices.Contains(tuneKeys, k) && k != "description" {
				d.unknownKey(k, k, append([]string{"description"}, tuneKeys...))
			}
		}
	}
	t.parseRuns(d, doc)
	t.parseParams(d, doc)
	t.checkGrid(d)
	if len(d.el.Errors) == 0 && t.SuiteName != "" {
		if err := t.loadSuite(file); err != nil {
			if sel, ok := err.(*ErrorList); ok {
				// The suite's own mistakes, at their places in it, after the line that
				// says which suite they are in.
				el := &ErrorList{File: file}
				n := fmt.Sprintf("%d errors", len(sel.Errors))
				if len(sel.Errors) == 1 {
					n = "1 error"
				}
				el.add(t.suitePos, "suite: %s does not parse (%s)", shown(t.SuiteName), n)
				el.Errors = append(el.Errors, sel.Errors...)
				return nil, el
			}
			d.el.add(t.suitePos, "suite: %v", err)
		}
	}
	if len(d.el.Errors) == 0 {
		t.checkSuites(d)
	}
	if v, ok := doc["controls"]; ok && len(d.el.Errors) == 0 {
		t.parseControls(d, v)
	}
	if err := d.finish(); err != nil {
		return nil, err
	}
	return t, nil
}

// inlineSuite checks the tune file's own measurements as a suite, in this file, with
// this file's positions, and keeps them for the combinations.
func (t *Tune) inlineSuite(d *decoder, doc map[string]any) {
	d.extra = append(d.extra, tuneKeys...)
	sd := map[string]any{"measurement": doc["measurement"]}
	for _, k := range []string{"description", "settings"} {
		if v, ok := doc[k]; ok {
			sd[k] = v
		}
	}
	for k, v := range doc {
		if !slices.Contains(tuneKeys, k) {
			sd[k] = v // unknown keys, reported by suite
		}
	}
	d.suite(sd)
	t.suiteDoc = map[string]any{"measurement": doc["measurement"]}
	for _, k := range []string{"settings", "description"} {
		if v, ok := doc[k]; ok {
			t.suiteDoc[k] = v
		}
	}
}

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

// loadSuite reads the measured suite (a path relative to the tune file's directory, or
// a built-in) and keeps its document for the combinations, and its text's hash.
func (t *Tune) loadSuite(file string) error {
	name := t.SuiteName
	path := name
	if !filepath.IsAbs(path) && !strings.HasPrefix(file, "builtin:") {
		path = filepath.Join(filepath.Dir(file), name)
	}
	var data []byte
	if b, err := readBounded(path); err == nil {
		data, t.SuiteSource = b, path
	} else if b, ok := builtinText(name); ok {
		data, t.SuiteSource = b, "builtin:"+name
	} else {
		return fmt.Errorf("%s: no such file, and no built-in suite of that name (built-ins: %s)", shown(name), joinNames(BuiltinNames()))
	}
	if _, err := Parse(t.SuiteSource, data); err != nil {
		return err
	}
	sum := sha256.Sum256(data)
	t.SuiteSHA256 = hex.EncodeToString(sum[:])
	return toml.Unmarshal(data, &t.suiteDoc)
}

// parseControls reads controls: names of the suite's measurements, not all of them (a
// sweep that only controls has nothing to judge).
func (t *Tune) parseControls(d *decoder, v any) {
	var names []string
	ms, _ := t.suiteDoc["measurement"].([]any)
	for _, m := range ms {
		if tab, ok := m.(map[string]any); ok {
			if n, ok := tab["name"].(string); ok {
				names = append(names, n)
			}
		}
	}
	arr, ok := v.([]any)
	if !ok || len(arr) == 0 {
		d.errAt("controls", "must be a list of the suite's measurement names, such as [%q], got %s", names[len(names)-1], typeName(v))
		return
	}
	for i, x := range arr {
		path := indexPath("controls", v, i)
		s, ok := x.(string)
		switch {
		case !ok:
			d.errAt(path, "must be a measurement's name, got %s", typeName(x))
		case !slices.Contains(names, s):
			d.errAt(path, "the suite has no measurement %q (it has %s)", s, quoteList(names))
		case slices.Contains(t.Controls, s):
			d.errAt(path, "%q is named twice", s)
		default:
			t.Controls = append(t.Controls, s)
		}
	}
	if len(t.Controls) == len(names) && len(names) > 0 {
		d.errAt("controls", "every measurement is a control: nothing is left to judge")
	}
}
