package layout_test

// The layouts are those of other families' operations too (Put, Get, Accumulate): the
// family's tests link every family in, as the program does.
import _ "github.com/skampi/skampi/families/all"
