package record

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestKeySetRanks(t *testing.T) {
	var s KeySet
	if s.Has(Key{Op: "Bcast"}) {
		t.Fatal("empty set has a key")
	}
	a := Key{Measurement: "m", Op: "Bcast", Method: "ack", MsgBytes: 8, NProcs: 2, Ranks: "0,1"}
	s.Add(a)
	b := a
	b.Ranks = "0,3"
	c := a
	c.Method = "rounds"
	switch {
	case !s.Has(a):
		t.Error("exact key missing")
	case s.Has(b):
		t.Error("other ranks match")
	case s.Has(c):
		t.Error("other method matches")
	case !s.Has(a.WithoutRanks()):
		t.Error("a key without ranks (not known yet) must match any ranks")
	}
	// A fault written without ranks matches whatever ranks are asked for.
	old := Key{Measurement: "m", Op: "Barrier", NProcs: 2}
	s.Add(old)
	withRanks := old
	withRanks.Ranks = "0,1"
	if !s.Has(withRanks) {
		t.Error("a key added without ranks must match any ranks")
	}
}

func TestKeysOfRecords(t *testing.T) {
	p := Point{Measurement: "m", Op: "Pingpong_Send_Recv", MsgBytes: 4, NProcs: 4, Ranks: []int{0, 3}}
	f := Fault{Measurement: "m", Op: "Pingpong_Send_Recv", MsgBytes: 4, NProcs: 4, Ranks: []int{0, 3}}
	if p.Key() != f.Key() || p.Key().Ranks != "0,3" {
		t.Errorf("point %+v fault %+v", p.Key(), f.Key())
	}
	// Faults written before they carried ranks still read, with a key of no ranks.
	var old Fault
	if err := json.Unmarshal([]byte(`{"kind":"fault","run_id":"r","point_index":3,"measurement":"m","op":"Barrier","msg_bytes":0,"nprocs":2,"fault":"crash"}`), &old); err != nil {
		t.Fatal(err)
	}
	if old.Key().Ranks != "" || !old.Skips() {
		t.Errorf("%+v", old)
	}
	b, _ := json.Marshal(&Fault{Kind: KindFault})
	if strings.Contains(string(b), `"ranks"`) {
		t.Errorf("ranks of an unknown pair are left out: %s", b)
	}
}

func TestAddFlagOnce(t *testing.T) {
	var p Point
	p.AddFlag(FlagTimeCap)
	p.AddFlag(FlagTimeCap)
	p.AddFlag(FlagFewReps)
	if len(p.Flags) != 2 {
		t.Errorf("%v", p.Flags)
	}
}

func TestSetupFields(t *testing.T) {
	hold := 2e-6
	p := &Point{Op: "Put", Method: "lock_all", MsgBytes: 8, NProcs: 2, Timer: "global-loop", Sync: "barrier",
		Window: 64, RMAWindow: "allocate", HoldS: &hold, Measurement: "any name"}
	got := ""
	for _, f := range p.Setup().Fields() {
		got += f.Name + "=" + f.Value + " "
	}
	want := "op=Put method=lock_all msg_bytes=8 nprocs=2 timer=global-loop sync=barrier window=64 rma_window=allocate hold_s=2e-06 "
	if got != want {
		t.Errorf("fields:\n got %s\nwant %s", got, want)
	}
	q := *p
	q.Measurement, q.RunID = "another name", "r2"
	if p.Setup() != q.Setup() {
		t.Error("the measurement's name is a label: it must not change the setup")
	}
	q.Window = 1
	if p.Setup() == q.Setup() {
		t.Error("a window changes the number: it must change the setup")
	}
	f := &Fault{Op: "Put", Method: "lock_all", MsgBytes: 8, NProcs: 2}
	if f.Setup() != p.Setup().Coarse() {
		t.Error("a fault matches a point's coarse setup")
	}
}

// Without clears every setting by its name, and SettingNames names every one of them.
func TestSetupWithout(t *testing.T) {
	full := Setup{Op: "Put", Method: "m", MsgBytes: 8, NProcs: 2, Timer: "t", Sync: "s", Window: 4, RecvSlots: "r",
		Cache: "c", RMAWindow: "w", HoldS: 1e-6, DelayS: 2e-5, Ratio: 4, HaloComputeS: 1e-5, DataLayout: "vector", Stride: 4, TypeCommit: "every_call", ProgressEvery: 9,
		TargetBusyS: 5e-5, Poll: "iprobe", PollEvery: 1000, Topology: "cart:2x1", Partitions: 8}
	var names []string
	for _, f := range full.Settings() {
		names = append(names, f.Name)
	}
	if strings.Join(names, ",") != strings.Join(SettingNames, ",") {
		t.Errorf("Settings %v, SettingNames %v", names, SettingNames)
	}
	if got := full.Without(SettingNames...); got != full.Coarse() {
		t.Errorf("without every setting: %+v", got)
	}
	if got := full.Without("window", "nonsense"); got.Window != 0 || got.Timer != "t" || len(got.Settings()) != len(SettingNames)-1 {
		t.Errorf("without the window: %+v", got)
	}
}
