package tune

import (
	"math"
	"sort"

	"github.com/skampi/skampi/report/compare"
)

// ranges finds each size's fastest combination and joins neighbouring sizes with the
// same one, table by table (an operation under one method and settings).
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
		for _, k := range sizes {
			var labels []string
			for l := range rows[tk][k] {
				labels = append(labels, l)
			}
			sort.Strings(labels)
			var winner string
			var best compare.Row
			bestT := math.Inf(1)
			var baseT float64
			for _, label := range labels {
				row := rows[tk][k][label]
				if row.Base.State == compare.SideMeasured {
					baseT = row.Base.TimeS
				}
				if row.Compared() && row.Other.TimeS < bestT {
					winner, bestT, best = label, row.Other.TimeS, row
				}
			}
			if baseT <= 0 {
				continue
			}
			// A winner that is not significantly faster than the baseline is noise: the
			// baseline keeps the size.
			isBase := winner == "" || baseT <= bestT || !best.Significant
			untested := 0
			if winner != "" && baseT > bestT && !best.Tested {
				untested = 1
			}
			if isBase {
				winner, bestT = baseline, baseT
			}
			sig := 0
			if !isBase {
				sig = 1
			}
			f := math.Log(baseT / bestT)
			if n := len(m.Ranges); n > 0 && m.Ranges[n-1].Winner == winner {
				r := &m.Ranges[n-1]
				r.Factor = math.Exp((math.Log(r.Factor)*float64(r.Sizes) + f) / float64(r.Sizes+1))
				r.To, r.Sizes, r.Significant, r.Untested = k.MsgBytes, r.Sizes+1, r.Significant+sig, r.Untested+untested
				continue
			}
			m.Ranges = append(m.Ranges, Range{From: k.MsgBytes, To: k.MsgBytes, Winner: winner, Baseline: isBase, Factor: math.Exp(f),
				Significant: sig, Untested: untested, Sizes: 1})
		}
		m.Ranges = lone(m.Ranges, baseline)
		if len(m.Ranges) > 0 {
			ms = append(ms, m)
		}
	}
	return ms
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
