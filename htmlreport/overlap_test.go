package htmlreport

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/skampi/skampi/report"
)

const overlapFile = "../plots/testdata/overlap-np2.jsonl"

func writePage(t *testing.T, file string) string {
	t.Helper()
	res := load(t, file)
	var buf bytes.Buffer
	err := Write(&buf, Input{Results: res, Sources: report.ParseSources([]string{file}),
		Figures: figures(t, res), Generated: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// between is the part of page from the element with id from to the one with id to.
func between(t *testing.T, page, from, to string) string {
	t.Helper()
	i, j := strings.Index(page, `id="`+from+`"`), strings.Index(page, `id="`+to+`"`)
	if i < 0 || j < i {
		t.Fatalf("no section %s before %s", from, to)
	}
	return page[i:j]
}

func TestOverlapSection(t *testing.T) {
	page := writePage(t, overlapFile)
	sec := between(t, page, "overlap", "measurements")
	if !strings.Contains(page, `<a href="#overlap">Non-blocking overlap</a>`) {
		t.Error("no link to the section")
	}
	for _, want := range []string{
		`<h3>Isend overlap, no progress <span class="muted">(Isend, 2 processes, run 5c0ffee0d1e2a3b4, no MPI_Test during the computation)</span></h3>`,
		`<h3>Isend overlap, MPI_Test every 1000 <span class="muted">(Isend, 2 processes, run 5c0ffee0d1e2a3b4, MPI_Test every 1000 spin iterations)</span></h3>`,
		// 1 KiB without progress: overlapped above full, the ratio clamped from -0.2.
		"<tr><td>1 KiB</td><td>4.000 µs ± 2.0%</td><td>800.0 ns ± 2.0%</td><td>3.200 µs ± 2.5%</td><td>4.800 µs ± 3.0%</td>" +
			"<td>8.080 µs / 8.000 µs</td><td>0.0% ± 4.3%<br><span class=\"muted\">raw -20.0%</span></td><td>0</td><td class=\"l flag\">overlap_ratio_clamped</td></tr>",
		// 1 MiB with progress.
		"<tr><td>1 MiB</td><td>390.000 µs ± 2.0%</td><td>2.500 µs ± 2.0%</td><td>387.500 µs ± 2.0%</td><td>97.500 µs ± 3.0%</td>" +
			"<td>787.800 µs / 780.000 µs</td><td>75.0% ± 0.9%</td><td>1000</td><td class=\"l flag\"></td></tr>",
		"<td>5.670 µs / 4.200 µs</td><td>10.0% ± 3.2%</td><td>1000</td><td class=\"l flag\">compute_off_target</td>",
	} {
		if !strings.Contains(sec, want) {
			t.Errorf("overlap section lacks %s", want)
		}
	}
	if n := strings.Count(sec, `<section class="overlap">`); n != 2 {
		t.Errorf("%d overlap tables", n)
	}
	if n := strings.Count(sec, "<tr><td>"); n != 12 {
		t.Errorf("%d overlap rows", n)
	}
	// The two overlap bar figures and the ratio figure sit in the section, not among
	// the other figures (which keep the latency figure).
	if n := strings.Count(sec, "<figure><svg"); n != 3 {
		t.Errorf("%d figures in the overlap section", n)
	}
	for _, title := range []string{"non-blocking point-to-point: overlap ratio vs message size", "Isend overlap, no progress &middot;"} {
		if !strings.Contains(sec, "<figcaption>"+title) {
			t.Errorf("no figure %q in the section", title)
		}
	}
	if n := strings.Count(between(t, page, "figures", "overlap"), "<figure><svg"); n != 1 {
		t.Errorf("%d figures in the figures section", n)
	}
	// Flags of breakdowns are explained where they are counted.
	if !regexp.MustCompile(`overlap_ratio_clamped</td><td>1</td><td class="l">the overlap ratio fell outside`).MatchString(page) {
		t.Error("the clamped flag is not explained")
	}

	// Without breakdowns, no section and no link.
	plain := writePage(t, "../report/testdata/pingpong.jsonl")
	if strings.Contains(plain, `id="overlap"`) || strings.Contains(plain, "Non-blocking overlap") {
		t.Error("overlap section without any breakdown")
	}

	// Figures given without their kind stay with the other figures: none is lost.
	res := load(t, overlapFile)
	figs := figures(t, res)
	for i := range figs {
		figs[i].Kind = ""
	}
	var buf bytes.Buffer
	if err := Write(&buf, Input{Results: res, Figures: figs}); err != nil {
		t.Fatal(err)
	}
	p := buf.String()
	if n := strings.Count(between(t, p, "figures", "overlap"), "<figure><svg"); n != len(figs) || n != 4 {
		t.Errorf("%d of %d figures without a kind shown", n, len(figs))
	}
}
