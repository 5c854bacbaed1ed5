package job

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/internal/launch"
	"github.com/skampi/skampi/ops/mpi"
	"github.com/skampi/skampi/record"
)

// Start-up, as osu_init and osu_hello report it, measured across launches: MPI_Init
// happens once per process, so no kernel can time it inside a run. `skampi startup`
// launches `skampi startup-probe` again and again at each process count; every rank of
// a probe times its own MPI_Init (and shmem_init), rank 0 gathers them and prints one
// line; the launching process adds the launcher's wall time (start to exit) and keeps
// one record per launch, appended and synced as each launch ends.

// startupT0Var carries the instant (Unix ns) the launcher was started to the ranks: a
// rank's time from it to its return from MPI_Init is what a job waits before its first
// MPI call (comparable across ranks only where they share a clock: one host, or hosts
// kept in step by NTP/PTP).
const startupT0Var = "SKAMPI_STARTUP_T0"

// startupMark starts the probe's one line on rank 0's stdout.
const startupMark = "skampi-startup "

// KindStartup is the record of one launch of `skampi startup`, joined to its run header
// by run_id (the header is the first launch's, at that process count).
const KindStartup = "startup"

// StartupLaunch is one launch: every rank's times, by rank.
type StartupLaunch struct {
	Kind   string `json:"kind"`
	RunID  string `json:"run_id"`
	NProcs int    `json:"nprocs"`
	Launch int    `json:"launch"`
	// LaunchS: the launcher's wall time, from its start to its exit (start-up, the
	// probe's gather, MPI_Finalize and the launcher's own end: osu_hello's whole).
	LaunchS float64 `json:"launch_s"`
	// InitS: MPI_Init on each rank; ToInitS: from the launcher's start to each rank's
	// return from MPI_Init; ShmemInitS: shmem_init after it (with --shmem).
	InitS      []float64 `json:"init_s"`
	ToInitS    []float64 `json:"to_init_s"`
	ShmemInitS []float64 `json:"shmem_init_s,omitempty"`
}

// probeLine is what rank 0 of a probe prints after startupMark.
type probeLine struct {
	Run        *record.Run `json:"run"`
	InitS      []float64   `json:"init_s"`
	ToInitS    []float64   `json:"to_init_s"`
	ShmemInitS []float64   `json:"shmem_init_s,omitempty"`
}

// ProbeOptions: `skampi startup-probe`, run by a launcher.
type ProbeOptions struct {
	Shmem   bool
	Version string
	Stdout  io.Writer
}

// StartupProbe is one rank of a probe: MPI_Init timed, OpenSHMEM's start too when
// asked, every rank's times gathered to rank 0, which prints them with a run header.
func StartupProbe(o ProbeOptions) error {
	t0, err := strconv.ParseInt(os.Getenv(startupT0Var), 10, 64)
	if err != nil {
		return fmt.Errorf("startup-probe is started by `skampi startup` (%s is not set)", startupT0Var)
	}
	setRankDefaults(o.Shmem)
	// A crash in the library's start-up says one line (kept by the launching
	// `skampi startup`), its trace in a temporary file.
	if err := mpi.ArmCrashReport(mpi.CrashReport{Rank: launch.Rank(os.Environ())}); err != nil {
		return err
	}
	mpi.CrashWhere("start-up: MPI_Init", "", "", "")
	w, err := mpi.Init("")
	if err != nil {
		return err
	}
	defer w.Finalize()
	selftestSegfault(os.Environ(), w.Rank())
	start, end := w.InitTime()
	var shmemS float64
	if o.Shmem {
		mpi.CrashWhere("start-up: shmem_init", "", "", "")
		if err := shmemRuntime().Start(w); err != nil {
			mpi.Abort(1)
			return err
		}
		shmemS = shmemRuntime().InitTime().Seconds()
	}
	mpi.CrashWhere("the start-up probe's gathers", "", "", "")
	line := probeLine{}
	gather := func(v float64) []float64 {
		vals, gerr := w.Gather(v)
		err = errors.Join(err, gerr)
		return vals
	}
	line.InitS = gather(end.Sub(start).Seconds())
	line.ToInitS = gather(end.Sub(time.Unix(0, t0)).Seconds())
	if o.Shmem {
		line.ShmemInitS = gather(shmemS)
	}
	hosts, cpus, herr := rankFacts(w)
	if err = errors.Join(err, herr); err != nil {
		mpi.Abort(1)
		return err
	}
	if w.Rank() != 0 {
		return nil
	}
	line.Run = Provenance(w, hosts, cpus, o.Version)
	b, err := json.Marshal(line)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(o.Stdout, "%s%s\n", startupMark, b)
	return err
}

// StartupOptions: `skampi startup`.
type StartupOptions struct {
	NPs      []int
	Launches int
	Shmem    bool
	Out      string // directory of startup.jsonl ("": none)
	Timeout  time.Duration
	Version  string
	Env      []string
	Stdout   io.Writer
	Stderr   io.Writer
}

// check refuses, as a usage mistake, options that would measure nothing or what was not
// meant: a process count given twice (measured twice, one row each), more processes than
// skampi starts on this machine, a timeout that is not positive (every launch would be
// ended at once).
func (o StartupOptions) check() error {
	if err := inputs.ProcessCounts("--np", o.NPs, MaxSelfLaunch); err != nil {
		return &ExitError{Code: 2, Err: fmt.Errorf("%w (skampi startup starts the processes on this machine)", err)}
	}
	if o.Launches < 1 {
		return &ExitError{Code: 2, Err: fmt.Errorf("--launches must be at least 1, got %d", o.Launches)}
	}
	if o.Timeout <= 0 {
		return &ExitError{Code: 2, Err: fmt.Errorf("--timeout must be positive, got %v", o.Timeout)}
	}
	return nil
}

// Startup launches the probe Launches times at every process count, prints a table as
// each count ends and appends every launch's record to Out/startup.jsonl.
func Startup(o StartupOptions) error {
	if err := o.check(); err != nil {
		return err
	}
	if launch.UnderLauncher(o.Env) {
		return errors.New("skampi startup launches jobs itself: run it outside mpirun or srun (its ranks are `skampi startup-probe`)")
	}
	mpirun, err := launch.FindLauncher(mpi.Build)
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding the skampi executable: %w", err)
	}
	if o.Shmem && !shmemRuntime().Available {
		return errors.New("--shmem: " + shmemRuntime().Missing())
	}
	var out *os.File
	if o.Out != "" {
		if err := os.MkdirAll(o.Out, 0o755); err != nil {
			return err
		}
		if out, err = os.OpenFile(filepath.Join(o.Out, "startup.jsonl"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err != nil {
			return err
		}
		defer out.Close()
	}
	args := []string{"startup-probe"}
	if o.Shmem {
		args = append(args, "--shmem")
	}
	shmemCol := ""
	if o.Shmem {
		shmemCol = fmt.Sprintf(" %16s", "shmem_init [ms]")
	}
	fmt.Fprintf(o.Stdout, "%6s %8s %13s %13s %13s %16s %12s%s\n", "procs", "launches", "init min [ms]", "init avg [ms]",
		"init max [ms]", "to init max [ms]", "launch [ms]", shmemCol)
	for _, np := range o.NPs {
		var runID string
		var samples []StartupLaunch
		for l := 1; l <= o.Launches; l++ {
			s, run, err := probeOnce(mpirun, self, args, np, o)
			if err != nil {
				return fmt.Errorf("%d processes, launch %d: %w", np, l, err)
			}
			if runID == "" {
				runID = run.RunID
				run.Suite = fmt.Sprintf("startup (%d launches)", o.Launches)
				if err := appendJSON(out, run); err != nil {
					return err
				}
			}
			s.RunID, s.Launch = runID, l
			if err := appendJSON(out, s); err != nil {
				return err
			}
			samples = append(samples, *s)
		}
		printStartup(o.Stdout, np, samples)
	}
	return nil
}

// probeOnce runs one probe of np processes and reads rank 0's line.
func probeOnce(mpirun, self string, args []string, np int, o StartupOptions) (*StartupLaunch, *record.Run, error) {
	env := append(slices.Clone(o.Env), startupT0Var+"=0") // set for real just before the start
	cmd := launch.Command(mpirun, self, args, env,
		launch.Options{Library: mpi.Build, NP: np, Cores: runtime.NumCPU(), Root: os.Geteuid() == 0})
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, &stdout, &stderr
	dieWithLauncher(cmd)
	t0 := time.Now()
	for i, kv := range cmd.Env {
		if strings.HasPrefix(kv, startupT0Var+"=") {
			cmd.Env[i] = startupT0Var + "=" + strconv.FormatInt(t0.UnixNano(), 10)
		}
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var werr error
	select {
	case werr = <-done:
	case <-time.After(o.Timeout):
		endJob(cmd)
		<-done
		return nil, nil, fmt.Errorf("no end after %v: ended (stderr: %s)", o.Timeout, stderrGist(stderr.String()))
	}
	wall := time.Since(t0).Seconds()
	if werr != nil {
		return nil, nil, fmt.Errorf("%s: %v (stderr: %s)", filepath.Base(mpirun), werr, stderrGist(stderr.String()))
	}
	var line probeLine
	found := false
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), startupMark); ok {
			if err := json.Unmarshal([]byte(rest), &line); err != nil {
				return nil, nil, fmt.Errorf("the probe's line: %w", err)
			}
			found = true
		}
	}
	if !found || line.Run == nil || len(line.InitS) != np {
		return nil, nil, fmt.Errorf("the probe printed no times for %d ranks (stderr: %s)", np, stderrGist(stderr.String()))
	}
	return &StartupLaunch{Kind: KindStartup, NProcs: np, LaunchS: wall, InitS: line.InitS, ToInitS: line.ToInitS,
		ShmemInitS: line.ShmemInitS}, line.Run, nil
}

// gistLines is how many lines of a failed probe's stderr its error keeps.
const gistLines = 4

// stderrGist is what a failed probe's stderr says, in one line: the launcher's banners
// about a failed job (launch.BannerFilter) and rules of dashes left out; the ranks'
// own "skampi:" lines (a crash names rank, host, signal and phase) if there are any,
// else the last meaningful lines, joined with " | ".
func stderrGist(s string) string {
	var kept bytes.Buffer
	f := launch.NewBannerFilter(&kept)
	f.Write([]byte(s))
	f.Close()
	var lines, ours []string
	for _, l := range strings.Split(kept.String(), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.Trim(l, "-=*_ ") == "" {
			continue
		}
		lines = append(lines, l)
		if strings.HasPrefix(l, "skampi:") {
			ours = append(ours, l)
		}
	}
	pick := lines
	if len(ours) > 0 {
		pick = ours
	}
	if len(pick) == 0 {
		return "nothing"
	}
	more := ""
	if len(pick) > gistLines {
		if len(ours) > 0 {
			more = fmt.Sprintf(" | (%d more)", len(pick)-gistLines)
			pick = pick[:gistLines]
		} else {
			pick = pick[len(pick)-gistLines:]
		}
	}
	return strings.Join(pick, " | ") + more
}

// appendJSON writes v as one line and syncs it: a launch measured is never lost.
func appendJSON(f *os.File, v any) error {
	if f == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		return err
	}
	return f.Sync()
}

// printStartup prints one process count's row: MPI_Init over every rank of every
// launch (osu_init's min, avg and max), the slowest rank's time from the launcher's
// start, the launcher's wall time and the slowest shmem_init, each the median over
// launches.
func printStartup(w io.Writer, np int, s []StartupLaunch) {
	var mins, avgs, maxs, toInit, wall, shm []float64
	for _, x := range s {
		mins = append(mins, slices.Min(x.InitS))
		maxs = append(maxs, slices.Max(x.InitS))
		avgs = append(avgs, mean(x.InitS))
		toInit = append(toInit, slices.Max(x.ToInitS))
		wall = append(wall, x.LaunchS)
		if len(x.ShmemInitS) > 0 {
			shm = append(shm, slices.Max(x.ShmemInitS))
		}
	}
	ms := func(v []float64) string { return fmt.Sprintf("%.1f", 1e3*median(v)) }
	shmemCol := ""
	if len(shm) > 0 {
		shmemCol = fmt.Sprintf(" %16s", ms(shm))
	}
	fmt.Fprintf(w, "%6d %8d %13s %13s %13s %16s %12s%s\n", np, len(s), ms(mins), ms(avgs), ms(maxs), ms(toInit), ms(wall), shmemCol)
}

func mean(v []float64) float64 {
	var t float64
	for _, x := range v {
		t += x
	}
	return t / float64(len(v))
}

func median(v []float64) float64 {
	c := slices.Clone(v)
	slices.Sort(c)
	n := len(c)
	if n%2 == 1 {
		return c[n/2]
	}
	return (c[n/2-1] + c[n/2]) / 2
}
