package mpi

import (
	"errors"
	"sort"
	"sync"
	"time"
)

// Runtime is a second programming model that runs on MPI's world (OpenSHMEM): its
// kernels package registers it, from the real file where the build links it and from
// the stub where not, so the run asks it, never imports it.
type Runtime struct {
	Name      string             // as skampi version names it: "OpenSHMEM"
	Available bool               // whether this build links it
	Missing   func() string      // why this build cannot run its operations ("" when it can)
	Start     func(*World) error // starts it on every rank of a running world (collective)
	InitTime  func() time.Duration
	Library   func() (name, version string) // the library as it names itself, and its specification
}

// SHMEM is the name of the runtime the OpenSHMEM operations (ops.Info.SHMEM) need.
const SHMEM = "OpenSHMEM"

var runtimes struct {
	sync.Mutex
	byName map[string]Runtime
}

// RegisterRuntime adds a runtime; a name registered twice is a programming error.
func RegisterRuntime(r Runtime) {
	runtimes.Lock()
	defer runtimes.Unlock()
	if _, dup := runtimes.byName[r.Name]; dup {
		panic("mpi.RegisterRuntime: " + r.Name + " registered twice")
	}
	if runtimes.byName == nil {
		runtimes.byName = map[string]Runtime{}
	}
	runtimes.byName[r.Name] = r
}

// RuntimeNamed is the runtime registered under name, or one that is not available
// and says it is not linked in.
func RuntimeNamed(name string) Runtime {
	runtimes.Lock()
	r, ok := runtimes.byName[name]
	runtimes.Unlock()
	if ok {
		return r
	}
	missing := "this skampi was linked without " + name
	return Runtime{
		Name:     name,
		Missing:  func() string { return missing },
		Start:    func(*World) error { return errors.New(missing) },
		InitTime: func() time.Duration { return 0 },
		Library:  func() (string, string) { return "", "" },
	}
}

// Runtimes are the registered runtimes, by name.
func Runtimes() []Runtime {
	runtimes.Lock()
	defer runtimes.Unlock()
	out := make([]Runtime, 0, len(runtimes.byName))
	for _, r := range runtimes.byName {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
