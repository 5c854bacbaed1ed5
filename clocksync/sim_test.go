package clocksync_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/skampi/skampi/clocksync"
)

// simConfig describes a simulated cluster. Every rank has a clock
// local(t) = t*(1+drift) + offset of the true time t, and every message a one-way delay
// Latency ± a/2 (a fixed per pair, uniform in [-Asym, Asym], + out, - back), plus an
// exponential jitter of mean Jitter, plus with probability SpikeProb an exponential
// spike of mean Spike (operating-system noise).
type simConfig struct {
	Ranks     int
	Seed      uint64
	MaxOffset float64 // |offset| ≤ MaxOffset, seconds
	MaxDrift  float64 // |drift| ≤ MaxDrift
	Latency   float64
	Jitter    float64
	Asym      float64
	SpikeProb float64
	Spike     float64
}

// defaultSim is the cluster of the tests: ±1 s offsets, ±100 ppm drifts, 1 µs latency
// with 0.5 µs mean jitter, up to ±0.2 µs asymmetry per pair, 1% spikes of 20 µs.
func defaultSim(ranks int, seed uint64) simConfig {
	return simConfig{Ranks: ranks, Seed: seed, MaxOffset: 1, MaxDrift: 100e-6,
		Latency: 1e-6, Jitter: 0.5e-6, Asym: 0.2e-6, SpikeProb: 0.01, Spike: 20e-6}
}

type pair struct{ client, server int }

// link is the state of one pair: its random stream and asymmetry.
type link struct {
	rng  *rand.Rand
	asym float64
}

// meeting is one batch: the first of the two ranks to arrive leaves its arguments and
// waits on done; the second runs the batch and closes done.
type meeting struct {
	clientIn, serverIn bool
	n                  int
	delay              float64
	model              clocksync.Model
	samples            []clocksync.Sample
	err                error
	done               chan struct{}
}

// cluster simulates the ranks. Each rank runs the algorithm in its own goroutine but
// only ever blocks on its peer of the moment, and the simulated time of a batch depends
// only on the two ranks' states and the pair's random stream, so results do not depend
// on the goroutine schedule: the simulation is deterministic for a seed.
type cluster struct {
	cfg           simConfig
	offset, drift []float64
	now           []float64 // true time at which each rank is ready for its next call
	depth, last   []int     // rounds on the critical path to each rank; last peer
	pingpongs     []int     // round trips each rank took part in

	mu      sync.Mutex
	pending map[pair]*meeting
	links   map[pair]*link
	alive   int
	blocked int
	err     error
}

func newCluster(cfg simConfig) *cluster {
	p := cfg.Ranks
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x5eed))
	c := &cluster{cfg: cfg, offset: make([]float64, p), drift: make([]float64, p),
		now: make([]float64, p), depth: make([]int, p), last: make([]int, p),
		pingpongs: make([]int, p), pending: map[pair]*meeting{}, links: map[pair]*link{}}
	for r := range p {
		c.offset[r] = (2*rng.Float64() - 1) * cfg.MaxOffset
		c.drift[r] = (2*rng.Float64() - 1) * cfg.MaxDrift
		c.last[r] = -1
	}
	return c
}

// local reads rank r's clock at true time t.
func (c *cluster) local(r int, t float64) float64 { return t*(1+c.drift[r]) + c.offset[r] }

// trueAt is the true time at which rank r's clock reads local.
func (c *cluster) trueAt(r int, local float64) float64 {
	return (local - c.offset[r]) / (1 + c.drift[r])
}

// run calls alg.Sync on every rank and returns the models, by rank.
func (c *cluster) run(alg clocksync.Algorithm) ([]clocksync.Model, error) {
	p := c.cfg.Ranks
	models, errs := make([]clocksync.Model, p), make([]error, p)
	c.alive = p
	var wg sync.WaitGroup
	for r := range p {
		wg.Go(func() {
			models[r], errs[r] = alg.Sync(node{c, r})
			c.mu.Lock()
			c.alive--
			c.checkDeadlock()
			c.mu.Unlock()
		})
	}
	wg.Wait()
	return models, errors.Join(errs...)
}

// end is the true time at which the last rank finished.
func (c *cluster) end() float64 {
	var t float64
	for _, v := range c.now {
		t = max(t, v)
	}
	return t
}

// rounds is the longest chain of sequential exchange phases: consecutive batches of
// the same pair count once.
func (c *cluster) rounds() int {
	d := 0
	for _, v := range c.depth {
		d = max(d, v)
	}
	return d
}

// checkDeadlock fails all waiting ranks when every live rank waits (c.mu held).
func (c *cluster) checkDeadlock() {
	if c.blocked == 0 || c.blocked < c.alive {
		return
	}
	c.err = fmt.Errorf("sim: deadlock: %d ranks wait for peers that never come", c.blocked)
	for k, m := range c.pending {
		m.err = c.err
		close(m.done)
		delete(c.pending, k)
	}
	c.blocked = 0
}

// meet joins the batch of pair k from one side and returns it once it has run.
func (c *cluster) meet(k pair, client bool, n int, delay float64, model clocksync.Model) (*meeting, error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, c.err
	}
	m, ok := c.pending[k]
	if !ok {
		m = &meeting{n: n, done: make(chan struct{})}
		m.fill(client, delay, model)
		c.pending[k] = m
		c.blocked++
		c.checkDeadlock()
		c.mu.Unlock()
		<-m.done
		return m, m.err
	}
	delete(c.pending, k)
	c.blocked--
	l := c.links[k]
	if l == nil {
		l = &link{rng: rand.New(rand.NewPCG(c.cfg.Seed, uint64(k.client)<<32|uint64(k.server)))}
		l.asym = (2*l.rng.Float64() - 1) * c.cfg.Asym
		c.links[k] = l
	}
	c.mu.Unlock()
	switch {
	case (client && m.clientIn) || (!client && m.serverIn):
		m.err = fmt.Errorf("sim: ranks %d and %d both call the same side", k.client, k.server)
	case m.n != n:
		m.err = fmt.Errorf("sim: ranks %d and %d disagree on n: %d and %d", k.client, k.server, m.n, n)
	default:
		m.fill(client, delay, model)
		c.batch(k, l, m)
	}
	close(m.done)
	return m, m.err
}

func (m *meeting) fill(client bool, delay float64, model clocksync.Model) {
	if client {
		m.clientIn, m.delay = true, delay
	} else {
		m.serverIn, m.model = true, model
	}
}

// delay draws one message's one-way delay; sign is +1 out (ping), -1 back (pong).
func (c *cluster) delay(l *link, sign float64) float64 {
	d := c.cfg.Latency + sign*l.asym/2 + l.rng.ExpFloat64()*c.cfg.Jitter
	if l.rng.Float64() < c.cfg.SpikeProb {
		d += l.rng.ExpFloat64() * c.cfg.Spike
	}
	return d
}

// batch runs one batch in simulated time. Both ranks are inside meet, so their state is
// this goroutine's alone.
func (c *cluster) batch(k pair, l *link, m *meeting) {
	cl, sv := k.client, k.server
	tc := c.now[cl] + m.delay/(1+c.drift[cl])
	ts := c.now[sv]
	m.samples = make([]clocksync.Sample, m.n)
	for i := range m.samples {
		ts = max(ts, tc+c.delay(l, 1)) // the server answers once ping and server are there
		back := ts + c.delay(l, -1)
		m.samples[i] = clocksync.Sample{Send: c.local(cl, tc), Remote: c.local(sv, ts), Recv: c.local(cl, back)}
		tc = back
	}
	c.now[cl] = max(tc, ts+c.delay(l, -1)) // the trailer follows the last pong
	c.now[sv] = ts
	c.pingpongs[cl] += m.n
	c.pingpongs[sv] += m.n
	if c.last[cl] != sv || c.last[sv] != cl || c.depth[cl] != c.depth[sv] {
		d := max(c.depth[cl], c.depth[sv]) + 1
		c.depth[cl], c.depth[sv] = d, d
		c.last[cl], c.last[sv] = sv, cl
	}
}

// node is one rank's Exchanger.
type node struct {
	c *cluster
	r int
}

func (x node) Rank() int { return x.r }
func (x node) Size() int { return x.c.cfg.Ranks }

func (x node) PingPong(server, n int, delay float64) ([]clocksync.Sample, clocksync.Model, error) {
	if server == x.r || server < 0 || server >= x.c.cfg.Ranks || n < 1 || delay < 0 {
		return nil, clocksync.Model{}, fmt.Errorf("sim: rank %d: bad PingPong(%d, %d, %g)", x.r, server, n, delay)
	}
	m, err := x.c.meet(pair{x.r, server}, true, n, delay, clocksync.Model{})
	if err != nil {
		return nil, clocksync.Model{}, err
	}
	return m.samples, m.model, nil
}

func (x node) Serve(client, n int, model clocksync.Model) error {
	if client == x.r || client < 0 || client >= x.c.cfg.Ranks || n < 1 {
		return fmt.Errorf("sim: rank %d: bad Serve(%d, %d)", x.r, client, n)
	}
	_, err := x.c.meet(pair{client, x.r}, false, n, 0, model)
	return err
}

// errAt is rank r's error against the root's clock at true time t.
func (c *cluster) errAt(m clocksync.Model, r, root int, t float64) float64 {
	return m.Global(c.local(r, t)) - c.local(root, t)
}

// maxAbs is the largest |v|.
func maxAbs(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = max(m, math.Abs(x))
	}
	return m
}
