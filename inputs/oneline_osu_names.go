package inputs

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// OSU benchmark names as operations of `skampi run`: `skampi run osu_latency` is the
// skampi line docs/osu-imb.md gives for it, with OSU 7.4's defaults where a setting
// says the same (its window of 64, its collectives' sizes up to 1 MiB and type char,
// every process). OSU's iteration counts (10000 below 8 KiB and 1000 above for
// osu_latency) are one timed loop; skampi repeats loops until its stop rule instead,
// and -i N still gives OSU's count. This table is the one place the names live; a
// unit test holds it to the catalogue and to docs/osu-imb.md.

// OSUBenchmark is one OSU benchmark binary measured by skampi operations.
type OSUBenchmark struct {
	Name string
	Ops  []string
	// MaxSize is OSU's -m MAX the benchmark runs to ("": skampi's default sizes, one
	// element to 4 MiB as the job holds them, which OSU's point-to-point ones share).
	MaxSize  string
	Methods  []string
	Settings [][2]string // suite keys and values, in the order they are said
	// Breakdown: what the benchmark prints is the breakdown's (an overlap), so the
	// table shows it (run's --breakdown).
	Breakdown bool
}

// osuColl is an OSU collective: every process, OSU's sizes and type.
func osuColl(name, op string, methods ...string) OSUBenchmark {
	return OSUBenchmark{Name: name, Ops: []string{op}, MaxSize: "1MiB", Methods: methods,
		Settings: [][2]string{{"procs", "all"}, {"datatype", "char"}}}
}

func osuPt2pt(name, op string, settings ...[2]string) OSUBenchmark {
	return OSUBenchmark{Name: name, Ops: []string{op}, Settings: settings}
}

var (
	window64 = [2]string{"window", "64"}
	allProcs = [2]string{"procs", "all"}
)

var osuBenchmarks = []OSUBenchmark{
	osuPt2pt("osu_latency", "Pingpong_Send_Recv"),
	osuPt2pt("osu_bw", "Bandwidth_Isend_Irecv", window64),
	osuPt2pt("osu_bibw", "Bibandwidth_Isend_Irecv", window64),
	osuPt2pt("osu_mbw_mr", "Multipair_Bandwidth", window64),
	osuPt2pt("osu_multi_lat", "Par_Pingpong_Send_Recv"),
	osuPt2pt("osu_latency_persistent", "Pingpong_Persistent"),
	osuPt2pt("osu_bw_persistent", "Bandwidth_Persistent", window64),
	osuPt2pt("osu_bibw_persistent", "Bibandwidth_Persistent", window64),

	osuColl("osu_allgather", "Allgather", "osu"),
	osuColl("osu_allgatherv", "Allgatherv", "osu"),
	osuColl("osu_allreduce", "Allreduce", "osu"),
	osuColl("osu_alltoall", "Alltoall", "osu"),
	osuColl("osu_alltoallv", "Alltoallv", "osu"),
	osuColl("osu_alltoallw", "Alltoallw", "osu"),
	{Name: "osu_barrier", Ops: []string{"Barrier"}, Methods: []string{"osu"}, Settings: [][2]string{allProcs}},
	osuColl("osu_bcast", "Bcast", "osu"),
	osuColl("osu_gather", "Gather", "osu"),
	osuColl("osu_gatherv", "Gatherv", "osu"),
	osuColl("osu_reduce", "Reduce", "osu"),
	osuColl("osu_reduce_scatter", "Reduce_scatter", "osu"),
	osuColl("osu_scatter", "Scatter", "osu"),
	osuColl("osu_scatterv", "Scatterv", "osu"),

	osuColl("osu_iallgather", "Iallgather"),
	osuColl("osu_iallgatherv", "Iallgatherv"),
	osuColl("osu_iallreduce", "Iallreduce"),
	osuColl("osu_ialltoall", "Ialltoall"),
	osuColl("osu_ialltoallv", "Ialltoallv"),
	osuColl("osu_ialltoallw", "Ialltoallw"),
	{Name: "osu_ibarrier", Ops: []string{"Ibarrier"}, Settings: [][2]string{allProcs}},
	osuColl("osu_ibcast", "Ibcast"),
	osuColl("osu_igather", "Igather"),
	osuColl("osu_igatherv", "Igatherv"),
	osuColl("osu_ireduce", "Ireduce"),
	osuColl("osu_ireduce_scatter", "Ireduce_scatter"),
	osuColl("osu_iscatter", "Iscatter"),
	osuColl("osu_iscatterv", "Iscatterv"),
}

// osuElsewhere are OSU benchmarks no one skampi line measures, each with what comes
// nearest.
var osuElsewhere = map[string]string{
	"osu_latency_mp": "not measured (a skampi rank may not fork without exec); the ping-pong itself is osu_latency (Pingpong_Send_Recv)",
	"osu_init":       "start-up is not an operation: skampi startup --np 2,4,8 times MPI_Init",
	"osu_hello":      "start-up is not an operation: skampi startup times a job that only starts and ends",
}

// RegisterOSU adds an OSU benchmark a family's operations measure (osu_latency_mt:
// families/mt), after the table's; its package's init calls it. A name taken is a
// programming error.
func RegisterOSU(b OSUBenchmark) {
	for _, o := range osuBenchmarks {
		if o.Name == b.Name {
			panic("inputs.RegisterOSU: " + b.Name + " is in the table")
		}
	}
	osuBenchmarks = append(osuBenchmarks, b)
}

// RegisterOSUElsewhere adds an OSU benchmark of a family's that no one skampi line
// measures, with what comes nearest (osu_oshm_atomics: families/shmem); its
// package's init calls it. A name taken is a programming error.
func RegisterOSUElsewhere(name, why string) {
	if _, taken := osuElsewhere[name]; taken || slices.ContainsFunc(osuBenchmarks, func(b OSUBenchmark) bool { return b.Name == name }) {
		panic("inputs.RegisterOSUElsewhere: " + name + " is in the table")
	}
	osuElsewhere[name] = why
}

// OSUBenchmarks is every OSU benchmark name skampi run takes, in the table's order.
func OSUBenchmarks() []OSUBenchmark { return append([]OSUBenchmark(nil), osuBenchmarks...) }

// OSUElsewhere is every OSU benchmark name with no one skampi line, sorted.
func OSUElsewhere() []string {
	out := make([]string, 0, len(osuElsewhere))
	for n := range osuElsewhere {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// LookupOSU resolves the operations of a command line: an OSU benchmark name, alone,
// is its operations; a line without one is returned as it is (nil benchmark). An OSU
// name among other operations, one skampi has no line for, or an unknown osu_ name
// is an error saying what to run instead.
func LookupOSU(args []string) (*OSUBenchmark, []string, error) {
	for _, a := range args {
		if !strings.HasPrefix(a, "osu_") {
			continue
		}
		if why, ok := osuElsewhere[a]; ok {
			return nil, nil, fmt.Errorf("%s: %s", a, why)
		}
		var b *OSUBenchmark
		for i := range osuBenchmarks {
			if osuBenchmarks[i].Name == a {
				b = &osuBenchmarks[i]
			}
		}
		if b == nil {
			return nil, nil, fmt.Errorf("%s: not an OSU 7.4 benchmark skampi knows (docs/osu-imb.md maps them; skampi list shows the operations)", a)
		}
		if len(args) > 1 {
			return nil, nil, fmt.Errorf("%s: an OSU benchmark name runs alone (its settings are its own); name its operations instead: skampi run %s %s", a, strings.Join(b.Ops, " "), strings.Join(without(args, a), " "))
		}
		c := *b
		return &c, append([]string(nil), b.Ops...), nil
	}
	return nil, args, nil
}

func without(list []string, x string) []string {
	var out []string
	for _, s := range list {
		if s != x {
			out = append(out, s)
		}
	}
	return out
}

// ApplyOSUBenchmark gives the line the benchmark's settings that the line does not
// set itself (a flag given wins), and returns the one line that says what the name
// ran as, for the terminal.
func (o *OneLine) ApplyOSUBenchmark(b OSUBenchmark) string {
	words := []string{"skampi run"}
	words = append(words, b.Ops...)
	if b.MaxSize != "" && o.Sizes == "" && o.Step == "" && o.OSUSizes == "" {
		o.OSUSizes = b.MaxSize
		words = append(words, "-m", b.MaxSize)
	}
	if len(b.Methods) > 0 && len(o.Methods) == 0 {
		o.Methods = append([]string(nil), b.Methods...)
		words = append(words, "--method", strings.Join(b.Methods, ","))
	}
	for _, kv := range b.Settings {
		if o.has(kv[0]) {
			continue
		}
		o.Settings = append(o.Settings, kv)
		if o.Notes == nil {
			o.Notes = map[string]string{}
		}
		o.Notes[kv[0]] = b.Name + "'s default"
		words = append(words, flagName(kv[0]), kv[1])
	}
	if b.Breakdown {
		words = append(words, "--breakdown")
	}
	iters := "; iterations by skampi's stop rule, -i N for OSU's fixed count"
	if o.has("iterations") {
		iters = ""
	}
	return fmt.Sprintf("%s is %s (OSU 7.4's defaults%s)", b.Name, strings.Join(words, " "), iters)
}

// has says whether the line sets the suite key.
func (o OneLine) has(key string) bool {
	for _, kv := range o.Settings {
		if kv[0] == key {
			return true
		}
	}
	return false
}
