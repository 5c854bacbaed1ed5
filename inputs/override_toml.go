package inputs

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// writeTOML writes a decoded suite back as TOML: top-level values first (the
// description leading), then tables, then arrays of tables ([[measurement]]), each
// table's keys in order (name and op leading) and nested tables inline. Comments do
// not survive a decode; Override heads the text with its own.
func writeTOML(doc map[string]any) string {
	var b strings.Builder
	keys := orderedKeys(doc, "description")
	for _, k := range keys {
		if !isTable(doc[k]) && !isTables(doc[k]) {
			fmt.Fprintf(&b, "%s = %s\n", tomlKey(k), writeValue(doc[k]))
		}
	}
	for _, k := range keys {
		if t, ok := doc[k].(map[string]any); ok {
			fmt.Fprintf(&b, "\n[%s]\n", tomlKey(k))
			writeTable(&b, t)
		}
	}
	for _, k := range keys {
		if isTables(doc[k]) {
			for _, e := range doc[k].([]any) {
				fmt.Fprintf(&b, "\n[[%s]]\n", tomlKey(k))
				writeTable(&b, e.(map[string]any))
			}
		}
	}
	return b.String()
}

func writeTable(b *strings.Builder, t map[string]any) {
	for _, k := range orderedKeys(t, "name", "op", "sizes", "method") {
		fmt.Fprintf(b, "%s = %s\n", tomlKey(k), writeValue(t[k]))
	}
}

func isTable(v any) bool { _, ok := v.(map[string]any); return ok }

func isTables(v any) bool {
	l, ok := v.([]any)
	if !ok || len(l) == 0 {
		return false
	}
	for _, e := range l {
		if !isTable(e) {
			return false
		}
	}
	return true
}

// orderedKeys is t's keys, first those of lead that it has, the rest sorted.
func orderedKeys(t map[string]any, lead ...string) []string {
	var out, rest []string
	for _, k := range lead {
		if _, ok := t[k]; ok {
			out = append(out, k)
		}
	}
	for k := range t {
		if !slices.Contains(lead, k) {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

func writeValue(v any) string {
	switch x := v.(type) {
	case string:
		return tomlString(x)
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		switch {
		case math.IsInf(x, 1):
			return "inf"
		case math.IsInf(x, -1):
			return "-inf"
		case math.IsNaN(x):
			return "nan"
		}
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".e") {
			s += ".0" // stays a float
		}
		return s
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = writeValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		var parts []string
		for _, k := range orderedKeys(x, "from", "to", "step") {
			parts = append(parts, tomlKey(k)+" = "+writeValue(x[k]))
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	return tomlString(fmt.Sprint(v)) // dates and times: no suite key takes one
}
