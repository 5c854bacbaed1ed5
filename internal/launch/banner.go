package launch

import (
	"bytes"
	"io"
	"strings"
	"sync"
)

// bannerPhrases mark the launchers' own blocks about a job that failed: skampi has said
// what happened in one line already (a rank's error, a crash, a hang), and the banner
// only buries it.
var bannerPhrases = []string{
	"MPI_ABORT was invoked",
	"Primary job  terminated normally", "Primary job terminated normally",
	// after the launcher's own name, which may be mpirun.openmpi, orterun, mpiexec
	"detected that one or more processes exited with non-zero status",
	"noticed that process rank",
	"BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES", // MPICH's Hydra
}

// droppedLines are single lines of the same kind.
var droppedLines = []string{
	"application called MPI_Abort(", // MPICH
	"more processes have sent help message", "more process has sent help message",
	`Set MCA parameter "orte_base_help_aggregate" to 0`,
	"show_help.c", // ORTE_ERROR_LOG of a help message lost while the job is torn down
}

// BannerFilter passes a launcher's stderr on to w, line by line, without the banners
// it prints around a failed job; everything else, its other messages included, passes
// unchanged. Close writes what is left of an unfinished line or block.
type BannerFilter struct {
	mu    sync.Mutex
	w     io.Writer
	line  []byte   // the unfinished line
	block [][]byte // lines of a block opened by a rule (-----, =====), nil outside one
}

func NewBannerFilter(w io.Writer) *BannerFilter { return &BannerFilter{w: w} }

func (f *BannerFilter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			f.line = append(f.line, p...)
			break
		}
		line := append(f.line, p[:i+1]...)
		f.line = nil
		p = p[i+1:]
		if err := f.take(line); err != nil {
			return n, err
		}
	}
	return n, nil
}

func (f *BannerFilter) take(line []byte) error {
	text := strings.TrimSpace(string(line))
	rule := len(text) >= 20 && (strings.Trim(text, "-") == "" || strings.Trim(text, "=") == "")
	if f.block == nil {
		if rule {
			f.block = [][]byte{line}
			return nil
		}
		for _, d := range droppedLines {
			if strings.Contains(text, d) {
				return nil
			}
		}
		_, err := f.w.Write(line)
		return err
	}
	f.block = append(f.block, line)
	if !rule {
		return nil
	}
	// A closing rule: the block is whole. (Hydra's body lines start with "=" but are
	// not rules.)
	block := f.block
	f.block = nil
	joined := string(bytes.Join(block, nil))
	for _, ph := range bannerPhrases {
		if strings.Contains(joined, ph) {
			return nil
		}
	}
	_, err := f.w.Write([]byte(joined))
	return err
}

// Close flushes what is buffered.
func (f *BannerFilter) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	var rest []byte
	for _, l := range f.block {
		rest = append(rest, l...)
	}
	rest = append(rest, f.line...)
	f.block, f.line = nil, nil
	if len(rest) == 0 {
		return nil
	}
	_, err := f.w.Write(rest)
	return err
}
