package report

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/skampi/skampi/record"
)

// ExportFormats are the formats Export writes.
var ExportFormats = []string{"csv", "sko", "gobench"}

// Export writes results as CSV (NewCSV), SKaMPI's text format (NewSKO) or the Go
// benchmark format (WriteGoBench): each run's header, then its points and faults in
// point order.
func Export(w io.Writer, res *Results, format string) error {
	switch format {
	case "csv":
		c := NewCSV(w, true)
		for _, r := range exportByRun(res) {
			if err := r.feed(c); err != nil {
				return err
			}
		}
		return c.Close()
	case "sko":
		for i, r := range exportByRun(res) {
			if i > 0 {
				if _, err := io.WriteString(w, "\n"); err != nil {
					return err
				}
			}
			s := NewSKO(w) // one per run, as the run sink writes them
			if err := r.feed(s); err != nil {
				return err
			}
			if err := s.Close(); err != nil {
				return err
			}
		}
		return nil
	case "gobench":
		return WriteGoBench(w, res)
	}
	return fmt.Errorf("unknown export format %q (%s)", format, strings.Join(ExportFormats, ", "))
}

// exportRun are one run's header and records in point order.
type exportRun struct {
	run    record.Run
	points []*record.Point
	faults []*record.Fault
	order  []int // point indexes, ascending; each names a point or a fault
}

// exportByRun groups results by run: runs in order, then the ids of records whose run has
// no header (a bare header stands in for it).
func exportByRun(res *Results) []*exportRun {
	var out []*exportRun
	idx := map[string]*exportRun{}
	get := func(id string) *exportRun {
		if r := idx[id]; r != nil {
			return r
		}
		r := &exportRun{run: record.Run{Kind: record.KindRun, RunID: id}}
		idx[id] = r
		out = append(out, r)
		return r
	}
	for _, run := range res.Runs {
		get(run.RunID).run = run
	}
	for i := range res.Points {
		r := get(res.Points[i].RunID)
		r.points = append(r.points, &res.Points[i])
	}
	for i := range res.Faults {
		r := get(res.Faults[i].RunID)
		r.faults = append(r.faults, &res.Faults[i])
	}
	for _, r := range out {
		sort.SliceStable(r.points, func(i, j int) bool { return r.points[i].PointIndex < r.points[j].PointIndex })
		sort.SliceStable(r.faults, func(i, j int) bool { return r.faults[i].PointIndex < r.faults[j].PointIndex })
	}
	return out
}

// each calls point or fault for the run's records in point order.
func (r *exportRun) each(point func(*record.Point) error, fault func(*record.Fault) error) error {
	i, j := 0, 0
	for i < len(r.points) || j < len(r.faults) {
		if j == len(r.faults) || i < len(r.points) && r.points[i].PointIndex <= r.faults[j].PointIndex {
			if err := point(r.points[i]); err != nil {
				return err
			}
			i++
			continue
		}
		if err := fault(r.faults[j]); err != nil {
			return err
		}
		j++
	}
	return nil
}

// feed gives a sink the run's header and records.
func (r *exportRun) feed(s Sink) error {
	if err := s.Write(&r.run); err != nil {
		return err
	}
	return r.each(func(p *record.Point) error { return s.Write(p) }, func(f *record.Fault) error { return s.Write(f) })
}

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
func WriteGoBench(w io.Writer, res *Results) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# skampi results in the Go benchmark format: one line per repetition, ns/op = time per operation\n")
	for _, r := range exportByRun(res) {
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
