// Package pipelined is the pipelined broadcast family: a broadcast written with
// point-to-point calls that cuts the message into segments of pipeline_segment bytes
// and passes each on as soon as it arrives, as a collective library's segmented
// algorithms do. Beside MPI_Bcast it shows what the library's choice is worth, and
// how the segment size moves the curve.
//
// Everything of the family is in this folder: the operation and its built-in suite (here),
// the setting, the number the kernel reads by name, the record's field, and the C
// kernel (kernels/, its own table). One line of families/all links it in.
package pipelined

import (
	_ "embed"
	"strconv"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/runner"

	_ "github.com/skampi/skampi/families/pipelined/kernels" // the kernel's table
)

const (
	family = "pipelined"
	// setting: the segment size, in bytes.
	setting = "pipeline_segment"
	// param: the number the kernel reads (its table's params).
	param = "segment_bytes"
)

// The family's section of the catalogue sits after the collectives' (300).
var _ = ops.Register(310, []ops.Info{
	ops.Collective(family, "Bcast_Pipelined_Chain", "bcast_pipelined_chain",
		"a chain from the root through the ranks in order, the message in segments of pipeline_segment bytes, each passed on (MPI_Isend) while the next is received (MPI_Irecv)",
		false, false, true),
})

//go:embed pipelined.toml
var suite []byte

func init() {
	inputs.RegisterBuiltin(family, suite)
	inputs.RegisterSetting(inputs.FamilySetting{
		Name:    setting,
		Doc:     "the segment a pipelined broadcast cuts its message into (Bcast_Pipelined_Chain), bytes; a message no larger travels whole",
		Default: int64(8 << 10),
		Parse:   inputs.SettingSize(1),
		Applies: has,
		What:    "the pipelined broadcasts (Bcast_Pipelined_Chain)",
	})
	runner.Register(runner.Family{
		Name: family,
		Has:  func(op ops.Info) bool { return op.Family == family },
		Prepare: func(_ *runner.Runner, pt *inputs.Point, spec *ops.Request) error {
			spec.SetParam(param, float64(segment(pt.Settings())))
			return nil
		},
		Record: func(p *record.Point, pt *inputs.Point, _ any) {
			p.SetFamilySetting(setting, strconv.FormatInt(segment(pt.Settings()), 10))
		},
	})
}

func has(m *inputs.Measurement) bool { return m.Op.Family == family }

// segment is the point's segment size, in bytes.
func segment(s inputs.Settings) int64 { return s.Value(setting).(int64) }
