//go:build mpi

package mpi

/*
#include "skampi.h"
*/
import "C"

import (
	"errors"
	"strings"

	"github.com/skampi/skampi/ops"
)

// Explain turns a family kernel's failure (SK_ERR_FAILED: which rank, call and file,
// and the library's words, as the kernel left them in sk_failure on every rank) into
// the error its point reports. words are the request's (ops.Request.Strings): the
// file, its directory. A family hands its Explain to RegisterKernels with its tables.
type Explain func(words map[string]string, msg string) error

// explainers: the Explain of each kernel whose tables came with one (written by the
// packages' init, read after).
var explainers = map[string]Explain{}

// failure is what an operation needs to say why its kernel failed.
type failure struct {
	explain Explain
	words   map[string]string
}

func failureOf(s ops.Request) failure { return failure{explainers[s.Kernel], s.Strings} }

// err reads the agreed failure (MPICH's error stack is several lines: one here) and
// lets the kernel's family explain it.
func (f failure) err() error {
	msg := strings.Join(strings.Fields(C.GoString(&C.sk_failure[0])), " ")
	if f.explain == nil {
		return errors.New(msg)
	}
	return f.explain(f.words, msg)
}
