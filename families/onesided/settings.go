package onesided

import (
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
)

// settingWindow: how one-sided operations get their window: "allocate"
// (MPI_Win_allocate), "create" (MPI_Win_create over skampi's buffer) or "dynamic"
// (MPI_Win_create_dynamic + MPI_Win_attach), one of ops.RMAWindows, which the
// engine's window service makes (ops.Request.RMAWindow). The job's memory check reads
// it by name: an allocated window is the library's memory.
const settingWindow = "rma_window"

func init() {
	// Listed before lock_hold, where the core had it: skampi run --help and a one-line
	// suite's text are what they were.
	inputs.RegisterSetting(inputs.FamilySetting{
		Name:    settingWindow,
		Doc:     `one-sided operations' window: "allocate" (MPI_Win_allocate, default), "create" or "dynamic"`,
		Default: "allocate",
		Parse:   inputs.SettingOneOf(ops.RMAWindows...),
		Applies: func(m *inputs.Measurement) bool { return m.Op.OneSided },
		What:    "one-sided MPI operations",
		Before:  "lock_hold",
	})
	// An allocated window is the library's memory, beside skampi's buffers (a created
	// or dynamic one is skampi's receive buffer): a slot per message, per process for
	// the operations of every process, and the window's spare.
	inputs.RegisterMemory(func(pt *inputs.Point, size int64) int64 {
		op, s := pt.Op(), pt.Settings()
		if !op.OneSided || window(s) != "allocate" {
			return 0
		}
		perProcess := int64(1)
		if op.PerProcess {
			perProcess = int64(pt.NProcs)
			if op.Pattern == ops.PatternPair {
				perProcess = 2 // a window over the pair alone
			}
		}
		return ops.MulSat(size, int64(s.Slots(op))*perProcess) + inputs.RMASpare
	})
}

// window is the point's kind of window.
func window(s inputs.Settings) string { return s.Value(settingWindow).(string) }
