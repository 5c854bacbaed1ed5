package measure

import "math"

// Estimate is a value with its standard error.
type Estimate struct{ V, SE float64 }

// Ratio is the overlap ratio of a non-blocking operation: the share of its full time
// that a computation hid, 1 - notHidden/full, with the error propagated from both
// (independent) estimates. Raw is the value before clamping to [0, 1]; Clamped says
// whether that changed it (noise around 0 or 1, or a computation slowed by the
// communication): the caller must say so in the record.
type Ratio struct {
	Ratio, SE, Raw float64
	Clamped        bool
}

// OverlapRatio computes the ratio; ok is false when full is not a positive time.
func OverlapRatio(notHidden, full Estimate) (r Ratio, ok bool) {
	if !(full.V > 0) || math.IsNaN(notHidden.V) || math.IsInf(notHidden.V, 0) {
		return Ratio{}, false
	}
	q := notHidden.V / full.V
	r.Raw = 1 - q
	// d(1-N/F) = -dN/F + N dF/F²
	r.SE = math.Hypot(notHidden.SE/full.V, q*full.SE/full.V)
	r.Ratio = min(1, max(0, r.Raw))
	r.Clamped = r.Ratio != r.Raw
	return r, true
}

// Sum is a + b, the errors added in quadrature.
func (a Estimate) Sum(b Estimate) Estimate { return Estimate{a.V + b.V, math.Hypot(a.SE, b.SE)} }

// Agrees says whether two estimates of one quantity agree: within three combined
// standard errors, or within tol of the larger (a difference too small to matter).
func (a Estimate) Agrees(b Estimate, tol float64) bool {
	d := math.Abs(a.V - b.V)
	return d <= 3*math.Hypot(a.SE, b.SE) || d <= tol*max(math.Abs(a.V), math.Abs(b.V))
}
