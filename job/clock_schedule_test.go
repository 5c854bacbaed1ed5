package job

import (
	"strings"
	"testing"
	"time"
)

// A clock check's schedule is fixed before the first check: one that would not end in
// reasonable time (10^9 checks of a nanosecond apart) is refused, naming the flag.
func TestClockCheckSchedule(t *testing.T) {
	for _, c := range []struct {
		duration, interval time.Duration
		want               string
	}{
		{10 * time.Second, time.Second, ""},
		{0, time.Second, ""},
		{9 * time.Second, time.Millisecond, ""},
		{time.Second, time.Nanosecond, "--interval must be at least 1ms"},
		{time.Second, 0, "--interval must be at least 1ms"},
		{time.Hour, time.Millisecond, "makes 3600001 checks, at most 10000"},
		{-time.Second, time.Second, "--duration must be 0 or more"},
	} {
		err := checkSchedule(c.duration, c.interval)
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("--duration %v --interval %v: %v, want %q", c.duration, c.interval, err, c.want)
		}
	}
}
