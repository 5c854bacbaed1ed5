package measure

import "time"

// Record kinds, the "kind" field of every line of a result file.
const (
	KindRun   = "run"
	KindPoint = "point"
)

// Flags a point can carry. A flagged value is still reported as measured: flags say
// why it deserves a second look; nothing is clamped or dropped.
const (
	FlagMaxReps      = "max_repetitions"            // stopped at max_repetitions, stderr above target
	FlagTimeCap      = "time_cap"                   // stopped by max_time_per_point
	FlagDiscardCap   = "discard_cap"                // stopped by too many invalid repetitions
	FlagFewReps      = "few_repetitions"            // fewer valid repetitions than min_repetitions
	FlagNoValidReps  = "no_valid_reps"              // not a single valid repetition: no time
	FlagPairFallback = "pair_fallback"              // the requested pair selection was impossible
	FlagNegative     = "negative_after_subtraction" // the subtracted part took longer than the whole
)

// Run is the provenance header, the first line of every result file.
type Run struct {
	Kind            string            `json:"kind"`
	RunID           string            `json:"run_id"`
	SkampiVersion   string            `json:"skampi_version"`
	GoVersion       string            `json:"go_version"`
	MPILibrary      string            `json:"mpi_library"`
	MPIVersion      string            `json:"mpi_version"`
	NProcs          int               `json:"nprocs"`
	Hosts           []string          `json:"hosts"`
	RankHosts       []string          `json:"rank_hosts"`
	RanksPerHost    map[string]int    `json:"ranks_per_host"`
	Timer           string            `json:"timer"`
	TimerResolution float64           `json:"timer_resolution_s"`
	Suite           string            `json:"suite"`
	SuiteSource     string            `json:"suite_source"`
	SuiteSHA256     string            `json:"suite_sha256"`
	Points          int               `json:"points"`
	Env             map[string]string `json:"env"`
	Command         []string          `json:"command"`
	StartTime       time.Time         `json:"start_time"`
	Resume          bool              `json:"resume,omitempty"`       // continues earlier runs in the same file
	AllowBroken     bool              `json:"allow_broken,omitempty"` // deny-list overridden
}

// Point is one measured point: one operation at one message size.
type Point struct {
	Kind             string    `json:"kind"`
	RunID            string    `json:"run_id"`
	PointIndex       int       `json:"point_index"` // 1-based position in the run
	Measurement      string    `json:"measurement"`
	MeasurementIndex int       `json:"measurement_index"`
	Op               string    `json:"op"`
	Method           string    `json:"method,omitempty"` // timing method (broadcast: barrier, rounds, ack)
	Family           string    `json:"family"`
	MsgBytes         int64     `json:"msg_bytes"`
	NProcs           int       `json:"nprocs"`
	Ranks            []int     `json:"ranks"`
	Timer            string    `json:"timer"`
	Sync             string    `json:"sync"`
	Window           int       `json:"window,omitempty"`
	Iterations       int       `json:"iterations"`
	TimeS            float64   `json:"time_s"`
	MeanS            float64   `json:"mean_s"`
	MedianS          float64   `json:"median_s"`
	MinS             float64   `json:"min_s"`
	P10S             float64   `json:"p10_s"`
	P90S             float64   `json:"p90_s"`
	MaxS             float64   `json:"max_s"`
	StderrS          float64   `json:"stderr_s"`
	LatencyS         *float64  `json:"latency_s,omitempty"`
	BandwidthBps     *float64  `json:"bandwidth_Bps,omitempty"`
	ThroughputBps    *float64  `json:"throughput_Bps,omitempty"` // all-to-all: (nprocs-1)*msg_bytes/time per process
	SubtractedS      *float64  `json:"subtracted_s,omitempty"`   // subtraction method: the time taken off every sample
	WindowS          *float64  `json:"window_s,omitempty"`       // window synchronisation: the window at the end of the point
	Reps             int       `json:"reps"`
	Discarded        int       `json:"discarded"`
	Stop             string    `json:"stop"`
	Flags            []string  `json:"flags,omitempty"`
	RankTimeS        []float64 `json:"rank_time_s"`
	SamplesS         []float64 `json:"samples_s"`
	ElapsedS         float64   `json:"elapsed_s"`
}

// Fill copies a Result's statistics into the point and sets the flags its stop
// verdict and repetition count call for. minReps is the point's min_repetitions.
func (p *Point) Fill(r *Result, minReps int) {
	p.Kind = KindPoint
	p.Iterations = r.Iterations
	p.Reps, p.Discarded = r.N, r.Discarded
	p.Stop = r.Verdict.String()
	p.ElapsedS = r.Elapsed.Seconds()
	p.SamplesS = r.Samples
	p.RankTimeS = r.RankTime
	switch r.Verdict {
	case MaxReps:
		p.addFlag(FlagMaxReps)
	case TimeCap:
		p.addFlag(FlagTimeCap)
	case DiscardCap:
		p.addFlag(FlagDiscardCap)
	}
	if r.N == 0 {
		// JSON has no NaN: the times stay 0 and the flag says there are none.
		p.addFlag(FlagNoValidReps)
		return
	}
	if r.N < minReps {
		p.addFlag(FlagFewReps)
	}
	s := r.Summary
	p.TimeS, p.MeanS, p.MedianS = s.Time, s.Mean, s.Median
	p.MinS, p.P10S, p.P90S, p.MaxS, p.StderrS = s.Min, s.P10, s.P90, s.Max, s.Stderr
}

func (p *Point) addFlag(f string) { p.Flags = append(p.Flags, f) }

// AddFlag records a flag once.
func (p *Point) AddFlag(f string) {
	for _, g := range p.Flags {
		if g == f {
			return
		}
	}
	p.addFlag(f)
}

// KindFault marks a point that produced no measurement, and why.
const KindFault = "fault"

// Fault kinds.
const (
	FaultTimeout     = "timeout"     // the point outlived its hang timeout: blocked in the library
	FaultCrash       = "crash"       // the job died in this point, twice in a row
	FaultDenied      = "denied"      // the routine is on the known-broken list for this library
	FaultInterrupted = "interrupted" // SIGINT/SIGTERM arrived during the point
)

// Fault records a point that was not measured. Timeouts and crashes are skipped when a
// run is resumed; denied and interrupted points are tried again.
type Fault struct {
	Kind             string    `json:"kind"`
	RunID            string    `json:"run_id"`
	PointIndex       int       `json:"point_index"`
	Measurement      string    `json:"measurement"`
	MeasurementIndex int       `json:"measurement_index"`
	Op               string    `json:"op"`
	Method           string    `json:"method,omitempty"`
	MsgBytes         int64     `json:"msg_bytes"`
	NProcs           int       `json:"nprocs"`
	Fault            string    `json:"fault"`
	ElapsedS         float64   `json:"elapsed_s"`
	Detail           string    `json:"detail"`
	Time             time.Time `json:"time"`
}

// Key identifies a point across runs of a suite, for resuming.
type Key struct {
	Measurement string
	Op          string
	Method      string
	MsgBytes    int64
	NProcs      int
}

func (p *Point) Key() Key { return Key{p.Measurement, p.Op, p.Method, p.MsgBytes, p.NProcs} }
func (f *Fault) Key() Key { return Key{f.Measurement, f.Op, f.Method, f.MsgBytes, f.NProcs} }

// Subtract takes s seconds off every sample and per-rank time (the subtraction
// method: a part measured on its own is removed from the whole) and recomputes the
// statistics. A result that goes negative stays negative and is flagged.
func (p *Point) Subtract(s float64) {
	if p.Reps == 0 {
		return
	}
	for i := range p.SamplesS {
		p.SamplesS[i] -= s
	}
	for i := range p.RankTimeS {
		p.RankTimeS[i] -= s
	}
	st := Summarize(p.SamplesS)
	p.TimeS, p.MeanS, p.MedianS = st.Time, st.Mean, st.Median
	p.MinS, p.P10S, p.P90S, p.MaxS, p.StderrS = st.Min, st.P10, st.P90, st.Max, st.Stderr
	p.SubtractedS = &s
	if p.TimeS < 0 {
		p.AddFlag(FlagNegative)
	}
}

// Skips reports whether a resumed run should leave this point alone.
func (f *Fault) Skips() bool { return f.Fault == FaultTimeout || f.Fault == FaultCrash }

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
