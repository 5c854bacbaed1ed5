package plots

import (
	"fmt"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/plots/chart"
	"github.com/skampi/skampi/record"
)

// maxSeries is the most lines one figure draws: more and colours repeat and the legend
// no longer fits beside the plot.
const maxSeries = 8

// panelsOf are the figures of its family a point's operation is drawn in
// (ops.Info.Panels); none: the family's one figure.
func panelsOf(p *record.Point) []string {
	if in, ok := ops.Lookup(p.Op); ok && len(in.Panels) > 0 {
		return in.Panels
	}
	return []string{""}
}

// splitWide gives each group at most maxSeries lines (by label). A group with more is
// split by the operations' panels; its points measured with several timing methods
// are left to the method figures, which compare them; a panel still too wide is cut in
// parts of maxSeries lines in order of appearance. Group.Part names the piece
// ("rooted", "2 of 3") for names and titles.
func splitWide(groups []Group, label func(*record.Point) string) []Group {
	var out []Group
	for _, g := range groups {
		if countLabels(g.Points, label) <= maxSeries {
			out = append(out, g)
			continue
		}
		methods := methodCounts(g.Points)
		byPanel := map[string][]record.Point{}
		var panels []string
		for _, p := range g.Points {
			if p.Method != "" && methods[p.Op] >= 2 {
				continue
			}
			for _, pn := range panelsOf(&p) {
				if _, ok := byPanel[pn]; !ok {
					panels = append(panels, pn)
				}
				byPanel[pn] = append(byPanel[pn], p)
			}
		}
		for _, pn := range panels {
			parts := chunkByLabel(byPanel[pn], label)
			for i, part := range parts {
				ng := Group{Key: g.Key, Points: part, Runs: g.Runs, Part: pn}
				if len(parts) > 1 {
					ng.Part = joinPart(pn, fmt.Sprintf("%d of %d", i+1, len(parts)))
				}
				if ng.Part != "" {
					ng.Key += "/" + ng.Part
				}
				out = append(out, ng)
			}
		}
	}
	return out
}

// methodCounts is how many timing methods each op was measured with.
func methodCounts(pts []record.Point) map[string]int {
	seen := map[[2]string]bool{}
	n := map[string]int{}
	for _, p := range pts {
		if k := [2]string{p.Op, p.Method}; p.Method != "" && !seen[k] {
			seen[k] = true
			n[p.Op]++
		}
	}
	return n
}

func joinPart(a, b string) string {
	if a == "" {
		return b
	}
	return a + ", " + b
}

func countLabels(pts []record.Point, label func(*record.Point) string) int {
	seen := map[string]bool{}
	for i := range pts {
		seen[label(&pts[i])] = true
	}
	return len(seen)
}

// chunkByLabel cuts points into pieces of at most maxSeries labels each.
func chunkByLabel(pts []record.Point, label func(*record.Point) string) [][]record.Point {
	index := map[string]int{}
	var out [][]record.Point
	for _, p := range pts {
		l := label(&p)
		i, ok := index[l]
		if !ok {
			i = len(index)
			index[l] = i
		}
		c := i / maxSeries
		for len(out) <= c {
			out = append(out, nil)
		}
		out[c] = append(out[c], p)
	}
	return out
}

// partName and partTitle add a group's part to a figure's name and title.
func (g Group) partName() string {
	if g.Part == "" {
		return ""
	}
	return "-" + SafeName(g.Part)
}

func (g Group) partTitle(title string) string {
	if g.Part == "" {
		return title
	}
	return title + " (" + g.Part + ")"
}

// opColour is an operation's palette index wherever it is drawn, so a reader finds
// Alltoall_Ordered in the same colour in the latency and the throughput figure: its
// place in its panel, or in its family's operations.
func opColour(op string) int {
	in, ok := ops.Lookup(op)
	if !ok {
		return 0
	}
	if len(in.Panels) > 0 {
		for i, name := range ops.PanelOps(in.Panels[0]) {
			if name == op {
				return i
			}
		}
	}
	i := 0
	for _, o := range ops.All() {
		if o.Family == in.Family {
			if o.Name == op {
				return i
			}
			i++
		}
	}
	return 0
}

// styleByOp gives each line its operation's colour (opColour); a second line of the
// same operation (another measurement or method) keeps the colour with another dash,
// and an operation whose colour another already took in this figure gets a free one.
func styleByOp(lines []chart.Line, points []record.Point, label func(*record.Point) string) {
	opOf := map[string]string{}
	for i := range points {
		opOf[label(&points[i])] = points[i].Op
	}
	colourOf := map[string]int{} // op -> colour in this figure
	used := map[int]string{}     // colour -> op
	variants := map[string]int{} // op -> lines so far
	for i := range lines {
		op := opOf[lines[i].Label]
		c, ok := colourOf[op]
		if !ok {
			c = opColour(op) % chart.Colors
			for j := 0; used[c] != "" && j < chart.Colors; j++ {
				c = (c + 1) % chart.Colors
			}
			colourOf[op], used[c] = c, op
		}
		lines[i].Style = &chart.LineStyle{Color: c, Variant: variants[op]}
		variants[op]++
	}
}
