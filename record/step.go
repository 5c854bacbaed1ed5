package record

// KindStep is a step refinement found in a curve (the setting refine).
const KindStep = "step"

// Step is where a curve jumps, as refinement found it: between two sizes one element
// apart, and measured again there, alternately, before it is claimed to the element.
// Confirmed: every round showed the jump, in its direction and beyond the curve's
// noise; otherwise LoBytes..HiBytes is the wider bracket the measured sizes allow and
// Detail says what came back.
type Step struct {
	Kind        string `json:"kind"`
	RunID       string `json:"run_id"`
	Measurement string `json:"measurement"`
	Op          string `json:"op"`
	Method      string `json:"method,omitempty"`
	NProcs      int    `json:"nprocs"`
	Ranks       []int  `json:"ranks,omitempty"`
	// LoBytes and HiBytes bracket the step: the last size before it and the first after.
	LoBytes int64 `json:"lo_bytes"`
	HiBytes int64 `json:"hi_bytes"`
	// BeforeS and AfterS are the refined points' time_s at the two sizes refinement
	// narrowed it to (FoundLo, FoundHi), as first measured.
	FoundLo int64   `json:"found_lo_bytes"`
	FoundHi int64   `json:"found_hi_bytes"`
	BeforeS float64 `json:"before_s"`
	AfterS  float64 `json:"after_s"`
	// Rounds: time_s at FoundLo then FoundHi, measured again one after the other, per
	// round; a round that failed is absent.
	Rounds    [][2]float64 `json:"rounds"`
	Confirmed bool         `json:"confirmed"`
	Detail    string       `json:"detail,omitempty"`
}

// Key is the step's curve with its upper size: a resumed run that finds the same step
// leaves it alone.
func (s *Step) Key() Key {
	return Key{s.Measurement, s.Op, s.Method, s.FoundHi, s.NProcs, RanksKey(s.Ranks)}
}
