package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/skampi/skampi/record"
)

// The estimate is the pace so far times the points left; the caps are theirs summed,
// and neither bounds the other.
func TestRemaining(t *testing.T) {
	caps := []time.Duration{2 * time.Second, 2 * time.Second, 3 * time.Second}
	for _, c := range []struct {
		elapsed   time.Duration
		done      int
		est, caps time.Duration
	}{
		{10 * time.Second, 5, 6 * time.Second, 7 * time.Second},
		{100 * time.Second, 2, 150 * time.Second, 7 * time.Second}, // above the caps: said, not clamped
		{time.Second, 0, 0, 7 * time.Second},
	} {
		est, sum := Remaining(c.elapsed, c.done, caps)
		if est != c.est || sum != c.caps {
			t.Errorf("Remaining(%v, %d) = %v, %v; want %v, %v", c.elapsed, c.done, est, sum, c.est, c.caps)
		}
	}
	if est, sum := Remaining(time.Second, 1, nil); est != 0 || sum != 0 {
		t.Errorf("nothing left: %v, %v", est, sum)
	}
	for d, want := range map[time.Duration]string{42 * time.Second: "42s", 190 * time.Second: "3m10s", 3 * time.Minute: "3m",
		65*time.Minute + 20*time.Second: "1h5m", 2 * time.Hour: "2h"} {
		if got := shortDuration(d); got != want {
			t.Errorf("shortDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

// A live table ends each point line with the time left, and says nothing after the
// last point; a table of a file has no clock and says nothing.
func TestTableETA(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var buf bytes.Buffer
	tab := NewTableWith(&buf, TableOptions{ETA: &ETA{
		Caps: []time.Duration{time.Second, 2 * time.Second, 4 * time.Second},
		Now:  func() time.Time { return now },
	}})
	tab.Run(&record.Run{Points: 3})
	for i := 1; i <= 3; i++ {
		now = now.Add(10 * time.Second)
		tab.Point(&record.Point{Measurement: "m", Op: "Bcast", PointIndex: i, NProcs: 2, TimeS: 1e-6, Reps: 8})
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	last := lines[len(lines)-1]
	if !strings.HasSuffix(lines[len(lines)-3], "  | ~20s left at this pace, caps 6s") ||
		!strings.HasSuffix(lines[len(lines)-2], "  | ~10s left at this pace, caps 4s") || strings.Contains(last, "left") {
		t.Errorf("table:\n%s", buf.String())
	}
	buf.Reset()
	plain := NewTable(&buf)
	plain.Run(&record.Run{Points: 3})
	plain.Point(&record.Point{Measurement: "m", Op: "Bcast", PointIndex: 1, NProcs: 2, TimeS: 1e-6, Reps: 8})
	if strings.Contains(buf.String(), "left") {
		t.Errorf("a table without a clock:\n%s", buf.String())
	}
}
