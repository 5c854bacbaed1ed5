package report

import "github.com/skampi/skampi/internal/printable"

// Printable escapes what in a text from a result or suite file could act on a terminal
// rather than show: control characters (escape sequences start with ESC), the Unicode
// format characters that reorder text, and invalid UTF-8 (printable.String).
func Printable(s string) string { return printable.String(s) }

// PrintableLines is Printable for text of several lines: its newlines stay.
func PrintableLines(s string) string { return printable.Lines(s) }
