package job

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/internal/launch"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/ops/mpi"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/runner"
)

// settleFor bounds the barrier rounds a job runs before its first point.
const settleFor = 500 * time.Millisecond

// selftestStall is a self-test of the start-up watchdog, like the Selftest_ operations:
// with SKAMPI_SELFTEST_STALL_RANK=N in the environment, rank N never starts MPI, as a
// rank stopped on a broken node would not; the others must record it and end the job.
func selftestStall(env []string, rank int) {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "SKAMPI_SELFTEST_STALL_RANK="); ok && v == strconv.Itoa(rank) {
			select {} // until the watchdog ends the process
		}
	}
}

// selftestSegfault is a self-test of the crash report in start-up: with
// SKAMPI_SELFTEST_SEGFAULT_RANK=N in the environment, rank N writes through a NULL
// pointer in C right after MPI_Init, as a library crashing in its start-up would
// (shmem_init on a node that registers too many memory segments).
func selftestSegfault(env []string, rank int) {
	if v := envValue(env, "SKAMPI_SELFTEST_SEGFAULT_RANK"); v != "" && v == strconv.Itoa(rank) {
		mpi.SelftestSegfault()
	}
}

// runRank is one rank of the parallel job. Errors every rank sees alike are reported
// by rank 0 and end the job cleanly; an error on one rank aborts the job, since the
// others would wait for it forever.
func runRank(plan *inputs.Plan, o Options) (err error) {
	setRankDefaults(usesWindows(plan))
	armCrash(o, launch.Rank(o.Env))
	ph := newPhases(plan, o, launch.Rank(o.Env))
	started := time.Now() // a trace file from before is not this job's
	ph.peers = func() []*crashReport { return peerCrashes(o, started) }
	ph.start("start-up: MPI_Init")
	selftestStall(o.Env, int(ph.rank.Load()))
	w, err := mpi.Init(o.ThreadLevel)
	if err == nil {
		selftestSegfault(o.Env, w.Rank())
	}
	ph.stop()
	if err != nil {
		return err
	}
	ph.mpiUp.Store(true)
	rank := w.Rank()
	ph.rank.Store(int32(rank))
	if rank == 0 {
		startMachineFacts() // the header's questions about the machine, while the job starts
	}
	defer func() {
		// A bug on one rank must not leave the others waiting in MPI forever.
		if r := recover(); r != nil {
			fmt.Fprintf(o.Stderr, "skampi: rank %d: internal error: %v\n", rank, r)
			mpi.Abort(70)
			err = &ExitError{Code: 70, Quiet: true}
		}
	}()
	fail := func(err error) error {
		fmt.Fprintf(o.Stderr, "skampi: rank %d: %v\n", rank, err)
		mpi.Abort(1)
		return &ExitError{Code: 1, Quiet: true}
	}
	common := func(err error) error { // an error all ranks hit together
		// Rank 0 says it before any rank leaves: a rank that exits non-zero first has
		// mpirun end the job, rank 0 with it, maybe before its message is out.
		code := 1
		if rank == 0 {
			code, _ = Say(o.Stderr, err)
		}
		w.Bcast(0) // the others wait for rank 0's word (an error here: leaving anyway)
		w.Finalize()
		return &ExitError{Code: code, Quiet: true}
	}
	if req, prov := w.ThreadLevel(); checkProvided(plan, req, selftestProvided(o.Env, prov)) != nil {
		return common(checkProvided(plan, req, selftestProvided(o.Env, prov)))
	}
	ph.start("start-up: host names")
	hosts, cpus, err := rankFacts(w)
	ph.stop()
	if err != nil {
		return fail(err)
	}
	w.SetHosts(hosts)
	if startsSHMEM(plan) { // every rank reads the same plan: all start it, or none
		ph.start("start-up: shmem_init")
		err := shmemRuntime().Start(w)
		ph.stop()
		if err != nil {
			return common(err)
		}
	}
	// Every rank expands the plan alike: the same list, the same order.
	ex, err := plan.Expand(inputs.Job{NProcs: w.Size(), Hosts: hosts})
	if err != nil {
		return common(o.suiteError(err))
	}
	var sink *report.Locked
	var counted *tally
	var files []*os.File
	var done *record.KeySet
	var earlier map[record.Key]runner.Estimate
	var steps *record.KeySet
	var lock *dirLock
	defer func() { lock.release() }()
	status := int64(0)
	ph.start("start-up: opening the results")
	if rank == 0 {
		if o.Out != "" {
			// Under the user's own launcher nothing created the directory yet.
			if err = os.MkdirAll(o.Out, 0o755); err == nil {
				lock, err = lockDir(o.Out) // the only writer of the directory, until the process ends
			}
		}
		if err == nil && o.Resume {
			var st *state
			if st, err = resumeState(plan, o.Out, o.Force, o.Stderr); err == nil {
				done, earlier, steps = &st.done, st.times, &st.steps
			}
		} else if err == nil && o.Out != "" {
			err = checkFresh(o.Out, o.Append) // under the user's launcher, nothing checked it yet
		}
		if err == nil {
			err = keepSuite(o.Out, plan, ph.runID)
		}
		if err == nil {
			sink, files, err = openSinks(o.Out, o.Stdout, o.Stderr, withETA(o.Table, ex.Points))
		}
		if err == nil {
			counted = &tally{Sink: sink}
			sink = report.NewLocked(counted)
		}
		if err != nil {
			status = 1
		}
	}
	status, err2 := w.Bcast(status)
	if err2 != nil {
		return fail(err2)
	}
	if status != 0 {
		ph.stop()
		return common(err)
	}
	// Every rank learns rank 0's run id: under another launcher a rank that crashes
	// appends its crash record under it.
	var root uint64
	if rank == 0 {
		root, _ = strconv.ParseUint(ph.runID, 16, 64)
	}
	shared, err2 := w.Bcast(int64(root))
	if err2 != nil {
		return fail(err2)
	}
	ph.rootRunID = fmt.Sprintf("%016x", uint64(shared))
	if o.Out != "" && !underSkampi(o.Env) {
		// Under another launcher nobody else records a crash of this rank: it appends
		// the record itself (rank 0 once its header is written; the others in points).
		mpi.CrashResults(filepath.Join(o.Out, "results.jsonl"))
		ph.selfRecord.Store(true)
	}
	lib, _ := mpi.Library()
	r := &runner.Runner{World: world{w}, Sink: sink, Library: lib, AllowBroken: o.AllowBroken, Done: done, Earlier: earlier, Steps: steps,
		Watchdog: ph.wd, RunID: ph.runID, Stderr: o.Stderr, NotBuilt: notBuilt}
	stopSignals := handleSignals(rank, func(f *record.Fault) error { return ph.finish(sink, f) }, ph.wd, o.Out, o.Stderr, r.End, ph.peers, underSkampi(o.Env))
	defer stopSignals()
	// The job's start settles before its first point is measured (the points' own
	// steadiness checks catch what is left).
	ph.start("start-up: settling")
	settled, barrierS, err := w.Settle(settleFor)
	if err != nil {
		return fail(fmt.Errorf("settling: %w", err))
	}
	if rank == 0 {
		hdr := header(plan, len(ex.Points), w, hosts, cpus, o.Version, o.Out != "")
		hdr.SettleRounds, hdr.SettleBarrierS = settled, barrierS
		if startsSHMEM(plan) {
			hdr.SHMEMLibrary, hdr.SHMEMVersion = shmemRuntime().Library()
		}
		hdr.RunID = ph.runID // the id any start-up fault was recorded under
		hdr.Resume, hdr.AllowBroken = o.Resume, o.AllowBroken
		hdr.PlanNotes = ex.Notes
		if err := ph.writeHeader(sink, hdr); err != nil { // a fault never precedes its run record
			return fail(fmt.Errorf("writing results: %w", err))
		}
		for _, n := range ex.Notes { // after the header line, before the table
			fmt.Fprintf(o.Stdout, "note: %s\n", n)
		}
		if o.Out == "" {
			fmt.Fprintf(o.Stdout, "note: no -o DIR: the results are printed here only, nothing is kept (-o DIR keeps them, resumable)\n")
		}
	}
	ph.stop()
	err = r.Run(ex.Points)
	r.End() // the families' files and state (MPI-IO's), whatever happened to the run
	if err != nil {
		return fail(err)
	}
	ph.start("finalize")
	defer ph.stop()
	if rank == 0 {
		ph.hdrMu.Lock()
		ph.sink.Store(nil) // closed: a finalize fault is appended to the file itself
		err = sink.Close()
		ph.hdrMu.Unlock()
		for _, f := range files {
			f.Close()
		}
		if err != nil {
			return fail(fmt.Errorf("closing results: %w", err))
		}
		if r.Skipped > 0 {
			fmt.Fprintf(o.Stdout, "\nresumed: %d points were already in %s\n", r.Skipped, o.Out)
		}
		if o.Out != "" {
			fmt.Fprintf(o.Stdout, "\nresults: %s\n", filepath.Join(o.Out, "results.jsonl"))
		}
	}
	if err := w.Finalize(); err != nil || counted == nil || counted.corrupt == 0 {
		return err
	}
	// After finalize, so that the launcher sees the status of a job that ended well.
	fmt.Fprintf(o.Stderr, "skampi: "+corruptMessage+"\n", counted.corrupt)
	return &ExitError{Code: ExitCorrupt, Quiet: true}
}

// usesWindows reports whether a plan measures one-sided MPI or OpenSHMEM operations,
// the ones whose library component skampi may have to choose (launch.RankDefaults).
func usesWindows(plan *inputs.Plan) bool {
	for _, m := range plan.Measurements {
		if m.Op.OneSided || m.Op.SHMEM {
			return true
		}
	}
	return false
}

// usesSHMEM reports whether a plan measures OpenSHMEM operations.
func usesSHMEM(plan *inputs.Plan) bool {
	for _, m := range plan.Measurements {
		if m.Op.SHMEM {
			return true
		}
	}
	return false
}

// startsSHMEM reports whether a run starts OpenSHMEM: only when its plan measures
// OpenSHMEM operations (the symmetric heap and transport cost memory and start-up
// time) and this binary has it; a build without it (an MPICH build) denies their
// points instead (notBuilt) and measures the rest.
func startsSHMEM(plan *inputs.Plan) bool { return shmemRuntime().Available && usesSHMEM(plan) }

// notBuilt is why this binary cannot run an operation at all ("" when it can): the
// runner denies its points with it.
func notBuilt(in ops.Info) string {
	if in.SHMEM {
		return shmemRuntime().Missing()
	}
	return ""
}
