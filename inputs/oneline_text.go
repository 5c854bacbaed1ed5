package inputs

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"
)

// How command-line words become TOML: values a user means as numbers are numbers
// whatever their spelling (007, .5), everything else a string TOML can hold, and the
// command line itself a comment that stays one line whatever its arguments hold.

// tomlValue writes a command-line value as the TOML value a suite would hold: numbers
// and booleans bare, lists for comma-separated values, strings quoted.
func tomlValue(s string) string {
	if strings.Contains(s, ",") {
		return tomlList(strings.Split(s, ","))
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return strconv.FormatInt(n, 10) // 007 is 7 (TOML forbids the zeros), +5 is 5
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) && !strings.ContainsAny(s, "nNxX_") {
		return strconv.FormatFloat(f, 'g', -1, 64) // .5 is 0.5, 5. is 5
	}
	if s == "true" || s == "false" {
		return s
	}
	return tomlString(s)
}

// settingValue is a setting's value as typed on the command line, in TOML.
func settingValue(key, raw string) string {
	if key == "procs" { // a list even of one: --procs 4
		return tomlList(strings.Split(raw, ","))
	}
	if key == "refine" {
		return refineValue(raw)
	}
	return tomlValue(raw)
}

func tomlList(items []string) string {
	parts := make([]string, len(items))
	for i, it := range items {
		parts[i] = tomlValue(strings.TrimSpace(it))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// tomlString quotes s as a TOML basic string: control characters escaped, bytes that
// are not UTF-8 replaced by U+FFFD (a TOML file is UTF-8).
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// checkValue says, naming the flag, when a value would not make valid TOML (never, as
// tomlValue writes them; kept so that a slip there is the flag's error, not a suite
// position the user never saw).
func checkValue(key, raw, value string) error {
	var doc map[string]any
	if err := toml.Unmarshal([]byte("v = "+value), &doc); err != nil {
		return fmt.Errorf("%s: %q cannot be written in a suite: %v", flagName(key), raw, trimTOML(err.Error()))
	}
	return nil
}

// flagName is a setting's flag: --max-time-per-point for max_time_per_point.
func flagName(key string) string { return "--" + strings.ReplaceAll(key, "_", "-") }

// shellWords writes arguments as a shell would read them back, on one line: plain
// words as they are, others in single quotes, and those holding a control character
// or bytes that are not UTF-8 in $'...' with escapes, so that a newline in an argument
// cannot end the comment it is printed in.
func shellWords(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = ShellWord(a)
	}
	return strings.Join(out, " ")
}

// ShellWord is a as one word a shell reads back as a (tune's apply lines use it too).
func ShellWord(a string) string {
	plain := a != "" && strings.IndexFunc(a, func(r rune) bool {
		return !(r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_@%+=:,./-", r)))
	}) < 0
	if plain {
		return a
	}
	quotable := utf8.ValidString(a) && strings.IndexFunc(a, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }) < 0
	if quotable {
		return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(a); {
		r, n := utf8.DecodeRuneInString(a[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, a[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\'' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case !unicode.IsPrint(r) && r != ' ' && r > 0xffff:
			fmt.Fprintf(&b, `\U%08x`, r)
		case !unicode.IsPrint(r) && r != ' ':
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
		i += n
	}
	b.WriteByte('\'')
	return b.String()
}
