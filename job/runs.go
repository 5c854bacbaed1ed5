package job

import (
	"fmt"
	"slices"
	"text/tabwriter"

	"github.com/skampi/skampi/report"
)

// repeatRuns launches the suite o.Runs times into o.Out, one run after another (each a
// fresh mpirun: placement, buffers and the machine's state drawn anew), then prints
// every point's median over the runs, their spread, and whether one run's own error
// covers it (report.Spreads). A run that fails ends the series with its error.
func repeatRuns(o Options, once func(Options) error) error {
	before, err := loadState(o.Out)
	if err != nil {
		return fmt.Errorf("-o %s: %v", o.Out, err)
	}
	old := map[string]bool{}
	for _, r := range before.res.Runs {
		old[r.RunID] = true
	}
	for i := range o.Runs {
		oi := o
		if i > 0 && !o.Append { // the ranks read their command line: they must append too
			oi.Append, oi.Args = true, append(slices.Clone(o.Args), "--append")
		}
		fmt.Fprintf(o.Stdout, "\n== run %d of %d ==\n", i+1, o.Runs)
		if err := once(oi); err != nil {
			return err
		}
	}
	st, err := loadState(o.Out)
	if err != nil {
		return fmt.Errorf("-o %s: %v", o.Out, err)
	}
	var runs []string
	for _, r := range st.res.Runs {
		if !old[r.RunID] {
			runs = append(runs, r.RunID)
		}
	}
	printSpreads(o, report.Spreads(st.res, runs), len(runs))
	return nil
}

func printSpreads(o Options, spreads []report.RunSpread, runs int) {
	fmt.Fprintf(o.Stdout, "\n%d runs: per point the median of time_s over the runs, their range and standard deviation, and one run's stderr_s (the median over the runs)\n", runs)
	tw := tabwriter.NewWriter(o.Stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "measurement\top\tmethod\tbytes\tprocs\tmedian\tmin - max\tsd over runs\tone run's stderr\t\n")
	under := 0
	for _, s := range spreads {
		note := ""
		if s.Understated {
			under++
			note = "runs scatter beyond one run's error"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%s - %s\t%s\t%s\t%s\n", s.Key.Measurement, s.Key.Op, s.Key.Method, s.Key.MsgBytes, s.Key.NProcs,
			report.Seconds(s.MedianS), report.Seconds(s.MinS), report.Seconds(s.MaxS), report.Seconds(s.RunSD), report.Seconds(s.StderrS), note)
	}
	tw.Flush()
	fmt.Fprintf(o.Stdout, "%d of %d points scatter over the runs by more than twice one run's error: there, quote the median over runs, not one run\n",
		under, len(spreads))
}
