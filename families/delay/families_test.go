package delay_test

// The family's tests parse suites of operations other families register too (delayed operations, one-sided and OpenSHMEM):
// they link every family in, as the program does.
import _ "github.com/skampi/skampi/families/all"
