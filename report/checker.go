package report

import "github.com/skampi/skampi/record"

// Checker holds the lines of one result file to the schema as they are written, with
// the very checks Read makes of them (run headers before their points, no point index
// twice, every field in its domain, refined sizes between listed ones): what a writer
// checks with it, a reader accepts.
type Checker struct {
	s    schema
	line int
}

func NewChecker() *Checker {
	return &Checker{s: schema{runs: map[string]*record.Run{}, seen: map[string]map[int]int{}}}
}

// Line checks the next line of the file (one record, as JSONL writes it) and returns
// its errors; warnings are left out (a run header's provenance, an unknown kind).
func (c *Checker) Line(b []byte) []string {
	c.line++
	var res Results // the records are not kept: a long run would hold them all
	msgs, _, warning := c.s.record(&res, b, c.line)
	if warning {
		return nil
	}
	return msgs
}
