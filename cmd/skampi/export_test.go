package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

func TestExportVerb(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "a.txt")
	stdout, _, err := execVerbCmd(newExportCmd(), "", pt2ptA, "--format", "gobench", "-o", out)
	if err != nil || stdout != "" {
		t.Fatalf("%v %q", err, stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	r := benchfmt.NewReader(bytes.NewReader(data), out)
	n := 0
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok || res.GetConfig("suite") != "pt2pt" || !strings.HasPrefix(res.Name.String(), "Pingpong_Send_Recv/") && !strings.HasPrefix(res.Name.String(), "Bandwidth_Isend_Irecv/") {
			t.Fatalf("record %v", r.Result())
		}
		n++
	}
	if r.Err() != nil || n < 9*8 {
		t.Errorf("%d results, %v", n, r.Err())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	// .sko in, CSV out on stdout.
	stdout, _, err = execVerbCmd(newExportCmd(), "", "--format=csv", "../../report/testdata/cskampi.sko")
	rows, cerr := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil || cerr != nil || len(rows) != 10 || rows[0][0] != "run_id" || rows[1][3] != "Pingpong_Send_Recv" {
		t.Errorf("csv: %v %v %d rows", err, cerr, len(rows))
	}
	// stdin in, .sko out.
	data, _ = os.ReadFile(pt2ptB)
	stdout, _, err = execVerbCmd(newExportCmd(), string(data), "--format", "sko")
	if err != nil || !strings.HasPrefix(stdout, "# SKaMPI-style output of skampi 24918a8-dirty\n") || strings.Count(stdout, "begin result") != 2 {
		t.Errorf("sko: %v\n%s", err, stdout)
	}
}

func TestExportVerbErrors(t *testing.T) {
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{pt2ptA}, 2, `--format must be one of csv, sko, gobench, got ""`},
		{[]string{pt2ptA, "--format", "json"}, 2, `--format must be one of csv, sko, gobench, got "json"`},
		{[]string{"/no/such.jsonl", "--format", "csv"}, 1, "open /no/such.jsonl: no such file or directory"},
		{[]string{pt2ptA, "--format", "csv", "-o", "/no/such/dir/x.csv"}, 1, "no such file or directory"},
	}
	for _, c := range cases {
		_, _, err := execVerbCmd(newExportCmd(), "", c.args...)
		if verbExitCode(err) != c.code || err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%v: code %d, %v; want %d, %q", c.args, verbExitCode(err), err, c.code, c.msg)
		}
	}
}
