package inputs

import (
	"errors"
	"fmt"
)

// Valid says what in the options is a mistake of the command line: no suite, or a job
// no machine has.
func (o CheckOptions) Valid() error {
	if o.Suite == "" {
		return errors.New("-i SUITE is required")
	}
	if o.NP < 1 || o.NP > MaxJobProcs {
		return fmt.Errorf("--np must be between 1 and %d, got %d", MaxJobProcs, o.NP)
	}
	return nil
}
