package compare

import (
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// RunIndex is the points of many runs keyed as Compare keys two sources, each run a
// source of its own: a history follows each key from run to run.
type RunIndex struct {
	Keys []Key // every key, points and faults, in order of first appearance
	// Dropped: settings only some runs record (an older skampi records no cache), left
	// out of every key so that the runs' points still meet.
	Dropped []string
	ix      *indexed
}

// IndexRuns keys the points and faults of res, each run as a source of its own, the
// settings named in ignore left out.
func IndexRuns(res *report.Results, ignore []string) *RunIndex {
	byRun := map[string]*report.Results{}
	var sides []*report.Results
	for _, p := range res.Points {
		r := byRun[p.RunID]
		if r == nil {
			r = &report.Results{}
			byRun[p.RunID] = r
			sides = append(sides, r)
		}
		r.Points = append(r.Points, p)
	}
	m := newMatcher(sides, ignore)
	ix := m.index(res)
	return &RunIndex{Keys: ix.keys, Dropped: m.dropped, ix: ix}
}

// Name is the measurement name a key was first seen with: its label.
func (x *RunIndex) Name(k Key) string { return x.ix.names[k] }

// Side is what the runs hold for a key: one value per run (RunIDs, RunTimesS), as a
// side of a comparison.
func (x *RunIndex) Side(k Key) Side { return compareSide(x.ix, k) }

// VaryingSettings names, for each table key (Key.Table), the settings whose values
// differ between the tables of one operation: what a title must show to tell them apart.
func VaryingSettings(tables []Key) map[Key]string { return varyingSettings(tables) }

// Faults are the fault records of a key, every run's, in the order read.
func (x *RunIndex) Faults(k Key) []*record.Fault { return x.ix.faults[k] }

// Points are the points of a key, every run's (those without a valid repetition too).
func (x *RunIndex) Points(k Key) []*record.Point { return x.ix.points[k] }
