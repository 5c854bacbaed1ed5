package record

// KindClock is one residual-offset check of `skampi clock check`.
const KindClock = "clock"

// Clock is a rank's clock against the root's after synchronisation: the residual is
// the rank's global time (its model applied to its local clock) minus the root's clock,
// from the fastest of a few ping-pongs, elapsed_s after the synchronisation ended.
type Clock struct {
	Kind         string  `json:"kind"`
	RunID        string  `json:"run_id"`
	Rank         int     `json:"rank"`
	Host         string  `json:"host"`
	Algorithm    string  `json:"algorithm"`
	ElapsedS     float64 `json:"elapsed_s"`
	ResidualS    float64 `json:"residual_s"`
	RTTS         float64 `json:"rtt_s"`
	UncertaintyS float64 `json:"uncertainty_s"` // the model's own error estimate at that time
}
