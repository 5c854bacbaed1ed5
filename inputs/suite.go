// Package inputs reads a TOML suite file into a validated Plan. It is pure Go: every
// mistake in a suite is reported with its position before any MPI process starts.
package inputs

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"
	"github.com/skampi/skampi/ops"
)

// Plan is a validated suite, ready to run.
type Plan struct {
	Name         string // suite name: built-in name or file base name
	Source       string // the path read, or "builtin:NAME"
	SHA256       string // of the suite text
	Text         []byte // the suite text, as read (a results directory keeps a copy)
	Description  string
	Settings     Settings // the suite-wide settings
	Measurements []Measurement
	// Notes are what the suite asks for that does not happen, said with its position
	// (a suite-wide setting no measurement uses); Expand passes them on.
	Notes []string
	// Smoked: the plan is a smoke run's (Smoke).
	Smoked bool
}

// Measurement is one [[measurement]] with its settings resolved and sizes expanded.
type Measurement struct {
	Index int // 0-based position in the suite
	Name  string
	Op    ops.Info
	Sizes []int64
	// Methods are the timing methods measured side by side (method = [...]); nil
	// means the operation's only way of timing.
	Methods  []string
	Settings Settings
	Pos      Pos
	// own are the settings its table sets, over [settings]: a suite-wide value of one
	// of them does not reach it (checkDefaults).
	own map[string]bool
}

// ProcsList is the communicator sizes the measurement runs at; 0 means all ranks.
// Only collectives run on sub-communicators.
func (m Measurement) ProcsList() []int {
	if len(m.Settings.Procs) == 0 || m.Op.Pattern != ops.PatternAll {
		return []int{0}
	}
	return m.Settings.Procs
}

// maxFileBytes bounds a suite file; real suites are a few KiB.
const maxFileBytes = 1 << 20

// maxErrors bounds the errors reported for one file: past that, more help nobody.
const maxErrors = 50

// Parse validates a suite text. On failure the error is an ErrorList with every
// problem found, in file order.
func Parse(file string, data []byte) (*Plan, error) { return parse(file, data, false) }

// parse is Parse; strict makes a suite-wide setting no measurement uses an error, not
// a note (the one-line form, whose flags are all explicit).
func parse(file string, data []byte, strict bool) (*Plan, error) {
	doc, d, sum := readDoc(file, data)
	if doc == nil {
		return nil, d.el
	}
	d.strict = strict
	plan := &Plan{Name: baseName(file), Source: file, SHA256: sum, Text: data}
	plan.Description, plan.Settings, plan.Measurements = d.suite(doc)
	checkPlanSize(d.el, plan.Measurements)
	if err := d.finish(); err != nil {
		return nil, err
	}
	plan.Notes = d.notes
	return plan, nil
}

// readDoc checks and decodes a TOML file (suite or tune file): its size, encoding and
// syntax. doc is nil when it fails, with the errors in d.el.
func readDoc(file string, data []byte) (map[string]any, *decoder, string) {
	el := &ErrorList{File: file}
	d := &decoder{el: el}
	if len(data) > maxFileBytes {
		el.add(Pos{}, "suite file is larger than the %d-byte limit: is this the right file?", maxFileBytes)
		return nil, d, ""
	}
	sum := sha256.Sum256(data)
	// Editors on Windows may start a UTF-8 file with a byte order mark; TOML does not
	// allow one, but it carries no meaning, so skip it (positions then count from the
	// first character the user sees).
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if !utf8.Valid(data) {
		el.add(invalidUTF8(data), "suite file is not valid UTF-8")
		return nil, d, ""
	}
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			el.add(Pos{line, col}, "%s", trimTOML(de.Error()))
		} else {
			el.add(Pos{}, "%s", trimTOML(err.Error()))
		}
		return nil, d, ""
	}
	if len(doc) == 0 {
		what := "is empty"
		if len(bytes.TrimSpace(data)) > 0 {
			what = "has only comments"
		}
		el.add(Pos{}, "the suite file %s: nothing to measure (a suite needs at least one [[measurement]])", what)
		return nil, d, ""
	}
	d.ix = indexPositions(data)
	return doc, d, hex.EncodeToString(sum[:])
}

// finish sorts the errors found by position and bounds them; nil when there are none.
func (d *decoder) finish() error {
	el := d.el
	if len(el.Errors) == 0 {
		return nil
	}
	sort.SliceStable(el.Errors, func(i, j int) bool { return el.Errors[i].Pos.less(el.Errors[j].Pos) })
	if n := len(el.Errors) - maxErrors; n > 0 {
		el.Errors = el.Errors[:maxErrors]
		el.add(Pos{}, "%d more errors not shown", n)
	}
	return el
}

type decoder struct {
	ix positions
	el *ErrorList
	// extra are top-level keys another file kind adds (a tune file's grid): not
	// reported as unknown by suite.
	extra []string
	// strict: a suite-wide setting no measurement uses is an error (notes otherwise).
	strict bool
	notes  []string
}

func (d *decoder) errAt(path string, format string, args ...any) {
	d.el.add(d.ix.at(path), "%s: %s", humanPath(path), fmt.Sprintf(format, args...))
}

// unknownKey reports key, the last part of path, naming the table it is in.
func (d *decoder) unknownKey(path, key string, known []string) {
	msg := fmt.Sprintf("unknown key %q", key)
	if parent := strings.TrimSuffix(path, "."+key); parent != path {
		msg = humanPath(parent) + ": " + msg
	}
	if s := suggest(key, known); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	d.el.add(d.ix.keyAt(path), "%s", msg)
}

func (d *decoder) suite(doc map[string]any) (string, Settings, []Measurement) {
	desc := ""
	global := Defaults()
	origin := map[string]string{}
	for _, k := range sortedKeys(doc) {
		v := doc[k]
		switch k {
		case "description":
			if s, ok := v.(string); ok {
				desc = s
			} else {
				d.errAt(k, "must be a string, got %s", typeName(v))
			}
		case "settings":
			t, ok := v.(map[string]any)
			if !ok {
				d.errAt(k, "must be a table ([settings]), got %s", typeName(v))
				continue
			}
			for _, sk := range sortedKeys(t) {
				if !d.applySetting(&global, origin, "settings."+sk, sk, t[sk]) {
					d.unknownKey("settings."+sk, sk, settingNames())
				}
			}
		case "measurement":
			// handled below, in file order
		default:
			if !slices.Contains(d.extra, k) {
				d.unknownKey(k, k, append([]string{"description", "settings", "measurement"}, d.extra...))
			}
		}
	}
	d.checkReps(global, origin)
	d.checkHang(global, origin, "")
	raw, ok := doc["measurement"].([]any)
	if _, present := doc["measurement"]; present && !ok {
		d.errAt("measurement", "must be an array of tables ([[measurement]]), got %s", typeName(doc["measurement"]))
		return desc, global, nil
	}
	if ok && len(raw) == 0 {
		d.errAt("measurement", "the list of measurements is empty: nothing to measure")
		return desc, global, nil
	}
	if len(raw) == 0 {
		d.el.add(Pos{}, "the suite has no [[measurement]]: nothing to measure")
		return desc, global, nil
	}
	names := map[string]int{}
	var ms []Measurement
	for i, r := range raw {
		path := "measurement." + strconv.Itoa(i)
		t, ok := r.(map[string]any)
		if !ok {
			d.errAt(path, "must be a table, got %s", typeName(r))
			continue
		}
		m, ok := d.measurement(i, path, t, global, origin)
		if !ok {
			continue
		}
		if j, dup := names[m.Name]; dup {
			d.errAt(path+".name", "name %q is already used by measurement %d", m.Name, j+1)
			continue
		}
		names[m.Name] = i
		ms = append(ms, m)
	}
	if len(ms) == len(raw) { // with a measurement left out, what uses a default is unknown
		d.checkDefaults(origin, ms)
		d.checkDefaultProcs(global, origin, ms)
	}
	return desc, global, ms
}

func (d *decoder) applySetting(s *Settings, origin map[string]string, path, key string, v any) bool {
	st, ok := findSetting(key)
	if !ok {
		return false
	}
	// A rejected value leaves the setting as it was, so one mistake does not cascade
	// into errors about everything that depends on it.
	c := *s
	if err := st.set(&c, v); err != nil {
		d.errAt(path, "%v", err)
		return true
	}
	*s = c
	origin[key] = path
	return true
}

var measurementKeys = []string{"name", "op", "sizes"}

func (d *decoder) measurement(i int, path string, t map[string]any, global Settings, gOrigin map[string]string) (Measurement, bool) {
	m := Measurement{Index: i, Settings: global, Pos: d.ix.keyAt(path)}
	origin := map[string]string{}
	for k, v := range gOrigin {
		origin[k] = v
	}
	before := len(d.el.Errors)
	for _, k := range sortedKeys(t) {
		v := t[k]
		kp := path + "." + k
		switch k {
		case "name":
			if s, ok := v.(string); ok && s != "" {
				m.Name = s
			} else if ok {
				d.errAt(kp, "must not be empty")
			} else {
				d.errAt(kp, "must be a string, got %s", typeName(v))
			}
		case "op":
			s, ok := v.(string)
			if !ok {
				d.errAt(kp, "must be a string, got %s", typeName(v))
				continue
			}
			info, found := ops.Lookup(s)
			if !found {
				msg := fmt.Sprintf("unknown operation %q", s)
				if sug := suggest(s, ops.Names()); sug != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", sug)
				}
				d.errAt(kp, "%s; `skampi list` shows them all", msg)
				continue
			}
			m.Op = info
		case "sizes", "method":
			// expanded below, once the op, buffer and window are known
		case "startup_timeout":
			d.errAt(kp, "belongs in [settings]: it bounds the job's start-up and finalize, not a measurement")
		default:
			if !d.applySetting(&m.Settings, origin, kp, k, v) {
				d.unknownKey(kp, k, append(append([]string{}, measurementKeys...), settingNames()...))
				continue
			}
			if m.own == nil {
				m.own = map[string]bool{}
			}
			m.own[k] = true
		}
	}
	for _, req := range measurementKeys {
		if _, ok := t[req]; !ok {
			d.el.add(m.Pos, "%s: missing required key %q", humanPath(path), req)
		}
	}
	if len(d.el.Errors) > before {
		return m, false
	}
	if setIn(origin, path, "min_repetitions", "max_repetitions") {
		d.checkReps(m.Settings, origin) // the suite-wide pair was checked already
	}
	d.checkHang(m.Settings, origin, path)
	d.checkReduction(m, origin, path)
	d.checkDatatype(m, origin, path)
	m.Sizes = d.sizes(path+".sizes", t["sizes"], m)
	d.checkSingleElement(m, path)
	if v, ok := t["method"]; ok {
		m.Methods = d.methods(path+".method", v, m.Op)
	}
	d.checkApplies(&m, path, t)
	d.checkMinProcs(m, path, t)
	d.checkFamilyBounds(&m, origin, path)
	d.checkStall(m, origin, path)
	d.checkFamilySettings(&m, origin)
	d.checkPersistent(m, origin)
	if m.Op.Nonblocking && m.Settings.Timer == TimerIteration {
		for _, name := range m.Methods {
			if mm, _ := m.Op.Method(name); mm.Subtract != "" {
				d.errAt(path+".method", "%s, method %s takes a loop timed once off a loop timed once, but timer = \"iteration\" times the operation per call: use timer = \"global-loop\" for it", m.Op.Name, name)
			}
		}
	}
	if m.Op.SHMEM && m.Op.SingleShot && m.Settings.Iterations > 1 && setIn(origin, "", "iterations") {
		d.errAt(origin["iterations"], "%s: consecutive OpenSHMEM collectives would reuse a pSync array another PE may still be using: one call per repetition (iterations = \"auto\")", m.Op.Name)
	}
	if m.Op.SHMEM && m.Op.Pattern == ops.PatternAll && !m.Op.WholeJob && m.Settings.Layout == "one-per-node" && m.Settings.Procs != nil {
		d.errAt(path+".op", "%s runs on an active set of consecutive PEs: layout = \"one-per-node\" does not apply", m.Op.Name)
	}
	return m, len(d.el.Errors) == before
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// invalidUTF8 is the position of the first byte that is not UTF-8. Columns count
// bytes, as the TOML decoder's do.
func invalidUTF8(data []byte) Pos {
	line, col := 1, 1
	for len(data) > 0 {
		r, n := utf8.DecodeRune(data)
		if r == utf8.RuneError && n == 1 {
			break
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col += n
		}
		data = data[n:]
	}
	return Pos{line, col}
}
