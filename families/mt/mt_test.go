package mt

import (
	"slices"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/internal/familytest"
	"github.com/skampi/skampi/ops"
)

// The family's operations, settings and suite are registered: 1:N is osu_latency_mt's
// round trip, every threaded operation needs MPI_THREAD_MULTIPLE, and the built-in
// suite mt loads and plans.
func TestRegistered(t *testing.T) {
	n := 0
	for _, in := range ops.All() {
		if !in.Threaded {
			continue
		}
		n++
		if !in.NeedsThreadMultiple() || in.Pattern != ops.PatternPair {
			t.Errorf("%s: %+v", in.Name, in)
		}
	}
	if n == 0 {
		t.Fatal("no multi-threaded operation in the catalogue")
	}
	if in, ok := ops.Lookup("Pingpong_Send_Recv_MT_1toN"); !ok || !in.OneToN || !in.RoundTrip || in.Reduce != ops.ReduceFirst {
		t.Errorf("osu_latency_mt's 1:N: %+v", in)
	}
	if !slices.Contains(inputs.BuiltinNames(), "mt") {
		t.Fatalf("built-in suites %v: no mt", inputs.BuiltinNames())
	}
	plan, err := inputs.Load("mt")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plan.Expand(inputs.Job{NProcs: 2}); err != nil {
		t.Error(err)
	}
	// The suite measures every multi-threaded operation.
	measured := map[string]bool{}
	for _, m := range plan.Measurements {
		measured[m.Op.Name] = true
	}
	for _, in := range ops.All() {
		if in.Threaded && !measured[in.Name] {
			t.Errorf("suite mt does not measure %s", in.Name)
		}
	}
	if !slices.ContainsFunc(inputs.OSUBenchmarks(), func(b inputs.OSUBenchmark) bool { return b.Name == "osu_latency_mt" }) {
		t.Error("osu_latency_mt is not an OSU name of skampi run")
	}
}

// A setting that cannot change what a threaded measurement measures is an error at its
// key, in a suite and as a flag; used, the same settings pass.
func TestSettingsThatDoNothing(t *testing.T) {
	const m = "[[measurement]]\nname = \"m\"\n"
	for _, c := range []struct{ text, want string }{
		{m + "op = \"Pingpong_Send_Recv_MT\"\nsizes = [8]\ntimer = \"iteration\"\n",
			"s.toml:5:9: measurement 1: timer: Pingpong_Send_Recv_MT does not use it: timer applies to operations timed as a loop of steps"},
		{m + "op = \"Bandwidth_MT\"\nsizes = [8]\ncache = \"cold\"\n",
			"s.toml:5:9: measurement 1: cache: Bandwidth_MT does not use it: cache applies to MPI operations that move data from skampi's buffers"},
		{m + "op = \"Pingpong_Send_Recv_MT_1toN\"\nsizes = [8]\nthreads = 2\nthread_comm = \"tag\"\n",
			"s.toml:6:15: measurement 1: thread_comm: Pingpong_Send_Recv_MT_1toN does not use it: thread_comm applies to multi-threaded operations of thread pairs"},
	} {
		if _, err := inputs.Parse("s.toml", []byte(c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v\nwant %s", err, c.want)
		}
	}
	for _, text := range []string{
		m + "op = \"Pingpong_Send_Recv_MT_1toN\"\nsizes = [8]\nthreads = 4\nthread_pinning = \"core\"\n",
		m + "op = \"Pingpong_Send_Recv_MT\"\nsizes = [8]\nthreads = 2\nthread_comm = \"tag\"\n",
	} {
		p, err := inputs.Parse("s.toml", []byte(text))
		if err != nil {
			t.Errorf("%s: %v", text, err)
			continue
		}
		if s := p.Measurements[0].Settings; threads(s) < 2 || (pinning(s) != "core" && comm(s) != "tag") {
			t.Errorf("%s: threads %d, comm %s, pinning %s", text, threads(s), comm(s), pinning(s))
		}
	}
	for _, c := range []struct {
		line inputs.OneLine
		want string
	}{
		{inputs.OneLine{Ops: []string{"Pingpong_Send_Recv_MT"}, Settings: [][2]string{{"timer", "iteration"}}},
			"skampi run: --timer: Pingpong_Send_Recv_MT does not use it: timer applies to operations timed as a loop of steps"},
		{inputs.OneLine{Ops: []string{"Pingpong_Send_Recv_MT", "Bandwidth_MT"}, Settings: [][2]string{{"cache", "cold"}}},
			"skampi run: --cache: none of Pingpong_Send_Recv_MT, Bandwidth_MT uses it: cache applies to"},
		{inputs.OneLine{Ops: []string{"Pingpong_Send_Recv"}, Settings: [][2]string{{"threads", "2"}}},
			"skampi run: --threads: Pingpong_Send_Recv does not use it: threads applies to multi-threaded operations"},
	} {
		text, err := c.line.Suite()
		if err == nil {
			_, err = inputs.ParseOneLine(text)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v\nwant %s", c.line, err, c.want)
		}
	}
}

// Every thread's own buffers count in the job's memory: 64 threads of 1 GiB messages
// are refused before anything runs, not wrapped into a small number.
func TestThreadsMemory(t *testing.T) {
	p, err := inputs.Parse("s.toml", []byte("[settings]\nbuffer = \"1GiB\"\n[[measurement]]\nname = \"m\"\nop = \"Pingpong_Send_Recv_MT\"\nsizes = [\"1GiB\"]\nthreads = 64\n"))
	if err == nil {
		_, err = p.Expand(inputs.Job{NProcs: 2})
	}
	if want := `measurement "m": Pingpong_Send_Recv_MT at 1GiB needs 130GiB per rank`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// Every suite in testdata/bad is refused with exactly the text of its .err file.
func TestBadSuites(t *testing.T) { familytest.BadSuites(t) }
