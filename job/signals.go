package job

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/runner"
)

// rootGrace is how long ranks other than 0 wait before ending the job themselves, so
// rank 0 can write the record first.
const rootGrace = 10 * time.Second

// handleSignals ends the rank on SIGINT/SIGTERM with everything measured on disk: rank
// 0 records the point in flight as interrupted (a resumed run measures it again). When
// the signal is the launcher ending the job because another rank crashed (its trace
// file is there: peers), rank 0 stays quiet: under skampi's launcher (launched), which
// records the crash, it records nothing; under another, it records the crash.
func handleSignals(rank int, finish func(*record.Fault) error, wd *runner.Watchdog, dir string, stderr io.Writer, cleanup func(),
	peers func() []*crashReport, launched bool) func() {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		s, ok := <-sigs
		if !ok {
			return
		}
		sig := s.(syscall.Signal)
		cleanup() // the run's MPI-IO files
		if rank != 0 {
			time.Sleep(time.Second) // let rank 0 write first
			os.Exit(ExitSignal + int(sig))
		}
		var f *record.Fault
		cur, elapsed := wd.Current()
		if crashed := peers(); len(crashed) > 0 {
			if !launched && cur != nil && !recordedBy(crashed) {
				f = cur
				f.Mark(record.FaultCrash, crashDetail(crashed))
				f.ElapsedS = elapsed.Seconds()
			}
			if err := finish(f); err != nil {
				fmt.Fprintf(stderr, "skampi: closing results: %v\n", err)
			}
			os.Exit(ExitSignal + int(sig))
		}
		if cur != nil {
			f = cur
			f.Mark(record.FaultInterrupted, "interrupted by "+sigName(sig))
			f.ElapsedS = elapsed.Seconds()
		}
		err := finish(f)
		where := ""
		if dir != "" {
			where = ": everything measured so far is in " + filepath.Join(dir, "results.jsonl") + " (--resume continues)"
		}
		fmt.Fprintf(stderr, "\nskampi: interrupted by %s%s\n", sigName(sig), where)
		if err != nil {
			fmt.Fprintf(stderr, "skampi: closing results: %v\n", err)
		}
		os.Exit(ExitSignal + int(sig))
	}()
	return func() { signal.Stop(sigs); close(sigs) }
}

func sigName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}
