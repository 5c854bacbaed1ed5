package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

var required = map[string][]string{
	record.KindRun:   {"run_id", "skampi_version", "nprocs", "start_time"},
	record.KindPoint: {"run_id", "point_index", "measurement", "op", "msg_bytes", "nprocs", "time_s", "stderr_s", "reps", "stop"},
	record.KindFault: {"run_id", "point_index", "measurement", "op", "msg_bytes", "nprocs", "fault"},
	record.KindClock: {"run_id", "rank", "algorithm", "elapsed_s", "residual_s"},
	record.KindStep:  {"run_id", "measurement", "op", "nprocs", "lo_bytes", "hi_bytes", "found_lo_bytes", "found_hi_bytes", "confirmed"},
}

var faultKinds = []string{record.FaultTimeout, record.FaultCrash, record.FaultDenied, record.FaultInterrupted, record.FaultCorrupt, record.FaultError}

// foreignLine is the warning for a line that is not a JSON object with a "kind".
const foreignLine = "not a skampi record (a line torn by a crash or a full disk, or text from elsewhere), skipped"

// schema checks the records of one source against each other: runs before their
// points, no point index twice.
type schema struct {
	runs map[string]*record.Run
	seen map[string]map[int]int // run id -> point index -> line
	// The chains of resumed runs and the sizes of their curves (refinedSize).
	chain     map[string]string // run id -> its chain's first run
	lastChain string
	curves    map[curve]*sizes
}

// record checks and stores one line. It returns what is wrong with it, if anything,
// each problem on its own; isRecord: the line is a JSON object with a "kind" (else it
// is torn or foreign).
func (s *schema) record(res *Results, b []byte, line int) (msgs []string, isRecord, warning bool) {
	one := func(msg string) []string { return []string{msg} }
	if b[0] != '{' {
		return one(foreignLine), false, true
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return one(foreignLine), false, true
	}
	rawKind, ok := fields["kind"]
	if !ok {
		return one(foreignLine), false, true
	}
	var kind string
	if err := json.Unmarshal(rawKind, &kind); err != nil || kind == "" {
		return one(`"kind" must be a record kind such as "point"`), true, false
	}
	req, known := required[kind]
	if !known {
		return one(fmt.Sprintf("unknown record kind %q, ignored", kind)), true, true
	}
	var missing, null []string
	for _, k := range req {
		if v, ok := fields[k]; !ok {
			missing = append(missing, k)
		} else if string(v) == "null" {
			null = append(null, k)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return one(fmt.Sprintf("%s record lacks %s", kind, strings.Join(missing, ", "))), true, false
	}
	if len(null) > 0 {
		return one(fmt.Sprintf("%s record has null for %s: a value is needed", kind, strings.Join(null, ", "))), true, false
	}
	msgs, warning = s.store(res, kind, b, fields, line)
	return msgs, true, warning
}

// store checks a record of a known kind and keeps it unless a value in it is
// impossible; names it does not know are reported, and the record kept. warning: the
// messages are warnings (a run header's provenance that is wrong), the record kept.
func (s *schema) store(res *Results, kind string, b []byte, fields map[string]json.RawMessage, line int) (msgs []string, warning bool) {
	if kind == record.KindRun {
		return s.storeRun(res, b, fields)
	}
	return s.storeKind(res, kind, b, fields, line), false
}

func (s *schema) storeRun(res *Results, b []byte, fields map[string]json.RawMessage) (msgs []string, warning bool) {
	var run record.Run
	if err := json.Unmarshal(b, &run); err != nil {
		return []string{"run record: " + plainJSONError(err, fields)}, false
	}
	if msg := checkRun(&run); msg != "" {
		return []string{msg}, false
	}
	if msgs := runFields(&run); len(msgs) > 0 {
		return msgs, false
	}
	if s.runs[run.RunID] != nil {
		return []string{fmt.Sprintf("run %s appears twice", run.RunID)}, false
	}
	s.runs[run.RunID] = &run
	s.chainRun(&run)
	res.Runs = append(res.Runs, run)
	return runWarnings(&run), true
}

func (s *schema) storeKind(res *Results, kind string, b []byte, fields map[string]json.RawMessage, line int) []string {
	one := func(msg string) []string {
		if msg == "" {
			return nil
		}
		return []string{msg}
	}
	switch kind {
	case record.KindPoint:
		var p record.Point
		if err := json.Unmarshal(b, &p); err != nil {
			return one("point record: " + plainJSONError(err, fields))
		}
		has := func(k string) bool { _, ok := fields[k]; return ok }
		if msg := checkPoint(&p, has); msg != "" {
			return one(msg)
		}
		if msgs := pointFields(&p, s.runs[p.RunID], has); len(msgs) > 0 {
			return msgs
		}
		if msg := s.index(p.RunID, p.PointIndex, line); msg != "" {
			return one(msg)
		}
		if msg := s.refinedSize(&p, line); msg != "" {
			return one(msg)
		}
		res.Points = append(res.Points, p)
		return append(append(one(unknownOp(p.Op)), pointNames(&p)...), pointEffects(&p, s.runs[p.RunID])...)
	case record.KindClock:
		var c record.Clock
		if err := json.Unmarshal(b, &c); err != nil {
			return one("clock record: " + plainJSONError(err, fields))
		}
		if s.runs[c.RunID] == nil {
			return one(fmt.Sprintf("run_id %q has no run record before it", c.RunID))
		}
		if msgs := clockFields(&c, s.runs[c.RunID]); len(msgs) > 0 {
			return msgs
		}
		res.Clocks = append(res.Clocks, c)
		return clockNames(&c)
	case record.KindStep:
		var st record.Step
		if err := json.Unmarshal(b, &st); err != nil {
			return one("step record: " + plainJSONError(err, fields))
		}
		if s.runs[st.RunID] == nil {
			return one(fmt.Sprintf("run_id %q has no run record before it", st.RunID))
		}
		if msg := checkStep(&st); msg != "" {
			return one(msg)
		}
		if msgs := stepFields(&st, s.runs[st.RunID]); len(msgs) > 0 {
			return msgs
		}
		res.Steps = append(res.Steps, st)
		return one(unknownOp(st.Op))
	case record.KindFault:
		var f record.Fault
		if err := json.Unmarshal(b, &f); err != nil {
			return one("fault record: " + plainJSONError(err, fields))
		}
		if msg := checkFault(&f); msg != "" {
			return one(msg)
		}
		if msgs := faultFields(&f, s.runs[f.RunID]); len(msgs) > 0 {
			return msgs
		}
		if msg := s.index(f.RunID, f.PointIndex, line); msg != "" {
			return one(msg)
		}
		res.Faults = append(res.Faults, f)
		if f.Op == "" {
			return nil
		}
		return append(one(unknownOp(f.Op)), faultNames(&f)...)
	}
	return nil
}

// unknownOp is the error for an operation this skampi does not know. The record is kept:
// a newer skampi's results still plot, but validate says so.
func unknownOp(op string) string {
	if _, ok := ops.Lookup(op); ok {
		return ""
	}
	return fmt.Sprintf("op %q is not an operation this skampi knows (`skampi list`); the record is kept", op)
}

func (s *schema) index(run string, idx, line int) string {
	if s.runs[run] == nil {
		return fmt.Sprintf("run_id %q has no run record before it", run)
	}
	if idx == 0 {
		return "" // a fault of no point (a phase such as start-up): there may be several
	}
	if s.seen[run] == nil {
		s.seen[run] = map[int]int{}
	}
	if prev, dup := s.seen[run][idx]; dup {
		return fmt.Sprintf("point_index %d of run %s already recorded on line %d", idx, run, prev)
	}
	s.seen[run][idx] = line
	return ""
}

// checkStep: a step's sizes nest, the bracket around the sizes it was found between.
func checkStep(st *record.Step) string {
	if st.NProcs < 1 {
		return fmt.Sprintf("step record has nprocs %d: at least 1 is needed", st.NProcs)
	}
	if st.LoBytes < 0 || st.FoundLo < 0 || st.FoundLo >= st.FoundHi || st.LoBytes > st.FoundLo || st.HiBytes < st.FoundHi {
		return fmt.Sprintf("step record: sizes 0 <= %d <= %d < %d <= %d do not nest (lo_bytes, found_lo_bytes, found_hi_bytes, hi_bytes)",
			st.LoBytes, st.FoundLo, st.FoundHi, st.HiBytes)
	}
	return ""
}

func checkRun(r *record.Run) string {
	if r.RunID == "" || r.NProcs < 1 {
		return "run record needs a run_id and nprocs >= 1"
	}
	return ""
}

// checkPoint checks a point on its own. has tells which fields the record holds; nil
// for an imported point (a .sko line), which has no repetitions or percentiles.
func checkPoint(p *record.Point, has func(string) bool) string {
	switch {
	case p.Measurement == "" || p.Op == "":
		return "point record needs a measurement and an op"
	case p.MsgBytes < 0:
		return fmt.Sprintf("point record has a negative msg_bytes (%d)", p.MsgBytes)
	case p.NProcs < 1:
		return fmt.Sprintf("point record has nprocs %d: at least 1 is needed", p.NProcs)
	case p.Reps < 0 || p.PointIndex < 1:
		return fmt.Sprintf("point record has reps %d and point_index %d: reps >= 0 and point_index >= 1 are needed", p.Reps, p.PointIndex)
	case math.IsNaN(p.TimeS) || math.IsInf(p.TimeS, 0):
		return "point record has no valid time_s"
	case !(p.StderrS >= 0):
		return fmt.Sprintf("point record has a negative stderr_s (%g)", p.StderrS)
	case has == nil: // imported: what another program printed is kept as it is
		return ""
	case p.TimeS < 0 && !slices.Contains(p.Flags, record.FlagNegative):
		return fmt.Sprintf("point record has a negative time_s (%g) without the %s flag", p.TimeS, record.FlagNegative)
	case len(p.SamplesS) != p.Reps:
		return fmt.Sprintf("point record has %d samples for %d repetitions: samples_s holds one per repetition (reps)", len(p.SamplesS), p.Reps)
	}
	if p.Reps == 0 {
		return ""
	}
	// Percentiles the record holds, in the order they must be.
	order := []struct {
		name string
		v    float64
	}{{"min_s", p.MinS}, {"p10_s", p.P10S}, {"median_s", p.MedianS}, {"p90_s", p.P90S}, {"max_s", p.MaxS}}
	prev := -1
	for i, o := range order {
		if !has(o.name) {
			continue
		}
		if prev >= 0 && !(order[prev].v <= o.v) {
			return fmt.Sprintf("point record statistics are out of order: %s %g > %s %g (min <= p10 <= median <= p90 <= max)",
				order[prev].name, order[prev].v, o.name, o.v)
		}
		prev = i
	}
	return ""
}

func checkFault(f *record.Fault) string {
	if !slices.Contains(faultKinds, f.Fault) {
		return fmt.Sprintf("unknown fault %q (known: %s)", f.Fault, strings.Join(faultKinds, ", "))
	}
	// A fault outside any point (MPI_Init hung) has no op, index or process count.
	if f.MsgBytes < 0 || f.PointIndex < 0 || f.NProcs < 0 {
		return "fault record has a negative msg_bytes, point_index or nprocs"
	}
	return ""
}

// plainJSONError says in plain words which field has what wrong, instead of Go's
// unmarshal message.
func plainJSONError(err error, fields map[string]json.RawMessage) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		got := te.Value
		if strings.HasPrefix(got, "number ") {
			got = strings.TrimPrefix(got, "number ")
		} else {
			got = map[string]string{"string": "a string", "bool": "true or false", "array": "a list", "object": "an object",
				"number": "a number"}[got]
		}
		field := te.Field
		if field == "" {
			field = "a field"
		}
		if raw := fields[field]; len(raw) > 0 && raw[0] == '[' && te.Type.Kind() != reflect.Slice {
			return fmt.Sprintf("%s holds %s where %s is needed", field, got, typeWords(te.Type))
		}
		return fmt.Sprintf("%s is %s; it must be %s", field, got, typeWords(te.Type))
	}
	for _, k := range []string{"start_time", "time"} {
		if raw, ok := fields[k]; ok {
			var t time.Time
			if json.Unmarshal(raw, &t) != nil {
				return fmt.Sprintf("%s is not a time like \"2026-01-02T15:04:05Z\"", k)
			}
		}
	}
	return "a field has a value of the wrong kind"
}

func typeWords(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "a whole number in range"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number >= 0 in range"
	case reflect.Float32, reflect.Float64:
		return "a number in range"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		switch w := typeWords(t.Elem()); {
		case strings.Contains(w, "number"):
			return "a list of numbers"
		case w == "a string":
			return "a list of strings"
		}
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return typeWords(t.Elem())
	}
	return t.String()
}
