// Package history follows the runs of a suite over time (nightly runs appended to one
// directory, or one directory a night): each setup's value run after run, and the
// change points of each series, found by binary segmentation with permutation tests.
// Points are matched and measurements tested as a whole as skampi compare does
// (report/compare): a run is one sample, a measurement's value in a run is its
// geometric mean over its sizes, absolute and against the run's other measurements.
package history

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/report/compare"
)

// DefaultWindow is how many runs before the latest make its rolling baseline.
const DefaultWindow = 5

// Options configure Build; the zero value takes the defaults.
type Options struct {
	Alpha      float64 // false discovery rate of the change points (DefaultAlpha)
	Window     int     // runs in the rolling baseline (DefaultWindow)
	MinSegment int     // fewest runs on either side of a change (DefaultMinSegment)
	Ignore     []string
}

// Run is one run of the history, numbered from 1 in time order.
type Run struct {
	Index     int       `json:"index"`
	RunID     string    `json:"run_id"`
	StartTime time.Time `json:"start_time"`
	Label     string    `json:"label"` // of the source it was read from
	Library   string    `json:"mpi_library"`
	Hosts     []string  `json:"hosts"`
}

// Series is one value per run holding it, in time order, and its change points.
type Series struct {
	Runs    []int     `json:"runs"`   // Run.Index of each value
	Values  []float64 `json:"values"` // seconds, or a factor (Measurement.Relative)
	Changes []Step    `json:"changes,omitempty"`
	// Tested: the series was long enough for a change (two segments).
	Tested bool `json:"tested"`
	// Gaps are the runs after its first value without one: a fault, a point without a
	// valid repetition, or nothing (set for setups and a measurement's Absolute).
	Gaps []Gap `json:"gaps,omitempty"`
}

// Step is a change point: the run after it, the medians of the segments either side
// (between the neighbouring change points) and their ratio (above 1: slower).
type Step struct {
	Run    int     `json:"run"`
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	Ratio  float64 `json:"ratio"`
	P      float64 `json:"p"`
	Q      float64 `json:"q"`
}

// Setup is one setup's series (a measurement at one size and process count), its
// latest value and that value's ratio to the median of the Window values before it.
type Setup struct {
	Measurement string `json:"measurement"`
	Op          string `json:"op"`
	Method      string `json:"method,omitempty"`
	MsgBytes    int64  `json:"msg_bytes"`
	NProcs      int    `json:"nprocs"`
	Setup       string `json:"setup"` // the key, as compare prints it
	Series
	Baseline     float64 `json:"baseline"`      // 0 when no run precedes the latest
	BaselineRuns int     `json:"baseline_runs"` // values it is the median of
}

// Latest is the last value of the series and its run (0, 0 when empty).
func (s *Series) Latest() (run int, v float64) {
	if len(s.Values) == 0 {
		return 0, 0
	}
	return s.Runs[len(s.Runs)-1], s.Values[len(s.Values)-1]
}

// Measurement is a measurement's setups and its series as a whole: each run's geometric
// mean over Sizes (Absolute, seconds), and the same over the median of the run's other
// measurements (Relative, a factor). A relative change counts only where the absolute
// values of the same runs lean the same way (compare.SupportP): one that stayed while
// the others moved is not a change of its own; those are in OthersMoved.
type Measurement struct {
	Measurement string  `json:"measurement"`
	Op          string  `json:"op"`
	Method      string  `json:"method,omitempty"`
	Settings    string  `json:"settings,omitempty"` // those telling it from another of its op
	Sizes       int     `json:"sizes"`              // setups the whole combines
	Absolute    Series  `json:"absolute"`
	Relative    Series  `json:"relative"`
	OthersMoved []Step  `json:"others_moved,omitempty"`
	Setups      []Setup `json:"setups"`
}

// History is every run of the sources in time order and every measurement's series.
type History struct {
	Runs         []Run         `json:"runs"`
	Alpha        float64       `json:"alpha"`
	Window       int           `json:"window"`
	MinSegment   int           `json:"min_segment"`
	Measurements []Measurement `json:"measurements"`
	Notes        []string      `json:"notes,omitempty"`
}

// Build orders the runs of res by start time (labels: run id to source label) and
// follows every setup and measurement through them.
func Build(res *report.Results, labels map[string]string, opt Options) (*History, error) {
	if opt.Alpha == 0 {
		opt.Alpha = DefaultAlpha
	}
	if !(opt.Alpha > 0 && opt.Alpha < 1) {
		return nil, fmt.Errorf("alpha must be between 0 and 1, got %g", opt.Alpha)
	}
	if opt.Window == 0 {
		opt.Window = DefaultWindow
	}
	if opt.MinSegment == 0 {
		opt.MinSegment = DefaultMinSegment
	}
	if opt.Window < 1 || opt.MinSegment < 1 {
		return nil, fmt.Errorf("window and minimum segment must be at least 1, got %d and %d", opt.Window, opt.MinSegment)
	}
	h := &History{Alpha: opt.Alpha, Window: opt.Window, MinSegment: opt.MinSegment}
	index := h.orderRuns(res, labels)
	if len(res.Points) == 0 {
		return nil, fmt.Errorf("the sources hold no point")
	}
	x := compare.IndexRuns(res, opt.Ignore)
	if len(x.Dropped) > 0 {
		h.Notes = append(h.Notes, fmt.Sprintf("only some runs record %v: points are matched without it", x.Dropped))
	}
	var tables []compare.Key
	byTable := map[compare.Key][]compare.Key{}
	for _, k := range x.Keys {
		tk := k.Table()
		if byTable[tk] == nil {
			tables = append(tables, tk)
		}
		byTable[tk] = append(byTable[tk], k)
	}
	settings := compare.VaryingSettings(tables)
	for _, tk := range tables {
		keys := byTable[tk]
		sort.SliceStable(keys, func(i, j int) bool {
			if keys[i].NProcs != keys[j].NProcs {
				return keys[i].NProcs < keys[j].NProcs
			}
			return keys[i].MsgBytes < keys[j].MsgBytes
		})
		m := Measurement{Measurement: x.Name(keys[0]), Op: tk.Op, Method: tk.Method, Settings: settings[tk]}
		for _, k := range keys {
			s := setupSeries(k, x.Name(k), x.Side(k), index, opt.Window)
			s.Gaps = setupGaps(&s.Series, x.Points(k), x.Faults(k), index, len(h.Runs))
			m.Setups = append(m.Setups, s)
		}
		h.Measurements = append(h.Measurements, m)
	}
	h.detect(opt)
	return h, nil
}

// orderRuns numbers the runs by start time (runs without a header, or without a
// time, first, in the order read) and returns run id to number.
func (h *History) orderRuns(res *report.Results, labels map[string]string) map[string]int {
	runs := map[string]*Run{}
	var order []string
	add := func(id string) *Run {
		if r := runs[id]; r != nil {
			return r
		}
		r := &Run{RunID: id, Label: labels[id]}
		runs[id] = r
		order = append(order, id)
		return r
	}
	for _, r := range res.Runs {
		run := add(r.RunID)
		run.StartTime, run.Library, run.Hosts = r.StartTime, r.MPILibrary, r.Hosts
	}
	for _, p := range res.Points {
		add(p.RunID)
	}
	sort.SliceStable(order, func(i, j int) bool { return runs[order[i]].StartTime.Before(runs[order[j]].StartTime) })
	index := map[string]int{}
	untimed := 0
	for i, id := range order {
		r := runs[id]
		r.Index = i + 1
		index[id] = r.Index
		h.Runs = append(h.Runs, *r)
		if r.StartTime.IsZero() {
			untimed++
		}
	}
	// A change of library or machine is the first suspect of a change point.
	for i := 1; i < len(h.Runs); i++ {
		a, b := h.Runs[i-1], h.Runs[i]
		if a.Library != b.Library && a.Library != "" && b.Library != "" {
			h.Notes = append(h.Notes, fmt.Sprintf("run %d (%s): the MPI library changed from %s to %s", b.Index, fmtDate(b), a.Library, b.Library))
		}
		if ha, hb := strings.Join(a.Hosts, ","), strings.Join(b.Hosts, ","); ha != hb && ha != "" && hb != "" {
			h.Notes = append(h.Notes, fmt.Sprintf("run %d (%s): the hosts changed from %s to %s", b.Index, fmtDate(b), ha, hb))
		}
	}
	if untimed > 0 {
		h.Notes = append(h.Notes, fmt.Sprintf("%s without a start time (no run header: a .sko file) come first, in the order read", report.Count(untimed, "run")))
	}
	return index
}

// setupSeries is a key's values in time order, its latest and its rolling baseline.
func setupSeries(k compare.Key, name string, side compare.Side, index map[string]int, window int) Setup {
	s := Setup{Measurement: name, Op: k.Op, Method: k.Method, MsgBytes: k.MsgBytes, NProcs: k.NProcs, Setup: k.String()}
	s.Series = series(side.RunIDs, side.RunTimesS, index)
	if n := len(s.Values); n > 1 {
		prev := s.Values[max(0, n-1-window) : n-1]
		s.Baseline, s.BaselineRuns = compare.Median(prev), len(prev)
	}
	return s
}

// series orders values by their runs' numbers.
func series(ids []string, values []float64, index map[string]int) Series {
	type pt struct {
		run int
		v   float64
	}
	pts := make([]pt, len(ids))
	for i, id := range ids {
		pts[i] = pt{index[id], values[i]}
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].run < pts[j].run })
	var s Series
	for _, p := range pts {
		s.Runs = append(s.Runs, p.run)
		s.Values = append(s.Values, p.v)
	}
	return s
}

// logs are a series' values' logarithms.
func (s *Series) logs() []float64 {
	out := make([]float64, len(s.Values))
	for i, v := range s.Values {
		out[i] = math.Log(v)
	}
	return out
}

// steps turns change indices into Steps: the medians of the segments either side.
func (s *Series) steps(changes []Change) []Step {
	var out []Step
	for i, c := range changes {
		lo, hi := 0, len(s.Values)
		if i > 0 {
			lo = changes[i-1].At
		}
		if i+1 < len(changes) {
			hi = changes[i+1].At
		}
		before, after := compare.Median(s.Values[lo:c.At]), compare.Median(s.Values[c.At:hi])
		out = append(out, Step{Run: s.Runs[c.At], Before: before, After: after, Ratio: after / before, P: c.P, Q: c.Q})
	}
	return out
}
