package inputs

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/skampi/skampi/internal/printable"
	"github.com/skampi/skampi/ops"
)

// CheckOptions are skampi check's: the suite, the job it is planned for, the output.
type CheckOptions struct {
	Suite string
	// Text, when set, is the suite to check instead of reading Suite: what a run's
	// command line makes of it (operations named, flags laid over -i SUITE); Suite then
	// names it in messages.
	Text    []byte
	NP      int
	NPGiven bool // NP was asked for: a failure to fit is the user's job, not the default's
	Stdout  io.Writer
	Stderr  io.Writer
	// Refused says why this binary cannot run an operation ("" when it can): a routine
	// the MPI library lacks, OpenSHMEM in a build without it. The run records such an
	// operation's points as denied; check says so beneath the plan. nil: none.
	Refused func(ops.Info) string
}

// ErrCheckReported is Check's error when the suite is valid but needs a larger job
// than the default one planned for: the problem and what to do about it are printed
// on Stderr already.
var ErrCheckReported = errors.New("check: the suite needs a larger job than the default (said on stderr)")

// Check is skampi check: it loads and validates the suite, plans it for a job of NP
// processes and describes the plan on Stdout, without running anything.
func Check(o CheckOptions) error {
	var plan *Plan
	var err error
	if o.Text != nil {
		plan, err = Parse(o.Suite, o.Text)
	} else {
		plan, err = Load(o.Suite)
	}
	if err != nil {
		return err
	}
	ex, err := plan.Expand(Job{NProcs: o.NP})
	if err != nil {
		if !o.NPGiven {
			// The suite is valid; it needs a larger job than the default planned for.
			fmt.Fprintf(o.Stderr, "%v\nskampi: check planned a job of %d processes: give --np N to plan for the job you will run\n", err, o.NP)
			return ErrCheckReported
		}
		return err
	}
	plan.Describe(o.Stdout, ex, o.NP)
	plan.describeRefused(o.Stdout, ex, o.Refused)
	return nil
}

// describeRefused says, once per operation this binary cannot run, why, and which
// measurements' points the run will record as denied (it goes on with the others).
func (p *Plan) describeRefused(out io.Writer, ex *Expansion, why func(ops.Info) string) {
	if why == nil {
		return
	}
	var names []string // in the plan's order
	points, measurements := map[string]int{}, map[string][]int{}
	for _, pt := range ex.Points {
		name := pt.Op().Name
		if _, seen := points[name]; !seen {
			names = append(names, name)
		}
		points[name]++
		if n := pt.Measurement.Index + 1; !slices.Contains(measurements[name], n) {
			measurements[name] = append(measurements[name], n)
		}
	}
	for _, name := range names {
		in, _ := ops.Lookup(name)
		if reason := why(in); reason != "" {
			fmt.Fprintf(out, "refused: %s (%d point(s), measurement(s) %s): %s; the run records them as denied\n",
				name, points[name], numberRanges(measurements[name]), reason)
		}
	}
}

// numberRanges writes ascending numbers with runs as ranges: "1-3 7".
func numberRanges(ns []int) string {
	var parts []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", ns[i], ns[j]))
		} else {
			parts = append(parts, fmt.Sprint(ns[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, " ")
}

// Describe prints the plan and its expansion on a job of np processes: the suite, then
// per measurement its points, sizes, methods and communicator sizes, then the notes.
func (p *Plan) Describe(out io.Writer, ex *Expansion, np int) {
	fmt.Fprintf(out, "suite %s (%s)\nsha256 %s\n", p.Name, p.Source, p.SHA256)
	// The suite's own text reaches the terminal escaped: an escape sequence in a
	// description must not act on it.
	for _, line := range strings.Split(strings.TrimRight(p.Description, "\n"), "\n") {
		if line != "" {
			fmt.Fprintf(out, "%s\n", printable.String(line))
		}
	}
	fmt.Fprintln(out)
	perMeasurement := map[*Measurement]int{}
	measured := map[*Measurement][]int64{} // the sizes of its points: those left out at the cap are not
	refinable := 0                         // the most points refinement may add
	for i, pt := range ex.Points {
		perMeasurement[pt.Measurement]++
		if !slices.Contains(measured[pt.Measurement], pt.Size) {
			measured[pt.Measurement] = append(measured[pt.Measurement], pt.Size)
		}
		if r := pt.Settings().Refine; r.On() && !pt.Op().NoData && (i+1 == len(ex.Points) || ex.Points[i+1].Measurement != pt.Measurement || ex.Points[i+1].NProcs != pt.NProcs) {
			refinable += r.MaxPoints * len(methodList(pt.Measurement))
		}
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "#\tmeasurement\top\tpoints\tsizes\tmethods\tprocs\n")
	for i := range p.Measurements {
		m := &p.Measurements[i]
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%s\t%s\t%s\n", m.Index+1, printable.String(m.Name), m.Op.Name, perMeasurement[m],
			dash(sizeList(measured[m])), dash(strings.Join(m.Methods, " ")), procsList(m))
	}
	tw.Flush()
	for _, n := range ex.Notes {
		fmt.Fprintf(out, "note: %s\n", n)
	}
	fmt.Fprintf(out, "\ntotal: %d points in %d measurements on %d processes\n", len(ex.Points), len(p.Measurements), np)
	var bound time.Duration
	for _, pt := range ex.Points {
		bound += pt.Settings().MaxTime
	}
	if len(ex.Points) > 0 {
		fmt.Fprintf(out, "time: at most %s of measuring (every point's max_time_per_point, summed; most points stop long before theirs), plus start-up and the warm-up of each point\n",
			bound.Round(time.Second))
	}
	if refinable > 0 {
		fmt.Fprintf(out, "refine: up to %d more points, sizes added where the curves bend (max_points per curve)\n", refinable)
	}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func procsList(m *Measurement) string {
	if len(m.Settings.Procs) == 0 || len(m.ProcsList()) == 1 && m.ProcsList()[0] == 0 {
		return "all"
	}
	f := make([]string, len(m.Settings.Procs))
	for i, n := range m.Settings.Procs {
		f[i] = fmt.Sprint(n)
		if n == 0 {
			f[i] = "all"
		}
	}
	return strings.Join(f, " ")
}

// sizeList shows short lists whole and long ones by their ends.
func sizeList(sizes []int64) string {
	f := make([]string, len(sizes))
	for i, s := range sizes {
		f[i] = FormatSize(s)
	}
	if len(f) > 8 {
		return strings.Join(f[:3], " ") + " ... " + strings.Join(f[len(f)-3:], " ")
	}
	return strings.Join(f, " ")
}
