package report

// Records of every family are read and drawn with the family linked in, as in skampi:
// its operations are the catalogue's.
import _ "github.com/skampi/skampi/families/all"
