package report

import (
	"fmt"
	"slices"

	"github.com/skampi/skampi/record"
)

// Refinement adds sizes strictly between the sizes of a curve it has measured, and
// only after the curve's listed (planned) sizes: a refined point at a planned size, or
// outside the planned sizes, is no point skampi wrote. A run that resumes another
// (record.Run.Resume) refines the curves the earlier run planned, so runs chain.

// curve is one curve of a chain of runs: a measurement's points of one operation,
// method and process count.
type curve struct {
	chain, measurement, op, method string
	nprocs                         int
}

// sizes are the planned sizes of a curve recorded so far, and the refined ones with
// their lines.
type sizes struct {
	planned []int64
	refined map[int64]int
}

// chainRun puts a run header in its chain: a resumed run continues the chain of the
// run before it in the source, any other run starts one.
func (s *schema) chainRun(r *record.Run) {
	if s.chain == nil {
		s.chain = map[string]string{}
	}
	id := r.RunID
	if r.Resume && s.lastChain != "" {
		id = s.lastChain
	}
	s.chain[r.RunID], s.lastChain = id, id
}

// refinedSize checks a point's size against its curve's planned sizes recorded before
// it, and notes it.
func (s *schema) refinedSize(p *record.Point, line int) string {
	k := curve{s.chain[p.RunID], p.Measurement, p.Op, p.Method, p.NProcs}
	if s.curves == nil {
		s.curves = map[curve]*sizes{}
	}
	c := s.curves[k]
	if c == nil {
		c = &sizes{refined: map[int64]int{}}
		s.curves[k] = c
	}
	if !p.Refined {
		if at, ok := c.refined[p.MsgBytes]; ok {
			return fmt.Sprintf("msg_bytes %d is listed, but a refined point of this curve at the same size is on line %d: refinement adds sizes between listed ones, after them",
				p.MsgBytes, at)
		}
		if !slices.Contains(c.planned, p.MsgBytes) {
			c.planned = append(c.planned, p.MsgBytes)
		}
		return ""
	}
	if len(c.planned) == 0 { // its listed points are not in this source: nothing to hold it to
		c.refined[p.MsgBytes] = line
		return ""
	}
	lo, hi := slices.Min(c.planned), slices.Max(c.planned)
	switch {
	case slices.Contains(c.planned, p.MsgBytes):
		return fmt.Sprintf("refined is true at msg_bytes %d, a listed size of the curve: refined sizes lie strictly between listed ones", p.MsgBytes)
	case p.MsgBytes <= lo || p.MsgBytes >= hi:
		return fmt.Sprintf("refined is true at msg_bytes %d, outside the curve's listed sizes %d to %d: refined sizes lie strictly between listed ones", p.MsgBytes, lo, hi)
	}
	c.refined[p.MsgBytes] = line
	return ""
}
