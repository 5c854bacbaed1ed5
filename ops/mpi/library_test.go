package mpi

import "testing"

func TestCleanLibrary(t *testing.T) {
	for raw, want := range map[string]string{
		"MPICH Version:\t4.0.2\nMPICH Release date:\tThu Apr  7 12:34:45 CDT 2022\n": "MPICH 4.0.2",
		"Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4":   "Open MPI v4.1.4",
		"  Intel(R) MPI Library 2021.9 for Linux* OS\n\n":                            "Intel(R) MPI Library 2021.9 for Linux* OS",
		"": "",
	} {
		if got := CleanLibrary(raw); got != want {
			t.Errorf("%q: %q, want %q", raw, got, want)
		}
	}
}

// Why a kernel cannot run names the routine, the library and the MPI it implements.
func TestUnsupportedText(t *testing.T) {
	got := unsupportedText("MPI_Psend_init: no partitioned communication", "Open MPI v4.1.4", "3.1")
	if want := "MPI_Psend_init: Open MPI v4.1.4 implements MPI 3.1, no partitioned communication"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got := unsupportedText("odd", "L", "3.1"); got != "odd (L, MPI 3.1)" {
		t.Error(got)
	}
}
