package inputs

import "time"

// A job's start-up (MPI_Init, shmem_init, the first exchanges) and finalize are
// watched like points, but on a loaded machine or at scale they take far longer than a
// point's step: bounded by hang_timeout alone, a short one ended healthy jobs in
// MPI_Init. They have a bound of their own, at least a minute unless set.

// startupFloor is the least start-up bound when startup_timeout is not set.
const startupFloor = time.Minute

func init() {
	settingList = append(settingList, setting{"startup_timeout",
		`end the job when a rank's start-up (MPI_Init, shmem_init, the first exchanges) or finalize takes this long; [settings] only (default: the longer of hang_timeout and 1m)`,
		func(s *Settings, v any) (err error) {
			s.StartupTimeout, err = duration(v)
			return
		}})
}

// Startup is the effective bound of a start-up or finalize phase.
func (s Settings) Startup() time.Duration {
	if s.StartupTimeout > 0 {
		return s.StartupTimeout
	}
	return max(s.Hang(), startupFloor)
}
