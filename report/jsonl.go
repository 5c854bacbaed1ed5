package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/skampi/skampi/measure"
)

// JSONL writes one JSON object per line. Each record is a single write of a whole
// line, so a killed process never leaves half a record behind in the page cache.
type JSONL struct{ w io.Writer }

func NewJSONL(w io.Writer) *JSONL { return &JSONL{w: w} }

func (j *JSONL) write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = j.w.Write(append(b, '\n'))
	return err
}

func (j *JSONL) Run(r *measure.Run) error     { return j.write(r) }
func (j *JSONL) Point(p *measure.Point) error { return j.write(p) }

// Close syncs a file to disk; the file itself belongs to the caller.
func (j *JSONL) Close() error {
	if f, ok := j.w.(*os.File); ok {
		return f.Sync()
	}
	return nil
}

// Results is the content of one or more result files.
type Results struct {
	Runs   []measure.Run
	Points []measure.Point
}

// ReadJSONL reads run and point records; unknown fields are ignored so older readers
// keep working as the schema grows. Unknown kinds and bad lines are errors with their
// line number.
func ReadJSONL(r io.Reader, name string) (*Results, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 64<<20)
	res := &Results{}
	for line := 1; sc.Scan(); line++ {
		b := sc.Bytes()
		if len(b) == 0 {
			continue
		}
		var k struct {
			Kind string `json:"kind"`
		}
		if err := json.Unmarshal(b, &k); err != nil {
			return res, fmt.Errorf("%s:%d: not a JSON record: %v", name, line, err)
		}
		switch k.Kind {
		case measure.KindRun:
			var run measure.Run
			if err := json.Unmarshal(b, &run); err != nil {
				return res, fmt.Errorf("%s:%d: bad run record: %v", name, line, err)
			}
			res.Runs = append(res.Runs, run)
		case measure.KindPoint:
			var p measure.Point
			if err := json.Unmarshal(b, &p); err != nil {
				return res, fmt.Errorf("%s:%d: bad point record: %v", name, line, err)
			}
			res.Points = append(res.Points, p)
		default:
			return res, fmt.Errorf("%s:%d: unknown record kind %q", name, line, k.Kind)
		}
	}
	return res, sc.Err()
}
