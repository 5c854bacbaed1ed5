package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/skampi/skampi/clocksync"
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/internal/launch"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops/mpi"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/runner"
)

// world adapts ops/mpi to the runner's World.
type world struct{ *mpi.World }

func (w world) Clock() clocksync.Exchanger { return w.World.NewClock() }
func (w world) Now() float64               { return mpi.Now() }

func (w world) NewOp(o runner.OpSpec) (measure.Op, error) {
	s := o.Settings
	return w.World.NewOp(mpi.Spec{Info: o.Info, Bytes: o.Bytes, Window: s.Window,
		Iteration: s.Timer == inputs.TimerIteration, Pair: o.Pair, Datatype: s.DatatypeFor(o.Info),
		ReduceOp: s.ReduceOp, Root: s.Root, BarrierAbove: s.BarrierAbove, Method: o.Method, Ranks: o.Ranks})
}

// runJob is one rank of the parallel job. Errors every rank sees alike are reported
// by rank 0 and end the job cleanly; an error on one rank aborts the job, since the
// others would wait for it forever.
func runJob(plan *inputs.Plan, o *runOptions) (err error) {
	launch.SetRankDefaults()
	w, err := mpi.Init()
	if err != nil {
		return err
	}
	rank := w.Rank()
	defer func() {
		// A bug on one rank must not leave the others waiting in MPI forever.
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "skampi: rank %d: internal error: %v\n", rank, r)
			mpi.Abort(70)
			err = &exitError{code: 70, quiet: true}
		}
	}()
	fail := func(err error) error {
		fmt.Fprintf(os.Stderr, "skampi: rank %d: %v\n", rank, err)
		mpi.Abort(1)
		return &exitError{code: 1, quiet: true}
	}
	common := func(err error) error { // an error all ranks hit together
		w.Finalize()
		if rank != 0 {
			return &exitError{code: 1, quiet: true}
		}
		return err
	}
	if err := runner.Check(plan, w.Size()); err != nil {
		return common(err)
	}
	hosts, err := w.Hosts()
	if err != nil {
		return fail(err)
	}
	w.SetHosts(hosts)
	var sink *report.Locked
	var files []*os.File
	var done map[record.Key]bool
	status := int64(0)
	if rank == 0 {
		if o.resume {
			done, err = resumeState(o.out)
		}
		if err == nil {
			sink, files, err = openSinks(o.out)
		}
		if err != nil {
			status = 1
		}
	}
	if status, err2 := w.Bcast(status); err2 != nil {
		return fail(err2)
	} else if status != 0 {
		return common(err)
	}
	lib, _ := mpi.Library()
	wd := &runner.Watchdog{Expire: func(f *record.Fault) { expire(rank, sink, f) }}
	r := &runner.Runner{World: world{w}, Hosts: hosts, Sink: sink, Log: os.Stderr,
		Library: lib, AllowBroken: o.allowBroken, Done: done, Watchdog: wd}
	stopSignals := handleSignals(rank, sink, wd, o.out)
	defer stopSignals()
	if rank == 0 {
		hdr := header(plan, w.Size(), hosts)
		hdr.Resume, hdr.AllowBroken = o.resume, o.allowBroken
		r.RunID = hdr.RunID
		if err := sink.Write(hdr); err != nil {
			return fail(fmt.Errorf("writing results: %w", err))
		}
	}
	if err := r.Run(plan); err != nil {
		return fail(err)
	}
	if rank == 0 {
		err = sink.Close()
		for _, f := range files {
			f.Close()
		}
		if err != nil {
			return fail(fmt.Errorf("closing results: %w", err))
		}
		if r.Skipped > 0 {
			fmt.Printf("\nresumed: %d points were already in %s\n", r.Skipped, o.out)
		}
		if o.out != "" {
			fmt.Printf("\nresults: %s\n", filepath.Join(o.out, "results.jsonl"))
		}
	}
	return w.Finalize()
}

// openSinks sets up the terminal table and, with a directory, the three result files,
// appended to when they exist so no earlier run is lost.
func openSinks(dir string) (*report.Locked, []*os.File, error) {
	sinks := report.Multi{report.NewTable(os.Stdout)}
	if dir == "" {
		return report.NewLocked(sinks), nil, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("creating output directory: %w", err)
	}
	var files []*os.File
	open := func(name string) (*os.File, bool, error) {
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return nil, false, fmt.Errorf("opening results: %w", err)
		}
		files = append(files, f)
		st, err := f.Stat()
		return f, err == nil && st.Size() == 0, err
	}
	jf, _, err := open("results.jsonl")
	if err != nil {
		return nil, files, err
	}
	if err := endLine(jf); err != nil {
		return nil, files, err
	}
	cf, fresh, err := open("results.csv")
	if err != nil {
		return nil, files, err
	}
	sf, _, err := open("results.sko")
	if err != nil {
		return nil, files, err
	}
	// JSONL first: it is the canonical record and must be written before anything else.
	return report.NewLocked(report.Multi{report.NewJSONL(jf), report.NewCSV(cf, fresh), report.NewSKO(sf), sinks[0]}), files, nil
}

func header(plan *inputs.Plan, nprocs int, hosts []string) *record.Run {
	h := provenance(nprocs, hosts)
	h.Suite, h.SuiteSource, h.SuiteSHA256, h.Points = plan.Name, plan.Source, plan.SHA256, plan.Points()
	return h
}

// provenance is the run header every result file starts with, less the suite.
func provenance(nprocs int, hosts []string) *record.Run {
	lib, ver := mpi.Library()
	timer, res := mpi.Timer()
	perHost := map[string]int{}
	var unique []string
	for _, h := range hosts {
		if perHost[h] == 0 {
			unique = append(unique, h)
		}
		perHost[h]++
	}
	var id [8]byte
	rand.Read(id[:])
	return &record.Run{
		Kind: record.KindRun, RunID: hex.EncodeToString(id[:]), SkampiVersion: version,
		GoVersion: runtime.Version(), MPILibrary: lib, MPIVersion: ver, NProcs: nprocs,
		Hosts: unique, RankHosts: hosts, RanksPerHost: perHost, Timer: timer, TimerResolution: res,
		Env: relevantEnv(os.Environ()), Command: os.Args, StartTime: time.Now().UTC(),
	}
}

// envPrefixes select the variables that change how an MPI library behaves.
var envPrefixes = []string{"OMPI_MCA_", "UCX_", "MPIR_CVAR_", "FI_", "PSM2_", "I_MPI_", "SLURM_JOB_ID"}

// launcherPrefixes are what mpirun itself passes to its ranks (job ids, URIs, session
// directories): noise in a provenance record.
var launcherPrefixes = []string{"OMPI_MCA_ess", "OMPI_MCA_orte_", "OMPI_MCA_pmix", "OMPI_MCA_initial_wdir",
	"OMPI_MCA_shmem_RUNTIME_QUERY_hint"}

func relevantEnv(env []string) map[string]string {
	out := map[string]string{}
next:
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		for _, p := range launcherPrefixes {
			if strings.HasPrefix(k, p) {
				continue next
			}
		}
		for _, p := range envPrefixes {
			if strings.HasPrefix(k, p) {
				out[k] = v
			}
		}
	}
	return out
}
