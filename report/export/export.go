// Package export writes merged result files in the formats of other tools: CSV for
// spreadsheets, SKaMPI's .sko text for its tools, the Go benchmark format for
// benchstat. Unlike report's sinks, it sees every run at once and can order them.
package export

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// Formats are the formats Export writes.
var Formats = []string{"csv", "sko", "gobench"}

// Export writes results as CSV (report.NewCSV), SKaMPI's text format (report.NewSKO)
// or the Go benchmark format (WriteGoBench): each run's header, then its points and
// faults in point order.
func Export(w io.Writer, res *report.Results, format string) error {
	return ExportLabelled(w, res, format, nil)
}

// ExportLabelled is Export with each run's source label (run id to label, as
// report.LoadWithLabels gives them) in the CSV's label column.
func ExportLabelled(w io.Writer, res *report.Results, format string, labels map[string]string) error {
	switch format {
	case "csv":
		c := report.NewCSV(w, true)
		c.Labels = labels
		for _, r := range byRun(res) {
			if err := r.feed(c); err != nil {
				return err
			}
		}
		return c.Close()
	case "sko":
		for i, r := range byRun(res) {
			if i > 0 {
				if _, err := io.WriteString(w, "\n"); err != nil {
					return err
				}
			}
			s := report.NewSKO(w) // one per run, as the run sink writes them
			if err := r.feed(s); err != nil {
				return err
			}
			if err := s.Close(); err != nil {
				return err
			}
		}
		return nil
	case "gobench":
		return WriteGoBench(w, res)
	}
	return fmt.Errorf("unknown export format %q (%s)", format, strings.Join(Formats, ", "))
}

// runRecords are one run's header and records in point order.
type runRecords struct {
	run    record.Run
	points []*record.Point
	faults []*record.Fault
}

// byRun groups results by run: runs in order, then the ids of records whose run has
// no header (a bare header stands in for it).
func byRun(res *report.Results) []*runRecords {
	var out []*runRecords
	idx := map[string]*runRecords{}
	get := func(id string) *runRecords {
		if r := idx[id]; r != nil {
			return r
		}
		r := &runRecords{run: record.Run{Kind: record.KindRun, RunID: id}}
		idx[id] = r
		out = append(out, r)
		return r
	}
	for _, run := range res.Runs {
		get(run.RunID).run = run
	}
	for i := range res.Points {
		r := get(res.Points[i].RunID)
		r.points = append(r.points, &res.Points[i])
	}
	for i := range res.Faults {
		r := get(res.Faults[i].RunID)
		r.faults = append(r.faults, &res.Faults[i])
	}
	for _, r := range out {
		sort.SliceStable(r.points, func(i, j int) bool { return r.points[i].PointIndex < r.points[j].PointIndex })
		sort.SliceStable(r.faults, func(i, j int) bool { return r.faults[i].PointIndex < r.faults[j].PointIndex })
	}
	return out
}

// each calls point or fault for the run's records in point order.
func (r *runRecords) each(point func(*record.Point) error, fault func(*record.Fault) error) error {
	i, j := 0, 0
	for i < len(r.points) || j < len(r.faults) {
		if j == len(r.faults) || i < len(r.points) && r.points[i].PointIndex <= r.faults[j].PointIndex {
			if err := point(r.points[i]); err != nil {
				return err
			}
			i++
			continue
		}
		if err := fault(r.faults[j]); err != nil {
			return err
		}
		j++
	}
	return nil
}

// feed gives a sink the run's header and records.
func (r *runRecords) feed(s report.Sink) error {
	if err := s.Run(&r.run); err != nil {
		return err
	}
	return r.each(s.Point, s.Fault)
}
