package plots

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skampi/skampi/report"
)

// longNames is overlap-np2.jsonl with its first measurement named by 5,000 characters,
// and its second twice, as two measurements whose names differ only after character
// 250: each draws an overlap figure named after it.
func longNames(t *testing.T) string {
	t.Helper()
	f, err := os.Open("testdata/overlap-np2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []map[string]any
	var names []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		if name, ok := m["measurement"].(string); ok && m["kind"] == "point" && !slices.Contains(names, name) {
			names = append(names, name)
		}
		lines = append(lines, m)
	}
	if len(names) < 2 {
		t.Fatalf("measurements %v", names)
	}
	shared := strings.Repeat("P", 250)
	var out bytes.Buffer
	var twins []map[string]any
	for _, m := range lines {
		switch m["measurement"] {
		case names[0]:
			m["measurement"] = strings.Repeat("L", 5000)
		case names[1]:
			twin := map[string]any{}
			for k, v := range m {
				twin[k] = v
			}
			twin["measurement"], twin["point_index"] = shared+"-beta", 1000+len(twins)
			twins = append(twins, twin)
			m["measurement"] = shared + "-alpha"
		}
	}
	for _, m := range append(lines, twins...) {
		b, _ := json.Marshal(m)
		out.Write(append(b, '\n'))
	}
	path := filepath.Join(t.TempDir(), "long.jsonl")
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A measurement's name of any length never costs a figure: every figure is written,
// each file name under 255 bytes, the two that share 250 characters to different files.
func TestLongNamesWriteEveryFigure(t *testing.T) {
	src := longNames(t)
	if res, err := report.LoadAll(report.ParseSources([]string{src}), nil); err != nil || len(res.Errors()) > 0 {
		t.Fatalf("the file: %v %v", err, res.Errors())
	}
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	err := WriteFiles(FilesOptions{Sources: report.ParseSources([]string{src}), Dir: dir, Formats: []string{"png", "svg"},
		Stdout: &stdout, Stderr: &stderr})
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	entries, _ := os.ReadDir(dir)
	listed := strings.Fields(stdout.String())
	if len(entries) != len(listed) || len(entries) < 6 {
		t.Errorf("%d files, %d listed", len(entries), len(listed))
	}
	overlaps := 0
	for _, e := range entries {
		if len(e.Name()) > 255-8 { // room left for a run tag and a counter
			t.Errorf("%d bytes: %s", len(e.Name()), e.Name())
		}
		if strings.HasPrefix(e.Name(), "overlap-PPP") || strings.HasPrefix(e.Name(), "overlap-LLL") {
			overlaps++
		}
	}
	if overlaps != 6 { // three measurements, two formats
		t.Errorf("%d overlap figures of the long names, want 6", overlaps)
	}
}

// A figure that cannot be written costs that file alone: the others are written, the
// failure is one line, and the error at the end counts it.
func TestOneUnwritableFigure(t *testing.T) {
	src := longNames(t)
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	o := FilesOptions{Sources: report.ParseSources([]string{src}), Dir: dir, Formats: []string{"png"}, Stdout: &stdout, Stderr: &stderr}
	if err := WriteFiles(o); err != nil {
		t.Fatal(err)
	}
	all := strings.Fields(stdout.String())
	for _, p := range all {
		os.Remove(p)
	}
	blocked := all[len(all)/2]
	if err := os.Mkdir(blocked, 0o755); err != nil { // a directory where the figure goes
		t.Fatal(err)
	}
	stdout.Reset()
	err := WriteFiles(o)
	if err == nil || !strings.Contains(err.Error(), "1 figure file(s) could not be written") {
		t.Errorf("error %v", err)
	}
	if n := strings.Count(stderr.String(), "\n"); n != 1 || !strings.Contains(stderr.String(), filepath.Base(blocked)+" not written") {
		t.Errorf("stderr %q", stderr.String())
	}
	if got := strings.Fields(stdout.String()); len(got) != len(all)-1 {
		t.Errorf("%d of %d figures written", len(got), len(all)-1)
	}
}

// Names cut short keep apart what they came from, and names that differ only in case
// are two files on a file system that tells them apart and one that does not.
func TestSafeNameBounds(t *testing.T) {
	a, b := SafeName(strings.Repeat("x", 300)+"a"), SafeName(strings.Repeat("x", 300)+"b")
	if a == b || len(a) > MaxNameBytes || len(b) > MaxNameBytes {
		t.Errorf("%q, %q", a, b)
	}
	if s := SafeName(strings.Repeat("é/", 200)); len(s) > MaxNameBytes || s != SafeName(strings.Repeat("é/", 200)) {
		t.Errorf("%q", s)
	}
	figs := []*Figure{{Name: "Put"}, {Name: "put"}, {Name: "PUT"}}
	uniqueNames(figs, []string{"", "", ""})
	if figs[0].Name != "Put" || figs[1].Name != "put-2" || figs[2].Name != "PUT-3" {
		t.Errorf("%s %s %s", figs[0].Name, figs[1].Name, figs[2].Name)
	}
}
