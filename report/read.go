package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/skampi/skampi/record"
)

// Results is the content of one or more result files.
type Results struct {
	Runs     []record.Run
	Points   []record.Point
	Faults   []record.Fault
	Clocks   []record.Clock
	Problems []Problem
}

// Problem is something wrong with one line of a result file. Errors are records that
// could not be read or break the schema; warnings (a torn last line, an unknown record
// kind from a newer skampi) leave the rest of the file fully usable.
type Problem struct {
	File    string
	Line    int
	Msg     string
	Warning bool
}

func (p Problem) String() string {
	sev := "error"
	if p.Warning {
		sev = "warning"
	}
	return fmt.Sprintf("%s:%d: %s: %s", p.File, p.Line, sev, p.Msg)
}

// Errors returns the problems that are not warnings.
func (r *Results) Errors() []Problem {
	var out []Problem
	for _, p := range r.Problems {
		if !p.Warning {
			out = append(out, p)
		}
	}
	return out
}

var required = map[string][]string{
	record.KindRun:   {"run_id", "skampi_version", "nprocs", "start_time"},
	record.KindPoint: {"run_id", "point_index", "measurement", "op", "msg_bytes", "nprocs", "time_s", "stderr_s", "reps", "stop"},
	record.KindFault: {"run_id", "point_index", "measurement", "op", "msg_bytes", "nprocs", "fault"},
	record.KindClock: {"run_id", "rank", "algorithm", "elapsed_s", "residual_s"},
}

var faultKinds = []string{record.FaultTimeout, record.FaultCrash, record.FaultDenied, record.FaultInterrupted, record.FaultCorrupt}

// Read reads a result file, checking every record against the schema. Unknown fields
// are ignored so older readers keep working as the schema grows. Bad records are left
// out and described in Problems; the error is for I/O failures only.
func Read(r io.Reader, name string) (*Results, error) {
	res := &Results{}
	rd := bufio.NewReaderSize(r, 1<<16)
	runs := map[string]bool{}
	seen := map[string]map[int]int{} // run id -> point index -> line
	for line := 1; ; line++ {
		b, err := rd.ReadBytes('\n')
		if len(b) == 0 && err == io.EOF {
			break
		}
		if err != nil && err != io.EOF {
			return res, fmt.Errorf("reading %s: %w", name, err)
		}
		complete := bytes.HasSuffix(b, []byte("\n"))
		b = bytes.TrimSpace(b)
		if len(b) > 0 {
			problem := res.record(b, runs, seen, line)
			if problem != "" {
				p := Problem{File: name, Line: line, Msg: problem}
				if !complete && strings.HasPrefix(problem, "not a JSON record") {
					p.Msg, p.Warning = "torn last record (the writer was stopped mid-line), skipped", true
				} else if strings.HasPrefix(problem, "unknown record kind") {
					p.Warning = true
				}
				res.Problems = append(res.Problems, p)
			}
		}
		if err == io.EOF {
			break
		}
	}
	return res, nil
}

// record checks and stores one line; it returns what is wrong with it, if anything.
func (res *Results) record(b []byte, runs map[string]bool, seen map[string]map[int]int, line int) string {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return fmt.Sprintf("not a JSON record: %v", err)
	}
	var kind string
	if err := json.Unmarshal(fields["kind"], &kind); err != nil || kind == "" {
		return `no "kind" field`
	}
	req, known := required[kind]
	if !known {
		return fmt.Sprintf("unknown record kind %q, ignored", kind)
	}
	var missing []string
	for _, k := range req {
		if _, ok := fields[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return fmt.Sprintf("%s record lacks %s", kind, strings.Join(missing, ", "))
	}
	switch kind {
	case record.KindRun:
		var run record.Run
		if err := json.Unmarshal(b, &run); err != nil {
			return fmt.Sprintf("bad run record: %v", err)
		}
		if run.RunID == "" || run.NProcs < 1 {
			return "run record needs a run_id and nprocs >= 1"
		}
		if runs[run.RunID] {
			return fmt.Sprintf("run %s appears twice", run.RunID)
		}
		runs[run.RunID] = true
		res.Runs = append(res.Runs, run)
	case record.KindPoint:
		var p record.Point
		if err := json.Unmarshal(b, &p); err != nil {
			return fmt.Sprintf("bad point record: %v", err)
		}
		if msg := checkPoint(&p); msg != "" {
			return msg
		}
		if msg := index(runs, seen, p.RunID, p.PointIndex, line); msg != "" {
			return msg
		}
		res.Points = append(res.Points, p)
	case record.KindClock:
		var c record.Clock
		if err := json.Unmarshal(b, &c); err != nil {
			return fmt.Sprintf("bad clock record: %v", err)
		}
		if !runs[c.RunID] {
			return fmt.Sprintf("run_id %q has no run record before it", c.RunID)
		}
		res.Clocks = append(res.Clocks, c)
	case record.KindFault:
		var f record.Fault
		if err := json.Unmarshal(b, &f); err != nil {
			return fmt.Sprintf("bad fault record: %v", err)
		}
		ok := false
		for _, k := range faultKinds {
			ok = ok || f.Fault == k
		}
		if !ok {
			return fmt.Sprintf("unknown fault %q (known: %s)", f.Fault, strings.Join(faultKinds, ", "))
		}
		if msg := index(runs, seen, f.RunID, f.PointIndex, line); msg != "" {
			return msg
		}
		res.Faults = append(res.Faults, f)
	}
	return ""
}

func index(runs map[string]bool, seen map[string]map[int]int, run string, idx, line int) string {
	if !runs[run] {
		return fmt.Sprintf("run_id %q has no run record before it", run)
	}
	if seen[run] == nil {
		seen[run] = map[int]int{}
	}
	if prev, dup := seen[run][idx]; dup {
		return fmt.Sprintf("point_index %d of run %s already recorded on line %d", idx, run, prev)
	}
	seen[run][idx] = line
	return ""
}

func checkPoint(p *record.Point) string {
	switch {
	case p.Measurement == "" || p.Op == "":
		return "point record needs a measurement and an op"
	case p.MsgBytes < 0 || p.NProcs < 1 || p.Reps < 0 || p.PointIndex < 1:
		return "point record has a negative size, repetition count or index, or nprocs < 1"
	case len(p.SamplesS) != p.Reps:
		return fmt.Sprintf("point record has %d samples for %d repetitions", len(p.SamplesS), p.Reps)
	case p.Reps > 0 && !(p.MinS <= p.MedianS && p.MedianS <= p.MaxS):
		return "point record statistics are out of order (min <= median <= max)"
	case math.IsNaN(p.TimeS) || p.StderrS < 0:
		return "point record has an invalid time or a negative stderr"
	}
	return ""
}

// ReadJSONL is Read for callers that want any schema error as an error.
func ReadJSONL(r io.Reader, name string) (*Results, error) {
	res, err := Read(r, name)
	if err != nil {
		return res, err
	}
	if errs := res.Errors(); len(errs) > 0 {
		return res, errors.New(errs[0].String())
	}
	return res, nil
}
