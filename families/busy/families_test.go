package busy_test

// The busy target keeps other families' targets busy (one-sided MPI, OpenSHMEM): its
// tests link every family in, as the program does.
import _ "github.com/skampi/skampi/families/all"
