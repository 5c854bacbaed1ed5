package compare

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// A hiccup is a run in which every measurement was slow together: the machine (a
// virtual machine's host, another job), not what is measured. On the 2-core
// development machine with nothing else running, 2 of 24 runs took about twice as long
// at every measurement (internal/aadata's Quiet): in a 4+4 comparison such a run makes
// the absolute test blind to a shift of the whole comparison. The relative test needs no
// help (it subtracts the run's level); the absolute one leaves a hiccup out.

// hiccupFloor is the least level above its side's others that makes a run a hiccup: a
// shift below it is the spread the test is there to weigh.
var hiccupFloor = math.Log(1.5)

// minHiccupTables is how many measurements must share a run before its level can be
// told from a change of one measurement.
const minHiccupTables = 3

// dropHiccups tests each table's measurement again without its sides' hiccups (runs
// whose level, the median over the tables of the run's value less the table's median,
// stands far above the side's other runs), and says which it left out.
func dropHiccups(tables []Table, alpha float64) {
	var tested []*Shift
	for i := range tables {
		if tables[i].Shift.Tested {
			tested = append(tested, &tables[i].Shift)
		}
	}
	if len(tested) < minHiccupTables {
		return
	}
	bad := map[string]float64{}
	for _, side := range []func(*Shift) map[string]float64{
		func(s *Shift) map[string]float64 { return s.base },
		func(s *Shift) map[string]float64 { return s.other },
	} {
		var runs []map[string]float64
		for _, s := range tested {
			runs = append(runs, side(s))
		}
		for id, lvl := range hiccups(runs) {
			bad[id] = lvl
		}
	}
	if len(bad) == 0 {
		return
	}
	var ids []string
	for id := range bad {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var said []string
	for _, id := range ids {
		said = append(said, fmt.Sprintf("%s (%.1f× its side's other runs)", id, math.Exp(bad[id])))
	}
	for _, s := range tested {
		// Only where the measurement itself was slow in the run: a hiccup need not
		// reach every measurement (a put on the development machine hardly moved).
		b, o := without(s.base, slowIn(s.base, bad)), without(s.other, slowIn(s.other, bad))
		if len(b) < 2 || len(o) < 2 || len(b) == len(s.base) && len(o) == len(s.other) {
			continue
		}
		s.allRuns.set, s.allRuns.ratio, s.allRuns.p = true, s.Ratio, s.P
		s.N1, s.N2 = len(b), len(o)
		s.Ratio, s.P, s.Detectable = Welch(values(b), values(o), alpha)
		s.Q = s.P
		note := "left out of the absolute test, slow at every measurement: " + strings.Join(said, ", ")
		if s.Note != "" {
			note = s.Note + "; " + note
		}
		s.Note = note
	}
}

// hiccups are one side's runs (tables' run values) whose level stands out: above the
// median level of the side's runs by more than four robust standard deviations of the
// levels and by hiccupFloor. A side of fewer than 4 runs has none (no "others" to
// stand out from).
func hiccups(tables []map[string]float64) map[string]float64 {
	medians := make([]float64, len(tables))
	ids := map[string]int{}
	for i, t := range tables {
		medians[i] = Median(values(t))
		for id := range t {
			ids[id]++
		}
	}
	level := map[string]float64{}
	var levels []float64
	for id, n := range ids {
		if n < minHiccupTables {
			continue
		}
		var d []float64
		for i, t := range tables {
			if v, ok := t[id]; ok {
				d = append(d, v-medians[i])
			}
		}
		level[id] = Median(d)
		levels = append(levels, level[id])
	}
	if len(levels) < 4 {
		return nil
	}
	mid := Median(levels)
	var dev []float64
	for _, l := range levels {
		dev = append(dev, math.Abs(l-mid))
	}
	limit := max(4*1.4826*Median(dev), hiccupFloor)
	out := map[string]float64{}
	for id, l := range level {
		if l-mid > limit {
			out[id] = l - mid
		}
	}
	return out
}

// slowIn are the hiccups in bad at which m's value stands above m's median by
// hiccupFloor.
func slowIn(m map[string]float64, bad map[string]float64) map[string]float64 {
	mid := Median(values(m))
	out := map[string]float64{}
	for id, l := range bad {
		if v, ok := m[id]; ok && v-mid > hiccupFloor {
			out[id] = l
		}
	}
	return out
}

// without is m less the runs named in bad.
func without(m map[string]float64, bad map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for id, v := range m {
		if _, ok := bad[id]; !ok {
			out[id] = v
		}
	}
	return out
}
