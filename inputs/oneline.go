package inputs

import (
	"errors"
	"fmt"
	"strconv"
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

// Suite is the TOML text of the one-line suite, headed by a comment with command when
// it is not empty (a run leaves it out: its text, and so its hash, must not change with
// flags such as --resume that a restart adds). Only what cannot be put in a suite is
// an error here (no operation); everything else is checked by Parse, with the key.
func (o OneLine) Suite(command string) (string, error) {
	if len(o.Ops) == 0 {
		return "", fmt.Errorf("name at least one operation (skampi list shows them)")
	}
	var b strings.Builder
	if command != "" {
		fmt.Fprintf(&b, "# %s\n", command)
	}
	fmt.Fprintf(&b, "description = %s\n", strconv.Quote("from the command line: "+strings.Join(o.Ops, ", ")))
	if len(o.Settings) > 0 {
		b.WriteString("\n[settings]\n")
		for _, kv := range o.Settings {
			v := tomlValue(kv[1])
			if kv[0] == "procs" { // a list even of one: --procs 4
				v = tomlList(strings.Split(kv[1], ","))
			}
			fmt.Fprintf(&b, "%s = %s\n", kv[0], v)
		}
	}
	for _, op := range o.Ops {
		sizes, err := o.sizes(op)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "\n[[measurement]]\nname = %s\nop = %s\nsizes = %s\n", strconv.Quote(op), strconv.Quote(op), sizes)
		if in, ok := ops.Lookup(op); ok && len(o.Methods) > 0 && len(in.Methods) > 0 {
			fmt.Fprintf(&b, "method = %s\n", tomlList(o.Methods))
		}
	}
	return b.String(), nil
}

// defaultSizes are an operation's sizes when --sizes is not given: OSU's 1 B to 4 MiB
// by powers of two, from one element for typed data (a reduction's int, a SHMEM
// put64's long), one element only for single-element operations, 0 for a barrier.
func defaultSizes(op string) string {
	in, ok := ops.Lookup(op)
	switch {
	case !ok:
		return "1B:4MiB"
	case in.SingleElement:
		return strconv.FormatInt(in.ElementBytes, 10)
	case strings.Contains(op, "Barrier") || strings.HasSuffix(op, "_Sync") || strings.HasSuffix(op, "_Sync_All"):
		return "0"
	case in.ElementBytes > 0:
		return fmt.Sprintf("%dB:4MiB", in.ElementBytes)
	case in.Reduction:
		return "4B:4MiB" // the default datatype of reductions, int
	}
	return "1B:4MiB"
}

func (o OneLine) sizes(op string) (string, error) {
	s := o.Sizes
	if s == "" {
		s = defaultSizes(op)
	}
	step := o.Step
	if step == "" {
		step = "*2"
	}
	if from, to, ok := strings.Cut(s, ":"); ok {
		if strings.Contains(s, ",") {
			return "", fmt.Errorf("--sizes %q: a range FROM:TO or a list A,B,C, not both", s)
		}
		return fmt.Sprintf("{ from = %s, to = %s, step = %s }", strconv.Quote(from), strconv.Quote(to), strconv.Quote(step)), nil
	}
	if o.Step != "" && o.Sizes != "" {
		return "", fmt.Errorf("--step %q applies to a range of sizes (--sizes FROM:TO), not to the list %q", o.Step, s)
	}
	return tomlList(strings.Split(s, ",")), nil
}

// tomlValue writes a command-line value as the TOML value a suite would hold: numbers
// and booleans bare, lists for comma-separated values, strings quoted.
func tomlValue(s string) string {
	if strings.Contains(s, ",") {
		return tomlList(strings.Split(s, ","))
	}
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		return s
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, "nN") { // not NaN, Inf
		return s
	}
	if s == "true" || s == "false" {
		return s
	}
	return strconv.Quote(s)
}

func tomlList(items []string) string {
	parts := make([]string, len(items))
	for i, it := range items {
		parts[i] = tomlValue(strings.TrimSpace(it))
	}
	return "[" + strings.Join(parts, ", ") + "]"
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
