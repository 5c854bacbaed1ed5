package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/skampi/skampi/record"
)

// SKO writes SKaMPI's text output: a commented header, then one
// `begin result "NAME"` ... `end result "NAME"` block per measurement with one
// `count=` line per size: bytes, time (µs), standard error (µs), repetitions, then
// the time of each participating rank (µs).
type SKO struct {
	w       io.Writer
	current string
	open    bool
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
	if !s.open || p.Measurement != s.current {
		if s.open {
			fmt.Fprintf(&b, "end result %q\n\n", s.current)
		}
		fmt.Fprintf(&b, "begin result %q\n# op %s, times in microseconds\n", p.Measurement, p.Op)
		s.current, s.open = p.Measurement, true
	}
	fmt.Fprintf(&b, "count= %8d %12.3f %10.3f %6d", p.MsgBytes, p.TimeS*1e6, p.StderrS*1e6, p.Reps)
	for _, t := range p.RankTimeS {
		fmt.Fprintf(&b, " %12.3f", t*1e6)
	}
	if len(p.Flags) > 0 {
		fmt.Fprintf(&b, "  # %s", strings.Join(p.Flags, ","))
	}
	b.WriteString("\n")
	_, err := io.WriteString(s.w, b.String())
	return err
}

func (s *SKO) Fault(f *record.Fault) error {
	// One line, whatever the detail holds: a line break would end the comment.
	detail := strings.Join(strings.Fields(f.Detail), " ")
	_, err := fmt.Fprintf(s.w, "# %s: %s, %d bytes: %s\n", f.Fault, f.Op, f.MsgBytes, detail)
	return err
}

func (s *SKO) Close() error {
	if !s.open {
		return nil
	}
	s.open = false
	_, err := fmt.Fprintf(s.w, "end result %q\n", s.current)
	return err
}
