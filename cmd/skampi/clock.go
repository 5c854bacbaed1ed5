package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/skampi/skampi/clocksync"
	"github.com/skampi/skampi/internal/launch"
	"github.com/skampi/skampi/ops/mpi"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

type clockOptions struct {
	np        int
	algorithm string
	duration  time.Duration
	interval  time.Duration
	out       string
}

func newClockCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "clock",
		Short: "Clock synchronisation tools",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	o := &clockOptions{}
	check := &cobra.Command{
		Use:   "check [--algorithm hca|skampi] [--duration 10s] [-o DIR]",
		Short: "Synchronise the clocks, then measure every rank's residual offset and drift",
		Long: "check fits every rank's clock to rank 0's with the chosen algorithm, then, every\n" +
			"--interval for --duration, measures each rank's residual offset: its global time\n" +
			"minus rank 0's clock, from the fastest of a few ping-pongs. It prints the residual\n" +
			"offset and its drift per rank, and with -o writes DIR/clock.jsonl.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := clocksync.New(o.algorithm); err != nil {
				return &exitError{code: 2, err: err}
			}
			if o.duration < 0 || o.interval <= 0 {
				return &exitError{code: 2, err: fmt.Errorf("--duration must be >= 0 and --interval > 0")}
			}
			if launch.UnderLauncher(os.Environ()) {
				return clockJob(o, cmd.OutOrStdout())
			}
			return relaunch(o.np)
		},
	}
	fl := check.Flags()
	fl.IntVar(&o.np, "np", 2, "processes to start when skampi launches mpirun itself")
	fl.StringVar(&o.algorithm, "algorithm", "hca", `"hca" (hierarchical, offset and drift) or "skampi" (offset bounds)`)
	fl.DurationVar(&o.duration, "duration", 10*time.Second, "how long to keep checking after the synchronisation")
	fl.DurationVar(&o.interval, "interval", time.Second, "time between checks")
	fl.StringVarP(&o.out, "output", "o", "", "directory for clock.jsonl")
	cmd.AddCommand(check)
	return cmd
}

// relaunch runs this very command line under mpirun on this machine.
func relaunch(np int) error {
	mpirun, err := launch.FindMPIRun()
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	code, sig, err := runForwardingSignals(launch.Command(mpirun, self, os.Args[1:], os.Environ(),
		launch.Options{NP: np, Cores: runtime.NumCPU(), Root: os.Geteuid() == 0}))
	switch {
	case err != nil:
		return err
	case sig != 0:
		return &exitError{code: exitSignal + int(sig), quiet: true}
	case code != 0:
		return &exitError{code: code, quiet: true}
	}
	return nil
}

// clockJob is one rank of `clock check`.
func clockJob(o *clockOptions, out io.Writer) error {
	launch.SetRankDefaults()
	w, err := mpi.Init()
	if err != nil {
		return err
	}
	defer w.Finalize()
	fail := func(err error) error {
		fmt.Fprintf(os.Stderr, "skampi: rank %d: %v\n", w.Rank(), err)
		mpi.Abort(1)
		return &exitError{code: 1, quiet: true}
	}
	hosts, err := w.Hosts()
	if err != nil {
		return fail(err)
	}
	alg, _ := clocksync.New(o.algorithm)
	x := w.NewClock()
	t0 := time.Now()
	model, err := alg.Sync(x)
	if err != nil {
		return fail(fmt.Errorf("synchronising: %w", err))
	}
	syncTime := time.Since(t0)
	hdr := provenance(w.Size(), hosts)
	hdr.Suite = "clock check (" + alg.Name() + ")"
	runID := hdr.RunID
	var records []record.Clock
	start := time.Now()
	// Checks at 0, interval, 2*interval, ... up to duration.
	for k := 1; ; k++ {
		elapsed := time.Since(start).Seconds()
		for r := 1; r < w.Size(); r++ {
			switch w.Rank() {
			case 0:
				samples, m, err := x.PingPong(r, 10, 0)
				if err != nil {
					return fail(err)
				}
				best := samples[0]
				for _, s := range samples[1:] {
					if s.RTT() < best.RTT() {
						best = s
					}
				}
				records = append(records, record.Clock{Kind: record.KindClock, RunID: runID, Rank: r, Host: hosts[r],
					Algorithm: alg.Name(), ElapsedS: elapsed, ResidualS: m.Global(best.Remote) - best.Mid(),
					RTTS: best.RTT(), UncertaintyS: m.Uncertainty(best.Remote)})
			case r:
				if err := x.Serve(0, 10, model); err != nil {
					return fail(err)
				}
			}
		}
		next := time.Duration(k) * o.interval
		if next > o.duration {
			break
		}
		time.Sleep(time.Until(start.Add(next))) // every rank waits for the same instant
	}
	if w.Rank() != 0 {
		return nil
	}
	fmt.Fprintf(out, "clock check: %s synchronisation of %d processes on %d host(s) took %v (%d rounds)\n\n",
		alg.Name(), w.Size(), len(hdr.Hosts), syncTime.Round(time.Millisecond), alg.Rounds(w.Size()))
	printResiduals(out, records, w.Size())
	if o.out != "" {
		return writeClock(o.out, hdr, records)
	}
	return nil
}

// printResiduals shows, per rank, the residual offset at the first and last check and
// its drift (least-squares slope over the checks).
func printResiduals(out io.Writer, records []record.Clock, size int) {
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "rank\thost\tresidual first\tresidual last\tmax |residual|\tdrift\tRTT\t\n")
	for r := 1; r < size; r++ {
		var xs, ys []float64
		var rtt, maxAbs float64
		host := ""
		for _, c := range records {
			if c.Rank == r {
				xs, ys = append(xs, c.ElapsedS), append(ys, c.ResidualS)
				rtt, maxAbs, host = c.RTTS, math.Max(maxAbs, math.Abs(c.ResidualS)), c.Host
			}
		}
		drift := "-"
		if len(xs) > 1 {
			drift = fmt.Sprintf("%+.3f ppm", slope(xs, ys)*1e6)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r, host, signed(ys[0]), signed(ys[len(ys)-1]),
			report.Seconds(maxAbs), drift, report.Seconds(rtt))
	}
	tw.Flush()
}

func signed(s float64) string {
	if s < 0 {
		return "-" + report.Seconds(-s)
	}
	return "+" + report.Seconds(s)
}

func slope(xs, ys []float64) float64 {
	var mx, my float64
	for i := range xs {
		mx, my = mx+xs[i], my+ys[i]
	}
	mx, my = mx/float64(len(xs)), my/float64(len(ys))
	var sxy, sxx float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	if sxx == 0 {
		return 0
	}
	return sxy / sxx
}

// writeClock appends the run header and the clock records to dir/clock.jsonl.
func writeClock(dir string, hdr *record.Run, records []record.Clock) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(dir, "clock.jsonl"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	j := report.NewJSONL(f)
	err = j.Write(hdr)
	for i := 0; err == nil && i < len(records); i++ {
		err = j.Write(&records[i])
	}
	if err == nil {
		err = j.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
