package inputs

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/big"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/pelletier/go-toml/v2"
)

// Combination is one launch of a sweep: a library, a process count, and one value of
// every parameter that applies to the library.
type Combination struct {
	Name    string // unique (also where case does not count), safe as a directory name
	Library string
	NP      int
	Values  []ParamValue
}

// ParamValue is a parameter's value in a combination.
type ParamValue struct {
	Param Param
	Value string
	raw   any // as the tune file typed it
}

// Shown is the value as messages and headers show it: quoted when it is empty, has
// blanks at an end or characters that are not printable (a newline in a generated
// suite's header comment would start a line of TOML).
func (v ParamValue) Shown() string { return shown(v.Value) }

func shown(s string) string {
	if s == "" || strings.TrimSpace(s) != s {
		return strconv.Quote(s)
	}
	for _, r := range s {
		if !unicode.IsPrint(r) && r != ' ' {
			return strconv.Quote(s)
		}
	}
	return s
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
		parts = append(parts, v.Param.Name+"="+v.Shown())
	}
	return strings.Join(parts, ", ")
}

// applying is the parameters that vary a library's launches: the other library's
// parameters do not.
func (t *Tune) applying(lib string) []Param {
	var out []Param
	for _, p := range t.Params {
		if p.Kind == "mca" && lib != "openmpi" || p.Kind == "cvar" && lib != "mpich" {
			continue
		}
		out = append(out, p)
	}
	return out
}

// Combinations expands the grid, in a stable order: libraries, process counts, then
// the parameters in file order (the first value of each first). Parameters of the other
// library do not multiply a library's combinations. ParseTune has bounded their number.
func (t *Tune) Combinations() []Combination {
	var out []Combination
	var lossy []bool
	for _, lib := range t.Libraries {
		params := t.applying(lib)
		for _, np := range t.NP {
			combos := [][]ParamValue{nil}
			for _, p := range params {
				var next [][]ParamValue
				for _, c := range combos {
					for i, v := range p.Values {
						next = append(next, append(slices.Clone(c), ParamValue{p, v, p.raw[i]}))
					}
				}
				combos = next
			}
			for _, vs := range combos {
				if t.Keep != nil && !t.Keep(vs) {
					continue
				}
				c := Combination{Library: lib, NP: np, Values: vs}
				name, lost := comboName(c)
				c.Name = name
				out, lossy = append(out, c), append(lossy, lost)
			}
		}
	}
	uniqueNames(out, lossy)
	return out
}

// maxNameChars bounds the readable part of a combination's directory name (a file
// name has 255 bytes at most).
const maxNameChars = 120

// comboName is a combination's readable directory name: library, process count and
// values, each character that is not safe in a file name replaced. lossy says the name
// no longer tells every value apart (a character replaced, or the name cut short).
func comboName(c Combination) (name string, lossy bool) {
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
			lossy = true
		}
	}
	name = b.String()
	if len(name) > maxNameChars {
		name, lossy = name[:maxNameChars], true
	}
	return name, lossy
}

// uniqueNames gives every combination a directory of its own: a name that lost
// information, or that equals another's where case does not count (as on macOS and
// Windows file systems), gets a short hash of the combination's exact values. Two
// combinations sharing a directory would be measured once and compared with
// themselves.
func uniqueNames(cs []Combination, lossy []bool) {
	count := map[string]int{}
	for _, c := range cs {
		count[strings.ToLower(c.Name)]++
	}
	for i := range cs {
		if lossy[i] || count[strings.ToLower(cs[i].Name)] > 1 {
			cs[i].Name += "-" + cs[i].hash()
		}
	}
	seen := map[string]bool{}
	for i := range cs {
		base := cs[i].Name
		for n := 2; seen[strings.ToLower(cs[i].Name)]; n++ {
			cs[i].Name = base + "-" + strconv.Itoa(n) // two hashes alike
		}
		seen[strings.ToLower(cs[i].Name)] = true
	}
}

// hash is 8 hex digits of the combination's exact library, process count and values.
func (c Combination) hash() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%q %d", c.Library, c.NP)
	for _, v := range c.Values {
		fmt.Fprintf(&b, " %q %q=%q", v.Param.Kind, v.Param.Name, v.Value)
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:4])
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
func (t *Tune) SuiteText(c Combination) ([]byte, error) { return t.suiteText(c.Values) }

func (t *Tune) suiteText(values []ParamValue) ([]byte, error) {
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
	for _, v := range values {
		if v.Param.Kind == "setting" {
			settings[v.Param.Name] = v.raw
		}
	}
	if len(settings) > 0 {
		doc["settings"] = settings
	}
	return toml.Marshal(doc)
}

// checkGrid counts the grid's launches by arithmetic, before any is listed (a few
// lines of values multiply past any memory), and refuses more than max_launches.
func (t *Tune) checkGrid(d *decoder) {
	combos, terms := t.count()
	launches := new(big.Int).Mul(combos, big.NewInt(int64(t.Repeats)))
	if launches.Cmp(big.NewInt(int64(t.MaxLaunches))) > 0 {
		d.el.add(t.largest(d), "the grid makes %s launches (%s), more than max_launches = %d: fewer values, or raise max_launches",
			grouped(launches.String()), terms, t.MaxLaunches)
		return
	}
	if len(d.el.Errors) == 0 && combos.Cmp(big.NewInt(2)) < 0 {
		d.el.add(Pos{}, "the grid has one combination: give values to compare ([mca], [cvar], [env], [suite_settings], np or libraries)")
	}
}

// count is the number of combinations, and how it is made: "mca.x 16 × env.y 4 ×
// np 2", or "(openmpi: mca.x 16 + mpich: cvar.y 4) × np 2" across libraries.
func (t *Tune) count() (*big.Int, string) {
	total := new(big.Int)
	var libs []string
	for _, lib := range t.Libraries {
		n := big.NewInt(1)
		var terms []string
		for _, p := range t.applying(lib) {
			n.Mul(n, big.NewInt(int64(len(p.Values))))
			if len(p.Values) > 1 {
				terms = append(terms, fmt.Sprintf("%s.%s %d", tableOf(p.Kind), shown(p.Name), len(p.Values)))
			}
		}
		total.Add(total, n)
		if len(terms) > 6 {
			terms = append(terms[:5], fmt.Sprintf("%d more parameters", len(terms)-5))
		}
		if len(terms) == 0 {
			terms = []string{"1"}
		}
		libs = append(libs, strings.Join(terms, " × "))
		if len(t.Libraries) > 1 {
			libs[len(libs)-1] = lib + ": " + libs[len(libs)-1]
		}
	}
	total.Mul(total, big.NewInt(int64(len(t.NP))))
	var outer []string
	if len(libs) > 1 {
		outer = append(outer, "("+strings.Join(libs, " + ")+")")
	} else if len(libs) == 1 && (libs[0] != "1" || len(t.NP) == 1 && t.Repeats == 1) {
		outer = append(outer, libs[0])
	}
	if len(t.NP) > 1 {
		outer = append(outer, "np "+strconv.Itoa(len(t.NP)))
	}
	if t.Repeats > 1 {
		outer = append(outer, "repeats "+strconv.Itoa(t.Repeats))
	}
	return total, strings.Join(outer, " × ")
}

// largest is where to point at a grid that is too big: the dimension with the most
// values, the first of them on a tie.
func (t *Tune) largest(d *decoder) Pos {
	best, at := 0, Pos{}
	for _, p := range t.Params {
		if len(p.Values) > best {
			best, at = len(p.Values), p.Pos
		}
	}
	if len(t.NP) > best {
		best, at = len(t.NP), d.ix.keyAt("np")
	}
	// The default repeats has no place in the file: the largest dimension keeps it.
	if p := d.ix.keyAt("repeats"); t.Repeats > best && p != (Pos{}) {
		at = p
	}
	return at
}

// tableOf is the tune file's table of a parameter kind.
func tableOf(kind string) string {
	if kind == "setting" {
		return "suite_settings"
	}
	return kind
}

// grouped writes a decimal number with thousands separators: 1,048,576.
func grouped(s string) string {
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
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

// sortedByPos lists a table's keys in file order.
func sortedByPos(d *decoder, prefix string, tab map[string]any) []string {
	keys := sortedKeys(tab)
	sort.SliceStable(keys, func(i, j int) bool {
		return d.ix.keyAt(prefix + "." + keys[i]).less(d.ix.keyAt(prefix + "." + keys[j]))
	})
	return keys
}
