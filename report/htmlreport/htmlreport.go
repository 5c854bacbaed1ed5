// Package htmlreport writes one self-contained HTML page from result records: run
// provenance, per-measurement figures (inline SVG) and tables, flagged points and
// faults, protocol analyses and comparisons. Nothing is loaded from the network.
package htmlreport

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/report"
)

//go:embed page.html.tmpl
var pageText string

// Figure is a rendered figure and the measurement it belongs to ("" for figures that
// span measurements, such as comparisons).
type Figure struct {
	Measurement string
	Title       string
	SVG         []byte
}

// Table is a preformatted text table (comparisons), shown as it is printed.
type Table struct {
	Title string
	Text  string
}

// Input is everything the page shows.
type Input struct {
	Title       string
	Sources     []report.Source
	Results     *report.Results
	Figures     []Figure
	Comparisons []Table
	Generated   time.Time
}

type runView struct {
	measure.Run
	EnvKeys []string
}

type measurementView struct {
	Name    string
	RunID   string
	Op      string
	Points  []measure.Point
	Figures []Figure
}

type pageView struct {
	Input
	Runs         []runView
	Measurements []measurementView
	Flagged      []measure.Point
	Faults       []measure.Fault
	Analyses     []report.Breakdown
	Other        []Figure // figures of no single measurement
	Problems     []report.Problem
}

var funcs = template.FuncMap{
	"seconds": report.Seconds,
	"bytes":   report.Bytes,
	"rate":    func(p *float64) string { return ratePtr(p) },
	"relerr": func(p measure.Point) string {
		if p.MeanS <= 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*p.StderrS/p.MeanS)
	},
	"join": strings.Join,
	"svg":  func(b []byte) template.HTML { return template.HTML(b) }, // rendered by gonum: trusted
	"pct":  func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) },
	"nsPerByte": func(x float64) string {
		return fmt.Sprintf("%.4g ns/B", x*1e9)
	},
	"bw":   func(r report.Regime) string { return report.Rate(r.BandwidthBps()) },
	"time": func(t time.Time) string { return t.Format("2006-01-02 15:04:05 MST") },
	"inc":  func(i int) int { return i + 1 },
}

var page = template.Must(template.New("page").Funcs(funcs).Parse(pageText))

func ratePtr(p *float64) string {
	if p == nil {
		return ""
	}
	return report.Rate(*p)
}

// Write renders the page.
func Write(w io.Writer, in Input) error {
	if in.Results == nil {
		return fmt.Errorf("no results to report")
	}
	if in.Title == "" {
		in.Title = "skampi report"
	}
	v := pageView{Input: in, Analyses: report.Analyze(in.Results), Faults: in.Results.Faults, Problems: in.Results.Problems}
	for _, r := range in.Results.Runs {
		rv := runView{Run: r}
		for k := range r.Env {
			rv.EnvKeys = append(rv.EnvKeys, k)
		}
		sort.Strings(rv.EnvKeys)
		v.Runs = append(v.Runs, rv)
	}
	index := map[string]int{}
	for _, p := range in.Results.Points {
		k := p.RunID + "\x00" + p.Measurement
		i, ok := index[k]
		if !ok {
			i = len(v.Measurements)
			index[k] = i
			v.Measurements = append(v.Measurements, measurementView{Name: p.Measurement, RunID: p.RunID, Op: p.Op})
		}
		v.Measurements[i].Points = append(v.Measurements[i].Points, p)
		if len(p.Flags) > 0 {
			v.Flagged = append(v.Flagged, p)
		}
	}
	for _, f := range in.Figures {
		placed := false
		for i := range v.Measurements {
			if f.Measurement != "" && v.Measurements[i].Name == f.Measurement {
				v.Measurements[i].Figures = append(v.Measurements[i].Figures, f)
				placed = true
				break // one run's section is enough: the figure covers every run
			}
		}
		if !placed {
			v.Other = append(v.Other, f)
		}
	}
	return page.Execute(w, v)
}
