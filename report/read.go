package report

import (
	"fmt"
	"io"

	"github.com/skampi/skampi/record"
)

// Results is the content of one or more result files.
type Results struct {
	Runs     []record.Run
	Points   []record.Point
	Faults   []record.Fault
	Clocks   []record.Clock
	Steps    []record.Step // where refinement found a curve to jump
	Problems []Problem
}

// Problem is something wrong with one line of a result file. Errors are records that
// break the schema: they are left out (but for an unknown operation, which is kept), and
// `skampi validate` fails on them. Warnings (a torn or foreign line, a line too long, an
// unknown record kind from a newer skampi) leave the rest of the file fully usable. As an
// error value, a Problem is a whole source refused: not a result file, or over a limit.
type Problem struct {
	File    string
	Line    int
	Msg     string
	Warning bool
}

// String is the problem as one line for a terminal: control characters in it are escaped.
func (p Problem) String() string {
	sev := "error"
	if p.Warning {
		sev = "warning"
	}
	return Printable(fmt.Sprintf("%s:%d: %s: %s", p.File, p.Line, sev, p.Msg))
}

func (p *Problem) Error() string { return p.String() }

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

// Read reads a result file, checking every record against the schema. Unknown fields
// are ignored so older readers keep working as the schema grows. Bad records are left
// out and described in Problems, and so are torn or foreign lines, as warnings: they
// never hide the rest of the file. The error is an I/O failure, or a *Problem that
// refuses the whole source: it is not a result file (most of its lines are not records),
// or it is over a limit (MaxSourceBytes, MaxSourceLines).
func Read(r io.Reader, name string) (*Results, error) {
	return readJSONL(newLineReader(r, name))
}

// notRecords is how many foreign lines, without a record among them, make a source
// "not a result file" before it is read to its end.
const notRecords = 1000

func readJSONL(lr *lineReader) (*Results, error) {
	res := &Results{}
	ps := &problems{res: res, name: lr.name}
	s := &schema{runs: map[string]*record.Run{}, seen: map[string]map[int]int{}}
	records, foreign, firstForeign, lastTorn := 0, 0, 0, false
	for {
		b, long, complete, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			ps.close(lr.line)
			return res, err
		}
		if len(b) == 0 && !long {
			continue
		}
		var msgs []string
		var isRecord, warning bool
		if long {
			msgs, warning = []string{fmt.Sprintf("line longer than %s, skipped", Bytes(int64(MaxLineBytes)))}, true
		} else {
			msgs, isRecord, warning = s.record(res, b, lr.line)
		}
		if isRecord {
			records++
		} else {
			foreign++
			lastTorn = !complete
			if firstForeign == 0 {
				firstForeign = lr.line
			}
			if !complete && !long {
				msgs = []string{"torn last record (the writer was stopped mid-line), skipped"}
			}
		}
		for _, msg := range msgs {
			ps.add(lr.line, msg, warning)
		}
		if records == 0 && foreign >= notRecords {
			break
		}
	}
	if foreign > records && !(foreign == 1 && lastTorn) {
		*res = Results{}
		return res, &Problem{File: lr.name, Line: firstForeign, Msg: fmt.Sprintf(
			"not a result file: %d of its %d non-blank line(s) read are not skampi records", foreign, foreign+records)}
	}
	ps.close(lr.line)
	return res, nil
}

// ReadJSONL is Read for callers that want any schema error as an error.
func ReadJSONL(r io.Reader, name string) (*Results, error) {
	res, err := Read(r, name)
	if err != nil {
		return res, err
	}
	if errs := res.Errors(); len(errs) > 0 {
		return res, &errs[0]
	}
	return res, nil
}
