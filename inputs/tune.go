package inputs

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
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
//	[mca]          name = [values]                 Open MPI MCA parameters (OMPI_MCA_name)
//	[cvar]         MPIR_CVAR_NAME = [values]       MPICH control variables
//	[env]          NAME = [values]                 any environment variable (UCX_RNDV_THRESH)
//	[suite_settings] barrier_above = [values]      suite settings, over the suite's [settings]
var tuneKeys = []string{"suite", "libraries", "np", "repeats", "mca", "cvar", "env", "suite_settings"}

// Tune is a parsed tune file.
type Tune struct {
	Name, Source, SHA256, Description string
	// SuiteName is the suite measured: a built-in's name, a file's path (relative to
	// the tune file's directory when not absolute), or "" for inline measurements.
	SuiteName string
	Libraries []string
	NP        []int
	Repeats   int
	Params    []Param // in file order within each kind: mca, cvar, env, suite_settings
	suiteDoc  map[string]any
}

// Param is one dimension of the grid.
type Param struct {
	Kind   string // "mca", "cvar", "env" or "setting"
	Name   string // as written: btl_vader_eager_limit, MPIR_CVAR_..., UCX_TLS, barrier_above
	Values []string
	Pos    Pos   // of the key
	ValPos []Pos // of each value
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
func LoadTune(nameOrPath string) (*Tune, error) {
	data, err := readBounded(nameOrPath)
	if err == nil {
		return ParseTune(nameOrPath, data)
	}
	if !os.IsNotExist(err) {
		return nil, fmt.Errorf("reading tune file: %w", err)
	}
	if text, ok := builtinTuneText(nameOrPath); ok {
		t, err := ParseTune("builtin:"+nameOrPath, text)
		if t != nil {
			t.Name = nameOrPath
		}
		return t, err
	}
	return nil, fmt.Errorf("%s: no such file, and no built-in tune file of that name (built-ins: %s)",
		nameOrPath, joinNames(BuiltinTuneNames()))
}

// ParseTune validates a tune file: its grid, and the suite it measures (inline
// measurements are checked in place, with their positions in this file).
func ParseTune(file string, data []byte) (*Tune, error) {
	doc, d, sum := readDoc(file, data)
	if doc == nil {
		return nil, d.el
	}
	t := &Tune{Name: baseName(file), Source: file, SHA256: sum, Repeats: 1, NP: []int{2}, Libraries: []string{"openmpi"}}
	if s, ok := doc["description"].(string); ok {
		t.Description = s
	}
	_, inline := doc["measurement"]
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
	} else if !inline {
		d.el.add(Pos{}, "nothing to measure: name a suite (suite = \"pt2pt\") or give [[measurement]]s")
	}
	if inline {
		// Checked as a suite, in this file, with this file's positions.
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
		if v, ok := doc["settings"]; ok {
			t.suiteDoc["settings"] = v
		}
		if v, ok := doc["description"]; ok {
			t.suiteDoc["description"] = v
		}
	} else {
		for k := range doc {
			if !slices.Contains(tuneKeys, k) && k != "description" {
				d.unknownKey(k, k, append([]string{"description"}, tuneKeys...))
			}
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
			n, ok := x.(int64)
			if !ok || n < 1 || n > 1024 {
				d.errAt(indexPath("np", v, i), "must be a process count from 1 to 1024, got %v", x)
				continue
			}
			t.NP = append(t.NP, int(n))
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
			p := Param{Kind: kind, Name: name, Pos: d.ix.keyAt(path)}
			if kind == "suite_settings" {
				p.Kind = "setting"
			}
			for i, x := range list(tab[name]) {
				vp := indexPath(path, tab[name], i)
				s, ok := scalarText(x)
				if !ok {
					d.errAt(vp, "must be a number, a string or a boolean, got %s", typeName(x))
					continue
				}
				if slices.Contains(p.Values, s) {
					d.errAt(vp, "%s is listed twice", s)
					continue
				}
				p.Values, p.ValPos = append(p.Values, s), append(p.ValPos, d.ix.at(vp))
			}
			if len(p.Values) == 0 {
				d.errAt(path, "no values to try")
				continue
			}
			switch {
			case kind == "suite_settings":
				d.checkSetting(path, name, tab[name])
			case kind == "cvar" && !strings.HasPrefix(name, "MPIR_CVAR_"):
				d.errKey(path, "an MPICH control variable is named MPIR_CVAR_..., got %q", name)
			case kind == "mca" && strings.HasPrefix(name, "OMPI_MCA_"):
				d.errKey(path, "name the MCA parameter without OMPI_MCA_ (%q)", strings.TrimPrefix(name, "OMPI_MCA_"))
			case kind == "env" && (strings.HasPrefix(name, "OMPI_MCA_") || strings.HasPrefix(name, "MPIR_CVAR_")):
				d.errKey(path, "%s belongs in [mca] or [cvar], where it is checked against the library", name)
			}
			t.Params = append(t.Params, p)
		}
	}
	if len(d.el.Errors) == 0 && len(t.Combinations()) < 2 {
		d.el.add(Pos{}, "the grid has one combination: give values to compare ([mca], [cvar], [env], [suite_settings], np or libraries)")
	}
	for _, p := range t.Params {
		if p.Kind == "mca" && !slices.Contains(t.Libraries, "openmpi") || p.Kind == "cvar" && !slices.Contains(t.Libraries, "mpich") {
			d.el.add(p.Pos, "%s.%s: applies to %s, which libraries does not name", map[string]string{"mca": "mca", "cvar": "cvar"}[p.Kind], p.Name,
				map[string]string{"mca": "openmpi", "cvar": "mpich"}[p.Kind])
		}
	}
	if t.SuiteName != "" && len(d.el.Errors) == 0 {
		if err := t.loadSuite(file); err != nil {
			d.el.add(d.ix.at("suite"), "suite: %v", err)
		}
	}
	if err := d.finish(); err != nil {
		return nil, err
	}
	return t, nil
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
// a built-in) and keeps its document for the combinations.
func (t *Tune) loadSuite(file string) error {
	name := t.SuiteName
	path := name
	if !filepath.IsAbs(path) && !strings.HasPrefix(file, "builtin:") {
		path = filepath.Join(filepath.Dir(file), name)
	}
	var data []byte
	if b, err := readBounded(path); err == nil {
		data = b
	} else if b, ok := builtinText(name); ok {
		data = b
	} else {
		return fmt.Errorf("%s: no such file, and no built-in suite of that name (built-ins: %s)", name, joinNames(BuiltinNames()))
	}
	if _, err := Parse(name, data); err != nil {
		return fmt.Errorf("the suite does not parse:\n%v", err)
	}
	return toml.Unmarshal(data, &t.suiteDoc)
}

// Combination is one launch of a sweep: a library, a process count, and one value of
// every parameter that applies to the library.
type Combination struct {
	Name    string // unique, safe as a directory name
	Library string
	NP      int
	Values  []ParamValue
}

// ParamValue is a parameter's value in a combination.
type ParamValue struct {
	Param Param
	Value string
}

// Env is what the combination's launch adds to the environment.
func (c Combination) Env() []string {
	var out []string
	for _, v := range c.Values {
		if n := v.Param.EnvName(); n != "" {
			out = append(out, n+"="+v.Value)
		}
	}
	return out
}

// Describe is the combination in words: "openmpi, np 2, btl_vader_eager_limit=8192".
func (c Combination) Describe() string {
	parts := []string{c.Library, "np " + strconv.Itoa(c.NP)}
	for _, v := range c.Values {
		parts = append(parts, v.Param.Name+"="+v.Value)
	}
	return strings.Join(parts, ", ")
}

// Combinations expands the grid, in a stable order: libraries, process counts, then
// the parameters in file order (the first value of each first). Parameters of the other
// library do not multiply a library's combinations.
func (t *Tune) Combinations() []Combination {
	var out []Combination
	for _, lib := range t.Libraries {
		var params []Param
		for _, p := range t.Params {
			if p.Kind == "mca" && lib != "openmpi" || p.Kind == "cvar" && lib != "mpich" {
				continue
			}
			params = append(params, p)
		}
		for _, np := range t.NP {
			combos := [][]ParamValue{nil}
			for _, p := range params {
				var next [][]ParamValue
				for _, c := range combos {
					for _, v := range p.Values {
						next = append(next, append(slices.Clone(c), ParamValue{p, v}))
					}
				}
				combos = next
			}
			for _, vs := range combos {
				c := Combination{Library: lib, NP: np, Values: vs}
				c.Name = comboName(c)
				out = append(out, c)
			}
		}
	}
	return out
}

func comboName(c Combination) string {
	parts := []string{c.Library, "np" + strconv.Itoa(c.NP)}
	for _, v := range c.Values {
		parts = append(parts, v.Param.Name+"-"+v.Value)
	}
	var b strings.Builder
	for _, r := range strings.Join(parts, "_") {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteRune('+')
		}
	}
	return b.String()
}

// Launch is one run of a sweep: a combination's repeat.
type Launch struct {
	Combination
	Repeat int // from 1
}

// Dir is the launch's results directory below the sweep's.
func (l Launch) Dir() string { return filepath.Join(l.Name, "rep"+strconv.Itoa(l.Repeat)) }

// Schedule is the order of a sweep's launches: every combination once per round, each
// round starting one combination later, so machine drift (another job, thermal state)
// spreads over all settings instead of favouring the ones measured first.
func (t *Tune) Schedule() []Launch {
	cs := t.Combinations()
	var out []Launch
	for r := 0; r < t.Repeats; r++ {
		for i := range cs {
			out = append(out, Launch{cs[(i+r)%len(cs)], r + 1})
		}
	}
	return out
}

// SuiteText is the suite a combination runs: the tune file's suite with the
// combination's suite settings over its [settings].
func (t *Tune) SuiteText(c Combination) ([]byte, error) {
	doc := map[string]any{}
	for k, v := range t.suiteDoc {
		doc[k] = v
	}
	settings := map[string]any{}
	if s, ok := doc["settings"].(map[string]any); ok {
		for k, v := range s {
			settings[k] = v
		}
	}
	for _, v := range c.Values {
		if v.Param.Kind == "setting" {
			settings[v.Param.Name] = scalarValue(v.Value)
		}
	}
	if len(settings) > 0 {
		doc["settings"] = settings
	}
	return toml.Marshal(doc)
}

func list(v any) []any {
	if l, ok := v.([]any); ok {
		return l
	}
	return []any{v}
}

func indexPath(path string, v any, i int) string {
	if _, ok := v.([]any); ok {
		return path + "." + strconv.Itoa(i)
	}
	return path
}

func scalarText(x any) (string, bool) {
	switch v := x.(type) {
	case string:
		return v, true
	case int64:
		return strconv.FormatInt(v, 10), true
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64), true
	case bool:
		return strconv.FormatBool(v), true
	}
	return "", false
}

// scalarValue turns a value back into what TOML would hold.
func scalarValue(s string) any {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, "nN") {
		return f
	}
	if s == "true" || s == "false" {
		return s == "true"
	}
	return s
}

// sortedByPos lists a table's keys in file order.
func sortedByPos(d *decoder, prefix string, tab map[string]any) []string {
	keys := sortedKeys(tab)
	sort.SliceStable(keys, func(i, j int) bool {
		return d.ix.keyAt(prefix + "." + keys[i]).less(d.ix.keyAt(prefix + "." + keys[j]))
	})
	return keys
}
