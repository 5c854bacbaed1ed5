package mpiio

import (
	_ "embed"

	"github.com/skampi/skampi/inputs"
)

// The family's built-in suite (skampi -i io).
//
//go:embed io.toml
var suite []byte

func init() { inputs.RegisterBuiltin("io", suite) }
