package report

import (
	"testing"

	"github.com/skampi/skampi/record"
)

// Bindings as the kernel writes CPU lists pass; an empty one (the kernel did not say)
// too.
func TestRankCPUsValid(t *testing.T) {
	r := &record.Run{NProcs: 4, RankCPUs: []string{"0", "1-3", "0,2,4-7", ""}}
	if msgs := runFields(r); len(msgs) != 0 {
		t.Errorf("%q", msgs)
	}
}
