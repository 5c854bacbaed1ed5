package report

import (
	"strings"
	"testing"

	"github.com/skampi/skampi/record"
)

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain µs\ttab":         "plain µs\ttab",
		"\x1b]0;owned\x07title": `\x1b]0;owned\x07title`,
		"clear\x1b[2J":          `clear\x1b[2J`,
		"line\nbreak\r":         `line\x0abreak\x0d`,
		"c1 \u009b31m":          `c1 \u009b31m`,
		"rtl \u202eevil":        `rtl \u202eevil`,
		"bad \xff utf8":         `bad \xff utf8`,
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
	if got := PrintableLines("a\x1b[31m\nb\n"); got != "a\\x1b[31m\nb\n" {
		t.Errorf("PrintableLines: %q", got)
	}
}

// Text from a result or suite file reaches the terminal escaped: the live table.
func TestTableEscapes(t *testing.T) {
	var b strings.Builder
	tab := NewTable(&b)
	run, pts := samplePoints()
	run.Suite = "evil\x1b]0;title\x07"
	pts[0].Measurement = "pp\x1b[2J"
	tab.Run(run)
	tab.Point(pts[0])
	tab.Fault(&record.Fault{Kind: record.KindFault, Measurement: "m", Op: "o", Fault: "timeout", Detail: "gone\x1b[31m"})
	if strings.ContainsRune(b.String(), 0x1b) || !strings.Contains(b.String(), `pp\x1b[2J`) || !strings.Contains(b.String(), `gone\x1b[31m`) {
		t.Errorf("%q", b.String())
	}
}
