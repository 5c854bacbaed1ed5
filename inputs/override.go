package inputs

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// A suite as a starting point: `skampi run -i pt2pt --sizes 8,1KiB --sync window` is the
// suite with the one-line flags laid over it. Each flag goes to every measurement it
// fits and is refused, in one line naming it, when it fits none:
//
//   - --sizes (with --step) or -m: every measurement whose operation's sizes are free
//     and whose element divides them (not a barrier's 0, an atomic's one element); the
//     others keep theirs;
//   - --method: every measurement whose operation has one of the methods, with those;
//   - a setting (--sync, --max-repetitions, -W, -x, ...): the suite-wide value, taken
//     off every measurement that set its own; refused when no measurement uses it.
//
// The result is ordinary TOML (what --print-suite shows and a results directory keeps
// as suite.toml), headed by comments saying what was laid over which suite; its hash
// is its own, so a run of it never resumes or compares as the suite unchanged.

// HasOverrides says whether the line holds anything to lay over a suite.
func (o OneLine) HasOverrides() bool {
	return o.Sizes != "" || o.Step != "" || o.OSUSizes != "" || len(o.Methods) > 0 || len(o.Settings) > 0
}

// Override lays the line's flags over the suite read from source (a path or
// "builtin:NAME"), as above; flags is the command line's words for them (the comment).
// The notes say what a flag left as it was (the measurements that keep their sizes);
// the text holds them as comments.
func (o OneLine) Override(source string, text []byte, flags []string) (string, []string, error) {
	var notes []string
	base, err := Parse(source, text)
	if err != nil {
		return "", nil, err
	}
	if o.Step != "" && o.Sizes == "" {
		return "", nil, fmt.Errorf("--step %q applies to --sizes FROM:TO: give both to change a suite's sizes", o.Step)
	}
	var doc map[string]any
	if err := toml.Unmarshal(text, &doc); err != nil {
		return "", nil, err
	}
	tables, _ := doc["measurement"].([]any)
	if len(tables) != len(base.Measurements) {
		return "", nil, fmt.Errorf("%s: its measurements could not be told apart to override them", source)
	}
	table := func(i int) map[string]any { t, _ := tables[i].(map[string]any); return t }

	if len(o.Settings) > 0 {
		st, _ := doc["settings"].(map[string]any)
		if st == nil {
			st = map[string]any{}
			doc["settings"] = st
		}
		for _, kv := range o.Settings {
			v := settingValue(kv[0], kv[1])
			if err := checkValue(kv[0], kv[1], v); err != nil {
				return "", nil, err
			}
			var one map[string]any
			if err := toml.Unmarshal([]byte("v = "+v), &one); err != nil {
				return "", nil, err
			}
			st[kv[0]] = one["v"]
			for i := range tables {
				delete(table(i), kv[0])
			}
		}
	}
	if len(o.Methods) > 0 {
		o.Ops = nil
		for _, m := range base.Measurements {
			o.Ops = append(o.Ops, m.Op.Name)
		}
		if err := o.checkMethods(); err != nil {
			return "", nil, err
		}
		for i, m := range base.Measurements {
			if has := o.methodsOf(m.Op); len(has) > 0 {
				table(i)["method"] = toAny(has)
			}
		}
	}
	// Sizes last: which fit a measurement depends on its datatype, which a flag may set.
	if o.Sizes != "" || o.OSUSizes != "" {
		mid, err := Parse(source, []byte(writeTOML(doc)))
		if err != nil {
			return "", nil, err
		}
		fitted := 0
		var kept []string
		for i, m := range mid.Measurements {
			v, fits, err := o.sizesFor(m)
			if err != nil {
				return "", nil, err
			}
			if !fits {
				kept = append(kept, m.Name)
				continue
			}
			table(i)["sizes"] = v
			fitted++
		}
		if fitted == 0 {
			return "", nil, fmt.Errorf("%s: no measurement of the suite takes these sizes: they move no data, one element, or elements the sizes are not a multiple of (%s)", sizesFlag(o), someNames(kept))
		}
		if len(kept) > 0 {
			notes = append(notes, fmt.Sprintf("%s: %d measurement(s) keep their own sizes, moving no data, one element, or elements the sizes are not a multiple of (%s)", sizesFlag(o), len(kept), someNames(kept)))
		}
	}
	if d, ok := doc["description"].(string); ok {
		doc["description"] = d + " (overridden by: " + shellWords(flags) + ")"
	}
	head := fmt.Sprintf("# %s, overridden by: %s\n", source, shellWords(flags))
	for _, n := range notes {
		head += "# " + strings.NewReplacer("\n", " ", "\r", " ").Replace(n) + "\n"
	}
	if len(o.Command) > 0 {
		head = fmt.Sprintf("# %s\n", shellWords(o.Command)) + head
	}
	out := head + writeTOML(doc)
	p, err := Parse(source, []byte(out))
	if err != nil {
		return "", nil, CommandLineErrors(err)
	}
	for _, kv := range o.Settings {
		if why := defaultUnused(kv[0], p.Measurements); why != nil {
			return "", nil, fmt.Errorf("%s: no measurement of %s uses it (%s applies to %s)", flagName(kv[0]), source, kv[0], scopes[kv[0]].what)
		}
	}
	return out, notes, nil
}

func sizesFlag(o OneLine) string {
	if o.OSUSizes != "" {
		return "-m " + o.OSUSizes
	}
	return "--sizes " + o.Sizes
}

// sizesFor is the sizes value the line gives measurement m, and whether they fit it:
// its operation takes sizes (moves data, more than one element) and its grain divides
// each.
func (o OneLine) sizesFor(m Measurement) (any, bool, error) {
	if m.Op.NoData || m.Op.SingleElement {
		return nil, false, nil
	}
	text, err := o.sizes(m.Op.Name, m.Settings)
	if err != nil {
		return nil, false, err
	}
	var one map[string]any
	if err := toml.Unmarshal([]byte("v = "+text), &one); err != nil {
		return nil, false, err
	}
	list, err := expandSizes(one["v"])
	if err != nil {
		return nil, false, fmt.Errorf("%s: %v", sizesFlag(o), err)
	}
	grain := m.Settings.SizeGrain(m.Op)
	if slices.ContainsFunc(list, func(n int64) bool { return n%grain != 0 }) {
		return nil, false, nil
	}
	return one["v"], true, nil
}

func toAny(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}

// expandSizes is the sizes a one-line value (a list, or a table from, to, step) lists.
func expandSizes(v any) ([]int64, error) {
	var out []int64
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			n, err := size(e)
			if err != nil {
				return nil, err
			}
			out = append(out, n)
		}
	case map[string]any:
		from, err := size(x["from"])
		if err != nil {
			return nil, err
		}
		to, err := size(x["to"])
		if err != nil {
			return nil, err
		}
		s, _ := x["step"].(string)
		st, err := ParseStep(s)
		if err != nil {
			return nil, err
		}
		return Expand(from, to, st)
	}
	return out, nil
}

// someNames names the first few measurements of a list, quoted (a name may hold a
// comma), and how many more there are.
func someNames(names []string) string {
	const few = 4
	q := make([]string, 0, few)
	for _, n := range names[:min(len(names), few)] {
		q = append(q, strconv.Quote(n))
	}
	if len(names) > few {
		return strings.Join(q, ", ") + fmt.Sprintf(" and %d more", len(names)-few)
	}
	return strings.Join(q, ", ")
}
