package neighbor

import (
	_ "embed"

	"github.com/skampi/skampi/inputs"
)

// The family's built-in suite (skampi -i neighbor).
//
//go:embed neighbor.toml
var suite []byte

func init() { inputs.RegisterBuiltin("neighbor", suite) }
