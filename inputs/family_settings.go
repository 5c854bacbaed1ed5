package inputs

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/skampi/skampi/ops"
)

// FamilySetting is a setting a measurement family adds from its own package
// (RegisterSetting): named, documented, checked and scoped like the built-in ones, in
// suites, on the command line (--name-with-dashes) and in `skampi run --help`. Its
// value lives in Settings by name (Settings.Value), so adding one touches no file here.
type FamilySetting struct {
	Name, Doc string
	// Default is the value before a suite or flag sets it: what Parse returns.
	Default any
	// Parse checks a value as TOML gives it (int64, float64, string, bool, []any) and
	// returns the setting's value (SettingSize, SettingDuration, SettingWait,
	// SettingInt, SettingOneOf read the common kinds).
	Parse func(v any) (any, error)
	// Applies says whether a measurement uses the setting, What says which do, in
	// words: given where none uses it, the setting is an error (as every scoped
	// setting is, applies.go). nil: every operation uses it.
	Applies func(m *Measurement) bool
	What    string
	// Check says why the value given does not fit a measurement that takes it ("": it
	// does), once the measurement's settings are all read (a grid's dimensions and the
	// kind of topology, say): an error where the value was given, the measurement's key
	// or [settings]'. nil: none.
	Check func(m *Measurement) string
	// Bound says why the value, given or its default, cannot be measured with the
	// measurement's other settings that With names ("": it can): an error at whichever
	// of this setting and those was given last, else at the measurement's op, made
	// whether or not the value was given (a default too long for a short
	// max_time_per_point). nil: none.
	Bound func(m *Measurement) string
	With  []string
	// BoundAt: a key of the measurement's table that Bound's error is at instead
	// ("sizes": sizes the value does not fit).
	BoundAt string
	// Grain: every size of op must be a multiple of this under the settings (a message
	// sent in parts; 0: any). Refinement adds sizes on it, and the one-line form's
	// default sizes start at it (Settings.SizeGrain). nil: none.
	Grain func(s Settings, op ops.Info) int64
	// Span: the memory one message of bytes spans under the settings (a strided
	// layout's stride times its payload), which the job's memory check counts. nil:
	// bytes.
	Span func(s Settings, op ops.Info, bytes int64) int64
	// Before names the setting this one is listed before ("": after all): the order of
	// a one-line suite's [settings], so of its text, where a setting that moved out of
	// the core keeps its place. Another family's setting may be named: this one is
	// moved there once it is registered (SettingsPlaced lists the ones never moved).
	Before string
	// StepWait: how long the value makes a step of the measurement wait on purpose (a
	// computation, a late partner; 0: none), which the watchdog's budget between two
	// steps must allow for (checks_stall.go). nil: none.
	StepWait func(m *Measurement) time.Duration
	// WholeStep: the value makes the measurement's steps under method timed whole (a
	// busy target's step lasts its computation), so a non-blocking operation's step is
	// not broken down into post, wait and overlap (Measurement.TimedWhole). nil: never.
	WholeStep func(m *Measurement, method string) bool
	// Shares: core settings the family's measurements use too, with this one's value.
	Shares []Share
	// Recorded: the fields of a point's setup (record.Setup's names) the value sets,
	// which a tune that sweeps the setting leaves out when it matches points. nil: the
	// setting's own name (as Point.SetFamilySetting records it); empty: none.
	Recorded []string
	// Sample: a value away from the default, as a suite writes it, that tests
	// measuring the whole catalogue give every operation using the setting
	// (SampleSettings), so its records carry the family's fields as a suite sets
	// them. "": none.
	Sample string
}

// Share says that a family's measurements use a core setting too (a busy target polls
// every progress spin iterations): where Uses says so, the setting applies; What adds
// them to its scope's words, Doc to its description.
type Share struct {
	Setting, What, Doc string
	Uses               func(m *Measurement) bool
}

// recorded: the registered settings' setup fields (FamilySetting.Recorded), by name.
var recorded = map[string][]string{}

// RecordedAs says which fields of a point's setup a registered setting's value sets
// (FamilySetting.Recorded); false for a setting no family registered.
func RecordedAs(name string) ([]string, bool) {
	f, ok := recorded[name]
	return f, ok
}

// samples: the registered settings with a Sample, in the order they were registered.
var samples []FamilySetting

// SampleSettings are the registered settings' samples (name, value as TOML writes
// it) that apply to op measured with its defaults: for tests that measure every
// operation of the catalogue, the families linked in saying what to set.
func SampleSettings(op ops.Info) [][2]string {
	m := &Measurement{Op: op, Settings: Defaults()}
	var out [][2]string
	for _, fs := range samples {
		if fs.Applies == nil || fs.Applies(m) {
			out = append(out, [2]string{fs.Name, fs.Sample})
		}
	}
	return out
}

// settingBounds: the registered settings' bounds (FamilySetting.Bound), in the order
// they were registered.
var settingBounds []FamilySetting

// spans: the registered settings' Span, in the order they were registered.
var spans []func(s Settings, op ops.Info, bytes int64) int64

// grains: the registered settings' Grain, in the order they were registered.
var grains []func(s Settings, op ops.Info) int64

// familyGrain is what the families' grains of op's sizes all divide (0: none).
func (s Settings) familyGrain(op ops.Info) int64 {
	g := int64(0)
	for _, f := range grains {
		if x := f(s, op); x > 0 {
			g = lcm(max(g, 1), x)
		}
	}
	return g
}

// wholeSteps: the registered settings' WholeStep, in the order they were registered.
var wholeSteps []func(m *Measurement, method string) bool

// TimedWhole says whether a family times the measurement's steps under method whole
// (FamilySetting.WholeStep): then a non-blocking operation's point is not broken down.
func (m *Measurement) TimedWhole(method string) bool {
	return slices.ContainsFunc(wholeSteps, func(w func(*Measurement, string) bool) bool { return w(m, method) })
}

// familyDefaults: every registered setting's default, by name.
var familyDefaults = map[string]any{}

// settingChecks: the registered settings' checks (FamilySetting.Check), in the order
// they were registered.
var settingChecks []FamilySetting

// RegisterSetting adds a family's setting; its package's init calls it. A name taken,
// or a setting without Parse or Default, is a programming error.
func RegisterSetting(fs FamilySetting) {
	if fs.Name == "" || fs.Parse == nil || fs.Default == nil {
		panic("inputs.RegisterSetting: a setting needs a name, Parse and Default")
	}
	if _, taken := findSetting(fs.Name); taken {
		panic("inputs.RegisterSetting: setting " + fs.Name + " exists")
	}
	if fs.Applies != nil && fs.What == "" {
		panic("inputs.RegisterSetting: setting " + fs.Name + " applies to some operations: say which (What)")
	}
	familyDefaults[fs.Name] = fs.Default
	settingList = append(settingList, setting{fs.Name, fs.Doc, func(s *Settings, v any) error {
		x, err := fs.Parse(v)
		if err != nil {
			return err
		}
		s.setFamily(fs.Name, x)
		return nil
	}})
	if fs.Before != "" {
		unplaced = append(unplaced, [2]string{fs.Name, fs.Before})
	}
	place()
	if fs.Applies != nil {
		scopes[fs.Name] = scope{fs.What, fs.Applies}
	}
	if fs.Check != nil {
		settingChecks = append(settingChecks, fs)
	}
	if fs.Bound != nil {
		settingBounds = append(settingBounds, fs)
	}
	if fs.Sample != "" {
		samples = append(samples, fs)
	}
	recorded[fs.Name] = fs.Recorded
	if fs.Recorded == nil {
		recorded[fs.Name] = []string{fs.Name}
	}
	if fs.Grain != nil {
		grains = append(grains, fs.Grain)
	}
	if fs.Span != nil {
		spans = append(spans, fs.Span)
	}
	if fs.StepWait != nil {
		stepWaitOf[fs.Name] = fs.StepWait
	}
	if fs.WholeStep != nil {
		wholeSteps = append(wholeSteps, fs.WholeStep)
	}
	for _, sh := range fs.Shares {
		share(sh)
	}
}

// unplaced: registered settings (name, Before) not yet moved before a setting that
// another family registers, maybe later: families are initialised in the order of
// their paths, and a family's tests link it alone.
var unplaced [][2]string

// place moves each unplaced setting whose Before is now listed, and placed itself,
// just before it, in the order they were registered, until none moves.
func place() {
	for moved := true; moved; {
		moved = false
		for i, u := range unplaced {
			to := slices.IndexFunc(settingList, func(st setting) bool { return st.name == u[1] })
			if to < 0 || slices.ContainsFunc(unplaced, func(v [2]string) bool { return v[0] == u[1] }) {
				continue
			}
			from := slices.IndexFunc(settingList, func(st setting) bool { return st.name == u[0] })
			st := settingList[from]
			settingList = slices.Delete(settingList, from, from+1)
			if from < to {
				to--
			}
			settingList = slices.Insert(settingList, to, st)
			unplaced = slices.Delete(unplaced, i, i+1)
			moved = true
			break
		}
	}
}

// SettingsPlaced says which registered settings name, in Before, a setting nobody
// registered (nil: none); they are listed last. The test linking every family calls it.
func SettingsPlaced() []string {
	var out []string
	for _, u := range unplaced {
		out = append(out, u[0]+" before "+u[1])
	}
	return out
}

// share widens a core setting to a family's measurements (FamilySetting.Shares).
func share(sh Share) {
	sc, scoped := scopes[sh.Setting]
	at := slices.IndexFunc(settingList, func(st setting) bool { return st.name == sh.Setting })
	if !scoped || at < 0 || sh.Uses == nil || sh.What == "" || sh.Doc == "" {
		panic("inputs.RegisterSetting: a share needs a scoped setting, Uses, What and Doc: " + sh.Setting)
	}
	scopes[sh.Setting] = scope{sc.what + ", and " + sh.What, func(m *Measurement) bool { return sc.applies(m) || sh.Uses(m) }}
	settingList[at].doc += "; " + sh.Doc
}

// checkFamilySettings makes the registered settings' checks of a measurement, for each
// value given (in the measurement or in [settings]), at where it was given.
func (d *decoder) checkFamilySettings(m *Measurement, origin map[string]string) {
	for _, fs := range settingChecks {
		if at, given := origin[fs.Name]; given {
			if msg := fs.Check(m); msg != "" {
				d.errAt(at, "%s", msg)
			}
		}
	}
}

// checkFamilyBounds makes the registered settings' bounds of a measurement
// (FamilySetting.Bound) at the later of their keys given, else at prefix's op.
func (d *decoder) checkFamilyBounds(m *Measurement, origin map[string]string, prefix string) {
	for _, fs := range settingBounds {
		if msg := fs.Bound(m); msg != "" {
			path := d.later(origin, append([]string{fs.Name}, fs.With...)...)
			if fs.BoundAt != "" {
				path = prefix + "." + fs.BoundAt
			} else if path == "" {
				path = prefix + ".op"
			}
			d.errAt(path, "%s", msg)
		}
	}
}

// Value is a family's setting (RegisterSetting) as the point's settings give it: what
// a suite or flag set, else its default; nil for a name no family registered.
func (s Settings) Value(name string) any {
	if v, ok := s.family[name]; ok {
		return v
	}
	return familyDefaults[name]
}

// setFamily sets a family's setting on these settings only: the map is copied, since
// a measurement's settings start as a copy of the suite's.
func (s *Settings) setFamily(name string, v any) {
	m := maps.Clone(s.family)
	if m == nil {
		m = map[string]any{}
	}
	m[name] = v
	s.family = m
}

// SettingSize reads a size in bytes ("64KiB", 65536) of at least lo bytes.
func SettingSize(lo int64) func(any) (any, error) {
	return func(v any) (any, error) {
		n, err := size(v)
		if err == nil && n < lo {
			err = fmt.Errorf("must be at least %s, got %s", FormatSize(lo), FormatSize(n))
		}
		return n, err
	}
}

// SettingDuration reads a duration ("20us").
func SettingDuration(v any) (any, error) {
	d, err := duration(v)
	return d, err
}

// SettingWait reads how long something waits or computes in every step: "0s" (none;
// also "0", "0us") up to hi; why says what a longer value would do.
func SettingWait(hi time.Duration, why string) func(any) (any, error) {
	return func(v any) (any, error) {
		if zeroDuration(v) {
			return time.Duration(0), nil
		}
		d, err := duration(v)
		if err == nil && (d < 0 || d > hi) {
			return d, fmt.Errorf("from 0s to %v, got %v: %s", hi, d, why)
		}
		return d, err
	}
}

// SettingInt reads an integer in [lo, hi].
func SettingInt(lo, hi int64) func(any) (any, error) {
	return func(v any) (any, error) { return intIn(v, lo, hi) }
}

// SettingOneOf reads one of the names allowed.
func SettingOneOf(allowed ...string) func(any) (any, error) {
	return func(v any) (any, error) { return oneOf(v, allowed...) }
}
