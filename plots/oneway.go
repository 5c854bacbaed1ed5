package plots

import "github.com/skampi/skampi/record"

// timeAxis is what a time figure plots: for an operation all of whose points record
// a one-way latency (ping-pongs: the number OSU's osu_latency and IMB's PingPong
// report), that latency; for the others time_s. A point without latency_s is never
// halved here: its operation's line shows round trips, and the axis says so.
type timeAxis struct {
	oneWay map[string]bool // operations drawn one-way
	others bool            // some operation is drawn with time_s
}

func timeAxisOf(points []record.Point) timeAxis {
	a := timeAxis{oneWay: map[string]bool{}}
	without := map[string]bool{}
	for _, p := range points {
		if p.LatencyS == nil {
			without[p.Op] = true
		}
	}
	for _, p := range points {
		if without[p.Op] {
			a.others = true
		} else {
			a.oneWay[p.Op] = true
		}
	}
	return a
}

// value is a point's y and its error-bar ends: a one-way latency's are the round
// trip's scaled as latency_s is to time_s.
func (a timeAxis) value(p *record.Point, e ErrorBars) (y, lo, hi float64, ok bool) {
	lo, hi, ok = timeEnds(p, e)
	if !a.oneWay[p.Op] {
		return p.TimeS, lo, hi, ok
	}
	f := 0.0
	if p.TimeS > 0 {
		f = *p.LatencyS / p.TimeS
	}
	return *p.LatencyS, lo * f, hi * f, ok
}

// label names the y axis.
func (a timeAxis) label(points []record.Point) string {
	switch {
	case len(a.oneWay) == 0:
		return timeLabel(points)
	case a.others:
		return "time (ping-pongs: one-way latency)"
	}
	return "one-way latency"
}

// notes are what a caption adds: how the one-way latency relates to the round trip.
func (a timeAxis) notes() []string {
	if len(a.oneWay) == 0 {
		return nil
	}
	return []string{"one-way latency = round trip / 2 (latency_s)"}
}
