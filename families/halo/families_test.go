package halo_test

// The family's tests parse suites of operations other families register too (the halo exchanges, one-sided among them):
// they link every family in, as the program does.
import _ "github.com/skampi/skampi/families/all"
