package analyze

import "math"

// fullSearch is the longest curve whose every split is tried; a longer one is first
// split at fullSearch evenly spaced candidate sizes, then each breakpoint is moved to the
// best size between its neighbouring candidates. Either way a segment's fit costs O(1)
// (prefix sums), so a curve of n sizes takes O(n) once fullSearch² is paid.
const fullSearch = 512

// Segment splits a curve (sizes ascending) into the linear regimes that explain it
// best: for each number of regimes, dynamic programming finds the split with the least
// squared relative error; the Bayesian information criterion then picks the number, so
// a regime is added only when it explains much more than noise.
func Segment(sizes []int64, times []float64) []Regime {
	n := len(sizes)
	if n < minRegimePoints {
		return []Regime{fit(sizes, times)}
	}
	ps := newPrefix(sizes, times)
	// Candidate boundaries: a regime starts at one of them; n closes the last.
	var cand []int
	if n <= fullSearch {
		for i := 0; i <= n; i++ {
			cand = append(cand, i)
		}
	} else {
		for i := 0; i <= fullSearch; i++ {
			cand = append(cand, i*n/fullSearch)
		}
	}
	inf := math.Inf(1)
	m := len(cand)
	// best[k][e]: least cost of points [0, cand[e]) in k+1 regimes; from[k][e]: the
	// candidate where the last of them starts.
	best := make([][]float64, maxRegimes)
	from := make([][]int, maxRegimes)
	for k := range best {
		best[k] = make([]float64, m)
		from[k] = make([]int, m)
		for e := range best[k] {
			best[k][e] = inf
			if k == 0 {
				if cand[e] >= minRegimePoints {
					best[0][e] = ps.cost(0, cand[e])
				}
				continue
			}
			for s := 1; s < e && cand[e]-cand[s] >= minRegimePoints; s++ {
				if best[k-1][s] == inf {
					continue
				}
				if c := best[k-1][s] + ps.cost(cand[s], cand[e]); c < best[k][e] {
					best[k][e], from[k][e] = c, s
				}
			}
		}
	}
	bestBIC := inf
	var bounds []int
	for k := 0; k < maxRegimes; k++ {
		if best[k][m-1] == inf {
			break
		}
		b := []int{n}
		for e, j := m-1, k; j > 0; j-- {
			e = from[j][e]
			b = append([]int{cand[e]}, b...)
		}
		b = append([]int{0}, b...)
		if n > fullSearch {
			ps.refine(b)
		}
		var rss float64
		for i := 0; i+1 < len(b); i++ {
			rss += ps.cost(b[i], b[i+1])
		}
		rss = math.Max(rss, float64(n)*noiseFloor*noiseFloor)
		params := float64(3*(k+1) - 1) // a line per regime, plus the breakpoints
		if bic := float64(n)*math.Log(rss/float64(n)) + bicWeight*params*math.Log(float64(n)); bic < bestBIC {
			bestBIC, bounds = bic, b
		}
	}
	var regimes []Regime
	for i := 0; i+1 < len(bounds); i++ {
		regimes = append(regimes, fit(sizes[bounds[i]:bounds[i+1]], times[bounds[i]:bounds[i+1]]))
	}
	return regimes
}

// refine moves every inner boundary of b to the best position between its neighbours'
// candidates, until none moves: the coarse split made exact where it matters.
func (ps *prefix) refine(b []int) {
	window := ps.n/fullSearch + 1
	for pass := 0; pass < 8; pass++ {
		moved := false
		for i := 1; i+1 < len(b); i++ {
			lo := max(b[i-1]+minRegimePoints, b[i]-window)
			hi := min(b[i+1]-minRegimePoints, b[i]+window)
			bestAt, bestC := b[i], ps.cost(b[i-1], b[i])+ps.cost(b[i], b[i+1])
			for at := lo; at <= hi; at++ {
				if c := ps.cost(b[i-1], at) + ps.cost(at, b[i+1]); c < bestC {
					bestAt, bestC = at, c
				}
			}
			moved = moved || bestAt != b[i]
			b[i] = bestAt
		}
		if !moved {
			return
		}
	}
}

// prefix holds running sums of the weighted least-squares terms (weights 1/t²), in
// double-double precision: a segment's sums are differences of two prefixes, and times
// spanning decades would otherwise cancel away the digits of a late segment.
type prefix struct {
	n                   int
	w, x, y, xx, xy, yy []dd
}

func newPrefix(sizes []int64, times []float64) *prefix {
	n := len(sizes)
	ps := &prefix{n: n}
	for _, s := range []*[]dd{&ps.w, &ps.x, &ps.y, &ps.xx, &ps.xy, &ps.yy} {
		*s = make([]dd, n+1)
	}
	for i, s := range sizes {
		t, x := times[i], float64(s)
		w := 1 / (t * t)
		ps.w[i+1] = ps.w[i].add(w)
		ps.x[i+1] = ps.x[i].add(w * x)
		ps.y[i+1] = ps.y[i].add(w * t)
		ps.xx[i+1] = ps.xx[i].add(w * x * x)
		ps.xy[i+1] = ps.xy[i].add(w * x * t)
		ps.yy[i+1] = ps.yy[i].add(w * t * t)
	}
	return ps
}

// cost is the squared relative error of the best line through points [i, j): what fit
// computes point by point, from the sums.
func (ps *prefix) cost(i, j int) float64 {
	sw, sx, sy := ps.w[j].sub(ps.w[i]), ps.x[j].sub(ps.x[i]), ps.y[j].sub(ps.y[i])
	sxx, sxy, syy := ps.xx[j].sub(ps.xx[i]), ps.xy[j].sub(ps.xy[i]), ps.yy[j].sub(ps.yy[i])
	var a, b float64
	if d := sw*sxx - sx*sx; j-i > 1 && d > 0 {
		b = (sw*sxy - sx*sy) / d
		a = (sy - b*sx) / sw
	} else {
		a = sy / sw
	}
	rss := syy - 2*a*sy - 2*b*sxy + a*a*sw + 2*a*b*sx + b*b*sxx
	return math.Max(rss, 0)
}

// dd is a double-double: hi + lo, with lo the rounding error of hi.
type dd struct{ hi, lo float64 }

func twoSum(a, b float64) (float64, float64) {
	s := a + b
	v := s - a
	return s, (a - (s - v)) + (b - v)
}

func (a dd) add(x float64) dd {
	s, e := twoSum(a.hi, x)
	return dd{s, e + a.lo}
}

func (a dd) sub(b dd) float64 {
	s, e := twoSum(a.hi, -b.hi)
	return s + (e + a.lo - b.lo)
}
