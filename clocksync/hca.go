package clocksync

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// Defaults of HCA's parameters, used when a field is 0.
const (
	DefaultFitPoints = 20
	DefaultExchanges = 10
	DefaultSpacing   = 5e-3 // seconds
)

// HCA is a hierarchical clock synchronisation with a linear drift model, after Hunold
// and Carpen-Amarie's HCA: the ranks form a binomial tree rooted at Root and every rank
// fits a line against its parent's clock; the fits are composed down the tree, so that
// every rank maps its clock to the root's in ceil(log2 p) rounds.
//
// Ranks are numbered v = (rank - Root) mod p. In round k, for k = L-1 down to 0 with
// L = ceil(log2 p), every v whose lowest set bit is k is the client of its parent
// v - 2^k. Going top-down, a parent has its own model before it serves its children,
// and sends it as the trailer of each batch; the child composes its fit with it
// (Model.Compose). Rank v's model is therefore a chain of popcount(v) fits.
//
// A fit takes FitPoints batches of Exchanges ping-pongs, Spacing seconds apart (the
// client idles in between); of each batch the fastest round trip gives one point
// (midpoint time, midpoint offset), and the line is the least-squares regression of the
// offsets on the times (FitLine). A round therefore lasts about
// FitPoints*(Spacing + Exchanges*RTT). The slope's error shrinks with the span of the
// fit: about σ·sqrt(12/FitPoints)/((FitPoints-1)·Spacing) for a point error σ; the
// offset's error is about σ/sqrt(FitPoints) plus half the latency asymmetry per link.
//
// The zero value is ready to use (root 0, the defaults above).
type HCA struct {
	Root      int     `json:"root"`
	FitPoints int     `json:"fit_points"` // batches (points of the line) per fit
	Exchanges int     `json:"exchanges"`  // ping-pongs per batch; the fastest is kept
	Spacing   float64 `json:"spacing_s"`  // client idle time between batches, seconds
}

// Name is "hca".
func (HCA) Name() string { return "hca" }

// Rounds is ceil(log2 size), the height of the binomial tree.
func (HCA) Rounds(size int) int {
	if size <= 1 {
		return 0
	}
	return bits.Len(uint(size - 1))
}

func (a HCA) params() (k, n int, spacing float64, err error) {
	k, n, spacing = a.FitPoints, a.Exchanges, a.Spacing
	if k < 0 || n < 0 || spacing < 0 || math.IsNaN(spacing) || math.IsInf(spacing, 0) {
		return 0, 0, 0, fmt.Errorf("clocksync: hca: invalid parameters %+v", a)
	}
	if k == 0 {
		k = DefaultFitPoints
	}
	if n == 0 {
		n = DefaultExchanges
	}
	if spacing == 0 {
		spacing = DefaultSpacing
	}
	return k, n, spacing, nil
}

// Sync runs the hierarchical synchronisation on this rank; all ranks call it.
func (a HCA) Sync(x Exchanger) (Model, error) {
	rank, size, err := checkWorld(x, a.Root)
	if err != nil {
		return Model{}, err
	}
	k, n, spacing, err := a.params()
	if err != nil {
		return Model{}, err
	}
	v := (rank - a.Root + size) % size
	rankOf := func(v int) int { return (v + a.Root) % size }
	var model Model // the root's: identity
	for round := a.Rounds(size) - 1; round >= 0; round-- {
		bit := 1 << round
		switch low := v & (2*bit - 1); {
		case low == bit: // client of the parent
			parent := rankOf(v - bit)
			pts := make([]Point, 0, k)
			var up Model
			for i := range k {
				delay := spacing
				if i == 0 {
					delay = 0
				}
				s, m, err := pingPong(x, parent, n, delay)
				if err != nil {
					return Model{}, err
				}
				best := s[fastest(s)]
				pts = append(pts, Point{Time: best.Mid(), Offset: best.Offset(), RTT: best.RTT()})
				up = m
			}
			model = FitLine(pts).Compose(up)
		case low == 0 && v+bit < size: // server of a child
			for range k {
				if err := serve(x, rankOf(v+bit), n, model); err != nil {
					return Model{}, err
				}
			}
		}
	}
	return model, nil
}

// Point is one measurement of the offset of a peer's clock against the local clock:
// at local time Time the peer's clock read local + Offset, measured over a round trip
// of RTT seconds.
type Point struct {
	Time, Offset, RTT float64
}

// FitLine fits a linear model (offset and drift) to points by least squares of Offset
// on Time, after dropping points whose round trip is far slower than the typical one
// (RTT above min + 4·(median - min)): their offsets carry the delay of the slow leg.
// Ref is the mean time of the points kept, Offset the mean offset, and with three
// points or more Err and SlopeErr are three standard errors from the residuals. With
// two points Err is half the faster round trip (the causal bound), with one point the
// model is offset only.
func FitLine(pts []Point) Model {
	if len(pts) == 0 {
		return Model{}
	}
	rtts := make([]float64, len(pts))
	for i, p := range pts {
		rtts[i] = p.RTT
	}
	slices.Sort(rtts)
	fast, med := rtts[0], rtts[len(rtts)/2]
	keep := make([]Point, 0, len(pts))
	for _, p := range pts {
		if p.RTT <= fast+4*(med-fast) {
			keep = append(keep, p)
		}
	}
	n := float64(len(keep))
	var tm, om float64
	for _, p := range keep {
		tm += p.Time
		om += p.Offset
	}
	tm, om = tm/n, om/n
	var sxx, sxy float64
	for _, p := range keep {
		dt := p.Time - tm
		sxx += dt * dt
		sxy += dt * (p.Offset - om)
	}
	m := Model{Offset: om, Ref: tm, Err: fast / 2}
	if len(keep) < 2 || sxx == 0 {
		return m
	}
	m.Slope = sxy / sxx
	if len(keep) == 2 {
		m.SlopeErr = 2 * m.Err / math.Sqrt(2*sxx) // endpoints ±Err over the span
		return m
	}
	var ssr float64
	for _, p := range keep {
		r := p.Offset - om - m.Slope*(p.Time-tm)
		ssr += r * r
	}
	sd := math.Sqrt(ssr / (n - 2))
	m.Err = 3 * sd / math.Sqrt(n)
	m.SlopeErr = 3 * sd / math.Sqrt(sxx)
	return m
}
