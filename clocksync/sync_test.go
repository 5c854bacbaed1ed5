package clocksync_test

import (
	"math"
	"math/bits"
	"slices"
	"testing"

	"github.com/skampi/skampi/clocksync"
)

// later is how long after the synchronisation the models are checked again.
const later = 10.0 // seconds

// slack covers rounding and the drift within one batch (≤ 200 ppm × 1 ms).
const slack = 1e-9

// Tolerances, derived from the simulated cluster (cfg) and the algorithm's parameters.
//
// SKaMPI, rank r fitted at true time t_r with error bound Err_r (half the width of its
// bounds intersection, ≈ the base latency: width = fastest ping + fastest pong), relative
// drift Δ_r = drift_r - drift_root: at time T,
//
//	|err_r(T)| ≤ Err_r + |Δ_r|·(T - t_r) + slack,  and  Err_r ≤ Latency + Asym/2 + Jitter.
//
// and the offset-only error is entirely drift: |err_r(T) - Δ_r·(T - t_r)| ≤ Err_r + slack.
//
// HCA, rank of tree number v, a chain of h = popcount(v) fits. A fit's point is the
// fastest of n round trips; given its total jitter S, the split between ping and pong is
// uniform, so the point's offset error is (U-½)·S, of variance E[S²]/12. S is the
// minimum of n sums of two exponentials of mean J, P(S > s) = (e^-u·(1+u))^n with
// u = s/J, so E[S²] = J²·∫2u·(e^-u·(1+u))^n du (≈ 2J²/n; 0.294·J² for n = 10, which
// gives σ_p = 0.156·J; spikes hit only slow round trips, never the fastest). A 400-seed
// simulation of one link (Asym 0) agrees within 7% on both σ below. Over K points the intercept
// error is σ_p/sqrt(K), the slope error σ_s = σ_p·sqrt(12/K)/span with span ≥
// (K-1)·Spacing. Each link is also biased by its latency asymmetry, ≤ Asym/2. Summing the
// biases and 4σ intercepts of the h links, and adding 5σ of the independent slopes
// extrapolated from the start of the synchronisation (t = 0) to T:
//
//	|err(T)| ≤ h·(Asym/2 + 4σ_p/sqrt(K)) + 5·sqrt(h)·σ_s·T + slack.
func hcaTol(cfg simConfig, a clocksync.HCA) func(h int, t float64) float64 {
	k, n, sp := a.FitPoints, a.Exchanges, a.Spacing
	if k == 0 {
		k = clocksync.DefaultFitPoints
	}
	if n == 0 {
		n = clocksync.DefaultExchanges
	}
	if sp == 0 {
		sp = clocksync.DefaultSpacing
	}
	var eu2 float64 // E[u²] by the midpoint rule
	const du = 1e-3
	for u := du / 2; u < 30; u += du {
		eu2 += 2 * u * math.Pow(math.Exp(-u)*(1+u), float64(n)) * du
	}
	sp1 := cfg.Jitter * math.Sqrt(eu2/12)
	ss := sp1 * math.Sqrt(12/float64(k)) / (float64(k-1) * sp)
	return func(h int, t float64) float64 {
		hf := float64(h)
		return hf*(cfg.Asym/2+4*sp1/math.Sqrt(float64(k))) + 5*math.Sqrt(hf)*ss*t + slack
	}
}

type syncCase struct {
	name  string
	alg   clocksync.Algorithm
	ranks int
	seed  uint64
}

func TestSync(t *testing.T) {
	cases := []syncCase{
		{"skampi/p=2", clocksync.SKaMPI{}, 2, 1},
		{"skampi/p=64", clocksync.SKaMPI{}, 64, 2},
		{"skampi/p=4096", clocksync.SKaMPI{}, 4096, 3},
		{"skampi/p=100/root=37", clocksync.SKaMPI{Root: 37, Exchanges: 50}, 100, 4},
		{"hca/p=2", clocksync.HCA{}, 2, 1},
		{"hca/p=64", clocksync.HCA{}, 64, 2},
		{"hca/p=4096", clocksync.HCA{}, 4096, 3},
		{"hca/p=100/root=37", clocksync.HCA{Root: 37}, 100, 4},
		{"hca/p=5/fast", clocksync.HCA{FitPoints: 8, Exchanges: 5, Spacing: 1e-3}, 5, 5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := defaultSim(tc.ranks, tc.seed)
			c := newCluster(cfg)
			models, err := c.run(tc.alg)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := c.rounds(), tc.alg.Rounds(tc.ranks); got != want {
				t.Errorf("rounds: simulated critical path %d, Rounds() %d", got, want)
			}
			switch a := tc.alg.(type) {
			case clocksync.SKaMPI:
				checkSKaMPI(t, c, a, models)
			case clocksync.HCA:
				checkHCA(t, c, a, models)
			}
		})
	}
}

func checkSKaMPI(t *testing.T, c *cluster, a clocksync.SKaMPI, models []clocksync.Model) {
	cfg, p := c.cfg, c.cfg.Ranks
	if a.Rounds(p) != p-1 {
		t.Errorf("Rounds(%d) = %d, want p-1", p, a.Rounds(p))
	}
	end := c.end()
	errBound := cfg.Latency + cfg.Asym/2 + cfg.Jitter
	var now, after, worstRatio []float64
	for r, m := range models {
		if r == a.Root {
			if m != (clocksync.Model{}) {
				t.Errorf("root model %+v, want identity", m)
			}
			continue
		}
		if m.Slope != 0 || m.Err > errBound {
			t.Errorf("rank %d: model %+v: want Slope 0 and Err ≤ %g", r, m, errBound)
		}
		fit := c.trueAt(r, m.Ref)
		delta := c.drift[r] - c.drift[a.Root]
		e := c.errAt(m, r, a.Root, end)
		if tol := m.Err + math.Abs(delta)*(end-fit) + slack; math.Abs(e) > tol {
			t.Errorf("rank %d after sync: error %.3g s > tolerance %.3g s", r, e, tol)
		}
		e2 := c.errAt(m, r, a.Root, end+later)
		drift := delta * (end + later - fit)
		if math.Abs(e2-drift) > m.Err+slack {
			t.Errorf("rank %d after %g s: error %.3g s is not the drift %.3g s (±%.3g)", r, later, e2, drift, m.Err)
		}
		now, after = append(now, e), append(after, e2)
		worstRatio = append(worstRatio, math.Abs(e2)/math.Abs(drift))
	}
	t.Logf("p=%d: %d rounds, %.3f s simulated, root %d ping-pongs; |error| after sync max %.3g s median %.3g s; after %g s max %.3g s median %.3g s (|error|/(drift×time) in [%.3f, %.3f])",
		p, c.rounds(), end, c.pingpongs[a.Root], maxAbs(now), medianAbs(now), later, maxAbs(after), medianAbs(after),
		slices.Min(worstRatio), slices.Max(worstRatio))
}

func checkHCA(t *testing.T, c *cluster, a clocksync.HCA, models []clocksync.Model) {
	p := c.cfg.Ranks
	if r, lg := a.Rounds(p), bits.Len(uint(p-1)); r != lg || float64(r) > math.Log2(float64(p))+1 {
		t.Errorf("Rounds(%d) = %d, want ceil(log2 p) = %d", p, r, lg)
	}
	end := c.end()
	tolAt := hcaTol(c.cfg, a)
	var now, after, ratio []float64
	var inside, total int
	for r, m := range models {
		h := bits.OnesCount(uint((r - a.Root + p) % p))
		if r == a.Root && m != (clocksync.Model{}) {
			t.Errorf("root model %+v, want identity", m)
		}
		for i, tt := range []float64{end, end + later} {
			e := c.errAt(m, r, a.Root, tt)
			tol := tolAt(h, tt)
			if math.Abs(e) > tol {
				t.Errorf("rank %d (chain %d) at t=%.3f s: error %.3g s > tolerance %.3g s", r, h, tt, e, tol)
			}
			if i == 0 {
				now = append(now, e)
			} else {
				after = append(after, e)
			}
			if r != a.Root {
				ratio = append(ratio, math.Abs(e)/tol)
				total++
				if math.Abs(e) <= m.Uncertainty(c.local(r, tt))+float64(h)*c.cfg.Asym/2 {
					inside++
				}
			}
		}
	}
	lg := bits.Len(uint(p - 1))
	t.Logf("p=%d: %d rounds, %.3f s simulated, root %d ping-pongs; |error| after sync max %.3g s (tol %.3g) median %.3g s; after %g s max %.3g s (tol %.3g) median %.3g s; max |error|/tol %.2f; within Uncertainty+asymmetry %d/%d",
		p, c.rounds(), end, c.pingpongs[a.Root], maxAbs(now), tolAt(lg, end), medianAbs(now),
		later, maxAbs(after), tolAt(lg, end+later), medianAbs(after), slices.Max(append(ratio, 0)), inside, total)
}

// TestDriftModelMatters: on the same cluster, 10 s after synchronisation the
// offset-only model is off by the drift, the linear model is not.
func TestDriftModelMatters(t *testing.T) {
	const p = 64
	errs := map[string][]float64{}
	for _, alg := range []clocksync.Algorithm{clocksync.SKaMPI{}, clocksync.HCA{}} {
		c := newCluster(defaultSim(p, 7))
		models, err := c.run(alg)
		if err != nil {
			t.Fatal(err)
		}
		for r, m := range models[1:] {
			errs[alg.Name()] = append(errs[alg.Name()], c.errAt(m, r+1, 0, c.end()+later))
		}
	}
	sk, hca := medianAbs(errs["skampi"]), maxAbs(errs["hca"])
	t.Logf("after %g s: skampi median |error| %.3g s, hca max |error| %.3g s", later, sk, hca)
	if sk < 10*hca {
		t.Errorf("skampi median |error| %.3g s, want ≥ 10 × hca max %.3g s", sk, hca)
	}
}

func TestDeterministic(t *testing.T) {
	run := func(seed uint64) []clocksync.Model {
		m, err := newCluster(defaultSim(64, seed)).run(clocksync.HCA{FitPoints: 6})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	a, b, c := run(11), run(11), run(12)
	if !slices.Equal(a, b) {
		t.Error("same seed, different models")
	}
	if slices.Equal(a, c) {
		t.Error("different seeds, same models")
	}
}

// crossed is a broken algorithm: both ranks serve, nobody measures.
type crossed struct{}

func (crossed) Name() string   { return "crossed" }
func (crossed) Rounds(int) int { return 1 }
func (crossed) Sync(x clocksync.Exchanger) (clocksync.Model, error) {
	return clocksync.Model{}, x.Serve(1-x.Rank(), 1, clocksync.Model{})
}

func TestSimDetectsDeadlock(t *testing.T) {
	if _, err := newCluster(defaultSim(2, 1)).run(crossed{}); err == nil {
		t.Error("no error from a deadlocked algorithm")
	}
}

func TestSingleRank(t *testing.T) {
	for _, alg := range []clocksync.Algorithm{clocksync.SKaMPI{}, clocksync.HCA{}} {
		m, err := newCluster(defaultSim(1, 1)).run(alg)
		if err != nil || m[0] != (clocksync.Model{}) || alg.Rounds(1) != 0 {
			t.Errorf("%s on one rank: %v %+v rounds %d", alg.Name(), err, m, alg.Rounds(1))
		}
	}
}

func TestInvalid(t *testing.T) {
	for _, alg := range []clocksync.Algorithm{clocksync.SKaMPI{Root: 2}, clocksync.HCA{Root: -1},
		clocksync.HCA{Spacing: -1}, clocksync.SKaMPI{Exchanges: -3}} {
		if _, err := alg.Sync(node{newCluster(defaultSim(2, 1)), 0}); err == nil {
			t.Errorf("%+v: no error", alg)
		}
	}
}

func medianAbs(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	a := make([]float64, len(v))
	for i, x := range v {
		a[i] = math.Abs(x)
	}
	slices.Sort(a)
	return a[len(a)/2]
}

// An offset-only model cannot see drift; its uncertainty grows by the assumed drift
// bound, so that, where the bound holds, the error stays within it however long after
// the fit, and a caller re-synchronises in time.
func TestSKaMPIUncertaintyGrows(t *testing.T) {
	cfg := defaultSim(64, 6)
	c := newCluster(cfg)
	a := clocksync.SKaMPI{DriftBound: 2 * cfg.MaxDrift} // two clocks drift apart by at most this
	models, err := c.run(a)
	if err != nil {
		t.Fatal(err)
	}
	end := c.end()
	for r, m := range models {
		if r == a.Root {
			continue
		}
		if m.SlopeErr != a.DriftBound {
			t.Fatalf("rank %d: SlopeErr %g, want the drift bound %g", r, m.SlopeErr, a.DriftBound)
		}
		for _, later := range []float64{0, 1, 10, 100} {
			tt := end + later
			e := c.errAt(m, r, a.Root, tt)
			local := c.local(r, tt)
			if u := m.Uncertainty(local); math.Abs(e) > u+slack {
				t.Errorf("rank %d, %g s after: error %.3g s outside the uncertainty %.3g s", r, later, e, u)
			}
		}
		if u0, u1 := m.Uncertainty(m.Ref), m.Uncertainty(m.Ref+10); u1-u0 < 9.99*a.DriftBound {
			t.Errorf("rank %d: uncertainty grows %.3g s in 10 s, want ≥ %.3g", r, u1-u0, 10*a.DriftBound)
		}
	}
	if m, _ := c.run(clocksync.SKaMPI{}); m[1].SlopeErr != clocksync.DefaultDriftBound {
		t.Errorf("default drift bound: SlopeErr %g", m[1].SlopeErr)
	}
}
