package mpi

import (
	"slices"
	"strings"
	"testing"
)

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

// Why a kernel cannot run names the library and the routine it lacks, never a version.
func TestMissingText(t *testing.T) {
	if got, want := missingText("MPI_Psend_init", "Open MPI v4.1.4"), "Open MPI v4.1.4 does not provide MPI_Psend_init"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got, want := missingText("MPI_Pready", ""), "the library does not provide MPI_Pready"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// skampi version's "can measure" items, for each way a library provides the persistent
// collectives and partitioned communication: Open MPI 4.1 (the MPIX_ extension, no
// MPI_Psend_init), MPICH 4.0 and Open MPI 5.0 (everything under the standard's names,
// whatever MPI_VERSION says), a library with none, and one with some; no item has the
// "; " the items are joined with, and none speaks of an MPI version.
func TestCapabilityText(t *testing.T) {
	all := func(how supportHow) []collSupport {
		var out []collSupport
		for _, n := range []string{"Barrier", "Bcast", "Alltoallw"} {
			out = append(out, collSupport{n, how})
		}
		return out
	}
	mixed := []collSupport{{"Barrier", supportStandard}, {"Bcast", supportExtension}, {"Alltoallw", supportNone}, {"Gatherv", supportNone}}
	for _, c := range []struct {
		name        string
		colls       []collSupport
		extension   bool
		partitioned string
		want        []string
	}{
		{"Open MPI 4.1", all(supportExtension), true, "MPI_Psend_init", []string{
			"persistent collectives (the library's MPIX_<Coll>_init extension)",
			"no partitioned communication: the library does not provide MPI_Psend_init, so Pingpong_Partitioned is refused"}},
		{"MPICH 4.0", all(supportStandard), false, "", []string{
			"persistent collectives (MPI_<Coll>_init)", "partitioned communication (MPI_Psend_init)"}},
		{"Open MPI 5.0", all(supportStandard), true, "", []string{
			"persistent collectives (MPI_<Coll>_init)", "partitioned communication (MPI_Psend_init)"}},
		{"none", all(supportNone), true, "MPI_Pready", []string{
			"no persistent collectives: the library does not provide MPI_<Coll>_init or MPIX_<Coll>_init, so the *_persistent and *_init operations are refused",
			"no partitioned communication: the library does not provide MPI_Pready, so Pingpong_Partitioned is refused"}},
		{"none, not Open MPI", all(supportNone), false, "MPI_Psend_init", []string{
			"no persistent collectives: the library does not provide MPI_<Coll>_init, so the *_persistent and *_init operations are refused",
			"no partitioned communication: the library does not provide MPI_Psend_init, so Pingpong_Partitioned is refused"}},
		{"some", mixed, false, "", []string{
			"persistent collectives (MPI_<Coll>_init, the library's MPIX_<Coll>_init extension for Bcast) except Alltoallw, Gatherv: the library does not provide MPI_Alltoallw_init, MPI_Gatherv_init, so their _persistent and _init operations are refused",
			"partitioned communication (MPI_Psend_init)"}},
	} {
		got := capabilityText(c.colls, c.extension, c.partitioned)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
		for _, item := range got {
			if strings.Contains(item, ";") || strings.Contains(item, "MPI-4") || strings.Contains(item, "MPI 3") {
				t.Errorf("%s: %q", c.name, item)
			}
		}
	}
}
