package job

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/internal/launch"
	"github.com/skampi/skampi/ops/mpi"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/runner"
)

// runRank is one rank of the parallel job. Errors every rank sees alike are reported
// by rank 0 and end the job cleanly; an error on one rank aborts the job, since the
// others would wait for it forever.
func runRank(plan *inputs.Plan, o Options) (err error) {
	launch.SetRankDefaults()
	w, err := mpi.Init(o.ThreadLevel)
	if err != nil {
		return err
	}
	rank := w.Rank()
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
		w.Finalize()
		if rank != 0 {
			return &ExitError{Code: 1, Quiet: true}
		}
		return err
	}
	hosts, err := w.Hosts()
	if err != nil {
		return fail(err)
	}
	w.SetHosts(hosts)
	// Every rank expands the plan alike: the same list, the same order.
	ex, err := plan.Expand(inputs.Job{NProcs: w.Size(), Hosts: hosts})
	if err != nil {
		return common(err)
	}
	var sink *report.Locked
	var files []*os.File
	var done *record.KeySet
	status := int64(0)
	if rank == 0 {
		if o.Resume {
			done, err = resumeState(o.Out, o.Stderr)
		}
		if err == nil {
			sink, files, err = openSinks(o.Out, o.Stdout)
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
	wd := &runner.Watchdog{Expire: func(f *record.Fault) { expire(rank, sink, f, o.Stderr) }}
	r := &runner.Runner{World: world{w}, Sink: sink, Library: lib, AllowBroken: o.AllowBroken, Done: done, Watchdog: wd}
	stopSignals := handleSignals(rank, sink, wd, o.Out, o.Stderr)
	defer stopSignals()
	if rank == 0 {
		hdr := header(plan, len(ex.Points), w, hosts, o.Version)
		hdr.Resume, hdr.AllowBroken = o.Resume, o.AllowBroken
		r.RunID = hdr.RunID
		if err := sink.Write(hdr); err != nil {
			return fail(fmt.Errorf("writing results: %w", err))
		}
		for _, n := range ex.Notes { // after the header line, before the table
			fmt.Fprintf(o.Stdout, "note: %s\n", n)
		}
	}
	if err := r.Run(ex.Points); err != nil {
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
			fmt.Fprintf(o.Stdout, "\nresumed: %d points were already in %s\n", r.Skipped, o.Out)
		}
		if o.Out != "" {
			fmt.Fprintf(o.Stdout, "\nresults: %s\n", filepath.Join(o.Out, "results.jsonl"))
		}
	}
	return w.Finalize()
}
