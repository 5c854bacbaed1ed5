// Package all links in every measurement family: a family is one folder under
// families/ and one line here.
package all

import (
	_ "github.com/skampi/skampi/families/busy"
	_ "github.com/skampi/skampi/families/delay"
	_ "github.com/skampi/skampi/families/halo"
	_ "github.com/skampi/skampi/families/layout"
	_ "github.com/skampi/skampi/families/locks"
	_ "github.com/skampi/skampi/families/mpiio"
	_ "github.com/skampi/skampi/families/mt"
	_ "github.com/skampi/skampi/families/neighbor"
	_ "github.com/skampi/skampi/families/onesided"
	_ "github.com/skampi/skampi/families/partitioned"
	_ "github.com/skampi/skampi/families/pipelined"
	_ "github.com/skampi/skampi/families/ring"
	_ "github.com/skampi/skampi/families/shmem"
	_ "github.com/skampi/skampi/families/skewed"
)
