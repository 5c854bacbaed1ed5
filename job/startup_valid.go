package job

import "errors"

// Valid says what in the options is a mistake of the command line: no process count,
// or OpenSHMEM asked of a build without it.
func (o StartupOptions) Valid() error {
	if len(o.NPs) == 0 {
		return errors.New("--np must name a process count")
	}
	if o.Shmem && !shmemRuntime().Available {
		return errors.New("--shmem: " + shmemRuntime().Missing())
	}
	return nil
}
