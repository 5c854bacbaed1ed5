package onesided

import (
	_ "embed"

	"github.com/skampi/skampi/inputs"
)

// The family's built-in suites (skampi -i onesided, sync-semantics). The suites that
// measure its operations beside other families' stay in inputs/builtin: locks (the
// locks family's with the window's lock calls), passive (OpenSHMEM's beside MPI's),
// halo.
var (
	//go:embed onesided.toml
	suite []byte
	//go:embed sync-semantics.toml
	suiteSync []byte
)

// OSU's one-sided benchmarks (skampi run osu_put_latency, ...), with OSU 7.4's
// defaults where a setting says the same: a window of 1 for latencies, 64 for
// bandwidths, a 64-bit integer for the atomics.
var (
	window1  = [2]string{"window", "1"}
	window64 = [2]string{"window", "64"}
	long     = [2]string{"datatype", "long"}
)

func osu(name, op string, settings ...[2]string) inputs.OSUBenchmark {
	return inputs.OSUBenchmark{Name: name, Ops: []string{op}, Settings: settings}
}

func init() {
	inputs.RegisterBuiltin("onesided", suite)
	inputs.RegisterBuiltin("sync-semantics", suiteSync)
	for _, b := range []inputs.OSUBenchmark{
		osu("osu_put_latency", "Put", window1),
		osu("osu_get_latency", "Get", window1),
		osu("osu_put_bw", "Put", window64),
		osu("osu_get_bw", "Get", window64),
		{Name: "osu_put_bibw", Ops: []string{"Put_bidirectional"}, Methods: []string{"pscw_epoch"}, Settings: [][2]string{window64}},
		osu("osu_acc_latency", "Accumulate", window1),
		osu("osu_get_acc_latency", "Get_accumulate", window1),
		osu("osu_fop_latency", "Fetch_and_op", long),
		osu("osu_cas_latency", "Compare_and_swap", long),
	} {
		inputs.RegisterOSU(b)
	}
}
