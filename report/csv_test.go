package report

import (
	"strings"
	"testing"
)

func TestHasCSVHeader(t *testing.T) {
	for line, want := range map[string]bool{
		strings.Join(CSVHeader, ","):      true,
		strings.Join(CSVHeader[:25], ","): false, // an older skampi's columns
		"":                                false,
		`"unterminated`:                   false,
	} {
		if got := HasCSVHeader(line); got != want {
			t.Errorf("HasCSVHeader(%.40q) = %v", line, got)
		}
	}
}
