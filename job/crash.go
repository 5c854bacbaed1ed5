package job

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/skampi/skampi/ops/mpi"
	"github.com/skampi/skampi/record"
)

// A crash inside C (the library, or a kernel) ends a rank with a trace file
// (ops/mpi/crash.c): what the rank was doing, the signal, the C function, the C stack
// and every goroutine's. Under skampi's own launcher the ranks say nothing on the
// terminal: the launcher reads the trace files of the launch, prints one line per rank
// and records the crash. Under another launcher each rank prints its line, and the rank
// that writes the results appends the crash record itself.
const (
	crashDirVar    = "SKAMPI_CRASH_DIR"    // where the ranks write their trace files
	crashLaunchVar = "SKAMPI_CRASH_LAUNCH" // the launch's token: the launcher reports
)

// traceFile is rank's trace file in dir.
func traceFile(dir string, rank int) string {
	return filepath.Join(dir, fmt.Sprintf("crash-rank%d.txt", rank))
}

func envValue(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v
		}
	}
	return ""
}

func newToken() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// withCrashDir gives the ranks of a self-launch where to write their trace files and
// the token that tells them the launcher reports: -o DIR, or else a temporary
// directory (cleanup removes it unless a trace is in it).
func withCrashDir(o Options) (Options, func(), error) {
	dir, cleanup := o.Out, func() {}
	if dir == "" {
		tmp, err := os.MkdirTemp("", "skampi-crash-")
		if err != nil {
			return o, cleanup, fmt.Errorf("a directory for crash traces: %w", err)
		}
		dir, cleanup = tmp, func() { os.Remove(tmp) } // only when empty
	}
	o.Env = append(slices.Clone(o.Env), crashDirVar+"="+dir, crashLaunchVar+"="+newToken())
	return o, cleanup, nil
}

// armCrash installs a rank's crash report before MPI starts.
func armCrash(o Options, rank int) {
	dir, token := envValue(o.Env, crashDirVar), envValue(o.Env, crashLaunchVar)
	if dir == "" {
		dir = o.Out
	}
	trace := ""
	if dir != "" {
		trace = traceFile(dir, rank)
	}
	if err := mpi.ArmCrashReport(mpi.CrashReport{Rank: rank, Trace: trace, Launch: token, Quiet: token != ""}); err != nil {
		fmt.Fprintf(o.Stderr, "skampi: rank %d: %v\n", rank, err)
	}
}

// crashReport is one rank's trace file, read back.
type crashReport struct {
	Path     string
	Launch   string
	Rank     int
	Host     string
	Signal   string
	Function string
	During   string
	Point    *record.Fault // what the rank was in: a point (Op set) or a phase; nil: unknown
	Recorded string        // the results file the rank appended its crash record to
	mod      time.Time
}

// line is the report's one line, as the rank says it under another launcher.
func (c *crashReport) line() string {
	s := fmt.Sprintf("rank %d (%s): %s", c.Rank, c.Host, c.Signal)
	if c.Function != "" {
		s += " in " + c.Function
	}
	return s + " during " + c.During + "; trace in " + c.Path
}

// inPoint reports whether the rank crashed inside a point (not a phase).
func (c *crashReport) inPoint() bool { return c.Point != nil && c.Point.Op != "" }

// readCrashReport reads the head of a trace file: "key: value" lines, and the function
// the Go side named after the C stack.
func readCrashReport(path string) (*crashReport, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	c := &crashReport{Path: path, Rank: -1, mod: st.ModTime()}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	first, inStacks := true, false
	for sc.Scan() {
		line := sc.Text()
		if first {
			if line != "skampi crash report" {
				return nil, fmt.Errorf("%s: not a skampi crash report", path)
			}
			first = false
			continue
		}
		if line == "Go stacks:" {
			inStacks = true
			continue
		}
		if inStacks && !strings.HasPrefix(line, "recorded: ") {
			continue
		}
		k, v, ok := strings.Cut(line, ": ")
		if !ok {
			continue
		}
		switch k {
		case "launch":
			c.Launch = v
		case "rank":
			c.Rank, _ = strconv.Atoi(v)
		case "host":
			c.Host = v
		case "signal":
			c.Signal = v
		case "function":
			if c.Function == "" {
				c.Function = v
			}
		case "during":
			c.During = v
		case "recorded":
			c.Recorded = v
		case "point":
			var p record.Fault
			if json.Unmarshal([]byte(v), &p) == nil {
				c.Point = &p
			}
		}
	}
	if first {
		return nil, fmt.Errorf("%s: empty", path)
	}
	return c, sc.Err()
}

// crashReports reads the trace files of launch token in dir, by rank, leaving out
// those seen holds unchanged (an earlier launch's); it adds what it read to seen.
func crashReports(dir, token string, seen map[string]time.Time) []*crashReport {
	if dir == "" || token == "" {
		return nil
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "crash-rank*.txt"))
	var out []*crashReport
	for _, p := range paths {
		c, err := readCrashReport(p)
		if err != nil || c.Launch != token {
			continue
		}
		if t, ok := seen[p]; ok && t.Equal(c.mod) {
			continue
		}
		seen[p] = c.mod
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b *crashReport) int { return a.Rank - b.Rank })
	return out
}

// peerCrashes are the trace files other ranks of this job wrote: of this launch under
// skampi's launcher, else changed since this process started.
func peerCrashes(o Options, started time.Time) []*crashReport {
	dir, token := envValue(o.Env, crashDirVar), envValue(o.Env, crashLaunchVar)
	if dir == "" {
		dir = o.Out
	}
	if dir == "" {
		return nil
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "crash-rank*.txt"))
	var out []*crashReport
	for _, p := range paths {
		c, err := readCrashReport(p)
		if err != nil || c.Launch != token || (token == "" && c.mod.Before(started)) {
			continue
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b *crashReport) int { return a.Rank - b.Rank })
	return out
}

// recordedBy reports whether a crashed rank appended its crash record itself.
func recordedBy(reports []*crashReport) bool {
	for _, c := range reports {
		if c.Recorded != "" {
			return true
		}
	}
	return false
}

// crashDetail is the fault record's detail: every rank's line.
func crashDetail(reports []*crashReport) string {
	lines := make([]string, len(reports))
	for i, c := range reports {
		lines[i] = c.line()
	}
	return strings.Join(lines, "; ")
}

// crashSignals says which signals ended which ranks, for a message.
func crashSignals(reports []*crashReport) string {
	var parts []string
	for _, c := range reports {
		parts = append(parts, fmt.Sprintf("%s on rank %d", c.Signal, c.Rank))
	}
	if len(parts) > 3 {
		parts = append(parts[:3], fmt.Sprintf("%d more", len(parts)-3))
	}
	return strings.Join(parts, ", ")
}

// note tells the crash report what the rank is doing (the watchdog's Note); the rank
// that writes the results under another launcher also gets the crash record to append.
func (p *phases) note(f *record.Fault) {
	p.noteMu.Lock()
	defer p.noteMu.Unlock()
	if f == nil {
		mpi.CrashWhere("between points (after "+p.last+")", "", "", "")
		return
	}
	text := strings.TrimSuffix(strings.TrimPrefix(f.Measurement, "("), ")")
	if f.Op != "" {
		text = fmt.Sprintf("%s %q, %s", f.Op, f.Measurement, pointText(f.Key()))
	}
	p.last = text
	point, _ := json.Marshal(f)
	if len(point) > mpi.CrashWhereMax/2 {
		// The ranks of a big job: a key without them matches the point all the same.
		g := *f
		g.Ranks = nil
		f = &g
		point, _ = json.Marshal(f)
	}
	pre, post := "", ""
	// Rank 0 has written the run header before any rank is in a point.
	if p.selfRecord.Load() && (p.header.Load() || f.Op != "") {
		c := *f
		if p.rootRunID != "" {
			c.RunID = p.rootRunID
		}
		c.Mark(record.FaultCrash, "\x00")
		b, _ := json.Marshal(c)
		pre, post, _ = strings.Cut(string(b), `\u0000`)
	}
	mpi.CrashWhere(text, string(point), pre, post)
}

// underSkampi reports whether skampi's own launcher started this rank (and reports
// its crashes).
func underSkampi(env []string) bool { return envValue(env, crashLaunchVar) != "" }
