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
