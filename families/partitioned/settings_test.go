package partitioned

import (
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
)

// partitions: 8 by default, for partitioned operations only; every size is a multiple
// of it (refinement's grain, the one-line form's smallest default size), and a listed
// size that is not is an error at sizes, whether or not partitions was given.
func TestPartitionsSetting(t *testing.T) {
	op, ok := ops.Lookup("Pingpong_Partitioned")
	if !ok {
		t.Fatal("no Pingpong_Partitioned")
	}
	d := inputs.Defaults()
	if partsOf(d) != 8 || d.SizeGrain(op) != 8 {
		t.Errorf("default partitions %d, grain %d", partsOf(d), d.SizeGrain(op))
	}
	parse := func(sizes, extra string) (*inputs.Plan, error) {
		return inputs.Parse("p.toml", []byte("[[measurement]]\nname = \"m\"\nop = \"Pingpong_Partitioned\"\nsizes = "+sizes+"\n"+extra))
	}
	p, err := parse("[12, 24]", "partitions = 3\n")
	if err != nil {
		t.Fatal(err)
	}
	if s := p.Measurements[0].Settings; partsOf(s) != 3 || s.SizeGrain(op) != 3 {
		t.Errorf("partitions %d, grain %d", partsOf(s), s.SizeGrain(op))
	}
	for _, c := range []struct{ sizes, extra, want string }{
		{"[12]", "", "p.toml:4:9: measurement 1: sizes: Pingpong_Partitioned sends msg_bytes in 8 partitions (partitions): every size must be a multiple of 8, got 12"},
		{"[64, 100]", "partitions = 16\n", "every size must be a multiple of 16, got 100"},
		{"[64]", "partitions = 0\n", "partitions"},
	} {
		if _, err := parse(c.sizes, c.extra); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: %v, want %q", c.sizes, c.extra, err, c.want)
		}
	}
	if _, err := inputs.Parse("p.toml", []byte("[[measurement]]\nname = \"m\"\nop = \"Pingpong_Send_Recv\"\nsizes = [8]\npartitions = 4\n")); err == nil || !strings.Contains(err.Error(), "partitions applies to partitioned communication") {
		t.Errorf("partitions of a ping-pong: %v", err)
	}
	// Other operations' sizes are not held to it.
	if pp, _ := ops.Lookup("Pingpong_Send_Recv"); d.SizeGrain(pp) != 1 {
		t.Errorf("ping-pong grain %d", d.SizeGrain(pp))
	}
}
