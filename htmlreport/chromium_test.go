package htmlreport

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// chromium finds Debian's Chromium. `make test` installs it and sets
// SKAMPI_REQUIRE_CHROMIUM, so there a missing browser fails instead of skipping.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("SKAMPI_REQUIRE_CHROMIUM") != "" {
		t.Fatal("chromium not found (apt-get install chromium)")
	}
	t.Skip("chromium not installed")
	return ""
}

// headless runs Chromium the way it works on a closed network, as root.
func headless(t *testing.T, browser string, args ...string) []byte {
	t.Helper()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir()}
	cmd := exec.Command(browser, append(base, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("chromium: %v\n%s", err, errb.String())
		}
	case <-time.After(90 * time.Second):
		cmd.Process.Kill()
		t.Fatal("chromium did not finish in 90 s")
	}
	return out.Bytes()
}

// The page renders in a real browser: the DOM Chromium builds holds every section,
// the figures and the tables, and a screenshot can be taken.
func TestPageRendersInChromium(t *testing.T) {
	browser := chromium(t)
	page := writeSamplePage(t)
	dom := string(headless(t, browser, "--dump-dom", "file://"+page))
	for _, want := range []string{`id="runs"`, `id="flagged"`, `id="measurements"`, `id="analysis"`, "</body>"} {
		if !strings.Contains(dom, want) {
			t.Errorf("rendered DOM lacks %s", want)
		}
	}
	if n := len(regexp.MustCompile(`<svg`).FindAllString(dom, -1)); n < 1 {
		t.Errorf("%d svg elements in the rendered DOM", n)
	}
	if n := strings.Count(dom, "<tr>"); n < 30 {
		t.Errorf("%d table rows in the rendered DOM", n)
	}
	shot := filepath.Join(t.TempDir(), "page.png")
	headless(t, browser, "--window-size=1200,1600", "--screenshot="+shot, "file://"+page)
	png, err := os.ReadFile(shot)
	if err != nil || len(png) < 10000 || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("screenshot: %d bytes, %v", len(png), err)
	}
}

// The overlap section, its tables and figures, survive a real browser's parsing.
func TestOverlapSectionInChromium(t *testing.T) {
	browser := chromium(t)
	path := filepath.Join(t.TempDir(), "overlap.html")
	if err := os.WriteFile(path, []byte(writePage(t, overlapFile)), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := string(headless(t, browser, "--dump-dom", "file://"+path))
	i, j := strings.Index(dom, `id="overlap"`), strings.Index(dom, `id="measurements"`)
	if i < 0 || j < i {
		t.Fatal("no overlap section in the rendered DOM")
	}
	sec := dom[i:j]
	if n := strings.Count(sec, "<svg"); n != 3 {
		t.Errorf("%d figures in the rendered overlap section", n)
	}
	if n := strings.Count(sec, `class="overlap-points"`); n != 2 {
		t.Errorf("%d overlap tables in the rendered DOM", n)
	}
}

// The A/B page survives a real browser: the comparison's tables come before the
// figures, the provenance has a column per label, and a screenshot can be taken.
func TestABReportInChromium(t *testing.T) {
	browser := chromium(t)
	page, _ := abPage(t)
	path := filepath.Join(t.TempDir(), "ab.html")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := string(headless(t, browser, "--dump-dom", "file://"+path))
	cmp, figs := strings.Index(dom, `id="comparison"`), strings.Index(dom, `id="figures"`)
	if cmp < 0 || figs < cmp || strings.Count(dom[cmp:figs], `<table class="ab">`) != 4 {
		t.Errorf("comparison at %d, figures at %d", cmp, figs)
	}
	if n := strings.Count(dom, `data-side=`); n != 2 {
		t.Errorf("%d provenance columns", n)
	}
	shot := filepath.Join(t.TempDir(), "ab.png")
	headless(t, browser, "--window-size=1280,3000", "--screenshot="+shot, "file://"+path)
	if png, err := os.ReadFile(shot); err != nil || len(png) < 10000 {
		t.Errorf("screenshot: %d bytes, %v", len(png), err)
	}
}

// The history page survives a real browser: the history first, then a figure per
// measurement in the trends section.
func TestHistoryPageInChromium(t *testing.T) {
	browser := chromium(t)
	page, _, _ := writeHistoryPage(t)
	dom := string(headless(t, browser, "--dump-dom", "file://"+page))
	hist, trends, runs := strings.Index(dom, `id="history"`), strings.Index(dom, `id="trends"`), strings.Index(dom, `id="runs"`)
	if hist < 0 || trends < hist || runs < trends {
		t.Fatalf("sections at %d, %d, %d", hist, trends, runs)
	}
	if n := strings.Count(dom[trends:runs], "<svg"); n != 4 {
		t.Errorf("%d figures in the rendered trends section", n)
	}
	if !strings.Contains(dom[hist:trends], "fault timeout") {
		t.Error("the faulted run is not named before the figures")
	}
}
