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

// missingText is why a kernel cannot run: the library, as it names itself, and the
// routine it does not provide ("Open MPI v4.1.4 does not provide MPI_Psend_init").
func missingText(routine, lib string) string {
	if lib == "" {
		lib = "the library"
	}
	return lib + " does not provide " + routine
}

// supportHow is how a library provides a routine: not at all, under the standard's
// name, or only under its own extension's (Open MPI 4.1's MPIX_<Coll>_init).
type supportHow int

const (
	supportNone supportHow = iota
	supportStandard
	supportExtension
)

// collSupport is how the library provides one persistent collective ("Allreduce").
type collSupport struct {
	Name string
	How  supportHow
}

// capabilityText is skampi version's "can measure" items from what the library
// provides: the persistent collectives (extension says a missing MPI_<Coll>_init was
// looked for as MPIX_<Coll>_init too) and partitioned communication (partitioned
// names the routine it lacks, "" when it has them all). Each item is one clause, with
// no semicolon: the caller joins them with "; ".
func capabilityText(colls []collSupport, extension bool, partitioned string) []string {
	initName := func(coll string) string {
		if extension {
			return "MPI_" + coll + "_init or MPIX_" + coll + "_init"
		}
		return "MPI_" + coll + "_init"
	}
	var std, ext, none []string
	for _, c := range colls {
		switch c.How {
		case supportStandard:
			std = append(std, c.Name)
		case supportExtension:
			ext = append(ext, c.Name)
		default:
			none = append(none, c.Name)
		}
	}
	var out []string
	switch {
	case len(std)+len(ext) == 0:
		out = append(out, "no persistent collectives: the library does not provide "+initName("<Coll>")+
			", so the *_persistent and *_init operations are refused")
	default:
		how := "MPI_<Coll>_init"
		switch {
		case len(std) == 0:
			how = "the library's MPIX_<Coll>_init extension"
		case len(ext) > 0:
			how = "MPI_<Coll>_init, the library's MPIX_<Coll>_init extension for " + strings.Join(ext, ", ")
		}
		item := "persistent collectives (" + how + ")"
		if len(none) > 0 {
			names := make([]string, len(none))
			for i, c := range none {
				names[i] = initName(c)
			}
			item += " except " + strings.Join(none, ", ") + ": the library does not provide " +
				strings.Join(names, ", ") + ", so their _persistent and _init operations are refused"
		}
		out = append(out, item)
	}
	if partitioned == "" {
		out = append(out, "partitioned communication (MPI_Psend_init)")
	} else {
		out = append(out, "no partitioned communication: the library does not provide "+partitioned+
			", so Pingpong_Partitioned is refused")
	}
	return out
}
