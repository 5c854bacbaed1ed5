package clocksync

import "math"

// Model maps a rank's local clock to the global clock, which is the root rank's local
// clock (all times in seconds):
//
//	global = local + Offset + Slope*(local - Ref)
//
// Offset is global minus local at local time Ref; Slope is the relative drift (the
// global clock's rate over the local clock's rate, minus one). Slope == 0 is SKaMPI's
// offset-only model. Ref is a local time near the fit, so that Slope multiplies a small
// difference and no precision is lost when local clocks read large values.
//
// The zero Model is the identity: the root's own model.
//
// Err and SlopeErr are the fitting algorithm's estimates of how wrong Offset and Slope
// are (see Uncertainty); they do not include the bias of an asymmetric network
// (one-way latencies that differ in the two directions), which no ping-pong can observe.
type Model struct {
	Offset   float64 `json:"offset_s"`
	Slope    float64 `json:"slope"`
	Ref      float64 `json:"ref_s"`
	Err      float64 `json:"err_s"`     // error estimate of Global at local == Ref
	SlopeErr float64 `json:"slope_err"` // error estimate of Slope
}

// Global returns the global time at the given local time.
func (m Model) Global(local float64) float64 {
	return local + m.Offset + m.Slope*(local-m.Ref)
}

// Local inverts Global: the local time at which the global clock reads global. A
// window synchronisation uses it to wait on the local clock for a global instant.
func (m Model) Local(global float64) float64 {
	return m.Ref + (global-m.Ref-m.Offset)/(1+m.Slope)
}

// Uncertainty estimates the error of Global(local): Err at Ref, growing by SlopeErr
// per second away from Ref.
func (m Model) Uncertainty(local float64) float64 {
	return m.Err + m.SlopeErr*math.Abs(local-m.Ref)
}

// Compose chains two models: m maps this clock to an intermediate clock, outer maps the
// intermediate clock onward, and the result maps this clock through both:
//
//	m.Compose(outer).Global(t) == outer.Global(m.Global(t))
//
// exactly up to rounding (linear maps compose into a linear map). In the hierarchical
// algorithm a child composes its fit against its parent's clock with the parent's model
// of the root: child.Compose(parent). The result keeps m.Ref. The errors add: m's
// error carried through outer, plus outer's uncertainty where m lands.
func (m Model) Compose(outer Model) Model {
	mid := m.Global(m.Ref)
	s1, s2 := m.Slope, outer.Slope
	return Model{
		Offset:   outer.Global(mid) - m.Ref,
		Slope:    s1 + s2 + s1*s2,
		Ref:      m.Ref,
		Err:      m.Err*(1+math.Abs(s2)) + outer.Uncertainty(mid),
		SlopeErr: m.SlopeErr*(1+math.Abs(s2)) + outer.SlopeErr*(1+math.Abs(s1)) + m.SlopeErr*outer.SlopeErr,
	}
}

// ModelWords is the number of float64 words of a Model on the wire (see Words).
const ModelWords = 5

// Words is the model as ModelWords float64 values, for an Exchanger to send as the
// trailer of a batch (see Exchanger.Serve). ModelFromWords inverts it.
func (m Model) Words() [ModelWords]float64 {
	return [ModelWords]float64{m.Offset, m.Slope, m.Ref, m.Err, m.SlopeErr}
}

// ModelFromWords rebuilds a Model from its Words.
func ModelFromWords(w [ModelWords]float64) Model {
	return Model{Offset: w[0], Slope: w[1], Ref: w[2], Err: w[3], SlopeErr: w[4]}
}
