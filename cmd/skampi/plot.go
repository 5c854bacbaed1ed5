package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/skampi/skampi/plots"
	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/report/compare"
	"github.com/spf13/cobra"
)

func newPlotCmd() *cobra.Command {
	var (
		dir     string
		formats []string
		errbars string
	)
	cmd := &cobra.Command{
		Use:   "plot [RESULTS...]",
		Short: "Draw figures from result files: latency, bandwidth, method comparison, scalability, overlap",
		Long: "plot draws every figure the results allow and writes each to DIR (default figures)\n" +
			"as NAME.FORMAT, one line per file written:\n" +
			figureKinds() +
			"Reads files, or stdin when none is given; \"label=file\" names a source in captions.",
		RunE: func(cmd *cobra.Command, args []string) error {
			fs, err := plots.ParseFormats(formats)
			if err != nil {
				return &exitError{Code: 2, Err: fmt.Errorf("--format: %w", err)}
			}
			eb, err := plots.ParseErrorBars(errbars)
			if err != nil {
				return &exitError{Code: 2, Err: fmt.Errorf("--errors: %w", err)}
			}
			res, labels, err := loadLabelled(report.ParseSources(args), cmd)
			if err != nil {
				return err
			}
			figs, skipped, err := plots.Draw(res, plots.Options{Errors: eb, Labels: labels})
			if err != nil {
				return err
			}
			if len(figs) == 0 && len(skipped) == 0 {
				return fmt.Errorf("no figure to draw: %d point(s) in %d run(s), and no figure kind applies to them", len(res.Points), len(res.Runs))
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			for _, s := range skipped {
				warnNotDrawn(cmd.ErrOrStderr(), s)
			}
			written := 0
			for _, f := range figs {
				for _, format := range fs {
					paths, err := f.Save(dir, []string{format})
					var de *plots.DrawError
					if errors.As(err, &de) {
						skipped = append(skipped, plots.Skipped{Figure: de.Figure + "." + de.Format, Reason: de.Err.Error()})
						warnNotDrawn(cmd.ErrOrStderr(), skipped[len(skipped)-1])
						continue
					}
					for _, p := range paths {
						fmt.Fprintln(cmd.OutOrStdout(), p)
					}
					if err != nil {
						return err // the disk, not the data: every further figure would fail too
					}
					written += len(paths)
				}
			}
			if written == 0 {
				return fmt.Errorf("no figure could be drawn: %d skipped (the warnings above say why)", len(skipped))
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&dir, "output", "o", "figures", "directory for the figures (created if missing)")
	fl.StringSliceVar(&formats, "format", []string{"png"}, "output formats, comma-separated: "+strings.Join(plots.Formats, ", "))
	fl.StringVar(&errbars, "errors", string(plots.ErrStderr), "error bars: stderr (time ± stderr_s), p10-p90, or none")
	return cmd
}

// loadLabelled is report.LoadAll that also names each run by the label of the source
// it came from (the label's base name: "results/a" names runs "a"; with the run id
// when the file holds several runs). Runs read from unlabelled stdin keep their ids.
func loadLabelled(sources []report.Source, cmd *cobra.Command) (*report.Results, map[string]string, error) {
	all, labels, _, err := loadSources(sources, cmd)
	return all, labels, err
}

// loadSources also returns each source's own results (read once: stdin cannot be
// read twice), for comparisons.
func loadSources(sources []report.Source, cmd *cobra.Command) (*report.Results, map[string]string, []compare.Labelled, error) {
	all := &report.Results{}
	labels := map[string]string{}
	var each []compare.Labelled
	for _, s := range sources {
		in := cmd.InOrStdin()
		if s.Name == "-" {
			var err error
			if in, err = stdin(cmd); err != nil {
				return nil, nil, nil, err
			}
		}
		res, err := s.Load(in)
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				return nil, nil, nil, fmt.Errorf("cannot read %s: %w", s.Name, pe.Err)
			}
			return nil, nil, nil, err
		}
		each = append(each, compare.Labelled{Label: s.Label, Results: res})
		for _, r := range res.Runs {
			if _, ok := labels[r.RunID]; ok || s.Name == "-" && s.Label == "stdin" {
				continue
			}
			labels[r.RunID] = filepath.Base(s.Label)
			if len(res.Runs) > 1 {
				labels[r.RunID] += ":" + r.RunID[:min(8, len(r.RunID))]
			}
		}
		all.Merge(res)
	}
	report.PrintProblems(cmd.ErrOrStderr(), all.Problems, maxProblemLines)
	return all, labels, each, nil
}

// warnNotDrawn says in one line that a figure was left out, and why; the others are
// drawn (see the exit status in README).
func warnNotDrawn(w io.Writer, s plots.Skipped) {
	fmt.Fprintln(w, report.Printable("skampi: warning: "+s.Figure+" not drawn: "+s.Reason))
}

// maxProblemLines is how many problems of the input a verb that reads on prints.
const maxProblemLines = 10

func figureKinds() string {
	var b strings.Builder
	for _, k := range plots.Kinds() {
		fmt.Fprintf(&b, "  %-14s %s\n", k.Name, k.Doc)
	}
	return b.String()
}
