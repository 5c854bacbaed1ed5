package report

import (
	"encoding/json"
	"io"
	"os"
)

// JSONL writes one JSON object per line. Each record is a single write of a whole
// line, so a killed process never leaves half a record behind in the page cache.
type JSONL struct{ w io.Writer }

func NewJSONL(w io.Writer) *JSONL { return &JSONL{w: w} }

// Write appends any record (a kind of its own too, such as a clock check) as one line.
func (j *JSONL) Write(v any) error { return j.write(v) }

func (j *JSONL) write(v any) error {
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
