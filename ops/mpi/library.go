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
