package htmlreport

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skampi/skampi/internal/aadata"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/report/history"
)

// writeHistoryPage writes the page and PNGs of 12 nightly runs, Bcast 1.5 times slower
// from the 8th on, Allreduce's 8 B point of the 5th timed out; it returns the page's
// path, the figures' directory and what was said on stderr.
func writeHistoryPage(t *testing.T) (out, figs, stderr string) {
	t.Helper()
	aa, err := aadata.Results()
	if err != nil {
		t.Fatal(err)
	}
	ids := aadata.RunIDs(aa)[3:15]
	res := aadata.Nightly(aa, ids, time.Date(2026, 11, 18, 3, 1, 0, 0, time.UTC))
	aadata.Scale(res, ids[7:], "Bcast", 1.5)
	aadata.Fault(res, ids[4], "Allreduce", record.FaultTimeout, 8)
	h, err := history.Build(res, nil, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out, figs = filepath.Join(dir, "history.html"), filepath.Join(dir, "figures")
	var b bytes.Buffer
	err = WriteHistoryFiles(h, HistoryFileOptions{HTML: out, FigureDir: figs, Sources: []report.Source{{Label: "nightly"}}, Stderr: &b})
	if err != nil {
		t.Fatal(err)
	}
	return out, figs, b.String()
}

// The history page: the history as printed first, then one trend figure per
// measurement, then the runs; a run whose points timed out is named in the table and
// in a list of runs without a value, not dropped.
func TestHistoryPage(t *testing.T) {
	out, figs, stderr := writeHistoryPage(t)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	if n := strings.Count(page, `<figure class="trend"><svg`); n != 4 {
		t.Errorf("%d trend figures, want one per measurement (4)", n)
	}
	history, trends, runs := strings.Index(page, `<h2 id="history">`), strings.Index(page, `<h2 id="trends">`), strings.Index(page, `<h2 id="runs">`)
	if history < 0 || !(history < trends && trends < runs) {
		t.Errorf("sections out of order: %d %d %d", history, trends, runs)
	}
	for _, want := range []string{
		"12 runs, from 2026-11-18 03:01 to 2026-11-29 03:01 UTC.",
		"run 5: fault timeout",                             // the setup's table row
		"; without a value: run 5: fault timeout at 8 B\n", // the whole
		`<tr class="gap-row"><td class="l">Allreduce</td><td class="l">5</td>`,
		`<td class="l fault">fault timeout at 8 B</td>`,
		"<figcaption>Bcast",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "https://") || strings.Contains(page, "<script") {
		t.Error("the page loads something or runs a script")
	}
	pngs, _ := filepath.Glob(filepath.Join(figs, "trend-*.png"))
	if len(pngs) != 4 || !strings.Contains(stderr, out+": 12 runs, 4 trend figure(s)") {
		t.Errorf("pngs %v; stderr %s", pngs, stderr)
	}
}
