package htmlreport

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/skampi/skampi/plots"
	"github.com/skampi/skampi/report"
)

func load(t *testing.T, name string) *report.Results {
	t.Helper()
	res, err := report.LoadAll(report.ParseSources([]string{name}), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestPage(t *testing.T) {
	res := load(t, "../report/testdata/pingpong.jsonl")
	res.Points[3].Flags = []string{"max_repetitions"}
	var buf bytes.Buffer
	err := Write(&buf, Input{Title: "t <1>", Results: res, Sources: report.ParseSources([]string{"../report/testdata/pingpong.jsonl"}),
		Figures:   []Figure{{Title: "latency", SVG: []byte(`<svg id="fig1"></svg>`)}},
		Generated: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, want := range []string{
		"<title>t &lt;1&gt;</title>", `<svg id="fig1"></svg>`, "Open MPI v4.1.4", "max_repetitions",
		`<h3>Pingpong_Send_Recv <span class="muted">(Pingpong_Send_Recv, run`, "4 KiB &ndash; 4 MiB",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// A row per point, each with its method and process count.
	if n := strings.Count(page, `<tr><td class="l"></td><td>2</td>`); n < 21 {
		t.Errorf("%d point rows", n)
	}
	for _, ref := range []string{`src="http`, `href="http`, "url(http", "<link", "<script", "@import"} {
		if strings.Contains(page, ref) {
			t.Errorf("the page loads something (%s): it must be self-contained", ref)
		}
	}
}

// writeSamplePage writes the page of the sample run to a file and returns its path.
func writeSamplePage(t *testing.T) string {
	t.Helper()
	res := load(t, "../report/testdata/pingpong.jsonl")
	var buf bytes.Buffer
	err := Write(&buf, Input{Results: res, Sources: report.ParseSources([]string{"../report/testdata/pingpong.jsonl"}),
		Figures:   figures(t, res),
		Generated: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	path := t.TempDir() + "/report.html"
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// figures renders the real figures of res, as `skampi report` does.
func figures(t *testing.T, res *report.Results) []Figure {
	t.Helper()
	figs, err := plots.Figures(res, plots.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := FromPlots(figs)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A ping-pong's table shows the one-way latency first, the round trip beside it, and
// "-" where a record has no latency_s; other operations one time column. A measurement
// under several methods has a row per method and its shared settings once.
func TestPageOneWayAndMethods(t *testing.T) {
	res := load(t, "../report/testdata/pingpong.jsonl")
	res.Merge(load(t, "../report/testdata/put-methods.jsonl"))
	res.Points[0].LatencyS = nil
	var buf bytes.Buffer
	if err := Write(&buf, Input{Results: res, Generated: time.Now()}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	pp := page[strings.Index(page, `<h3>Pingpong_Send_Recv <span class="muted">(Pingpong_Send_Recv, run`):]
	put := pp[strings.Index(pp, `<h3>Put <span class="muted">(Put, run`):]
	pp = pp[:len(pp)-len(put)]
	p1 := res.Points[1]
	ns := unit{"ns", 1e-9}
	// Every time column names its unit, and the round trip's say they are of it.
	if !strings.Contains(pp, `>one-way [ns]</th><th title="time_s">round trip [ns]</th><th title="relative standard error of the round trip">stderr</th><th>min round trip [ns]</th><th>median round trip [ns]</th><th>max round trip [ns]</th>`) ||
		!strings.Contains(pp, "<td>"+ns.format(*p1.LatencyS)+"</td><td>"+ns.format(p1.TimeS)+"</td>") ||
		!strings.Contains(pp, "<td>-</td><td>"+ns.format(res.Points[0].TimeS)+"</td>") {
		t.Errorf("ping-pong table:\n%s", pp[:min(len(pp), 2000)])
	}
	if strings.Contains(put, "one-way") || !strings.Contains(put, "<th>time [µs]</th>") || !strings.Contains(put, "<th>bandwidth [GB/s]</th>") ||
		!strings.Contains(put, `<p class="muted settings">timer=global-loop sync=barrier window=64 recv_slots=shared cache=warm rma_window=allocate</p>`) {
		t.Errorf("Put table:\n%s", put[:min(len(put), 2000)])
	}
	for _, m := range []string{"lock_all", "lock", "fence"} {
		if n := strings.Count(put, `<tr><td class="l">`+m+`</td><td>2</td>`); n != 2 {
			t.Errorf("%d rows of %s", n, m)
		}
	}
}
