package tune

// The built-in tune files name the families' operations (tune-rma: Put, Transpose_Put,
// ...): they are read with every family linked in, as in skampi.
import _ "github.com/skampi/skampi/families/all"
