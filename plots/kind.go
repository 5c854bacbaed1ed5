package plots

import (
	"fmt"
	"sort"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// Kind is one kind of figure. Adding a kind is adding a value to the list in Kinds.
type Kind struct {
	Name string // "latency", "bandwidth", ...; also the first part of figure names
	Doc  string // one line: what the figure shows
	// Groups picks the groups of records the kind draws, one figure per group, in a
	// stable order. A kind that does not apply to the results returns none.
	Groups func(res *report.Results) []Group
	// GroupsWith, when set, is used instead of Groups: the kind's grouping depends on
	// the options (an overlay draws a figure per measurement when runs share sides).
	GroupsWith func(res *report.Results, opts Options) []Group
	// Build draws one group.
	Build func(g Group, opts Options) (*Figure, error)
}

// Kinds returns every figure kind, in the order Figures runs them.
func Kinds() []Kind {
	return []Kind{latencyKind, bandwidthKind, throughputKind, methodKind(TimerMethod), methodKind(TimingMethod), scalabilityKind, overlapKind, overlapRatioKind, atomicsKind, besideKind, delayKind, busyKind, imbalanceKind, threadsKind, haloKind, layoutKind, overlayKind}
}

// Group is the records one figure is drawn from.
type Group struct {
	Key    string         // what the records have in common, used in the figure name
	Points []record.Point // in file order
	Runs   []record.Run   // the run headers of the points, in order of appearance
	Part   string         // which part of a family too wide for one figure (splitWide)
	BySide bool           // an overlay of sides (Options.Sides), not of runs
}

// ErrorBars says what error bars show.
type ErrorBars string

const (
	ErrStderr ErrorBars = "stderr"  // time_s ± stderr_s (the default)
	ErrP10P90 ErrorBars = "p10-p90" // from p10_s to p90_s
	ErrNone   ErrorBars = "none"
)

// ParseErrorBars reads an --errors value; "" is the default, stderr.
func ParseErrorBars(s string) (ErrorBars, error) {
	switch e := ErrorBars(strings.ToLower(s)); e {
	case "":
		return ErrStderr, nil
	case ErrStderr, ErrP10P90, ErrNone:
		return e, nil
	}
	return "", fmt.Errorf("unknown error bars %q (known: stderr, p10-p90, none)", s)
}

func (e ErrorBars) describe() string {
	switch e {
	case ErrP10P90:
		return "error bars p10–p90"
	case ErrNone:
		return ""
	}
	return "error bars ±stderr"
}

// Options change how figures are drawn. The zero value is usable.
type Options struct {
	Errors ErrorBars // "" means stderr
	// Labels names runs by id (the "label=" of a source, or its file name); a label
	// replaces the run id in captions and in figure names made unique.
	Labels map[string]string
	// Sides names runs by their source's label alone (report.Sides): runs sharing a
	// side are samples of one setup (before, after). With two or more sides an overlay
	// draws one figure per measurement, a colour per side: the median over its runs and
	// a band from their minimum to their maximum.
	Sides         map[string]string
	Width, Height vg.Length // 0: chart.DefaultWidth, chart.DefaultHeight
	Kinds         []string  // only these kinds (by name); none means all
}

func (o Options) errors() ErrorBars {
	if o.Errors == "" {
		return ErrStderr
	}
	return o.Errors
}

// Skipped is a figure that could not be drawn (its data all zero, not finite, nothing
// a log axis can show...), and why.
type Skipped struct {
	Figure string // its kind and what it would have shown
	Reason string
}

func (s Skipped) String() string { return s.Figure + ": " + s.Reason }

// Figures is Draw without the figures it skipped.
func Figures(res *report.Results, opts Options) ([]*Figure, error) {
	figs, _, err := Draw(res, opts)
	return figs, err
}

// Draw runs every kind on the results and returns the figures, with names that are
// unique and safe as file names. A figure that cannot be drawn is left out and listed
// in skipped: one figure's data never costs the others. The error is a mistake in
// opts.
func Draw(res *report.Results, opts Options) (figs []*Figure, skipped []Skipped, err error) {
	if _, err := ParseErrorBars(string(opts.Errors)); err != nil {
		return nil, nil, err
	}
	want := map[string]bool{}
	for _, k := range opts.Kinds {
		want[k] = true
	}
	for _, k := range Kinds() {
		delete(want, k.Name)
	}
	for k := range want {
		var names []string
		for _, k := range Kinds() {
			names = append(names, k.Name)
		}
		return nil, nil, fmt.Errorf("unknown figure kind %q (known: %s)", k, strings.Join(names, ", "))
	}
	for _, k := range opts.Kinds {
		want[k] = true
	}
	var tags []string
	for _, k := range Kinds() {
		if len(want) > 0 && !want[k.Name] {
			continue
		}
		groups, err := groupsOf(k, res, opts)
		if err != nil {
			skipped = append(skipped, Skipped{Figure: k.Name + " figures", Reason: err.Error()})
			continue
		}
		for _, g := range groups {
			f, err := build(k, g, opts)
			if err != nil {
				skipped = append(skipped, Skipped{Figure: k.Name + " figure " + describe(g, opts), Reason: err.Error()})
				continue
			}
			figs = append(figs, f)
			tags = append(tags, g.runTag(opts))
		}
	}
	uniqueNames(figs, tags)
	return figs, skipped, nil
}

// groupsOf and build run a kind, a panic in the plotting library (which panics on
// some degenerate data) becoming the figure's error.
func groupsOf(k Kind, res *report.Results, opts Options) (gs []Group, err error) {
	defer recoverAs(&err)
	if k.GroupsWith != nil {
		return k.GroupsWith(res, opts), nil
	}
	return k.Groups(res), nil
}

func build(k Kind, g Group, opts Options) (f *Figure, err error) {
	defer recoverAs(&err)
	f, err = k.Build(g, opts)
	if err == nil && f == nil {
		err = fmt.Errorf("nothing drawn")
	}
	return f, err
}

func recoverAs(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("cannot be drawn: %v", r)
	}
}

// describe names a group for a warning: its key with the run's label or short id in
// place of the full run id.
func describe(g Group, opts Options) string {
	key := g.Key
	for _, r := range g.Runs {
		key = strings.ReplaceAll(key, r.RunID, runName(r.RunID, opts))
	}
	return key
}

// uniqueNames appends a run tag to names several figures share, then a counter; names
// that differ only in case count as one (a file system may not tell them apart).
func uniqueNames(figs []*Figure, tags []string) {
	count := map[string]int{}
	for _, f := range figs {
		count[f.Name]++
	}
	for i, f := range figs {
		if count[f.Name] > 1 && tags[i] != "" {
			f.Name = SafeName(f.Name + "-" + tags[i])
		}
	}
	used := map[string]bool{}
	for _, f := range figs {
		name := f.Name
		for n := 2; used[strings.ToLower(name)]; n++ {
			name = fmt.Sprintf("%s-%d", f.Name, n)
		}
		f.Name = name
		used[strings.ToLower(name)] = true
	}
}

// groupBy splits the points that pass keep into groups by key, in order of first
// appearance, and attaches the run headers.
func groupBy(res *report.Results, keep func(*record.Point) bool, key func(*record.Point) string) []Group {
	var out []Group
	at := map[string]int{}
	for i := range res.Points {
		p := &res.Points[i]
		if !measured(p) || !keep(p) {
			continue
		}
		k := key(p)
		j, ok := at[k]
		if !ok {
			j = len(out)
			at[k] = j
			out = append(out, Group{Key: k})
		}
		out[j].Points = append(out[j].Points, *p)
	}
	for i := range out {
		seen := map[string]bool{}
		for _, p := range out[i].Points {
			if seen[p.RunID] {
				continue
			}
			seen[p.RunID] = true
			if run, ok := res.Run(p.RunID); ok {
				out[i].Runs = append(out[i].Runs, *run)
			} else {
				out[i].Runs = append(out[i].Runs, record.Run{RunID: p.RunID, NProcs: p.NProcs})
			}
		}
	}
	return out
}

// measured is false for points without a single valid repetition: they have no time.
func measured(p *record.Point) bool {
	for _, f := range p.Flags {
		if f == record.FlagNoValidReps {
			return false
		}
	}
	return p.Reps > 0
}

// library is the run's MPI library, for grouping across runs.
func (g Group) library(runID string) string {
	for _, r := range g.Runs {
		if r.RunID == runID {
			return r.MPILibrary
		}
	}
	return ""
}

// runTag names the group's run when it has exactly one: its label, or its id.
func (g Group) runTag(opts Options) string {
	if len(g.Runs) != 1 {
		return ""
	}
	return runName(g.Runs[0].RunID, opts)
}

func runName(id string, opts Options) string {
	if l := opts.Labels[id]; l != "" {
		return l
	}
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// Caption describes where the group's records come from: library, hosts, processes
// and, for a single run, which run.
func (g Group) Caption(opts Options) string {
	var libs, hosts, procs []string
	for _, r := range g.Runs {
		libs = addOnce(libs, orUnknown(r.MPILibrary, "unknown MPI library"))
		if len(r.Hosts) > 0 {
			hosts = addOnce(hosts, report.Count(len(r.Hosts), "host"))
		}
		if len(g.Points) == 0 {
			procs = addOnce(procs, fmt.Sprint(r.NProcs))
		}
	}
	// The processes the points were measured on (a communicator of procs = 1 in a
	// 2-process job is 1 process), else the jobs'.
	for _, p := range g.Points {
		procs = addOnce(procs, fmt.Sprint(p.NProcs))
	}
	sort.Slice(procs, func(i, j int) bool { return atoi(procs[i]) < atoi(procs[j]) })
	parts := []string{strings.Join(libs, ", ")}
	if len(hosts) > 0 {
		parts = append(parts, strings.Join(hosts, ", "))
	}
	np := strings.Join(procs, ", ")
	if len(procs) == 1 && procs[0] == "1" {
		parts = append(parts, "1 process")
	} else {
		parts = append(parts, np+" processes")
	}
	if len(g.Runs) == 1 {
		parts = append(parts, "run "+runName(g.Runs[0].RunID, opts))
	} else {
		parts = append(parts, report.Count(len(g.Runs), "run"))
	}
	return strings.Join(parts, " · ")
}

func addOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

func orUnknown(s, unknown string) string {
	if s == "" {
		return unknown
	}
	return s
}

func atoi(s string) int {
	n := 0
	fmt.Sscan(s, &n)
	return n
}
