// Package all links in every measurement family: a family is one folder under
// families/ and one line here.
package all

import (
	_ "github.com/skampi/skampi/families/mpiio"
	_ "github.com/skampi/skampi/families/mt"
)
