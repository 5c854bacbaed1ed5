package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// readingVerbs runs every verb that reads results on one file, each writing into dir;
// it returns each verb's exit status and output.
func readingVerbs(t *testing.T, dir, file string) map[string][3]string {
	t.Helper()
	verbs := map[string][]string{
		"validate": {"validate", file},
		"plot":     {"plot", "-o", filepath.Join(dir, "figs"), "--format", "svg", file},
		"report":   {"report", "-o", filepath.Join(dir, "r.html"), file},
		"compare":  {"compare", file, "b=" + file},
		"export":   {"export", "--format", "csv", file},
		"analyze":  {"analyze", file},
	}
	out := map[string][3]string{}
	for name, args := range verbs {
		code, stdout, stderr := runCLI(args...)
		out[name] = [3]string{string(rune('0' + code)), stdout, stderr}
	}
	return out
}

// A .sko result with a one-character name once panicked in every reading verb.
func TestOneCharSKONameEveryVerb(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.sko")
	var b strings.Builder
	b.WriteString("begin result a\n# op Pingpong_Send_Recv, times in microseconds\n")
	for size := 1; size <= 1<<10; size *= 2 {
		b.WriteString("count= " + strconv.Itoa(size) + " 1.500 0.010 8 1.500 1.600\n")
	}
	b.WriteString("end result a\nbegin result \"b\"\nend result b\n")
	os.WriteFile(file, []byte(b.String()), 0o644)
	for verb, r := range readingVerbs(t, dir, file) {
		if strings.Contains(r[2], "panic") || r[0] != "0" {
			t.Errorf("%s: exit %s\n%s\n%s", verb, r[0], r[1], r[2])
		}
	}
}

// One record torn in the middle of a file (a write that hit a full disk, then a later
// append) is skipped with a warning: every verb reads the rest.
func TestTornRecordInTheMiddleEveryVerb(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(pt2ptA)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines[8] = lines[8][:len(lines[8])/2] + "\n" // a bandwidth point: analyze keeps its 6 ping-pong sizes
	file := filepath.Join(dir, "torn.jsonl")
	os.WriteFile(file, []byte(strings.Join(lines, "")), 0o644)
	for verb, r := range readingVerbs(t, dir, file) {
		warned := strings.Contains(r[1]+r[2], "torn.jsonl:9: warning: not a skampi record")
		if r[0] != "0" || !warned && verb != "compare" {
			t.Errorf("%s: exit %s\n%s\n%s", verb, r[0], r[1], r[2])
		}
	}
	if _, stdout, _ := runCLI("validate", file); !strings.Contains(stdout, "1 run(s), 8 point(s), 0 fault(s); 0 error(s), 1 warning(s)") {
		t.Errorf("validate: %s", stdout)
	}
	if _, stdout, _ := runCLI("export", "--format", "csv", file); strings.Count(stdout, "\n") != 9 {
		t.Errorf("export: %d lines\n%s", strings.Count(stdout, "\n"), stdout)
	}
}

// -o never writes through a link or replaces a FIFO (or a device: report's tests): export,
// report and plot's figures refuse, and leave it as it was.
func TestOutputRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("keep"), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(victim, link)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	figs := filepath.Join(dir, "figs")
	os.Mkdir(figs, 0o755)
	os.Symlink(victim, filepath.Join(figs, "latency-pt2pt-np2.svg"))
	cases := [][]string{
		{"export", "--format", "csv", "-o", fifo, pt2ptA},
		{"export", "--format", "csv", "-o", link, pt2ptA},
		{"report", "-o", link, pt2ptA},
		{"report", "-o", fifo, pt2ptA},
		{"plot", "-o", figs, "--format", "svg", pt2ptA},
	}
	for _, args := range cases {
		code, _, stderr := runCLI(args...)
		if code != 1 || !strings.Contains(stderr, "skampi writes only regular files") {
			t.Errorf("%v: exit %d, %s", args, code, stderr)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("written through a link: %q", b)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v", err)
	}
}

// Names in result files reach the terminal escaped in every verb that prints them.
func TestVerbsEscapeRecordText(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(pt2ptA)
	if err != nil {
		t.Fatal(err)
	}
	evil := strings.ReplaceAll(string(data), `"measurement":"Pingpong_Send_Recv"`, `"measurement":"pp\u001b]0;owned\u0007"`)
	evil = strings.Replace(evil, `"op":"Pingpong_Send_Recv"`, `"op":"Nope\u001b[2J"`, 1) // an unknown op: a problem naming it
	file := filepath.Join(dir, "evil.jsonl")
	os.WriteFile(file, []byte(evil), 0o644)
	for verb, r := range readingVerbs(t, dir, file) {
		if verb == "export" { // data, written as it is: quoting is the format's business
			r[1] = ""
		}
		if !strings.Contains(r[1]+r[2], `\x1b`) {
			t.Errorf("%s printed no escaped name:\n%s\n%s", verb, r[1], r[2])
		}
		if strings.ContainsRune(r[1]+r[2], 0x1b) || strings.ContainsRune(r[1]+r[2], 0x07) {
			t.Errorf("%s printed a control character:\n%q\n%q", verb, r[1], r[2])
		}
	}
}
