package clocksync

import (
	"fmt"
	"math"
)

// DefaultSKaMPIExchanges is the number of ping-pongs per rank when SKaMPI.Exchanges is 0.
const DefaultSKaMPIExchanges = 100

// DefaultDriftBound is the relative drift between two clocks an offset-only model
// assumes when SKaMPI.DriftBound is 0: 10 ppm, what NTP-disciplined clocks stay well
// within. The model cannot see drift, so its uncertainty grows by this bound per second
// since the fit; window synchronisation then fits the clocks again in time.
const DefaultDriftBound = 10e-6

// SKaMPI is SKaMPI's clock synchronisation: the root answers one rank after the other
// (p-1 sequential rounds); each rank runs Exchanges ping-pongs against the root and
// intersects their causal bounds on the offset, [Remote-Recv, Remote-Send]. The model
// is offset only (Slope 0): Offset is the middle of the intersection and Err its half
// width, a true bound at the time of the fit when the one-way delays are not known. It
// does not know the drift, so its error grows by the relative drift times the time
// elapsed since the fit, and the ranks fitted first are the oldest fits.
//
// The zero value is ready to use (root 0, DefaultSKaMPIExchanges).
type SKaMPI struct {
	Root       int     `json:"root"`
	Exchanges  int     `json:"exchanges"`   // ping-pongs per rank; 0 means the default
	DriftBound float64 `json:"drift_bound"` // relative drift assumed; 0 means DefaultDriftBound
}

// Name is "skampi".
func (SKaMPI) Name() string { return "skampi" }

// Rounds is size-1: the root serves one rank per round.
func (SKaMPI) Rounds(size int) int { return max(size-1, 0) }

func (a SKaMPI) exchanges() int {
	if a.Exchanges > 0 {
		return a.Exchanges
	}
	return DefaultSKaMPIExchanges
}

// Sync runs SKaMPI's synchronisation on this rank; all ranks call it.
func (a SKaMPI) Sync(x Exchanger) (Model, error) {
	rank, size, err := checkWorld(x, a.Root)
	if err != nil {
		return Model{}, err
	}
	if a.Exchanges < 0 {
		return Model{}, fmt.Errorf("clocksync: skampi: negative exchanges %d", a.Exchanges)
	}
	n := a.exchanges()
	if rank == a.Root {
		for i := 1; i < size; i++ {
			if err := serve(x, (a.Root+i)%size, n, Model{}); err != nil {
				return Model{}, err
			}
		}
		return Model{}, nil
	}
	s, root, err := pingPong(x, a.Root, n, 0)
	if err != nil {
		return Model{}, err
	}
	// The root's trailer is its own model (the identity), composed for uniformity.
	m := FitBounds(s)
	m.SlopeErr = a.driftBound()
	return m.Compose(root), nil
}

func (a SKaMPI) driftBound() float64 {
	if a.DriftBound > 0 {
		return a.DriftBound
	}
	return DefaultDriftBound
}

// FitBounds is SKaMPI's offset-only fit of samples from one batch: the intersection of
// the causal bounds of all samples. Offset is its middle, Err its half width and Ref the
// middle of the fastest round trip. If drift has made the intersection empty, the
// fastest sample's midpoint estimate is used, with half its round trip as Err.
func FitBounds(s []Sample) Model {
	if len(s) == 0 {
		return Model{}
	}
	lo, hi := math.Inf(-1), math.Inf(1)
	for _, v := range s {
		l, h := v.Bounds()
		lo, hi = max(lo, l), min(hi, h)
	}
	best := s[fastest(s)]
	if lo <= hi {
		return Model{Offset: lo + (hi-lo)/2, Ref: best.Mid(), Err: (hi - lo) / 2}
	}
	return Model{Offset: best.Offset(), Ref: best.Mid(), Err: best.RTT() / 2}
}
