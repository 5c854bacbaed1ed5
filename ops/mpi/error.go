package mpi

import (
	"errors"
	"fmt"
)

// Error is an error an MPI call returned, described by the library itself
// (MPI_Error_class, MPI_Error_string).
type Error struct {
	// Call is what failed: an MPI routine, or the kernel whose loop or preparation
	// the failing call was part of.
	Call string
	// Code is the library's error code; Class its error class. Codes are the
	// library's own, classes are what the MPI standard names (MPI_ERR_TRUNCATE, ...).
	Code, Class int
	// Message is the library's text for Code.
	Message string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s (MPI error class %d)", e.Call, e.Message, e.Class)
}

// Is matches any *Error of the same class, so errors.Is(err, &Error{Class: c}) asks
// whether MPI failed with class c, whatever the call and code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t != nil && t.Class == e.Class
}

// ErrInvalid marks an operation refused before any MPI call: a kernel, datatype or
// reduction operator this build does not know, a size, root or iteration count out
// of range. Such an error says what was wrong and wraps ErrInvalid.
var ErrInvalid = errors.New("invalid arguments")
