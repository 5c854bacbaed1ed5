package mt

import (
	_ "embed"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
)

// The family's settings, and the built-in suite (skampi -i mt).
const (
	settingThreads = "threads"
	settingComm    = "thread_comm"
	settingPinning = "thread_pinning"
)

//go:embed mt.toml
var suite []byte

const threadedOps = "multi-threaded operations (Pingpong_Send_Recv_MT, Bandwidth_MT)"

const pairedOps = "multi-threaded operations of thread pairs (Pingpong_Send_Recv_MT, Bandwidth_MT, ...; not Pingpong_Send_Recv_MT_1toN, whose threads share one communicator and its tags)"

func threaded(m *inputs.Measurement) bool { return m.Op.Threaded }

// pairedThreads: threads in pairs, each keeping its messages apart from the others'
// (not 1:N, whose receiver threads share one communicator and its tags).
func pairedThreads(m *inputs.Measurement) bool { return m.Op.Threaded && !m.Op.OneToN }

func init() {
	inputs.RegisterSetting(inputs.FamilySetting{
		Name:    settingThreads,
		Doc:     "multi-threaded operations (Pingpong_Send_Recv_MT, Bandwidth_MT): threads per rank, each with its partner thread on the other rank; Pingpong_Send_Recv_MT_1toN: the responder's receiver threads, the initiator running one (default 1, at most 64)",
		Default: 1,
		Parse:   inputs.SettingInt(1, ops.MaxThreads),
		Applies: threaded, What: threadedOps,
		Sample: "2",
	})
	inputs.RegisterSetting(inputs.FamilySetting{
		Name:    settingComm,
		Doc:     `multi-threaded operations of thread pairs: "dup" (a communicator of its own for every thread, default) or "tag" (the pair's communicator shared, a tag each)`,
		Default: "dup",
		Parse:   inputs.SettingOneOf(ops.ThreadComms...),
		Applies: pairedThreads, What: pairedOps,
	})
	inputs.RegisterSetting(inputs.FamilySetting{
		Name:    settingPinning,
		Doc:     `multi-threaded operations: "none" (default: where the system puts them) or "core" (thread i pinned to one CPU of its rank's set, in turn; the CPU each ran on is recorded)`,
		Default: "none",
		Parse:   inputs.SettingOneOf(ops.ThreadPinnings...),
		Applies: threaded, What: threadedOps,
	})
	inputs.RegisterBuiltin("mt", suite)
	// osu_latency_mt's default: one sender thread, two receivers.
	inputs.RegisterOSU(inputs.OSUBenchmark{Name: "osu_latency_mt", Ops: []string{"Pingpong_Send_Recv_MT_1toN"},
		Settings: [][2]string{{settingThreads, "2"}}})
	// Every thread sends from and receives into buffers of its own.
	inputs.RegisterMemory(func(pt *inputs.Point, size int64) int64 {
		if !pt.Op().Threaded {
			return 0
		}
		return ops.MulSat(2*max(size, 1), int64(max(1, threads(pt.Settings()))))
	})
}

// threads, comm and pinning are the point's settings of the family.
func threads(s inputs.Settings) int    { return s.Value(settingThreads).(int) }
func comm(s inputs.Settings) string    { return s.Value(settingComm).(string) }
func pinning(s inputs.Settings) string { return s.Value(settingPinning).(string) }
