// Package printable escapes text from result and suite files for a terminal. It
// imports nothing of skampi, so every package that prints such text can use it.
package printable

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// String escapes what in a text from a result or suite file could act on a terminal
// rather than show: control characters (escape sequences start with ESC), the Unicode
// format characters that reorder text, and invalid UTF-8. They are shown as Go escapes
// (\x1b, \u202e); tabs stay.
func String(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || r != '\t' && unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t':
			b.WriteRune(r)
		case r < 0x80 && unicode.IsControl(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
		i += n
	}
	return b.String()
}

// Lines is String for text of several lines: its newlines stay.
func Lines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = String(l)
	}
	return strings.Join(lines, "\n")
}
