package plots

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/skampi/skampi/plots/chart"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// Overlap is what the overlap figures read of a point's breakdown (record.Breakdown):
// times in seconds, per operation.
type Overlap struct {
	FullS       float64 // post immediately followed by completion
	PostS       float64 // the posting call(s) alone
	OverlappedS float64 // communication time not hidden behind the computation
	Ratio       float64 // 1 - overlapped/full, clamped to [0, 1]
	RatioStderr float64
	RatioRaw    *float64 // the ratio before clamping, when it was clamped
	Progress    int64    // progress_every: MPI_Test every this many spin iterations; 0 never
}

// overlapOf is the point's overlap breakdown; false for a point without one.
func overlapOf(p *record.Point) (Overlap, bool) {
	b := p.Breakdown
	if b == nil {
		return Overlap{}, false
	}
	return Overlap{FullS: b.FullS, PostS: b.PostS, OverlappedS: b.OverlappedS, Ratio: b.OverlapRatio,
		RatioStderr: b.OverlapRatioStderr, RatioRaw: b.OverlapRatioRaw, Progress: b.ProgressEvery}, true
}

// drawable: shares of the full time need a positive full time and finite parts.
func (o Overlap) drawable() bool {
	for _, v := range []float64{o.FullS, o.PostS, o.OverlappedS, o.Ratio} {
		if !finite(v) {
			return false
		}
	}
	return o.FullS > 0
}

// Shares splits the full operation time into what the bars stack, as shares of
// full_s: the time not hidden (overlapped_s) as the post and the wait beyond it, and
// the rest, hidden by the computation, so the hidden share is the overlap ratio. They
// add up to 1. What cannot be a share of the whole is capped and capped says so: an
// overlapped time below 0 or above full, or a post (timed alone, per call) above the
// time not hidden.
func (o Overlap) Shares() (post, notHidden, hidden float64, capped bool) {
	full := o.FullS
	nh := math.Min(math.Max(o.OverlappedS, 0), full)
	p := math.Min(math.Max(o.PostS, 0), nh)
	capped = nh != o.OverlappedS || p != o.PostS
	return p / full, (nh - p) / full, (full - nh) / full, capped
}

// hasOverlap keeps the points whose breakdown can be drawn.
func hasOverlap(p *record.Point) bool {
	o, ok := overlapOf(p)
	return ok && o.drawable()
}

// overlapKind: one stacked bar per message size, the full operation time split into
// post, wait not hidden and hidden by the computation, as shares of it.
var overlapKind = Kind{
	Name: "overlap",
	Doc:  "non-blocking ops: the full time per size split into post, wait not hidden and hidden by computation, as shares; overlap ratio and full time above each bar",
	Groups: func(res *report.Results) []Group {
		return groupBy(res, hasOverlap, func(p *record.Point) string {
			return fmt.Sprintf("%s/%s/%s/np%d", p.RunID, p.Measurement, p.Op, p.NProcs)
		})
	},
	Build: buildOverlap,
}

// overlapParts are the layers of an overlap bar, bottom to top.
var overlapParts = []string{"post", "wait not hidden", "hidden by computation"}

func buildOverlap(g Group, opts Options) (*Figure, error) {
	ps := append([]record.Point(nil), g.Points...)
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].MsgBytes < ps[j].MsgBytes })
	st := chart.Stack{Parts: make([]chart.Part, len(overlapParts))}
	for i, l := range overlapParts {
		st.Parts[i].Label = l
	}
	var overFull, postOver, clamped, offTarget, mismatch []string
	var progress []int64
	for i := range ps {
		o, ok := overlapOf(&ps[i])
		if !ok || !o.drawable() {
			continue
		}
		size := chart.FormatBytes(float64(ps[i].MsgBytes))
		post, nh, hidden, _ := o.Shares()
		st.Categories = append(st.Categories, size)
		st.Parts[0].Values = append(st.Parts[0].Values, post)
		st.Parts[1].Values = append(st.Parts[1].Values, nh)
		st.Parts[2].Values = append(st.Parts[2].Values, hidden)
		ann := fmt.Sprintf("%.0f%%", 100*o.Ratio)
		if o.RatioRaw != nil {
			ann += "*"
			clamped = append(clamped, fmt.Sprintf("%.0f%% at %s", 100**o.RatioRaw, size))
		}
		st.Annotations = append(st.Annotations, ann+" · "+chart.ShortSeconds(o.FullS))
		if o.OverlappedS > o.FullS {
			overFull = append(overFull, size)
		}
		if o.PostS > math.Max(o.OverlappedS, 0) && o.OverlappedS <= o.FullS {
			postOver = append(postOver, size)
		}
		if hasFlag(&ps[i], record.FlagComputeOffTarget) {
			offTarget = append(offTarget, size)
		}
		if hasFlag(&ps[i], record.FlagFullMismatch) {
			mismatch = append(mismatch, size)
		}
		progress = addOnceInt(progress, o.Progress)
	}
	if len(st.Categories) == 0 {
		return nil, fmt.Errorf("no overlap breakdown to draw")
	}
	var notes []string
	if len(overFull) > 0 {
		notes = append(notes, fmt.Sprintf("overlapped time above the full time at %s (%s): nothing hidden, the bar is capped at the full time",
			report.Count(len(overFull), "size"), listSome(overFull)))
	}
	if len(postOver) > 0 {
		notes = append(notes, fmt.Sprintf("post (timed per call) above the time not hidden at %s (%s): the bar shows the post up to that time",
			report.Count(len(postOver), "size"), listSome(postOver)))
	}
	if len(clamped) > 0 {
		notes = append(notes, "* overlap ratio clamped to 0–100%; measured "+listSome(clamped))
	}
	if len(offTarget) > 0 {
		notes = append(notes, fmt.Sprintf("computation more than 25%% off its target at %s (%s)", report.Count(len(offTarget), "size"), listSome(offTarget)))
	}
	if len(mismatch) > 0 {
		notes = append(notes, fmt.Sprintf("post + wait disagree with the full time at %s (%s)", report.Count(len(mismatch), "size"), listSome(mismatch)))
	}
	p0 := ps[0]
	c, err := chart.NewStackFigure(chart.StackSpec{
		Title: p0.Measurement,
		Caption: caption(g, Options{Labels: opts.Labels, Errors: ErrNone}, p0.Op, progressText(progress),
			"above each bar: overlap ratio · full time"),
		Notes: notes,
		X:     chart.AxisSpec{Quantity: chart.Bytes, Label: "message size"},
		Y:     chart.AxisSpec{Quantity: chart.Ratio, Label: "share of the full operation time"},
		Stack: st,
		Width: opts.Width, Height: opts.Height,
	})
	if err != nil {
		return nil, err
	}
	return &Figure{Name: SafeName(fmt.Sprintf("overlap-%s-np%d", p0.Measurement, p0.NProcs)), Kind: "overlap", Figure: c}, nil
}

// progressText says whether the library was given a chance to progress during the
// computation: the setting decides how much can be hidden.
func progressText(vs []int64) string {
	var parts []string
	for _, v := range vs {
		parts = append(parts, ProgressText(v))
	}
	return strings.Join(parts, " or ")
}

// ProgressText says how a breakdown's computation let the library progress
// (record.Breakdown.ProgressEvery).
func ProgressText(every int64) string {
	if every == 0 {
		return "no MPI_Test during the computation"
	}
	return fmt.Sprintf("MPI_Test every %d spin iterations", every)
}

// listSome lists at most three items, then how many more.
func listSome(items []string) string {
	if len(items) <= 3 {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:3], ", ") + fmt.Sprintf(" and %d more", len(items)-3)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func hasFlag(p *record.Point, flag string) bool { return slices.Contains(p.Flags, flag) }

// addOnceInt appends v unless list has it.
func addOnceInt(list []int64, v int64) []int64 {
	if slices.Contains(list, v) {
		return list
	}
	return append(list, v)
}
