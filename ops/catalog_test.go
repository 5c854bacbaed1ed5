package ops

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestCatalogue(t *testing.T) {
	all := All()
	families := map[string]int{}
	for _, in := range all {
		families[in.Family]++
	}
	// Invariants, not counts: every name once, every family a known one and none empty
	// (adding an operation changes no number here).
	names := map[string]bool{}
	for _, n := range Names() {
		names[n] = true
	}
	if len(Names()) != len(all) || len(names) != len(all) {
		t.Fatalf("%d ops, %d names, %d distinct", len(all), len(Names()), len(names))
	}
	// The families are the ones the catalogue registers: a family's name is a
	// lower-case word (letters and digits) or words joined by '-' (it names figures and files), and an
	// OpenSHMEM family ("shmem…") holds OpenSHMEM operations only, an MPI family MPI
	// operations only (the self-tests test both).
	family := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	if len(families) == 0 {
		t.Error("no family")
	}
	for f := range families {
		if !family.MatchString(f) {
			t.Errorf("family %q: not a lower-case name", f)
		}
	}
	for _, in := range all {
		if in.Family != "selftest" && in.SHMEM != strings.HasPrefix(in.Family, "shmem") {
			t.Errorf("%s: OpenSHMEM %v in family %s", in.Name, in.SHMEM, in.Family)
		}
	}
	for _, in := range all {
		if got, ok := Lookup(in.Name); !ok || got.Name != in.Name {
			t.Errorf("lookup %s", in.Name)
		}
		if in.Description == "" || in.Directions < 1 {
			t.Errorf("%s: incomplete %+v", in.Name, in)
		}
		if b, ok := Lookup(in.Beside); in.Beside != "" && (!ok || b.Family == in.Family || b.Beside != "") {
			t.Errorf("%s: beside %q, which is not an op of another family", in.Name, in.Beside)
		}
		// A windowed op whose time is one call of its step (the complete after
		// `window` puts) moves no data in its time: it has no bandwidth. A step of
		// fixed messages may have one (IMB's Exchange); a file's read or write moves
		// msg_bytes per process in its time.
		if (in.Windowed && !in.CallTimed && !in.Bandwidth) || (in.Bandwidth && in.CallTimed && !in.IO) || (in.IO && !in.NoData && !in.Bandwidth) {
			t.Errorf("%s: windowed ops whose time is the whole step report a bandwidth, call-timed ones none", in.Name)
		}
		// Collectives, blocking or not, are called once per repetition (back to back
		// they pipeline) and timed by the slowest rank; a local operation (Reduce_local)
		// has nothing to pipeline: many calls per repetition. What else involves every
		// rank may be called over and over: messages among all the ranks (the
		// point-to-point family's exchanges, shifts and random traffic), a one-sided
		// operation (a lock taken again and again) or an OpenSHMEM one. No list of the
		// collective families: a new one is held to the rule as it is.
		once := in.SingleShot || in.Local
		if once && (in.Pattern != PatternAll || in.Reduce != ReduceMax) || in.Local && in.SingleShot {
			t.Errorf("%s: collectives involve every rank, one call per repetition, time of the slowest", in.Name)
		}
		repeated := in.Family == "pt2pt" || in.OneSided || in.SHMEM
		if in.Pattern == PatternAll && !once && !repeated || in.Family == "pt2pt" && once {
			t.Errorf("%s: an MPI operation of every rank, not one-sided, is a collective called once per repetition unless it is point-to-point traffic", in.Name)
		}
	}
	if p := Names(); !slices.IsSorted(p) {
		t.Error("names unsorted")
	}
	if _, ok := Lookup("pingpong_send_recv"); ok {
		t.Error("lookup is exact")
	}
}

// The catalogue's order is its sections' keys', not the order Go initialises the files
// in: the sections registered in reverse make the same catalogue. Two sections at one
// key, an empty one or a name in two are refused, and a section registered after the
// catalogue is made is an error, not an operation silently missing.
func TestCatalogueOrder(t *testing.T) {
	all := All()
	if len(sections) < 2 {
		t.Fatalf("%d sections", len(sections))
	}
	reversed := slices.Clone(sections)
	slices.Reverse(reversed)
	got, err := order(reversed)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(all) {
		t.Fatalf("reversed: %d operations, want %d", len(got), len(all))
	}
	for i := range got {
		if got[i].Name != all[i].Name || !slices.Equal(got[i].Panels, all[i].Panels) {
			t.Fatalf("reversed: operation %d is %s %v, want %s %v", i, got[i].Name, got[i].Panels, all[i].Name, all[i].Panels)
		}
	}
	a, b := Info{Name: "A"}, Info{Name: "B"}
	for _, c := range []struct {
		why  string
		secs []section
	}{
		{"one key twice", []section{{1, []Info{a}}, {1, []Info{b}}}},
		{"an empty section", []section{{1, []Info{a}}, {2, nil}}},
		{"a name twice", []section{{1, []Info{a}}, {2, []Info{b, a}}}},
	} {
		if _, err := order(c.secs); err == nil {
			t.Errorf("%s: no error", c.why)
		}
	}
	if got, err := order([]section{{2, []Info{b}}, {1, []Info{a}}}); err != nil || len(got) != 2 || got[0].Name != "A" {
		t.Errorf("two sections: %v %v", got, err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("a section registered after the catalogue was made")
			}
		}()
		register(1<<30, []Info{{Name: "Late"}})
	}()
	if _, ok := Lookup("Late"); ok {
		t.Error("a late section in the catalogue")
	}
}

func TestRolesAndBytes(t *testing.T) {
	pp, _ := Lookup("Pingpong_Send_Recv")
	pair := [2]int{2, 5}
	if r, peer := pp.RoleOf(2, 8, pair); r != Initiator || peer != 5 {
		t.Errorf("rank 2: %v %d", r, peer)
	}
	if r, peer := pp.RoleOf(5, 8, pair); r != Responder || peer != 2 {
		t.Errorf("rank 5: %v %d", r, peer)
	}
	if r, _ := pp.RoleOf(0, 8, pair); r != Idle {
		t.Errorf("rank 0: %v", r)
	}
	if p := pp.Participants(8, pair); !slices.Equal(p, []int{2, 5}) {
		t.Errorf("participants %v", p)
	}
	mp, _ := Lookup("Multipair_Bandwidth")
	if p := mp.Participants(5, pair); !slices.Equal(p, []int{0, 1, 2, 3}) {
		t.Errorf("multipair participants %v", p)
	}
	for rank, want := range map[int][2]int{0: {int(Initiator), 2}, 1: {int(Initiator), 3}, 2: {int(Responder), 0}, 3: {int(Responder), 1}, 4: {int(Idle), -1}} {
		if r, peer := mp.RoleOf(rank, 5, pair); int(r) != want[0] || peer != want[1] {
			t.Errorf("multipair rank %d: %v %d", rank, r, peer)
		}
	}
	bw, _ := Lookup("Bandwidth_Isend_Irecv")
	bibw, _ := Lookup("Bibandwidth_Isend_Irecv")
	if bw.BytesMoved(1024, 16, 1) != 16*1024 || bibw.BytesMoved(1024, 16, 1) != 2*16*1024 || mp.BytesMoved(1024, 16, mp.Pairs(5)) != 2*16*1024 {
		t.Error("bytes moved")
	}
	a2a, _ := Lookup("Alltoall")
	if bw.BufferBytes(1024, 16, 4) != 16*1024 || pp.BufferBytes(1024, 16, 4) != 1024 || a2a.BufferBytes(1024, 16, 4) != 4096 {
		t.Error("buffer bytes")
	}
}

func TestDenyList(t *testing.T) {
	if r, ok := Denied("Shmem_Atomic_Compare_Swap_Int", "", "Open MPI v4.1.4, package: Debian OpenMPI", 2); !ok || !strings.Contains(r, "stack smashing") {
		t.Errorf("4.1.4 compare-swap: %q %v", r, ok)
	}
	if _, ok := Denied("Shmem_Atomic_Compare_Swap_Int", "", "Open MPI v4.1.5", 2); ok {
		t.Error("4.1.5 is not known to be broken")
	}
	// The 64-bit compare-and-swap works in 4.1.4 (measured with --allow-broken).
	if _, ok := Denied("Shmem_Atomic_Compare_Swap_Long", "", "Open MPI v4.1.4", 2); ok {
		t.Error("the long compare-and-swap denied")
	}
	if _, ok := Denied("Shmem_Atomic_Compare_Swap_Int", "", "Open MPI v4.1.45", 2); ok {
		t.Error("version match must not be a prefix match")
	}
	if _, ok := Denied("Selftest_Crash", "", "MPICH Version: 4.0", 2); !ok {
		t.Error("the crash self-test is denied everywhere")
	}
	if _, ok := Denied("Pingpong_Send_Recv", "", "Open MPI v4.1.4", 2); ok {
		t.Error("ping-pong denied")
	}
	// An entry for jobs beyond a size: Open MPI 5.0's partitioned ping-pong hangs with
	// idle processes beside the pair, not on 2.
	if _, ok := Denied("Pingpong_Partitioned", "", "Open MPI v5.0.7", 2); ok {
		t.Error("partitioned ping-pong denied on 2 processes")
	}
	if _, ok := Denied("Pingpong_Partitioned", "", "Open MPI v5.0.7", 4); !ok {
		t.Error("partitioned ping-pong on 4 processes of Open MPI 5.0.7 not denied")
	}
	if _, ok := Denied("Pingpong_Partitioned", "", "MPICH 4.2.1", 4); ok {
		t.Error("MPICH's partitioned ping-pong denied")
	}
	// A method-scoped entry matches its method only.
	saved := denyList
	defer func() { denyList = saved }()
	denyList = append(denyList, Denial{Op: "Put", Method: "pscw", Library: regexp.MustCompile(`Example MPI 1\.0\b`), Reason: "hangs"})
	if _, ok := Denied("Put", "pscw", "Example MPI 1.0", 2); !ok {
		t.Error("Put pscw not denied")
	}
	if _, ok := Denied("Put", "fence", "Example MPI 1.0", 2); ok {
		t.Error("Put fence denied by a pscw entry")
	}
	// Every entry names a catalogue operation, and a method of it where it names one:
	// an entry for a renamed operation would deny nothing.
	for _, d := range DenyList() {
		if d.Reason == "" || d.Op == "" {
			t.Errorf("undocumented entry %+v", d)
		}
		in, ok := Lookup(d.Op)
		if _, has := in.Method(d.Method); !ok || d.Method != "" && !has {
			t.Errorf("the deny-list names %s, method %q: not in the catalogue", d.Op, d.Method)
		}
	}
}

func TestCatalogueDescribesBehaviour(t *testing.T) {
	for _, in := range All() {
		if in.Kernel == "" || in.Kernel != strings.ToLower(in.Kernel) {
			t.Errorf("%s: kernel %q", in.Name, in.Kernel)
		}
		// The all-to-all throughput, (nprocs-1) * msg_bytes / time, is of an operation
		// of every rank exchanging msg_bytes with each other, timed whole; a persistent
		// collective has its blocking form's (a non-blocking one: its mirror test).
		if in.Throughput && (in.Pattern != PatternAll || !in.PerProcess || in.CallTimed) {
			t.Errorf("%s: a throughput, of an operation that is not a timed exchange of every rank with each other", in.Name)
		}
		if b, ok := Lookup(strings.TrimSuffix(in.Name, "_persistent")); in.Persistent && in.Pattern == PatternAll && !in.CallTimed &&
			(!ok || b.Family != "coll" || b.Throughput != in.Throughput || b.PerProcess != in.PerProcess) {
			t.Errorf("%s: not its blocking collective %s (%v) with its throughput", in.Name, b.Name, ok)
		}
		if in.NodeAware && in.Pattern != PatternAll {
			t.Errorf("%s: node-aware kernels run on a communicator", in.Name)
		}
		for _, m := range in.Methods {
			if m.Kernel == "" || m.Description == "" {
				t.Errorf("%s, method %s: incomplete %+v", in.Name, m.Name, m)
			}
			if m.Subtract != "" {
				if _, ok := Lookup(m.Subtract); !ok {
					t.Errorf("%s, method %s subtracts unknown %q", in.Name, m.Name, m.Subtract)
				}
			}
		}
	}
	// The operations whose records carry a throughput, pinned where the figures and
	// the papers read it: MPI's all-to-alls and OpenSHMEM's, not a gather.
	for name, want := range map[string]bool{"Alltoall": true, "Alltoallv": true, "Alltoallw": true, "Ialltoall": true,
		"Alltoall_persistent": true, "Transpose_Put": true, "Allgather": false, "Gather": false, "Alltoall_init": false} {
		if in, ok := Lookup(name); !ok || in.Throughput != want {
			t.Errorf("%s: throughput %v, want %v", name, in.Throughput, want)
		}
	}
	bcast, _ := Lookup("Bcast")
	if got := bcast.MethodNames(); !slices.Equal(got, []string{"barrier", "sync", "rounds", "ack", "osu"}) {
		t.Errorf("broadcast methods %v", got)
	}
	// OSU's reduction for every blocking collective of the catalogue's timed one call at
	// a time, and for no operation timed otherwise (a family's collectives, made by
	// Collective, have it by the same rule).
	for _, in := range append(slices.Clone(collOps), collV...) {
		if _, ok := in.Method("osu"); ok != (!in.CallTimed && !in.Local) {
			t.Errorf("%s: method osu %v, want it %v", in.Name, ok, !ok)
		}
	}
	for _, in := range All() {
		m, ok := in.Method("osu")
		if ok && (!m.RankMean || m.Kernel != in.Kernel || in.Pattern != PatternAll || in.CallTimed || in.Local) {
			t.Errorf("%s: method osu %+v on an operation that is not a blocking collective timed call by call", in.Name, m)
		}
	}
	if bcast.KernelFor("") != "bcast" || bcast.KernelFor("ack") != "bcast_ack" || bcast.KernelFor("sync") != "bcast" {
		t.Errorf("kernels of the methods: %q %q %q", bcast.KernelFor(""), bcast.KernelFor("ack"), bcast.KernelFor("sync"))
	}
	if m, _ := bcast.Method("ack"); !m.RootTimed || m.WindowSync || m.Subtract != "" {
		t.Errorf("ack %+v", m)
	}
	if m, _ := bcast.Method("barrier"); m.Subtract != "Barrier" {
		t.Errorf("barrier %+v", m)
	}
	if _, ok := bcast.Method("nope"); ok {
		t.Error("unknown method found")
	}
}

// Every non-blocking collective has a blocking form of the same name without the I,
// with the same buffers, so a suite can put them side by side.
func TestNonblockingCollectivesMirrorBlocking(t *testing.T) {
	kinds := map[Pattern]int{}
	for _, in := range All() {
		// The family and the flag say the same: an MPI operation is non-blocking if
		// and only if it is in the non-blocking family.
		if in.Family == "nonblocking" && (!in.Nonblocking || in.SHMEM) {
			t.Errorf("%s: in the non-blocking family, not a non-blocking MPI operation", in.Name)
		}
		if !in.Nonblocking || in.SHMEM {
			continue
		}
		kinds[in.Pattern]++
		if in.Family != "nonblocking" || in.Methods != nil || in.Windowed || in.Bandwidth {
			t.Errorf("%s: %+v", in.Name, in)
		}
		if in.Pattern != PatternAll {
			continue
		}
		blocking := strings.TrimPrefix(in.Name, "I")
		b, ok := Lookup(strings.ToUpper(blocking[:1]) + blocking[1:])
		if !ok {
			t.Errorf("%s: no blocking form", in.Name)
			continue
		}
		if b.PerProcess != in.PerProcess || b.Reduction != in.Reduction || b.Rooted != in.Rooted || b.Throughput != in.Throughput ||
			!in.SingleShot || in.Reduce != ReduceMax {
			t.Errorf("%s differs from %s: %+v vs %+v", in.Name, b.Name, in, b)
		}
	}
	// Whatever their number, the family holds point-to-point operations and
	// collectives (the neighbourhood collectives' are families/neighbor's).
	if kinds[PatternPair] == 0 || kinds[PatternAll] == 0 {
		t.Errorf("non-blocking operations by pattern %v: want point-to-point and collectives", kinds)
	}
	if PhaseCompute.String() != "compute" || Phase(9).String() != "phase?" {
		t.Error(PhaseCompute, Phase(9))
	}
}

// A retired method name is no method of its operation now, and says, quoted first,
// which method took its sequence (one-sided operations' modes before OSU's names).
func TestRetiredMethods(t *testing.T) {
	for _, in := range All() {
		for old, now := range in.RetiredMethods {
			if _, ok := in.Method(old); ok {
				t.Errorf("%s: %q is retired and a method", in.Name, old)
			}
			name, _, _ := strings.Cut(strings.Trim(now, `"`), `"`)
			if _, ok := in.Method(name); !ok || !strings.HasPrefix(now, `"`) {
				t.Errorf("%s: %q is now %s, which is not a method", in.Name, old, now)
			}
		}
	}
}

// Every collective is in one figure panel, and no panel holds more than 8 operations.
func TestCollectivePanels(t *testing.T) {
	n := map[string]int{}
	for _, in := range All() {
		if in.Family == "coll" && len(in.Panels) != 1 {
			t.Errorf("%s in panels %v", in.Name, in.Panels)
		}
		for _, p := range in.Panels {
			n[p]++
		}
	}
	for p, k := range n {
		if k > 8 {
			t.Errorf("panel %s: %d operations", p, k)
		}
	}
}

// A panel names catalogue operations only, each once, and an operation is in the
// panels that name it: a misspelt name is an error here, not an operation silently
// left out of its figure.
func TestPanelsNameCatalogueOps(t *testing.T) {
	if len(panels) == 0 {
		t.Fatal("no figure panel")
	}
	seen := map[string]bool{}
	for _, p := range panels {
		if seen[p.name] || len(p.ops) == 0 || len(PanelOps(p.name)) != len(p.ops) {
			t.Errorf("panel %q: twice, empty or not found", p.name)
		}
		seen[p.name] = true
		for i, name := range p.ops {
			in, ok := Lookup(name)
			if !ok || !slices.Contains(in.Panels, p.name) {
				t.Errorf("panel %s names %q, which is not a catalogue operation in it", p.name, name)
			}
			if slices.Contains(p.ops[:i], name) {
				t.Errorf("panel %s names %s twice", p.name, name)
			}
		}
	}
	if PanelOps("no such panel") != nil {
		t.Error("an unknown panel has operations")
	}
}

// What the checks before a run read of an operation: who it needs, what it takes, what
// symmetric memory a point of it allocates (the prepare functions of
// families/shmem/kernels).
func TestOperationNeeds(t *testing.T) {
	for _, in := range All() {
		if (in.Heap != HeapNone) != in.SHMEM {
			t.Errorf("%s: a symmetric heap layout for OpenSHMEM operations, and only them", in.Name)
		}
		if (in.MinProcs > 0) != (in.MinProcsWhy != "") || in.MinProcs > 0 && in.Pattern != PatternAll {
			t.Errorf("%s: MinProcs %d (%q) on a collective, with its reason", in.Name, in.MinProcs, in.MinProcsWhy)
		}
		if in.Combines && !in.Datatyped || in.Datatyped && in.SHMEM || in.NoData && (in.Datatyped || in.Windowed) {
			t.Errorf("%s: combines %v datatyped %v no data %v", in.Name, in.Combines, in.Datatyped, in.NoData)
		}
		if in.LockHold && in.MinProcs < 2 || in.AtomicRate && in.MinProcs < 2 {
			t.Errorf("%s: a held lock or a target hit by the others needs 2 processes", in.Name)
		}
		// 1:N: one sender thread's round trips on a pair, its time the sender's.
		if in.OneToN && !(in.Threaded && in.RoundTrip && in.Pattern == PatternPair && in.Reduce == ReduceFirst && !in.Windowed) {
			t.Errorf("%s: a 1:N operation is a multi-threaded round trip of a pair timed by its initiator", in.Name)
		}
	}
	for _, c := range []struct {
		op            string
		size          int64
		window, procs int
		want          int64
	}{
		{"Pingpong_Send_Recv", 1 << 20, 1, 2, 0},
	} {
		in, _ := Lookup(c.op)
		if got := in.SymmetricBytes(c.size, c.window, c.procs); got != c.want {
			t.Errorf("%s(%d, window %d, %d PEs) = %d, want %d", c.op, c.size, c.window, c.procs, got, c.want)
		}
	}
	// A windowed OpenSHMEM put's slots (families/shmem's Shmem_Put) do not overflow.
	if put := (Info{Windowed: true, SHMEM: true, Heap: HeapSlots}); put.SymmetricBytes(1<<50, 1<<16, 2) <= 0 {
		t.Error("overflow")
	}
}

// The max-latency probe is a catalogue operation: a round trip between a pair.
func TestLatencyProbe(t *testing.T) {
	in, ok := Lookup(LatencyProbe)
	if !ok || in.Pattern != PatternPair || !in.RoundTrip {
		t.Errorf("LatencyProbe %q: %+v", LatencyProbe, in)
	}
}
