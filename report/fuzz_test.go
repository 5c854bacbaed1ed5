package report

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/skampi/skampi/record"
)

// addResultSeeds seeds f with every result file in testdata and testdata/bad.
func addResultSeeds(f *testing.F) {
	var files []string
	for _, pattern := range []string{"testdata/*.jsonl", "testdata/*.sko", "testdata/bad/*.jsonl", "testdata/bad/*.sko"} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("begin result a\nend result a\n"))
	f.Add([]byte("\xef\xbb\xbf{\"kind\":\"run\"}\n{\"kind\":\"po"))
}

// smallLimits lowers the limits so that fuzzed inputs reach them.
func smallLimits(f *testing.F) {
	line, lines := MaxLineBytes, MaxSourceLines
	MaxLineBytes, MaxSourceLines = 1<<10, 200
	f.Cleanup(func() { MaxLineBytes, MaxSourceLines = line, lines })
}

// checkRead holds for both readers: deterministic, an error is a *Problem (a refused
// source) with no records, output bounded by the input, and every problem on a line.
func checkRead(t *testing.T, read func([]byte) (*Results, error), data []byte) *Results {
	res, err := read(data)
	res2, err2 := read(data)
	if !reflect.DeepEqual(res, res2) || (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
		t.Fatalf("not deterministic:\n%v\n%v", err, err2)
	}
	lines := bytes.Count(data, []byte("\n")) + 1
	var p *Problem
	if err != nil && !errors.As(err, &p) {
		t.Fatalf("an error other than a *Problem: %v", err)
	}
	if p != nil && (p.Line < 1 || p.Line > lines+1 || p.Warning) {
		t.Fatalf("refused on line %d of %d: %v", p.Line, lines, p)
	}
	records := len(res.Runs) + len(res.Points) + len(res.Faults) + len(res.Clocks)
	if records > lines+1 || len(res.Problems) > min(maxProblems+1, lines+2) {
		t.Fatalf("%d records and %d problems from %d lines", records, len(res.Problems), lines)
	}
	for _, q := range res.Problems {
		if q.Line < 1 || q.Line > lines+1 || q.Msg == "" || q.File != "fuzz" {
			t.Fatalf("problem without its line: %+v (%d lines)", q, lines)
		}
	}
	return res
}

// FuzzReadJSONL: Read never panics, and every record it returns passes the checks it
// makes.
func FuzzReadJSONL(f *testing.F) {
	smallLimits(f)
	addResultSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		res := checkRead(t, func(b []byte) (*Results, error) { return Read(bytes.NewReader(b), "fuzz") }, data)
		runs := map[string]*record.Run{}
		for i := range res.Runs {
			r := &res.Runs[i]
			if msg := checkRun(r); msg != "" || runs[r.RunID] != nil || len(runFields(r)) > 0 {
				t.Fatalf("run %+v: %s %v", *r, msg, runFields(r))
			}
			runs[r.RunID] = r
		}
		none := func(string) bool { return false }
		for i := range res.Points {
			p := &res.Points[i]
			if msg := checkPoint(p, none); msg != "" || runs[p.RunID] == nil {
				t.Fatalf("point %+v: %s", *p, msg)
			}
			if msgs := pointFields(p, runs[p.RunID], nil); len(msgs) > 0 {
				t.Fatalf("point %+v: %v", *p, msgs)
			}
		}
		for i := range res.Faults {
			f := &res.Faults[i]
			if msg := checkFault(f); msg != "" || runs[f.RunID] == nil || len(faultFields(f, runs[f.RunID])) > 0 {
				t.Fatalf("fault %+v: %s", *f, msg)
			}
		}
		for i := range res.Clocks {
			if c := &res.Clocks[i]; len(clockFields(c, runs[c.RunID])) > 0 {
				t.Fatalf("clock %+v", *c)
			}
		}
	})
}

// FuzzReadSKO: ReadSKO never panics; a file it reads has one run, and every point and
// fault belongs to it and passes the checks of an imported point.
func FuzzReadSKO(f *testing.F) {
	smallLimits(f)
	addResultSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		res := checkRead(t, func(b []byte) (*Results, error) { return ReadSKO(bytes.NewReader(b), "fuzz") }, data)
		if len(res.Runs) == 0 {
			if len(res.Points)+len(res.Faults) > 0 {
				t.Fatalf("records without a run: %+v", res)
			}
			return
		}
		run := res.Runs[0]
		if len(res.Runs) != 1 || checkRun(&run) != "" || run.Points != len(res.Points)+len(res.Faults) {
			t.Fatalf("runs %+v", res.Runs)
		}
		for i := range res.Points {
			p := &res.Points[i]
			if msg := checkPoint(p, nil); msg != "" || p.RunID != run.RunID || p.PointIndex != i+1 {
				t.Fatalf("point %+v: %s", *p, msg)
			}
		}
		for i := range res.Faults {
			if fl := &res.Faults[i]; checkFault(fl) != "" || fl.RunID != run.RunID || fl.NProcs < 1 {
				t.Fatalf("fault %+v", *fl)
			}
		}
	})
}
