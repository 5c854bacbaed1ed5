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

// Bounds of what a tune file may ask for, checked before anything is expanded.
const (
	maxLaunchesLimit = 100_000 // max_launches itself
	maxTuneParams    = 64      // parameters: each is a variable of every launch
	maxNameBytes     = 256     // a parameter's name
	maxValueBytes    = 4096    // a value: environment strings have limits of their own
)

// MaxTuneNP bounds a sweep's process counts: every launch starts them on this machine
// or through the tune's launcher.
const MaxTuneNP = 1024

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
	// Keep, when set, leaves out of the grid the combinations it refuses: a generated
	// tune's parameter that means something only beside another's value (a segment
	// size, beside a forced collective algorithm). A tune file cannot set it.
	Keep     func([]ParamValue) bool
	suiteDoc map[string]any
	npPos    []Pos // of each np value; none when np is the default
	suitePos Pos   // of suite = (or of the first inline measurement)
	// startValues: what the families check on this machine before start (CheckStart).
	startValues []startValue
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
