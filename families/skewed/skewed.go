// Package skewed is the skewed all-to-all (Alltoallv_Skewed): its operation (ops.go),
// its kernel (kernels/), its setting ratio and its part in the runner: how many times
// more its rank 0 sends, asked of the kernel and recorded.
package skewed

import (
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/runner"

	_ "github.com/skampi/skampi/families/skewed/kernels" // the kernel's table
)

// paramRatio: the ratio, as the kernel reads it (c->kparam[0]).
const paramRatio = "ratio"

// settingRatio: how many times more rank 0 sends than every other rank.
const settingRatio = "ratio"

func init() {
	// Listed before halo_compute, where the core had it.
	inputs.RegisterSetting(inputs.FamilySetting{
		Name:    settingRatio,
		Doc:     "Alltoallv_Skewed: how many times more rank 0 sends than every other rank (default 4)",
		Default: 4,
		Parse:   inputs.SettingInt(1, 1<<20),
		Applies: func(m *inputs.Measurement) bool { return m.Op.Skewed },
		What:    "Alltoallv_Skewed",
		Before:  "halo_compute",
		Sample:  "2",
	})
	runner.Register(runner.Family{
		Name: "skewed",
		Has:  func(op ops.Info) bool { return op.Skewed },
		Prepare: func(_ *runner.Runner, pt *inputs.Point, spec *ops.Request) error {
			spec.SetParam(paramRatio, float64(ratioOf(pt.Settings())))
			return nil
		},
		Record: func(p *record.Point, pt *inputs.Point, _ any) { p.Ratio = ratioOf(pt.Settings()) },
	})
}

// ratioOf is how many times more rank 0 sends under these settings.
func ratioOf(s inputs.Settings) int { return s.Value(settingRatio).(int) }
