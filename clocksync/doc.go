// Package clocksync fits a model global = f(local) of each rank's clock against a
// reference clock, the root rank's, so that ranks can agree on instants (window
// synchronisation) and compare timestamps. It is pure Go over one primitive that
// package ops/mpi implements: Exchanger, a batch of ping-pongs between two ranks.
//
// A Model is linear: global = local + Offset + Slope*(local-Ref). Two algorithms fit it,
// both collective (every rank calls Sync with its Exchanger and gets its own model):
//
//   - SKaMPI: the root answers every rank in turn (p-1 rounds); each rank intersects the
//     causal bounds of its ping-pongs. Offset only (Slope 0): the error grows by the
//     relative drift (up to ~2e-4 between two clocks) times the time since the fit.
//   - HCA: a binomial tree (ceil(log2 p) rounds); each rank fits offset and drift
//     against its parent by regression over spaced batches, and composes the fit with
//     its parent's model (Model.Compose).
//
// Usage, on every rank:
//
//	alg, err := clocksync.New("hca") // or clocksync.HCA{FitPoints: 40, Spacing: 10e-3}
//	model, err := alg.Sync(exchanger)
//	g := model.Global(localNow)      // the root's clock, estimated
//	t := model.Local(globalStart)    // when to start, on the local clock
//
// The tests run both algorithms on a simulated cluster of up to 4096 ranks with drifting
// clocks and jittery, asymmetric latencies (sim_test.go), and state the tolerances.
package clocksync
