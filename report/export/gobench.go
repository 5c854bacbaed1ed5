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
//	BenchmarkPut/method=lock_all/bytes=8/procs=2 162 3861.4 ns/op 2.07 MB/s
//
// The name is the point's setup (record.Setup) as sub-benchmark keys, so that no two
// timing methods, sizes, process counts or settings are pooled and benchstat's -col and
// -row can pick any of them: the operation as the benchmark, then its timing method
// (when it has one), message size and process count, then every setting that takes
// more than one value among the operation's points in what is exported (the others are
// listed once per operation in a '#' line). The measurement's free-text name is a label
// and not part of the name, so a built-in suite and a one-line run of the same
// operations give the same names. The repetition's iterations are the iteration count;
// bandwidth operations add the repetition's bandwidth in MB/s. Each run starts with
// configuration lines that benchstat groups tables by (mpi_library, mpi_version,
// suite); what differs between any two runs (run id, start, skampi version, hosts) is
// in '#' comment lines, which benchstat ignores, so that `benchstat a.txt b.txt`
// compares two runs of the same suite. To compare two MPI libraries, ignore their keys
// or make them the columns: `benchstat -ignore mpi_library,mpi_version a.txt b.txt`,
// or both runs in one file and `benchstat -col mpi_library all.txt`; the methods side
// by side: `benchstat -col /method put.txt`. Points without stored repetitions
// (imported from .sko) give one line with their time; faults and points without a
// valid repetition are comments.
func WriteGoBench(w io.Writer, res *report.Results) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# skampi results in the Go benchmark format: one line per repetition, ns/op = time per operation\n")
	keys := varyingSettings(res)
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
		listed := map[string]bool{}
		r.each(func(p *record.Point) error {
			if !listed[p.Op] {
				listed[p.Op] = true
				constantSettings(bw, p, keys[p.Op])
			}
			goBenchPoint(bw, p, keys[p.Op])
			return nil
		}, func(f *record.Fault) error {
			fmt.Fprintf(bw, "# fault %s: %s (%s), %d bytes, %d processes: %s\n", f.Fault, f.Measurement, f.Op, f.MsgBytes, f.NProcs, gobenchOneLine(f.Detail))
			return nil
		})
	}
	return bw.Flush()
}

// varyingSettings are, per operation, the names of the settings (record.Setup.Settings)
// that take more than one value among its points, unset counting as a value.
func varyingSettings(res *report.Results) map[string]map[string]bool {
	type opSetting struct{ op, name string }
	values := map[opSetting]map[string]bool{} // the values a setting of an op takes
	points := map[string]int{}                // an op's points
	for i := range res.Points {
		p := &res.Points[i]
		points[p.Op]++
		for _, f := range p.Setup().Settings() {
			k := opSetting{p.Op, f.Name}
			if values[k] == nil {
				values[k] = map[string]bool{}
			}
			values[k][f.Value] = true
		}
	}
	setIn := map[opSetting]int{} // points that have the setting
	for i := range res.Points {
		for _, f := range res.Points[i].Setup().Settings() {
			setIn[opSetting{res.Points[i].Op, f.Name}]++
		}
	}
	out := map[string]map[string]bool{}
	for k, vals := range values {
		if len(vals) > 1 || setIn[k] < points[k.op] {
			if out[k.op] == nil {
				out[k.op] = map[string]bool{}
			}
			out[k.op][k.name] = true
		}
	}
	return out
}

// constantSettings lists once, as a comment, the settings of an operation that are not
// in its benchmark names because all its points share them.
func constantSettings(w io.Writer, p *record.Point, varying map[string]bool) {
	var kv []string
	for _, f := range p.Setup().Settings() {
		if !varying[f.Name] {
			kv = append(kv, f.Name+"="+f.Value)
		}
	}
	if len(kv) > 0 {
		fmt.Fprintf(w, "# %s: %s\n", benchKey(p.Op), gobenchOneLine(strings.Join(kv, " ")))
	}
}

// benchName is the point's setup as a benchmark name with sub-benchmark keys.
func benchName(p *record.Point, varying map[string]bool) string {
	var b strings.Builder
	s := p.Setup()
	b.WriteString("Benchmark" + benchKey(s.Op))
	if s.Method != "" {
		b.WriteString("/method=" + benchKey(s.Method))
	}
	fmt.Fprintf(&b, "/bytes=%d/procs=%d", s.MsgBytes, s.NProcs)
	for _, f := range s.Settings() {
		if varying[f.Name] {
			b.WriteString("/" + f.Name + "=" + benchKey(f.Value))
		}
	}
	return b.String()
}

func goBenchPoint(w io.Writer, p *record.Point, varying map[string]bool) {
	if p.Reps == 0 || p.TimeS <= 0 {
		fmt.Fprintf(w, "# no valid repetition: %s (%s), %d bytes, %d processes\n", p.Measurement, p.Op, p.MsgBytes, p.NProcs)
		return
	}
	name := benchName(p, varying)
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
