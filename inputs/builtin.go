package inputs

import (
	"embed"
	"sort"
	"strings"
)

//go:embed builtin/*.toml
var builtinFS embed.FS

// familySuites: the built-in suites families register (RegisterBuiltin), by name.
var familySuites = map[string][]byte{}

// RegisterBuiltin adds a family's built-in suite (its own folder embeds it), run as
// skampi -i NAME like the ones embedded here; its package's init calls it. A name
// taken is a programming error.
func RegisterBuiltin(name string, text []byte) {
	if _, taken := builtinText(name); taken || name == "" || strings.ContainsAny(name, "/\\.") {
		panic("inputs.RegisterBuiltin: suite name " + name + " is taken or not a name")
	}
	familySuites[name] = text
}

// BuiltinNames lists the built-in suites: the embedded ones and the families'.
func BuiltinNames() []string {
	entries, _ := builtinFS.ReadDir("builtin")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".toml"))
	}
	for name := range familySuites {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func builtinText(name string) ([]byte, bool) {
	if strings.ContainsAny(name, "/\\.") {
		return nil, false
	}
	if text, ok := familySuites[name]; ok {
		return text, true
	}
	b, err := builtinFS.ReadFile("builtin/" + name + ".toml")
	return b, err == nil
}

//go:embed tunes/*.toml
var tuneFS embed.FS

// BuiltinTuneNames lists the embedded tune files (skampi tune -i NAME).
func BuiltinTuneNames() []string {
	entries, _ := tuneFS.ReadDir("tunes")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".toml"))
	}
	sort.Strings(names)
	return names
}

func builtinTuneText(name string) ([]byte, bool) {
	if strings.ContainsAny(name, "/\\.") {
		return nil, false
	}
	b, err := tuneFS.ReadFile("tunes/" + name + ".toml")
	return b, err == nil
}

// BuiltinText is a built-in suite's TOML, to print and edit; false when name is none.
func BuiltinText(name string) ([]byte, bool) { return builtinText(name) }
