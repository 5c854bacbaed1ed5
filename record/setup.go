package record

import "strconv"

// Setup is what a point measured, as far as its record says what decides the number:
// the operation, its timing method, the message size, the process count and the
// settings that change the time. Two points with the same Setup measured the same
// thing whatever their measurements' free-text names, so comparisons, tune verdicts
// and exports key on it; the measurement name stays a label.
type Setup struct {
	Op            string
	Method        string
	MsgBytes      int64
	NProcs        int
	Timer         string
	Sync          string
	Window        int
	RecvSlots     string
	Cache         string
	RMAWindow     string
	HoldS         float64
	DelayS        float64
	Ratio         int
	HaloComputeS  float64
	DataLayout    string
	Stride        int
	TypeCommit    string
	ProgressEvery int64
	TargetBusyS   float64
	Poll          string
	PollEvery     int64
	Topology      string
	Partitions    int
	// Multi-threaded operations: threads per rank, how they keep their messages apart,
	// their pinning (a thread count is a curve of its own, like a window).
	Threads       int
	ThreadComm    string
	ThreadPinning string
	// FamilySettings: Point.FamilySettings as one comparable string (familyKey).
	FamilySettings string
}

// Setup is the point's setup.
func (p *Point) Setup() Setup {
	s := Setup{Op: p.Op, Method: p.Method, MsgBytes: p.MsgBytes, NProcs: p.NProcs,
		Timer: p.Timer, Sync: p.Sync, Window: p.Window, RecvSlots: p.RecvSlots,
		Cache: p.Cache, RMAWindow: p.RMAWindow, Ratio: p.Ratio, DataLayout: p.DataLayout, Stride: p.Stride, TypeCommit: p.TypeCommit,
		Topology: p.Topology, Partitions: p.Partitions, Threads: p.Threads, ThreadComm: p.ThreadComm, ThreadPinning: p.ThreadPinning,
		FamilySettings: familyKey(p.FamilySettings)}
	if p.HoldS != nil {
		s.HoldS = *p.HoldS
	}
	if p.DelayS != nil {
		s.DelayS = *p.DelayS
	}
	if p.HaloComputeS != nil {
		s.HaloComputeS = *p.HaloComputeS
	}
	if p.Breakdown != nil {
		s.ProgressEvery = p.ProgressEvery
	}
	if p.TargetBusyS != nil {
		s.TargetBusyS = *p.TargetBusyS
	}
	s.Poll = p.Poll
	if p.PollEvery != nil {
		s.PollEvery = *p.PollEvery
	}
	return s
}

// Setup is what a fault record knows of its point's setup: operation, method, size
// and process count (see Coarse).
func (f *Fault) Setup() Setup {
	return Setup{Op: f.Op, Method: f.Method, MsgBytes: f.MsgBytes, NProcs: f.NProcs}
}

// Coarse keeps the four fields every record has, the ones a fault can be matched on.
func (s Setup) Coarse() Setup {
	return Setup{Op: s.Op, Method: s.Method, MsgBytes: s.MsgBytes, NProcs: s.NProcs}
}

// Field is one name=value of a setup, the name as the record's JSON field.
type Field struct{ Name, Value string }

// Fields are the setup's fields in a fixed order, those without a value left out:
// op, method, msg_bytes, nprocs, then Settings.
func (s Setup) Fields() []Field {
	f := []Field{{"op", s.Op}}
	if s.Method != "" {
		f = append(f, Field{"method", s.Method})
	}
	f = append(f, Field{"msg_bytes", strconv.FormatInt(s.MsgBytes, 10)}, Field{"nprocs", strconv.Itoa(s.NProcs)})
	return append(f, s.Settings()...)
}

// Settings are the fields beyond op, method, size and process count that have a value,
// in a fixed order: timer, sync, window, recv_slots, cache, rma_window, hold_s,
// delay_s, ratio, halo_compute_s, data_layout, stride, type_commit, progress_every,
// target_busy_s, poll, poll_every, topology, partitions, threads, thread_comm,
// thread_pinning.
func (s Setup) Settings() []Field {
	var f []Field
	add := func(name, v string) {
		if v != "" {
			f = append(f, Field{name, v})
		}
	}
	add("timer", s.Timer)
	add("sync", s.Sync)
	if s.Window > 0 {
		add("window", strconv.Itoa(s.Window))
	}
	add("recv_slots", s.RecvSlots)
	add("cache", s.Cache)
	add("rma_window", s.RMAWindow)
	if s.HoldS != 0 {
		add("hold_s", strconv.FormatFloat(s.HoldS, 'g', -1, 64))
	}
	if s.DelayS != 0 {
		add("delay_s", strconv.FormatFloat(s.DelayS, 'g', -1, 64))
	}
	if s.Ratio != 0 {
		add("ratio", strconv.Itoa(s.Ratio))
	}
	if s.HaloComputeS != 0 {
		add("halo_compute_s", strconv.FormatFloat(s.HaloComputeS, 'g', -1, 64))
	}
	add("data_layout", s.DataLayout)
	if s.Stride != 0 {
		add("stride", strconv.Itoa(s.Stride))
	}
	add("type_commit", s.TypeCommit)
	if s.ProgressEvery != 0 {
		add("progress_every", strconv.FormatInt(s.ProgressEvery, 10))
	}
	if s.TargetBusyS != 0 {
		add("target_busy_s", strconv.FormatFloat(s.TargetBusyS, 'g', -1, 64))
	}
	add("poll", s.Poll)
	if s.PollEvery != 0 {
		add("poll_every", strconv.FormatInt(s.PollEvery, 10))
	}
	add("topology", s.Topology)
	if s.Partitions != 0 {
		add("partitions", strconv.Itoa(s.Partitions))
	}
	if s.Threads != 0 {
		add("threads", strconv.Itoa(s.Threads))
	}
	add("thread_comm", s.ThreadComm)
	add("thread_pinning", s.ThreadPinning)
	for _, kv := range familyFields(s.FamilySettings) {
		add(kv.Name, kv.Value)
	}
	return f
}

// SettingNames are the names of Settings' fields, in their order.
var SettingNames = []string{"timer", "sync", "window", "recv_slots", "cache", "rma_window", "hold_s", "delay_s", "ratio", "halo_compute_s", "data_layout", "stride", "type_commit", "progress_every", "target_busy_s", "poll", "poll_every", "topology", "partitions"}

// Without is the setup with the named settings cleared (unknown names change nothing):
// a comparison leaves out of its keys what one side does not record, or what a tune
// sweeps.
func (s Setup) Without(names ...string) Setup {
	for _, n := range names {
		switch n {
		case "timer":
			s.Timer = ""
		case "sync":
			s.Sync = ""
		case "window":
			s.Window = 0
		case "recv_slots":
			s.RecvSlots = ""
		case "cache":
			s.Cache = ""
		case "rma_window":
			s.RMAWindow = ""
		case "hold_s":
			s.HoldS = 0
		case "delay_s":
			s.DelayS = 0
		case "ratio":
			s.Ratio = 0
		case "halo_compute_s":
			s.HaloComputeS = 0
		case "data_layout":
			s.DataLayout = ""
		case "stride":
			s.Stride = 0
		case "type_commit":
			s.TypeCommit = ""
		case "progress_every":
			s.ProgressEvery = 0
		case "target_busy_s":
			s.TargetBusyS = 0
		case "poll":
			s.Poll = ""
		case "poll_every":
			s.PollEvery = 0
		case "topology":
			s.Topology = ""
		case "partitions":
			s.Partitions = 0
		default:
			s.FamilySettings = familyWithout(s.FamilySettings, n)
		}
	}
	return s
}
