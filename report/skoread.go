package report

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/skampi/skampi/record"
)

// SKOImportVersion is the skampi_version of the run header ReadSKO makes up.
const SKOImportVersion = "SKaMPI (.sko import)"

// SKOImportStop is the stop field of imported points: how they stopped is not recorded.
const SKOImportStop = "imported"

// ReadSKO reads SKaMPI's text output: the C SKaMPI's and ours (NewSKO). Results are in
// blocks from `begin result "NAME"` to `end result "NAME"` (the C SKaMPI writes both as
// comments, `# begin result ...`); other lines starting with '#' are comments. A data
// line is
//
//	count= BYTES  TIME  STDERR  REPS  [RANK TIMES...]  [# flags]      (skampi's)
//	VAR= VALUE [VAR= VALUE...]  BYTES  TIME  STDERR  REPS  [PROCESS TIMES...]   (C SKaMPI's)
//
// with times in microseconds; the C SKaMPI prints "---" for a process that took no part.
// skampi's lines are recognised by the file's header, or by a time (with a decimal point)
// right after `count=`. A `nodes=` or `procs=` variable gives the process count, else the
// number of process columns, else the header's. When another variable (e.g. iterations)
// is what varies at a constant size, it is added to the measurement name, so that no two
// points of a block share a size and process count.
//
// The result has one run header made up from the file (run_id from its name and a hash
// of its content, suite = its base name, skampi_version SKOImportVersion, and what
// skampi's header says: library, processes, timer, start) and one point per data line
// (msg_bytes, time_s, stderr_s, reps, rank_time_s; no samples_s: comparisons of
// imported points cannot test significance), with the measurement, method and
// settings of its block's `# setup` line and the breakdown of a `# breakdown` line
// after it. Fault comments skampi writes become fault records. Lines not understood are warnings; a file without a result block is an error.
func ReadSKO(r io.Reader, name string) (*Results, error) {
	p := &skoParser{name: name, res: &Results{}, nprocs: 0, bdFor: -1}
	p.problems = problems{res: p.res, name: name}
	lr := newLineReader(r, name)
	lr.sum = sha256.New()
	lr.sum.Write([]byte(skoBase(name) + "\n"))
	for {
		b, long, _, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			p.problems.close(lr.line)
			return p.res, err
		}
		if long {
			p.warn(lr.line, fmt.Sprintf("line longer than %s, skipped", Bytes(int64(MaxLineBytes))))
			continue
		}
		p.line(lr.line, string(b))
		if p.blocks == 0 && p.outside >= notRecords {
			break
		}
	}
	if p.blocks == 0 {
		*p.res = Results{}
		return p.res, &Problem{File: name, Line: 1, Msg: `not a result file: no "begin result" block, so not a SKaMPI .sko file`}
	}
	if p.open {
		p.warn(lr.line+1, fmt.Sprintf("result %q has no end line (file cut short?): its points are kept", p.block.name))
		p.closeBlock()
	}
	p.problems.close(lr.line)
	p.finish(lr.sum.Sum(nil))
	return p.res, nil
}

func skoBase(name string) string {
	if name == "-" {
		return "stdin"
	}
	return filepath.Base(name)
}

var (
	skoOurHeader = regexp.MustCompile(`^# SKaMPI-style output of skampi\b`)
	skoLibrary   = regexp.MustCompile(`^(.*), (\d+) processes on \d+ host\(s\)$`)
	skoStarted   = regexp.MustCompile(`^run \S+, started (.+)$`)
	skoSuite     = regexp.MustCompile(`^suite .* \(sha256 ([0-9a-f]*)\)$`)
	skoTimer     = regexp.MustCompile(`^timer (.*), resolution (\S+) s$`)
	skoOp        = regexp.MustCompile(`^op (\S+), times in microseconds$`)
	skoFaultRe   = regexp.MustCompile(`^(timeout|crash|denied|interrupted|corrupt|error): (\S+)(?: method=(\S+))?, (\d+) bytes: (.*)$`)
	skoCStarted  = regexp.MustCompile(`^Started at (.+)$`)
	skoVar       = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)=(.*)$`)
)

type skoParser struct {
	name      string
	res       *Results
	problems  problems
	outside   int  // data lines outside a block
	ours      bool // the file has skampi's header
	run       record.Run
	nprocs    int // from skampi's header
	open      bool
	block     skoBlock
	blocks    int
	index     int // last point/fault index
	pending   []skoFault
	measIndex map[string]int // index of each measurement named by a "# setup" line
	bdFor     int            // the point in res.Points a "# breakdown" line belongs to; -1: none
}

type skoBlock struct {
	name, op string
	setup    *record.Point // measurement, method and settings from a "# setup" line
	index    int           // its measurement's index
	first    int           // index in res.Points of its first point
	extra    []string      // per point: its variables other than the size and process count
	// progressEvery: the "# setup" line's, for breakdown lines without one.
	progressEvery int64
}

type skoFault struct {
	f     record.Fault
	block int  // blocks begun before it
	open  bool // inside a block (the last begun)
}

func (p *skoParser) warn(line int, msg string) {
	p.problems.add(line, msg, true)
}

func (p *skoParser) line(n int, s string) {
	if s == "" {
		return
	}
	if skoOurHeader.MatchString(s) {
		p.ours = true
	}
	if strings.HasPrefix(s, "#") {
		c := strings.TrimSpace(strings.TrimLeft(s, "#"))
		switch {
		case strings.HasPrefix(c, "begin result "), strings.HasPrefix(c, "end result "):
			p.marker(n, c)
		default:
			p.comment(n, c)
		}
		return
	}
	if strings.HasPrefix(s, "begin result ") || strings.HasPrefix(s, "end result ") {
		p.marker(n, s)
		return
	}
	if !p.open {
		p.outside++
		p.warn(n, "data outside a begin/end result block, skipped")
		return
	}
	p.bdFor = -1
	if msg := p.data(s); msg != "" {
		p.warn(n, msg)
	} else {
		p.bdFor = len(p.res.Points) - 1
	}
}

func (p *skoParser) marker(n int, s string) {
	p.bdFor = -1
	begin := strings.HasPrefix(s, "begin result ")
	name := skoName(strings.TrimPrefix(strings.TrimPrefix(s, "begin result "), "end result "))
	switch {
	case begin && p.open:
		p.warn(n, fmt.Sprintf("result %q begins before %q ends", name, p.block.name))
		p.closeBlock()
	case !begin && !p.open:
		p.warn(n, fmt.Sprintf("end of result %q that did not begin", name))
		return
	case !begin && name != p.block.name:
		p.warn(n, fmt.Sprintf("result %q ends as %q", p.block.name, name))
	}
	if !begin {
		p.closeBlock()
		return
	}
	p.open = true
	p.block = skoBlock{name: name, first: len(p.res.Points), index: p.blocks}
	p.blocks++
}

// skoName unquotes a result name: Go-quoted (skampi's %q) or plainly quoted (C).
func skoName(s string) string {
	s = strings.TrimSpace(s)
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return s[1 : len(s)-1]
	}
	return s
}

func (p *skoParser) comment(n int, c string) {
	if m := skoFaultRe.FindStringSubmatch(c); m != nil {
		size, _ := strconv.ParseInt(m[4], 10, 64)
		p.pending = append(p.pending, skoFault{f: record.Fault{Kind: record.KindFault, Op: m[2], Method: m[3], MsgBytes: size,
			Fault: m[1], Detail: m[5]}, block: p.blocks, open: p.open})
		return
	}
	if p.open {
		if m := skoOp.FindStringSubmatch(c); m != nil {
			p.block.op = m[1]
		} else if rest, ok := strings.CutPrefix(c, "setup "); ok {
			p.setup(rest)
		} else if rest, ok := strings.CutPrefix(c, "breakdown "); ok {
			if msg := p.breakdown(rest); msg != "" {
				p.warn(n, msg)
			}
		}
		return
	}
	if m := skoCStarted.FindStringSubmatch(c); m != nil && p.run.StartTime.IsZero() {
		if t, err := time.Parse("Mon Jan _2 15:04:05 2006", strings.TrimSpace(m[1])); err == nil {
			p.run.StartTime = t
		}
	}
	if !p.ours || p.run.MPILibrary != "" && p.nprocs > 0 && p.run.Timer != "" {
		return // the first header is the run's
	}
	if m := skoLibrary.FindStringSubmatch(c); m != nil {
		p.run.MPILibrary = m[1]
		p.nprocs, _ = strconv.Atoi(m[2])
	} else if m := skoStarted.FindStringSubmatch(c); m != nil {
		if t, err := time.Parse("2006-01-02 15:04:05 MST", m[1]); err == nil {
			p.run.StartTime = t
		}
	} else if m := skoSuite.FindStringSubmatch(c); m != nil {
		p.run.SuiteSHA256 = m[1]
	} else if m := skoTimer.FindStringSubmatch(c); m != nil {
		p.run.Timer = m[1]
		p.run.TimerResolution, _ = strconv.ParseFloat(m[2], 64)
	}
}

// finish makes up the run header and places the faults.
func (p *skoParser) finish(sum []byte) {
	base := skoBase(p.name)
	run := p.run
	run.Kind, run.RunID, run.SkampiVersion = record.KindRun, "sko-"+hex.EncodeToString(sum[:8]), SKOImportVersion
	run.Suite, run.SuiteSource = strings.TrimSuffix(base, filepath.Ext(base)), p.name
	run.NProcs = p.nprocs
	for _, pt := range p.res.Points {
		run.NProcs = max(run.NProcs, pt.NProcs)
	}
	run.NProcs = max(run.NProcs, 1)
	for i := range p.res.Points {
		p.res.Points[i].RunID = run.RunID
		if p.res.Points[i].NProcs == 0 {
			p.res.Points[i].NProcs = run.NProcs
		}
	}
	for _, f := range p.pending {
		f.f.RunID, f.f.NProcs = run.RunID, run.NProcs
		f.f.Measurement, f.f.MeasurementIndex = p.faultMeasurement(f)
		p.index++
		f.f.PointIndex = p.index
		p.res.Faults = append(p.res.Faults, f.f)
	}
	run.Points = len(p.res.Points) + len(p.res.Faults)
	p.res.Runs = []record.Run{run}
}

// faultMeasurement finds the measurement (name and index) of a fault comment, which
// names only the op: the block open around it if its op matches, else the next block of
// that op, else an earlier one, else the op itself.
func (p *skoParser) faultMeasurement(f skoFault) (string, int) {
	var before *record.Point
	for i := range p.res.Points {
		pt := &p.res.Points[i]
		if pt.Op != f.f.Op {
			continue
		}
		if f.open && pt.MeasurementIndex == f.block-1 || pt.MeasurementIndex >= f.block {
			return pt.Measurement, pt.MeasurementIndex
		}
		if before == nil {
			before = pt
		}
	}
	if before != nil {
		return before.Measurement, before.MeasurementIndex
	}
	return f.f.Op, p.blocks
}

// isSKO tells a .sko file from JSONL: by its extension, or by its first non-blank
// characters ('#' or "begin result"; JSONL starts with '{').
func isSKO(name string, br *bufio.Reader) bool {
	if strings.EqualFold(filepath.Ext(name), ".sko") {
		return true
	}
	head, _ := br.Peek(4096)
	head = bytes.TrimLeft(head, " \t\r\n")
	return bytes.HasPrefix(head, []byte("#")) || bytes.HasPrefix(head, []byte("begin result"))
}
