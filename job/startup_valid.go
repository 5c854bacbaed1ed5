package job

import (
	"errors"

	"github.com/skampi/skampi/ops/shmem"
)

// Valid says what in the options is a mistake of the command line: no process count,
// or OpenSHMEM asked of a build without it.
func (o StartupOptions) Valid() error {
	if len(o.NPs) == 0 {
		return errors.New("--np must name a process count")
	}
	if o.Shmem && !shmem.Available {
		return errors.New("--shmem: " + shmem.Missing())
	}
	return nil
}
