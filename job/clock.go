package job

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/skampi/skampi/clocksync"
	"github.com/skampi/skampi/internal/launch"
	"github.com/skampi/skampi/ops/mpi"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/runner"
)

// ClockOptions of `skampi clock check`.
type ClockOptions struct {
	NP        int
	Algorithm string
	Duration  time.Duration
	Interval  time.Duration
	Out       string // directory for clock.jsonl; "" for the terminal only

	Version string
	Args    []string // the command line, for a self-launch
	Env     []string
	Stdout  io.Writer
	Stderr  io.Writer
}

// ClockCheck synchronises the clocks with the chosen algorithm, then every Interval
// for Duration measures each rank's residual offset against rank 0. Outside a
// launcher it runs itself under mpirun.
func ClockCheck(o ClockOptions) error {
	jo := Options{NP: o.NP, Args: o.Args, Env: o.Env, Stdout: o.Stdout, Stderr: o.Stderr}
	jo.defaults()
	o.Env, o.Stdout, o.Stderr = jo.Env, jo.Stdout, jo.Stderr
	if launch.UnderLauncher(o.Env) {
		return clockRank(o)
	}
	if err := selfLaunchNP(o.NP, 2); err != nil {
		return &ExitError{Code: 2, Err: fmt.Errorf("clock check: %w", err)}
	}
	if o.Out != "" {
		if err := checkOutDir(o.Out); err != nil {
			return err
		}
	}
	l, err := MPIRun(jo, 0) // no results file to watch: every phase has its own watchdog
	if err != nil {
		return err
	}
	code, sig, err := l(o.Args)
	switch {
	case err != nil:
		return err
	case sig != 0:
		return &ExitError{Code: ExitSignal + int(sig), Quiet: true}
	case code != 0:
		return &ExitError{Code: code, Quiet: true}
	}
	return nil
}

// clockRank is one rank of `clock check`.
// clockPhaseTimeout bounds each phase of a clock check but the checks themselves
// (bounded by --duration plus this): start-up, the synchronisation, finalize.
const clockPhaseTimeout = 60 * time.Second

func clockRank(o ClockOptions) error {
	out := o.Stdout
	setRankDefaults(false)
	var mpiUp atomic.Bool // read by the watchdog's goroutine
	// Every phase is watched: a rank that never answers ends the check, it does not
	// leave the others waiting forever.
	wd := &runner.Watchdog{Expire: func(f *record.Fault) {
		fmt.Fprintf(o.Stderr, "skampi: clock check: %s: no progress for %.0f s; ending the job\n", f.Measurement, f.ElapsedS)
		if mpiUp.Load() {
			mpi.Abort(ExitTimeout)
		}
		os.Exit(ExitTimeout)
	}}
	phase := func(what string, d time.Duration) { wd.Start(record.NewFault(record.Where{Measurement: what}), d) }
	defer wd.Stop()
	phase("start-up", clockPhaseTimeout)
	w, err := mpi.Init("") // MPI_Init, as for a suite run by default
	if err != nil {
		return err
	}
	mpiUp.Store(true)
	defer func() {
		phase("finalize", clockPhaseTimeout)
		w.Finalize()
	}()
	fail := func(err error) error {
		fmt.Fprintf(o.Stderr, "skampi: rank %d: %v\n", w.Rank(), err)
		mpi.Abort(1)
		return &ExitError{Code: 1, Quiet: true}
	}
	hosts, cpus, err := rankFacts(w)
	if err != nil {
		return fail(err)
	}
	alg, err := clocksync.New(o.Algorithm)
	if err != nil {
		return fail(err)
	}
	x := w.NewClock()
	t0 := time.Now()
	phase("synchronisation", clockPhaseTimeout)
	model, err := alg.Sync(x)
	if err != nil {
		return fail(fmt.Errorf("synchronising: %w", err))
	}
	syncTime := time.Since(t0)
	hdr := Provenance(w, hosts, cpus, o.Version)
	hdr.Suite = "clock check (" + alg.Name() + ")"
	runID := hdr.RunID
	var records []record.Clock
	start := time.Now()
	phase("checks", o.Duration+clockPhaseTimeout)
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
		next := time.Duration(k) * o.Interval
		if next > o.Duration {
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
	if o.Out != "" {
		return writeClock(o.Out, hdr, records)
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
	f, err := openRegular(filepath.Join(dir, "clock.jsonl"))
	if err != nil {
		return err
	}
	j := report.NewJSONL(f)
	err = j.Run(hdr)
	for i := 0; err == nil && i < len(records); i++ {
		err = j.Clock(&records[i])
	}
	if err == nil {
		err = j.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
