package job

// Every measurement family, registered with the runner (families/all: one line each).
import _ "github.com/skampi/skampi/families/all"
