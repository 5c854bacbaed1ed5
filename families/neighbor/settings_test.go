package neighbor

import (
	"slices"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/internal/familytest"
	"github.com/skampi/skampi/ops"
)

// The topology a neighbourhood collective is given: two chosen dimensions for cart by
// default, the setting's otherwise, nothing for any other operation.
func TestTopologyFor(t *testing.T) {
	s := inputs.Defaults()
	nb, _ := ops.Lookup("Neighbor_alltoall")
	bc, _ := ops.Lookup("Bcast")
	if got := topologyFor(s, nb); got.Kind != TopoCart || !slices.Equal(got.Dims, []int{0, 0}) {
		t.Errorf("default %+v", got)
	}
	if got := topologyFor(s, bc); got.Kind != "" {
		t.Errorf("Bcast %+v", got)
	}
	p, err := inputs.Parse("s.toml", []byte("[[measurement]]\nname = \"m\"\nop = \"Neighbor_alltoall\"\nsizes = [8]\ntopology = \"stencil_3d\"\ntopology_dims = [0, 2, 0]\n"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := topologyFor(p.Measurements[0].Settings, nb).Resolve(8)
	if err != nil || got.String() != "stencil_3d:2x2x2" {
		t.Errorf("%v, %v", got, err)
	}
	// The settings are the suite's keys and flags, listed where the core had them:
	// before partitions, so a one-line suite's text is what it was.
	var keys []string
	for _, st := range inputs.SettingList() {
		keys = append(keys, st.Key)
	}
	i := slices.Index(keys, settingTopology)
	if i < 0 || !slices.Equal(keys[i:i+5], []string{settingTopology, settingDims, settingDegree, settingSeed, "partitions"}) {
		t.Errorf("settings %v", keys)
	}
}

// Dimensions that cannot hold a job's communicator are an error at the measurement,
// said when the job is known; at another size they fit.
func TestTopologyDimsAgainstProcs(t *testing.T) {
	p, err := inputs.Parse("s.toml", []byte("[[measurement]]\nname = \"grid\"\nop = \"Neighbor_alltoall\"\nsizes = [8]\ntopology_dims = [3, 0]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Expand(inputs.Job{NProcs: 4}); err == nil || err.Error() != `s.toml:1:3: measurement "grid": topology "cart": dimensions 3x0 cannot hold 4 processes: change topology_dims (0 lets MPI_Dims_create choose) or procs` {
		t.Errorf("4 processes: %v", err)
	}
	ex, err := p.Expand(inputs.Job{NProcs: 6})
	if err != nil || len(ex.Points) != 1 {
		t.Fatalf("6 processes: %v", err)
	}
	// The first size that cannot be laid out is said, before any other measurement's
	// problem, and the measurement's further sizes are not planned.
	p, err = inputs.Parse("s.toml", []byte("[[measurement]]\nname = \"grid\"\nop = \"Neighbor_alltoall\"\nsizes = [8]\nprocs = [2, 3, 5]\ntopology_dims = [2, 0]\n"+
		"[[measurement]]\nname = \"bc\"\nop = \"Bcast\"\nsizes = [8]\nprocs = [2]\nroot = 3\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Expand(inputs.Job{NProcs: 6})
	want := `s.toml:1:3: measurement "grid": topology "cart": dimensions 2x0 cannot hold 3 processes: change topology_dims (0 lets MPI_Dims_create choose) or procs` + "\n" +
		`s.toml:7:3: measurement "bc": root 3 is not a rank of its 2-process communicators (procs): lower root or raise procs`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// topology_dims whose product passes what a job may have are refused at their key,
// never wrapped into a small number that passes the checks nor into a panic (a
// product wrapped to 0 divided by zero); within the bound, the job's size says.
func TestDimsDoNotOverflow(t *testing.T) {
	const m = "[[measurement]]\nname = \"m\"\n"
	for _, c := range []struct{ name, text, want string }{
		{"topology_dims in a measurement", m + "op = \"Neighbor_alltoall\"\nsizes = [8]\ntopology_dims = [1048576, 1048576, 1048576, 1048576]\n",
			"s.toml:5:17: measurement 1: topology_dims: dimensions 1048576x1048576 make a grid of more than 1048576 processes, the most a job may have"},
		{"topology_dims in [settings], one chosen", "[settings]\ntopology_dims = [1048576, 1048576, 1048576, 1048576, 0]\n" + m + "op = \"Neighbor_alltoall\"\nsizes = [8]\n",
			"s.toml:2:17: settings.topology_dims: dimensions 1048576x1048576 make a grid of more than 1048576 processes"},
		{"topology_dims within the bound, not the job", m + "op = \"Neighbor_alltoall\"\nsizes = [8]\ntopology_dims = [1024, 1024, 0]\n",
			`measurement "m": topology "cart": dimensions 1024x1024x0 cannot hold 2 processes`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := inputs.Parse("s.toml", []byte(c.text))
			if err == nil {
				_, err = p.Expand(inputs.Job{NProcs: 2})
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v\nwant %s", err, c.want)
			}
		})
	}
}

// A topology setting that does not fit is an error at its key, where it was given (the
// measurement's or [settings]'), in a suite and as a flag; fitting, it passes.
func TestSettingsThatDoNotFit(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"[settings]\ntopology = \"ring\"\ntopology_dims = [2, 0]\n[[measurement]]\nname = \"a\"\nop = \"Neighbor_alltoall\"\nsizes = [8]\n",
			`s.toml:3:17: settings.topology_dims: Neighbor_alltoall: topology "ring" has no grid: topology_dims applies to cart, stencil_2d and stencil_3d`},
		{"[[measurement]]\nname = \"a\"\nop = \"Pingpong_Send_Recv\"\nsizes = [8]\ntopology_seed = 3\n",
			`s.toml:5:17: measurement 1: topology_seed: Pingpong_Send_Recv does not use it: topology_seed applies to random graphs (topology = "random") of the neighbourhood collectives`},
	} {
		if _, err := inputs.Parse("s.toml", []byte(c.text)); err == nil || err.Error() != c.want {
			t.Errorf("got %v\nwant %s", err, c.want)
		}
	}
	p, err := inputs.Parse("s.toml", []byte("[settings]\ntopology = \"random\"\ntopology_degree = 3\ntopology_seed = 7\n[[measurement]]\nname = \"a\"\nop = \"Neighbor_alltoall\"\nsizes = [8]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s := p.Measurements[0].Settings; kind(s) != TopoRandom || degree(s) != 3 || seed(s) != 7 || dims(s) != nil {
		t.Errorf("%s %d %d %v", kind(s), degree(s), seed(s), dims(s))
	}
	line := inputs.OneLine{Ops: []string{"Neighbor_alltoall"}, Settings: [][2]string{{"topology", "ring"}, {"topology_dims", "2,0"}}}
	text, err := line.Suite()
	if err == nil {
		_, err = inputs.ParseOneLine(text)
	}
	if want := `skampi run: --topology-dims: Neighbor_alltoall: topology "ring" has no grid`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// Every suite in testdata/bad is refused with exactly the text of its .err file.
func TestBadSuites(t *testing.T) { familytest.BadSuites(t) }
