package inputs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skampi/skampi/ops"
)

// Settings that matter to some operations only. One rule for suites and the command
// line: given for a measurement whose operation does not use it, a setting is an
// error at its key; given in [settings] (the suite's defaults) and used by none of
// the suite's measurements, a note (the one-line form, whose flags are what the user
// asked of the operations named, makes that an error too). A setting not listed here
// matters to every operation.

type scope struct {
	what    string // the operations it applies to, in words
	applies func(m *Measurement) bool
}

func collective(m *Measurement) bool { return m.Op.Pattern == ops.PatternAll && !m.Op.WholeJob }
func windowed(m *Measurement) bool   { return m.Op.Windowed }

// aggregates: a method of the measurement makes window calls per step (IMB-IO's
// aggregate mode, ops.Method.Aggregate).
func aggregates(m *Measurement) bool {
	return slices.ContainsFunc(m.Methods, func(name string) bool {
		meth, _ := m.Op.Method(name)
		return meth.Aggregate
	})
}

const windowedOps = "operations with messages in flight (bandwidth, one-sided and OpenSHMEM puts and gets)"
const windowOps = windowedOps + ` and IMB-IO's writes under method = "imb"`

// breaksDown: a point of the measurement under some method is a non-blocking
// breakdown, whose overlap computation tests its requests (progress): a non-blocking
// MPI operation whose steps no family times whole (TimedWhole).
func breaksDown(m *Measurement) bool {
	if !m.Op.Nonblocking || m.Op.SHMEM {
		return false
	}
	if len(m.Methods) == 0 {
		return !m.TimedWhole("")
	}
	return slices.ContainsFunc(m.Methods, func(name string) bool { return !m.TimedWhole(name) })
}

const procsOps = "collectives on communicators of chosen sizes (not operations on a pair, nor those over every process of the job)"

// loopTimed: the measurement's time is a loop of steps the timer times, whole or step by
// step; not a multi-threaded operation's (every thread times its own loop whole), nor
// one whose step times one call itself (CallTimed), nor methods that time every call
// alone (the per-task and barrier-each methods).
func loopTimed(m *Measurement) bool {
	if m.Op.Threaded || m.Op.CallTimed {
		return false
	}
	return len(m.Methods) == 0 || slices.ContainsFunc(m.Methods, func(name string) bool {
		meth, _ := m.Op.Method(name)
		return !meth.PerTask && !meth.BarrierEach
	})
}

const timedOps = "operations timed as a loop of steps (not the multi-threaded ones, whose threads time their own loops, nor those that time one call of their step, such as Comm_dup, Win_lock or File_Open)"

// coldable: a cold cache moves the measurement's messages. A one-sided operation's target
// is its window, OpenSHMEM's symmetric memory, a thread's its own buffers: skampi's
// buffers are not theirs; an operation that moves no data has none to move.
func coldable(m *Measurement) bool {
	return !m.Op.OneSided && !m.Op.SHMEM && !m.Op.Threaded && !m.Op.NoData
}

const coldOps = "MPI operations that move data from skampi's buffers (not one-sided, OpenSHMEM or multi-threaded ones, nor those that move no data)"

// refinable: refinement adds sizes between two listed ones of a curve whose time
// depends on the size.
func refinable(m *Measurement) bool { return !m.Op.NoData && len(m.Sizes) > 1 }

var scopes = map[string]scope{
	"pair":          {"operations on a pair of ranks", func(m *Measurement) bool { return m.Op.Pattern == ops.PatternPair }},
	"window":        {windowOps, func(m *Measurement) bool { return windowed(m) || aggregates(m) }},
	"recv_slots":    {windowedOps, windowed},
	"datatype":      {"MPI collectives and typed one-sided operations (Accumulate, Fetch_and_op, ...)", func(m *Measurement) bool { return m.Op.Datatyped }},
	"reduce_op":     {"MPI reductions and accumulates", func(m *Measurement) bool { return m.Op.Combines }},
	"root":          {"rooted collectives", func(m *Measurement) bool { return m.Op.Rooted }},
	"barrier_above": {"the ordered all-to-alls", func(m *Measurement) bool { return m.Op.Phased }},
	"procs":         {procsOps, collective},
	"layout":        {procsOps, collective},
	"progress":      {"non-blocking MPI operations (Isend, Ibcast, ...), which test their requests while they compute", breaksDown},
	"timer":         {timedOps, loopTimed},
	"cache":         {coldOps, coldable},
	"cache_size":    {`cold caches (cache = "cold") of ` + coldOps, func(m *Measurement) bool { return coldable(m) && m.Settings.Cache == CacheCold }},
	"refine": {"measurements of two sizes or more of an operation whose time depends on the size (not one that moves no data, such as Barrier, a lock or File_Open)",
		refinable},
	"clock_sync": {`window synchronisation (sync = "window", or a timing method such as "sync")`, func(m *Measurement) bool {
		return m.Settings.Sync == "window" || slices.ContainsFunc(m.Methods, func(name string) bool {
			meth, _ := m.Op.Method(name)
			return meth.WindowSync
		})
	}},
}

// checkApplies reports every setting written in a measurement's table that its
// operation does not use.
func (d *decoder) checkApplies(m *Measurement, path string, t map[string]any) {
	for _, k := range sortedKeys(t) {
		if sc, ok := scopes[k]; ok && !sc.applies(m) {
			d.errAt(path+"."+k, "%s does not use it: %s applies to %s", m.Op.Name, k, sc.what)
		}
	}
}

// checkDefaults reports every setting of [settings] whose value reaches no
// measurement that uses it: a note, or with strict (the one-line form) an error.
func (d *decoder) checkDefaults(origin map[string]string, ms []Measurement) {
	keys := make([]string, 0, len(origin))
	for k := range origin { // the valid ones: a wrong value is said already
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		why := defaultUnused(k, ms)
		if why == nil {
			continue
		}
		path := "settings." + k
		if d.strict {
			d.errAt(path, "%s", why.flag)
			continue
		}
		pos := d.ix.at(path)
		d.notes = append(d.notes, fmt.Sprintf("%s:%d:%d: %s: %s: ignored", d.el.File, pos.Line, pos.Col, path, why.note))
	}
}

// jobWide are the settings whose suite-wide value also bounds the job outside its
// points (the watchdog's phases: start-up, opening the results, finalize; the launcher's
// quiet limit), whatever the measurements set.
var jobWide = map[string]bool{"hang_timeout": true, "max_time_per_point": true}

// unusedWhy says why a suite-wide setting changes nothing: note in a suite file's
// terms, flag in the one-line form's (whose flags are what was asked of the operations
// named, so it names them).
type unusedWhy struct{ note, flag string }

// defaultUnused says why a suite-wide value of setting k changes none of the
// measurements (none uses it, or each that does sets its own); nil when one takes it.
func defaultUnused(k string, ms []Measurement) *unusedWhy {
	if jobWide[k] {
		return nil
	}
	sc, scoped := scopes[k]
	using := 0
	for i := range ms {
		if !scoped || sc.applies(&ms[i]) {
			using++
			if !ms[i].own[k] {
				return nil
			}
		}
	}
	if using > 0 {
		w := "its one measurement that uses it sets its own"
		if using > 1 {
			w = fmt.Sprintf("each of the %d measurements that use it sets its own", using)
		}
		return &unusedWhy{w, w}
	}
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Op.Name
	}
	return &unusedWhy{
		note: fmt.Sprintf("no measurement uses it (%s applies to %s)", k, sc.what),
		flag: fmt.Sprintf("%s: %s applies to %s", noneUses(names), k, sc.what),
	}
}

// noneUses says that the operations named do not use a setting, each named once.
func noneUses(names []string) string {
	var u []string
	for _, n := range names {
		if !slices.Contains(u, n) {
			u = append(u, n)
		}
	}
	if len(u) == 1 {
		return u[0] + " does not use it"
	}
	return "none of " + strings.Join(u, ", ") + " uses it"
}

// checkDefaultProcs refuses, in the one-line form, a process count of --procs that
// none of the operations measures anything on (a suite's [settings] leaves such counts
// out where too few, with a note: Expand).
func (d *decoder) checkDefaultProcs(global Settings, origin map[string]string, ms []Measurement) {
	if !d.strict || origin["procs"] != "settings.procs" {
		return
	}
	for _, n := range global.Procs {
		var short *Measurement
		for i := range ms {
			m := &ms[i]
			if !collective(m) {
				continue
			}
			if n == 0 || n >= m.Op.MinProcs {
				short = nil
				break
			}
			if short == nil {
				short = m
			}
		}
		if short != nil {
			d.errAt("settings.procs", "%s needs at least %d processes (%s): procs = %d measures nothing",
				short.Op.Name, short.Op.MinProcs, short.Op.MinProcsWhy, n)
			return
		}
	}
}
