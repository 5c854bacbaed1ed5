package job

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/runner"
)

// SelfLaunch runs the suite through l. When the job dies in a point (a hang the
// watchdog ended, or a crash) and results go to a directory, it resumes the run, so one
// command still measures everything that can be measured. A crash is blamed on a point
// only when the job dies in the same point twice; until then it may have been something
// else (a killed process) and the point is measured again. The point is found in the
// plan's one list of points, expanded on the job the results header describes.
func SelfLaunch(plan *inputs.Plan, o Options, l Launcher) error {
	o.defaults()
	defer runner.JobOver(plan) // what ranks killed outright left behind
	args := slices.Clone(o.Args)
	var newRuns []string
	var suspect *record.Key
	corrupt := false // a launch ended with ExitCorrupt
	crashDir, token := envValue(o.Env, crashDirVar), envValue(o.Env, crashLaunchVar)
	seen := map[string]time.Time{} // trace files of earlier launches
	// status ends SelfLaunch with code and err (nil: the job ran to its end), raised to
	// what the results of this command's runs call for: a run that recovered, or gave
	// up, still says by its status that a point delivered corrupt data or hung.
	status := func(code int, err error) error {
		recorded := 0
		if final, lerr := loadState(o.Out); lerr == nil {
			recorded = final.summarise(o.Stderr, newRuns)
		}
		if corrupt {
			recorded = ExitCorrupt
		}
		if err != nil && code == 0 {
			code = 1
		}
		if severity(recorded) > severity(code) {
			code = recorded
		}
		switch {
		case err == nil && code == 0:
			return nil
		case err == nil:
			return &ExitError{Code: code, Quiet: true}
		case code == 1:
			return err
		}
		return &ExitError{Code: code, Err: err}
	}
	for restarts := 0; ; restarts++ {
		before, _ := loadState(o.Out)
		code, sig, err := l(args)
		if err != nil {
			return status(1, err)
		}
		after, readErr := loadState(o.Out)
		newRuns = append(newRuns, after.runsSince(before)...)
		crashes := crashReports(crashDir, token, seen)
		for _, c := range crashes {
			fmt.Fprintf(o.Stderr, "skampi: %s\n", c.line())
		}
		if sig != 0 {
			// mpirun may have dropped the ranks' last words: say it here too.
			where := ""
			if o.Out != "" {
				where = fmt.Sprintf("; %d point(s) in %s (--resume continues)", len(after.res.Points), o.Out)
			}
			fmt.Fprintf(o.Stderr, "\nskampi: interrupted by %s%s\n", sigName(sig), where)
			return &ExitError{Code: ExitSignal + int(sig), Quiet: true}
		}
		if code == ExitCorrupt {
			// The job ran to its end, and rank 0 said that data arrived corrupt.
			corrupt, code = true, 0
		}
		if code == 0 {
			// A launcher's 0 is not proof that the job ran: the results must say so.
			if readErr != nil {
				return status(1, fmt.Errorf("the job ended with status 0, but its results cannot be read: %w", readErr))
			}
			if err := checkRan(plan, o.Out, before, after); err != nil {
				return status(1, err)
			}
			break
		}
		if len(crashes) > 0 && code != 0 {
			// A crash in C, reported by the ranks: the point (or phase) they were in.
			again, err := crashed(plan, o, after, before, crashes, &suspect, restarts)
			if !again {
				return status(1, err)
			}
			if !slices.Contains(args, "--resume") {
				args = append(args, "--resume")
			}
			continue
		}
		// Resume after a hang (the watchdog's status) or a death by signal (a crash, a
		// killed rank); skampi's own errors (status 1) would only fail again.
		if o.Out == "" || o.MaxRestarts == 0 || (code != ExitTimeout && code < ExitSignal) {
			return status(code, nil)
		}
		if len(after.runsSince(before)) == 0 {
			return status(1, fmt.Errorf("the job failed (exit status %d) before measuring anything", code))
		}
		pt := after.firstMissing(plan)
		if pt == nil {
			return status(code, nil) // every point is recorded: nothing to resume
		}
		key := pt.Key()
		what, then := "hung", "recorded as a timeout, resuming"
		if code == ExitTimeout {
			if f := after.lastFault(record.FaultTimeout); f != nil {
				key = f.Key()
			} else {
				// The launcher ended a silent job. The point in flight is the first one
				// without a record, unless a signal reached rank 0 in time to record it
				// as interrupted: then that one.
				f := pt.Fault(after.lastRun())
				if in := after.lastFault(record.FaultInterrupted); in != nil {
					f = *in
					f.PointIndex = 0 // its index is the interrupted record's; this one names no new point
				}
				key = f.Key()
				f.Mark(record.FaultTimeout, "no record for a long time and no rank ended the job (every rank stopped?): ended by skampi's launcher; skipped when resuming")
				if err := appendFault(o.Out, &f); err != nil {
					return status(1, err)
				}
			}
		} else {
			what, then = "died (exit status "+strconv.Itoa(code)+")", "measuring it again"
			if suspect != nil && *suspect == key {
				if err := recordCrash(o.Out, after.lastRun(), pt, code); err != nil {
					return status(1, err)
				}
				what, then = "died again (exit status "+strconv.Itoa(code)+")", "recorded as a crash, resuming"
			}
			suspect = &key
		}
		if restarts >= o.MaxRestarts {
			return status(1, fmt.Errorf("the job %s in %s %q, %s, after %d restarts (--max-restarts); the results so far are in %s",
				what, key.Op, key.Measurement, pointText(key), restarts, o.Out))
		}
		fmt.Fprintf(o.Stderr, "\nskampi: the job %s in %s %q, %s; %s (restart %d of at most %d)\n\n",
			what, key.Op, key.Measurement, pointText(key), then, restarts+1, o.MaxRestarts)
		if !slices.Contains(args, "--resume") {
			args = append(args, "--resume")
		}
	}
	return status(0, nil)
}

// crashed handles a launch whose ranks crashed in C and wrote their trace files: the
// point the first of them was in is measured again once, and recorded as a crash when
// the job dies in it twice or no restart is left (--max-restarts, also 0); a crash in
// start-up or finalize is recorded and ends the run. It returns whether to launch again,
// or else the error to end with (nil: the summary says it all).
func crashed(plan *inputs.Plan, o Options, after, before *state, crashes []*crashReport, suspect **record.Key, restarts int) (bool, error) {
	first := crashes[0]
	for _, c := range crashes {
		if c.inPoint() {
			first = c
			break
		}
	}
	signals := crashSignals(crashes)
	if !first.inPoint() {
		if o.Out != "" {
			if err := recordPhaseCrash(plan, o, after, before, first, crashDetail(crashes)); err != nil {
				return false, err
			}
		}
		return false, fmt.Errorf("the job crashed during %s (%s); not restarted", first.During, signals)
	}
	key := first.Point.Key()
	if o.Out == "" {
		return false, fmt.Errorf("the job crashed in %s %q, %s (%s); without -o DIR nothing is resumed", key.Op, key.Measurement, pointText(key), signals)
	}
	twice := *suspect != nil && **suspect == key
	*suspect = &key
	last := restarts >= o.MaxRestarts
	if twice || last {
		f := *first.Point
		f.RunID = after.lastRun()
		detail := crashDetail(crashes)
		if twice {
			detail = "the job died in this point twice: " + detail + "; skipped when resuming"
		} else {
			detail += fmt.Sprintf("; not measured again (--max-restarts %d)", o.MaxRestarts)
		}
		f.Mark(record.FaultCrash, detail)
		if err := appendFault(o.Out, &f); err != nil {
			return false, err
		}
	}
	if last {
		return false, fmt.Errorf("the job crashed in %s %q, %s (%s), after %d restarts (--max-restarts); the results so far are in %s",
			key.Op, key.Measurement, pointText(key), signals, restarts, o.Out)
	}
	then := "measuring it again"
	if twice {
		then = "recorded as a crash, resuming"
	}
	fmt.Fprintf(o.Stderr, "\nskampi: the job crashed (%s) in %s %q, %s; %s (restart %d of at most %d)\n\n",
		signals, key.Op, key.Measurement, pointText(key), then, restarts+1, o.MaxRestarts)
	return true, nil
}

// recordPhaseCrash records a crash in start-up or finalize, after a run header of its
// own when the run had not written one yet.
func recordPhaseCrash(plan *inputs.Plan, o Options, after, before *state, c *crashReport, detail string) error {
	f := *c.Point
	f.Mark(record.FaultCrash, detail)
	var hdr *record.Run
	if runs := after.runsSince(before); len(runs) > 0 {
		f.RunID = runs[len(runs)-1]
	} else {
		if f.RunID == "" {
			f.RunID = newToken()
		}
		hdr = startHeader(plan, f.RunID, o.Version, f.NProcs)
	}
	return appendRecords(o.Out, hdr, &f)
}

// severity orders exit statuses by what they say, as the status of a run with several
// reports the worst: corrupt data over a hang over any other failure (1, a crash, a
// death by signal).
func severity(code int) int {
	switch code {
	case 0:
		return 0
	case ExitCorrupt:
		return 3
	case ExitTimeout:
		return 2
	}
	return 1
}

// checkRan says what is missing when a launch that ended with status 0 left no run in
// the results, or points of the plan without a record (measured, or a fault saying
// why not). Without a results directory there is nothing to look at (MPIRun checks the
// job's output instead).
func checkRan(plan *inputs.Plan, dir string, before, after *state) error {
	if dir == "" {
		return nil
	}
	path := filepath.Join(dir, "results.jsonl")
	if len(after.runsSince(before)) == 0 {
		return fmt.Errorf("the launcher exited 0, but no rank started: %s has no run header from this job, so nothing was measured", path)
	}
	if pt := after.firstMissing(plan); pt != nil {
		// A record that breaks the schema is left out by the reader: that is not a rank
		// that stopped, and the record's problem says what to look at.
		for _, p := range after.res.Problems {
			if !p.Warning {
				return fmt.Errorf("the job ended with status 0, but not every point has a record in %s that reads: the first without is %s %q, %s (point %d); %s: %s (skampi validate lists every problem)",
					path, pt.Op().Name, pt.Measurement.Name, pointText(pt.Key()), pt.Index, filepath.Base(path), p.String())
			}
		}
		return fmt.Errorf("the job ended with status 0, but not every point has a record in %s, the first without is %s %q, %s (point %d): the ranks stopped early; --resume measures what is missing",
			path, pt.Op().Name, pt.Measurement.Name, pointText(pt.Key()), pt.Index)
	}
	return nil
}

// pointText names a point's size and, where they tell points apart, its method and
// process count.
func pointText(k record.Key) string {
	s := fmt.Sprintf("%d bytes", k.MsgBytes)
	if k.Method != "" {
		s += ", method " + k.Method
	}
	return s + fmt.Sprintf(", %d processes", k.NProcs)
}
