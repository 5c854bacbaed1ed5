package htmlreport

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/skampi/skampi/internal/aadata"
	"github.com/skampi/skampi/report"
)

// abSources writes the recorded A/A runs one file each, alternately labelled before
// and after; after's ping-pong is made twice as slow and its runs name another skampi
// version. It returns the sources as `skampi report before=... after=...` reads them.
func abSources(t *testing.T) []report.Source {
	t.Helper()
	lines, err := aadata.Lines()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var order []string
	byRun := map[string][]map[string]any{}
	sc := bufio.NewScanner(bytes.NewReader(lines))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		id := rec["run_id"].(string)
		if _, ok := byRun[id]; !ok {
			order = append(order, id)
		}
		byRun[id] = append(byRun[id], rec)
	}
	var args []string
	for i, id := range order {
		label := "before"
		if i%2 == 1 {
			label = "after"
		}
		var buf bytes.Buffer
		for _, rec := range byRun[id] {
			if label == "after" {
				slower(rec)
			}
			b, _ := json.Marshal(rec)
			buf.Write(append(b, '\n'))
		}
		name := filepath.Join(dir, fmt.Sprintf("run%02d.jsonl", i))
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, label+"="+name)
	}
	return report.ParseSources(args)
}

// slower makes an after record: another version, a ping-pong twice as slow.
func slower(rec map[string]any) {
	if rec["kind"] == "run" {
		rec["skampi_version"] = "9f1c2e7"
		return
	}
	if rec["measurement"] != "Pingpong_Send_Recv" {
		return
	}
	for k, v := range rec {
		switch x := v.(type) {
		case float64:
			if strings.HasSuffix(k, "_s") && k != "elapsed_s" {
				rec[k] = 2 * x
			}
		case []any:
			if strings.HasSuffix(k, "_s") {
				for i := range x {
					if f, ok := x[i].(float64); ok {
						x[i] = 2 * f
					}
				}
			}
		}
	}
}

func abPage(t *testing.T) (string, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "report.html")
	var stdout bytes.Buffer
	if err := WriteFile(FileOptions{Sources: abSources(t), Out: out, Title: "A/B", Stdout: &stdout, Stderr: io.Discard}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), stdout.String()
}

// Twenty runs of two labels make a page read for its verdict: the comparison first, as
// a table with units, ratios, tests and verdicts; the provenance once per label with
// what differs marked; a figure per measurement with a colour per label; each run's own
// figures not repeated, its tables collapsed.
func TestABReport(t *testing.T) {
	page, summary := abPage(t)
	cmp, runs, figs := strings.Index(page, `id="comparison"`), strings.Index(page, `id="runs"`), strings.Index(page, `id="figures"`)
	if cmp < 0 || runs < cmp || figs < runs {
		t.Fatalf("sections at comparison %d, runs %d, figures %d: the comparison comes first", cmp, runs, figs)
	}
	head := page[cmp:runs]
	for _, want := range []string{
		"<caption>Pingpong_Send_Recv, 2 processes</caption>",
		"before: round-trip time [", "after: round-trip time [", "before: time [",
		`<td class="v slower">slower`, "all sizes", "p=",
	} {
		if !strings.Contains(head, want) {
			t.Errorf("the comparison lacks %q", want)
		}
	}
	// Put is unchanged: none of its rows is a verdict of change.
	put := head[strings.Index(head, "<caption>Put"):]
	put = put[:strings.Index(put, "</table>")]
	if strings.Contains(put, `"v slower"`) || strings.Contains(put, `"v faster"`) {
		t.Errorf("Put, unchanged, has a verdict of change:\n%s", put)
	}
	// Provenance: a column per label, once, saying which is the baseline; the version
	// that differs is marked; no per-run table.
	for _, l := range []string{"before", "after"} {
		if n := strings.Count(page, `data-side="`+l+`"`); n != 1 {
			t.Errorf("label %s heads %d provenance columns", l, n)
		}
	}
	if strings.Count(page, `class="run"`) != 0 || !strings.Contains(page, "before <span class=\"muted\">(baseline)") ||
		!strings.Contains(page, `<tr class="differs"><th class="l">skampi</th>`) || strings.Contains(page, `<tr class="differs"><th class="l">library</th>`) {
		t.Errorf("provenance:\n%s", page[runs:figs])
	}
	// Figures: an overlay per measurement (4) and a ratio figure each, a legend entry
	// per label; none for a single run.
	fig := page[figs:strings.Index(page, `id="flagged"`)]
	svgs := regexp.MustCompile(`(?s)<svg.*?</svg>`).FindAllString(fig, -1)
	if len(svgs) != 8 || !strings.Contains(summary, "8 figure(s)") {
		t.Errorf("%d figures (%s)", len(svgs), summary)
	}
	overlays := 0
	for _, s := range svgs {
		if strings.Contains(s, "before (10 runs)") {
			overlays++
			if strings.Count(s, ">before (10 runs)<") != 1 || strings.Count(s, ">after (10 runs)<") != 1 {
				t.Errorf("an overlay's legend does not name each label once")
			}
		}
	}
	if overlays != 4 {
		t.Errorf("%d overlays by label", overlays)
	}
	if !strings.Contains(page, `<details class="side-measurements"><summary>before: 10 runs, 40 tables</summary>`) {
		t.Errorf("each run's tables are not collapsed by label")
	}
	if len(page) > 400_000 {
		t.Errorf("the page is %d bytes", len(page))
	}
}
