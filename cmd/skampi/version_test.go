package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestVersionFlagAndVerbAgree(t *testing.T) {
	defer func(v, c string) { version, commit = v, c }(version, commit)
	version, commit = "0.24.0", "4bb13d3"
	code, verb, _ := runCLI("version")
	code2, flag, _ := runCLI("--version")
	if code != 0 || code2 != 0 || verb != flag {
		t.Fatalf("version %d %q, --version %d %q", code, verb, code2, flag)
	}
	first := strings.SplitN(verb, "\n", 2)[0]
	if !regexp.MustCompile(`^skampi 0\.24\.0 \(commit 4bb13d3, go[0-9.]+\S*, built with(out)? MPI( and OpenSHMEM)?\)$`).MatchString(first) {
		t.Errorf("first line %q", first)
	}
	if got := versionString(); got != "0.24.0 (commit 4bb13d3)" {
		t.Errorf("run header version %q", got)
	}
	version, commit = "", ""
	if v := versionString(); !strings.HasPrefix(v, "dev (commit ") {
		t.Errorf("unstamped build: %q", v)
	}
}

// scripts/version.sh on a repository of its own: the VERSION file, commits after it,
// uncommitted changes and a tag, each as documented there.
func TestVersionScript(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	script, err := os.ReadFile("../../scripts/version.sh")
	if err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "scripts"), 0o755)
	os.WriteFile(filepath.Join(dir, "scripts/version.sh"), script, 0o755)
	sh := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	ver := func() string { t.Helper(); return sh("scripts/version.sh") }
	if v := ver(); v != "dev" {
		t.Errorf("outside git, no VERSION: %q", v)
	}
	os.WriteFile(filepath.Join(dir, "VERSION"), []byte("0.24.0\n"), 0o644)
	if v, c := ver(), sh("scripts/version.sh", "commit"); v != "0.24.0" || c != "unknown" {
		t.Errorf("outside git: %q, commit %q", v, c)
	}
	sh("git", "init", "-q")
	sh("git", "add", ".")
	sh("git", "commit", "-qm", "release 0.24.0")
	if v, c := ver(), sh("scripts/version.sh", "commit"); v != "0.24.0" || c != sh("git", "rev-parse", "--short=7", "HEAD") {
		t.Errorf("on the release commit: %q, commit %q", v, c)
	}
	os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644)
	sh("git", "add", "f")
	if v, c := ver(), sh("scripts/version.sh", "commit"); v != "0.24.0-dev" || !strings.HasSuffix(c, "-dirty") {
		t.Errorf("uncommitted change: %q, commit %q", v, c)
	}
	sh("git", "commit", "-qm", "after")
	if v := ver(); v != "0.24.0-dev" {
		t.Errorf("a commit after the release: %q", v)
	}
	sh("git", "tag", "v0.25.0")
	if v := ver(); v != "0.25.0" {
		t.Errorf("on tag v0.25.0: %q", v)
	}
	sh("git", "commit", "-q", "--allow-empty", "-m", "more")
	if v := ver(); v != "0.25.0-dev" {
		t.Errorf("after tag v0.25.0: %q", v)
	}
	// A release by the VERSION file after the tag: the newer one counts.
	os.WriteFile(filepath.Join(dir, "VERSION"), []byte("0.26.0\n"), 0o644)
	sh("git", "commit", "-qam", "release 0.26.0")
	if v := ver(); v != "0.26.0" {
		t.Errorf("VERSION 0.26.0 committed after tag v0.25.0: %q", v)
	}
}
