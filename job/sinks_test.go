package job

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// appendRun opens the sinks of dir as a run does, writes one run of one point and
// closes them; it returns what was said on stderr.
func appendRun(t *testing.T, dir, runID string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	sink, files, err := openSinks(dir, &stdout, &stderr, report.TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	run := &record.Run{Kind: record.KindRun, RunID: runID, SkampiVersion: "test", NProcs: 2}
	p := &record.Point{Kind: record.KindPoint, RunID: runID, PointIndex: 1, Measurement: "ping-pong", Op: "Pingpong_Send_Recv", MsgBytes: 8,
		NProcs: 2, Ranks: []int{0, 1}, Method: "", Timer: "global-loop", Iterations: 10, TimeS: 1e-6, Reps: 3, Stop: "converged",
		MeanS: 1e-6, MedianS: 1e-6, MinS: 1e-6, P10S: 1e-6, P90S: 1e-6, MaxS: 1e-6, SamplesS: []float64{1e-6, 1e-6, 1e-6}}
	if err := sink.Run(run); err != nil {
		t.Fatal(err)
	}
	if err := sink.Point(p); err != nil {
		t.Fatal(err)
	}
	if err := sink.Close(); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		f.Close()
	}
	return stderr.String()
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// An append under the current header adds rows and says nothing.
func TestAppendKeepsTheCurrentCSV(t *testing.T) {
	dir := t.TempDir()
	for i, id := range []string{"a", "b"} {
		if msg := appendRun(t, dir, id); msg != "" {
			t.Errorf("run %d: %q", i, msg)
		}
	}
	rows := readCSV(t, filepath.Join(dir, "results.csv"))
	if len(rows) != 3 || !slices.Equal(rows[0], report.CSVHeader) || rows[1][0] != "a" || rows[2][0] != "b" {
		t.Errorf("rows %v", rows)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "results.*.csv")); len(m) != 0 {
		t.Errorf("set aside: %v", m)
	}
}

// A results.csv an older skampi wrote (fewer columns) is kept under its header's hash,
// never over another file, and the new rows start a results.csv of their own.
func TestAppendSetsAsideAnOlderCSV(t *testing.T) {
	dir := t.TempDir()
	header := strings.Join(report.CSVHeader[:25], ",")
	old := header + "\nr0,0,ping-pong,Pingpong_Send_Recv,8,2,0;1,global-loop,,0,10,1e-06,,,,,,,,,,3,0,,\n"
	path := filepath.Join(dir, "results.csv")
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(header))
	aside := filepath.Join(dir, "results."+hex.EncodeToString(sum[:])[:8]+".csv")
	// A file of that name already there (an earlier set-aside) stays as it is.
	if err := os.WriteFile(aside, []byte("earlier\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	msg := appendRun(t, dir, "new")
	want := strings.TrimSuffix(aside, ".csv") + "-1.csv"
	if strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "kept as "+want) {
		t.Errorf("stderr %q, want one line naming %s", msg, want)
	}
	if b, _ := os.ReadFile(want); string(b) != old {
		t.Errorf("%s holds %q, want the old file", want, b)
	}
	if b, _ := os.ReadFile(aside); string(b) != "earlier\n" {
		t.Errorf("%s overwritten: %q", aside, b)
	}
	rows := readCSV(t, path)
	if len(rows) != 2 || !slices.Equal(rows[0], report.CSVHeader) || rows[1][0] != "new" || len(rows[1]) != len(report.CSVHeader) {
		t.Errorf("results.csv rows %v", rows)
	}
	// The next run appends to the new file.
	if msg := appendRun(t, dir, "next"); msg != "" {
		t.Errorf("next run: %q", msg)
	}
	if rows := readCSV(t, path); len(rows) != 3 {
		t.Errorf("after the next run: %d rows", len(rows))
	}
}
