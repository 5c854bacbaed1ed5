package report

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"github.com/skampi/skampi/record"
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

// Each row carries its run's start, library, hosts and source label, after every column
// an older file had, so that rows of many runs sort by time and keep their sides.
func TestCSVRunColumns(t *testing.T) {
	start := time.Date(2026, 11, 25, 3, 1, 37, 5, time.FixedZone("CET", 3600))
	var buf bytes.Buffer
	c := NewCSV(&buf, true)
	c.Labels = map[string]string{"r1": "old"}
	for _, r := range []*record.Run{
		{Kind: record.KindRun, RunID: "r1", MPILibrary: "Open MPI v4.1.4", Hosts: []string{"n1", "n2"}, StartTime: start},
		{Kind: record.KindRun, RunID: "r2"},
	} {
		if err := c.Run(r); err != nil {
			t.Fatal(err)
		}
		if err := c.Point(&record.Point{Kind: record.KindPoint, RunID: r.RunID, Op: "Put", TimeS: 1e-6}); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("%d rows %v", len(rows), err)
	}
	n := len(CSVHeader)
	if got := strings.Join(rows[0][n-4:], ","); got != "start_time,mpi_library,hosts,label" || rows[0][n-5] != "partitions" {
		t.Errorf("header ends %v", rows[0][n-6:])
	}
	if got := strings.Join(rows[1][n-4:], "|"); got != "2026-11-25T02:01:37.000000005Z|Open MPI v4.1.4|n1;n2|old" {
		t.Errorf("row of r1 ends %q", got)
	}
	if got := strings.Join(rows[2][n-4:], "|"); got != "|||" || len(rows[2]) != n {
		t.Errorf("row of a run without them ends %q", got)
	}
}
