package history

// Records of the families' operations (one-sided Put, its default method flush) are
// compared with the family linked in, as in skampi: its operations are the catalogue's.
import _ "github.com/skampi/skampi/families/all"
