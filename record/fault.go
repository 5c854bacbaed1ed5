package record

import "time"

// KindFault marks a point that produced no measurement, and why.
const KindFault = "fault"

// Fault kinds.
const (
	FaultTimeout     = "timeout"     // the point outlived its hang timeout: blocked in the library
	FaultCrash       = "crash"       // the job died in this point, twice in a row
	FaultDenied      = "denied"      // not run: on the deny-list for this library, or a routine the library or the build lacks (OpenSHMEM in an MPICH build)
	FaultInterrupted = "interrupted" // SIGINT/SIGTERM arrived during the point
	FaultCorrupt     = "corrupt"     // check_data: a received byte differed from what was sent
	FaultError       = "error"       // the library (or skampi) refused the point; the run went on
)

// Fault records a point that was not measured. Timeouts and crashes are skipped when a
// run is resumed; denied and interrupted points are tried again.
type Fault struct {
	Kind             string  `json:"kind"`
	RunID            string  `json:"run_id"`
	PointIndex       int     `json:"point_index"`
	Measurement      string  `json:"measurement"`
	MeasurementIndex int     `json:"measurement_index"`
	Op               string  `json:"op"`
	Method           string  `json:"method,omitempty"`
	MsgBytes         int64   `json:"msg_bytes"`
	NProcs           int     `json:"nprocs"`
	Ranks            []int   `json:"ranks,omitempty"` // the participating ranks, when known
	Fault            string  `json:"fault"`
	ElapsedS         float64 `json:"elapsed_s"`
	// StalledS: a timeout, how long the rank's step counter had not moved when the
	// watchdog ended the point (elapsed_s is the whole point's time).
	StalledS float64   `json:"stalled_s,omitempty"`
	Detail   string    `json:"detail"`
	Time     time.Time `json:"time"`
	Corrupt  *Corrupt  `json:"corrupt,omitempty"` // FaultCorrupt: the first bad byte
}

// Faults are made in two steps, each in one place, as points are: NewFault names what
// the fault stands for (the point or phase, its run and ranks), and Mark gives it its
// verdict (the fault and its detail, at a time). A watchdog is armed with a fault that
// has no verdict yet; the point's own identity comes from inputs.Point.Fault.

// Where is what a fault stands for: a point of the plan (its index, measurement,
// operation, method, size, process count and ranks), or a phase of the run that is no
// point (start-up, finalize, writing the results, a measurement's clock
// synchronisation, the pair probe), which Measurement names.
type Where struct {
	RunID            string
	PointIndex       int
	Measurement      string
	MeasurementIndex int
	Op               string
	Method           string
	MsgBytes         int64
	NProcs           int
	Ranks            []int
}

// NewFault is the fault record of w, without a verdict yet (see Mark).
func NewFault(w Where) Fault {
	return Fault{Kind: KindFault, RunID: w.RunID, PointIndex: w.PointIndex, Measurement: w.Measurement,
		MeasurementIndex: w.MeasurementIndex, Op: w.Op, Method: w.Method, MsgBytes: w.MsgBytes, NProcs: w.NProcs,
		Ranks: w.Ranks}
}

// PhaseFault is the fault record of a phase of a run with nprocs processes that is no
// point of its plan (start-up, finalize, writing the results): its measurement is what,
// in parentheses.
func PhaseFault(runID, what string, nprocs int) Fault {
	return NewFault(Where{RunID: runID, Measurement: "(" + what + ")", NProcs: nprocs})
}

// Mark gives f its verdict now: the fault (FaultTimeout, FaultCrash, ...) and why.
func (f *Fault) Mark(fault, detail string) { f.MarkAt(fault, detail, time.Now()) }

// MarkAt is Mark at time t: when the fault was seen (a watchdog's expiry), not when
// it was written.
func (f *Fault) MarkAt(fault, detail string, t time.Time) {
	f.Kind, f.Fault, f.Detail, f.Time = KindFault, fault, detail, t.UTC()
}

// Corrupt is the first received byte that differed from what was sent, as the rank
// that received it found it after a repetition.
type Corrupt struct {
	Rank       int   `json:"rank"`       // world rank that received it
	From       int   `json:"from"`       // world rank that sent it
	Offset     int64 `json:"offset"`     // byte offset in the message
	Slot       int   `json:"slot"`       // receive slot (window) or block (per-process) holding it
	Expected   int   `json:"expected"`   // the byte sent
	Actual     int   `json:"actual"`     // the byte received
	Repetition int   `json:"repetition"` // counted from 0, warm-up included
}

// Skips reports whether a resumed run should leave this point alone. A corrupt point
// ran to its end: measuring it again would give the run two records of it.
func (f *Fault) Skips() bool {
	return f.Fault == FaultTimeout || f.Fault == FaultCrash || f.Fault == FaultCorrupt
}
