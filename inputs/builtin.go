package inputs

import (
	"embed"
	"sort"
	"strings"
)

//go:embed builtin/*.toml
var builtinFS embed.FS

// BuiltinNames lists the embedded suites.
func BuiltinNames() []string {
	entries, _ := builtinFS.ReadDir("builtin")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".toml"))
	}
	sort.Strings(names)
	return names
}

func builtinText(name string) ([]byte, bool) {
	if strings.ContainsAny(name, "/\\.") {
		return nil, false
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
