package tune

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skampi/skampi/report"
)

// lockName is the file in a sweep directory whose lock makes one tune run its only
// user: two would launch the same combinations at once (each measuring the other's
// load) and write one verdict over the other.
const lockName = ".lock"

// Lock takes dir's lock (dir must exist), or says who holds it; release gives it up.
// An ended process holds none, however it ended.
func Lock(dir string) (release func(), err error) {
	path := filepath.Join(dir, lockName)
	f, held, err := lockFile(path)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	if held {
		owner, _ := io.ReadAll(io.LimitReader(f, 512))
		f.Close()
		return nil, fmt.Errorf("%s is in use by another skampi tune (%s): wait for it to end, or use another -o",
			dir, strings.TrimSpace(report.Printable(string(owner))))
	}
	host, _ := os.Hostname()
	f.Truncate(0)
	fmt.Fprintf(f, "process %d on %s since %s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))
	return func() { unlockFile(f, path) }, nil
}
