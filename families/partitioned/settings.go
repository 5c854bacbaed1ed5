package partitioned

import (
	"fmt"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
)

// settingParts: how many parts a partitioned send is made ready in (MPI_Pready each).
const settingParts = "partitions"

func init() {
	// Listed before pvars, where the core had it.
	inputs.RegisterSetting(inputs.FamilySetting{
		Name:    settingParts,
		Doc:     "partitioned communication (Pingpong_Partitioned): the parts a message is sent in, each made ready by MPI_Pready (default 8); msg_bytes must be a multiple of it",
		Default: 8,
		Parse:   inputs.SettingInt(1, 1<<16),
		Applies: func(m *inputs.Measurement) bool { return m.Op.Partitioned },
		What:    "partitioned communication (Pingpong_Partitioned)",
		// Every size is sent in that many equal parts.
		Grain: func(s inputs.Settings, op ops.Info) int64 {
			if op.Partitioned {
				return int64(partsOf(s))
			}
			return 0
		},
		Bound:   boundSizes,
		BoundAt: "sizes",
		Before:  "pvars",
		Sample:  "2",
	})
}

// partsOf is how many parts a message is sent in under these settings.
func partsOf(s inputs.Settings) int { return s.Value(settingParts).(int) }

// boundSizes says why the measurement's sizes cannot be sent in its parts: the first
// size they do not divide.
func boundSizes(m *inputs.Measurement) string {
	if !m.Op.Partitioned {
		return ""
	}
	parts := partsOf(m.Settings)
	for _, n := range m.Sizes {
		if n%int64(parts) != 0 {
			return fmt.Sprintf("%s sends msg_bytes in %d partitions (partitions): every size must be a multiple of %d, got %d", m.Op.Name, parts, parts, n)
		}
	}
	return ""
}
