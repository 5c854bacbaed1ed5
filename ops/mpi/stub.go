//go:build !mpi

package mpi

import (
	"errors"
	"os"
	"time"
	"unsafe"

	"github.com/skampi/skampi/clocksync"
	"github.com/skampi/skampi/measure"

	"github.com/skampi/skampi/ops"
)

// Available reports whether this build links MPI.
const Available = false

// Build names the MPI library this binary is built against: none.
const Build = "none"

var errNoMPI = errors.New("this skampi was built without MPI: build it with `make build` (go build -tags mpi)")

// World is unusable without MPI; every method reports errNoMPI.
type World struct{}

// Op is unusable without MPI.
type Op struct{}

// BeforeFinalize does nothing without MPI.
func (w *World) BeforeFinalize(func()) {}

// SetHosts does nothing without MPI.
func (w *World) SetHosts([]string) {}

// ThreadLevels mirrors the MPI build.
var ThreadLevels = []string{"default", "single", "funneled", "serialized", "multiple"}

func Init(string) (*World, error)                           { return nil, errNoMPI }
func (w *World) ThreadLevel() (string, string)              { return "", "" }
func (w *World) InitTime() (time.Time, time.Time)           { return time.Time{}, time.Time{} }
func Abort(int)                                             {}
func Exit(code int)                                         { os.Exit(code) }
func Progress() uint64                                      { return 0 }
func Library() (string, string)                             { return "none", "" }
func Timer() (string, float64)                              { return "none", 0 }
func Now() float64                                          { return 0 }
func (w *World) Finalize() error                            { return errNoMPI }
func (w *World) Rank() int                                  { return 0 }
func (w *World) Size() int                                  { return 1 }
func (w *World) Gather(float64) ([]float64, error)          { return nil, errNoMPI }
func (w *World) Bcast(int64) (int64, error)                 { return 0, errNoMPI }
func (w *World) Settle(time.Duration) (int, float64, error) { return 0, 0, errNoMPI }
func (w *World) Hosts() ([]string, error)                   { return nil, errNoMPI }
func (w *World) NewOp(ops.Request) (*Op, error)             { return nil, errNoMPI }
func (o *Op) Run(int, measure.Slot) (float64, error)        { return 0, errNoMPI }
func (o *Op) Close() error                                  { return nil }
func (o *Op) StartPVars([]string) error                     { return errNoMPI }
func (o *Op) PVars() (map[string][]float64, []string, error) {
	return nil, nil, errNoMPI
}
func (o *Op) Corruption() *ops.Corruption           { return nil }
func (o *Op) SetPhase(ops.Phase) error              { return errNoMPI }
func CalibrateSpin() float64                        { return 0 }
func ReadLibraryView([]string) (LibraryView, error) { return LibraryView{}, errNoMPI }
func TimerOverhead() float64                        { return 0 }
func SpinFor(float64, float64) int64                { return 0 }

// GatherStrings has no ranks to gather from without MPI.
func (w *World) GatherStrings(string) ([]string, error) { return nil, errNoMPI }

// RegisterKernels does nothing without MPI.
func RegisterKernels(unsafe.Pointer, int, ...Explain) {}

// Explain is a family's words for its kernels' failures (unused without MPI).
type Explain func(words map[string]string, msg string) error

// Without MPI there are no kernel tables.
func Kernels() []string       { return nil }
func DatatypeNames() []string { return nil }
func ReduceOpNames() []string { return nil }

// Clock is unusable without MPI.
type Clock struct{}

func (w *World) NewClock() *Clock                      { return &Clock{} }
func (c *Clock) Rank() int                             { return 0 }
func (c *Clock) Size() int                             { return 1 }
func (c *Clock) Serve(int, int, clocksync.Model) error { return errNoMPI }
func (c *Clock) PingPong(int, int, float64) ([]clocksync.Sample, clocksync.Model, error) {
	return nil, clocksync.Model{}, errNoMPI
}

// UnsupportedReason: without MPI there is nothing to refuse for want of a routine.
func UnsupportedReason(string) string { return "" }

// Capabilities: without MPI, none.
func Capabilities() []string { return nil }
