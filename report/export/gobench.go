package export

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// WriteGoBench writes results in the Go benchmark format that benchstat reads
// (golang.org/x/perf/benchfmt), one line per repetition:
//
//	BenchmarkPut/method=lock_all/bytes=8/procs=2/timer=global-loop/sync=barrier/window=64 162 3861.4 ns/op 2.07 MB/s
//
// The name is the point's setup (record.Setup) as sub-benchmark keys, so that no two
// timing methods, sizes, process counts or settings are pooled and benchstat's -col and
// -row can pick any of them: the operation as the benchmark, then its timing method
// (when it has one), message size and process count, then every setting the point
// records, in Setup's order (record.Setup.Settings). A name depends on its point alone,
// never on what else is exported, so two exports of the same measurements (a built-in
// suite, a one-line run) give the same names and `benchstat a.txt b.txt` matches them.
// The measurement's free-text name is a label and not part of the name, except where
// one run measured one setup under two measurement names (the record does not say what
// tells them apart: a data type, a root, barriers): those setups add
// /measurement=NAME, so that the two are not pooled. The repetition's iterations are
// the iteration count; bandwidth operations add the repetition's bandwidth in MB/s.
// Each run starts with configuration lines that benchstat groups tables by
// (mpi_library, mpi_version, suite); what differs between any two runs (run id, start,
// skampi version, hosts) is in '#' comment lines, which benchstat ignores, so that
// `benchstat a.txt b.txt` compares two runs of the same suite. To compare two MPI
// libraries, ignore their keys or make them the columns: `benchstat -ignore
// mpi_library,mpi_version a.txt b.txt`, or both runs in one file and `benchstat -col
// mpi_library all.txt`; the methods side by side: `benchstat -col /method put.txt`.
// Points without stored repetitions (imported from .sko) give one line with their
// time; faults and points without a valid repetition are comments.
func WriteGoBench(w io.Writer, res *report.Results) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# skampi results in the Go benchmark format: one line per repetition, ns/op = time per operation\n")
	named := sharedSetups(res)
	for _, r := range byRun(res) {
		run := &r.run
		fmt.Fprintf(bw, "\n# run %s: skampi %s, %d processes", run.RunID, gobenchOneLine(run.SkampiVersion), run.NProcs)
		if len(run.Hosts) > 0 {
			fmt.Fprintf(bw, " on %s", strings.Join(run.Hosts, ","))
		}
		if !run.StartTime.IsZero() {
			fmt.Fprintf(bw, ", started %s", run.StartTime.UTC().Format(time.RFC3339))
		}
		fmt.Fprintln(bw)
		for _, kv := range [][2]string{{"mpi_library", run.MPILibrary}, {"mpi_version", run.MPIVersion}, {"suite", run.Suite}} {
			// An empty value clears the key (benchfmt), as an unknown one should.
			fmt.Fprintln(bw, strings.TrimSpace(kv[0]+": "+gobenchOneLine(kv[1])))
		}
		r.each(func(p *record.Point) error {
			goBenchPoint(bw, p, named[p.Setup()])
			return nil
		}, func(f *record.Fault) error {
			fmt.Fprintf(bw, "# fault %s: %s (%s), %d bytes, %d processes: %s\n", f.Fault, f.Measurement, f.Op, f.MsgBytes, f.NProcs, gobenchOneLine(f.Detail))
			return nil
		})
	}
	return bw.Flush()
}

// sharedSetups are the setups some run measured under two measurement names (as
// report/compare's keys): their names keep the measurement, or the two would pool.
func sharedSetups(res *report.Results) map[record.Setup]bool {
	type runSetup struct {
		run   string
		setup record.Setup
	}
	seen := map[runSetup]string{}
	out := map[record.Setup]bool{}
	for i := range res.Points {
		p := &res.Points[i]
		k := runSetup{p.RunID, p.Setup()}
		if n, ok := seen[k]; ok && n != p.Measurement {
			out[k.setup] = true
		}
		seen[k] = p.Measurement
	}
	return out
}

// benchName is the point's setup as a benchmark name with sub-benchmark keys, and its
// measurement's name when withMeasurement.
func benchName(p *record.Point, withMeasurement bool) string {
	var b strings.Builder
	s := p.Setup()
	b.WriteString("Benchmark" + benchKey(s.Op))
	if s.Method != "" {
		b.WriteString("/method=" + benchKey(s.Method))
	}
	fmt.Fprintf(&b, "/bytes=%d/procs=%d", s.MsgBytes, s.NProcs)
	for _, f := range s.Settings() {
		v := f.Value
		if f.Name == "hold_s" {
			// Plain decimals: 1e-06 would end the name in "-06", which benchfmt
			// takes for a GOMAXPROCS suffix.
			v = strconv.FormatFloat(s.HoldS, 'f', -1, 64)
		}
		if f.Name == "delay_s" {
			v = strconv.FormatFloat(s.DelayS, 'f', -1, 64)
		}
		if f.Name == "halo_compute_s" {
			v = strconv.FormatFloat(s.HaloComputeS, 'f', -1, 64)
		}
		b.WriteString("/" + f.Name + "=" + benchKey(v))
	}
	if withMeasurement {
		b.WriteString("/measurement=" + benchKey(p.Measurement))
	}
	return b.String()
}

func goBenchPoint(w io.Writer, p *record.Point, withMeasurement bool) {
	if p.Reps == 0 || p.TimeS <= 0 {
		fmt.Fprintf(w, "# no valid repetition: %s (%s), %d bytes, %d processes\n", p.Measurement, p.Op, p.MsgBytes, p.NProcs)
		return
	}
	name := benchName(p, withMeasurement)
	samples := p.SamplesS
	if len(samples) == 0 {
		samples = []float64{p.TimeS} // imported: the central time only
	}
	var moved float64 // bytes per timed operation, for the bandwidth
	if p.BandwidthBps != nil {
		moved = *p.BandwidthBps * p.TimeS
	}
	for _, s := range samples {
		if s <= 0 {
			continue
		}
		fmt.Fprintf(w, "%s %d %s ns/op", name, max(p.Iterations, 1), strconv.FormatFloat(s*1e9, 'f', -1, 64))
		if moved > 0 {
			fmt.Fprintf(w, " %s MB/s", strconv.FormatFloat(moved/s/1e6, 'f', -1, 64))
		}
		fmt.Fprintln(w)
	}
}

// benchKey makes a name usable in a benchmark name (benchfmt's rules): no blanks (which
// end the name), no '/' (which separates sub-benchmark keys), no ',' (which separates
// benchstat's -col and -row keys); each run of them becomes one '_'. A '-' before digits
// that end the name becomes '_' too: benchfmt would read "-2" there as GOMAXPROCS.
func benchKey(s string) string {
	var b strings.Builder
	sep := false
	for _, r := range strings.TrimSpace(s) {
		if unicode.IsSpace(r) || r == '/' || r == ',' {
			sep = true
			continue
		}
		if sep && b.Len() > 0 {
			b.WriteByte('_')
		}
		sep = false
		b.WriteRune(r)
	}
	if b.Len() == 0 {
		return "_"
	}
	out := b.String()
	if i := strings.LastIndexByte(out, '-'); i >= 0 && i < len(out)-1 && strings.Trim(out[i+1:], "0123456789") == "" {
		out = out[:i] + "_" + out[i+1:]
	}
	return out
}

func gobenchOneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
