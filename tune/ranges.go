package tune

import (
	"math"
	"sort"

	"github.com/skampi/skampi/report/compare"
)

// ranges finds, table by table (an operation under one method and settings), each
// size's fastest setting among those significantly faster than the baseline, and joins
// neighbouring sizes won by the same one. Where two settings are significantly faster
// over a stretch of sizes (a larger eager limit and a still larger one, both past the
// protocol switch), which of them is the very fastest flips with noise; a size the
// other one wins alone goes to its neighbour's winner when that one is significantly
// faster there too (joinLone), so noise does not cut a range both win into single
// sizes the rule cannot recommend (minSignificant).
func ranges(order []compare.Key, titles map[compare.Key]compare.Table, rows map[compare.Key]map[compare.Key]map[string]compare.Row, baseline string) []Measurement {
	var ms []Measurement
	for _, tk := range order {
		t := titles[tk]
		m := Measurement{Measurement: t.Measurement, Op: t.Op, Method: t.Method, Settings: t.Settings}
		var sizes []compare.Key
		for k := range rows[tk] {
			sizes = append(sizes, k)
		}
		sort.Slice(sizes, func(i, j int) bool {
			if sizes[i].NProcs != sizes[j].NProcs {
				return sizes[i].NProcs < sizes[j].NProcs
			}
			return sizes[i].MsgBytes < sizes[j].MsgBytes
		})
		var at []sizeWinners
		for _, k := range sizes {
			if w := winnersAt(k, rows[tk][k]); w.baseT > 0 {
				at = append(at, w)
			}
		}
		won := joinLone(at)
		for i, w := range at {
			winner := won[i]
			isBase, sig, untested := winner == "", 0, 0
			f := 0.0
			if isBase {
				winner = baseline
				if w.untested {
					untested = 1
				}
			} else {
				sig, f = 1, math.Log(w.baseT/w.faster[winner])
			}
			if n := len(m.Ranges); n > 0 && m.Ranges[n-1].Winner == winner {
				r := &m.Ranges[n-1]
				r.Factor = math.Exp((math.Log(r.Factor)*float64(r.Sizes) + f) / float64(r.Sizes+1))
				r.To, r.Sizes, r.Significant, r.Untested = w.k.MsgBytes, r.Sizes+1, r.Significant+sig, r.Untested+untested
				continue
			}
			m.Ranges = append(m.Ranges, Range{From: w.k.MsgBytes, To: w.k.MsgBytes, Winner: winner, Baseline: isBase, Factor: math.Exp(f),
				Significant: sig, Untested: untested, Sizes: 1})
		}
		m.Ranges = lone(m.Ranges, baseline)
		if len(m.Ranges) > 0 {
			ms = append(ms, m)
		}
	}
	return ms
}

// sizeWinners is one size of a table: the baseline's time, every setting significantly
// faster than it (label: time), and whether the fastest setting was faster but could
// not be tested (too few repeats).
type sizeWinners struct {
	k        compare.Key
	baseT    float64
	faster   map[string]float64
	untested bool
}

func winnersAt(k compare.Key, byLabel map[string]compare.Row) sizeWinners {
	w := sizeWinners{k: k, faster: map[string]float64{}}
	bestT, bestTested := math.Inf(1), false
	for _, row := range byLabel {
		if row.Base.State == compare.SideMeasured {
			w.baseT = row.Base.TimeS
		}
	}
	for label, row := range byLabel {
		if !row.Compared() {
			continue
		}
		if row.Other.TimeS < bestT {
			bestT, bestTested = row.Other.TimeS, row.Tested
		}
		if row.Significant && row.Other.TimeS < w.baseT {
			w.faster[label] = row.Other.TimeS
		}
	}
	w.untested = len(w.faster) == 0 && bestT < w.baseT && !bestTested
	return w
}

// fastest is the fastest setting significantly faster than the baseline ("" when none),
// the first label of equal ones.
func (w sizeWinners) fastest() string {
	best := ""
	for l, t := range w.faster {
		if best == "" || t < w.faster[best] || t == w.faster[best] && l < best {
			best = l
		}
	}
	return best
}

// joinLone is each size's winner ("" for the baseline): its fastest significant
// setting, except that a size whose winner wins it alone takes a neighbouring size's
// winner where that one is significantly faster at it too (the one with the longer run
// of sizes, else the faster here). Each change joins two runs, so it ends.
func joinLone(at []sizeWinners) []string {
	won := make([]string, len(at))
	for i, w := range at {
		won[i] = w.fastest()
	}
	runLen := func(i, step int) int { // sizes from i on, towards step, won like i
		n := 0
		for j := i; j >= 0 && j < len(won) && won[j] == won[i]; j += step {
			n++
		}
		return n
	}
	for changed := true; changed; {
		changed = false
		for i := range won {
			if won[i] == "" || i > 0 && won[i-1] == won[i] || i+1 < len(won) && won[i+1] == won[i] {
				continue
			}
			best, bestLen := "", 0
			for _, j := range []int{i - 1, i + 1} {
				if j < 0 || j >= len(won) || won[j] == "" {
					continue
				}
				t, ok := at[i].faster[won[j]]
				if !ok {
					continue
				}
				n := runLen(j, j-i)
				if n > bestLen || n == bestLen && t < at[i].faster[best] {
					best, bestLen = won[j], n
				}
			}
			if best != "" {
				won[i], changed = best, true
			}
		}
	}
	return won
}

// minSignificant is how many sizes of a range a setting must be significantly faster
// at before it is recommended there (Group.rule): one significant size among many is
// what the correction for many comparisons still lets through now and then.
const minSignificant = 2

// lone gives the baseline back every range whose winner is significantly faster at
// fewer than minSignificant sizes (its Lone says how many it was), and joins the
// baseline's neighbouring ranges.
func lone(rs []Range, baseline string) []Range {
	var out []Range
	for _, r := range rs {
		if !r.Baseline && r.Significant < minSignificant {
			r = Range{From: r.From, To: r.To, Winner: baseline, Baseline: true, Factor: 1, Untested: r.Untested,
				Sizes: r.Sizes, Lone: r.Winner}
		}
		if n := len(out); n > 0 && out[n-1].Baseline && r.Baseline {
			p := &out[n-1]
			p.To, p.Sizes, p.Untested = r.To, p.Sizes+r.Sizes, p.Untested+r.Untested
			if p.Lone == "" {
				p.Lone = r.Lone
			}
			continue
		}
		out = append(out, r)
	}
	return out
}
