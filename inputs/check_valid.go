package inputs

import (
	"errors"
	"fmt"
)

// Valid says what in the options is a mistake of the command line: no suite, or a job
// no machine has.
func (o CheckOptions) Valid() error {
	if o.Suite == "" {
		return errors.New("name a suite (-i SUITE) or operations (skampi check Pingpong_Send_Recv --sizes 8,1KiB)")
	}
	if o.NP < 1 || o.NP > MaxJobProcs {
		return fmt.Errorf("--np must be between 1 and %d, got %d", MaxJobProcs, o.NP)
	}
	return nil
}
