package runner

import (
	"fmt"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

// checker is an operation that checks the data it receives (check_data).
type checker interface {
	Corruption() *ops.Corruption
}

// noteCorruption brings the first corrupt byte any rank received in op to rank 0
// and keeps it for the point's record; every rank calls it after the repetitions.
func (r *Runner) noteCorruption(op Op, spec ops.Request) error {
	var c *ops.Corruption
	if ck, ok := op.(checker); ok {
		c = ck.Corruption()
	}
	fields := make([]float64, 7)
	if c != nil {
		fields = []float64{1, float64(c.From), float64(c.Slot), float64(c.Offset),
			float64(c.Expected), float64(c.Actual), float64(c.Repetition)}
	}
	all := make([][]float64, len(fields))
	for i, v := range fields {
		vals, err := r.World.Gather(v)
		if err != nil {
			return fmt.Errorf("gathering the data check: %w", err)
		}
		all[i] = vals
	}
	if r.World.Rank() != 0 || r.corrupt != nil {
		return nil
	}
	for rank, bad := range all[0] {
		if bad == 0 {
			continue
		}
		from := int(all[1][rank])
		if spec.Ranks != nil && from >= 0 && from < len(spec.Ranks) {
			from = spec.Ranks[from] // a rank of the sub-communicator: its world rank
		}
		r.corrupt = &record.Corrupt{Rank: rank, From: from, Slot: int(all[2][rank]), Offset: int64(all[3][rank]),
			Expected: int(all[4][rank]), Actual: int(all[5][rank]), Repetition: int(all[6][rank])}
		return nil
	}
	return nil
}
