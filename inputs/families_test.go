package inputs_test

import (
	"testing"

	_ "github.com/skampi/skampi/families/all" // the families' operations, settings and suites
	"github.com/skampi/skampi/inputs"
)

func TestBuiltinSuitesAtAnyProcessCount(t *testing.T) { inputs.BuiltinSuitesAtAnyProcessCount(t) }
