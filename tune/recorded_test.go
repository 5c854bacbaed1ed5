package tune

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/report"
)

// Every built-in tune file, swept for real (testdata/sweeps/NAME.tar.gz: each launch's
// results.jsonl, 5 repeats, recorded on the 2-core development machine with Open MPI
// 4.1.4 and MPICH 4.0.2; tune-copy and tune-copy-mpich at --np 2,4): its verdict's
// table and recommendation agree. A built-in without a recording fails: sweep it
// (skampi tune -i NAME -o DIR) and keep DIR's */rep*/results.jsonl as its tarball.
func TestRecordedBuiltinTunesAgree(t *testing.T) {
	for _, name := range inputs.BuiltinTuneNames() {
		t.Run(name, func(t *testing.T) {
			dir := untar(t, filepath.Join("testdata", "sweeps", name+".tar.gz"))
			tu, err := inputs.LoadTuneNP(name, recordedNP(t, dir))
			if err != nil {
				t.Fatal(err)
			}
			results, err := Load(tu, dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range results {
				if len(r.Results.Runs) != tu.Repeats {
					t.Fatalf("%s: %d runs recorded, want %d", r.Label, len(r.Results.Runs), tu.Repeats)
				}
			}
			v, err := Judge(tu, results)
			if err != nil {
				t.Fatal(err)
			}
			agrees(t, name, v, results)
			agreesMarked(t, name, v)
			if name != "tune-eager" {
				return
			}
			// The recording where 16384 and 32768 took turns at being the fastest past
			// the eager limit: both significantly faster than 4096 there, so the range
			// goes to one of them, not back to the baseline size by size.
			recommended := 0
			for _, g := range v.Groups {
				recommended += len(g.Recommendation.PerRange)
			}
			if recommended == 0 {
				var text strings.Builder
				v.Write(&text)
				t.Errorf("tune-eager: no range recommended:\n%s", text.String())
			}
		})
	}
}

// untar unpacks a recorded sweep into a temporary directory.
func untar(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("no recorded sweep: %v", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return dir
		}
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Clean(h.Name)
		if h.Typeflag != tar.TypeReg || strings.HasPrefix(name, "..") || filepath.IsAbs(name) {
			continue
		}
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(tr)
		if err == nil {
			err = os.WriteFile(p, data, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// recordedNP is the process counts the recording's runs had.
func recordedNP(t *testing.T, dir string) []int {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*", "rep1", "results.jsonl"))
	var np []int
	for _, f := range files {
		res, err := report.LoadAll([]report.Source{{Name: f}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Runs {
			if !slices.Contains(np, r.NProcs) {
				np = append(np, r.NProcs)
			}
		}
	}
	slices.Sort(np)
	if len(np) == 0 {
		t.Fatal("the recording holds no run")
	}
	return np
}
