package report

import (
	"encoding/json"
	"io"
	"os"

	"github.com/skampi/skampi/record"
)

// JSONL writes one JSON object per line. Each record is a single write of a whole
// line, so a killed process never leaves half a record behind in the page cache.
type JSONL struct{ w io.Writer }

func NewJSONL(w io.Writer) *JSONL { return &JSONL{w: w} }

func (j *JSONL) Run(r *record.Run) error     { return j.line(r) }
func (j *JSONL) Point(p *record.Point) error { return j.line(p) }
func (j *JSONL) Fault(f *record.Fault) error { return j.line(f) }
func (j *JSONL) Step(s *record.Step) error   { return j.line(s) }

// Clock appends a clock check (`skampi clock check`'s file, after its run header).
func (j *JSONL) Clock(c *record.Clock) error { return j.line(c) }

// line writes one record as one line.
func (j *JSONL) line(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = j.w.Write(append(b, '\n'))
	return err
}

// Close syncs a file to disk; the file itself belongs to the caller.
func (j *JSONL) Close() error {
	if f, ok := j.w.(*os.File); ok {
		return f.Sync()
	}
	return nil
}
