package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/skampi/skampi/record"
)

// SKO writes SKaMPI's text output: a commented header, then one
// `begin result "NAME"` ... `end result "NAME"` block per measurement, timing method
// and settings, with one `count=` line per size: bytes, time (µs), standard error
// (µs), repetitions, then the time of each participating rank (µs). A block's name is
// the measurement's with its method (`Put method=lock_all`) and any setting in which
// it differs from the measurement's first point; its `# setup` line gives the
// measurement's name and every setting, for ReadSKO. A non-blocking point's line is
// followed by `# breakdown {JSON}`, its record.Breakdown (post, wait, overlap,
// progress_every), so that a .sko read back has every field of each point's setup.
//
// A run measures a measurement's methods size by size, interleaved; the block of its
// first point is written as the points come, the others when the measurement ends (a
// job that dies in between loses them here, never in results.jsonl, from which
// `skampi export --format sko` writes them again).
type SKO struct {
	w       io.Writer
	meas    string         // the measurement of the last point: name and index
	first   []record.Field // its first point's settings
	started bool           // a point of the measurement has come
	open    string         // the block being written as points come ("" none)
	pending []*skoBlockOut // blocks of other methods and settings, held to its end
}

type skoBlockOut struct {
	name string
	text strings.Builder
}

func NewSKO(w io.Writer) *SKO { return &SKO{w: w} }

func (s *SKO) Run(r *record.Run) error {
	_, err := fmt.Fprintf(s.w, "# SKaMPI-style output of skampi %s\n# run %s, started %s\n# %s, %d processes on %d host(s)\n# suite %s (sha256 %s)\n# timer %s, resolution %g s\n\n",
		r.SkampiVersion, r.RunID, r.StartTime.Format("2006-01-02 15:04:05 MST"), r.MPILibrary, r.NProcs,
		len(r.Hosts), r.Suite, r.SuiteSHA256, r.Timer, r.TimerResolution)
	return err
}

func (s *SKO) Point(p *record.Point) error {
	var b strings.Builder
	setup := p.Setup()
	if meas := skoMeasurement(p.Measurement, p.MeasurementIndex); meas != s.meas {
		s.end(&b)
		s.meas, s.started = meas, false
	}
	if !s.started {
		s.first, s.started = setup.Settings(), true
	}
	name := skoBlockName(p.Measurement, setup, s.first)
	line := skoLine(p)
	switch {
	case s.open == "":
		s.open = name
		skoBegin(&b, name, p, setup)
		b.WriteString(line)
	case name == s.open:
		b.WriteString(line)
	default:
		s.hold(name, p, setup).text.WriteString(line)
	}
	_, err := io.WriteString(s.w, b.String())
	return err
}

// hold is the held block of that name, begun if new.
func (s *SKO) hold(name string, p *record.Point, setup record.Setup) *skoBlockOut {
	for _, h := range s.pending {
		if h.name == name {
			return h
		}
	}
	h := &skoBlockOut{name: name}
	skoBegin(&h.text, name, p, setup)
	s.pending = append(s.pending, h)
	return h
}

// end closes the open block and writes the held ones.
func (s *SKO) end(b *strings.Builder) {
	if s.open != "" {
		fmt.Fprintf(b, "end result %q\n\n", s.open)
	}
	for _, h := range s.pending {
		b.WriteString(h.text.String())
		fmt.Fprintf(b, "end result %q\n\n", h.name)
	}
	s.open, s.pending = "", nil
}

func skoMeasurement(name string, index int) string { return strconv.Itoa(index) + "\x00" + name }

// skoBlockName is the measurement's name, its method, and the settings in which the
// point differs from the measurement's first point (none for that one).
func skoBlockName(measurement string, setup record.Setup, first []record.Field) string {
	name := measurement
	if setup.Method != "" {
		name += " method=" + setup.Method
	}
	mine := setup.Settings()
	has := map[string]string{}
	for _, f := range mine {
		has[f.Name] = f.Value
	}
	was := map[string]string{}
	for _, f := range first {
		was[f.Name] = f.Value
		if _, ok := has[f.Name]; !ok {
			name += " " + f.Name + "=none"
		}
	}
	for _, f := range mine {
		if v, ok := was[f.Name]; !ok || v != f.Value {
			name += " " + f.Name + "=" + f.Value
		}
	}
	return name
}

func skoBegin(b *strings.Builder, name string, p *record.Point, setup record.Setup) {
	fmt.Fprintf(b, "begin result %q\n# op %s, times in microseconds\n", name, p.Op)
	if fields := setup.Settings(); setup.Method != "" || len(fields) > 0 || name != p.Measurement {
		fmt.Fprintf(b, "# setup measurement=%q", p.Measurement)
		if setup.Method != "" {
			fmt.Fprintf(b, " method=%s", setup.Method)
		}
		for _, f := range fields {
			fmt.Fprintf(b, " %s=%s", f.Name, f.Value)
		}
		b.WriteString("\n")
	}
}

func skoLine(p *record.Point) string {
	var b strings.Builder
	fmt.Fprintf(&b, "count= %8d %12.3f %10.3f %6d", p.MsgBytes, p.TimeS*1e6, p.StderrS*1e6, p.Reps)
	for _, t := range p.RankTimeS {
		fmt.Fprintf(&b, " %12.3f", t*1e6)
	}
	if len(p.Flags) > 0 {
		fmt.Fprintf(&b, "  # %s", strings.Join(p.Flags, ","))
	}
	b.WriteString("\n")
	// A non-blocking point's breakdown (and its progress_every, a setting) follows as a
	// comment, which SKaMPI's tools skip; a value JSON cannot hold leaves it out.
	if p.Breakdown != nil {
		if j, err := json.Marshal(p.Breakdown); err == nil {
			fmt.Fprintf(&b, "# breakdown %s\n", j)
		}
	}
	return b.String()
}

func (s *SKO) Fault(f *record.Fault) error {
	var b strings.Builder
	if meas := skoMeasurement(f.Measurement, f.MeasurementIndex); meas != s.meas {
		s.end(&b)
		s.meas, s.started = meas, false
	}
	// One line, whatever the detail holds: a line break would end the comment.
	detail := strings.Join(strings.Fields(f.Detail), " ")
	op := f.Op
	if f.Method != "" {
		op += " method=" + f.Method
	}
	fmt.Fprintf(&b, "# %s: %s, %d bytes: %s\n", f.Fault, op, f.MsgBytes, detail)
	_, err := io.WriteString(s.w, b.String())
	return err
}

func (s *SKO) Close() error {
	var b strings.Builder
	s.end(&b)
	s.meas, s.started = "", false
	_, err := io.WriteString(s.w, strings.TrimSuffix(b.String(), "\n"))
	return err
}
