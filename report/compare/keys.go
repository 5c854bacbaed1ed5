package compare

import (
	"slices"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// matcher keys the points of several sources alike: a baseline and one other source, or
// every run of a history.
type matcher struct {
	drop    []string // settings left out of the keys: ignored, or recorded by one side only
	dropped []string // settings only one side records, for a note
	amb     map[record.Setup]bool
	known   []Key            // every point key of both sides, in order
	names   map[Key][]string // the measurement names each known key was seen with
}

// newMatcher finds what the sources' keys can hold. A setting only some sources record
// (a SKaMPI .sko file records no timer; an older skampi no cache) cannot tell points
// apart: every key leaves it out, as it does the settings a caller ignores (a tune
// sweeping the window compares the windows' points with each other). Setups some run
// measured under two measurement names keep the name in their keys: the record does
// not say what tells them apart (a data type, a root). Only the operations every source
// holds say which settings a source records.
func newMatcher(sides []*report.Results, ignore []string) *matcher {
	m := &matcher{amb: map[record.Setup]bool{}, names: map[Key][]string{}}
	ops := map[string]map[int]bool{} // op -> the sources holding it
	for i, res := range sides {
		for j := range res.Points {
			op := res.Points[j].Op
			if ops[op] == nil {
				ops[op] = map[int]bool{}
			}
			ops[op][i] = true
		}
	}
	rec := make([]map[string]bool, len(sides))
	for i, res := range sides {
		rec[i] = map[string]bool{}
		for j := range res.Points {
			if p := &res.Points[j]; len(ops[p.Op]) == len(sides) {
				for _, f := range p.Setup().Settings() {
					rec[i][f.Name] = true
				}
			}
		}
	}
	for _, name := range record.SettingNames {
		some, all := false, true
		for i := range sides {
			some, all = some || rec[i][name], all && rec[i][name]
		}
		switch {
		case slices.Contains(ignore, name):
			m.drop = append(m.drop, name)
		case some && !all:
			m.drop = append(m.drop, name)
			m.dropped = append(m.dropped, name)
		}
	}
	type runSetup struct {
		run   string
		setup record.Setup
	}
	seen := map[runSetup]string{}
	for _, res := range sides {
		for i := range res.Points {
			p := &res.Points[i]
			k := runSetup{p.RunID, m.setup(p.Setup())}
			if n, ok := seen[k]; ok && n != p.Measurement {
				m.amb[k.setup] = true
			}
			seen[k] = p.Measurement
		}
	}
	for _, res := range sides {
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

// setup leaves out the settings the keys do not hold.
func (m *matcher) setup(s record.Setup) record.Setup { return s.Without(m.drop...) }

func (m *matcher) pointKey(p *record.Point) Key {
	k := Key{Setup: m.setup(withDefaultMethod(p.Setup()))}
	if m.amb[k.Setup] {
		k.Measurement = p.Measurement
	}
	return k
}

// faultKey: a fault record knows only op, method, size and process count. It joins
// the key of a point of either side with those and its name, else the first with
// those, else it stands on its own.
func (m *matcher) faultKey(f *record.Fault) Key {
	coarse := withDefaultMethod(f.Setup())
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

// withDefaultMethod names the method of a record written without one (an older skampi)
// where the operation's own sequence is one of its methods (ops.Info.DefaultMethod):
// Put without a method is Put under flush.
func withDefaultMethod(s record.Setup) record.Setup {
	if s.Method == "" {
		if in, ok := ops.Lookup(s.Op); ok {
			s.Method = in.DefaultMethod
		}
	}
	return s
}
