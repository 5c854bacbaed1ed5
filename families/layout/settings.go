package layout

import (
	"fmt"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
)

// The family's settings: how an operation that takes one (ops.Info.Layouts) finds its
// payload in memory (settingLayout, one of ops.DataLayouts), the elements from one
// payload element to the next in a strided layout (settingStride), and when a strided
// layout's datatype is committed (settingCommit: "once" per point, outside the timing,
// or commitEveryCall, in every step).
const (
	settingLayout   = "data_layout"
	settingCommit   = "type_commit"
	settingStride   = "stride"
	commitEveryCall = "every_call"
)

const layoutOps = "Pingpong_Send_Recv, Alltoall, Put, Get and Accumulate"

const stridedOps = `strided data layouts (data_layout = "vector", "indexed", "struct" or "packed") of ` + layoutOps

func init() {
	// Listed before target_busy, where the core had them: skampi run --help and a
	// one-line suite's text are what they were.
	inputs.RegisterSetting(inputs.FamilySetting{
		Name:    settingLayout,
		Doc:     `Pingpong_Send_Recv, Alltoall, Put, Get, Accumulate: the payload in memory: "contiguous" (default), or its elements stride elements apart (8-byte doubles, or the datatype's elements for Alltoall and Accumulate) moved as one MPI datatype committed per point, "vector", "indexed" or "struct", or "packed" (MPI_Pack before every send, MPI_Unpack after every receive); msg_bytes stays the payload`,
		Default: "contiguous",
		Parse:   inputs.SettingOneOf(ops.DataLayouts...),
		Applies: func(m *inputs.Measurement) bool { return m.Op.Layouts },
		What:    layoutOps,
		// A strided payload is whole elements: 8-byte doubles, or the datatype's.
		Grain: func(s inputs.Settings, op ops.Info) int64 {
			if op.Layouts && ops.Strided(layoutOf(s)) && !op.Datatyped {
				return 8
			}
			return 0
		},
		Bound:   boundSizes,
		BoundAt: "sizes",
		// A strided message spans stride times its payload.
		Span: func(s inputs.Settings, op ops.Info, bytes int64) int64 {
			if op.Layouts && ops.Strided(layoutOf(s)) {
				return ops.MulSat(bytes, int64(strideOf(s)))
			}
			return bytes
		},
		Sample:   `"vector"`,
		Before:   "target_busy",
		Recorded: []string{settingLayout, settingStride, settingCommit}, // stride and type_commit only where strided
	})
	inputs.RegisterSetting(inputs.FamilySetting{
		Name:    settingCommit,
		Doc:     `strided data layouts: "once" (default: the datatype committed per point, outside the timing) or "every_call" (built, committed and freed in every step, timed: SKaMPI's Datatype_*_everytime builds one per measurement, untimed)`,
		Default: "once",
		Parse:   inputs.SettingOneOf(ops.TypeCommits...),
		Applies: strided,
		What:    stridedOps,
		Before:  "target_busy",
	})
	inputs.RegisterSetting(inputs.FamilySetting{
		Name:    settingStride,
		Doc:     "strided data layouts: elements from one payload element to the next (default 2: every other element; 1: contiguous, through the datatype)",
		Default: 2,
		Parse:   inputs.SettingInt(1, 1024),
		Applies: strided,
		What:    stridedOps,
		Before:  "target_busy",
	})
}

func layoutOf(s inputs.Settings) string { return s.Value(settingLayout).(string) }
func strideOf(s inputs.Settings) int    { return s.Value(settingStride).(int) }
func commitOf(s inputs.Settings) string { return s.Value(settingCommit).(string) }

// strided: the measurement's payload is strided in memory.
func strided(m *inputs.Measurement) bool { return m.Op.Layouts && ops.Strided(layoutOf(m.Settings)) }

// boundSizes says why a strided layout cannot lay out the measurement's sizes: its
// payload is whole elements (8-byte doubles, or the datatype's for a typed operation),
// at least one, and a message may span no more than one MPI call moves.
func boundSizes(m *inputs.Measurement) string {
	if !strided(m) {
		return ""
	}
	s := m.Settings
	elem, what := int64(8), "8-byte doubles"
	if m.Op.Datatyped {
		elem, what = s.TypeSize(m.Op), fmt.Sprintf("datatype %q", s.DatatypeFor(m.Op))
	}
	for _, n := range m.Sizes {
		if n < elem || n%elem != 0 {
			return fmt.Sprintf("%s with data_layout %q lays out whole elements (%s): every size must be a positive multiple of %d bytes, got %d",
				m.Op.Name, layoutOf(s), what, elem, n)
		}
		if span := ops.MulSat(n, int64(strideOf(s))); span > ops.MaxBytes {
			return fmt.Sprintf("%s with data_layout %q and stride %d: %s spans %s, more than one MPI call moves (a C int of bytes, at most %d): lower stride or the sizes",
				m.Op.Name, layoutOf(s), strideOf(s), inputs.FormatSize(n), inputs.ApproxSize(span), int64(ops.MaxBytes))
		}
	}
	return ""
}
