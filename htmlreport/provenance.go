package htmlreport

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// sideProvenance is the provenance of an A/B report: a column per label, a row per
// field, each cell the values the label's runs hold (runs of one label are usually
// alike, so each value is said once). A row whose cells differ between labels is
// marked: that difference is what the comparison compares, intended or not.
type sideProvenance struct {
	Sides []sideHead
	Rows  []provRow
	// SameEnv counts the environment variables every run of every label sets alike,
	// listed collapsed; the ones that differ are rows of their own.
	SameEnv []string
}

type sideHead struct {
	Label, Role string
	Runs        int
	RunIDs      []string
}

type provRow struct {
	Field   string
	Cells   []string
	Differs bool
}

// provenanceField is a row: the field's name and its value in one run ("" if none).
type provenanceField struct {
	name  string
	value func(r *record.Run) string
}

var provenanceFields = []provenanceField{
	{"suite", func(r *record.Run) string {
		return fmt.Sprintf("%s (%s), sha256 %s", r.Suite, r.SuiteSource, short(r.SuiteSHA256, 12))
	}},
	{"library", func(r *record.Run) string { return fmt.Sprintf("%s (MPI %s)", r.MPILibrary, r.MPIVersion) }},
	{"processes", func(r *record.Run) string {
		hosts := make([]string, 0, len(r.RanksPerHost))
		for h, n := range r.RanksPerHost {
			hosts = append(hosts, fmt.Sprintf("%s×%d", h, n))
		}
		sort.Strings(hosts)
		return fmt.Sprintf("%d on %s: %s", r.NProcs, report.Count(len(r.Hosts), "host"), strings.Join(hosts, " "))
	}},
	{"binding", func(r *record.Run) string {
		var b []string
		for i, c := range r.RankCPUs {
			b = append(b, fmt.Sprintf("rank %d: %s", i, c))
		}
		return strings.Join(b, ", ")
	}},
	{"machine", func(r *record.Run) string {
		if r.Kernel != "" {
			return r.CPUModel + "; kernel " + r.Kernel
		}
		return r.CPUModel
	}},
	{"transport", func(r *record.Run) string {
		var t []string
		if r.UCXVersion != "" {
			t = append(t, "UCX "+r.UCXVersion)
		}
		if r.LibfabricVersion != "" {
			t = append(t, "libfabric "+r.LibfabricVersion)
		}
		return strings.Join(t, ", ")
	}},
	{"timer", func(r *record.Run) string { return fmt.Sprintf("%s, resolution %g s", r.Timer, r.TimerResolution) }},
	{"skampi", func(r *record.Run) string {
		s := fmt.Sprintf("%s (%s)", r.SkampiVersion, r.GoVersion)
		if r.AllowBroken {
			s += ", --allow-broken"
		}
		return s
	}},
}

func short(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// provenanceOf builds the table of the sides' runs, the first side the baseline.
func provenanceOf(res *report.Results, sides []Side) *sideProvenance {
	pv := &sideProvenance{}
	runsOf := make([][]*record.Run, len(sides))
	for i, s := range sides {
		role := "compared with " + sides[0].Label
		if i == 0 {
			role = "baseline"
		}
		pv.Sides = append(pv.Sides, sideHead{Label: s.Label, Role: role, Runs: len(s.RunIDs), RunIDs: s.RunIDs})
		for _, id := range s.RunIDs {
			if r, ok := res.Run(id); ok {
				runsOf[i] = append(runsOf[i], r)
			}
		}
	}
	add := func(name string, value func(r *record.Run) string) {
		row := provRow{Field: name}
		empty := true
		for _, runs := range runsOf {
			var vals []string
			for _, r := range runs {
				if v := value(r); !slices.Contains(vals, v) {
					vals = append(vals, v)
				}
			}
			cell := strings.Join(vals, " | ")
			if len(vals) > 1 {
				cell = fmt.Sprintf("%d values: %s", len(vals), cell)
			}
			empty = empty && cell == ""
			row.Cells = append(row.Cells, cell)
		}
		for _, c := range row.Cells[1:] {
			row.Differs = row.Differs || c != row.Cells[0]
		}
		if !empty {
			pv.Rows = append(pv.Rows, row)
		}
	}
	// When each label's runs started, as a span of days: the dates of ten runs would
	// fill the row.
	row := provRow{Field: "started"}
	for _, runs := range runsOf {
		var first, last string
		for _, r := range runs {
			d := r.StartTime.Format("2006-01-02")
			if first == "" || d < first {
				first = d
			}
			last = max(last, d)
		}
		if first != last {
			first += " to " + last
		}
		row.Cells = append(row.Cells, first)
	}
	for _, c := range row.Cells[1:] {
		row.Differs = row.Differs || c != row.Cells[0]
	}
	pv.Rows = append(pv.Rows, row)
	for _, f := range provenanceFields {
		add(f.name, f.value)
	}
	// Environment variables: a row for each that differs, the rest counted.
	keys := map[string]bool{}
	for _, runs := range runsOf {
		for _, r := range runs {
			for k := range r.Env {
				keys[k] = true
			}
		}
	}
	names := make([]string, 0, len(keys))
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		n := len(pv.Rows)
		add("$"+k, func(r *record.Run) string {
			if v, ok := r.Env[k]; ok {
				return v
			}
			return "(unset)"
		})
		if len(pv.Rows) > n && !pv.Rows[n].Differs && !strings.Contains(pv.Rows[n].Cells[0], " values: ") {
			pv.SameEnv = append(pv.SameEnv, k+"="+pv.Rows[n].Cells[0])
			pv.Rows = pv.Rows[:n]
		}
	}
	return pv
}
