package inputs

import (
	"errors"
	"fmt"
	"strings"

	"github.com/skampi/skampi/ops"
)

// OneLine is a suite given on the command line (`skampi run OP... --sizes 1B:4MiB`):
// one measurement per operation, the same sizes, methods and settings for all. Its
// Suite is ordinary TOML, parsed and checked like a file, and what --print-suite shows.
type OneLine struct {
	Ops     []string
	Sizes   string // "FROM:TO" (with Step) or a list "1,8,64KiB"; "": defaultSizes
	Step    string // "*2" (the default), "+1KiB", ...
	Methods []string
	// Settings in the order given: suite keys (min_repetitions, window, ...) and the
	// values as typed; a value with commas is a list.
	Settings [][2]string
	// Notes are comments on settings (by key): the OSU option that made one.
	Notes map[string]string
	// OSUSizes is OSU's -m [MIN:]MAX, instead of Sizes: powers of two, a missing bound
	// the operation's default one.
	OSUSizes string
	// NP is the processes of the job the suite is for (0: 2): default sizes fit it.
	NP int
	// Command, when not nil, is the command line, printed as the suite's first line (a
	// comment). A run leaves it out: its text, and so its hash, must not change with
	// flags such as --resume that a restart adds.
	Command []string
}

// SourceName is how errors in a one-line suite name their "file".
const SourceName = "command line"

// Setting is one suite setting's key and its one-line documentation.
type Setting struct{ Key, Doc string }

// SettingList is every suite setting, in the order the documentation gives them.
func SettingList() []Setting {
	out := make([]Setting, len(settingList))
	for i, st := range settingList {
		out[i] = Setting{st.name, st.doc}
	}
	return out
}

// Suite is the TOML text of the one-line suite. Only what cannot be put in a suite is
// an error here (no operation, a flag no operation named takes); everything else is
// checked by ParseOneLine, naming the flag.
func (o OneLine) Suite() (string, error) {
	if len(o.Ops) == 0 {
		return "", fmt.Errorf("name at least one operation (skampi list shows them)")
	}
	var b strings.Builder
	if o.Command != nil {
		fmt.Fprintf(&b, "# %s\n", shellWords(o.Command))
	}
	fmt.Fprintf(&b, "description = %s\n", tomlString("from the command line: "+strings.Join(o.Ops, ", ")))
	if len(o.Settings) > 0 {
		b.WriteString("\n[settings]\n")
		for _, kv := range o.Settings {
			v := settingValue(kv[0], kv[1])
			if err := checkValue(kv[0], kv[1], v); err != nil {
				return "", err
			}
			fmt.Fprintf(&b, "%s = %s%s\n", kv[0], v, comment(o.Notes[kv[0]]))
		}
	}
	if err := o.checkMethods(); err != nil {
		return "", err
	}
	for _, op := range o.Ops {
		s := o.settings()
		in, known := ops.Lookup(op)
		latency := known && o.latencyByDefault(in)
		if latency {
			s.Window = 1
		}
		sizes, err := o.sizes(op, s)
		if err != nil {
			return "", err
		}
		note := ""
		if o.OSUSizes != "" {
			note = comment("-m " + o.OSUSizes + " (OSU): powers of two")
		}
		fmt.Fprintf(&b, "\n[[measurement]]\nname = %s\nop = %s\nsizes = %s%s\n", tomlString(op), tomlString(op), sizes, note)
		if latency {
			fmt.Fprintf(&b, "window = 1%s\n", comment(latencyNote))
		}
		if in, ok := ops.Lookup(op); ok && len(o.methodsOf(in)) > 0 {
			fmt.Fprintf(&b, "method = %s\n", tomlList(o.methodsOf(in)))
		}
	}
	return b.String(), nil
}

// comment is a TOML comment closing a line, or nothing; it stays on its line.
func comment(note string) string {
	if note == "" {
		return ""
	}
	return "  # " + strings.NewReplacer("\n", " ", "\r", " ").Replace(note)
}

// checkMethods refuses a method of --method that no operation named has: it would go
// to none of them. Each operation is given the listed methods it has (an operation
// with none of them is measured without).
func (o OneLine) checkMethods() error {
	for _, m := range o.Methods {
		var has []string
		for _, op := range o.Ops {
			in, ok := ops.Lookup(op)
			if !ok {
				return nil // an unknown operation is said by ParseOneLine
			}
			if hasMethod(in, m) {
				has = nil
				break
			}
			if len(in.Methods) == 0 {
				has = append(has, op+": no timing methods")
			} else {
				has = append(has, op+": "+quoteList(in.MethodNames()))
			}
		}
		if has != nil {
			return fmt.Errorf("--method: %q is not a timing method of any operation named (%s)", m, strings.Join(has, "; "))
		}
	}
	return nil
}

// methodsOf is the methods of --method the operation has.
func (o OneLine) methodsOf(in ops.Info) []string {
	var out []string
	for _, m := range o.Methods {
		if hasMethod(in, m) {
			out = append(out, m)
		}
	}
	return out
}

// hasMethod: the operation has the method, or had it (the suite's parser then says
// what it is called now).
func hasMethod(in ops.Info, m string) bool {
	_, has := in.Method(m)
	_, retired := in.RetiredMethods[m]
	return has || retired
}

func (o OneLine) sizes(op string, s Settings) (string, error) {
	sz := o.Sizes
	switch {
	case o.OSUSizes != "":
		sz = o.osuSizes(op, s)
	case sz == "":
		sz = o.defaultSizes(op, s)
	}
	step := o.Step
	if step == "" {
		step = "*2"
	}
	if from, to, ok := strings.Cut(sz, ":"); ok {
		if strings.Contains(sz, ",") {
			return "", fmt.Errorf("--sizes %q: a range FROM:TO or a list A,B,C, not both", sz)
		}
		return fmt.Sprintf("{ from = %s, to = %s, step = %s }", tomlString(from), tomlString(to), tomlString(step)), nil
	}
	if o.Step != "" && o.Sizes != "" {
		return "", fmt.Errorf("--step %q applies to a range of sizes (--sizes FROM:TO), not to the list %q", o.Step, sz)
	}
	return tomlList(strings.Split(sz, ",")), nil
}

// ParseOneLine parses the one-line suite and, on failure, says each problem in terms
// of the command line: the flag (--window, --sizes, --method) instead of a position
// in a text the user never saw, each once.
func ParseOneLine(text string) (*Plan, error) {
	p, err := parse(SourceName, []byte(text), true)
	return p, CommandLineErrors(err)
}

// CommandLineErrors says the problems of a one-line suite (from Parse, or from Expand
// on a job) in terms of the command line; other errors pass unchanged.
func CommandLineErrors(err error) error {
	var el *ErrorList
	if err == nil || !errors.As(err, &el) {
		return err
	}
	out := &ErrorList{File: "skampi run"}
	seen := map[string]bool{}
	for _, e := range el.Errors {
		msg := flagMessage(e.Msg)
		if !seen[msg] {
			seen[msg] = true
			out.Errors = append(out.Errors, &Error{File: out.File, Msg: msg})
		}
	}
	return out
}

func flagMessage(msg string) string {
	if rest, ok := strings.CutPrefix(msg, "settings."); ok {
		key, tail, _ := strings.Cut(rest, ":")
		key, _, _ = strings.Cut(key, ".")
		return "--" + strings.ReplaceAll(key, "_", "-") + ":" + tail
	}
	if rest, ok := strings.CutPrefix(msg, "measurement "); ok {
		_, rest, _ = strings.Cut(rest, ": ")
		if tail, ok := strings.CutPrefix(rest, "pair "); ok {
			return "--pair: " + tail
		}
		key, tail, _ := strings.Cut(rest, ":")
		key, _, _ = strings.Cut(key, ".")
		switch key {
		case "op":
			return strings.TrimSpace(tail)
		case "sizes", "method":
			return "--" + key + ":" + tail
		}
		return rest
	}
	return msg
}
