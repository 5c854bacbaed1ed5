package tune

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skampi/skampi/htmlreport"
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/plots"
	"github.com/skampi/skampi/report"
)

// writeReport writes dir/report.html: the verdict, and the figures with one curve per
// combination (the first repeat of each: later ones are in the verdict's statistics);
// the overlays also as PNG in dir/figures. A figure left out is said on stderr.
func writeReport(dir string, stderr io.Writer, t *inputs.Tune, v *Verdict, results []Result) error {
	all := &report.Results{}
	labels := map[string]string{}
	var sources []report.Source
	for _, r := range results {
		for _, run := range r.Results.Runs {
			labels[run.RunID] = r.Label
		}
		one := &report.Results{}
		if len(r.Results.Runs) > 0 {
			first := r.Results.Runs[0].RunID
			one.Runs = r.Results.Runs[:1]
			for _, p := range r.Results.Points {
				if p.RunID == first {
					one.Points = append(one.Points, p)
				}
			}
			for _, f := range r.Results.Faults {
				if f.RunID == first {
					one.Faults = append(one.Faults, f)
				}
			}
		}
		all.Merge(one)
		sources = append(sources, report.Source{Label: r.Label, Name: r.Combination.Name})
	}
	figs, skipped, err := plots.Draw(all, plots.Options{Labels: labels})
	if err != nil {
		return err
	}
	// The overlays as PNG too, for slides: one curve per setting.
	if err := os.MkdirAll(filepath.Join(dir, "figures"), 0o755); err != nil {
		return err
	}
	for _, f := range figs {
		if f.Kind == "overlay" {
			if _, err := f.Save(filepath.Join(dir, "figures"), []string{"png"}); err != nil {
				// One figure the data cannot make costs that figure, as in skampi plot.
				skipped = append(skipped, plots.Skipped{Figure: "overlay figure " + f.Name, Reason: err.Error()})
			}
		}
	}
	var text strings.Builder
	if err := v.Write(&text); err != nil {
		return err
	}
	// The verdict first, then the overlays (one curve per setting); each run's own
	// figures would repeat them one setting at a time.
	var overlays []*plots.Figure
	for _, f := range figs {
		if f.Kind == "overlay" {
			overlays = append(overlays, f)
		}
	}
	in := htmlreport.Input{Title: "skampi tune: " + t.Name, Sources: sources, Results: all, Generated: time.Now(),
		Lead: &htmlreport.Table{Title: "Tuning verdict", Text: text.String()}}
	var more []plots.Skipped
	in.Figures, more = htmlreport.Render(overlays)
	for _, s := range append(skipped, more...) {
		plots.WarnNotDrawn(stderr, s)
		in.NotDrawn = append(in.NotDrawn, s.String())
	}
	return report.WriteFile(filepath.Join(dir, "report.html"), func(w io.Writer) error { return htmlreport.Write(w, in) })
}
