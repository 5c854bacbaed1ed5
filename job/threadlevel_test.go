package job

import (
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
)

func TestThreadLevelFor(t *testing.T) {
	parse := func(op string) *inputs.Plan {
		p, err := inputs.Parse("s.toml", []byte("[[measurement]]\nname = \"m\"\nop = \""+op+"\"\nsizes = [1]\n"))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	mt, plain := parse("Pingpong_Send_Recv_MT"), parse("Pingpong_Send_Recv")
	for _, c := range []struct {
		plan        *inputs.Plan
		asked, want string
		refused     bool
	}{
		{plain, "", "", false}, {plain, "default", "default", false}, {plain, "funneled", "funneled", false},
		{mt, "", "multiple", false}, {mt, "default", "multiple", false}, {mt, "multiple", "multiple", false},
		{mt, "single", "", true}, {mt, "funneled", "", true}, {mt, "serialized", "", true},
	} {
		got, err := threadLevelFor(c.plan, c.asked)
		if got != c.want || (err != nil) != c.refused {
			t.Errorf("%s, --thread-level %q: %q, %v", c.plan.Measurements[0].Op.Name, c.asked, got, err)
		}
		if err != nil && !strings.Contains(err.Error(), "needs MPI_THREAD_MULTIPLE") {
			t.Errorf("refusal says %q", err)
		}
	}
	if err := checkProvided(mt, "multiple", "serialized"); err == nil || !strings.Contains(err.Error(), "requested multiple, provided serialized") {
		t.Errorf("a library without MULTIPLE: %v", err)
	}
	if checkProvided(mt, "multiple", "multiple") != nil || checkProvided(plain, "default", "single") != nil {
		t.Error("refused a run that can measure")
	}
}
