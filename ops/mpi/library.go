package mpi

import "strings"

// CleanLibrary is a library's version text as records and headers carry it: its
// first line, up to a comma, without "Version:" and with single spaces
// ("MPICH Version:\t4.0.2\n..." is "MPICH 4.0.2"; "Open MPI v4.1.4, package: ..." is
// "Open MPI v4.1.4").
func CleanLibrary(raw string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(raw), "\n")
	line, _, _ = strings.Cut(line, ",")
	var words []string
	for _, w := range strings.Fields(line) {
		if w != "Version:" {
			words = append(words, w)
		}
	}
	return strings.Join(words, " ")
}

// LibraryName is how people write the library a Build names.
func LibraryName(build string) string {
	switch build {
	case "openmpi":
		return "Open MPI"
	case "mpich":
		return "MPICH"
	}
	return build
}

// unsupportedText is why a kernel cannot run, from what its table says ("MPI_Psend_init:
// no partitioned communication") and the library: "MPI_Psend_init: Open MPI v4.1.4
// implements MPI 3.1, no partitioned communication".
func unsupportedText(what, lib, std string) string {
	routine, missing, ok := strings.Cut(what, ": ")
	if !ok {
		return what + " (" + lib + ", MPI " + std + ")"
	}
	return routine + ": " + lib + " implements MPI " + std + ", " + missing
}
