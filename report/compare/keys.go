package compare

import (
	"slices"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// matcher keys the points of a baseline and one other source alike.
type matcher struct {
	keep    record.Setup // the settings both sides record: a non-zero field is kept
	dropped []string     // settings only one side records, for a note
	amb     map[record.Setup]bool
	known   []Key            // every point key of both sides, in order
	names   map[Key][]string // the measurement names each known key was seen with
}

// newMatcher finds what the two sources' keys can hold. A setting only one side records
// (a SKaMPI .sko file records no timer; an older skampi no cache) cannot tell points
// apart: both sides' keys leave it out, as they do the settings a caller ignores (a
// tune sweeping the window compares the windows' points with each other). Setups some
// run measured under two measurement names keep the name in their keys: the record does
// not say what tells them apart (a data type, a root).
func newMatcher(base, other *report.Results, ignore []string) *matcher {
	m := &matcher{amb: map[record.Setup]bool{}, names: map[Key][]string{}}
	ops := map[string]int{}
	for i, res := range []*report.Results{base, other} {
		for j := range res.Points {
			ops[res.Points[j].Op] |= 1 << i
		}
	}
	var rec [2]map[string]bool
	for i, res := range []*report.Results{base, other} {
		rec[i] = map[string]bool{}
		for j := range res.Points {
			if p := &res.Points[j]; ops[p.Op] == 3 {
				for _, f := range p.Setup().Settings() {
					rec[i][f.Name] = true
				}
			}
		}
	}
	var probe record.Setup
	for _, f := range (record.Setup{Timer: "x", Sync: "x", Window: 1, RecvSlots: "x", Cache: "x", RMAWindow: "x", HoldS: 1, ProgressEvery: 1}).Settings() {
		if slices.Contains(ignore, f.Name) {
			continue
		}
		if rec[0][f.Name] != rec[1][f.Name] {
			m.dropped = append(m.dropped, f.Name)
			continue
		}
		probe = setField(probe, f.Name)
	}
	m.keep = probe
	type runSetup struct {
		run   string
		setup record.Setup
	}
	seen := map[runSetup]string{}
	for _, res := range []*report.Results{base, other} {
		for i := range res.Points {
			p := &res.Points[i]
			k := runSetup{p.RunID, m.setup(p.Setup())}
			if n, ok := seen[k]; ok && n != p.Measurement {
				m.amb[k.setup] = true
			}
			seen[k] = p.Measurement
		}
	}
	for _, res := range []*report.Results{base, other} {
		for i := range res.Points {
			p := &res.Points[i]
			k := m.pointKey(p)
			if _, ok := m.names[k]; !ok {
				m.known = append(m.known, k)
			}
			if !slices.Contains(m.names[k], p.Measurement) {
				m.names[k] = append(m.names[k], p.Measurement)
			}
		}
	}
	return m
}

// setField marks a setting as kept in a probe setup.
func setField(s record.Setup, name string) record.Setup {
	switch name {
	case "timer":
		s.Timer = "x"
	case "sync":
		s.Sync = "x"
	case "window":
		s.Window = 1
	case "recv_slots":
		s.RecvSlots = "x"
	case "cache":
		s.Cache = "x"
	case "rma_window":
		s.RMAWindow = "x"
	case "hold_s":
		s.HoldS = 1
	case "progress_every":
		s.ProgressEvery = 1
	}
	return s
}

// setup blanks the settings only one side records.
func (m *matcher) setup(s record.Setup) record.Setup {
	k := m.keep
	if k.Timer == "" {
		s.Timer = ""
	}
	if k.Sync == "" {
		s.Sync = ""
	}
	if k.Window == 0 {
		s.Window = 0
	}
	if k.RecvSlots == "" {
		s.RecvSlots = ""
	}
	if k.Cache == "" {
		s.Cache = ""
	}
	if k.RMAWindow == "" {
		s.RMAWindow = ""
	}
	if k.HoldS == 0 {
		s.HoldS = 0
	}
	if k.ProgressEvery == 0 {
		s.ProgressEvery = 0
	}
	return s
}

func (m *matcher) pointKey(p *record.Point) Key {
	k := Key{Setup: m.setup(p.Setup())}
	if m.amb[k.Setup] {
		k.Measurement = p.Measurement
	}
	return k
}

// faultKey: a fault record knows only op, method, size and process count. It joins
// the key of a point of either side with those and its name, else the first with
// those, else it stands on its own.
func (m *matcher) faultKey(f *record.Fault) Key {
	coarse := f.Setup()
	var first *Key
	for i := range m.known {
		k := &m.known[i]
		if k.Setup.Coarse() != coarse {
			continue
		}
		if slices.Contains(m.names[*k], f.Measurement) {
			return *k
		}
		if first == nil {
			first = k
		}
	}
	if first != nil {
		return *first
	}
	return Key{Setup: coarse}
}

func (m *matcher) index(res *report.Results) *indexed {
	ix := &indexed{points: map[Key][]*record.Point{}, faults: map[Key][]*record.Fault{}, names: map[Key]string{}}
	add := func(k Key, name string) {
		if _, ok := ix.names[k]; !ok {
			ix.names[k] = name
			ix.keys = append(ix.keys, k)
		}
	}
	for i := range res.Points {
		p := &res.Points[i]
		k := m.pointKey(p)
		add(k, p.Measurement)
		ix.points[k] = append(ix.points[k], p)
	}
	for i := range res.Faults {
		f := &res.Faults[i]
		k := m.faultKey(f)
		add(k, f.Measurement)
		ix.faults[k] = append(ix.faults[k], f)
	}
	return ix
}
