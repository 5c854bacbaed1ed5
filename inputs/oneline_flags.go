package inputs

import (
	"slices"
	"strings"
)

// LineFlags are the flags of the one-line form (skampi run OP... or -i SUITE with
// flags laid over it): sizes, methods and OSU's options. Every suite setting is a flag
// too (--key with dashes): those are read back from the flags given (Flag).
type LineFlags struct {
	Sizes, Step, Methods string
	Accel                string // OSU's -d: refused
	Print                bool   // --print-suite
	Breakdown            bool   // OpenSHMEM puts and gets: the breakdown's table, not the latency's
	OSU                  OSU    // OSU's options (-i is read from --input: see job.RunCommand)
	// Bench is an OSU benchmark named instead of operations (LookupOSU): OneLine
	// applies its settings.
	Bench *OSUBenchmark
}

// Flag is a flag of the command line as it was given: what the one-line form reads
// back, for the suite's command comment and the flags that override a suite.
type Flag struct {
	Name, Shorthand string
	Value           string // as the flag prints it
	Bool            bool   // a switch
	NoOptDefVal     bool   // may be given without a value (--check-data)
}

// OSUFlags are OSU's options as flags of skampi run (-i aside, which names the suite).
var OSUFlags = []string{"message-size", "osu-iterations", "osu-warmup", "window-size", "validation", "type"}

// lineFlagNames are the one-line flags that are neither OSU's nor a setting's.
var lineFlagNames = []string{"sizes", "step", "method"}

// SettingFlag is the flag of a suite setting: its key with dashes.
func SettingFlag(key string) string { return strings.ReplaceAll(key, "_", "-") }

// isSetting says whether a flag's name is a suite setting's.
func isSetting(name string) bool {
	key := strings.ReplaceAll(name, "-", "_")
	return slices.ContainsFunc(SettingList(), func(st Setting) bool { return st.Key == key })
}

// OneLine is the one-line suite of the flags given for the operations, for a job of
// np processes: the settings' flags in the settings' order, OSU's options mapped to
// their settings, a benchmark's defaults under what was given; and the line that
// says what the benchmark ran as ("" without one).
func (f LineFlags) OneLine(ops []string, np int, given []Flag) (OneLine, string, error) {
	ol := OneLine{Ops: ops, Sizes: f.Sizes, Step: f.Step, NP: np, Methods: f.methodList()}
	for _, st := range SettingList() {
		if i := slices.IndexFunc(given, func(fl Flag) bool { return fl.Name == SettingFlag(st.Key) }); i >= 0 {
			ol.Settings = append(ol.Settings, [2]string{st.Key, given[i].Value})
		}
	}
	if err := ol.ApplyOSU(f.OSU); err != nil {
		return ol, "", err
	}
	note := ""
	if f.Bench != nil {
		note = ol.ApplyOSUBenchmark(*f.Bench)
	}
	return ol, note, nil
}

func (f LineFlags) methodList() []string {
	if f.Methods == "" {
		return nil
	}
	return strings.Split(f.Methods, ",")
}

// LineGiven says whether any one-line flag was given: sizes, step, method, an OSU
// option or a setting.
func LineGiven(given []Flag) bool {
	for _, fl := range given {
		if slices.Contains(lineFlagNames, fl.Name) || slices.Contains(OSUFlags, fl.Name) || isSetting(fl.Name) {
			return true
		}
	}
	return false
}

// Overrides are the one-line flags given that a suite named with -i takes over its
// own settings (OneLine.Override), as words, in the order given.
func Overrides(given []Flag) []string {
	var words []string
	for _, fl := range given {
		if slices.Contains(lineFlagNames, fl.Name) || slices.Contains(OSUFlags, fl.Name) || isSetting(fl.Name) {
			words = append(words, fl.Words()...)
		}
	}
	return words
}

// CommandWords is the command line that made a suite: skampi run, the operations, then
// every flag given but --print-suite, in the order given, with -i input.
func CommandWords(ops []string, given []Flag, input string) []string {
	line := append([]string{"skampi", "run"}, ops...)
	for _, fl := range given {
		switch fl.Name {
		case "print-suite":
		case "input":
			line = append(line, "-i", input)
		default:
			line = append(line, fl.Words()...)
		}
	}
	return line
}

// Words is a flag given as it reads back: OSU's options as OSU spells them.
func (fl Flag) Words() []string {
	switch {
	case fl.Shorthand != "" && slices.Contains(OSUFlags, fl.Name):
		switch {
		case fl.Bool && fl.Value == "true":
			return []string{"-" + fl.Shorthand}
		case fl.Bool:
			return []string{"-" + fl.Shorthand + "=" + fl.Value}
		}
		return []string{"-" + fl.Shorthand, fl.Value}
	case fl.Bool && fl.Value == "true":
		return []string{"--" + fl.Name}
	case fl.Bool || fl.NoOptDefVal: // --check-data VALUE would not read VALUE
		return []string{"--" + fl.Name + "=" + fl.Value}
	}
	return []string{"--" + fl.Name, fl.Value}
}
