package mpi

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrorText(t *testing.T) {
	e := &Error{Call: "MPI_Recv", Code: 77, Class: 15, Message: "MPI_ERR_TRUNCATE: message truncated"}
	want := "MPI_Recv: MPI_ERR_TRUNCATE: message truncated (MPI error class 15)"
	if got := e.Error(); got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestErrorIsAsThroughWrapping(t *testing.T) {
	var err error = &Error{Call: "kernel bcast", Code: 77, Class: 15, Message: "truncated"}
	err = fmt.Errorf("Bcast: %w", err)
	err = fmt.Errorf("point 3: %w", err)

	if !errors.Is(err, &Error{Class: 15}) {
		t.Error("errors.Is does not match an error of the same class")
	}
	if errors.Is(err, &Error{Class: 16}) {
		t.Error("errors.Is matches an error of another class")
	}
	if errors.Is(err, ErrInvalid) {
		t.Error("an MPI error is not ErrInvalid")
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatal("errors.As finds no *Error")
	}
	if e.Call != "kernel bcast" || e.Code != 77 || e.Class != 15 {
		t.Errorf("errors.As gave %+v", e)
	}
}

func TestErrorIsIgnoresOtherTargets(t *testing.T) {
	e := &Error{Class: 1}
	var nilErr *Error
	if e.Is(errors.New("x")) || e.Is(nilErr) {
		t.Error("Is matches a target that is no *Error")
	}
}

func TestErrInvalidThroughWrapping(t *testing.T) {
	err := fmt.Errorf("Bcast: no kernel %q in this build (%w)", "bcast_x", ErrInvalid)
	if !errors.Is(err, ErrInvalid) {
		t.Error("a wrapped refusal is not ErrInvalid")
	}
	var e *Error
	if errors.As(err, &e) {
		t.Error("a refusal is not an MPI *Error")
	}
}
