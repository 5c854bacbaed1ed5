package tune

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/skampi/skampi/tune/collrules"
)

func readCatalog(t *testing.T, path string, parse func(string) Catalog) Catalog {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return parse(string(b))
}

func names(algs []collrules.Algorithm) string {
	var s []string
	for _, a := range algs {
		s = append(s, a.Name)
	}
	return strings.Join(s, " ")
}

// What ompi_info of Open MPI 4.1.4 lists (testdata: its output for coll tuned).
func TestCollAlgorithmsOMPI(t *testing.T) {
	algs := CollAlgorithmsOMPI(readCatalog(t, "testdata/ompi_info-4.1.4-coll-tuned.txt", ParseOMPIInfo))
	want := map[string]string{
		"allreduce": "basic_linear nonoverlapping recursive_doubling ring segmented_ring rabenseifner",
		"bcast":     "basic_linear chain pipeline split_binary_tree binary_tree binomial knomial scatter_allgather scatter_allgather_ring",
		"alltoall":  "linear pairwise modified_bruck linear_sync two_proc",
		"barrier":   "linear double_ring recursive_doubling bruck two_proc tree",
		"reduce":    "linear chain pipeline binary binomial in-order_binary rabenseifner",
	}
	for coll, w := range want {
		if got := names(algs[coll]); got != w {
			t.Errorf("%s: %s, want %s", coll, got, w)
		}
	}
	if a := algs["allreduce"][2]; a.ID != 3 || !a.Segmented {
		t.Errorf("allreduce's third: %+v, want recursive_doubling = 3 with a segment size", a)
	}
	if a := algs["barrier"][0]; a.Segmented {
		t.Errorf("barrier has no segment size: %+v", a)
	}
	for coll := range algs {
		if _, err := collrules.Lookup(coll); err != nil {
			t.Errorf("ompi_info names a collective the rules do not know: %v", err)
		}
	}
	if len(algs) != 14 {
		t.Errorf("%d collectives, want the 14 with coll_tuned_<coll>_algorithm", len(algs))
	}
}

// What mpivars of MPICH 4.0.2 and 4.2.1 prints, and what 4.2.0's sources describe
// (testdata: the cvars' descriptions with the line breaks taken out, as 4.0's mpivars
// prints them).
func TestCollAlgorithmsMPICH(t *testing.T) {
	for _, c := range []struct {
		file string
		want map[string]string
	}{
		{"testdata/mpivars-4.0.2-algorithms.txt", map[string]string{
			"barrier":              "nb smp dissemination",
			"bcast":                "binomial nb smp scatter_recursive_doubling_allgather scatter_ring_allgather",
			"gatherv":              "linear nb",
			"allreduce":            "nb smp recursive_doubling reduce_scatter_allgather",
			"alltoall":             "brucks nb pairwise pairwise_sendrecv_replace scattered",
			"alltoallv":            "nb pairwise_sendrecv_replace scattered",
			"reduce":               "binomial nb smp reduce_scatter_gather",
			"reduce_scatter_block": "noncommutative recursive_doubling pairwise recursive_halving nb",
			"scan":                 "nb smp recursive_doubling",
			"neighbor_alltoall":    "nb",
		}},
		// MPICH 4.2.1's mpivars (Debian 13) as it prints: a description's entries on
		// lines of their own, and every variable listed again without a value.
		{"testdata/mpivars-4.2.1.txt", map[string]string{
			"barrier":   "nb smp k_dissemination recexch",
			"bcast":     "binomial nb smp scatter_recursive_doubling_allgather scatter_ring_allgather pipelined_tree tree",
			"allreduce": "nb smp recursive_doubling reduce_scatter_allgather tree recexch ring k_reduce_scatter_allgather",
			"alltoall":  "brucks k_brucks nb pairwise pairwise_sendrecv_replace scattered",
		}},
		{"testdata/mpivars-4.2.0-algorithms-from-cvars.txt", map[string]string{
			"barrier":   "nb smp k_dissemination recexch",
			"allreduce": "nb smp recursive_doubling reduce_scatter_allgather tree recexch ring k_reduce_scatter_allgather",
		}},
	} {
		algs := CollAlgorithmsMPICH(readCatalog(t, c.file, ParseMPIVars))
		for coll, w := range c.want {
			if got := names(algs[coll]); got != w {
				t.Errorf("%s: %s: %s, want %s", c.file, coll, got, w)
			}
		}
		if _, ok := algs["bcast_posix"]; ok {
			t.Errorf("%s: the POSIX layer's variable counted as a collective", c.file)
		}
	}
}

// The sweep's forcing lines for what the catalogue lists.
func TestCollAlgorithmsForce(t *testing.T) {
	algs := CollAlgorithmsOMPI(readCatalog(t, "testdata/ompi_info-4.1.4-coll-tuned.txt", ParseOMPIInfo))
	a := algs["bcast"][6]
	env, err := collrules.ForceEnv(collrules.OpenMPI, "bcast", collrules.Choice{Algorithm: a, SegSize: 8192})
	want := []string{"OMPI_MCA_coll_tuned_use_dynamic_rules=1", "OMPI_MCA_coll_tuned_bcast_algorithm=7", "OMPI_MCA_coll_tuned_bcast_algorithm_segmentsize=8192"}
	if err != nil || !reflect.DeepEqual(env, want) {
		t.Errorf("%v %v", env, err)
	}
}
