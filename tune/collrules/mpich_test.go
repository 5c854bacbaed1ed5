package collrules

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// selectAlg walks a selection tree as MPICH's csel does for an intra-communicator
// call, as far as the tests the grafted branches use: it returns the algorithm key,
// or "own" when the walk reaches MPICH's own branch (own, as JSON).
func selectAlg(t *testing.T, tr *Tree, own string, coll string, np int, size int64) string {
	t.Helper()
	node := tr
	for {
		if string(node.MarshalIndent()) == own {
			return "own"
		}
		next := -1
		for i, k := range node.Keys {
			name, val, _ := strings.Cut(k, "=")
			if le := strings.Index(k, "<="); le > 0 {
				name, val = k[:le], k[le+2:]
				n, err := strconv.ParseInt(val, 10, 64)
				if err != nil {
					t.Fatalf("key %q", k)
				}
				switch name {
				case "comm_size":
					if int64(np) <= n {
						next = i
					}
				case "avg_msg_size", "total_msg_size":
					if size <= n {
						next = i
					}
				default:
					return "own"
				}
			} else {
				switch {
				case name == "algorithm":
					return k
				case val == "any":
					next = i
				case name == "collective" && val == coll, k == "comm_type=intra":
					next = i
				case name == "collective", k == "comm_type=inter":
				default:
					return "own"
				}
			}
			if next >= 0 {
				break
			}
		}
		if next < 0 {
			t.Fatalf("no branch for %s np %d size %d in %v", coll, np, size, node.Keys)
		}
		node = node.Sub[next]
	}
}

func TestMPICHTreeNamesTheWinnerOnlyWhereItWins(t *testing.T) {
	lib := mpichLib(t)
	rd := Choice{Algorithm: Algorithm{Name: "recursive_doubling"}}
	r, err := FromVerdict(MPICH, twiceAsFast(rd))
	if err != nil {
		t.Fatal(err)
	}
	tree, err := r.MPICHTree(lib)
	if err != nil {
		t.Fatal(err)
	}
	out := tree.MarshalIndent()
	var any map[string]any
	if err := json.Unmarshal(out, &any); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	back, err := ParseTree(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := back.Check(lib.Names); err != nil {
		t.Error(err)
	}
	own := string(lib.Tree.Get("collective=allreduce").Get("comm_type=intra").MarshalIndent())
	for _, np := range []int{2, 3, 4, 5, 8} {
		for _, b := range append(sizes(), 0, 1000, 65537, 1<<30) {
			got := selectAlg(t, back, own, "allreduce", np, b)
			want := "own"
			if np == 4 && inRange(b) {
				want = "algorithm=MPIR_Allreduce_intra_recursive_doubling"
			}
			if got != want {
				t.Errorf("np %d, %d B: %s, want %s", np, b, got, want)
			}
		}
	}
	// Every other collective is MPICH's own, untouched.
	for i, k := range lib.Tree.Keys {
		if k == "collective=allreduce" {
			continue
		}
		if string(back.Get(k).MarshalIndent()) != string(lib.Tree.Sub[i].MarshalIndent()) {
			t.Errorf("%s changed", k)
		}
	}
	// The intra branch tests exactly 4 processes, MPICH's own on either side.
	intra := back.Get("collective=allreduce").Get("comm_type=intra")
	if got := strings.Join(intra.Keys, " "); got != "comm_size<=3 comm_size<=4 comm_size=any" {
		t.Errorf("intra branch %s", got)
	}
	if got := strings.Join(intra.Sub[1].Keys, " "); got != "avg_msg_size<=1023 avg_msg_size<=65536 avg_msg_size=any" {
		t.Errorf("size tests %s", got)
	}
}

func TestMPICHAlgorithmKeys(t *testing.T) {
	lib := mpichLib(t)
	for _, c := range []struct{ coll, name, want string }{
		{"allreduce", "nb", "algorithm=MPIR_Allreduce_allcomm_nb"},
		{"gatherv", "linear", "algorithm=MPIR_Gatherv_allcomm_linear"},
		{"alltoall", "pairwise_sendrecv_replace", "algorithm=MPIR_Alltoall_intra_pairwise_sendrecv_replace"},
		{"reduce_scatter_block", "recursive_halving", "algorithm=MPIR_Reduce_scatter_block_intra_recursive_halving"},
	} {
		coll, _ := Lookup(c.coll)
		if got, err := lib.AlgorithmKey(coll, c.name); err != nil || got != c.want {
			t.Errorf("%s %s: %s %v", c.coll, c.name, got, err)
		}
	}
	coll, _ := Lookup("barrier")
	// 4.2's name; 4.0.2 has dissemination
	if _, err := lib.AlgorithmKey(coll, "k_dissemination"); err == nil || !strings.Contains(err.Error(), "MPIR_Barrier_intra_dissemination") {
		t.Errorf("k_dissemination in 4.0.2: %v", err)
	}
}

// MPICH 4.2's parameterised algorithms take their parameters in the tree.
func TestMPICHTreeParams(t *testing.T) {
	lib := mpichLib(t)
	lib.Names["algorithm=MPIR_Barrier_intra_k_dissemination"] = true
	ch := Choice{Algorithm: Algorithm{Name: "k_dissemination"}, Params: "k=4"}
	r, err := FromVerdict(MPICH, []Decided{{Collective: "barrier", NP: 8, Ranges: []Range{{From: 0, To: 0, Winner: ch, Recommended: true}}}})
	if err != nil {
		t.Fatal(err)
	}
	tree, err := r.MPICHTree(lib)
	if err != nil {
		t.Fatal(err)
	}
	leaf := tree.Get("collective=barrier").Get("comm_type=intra").Get("comm_size<=8")
	if leaf == nil || leaf.Get("algorithm=MPIR_Barrier_intra_k_dissemination").Get("k=4") == nil {
		t.Errorf("%s", tree.Get("collective=barrier").MarshalIndent())
	}
}

func TestTreeCheckAnyLast(t *testing.T) {
	tr, err := ParseTree([]byte(`{"collective=bcast":{"comm_size=any":{},"comm_size<=4":{}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Check(nil); err == nil {
		t.Error("=any before another key accepted")
	}
	if _, err := ParseTree([]byte(`{"a":1}`)); err == nil {
		t.Error("a number in the tree accepted")
	}
}
