package report

import (
	"fmt"
	"strings"
	"time"
)

// The time left, on the live table's point lines: "| ~2m10s left at this pace, caps
// 14m". Two numbers, each honest about what it is: the estimate is this session's
// mean time per point so far times the points left (refinement's added points and a
// restart's start-up are not foreseen); the caps are the points left's
// max_time_per_point summed, which bound their measuring (not their warm-up, nor
// start-up). Neither is clamped to the other: an estimate above the caps says that
// warm-up or set-up dominates.

// ETA is what the table needs to say the time left: every point's cap, by point
// index - 1, and the clock (time.Now; a test's own).
type ETA struct {
	Caps []time.Duration
	Now  func() time.Time
}

// Remaining is the time the points left take at the pace so far (done points took
// elapsed), and their caps summed; estimate is 0 before any point is done.
func Remaining(elapsed time.Duration, done int, left []time.Duration) (estimate, caps time.Duration) {
	for _, c := range left {
		caps += c
	}
	if done > 0 {
		estimate = elapsed / time.Duration(done) * time.Duration(len(left))
	}
	return estimate, caps
}

// etaText is the line's ending after point i (1-based) of total, or "" when nothing
// is left, the point is one refinement added, or the table has no ETA.
func (t *Table) etaText(i int) string {
	e := t.opt.ETA
	if e == nil || e.Now == nil || t.seen == 0 || i >= t.total || i < 1 || t.total > len(e.Caps) {
		return ""
	}
	est, caps := Remaining(e.Now().Sub(t.start), t.seen, e.Caps[i:t.total])
	return fmt.Sprintf("  | ~%s left at this pace, caps %s", shortDuration(est), shortDuration(caps))
}

// shortDuration is d to the second (to the minute past an hour), without zero tails:
// 42s, 3m10s, 1h5m.
func shortDuration(d time.Duration) string {
	if d >= time.Hour {
		d = d.Round(time.Minute)
	} else {
		d = d.Round(time.Second)
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
