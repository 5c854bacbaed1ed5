package report

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/skampi/skampi/record"
)

// JSONL writes one JSON object per line. Each record is a single write of a whole
// line, so a killed process never leaves half a record behind in the page cache.
type JSONL struct {
	w io.Writer
	// Broken, when set, is told of every record written that breaks the schema, with
	// its problems: the writer holds each line to the checks Read makes of it (Checker).
	// The record is written all the same: what was measured is kept, and a reader leaves
	// it out and says why.
	Broken func(what string, problems []string)
	check  *Checker
}

func NewJSONL(w io.Writer) *JSONL { return &JSONL{w: w} }

func (j *JSONL) Run(r *record.Run) error     { return j.line(r, "the run header") }
func (j *JSONL) Point(p *record.Point) error { return j.line(p, fmt.Sprintf("point %d", p.PointIndex)) }
func (j *JSONL) Fault(f *record.Fault) error {
	return j.line(f, fmt.Sprintf("the %s fault of point %d", f.Fault, f.PointIndex))
}
func (j *JSONL) Step(s *record.Step) error {
	return j.line(s, fmt.Sprintf("the step at %d-%d bytes", s.FoundLo, s.FoundHi))
}

// Clock appends a clock check (`skampi clock check`'s file, after its run header).
func (j *JSONL) Clock(c *record.Clock) error {
	return j.line(c, fmt.Sprintf("the clock of rank %d", c.Rank))
}

// line writes one record as one line, then checks it.
func (j *JSONL) line(v any, what string) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if _, err = j.w.Write(append(b, '\n')); err != nil {
		return err
	}
	if j.Broken != nil {
		if j.check == nil {
			j.check = NewChecker()
		}
		if msgs := j.check.Line(b); len(msgs) > 0 {
			j.Broken(what, msgs)
		}
	}
	return nil
}

// Close syncs a file to disk; the file itself belongs to the caller.
func (j *JSONL) Close() error {
	if f, ok := j.w.(*os.File); ok {
		return f.Sync()
	}
	return nil
}
