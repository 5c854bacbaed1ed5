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
//	BenchmarkPingpong_Send_Recv/measurement=ping-pong/msg_bytes=1/nprocs=2 347 1175.9 ns/op
//
// with the operation as the benchmark name, measurement (blanks, commas and slashes
// made '_'), message size and process count as sub-benchmark keys, the repetition's
// iterations as the iteration count and its time per operation; bandwidth operations
// add the repetition's bandwidth in MB/s. Each run starts with configuration lines that
// benchstat groups tables by (mpi_library, mpi_version, suite); what differs between
// any two runs (run id, start, skampi version, hosts) is in '#' comment lines, which
// benchstat ignores, so that `benchstat a.txt b.txt` compares two runs of the same
// suite. To compare two MPI libraries, ignore their keys or make them the columns:
// `benchstat -ignore mpi_library,mpi_version a.txt b.txt`, or both runs in one file
// and `benchstat -col mpi_library all.txt`. Points without stored repetitions (imported
// from .sko) give one line with their time; faults and points without a valid
// repetition are comments.
func WriteGoBench(w io.Writer, res *report.Results) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# skampi results in the Go benchmark format: one line per repetition, ns/op = time per operation\n")
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
			goBenchPoint(bw, p)
			return nil
		}, func(f *record.Fault) error {
			fmt.Fprintf(bw, "# fault %s: %s (%s), %d bytes, %d processes: %s\n", f.Fault, f.Measurement, f.Op, f.MsgBytes, f.NProcs, gobenchOneLine(f.Detail))
			return nil
		})
	}
	return bw.Flush()
}

func goBenchPoint(w io.Writer, p *record.Point) {
	if p.Reps == 0 || p.TimeS <= 0 {
		fmt.Fprintf(w, "# no valid repetition: %s (%s), %d bytes, %d processes\n", p.Measurement, p.Op, p.MsgBytes, p.NProcs)
		return
	}
	name := fmt.Sprintf("Benchmark%s/measurement=%s/msg_bytes=%d/nprocs=%d", benchKey(p.Op), benchKey(p.Measurement), p.MsgBytes, p.NProcs)
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

// benchKey makes a name usable in a benchmark name: no blanks, no '/' (which separates
// sub-benchmark keys), no ','; each run of them becomes one '_'.
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
	return b.String()
}

func gobenchOneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
