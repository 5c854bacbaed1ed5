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
}

// window is the point's kind of window.
func window(s inputs.Settings) string { return s.Value(settingWindow).(string) }
