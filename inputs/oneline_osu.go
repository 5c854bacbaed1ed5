package inputs

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/skampi/skampi/ops"
)

// OSU micro-benchmark options on `skampi run`, each mapped to the setting that means
// the same, with a comment in the suite saying which option made it:
//
//	-m [MIN:]MAX  sizes from MIN to MAX by powers of two (OSU 7.4: MIN defaults to 1 B,
//	              the operation's one element here, as OSU's collectives raise it to)
//	-i N          iterations = N: OSU times one loop of N operations; so does each
//	              skampi repetition, which the stop rule then repeats
//	-x N          at least N operations run untimed first: warmup repetitions of
//	              the loop, ceil(N / iterations), or N when iterations is auto
//	-W N          window = N
//	-c            check_data = true
//
// OSU's -i is not max_repetitions: an OSU number is the mean of one timed loop, and a
// skampi repetition is exactly such a loop (global-loop timer); what skampi adds is
// repeating it until the mean is known to max_relative_stderr. -i N with
// --min-repetitions 1 --max-repetitions 1 is OSU's measurement alone.

// OSU holds the OSU options given ("" or false: not given).
type OSU struct {
	MessageSize string // -m [MIN:]MAX
	Iterations  string // -i N
	Warmup      string // -x N
	Window      string // -W N
	Validate    bool   // -c
	Type        string // -T TYPE
}

// osuTypes are OSU's -T names (7.x: mpi_char, mpi_int, mpi_float) as skampi's datatype.
var osuTypes = map[string]string{"mpi_char": "char", "mpi_int": "int", "mpi_float": "float"}

// ApplyOSU puts the OSU options into the line as the settings they mean. Giving an
// option and the setting it maps to (-i and --iterations) is an error: one would
// silently win.
func (o *OneLine) ApplyOSU(u OSU) error {
	has := func(key string) bool {
		for _, kv := range o.Settings {
			if kv[0] == key {
				return true
			}
		}
		return false
	}
	set := func(opt, key, value, note string) error {
		if has(key) {
			return fmt.Errorf("%s and %s: both set %s, give one of them", opt, flagName(key), key)
		}
		o.Settings = append(o.Settings, [2]string{key, value})
		if o.Notes == nil {
			o.Notes = map[string]string{}
		}
		o.Notes[key] = note
		return nil
	}
	count := func(opt, v string, min int) (int, error) {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < min {
			return 0, fmt.Errorf("%s %q: must be an integer of at least %d (OSU's meaning)", opt, v, min)
		}
		return n, nil
	}
	if u.MessageSize != "" {
		if o.Sizes != "" || o.Step != "" {
			return fmt.Errorf("-m and --sizes/--step: both set the sizes, give one of them")
		}
		if err := checkOSUSizes(u.MessageSize); err != nil {
			return err
		}
		o.OSUSizes = u.MessageSize
	}
	iters := 0
	if u.Iterations != "" {
		n, err := count("-i", u.Iterations, 1)
		if err != nil {
			return err
		}
		if err := set("-i", "iterations", strconv.Itoa(n), fmt.Sprintf("-i %d (OSU): one timed loop of %d operations per repetition", n, n)); err != nil {
			return err
		}
		iters = n
	} else {
		for _, kv := range o.Settings {
			if n, err := strconv.Atoi(kv[1]); kv[0] == "iterations" && err == nil && n > 0 {
				iters = n
			}
		}
	}
	if u.Warmup != "" {
		n, err := count("-x", u.Warmup, 0)
		if err != nil {
			return err
		}
		reps, how := n, fmt.Sprintf("%d repetition(s) of at least one operation each", n)
		if iters > 0 {
			reps = (n + iters - 1) / iters
			how = fmt.Sprintf("%d repetition(s) of %d operations", reps, iters)
		}
		if err := set("-x", "warmup", strconv.Itoa(reps), fmt.Sprintf("-x %d (OSU): at least %d untimed operations, as %s", n, n, how)); err != nil {
			return err
		}
	}
	if u.Window != "" {
		n, err := count("-W", u.Window, 1)
		if err != nil {
			return err
		}
		if err := set("-W", "window", strconv.Itoa(n), fmt.Sprintf("-W %d (OSU's window size)", n)); err != nil {
			return err
		}
	}
	if u.Type != "" {
		name, ok := osuTypes[strings.ToLower(u.Type)]
		if !ok {
			return fmt.Errorf("-T %q: OSU's types are mpi_char, mpi_int and mpi_float (-T all runs each in turn: name one, or run the operation once per type); skampi's datatype setting also takes byte, long and double (--datatype)", u.Type)
		}
		if err := set("-T", "datatype", name, fmt.Sprintf("-T %s (OSU's data type)", u.Type)); err != nil {
			return err
		}
	}
	if u.Validate {
		if err := set("-c", "check_data", "true", "-c (OSU's validation): every received byte checked after each repetition, outside the timing"); err != nil {
			return err
		}
	}
	return nil
}

// checkOSUSizes checks -m's [MIN:]MAX, ":MAX" or "MIN:" as OSU reads it, with units
// as --sizes takes them.
func checkOSUSizes(v string) error {
	from, to, ranged := strings.Cut(v, ":")
	if !ranged {
		from, to = "", v
	}
	if from == "" && to == "" || strings.Contains(to, ":") {
		return fmt.Errorf("-m %q: give [MIN:]MAX (OSU's form), e.g. -m 4096 or -m 4:4KiB", v)
	}
	for _, part := range []string{from, to} {
		if part == "" {
			continue
		}
		n, err := ParseSize(part)
		if err != nil {
			return fmt.Errorf("-m: %v", err)
		}
		if part == from && n < 1 {
			return fmt.Errorf("-m %q: MIN must be at least 1 byte (as OSU's), powers of two from 0 never grow", v)
		}
	}
	return nil
}

// osuSizes is the range -m gives op: a missing MIN is the operation's first default
// size (one element), a missing MAX its last (4 MiB as far as the job holds it).
func (o OneLine) osuSizes(op string, s Settings) string {
	from, to, ranged := strings.Cut(o.OSUSizes, ":")
	if !ranged {
		from, to = "", o.OSUSizes
	}
	def := o.defaultSizes(op, s)
	dfrom, dto, ok := strings.Cut(def, ":")
	if !ok {
		return def // one size only (a barrier's 0, an atomic's element): OSU's -m does not apply either
	}
	if from == "" {
		from = dfrom
	}
	if to == "" {
		to = dto
	}
	return from + ":" + to
}

// latencyByDefault: a plain one-line run of a one-sided operation that has a window
// measures what OSU's osu_put_latency (osu_get_latency, osu_acc_latency,
// osu_oshm_put) does: one operation and its completion at a time, window 1, unless
// the line gives a window (--window, -W). A window of 64 is a bandwidth measurement,
// which is not what `skampi run Put` reads as.
func (o OneLine) latencyByDefault(in ops.Info) bool {
	if !in.Windowed || !(in.OneSided || in.SHMEM) {
		return false
	}
	for _, kv := range o.Settings {
		if kv[0] == "window" {
			return false
		}
	}
	return true
}

// latencyNote is the comment on window = 1 and the line a run prints.
const latencyNote = "latency: one operation and its completion at a time (OSU's *_latency); --window N or -W N for bandwidth"

// LatencyDefaults lists what the line measures as latency because it gave no window:
// one line per operation, for the terminal (a run shows what it measures).
func (o OneLine) LatencyDefaults() []string {
	var out []string
	for _, op := range o.Ops {
		if in, ok := ops.Lookup(op); ok && o.latencyByDefault(in) {
			out = append(out, fmt.Sprintf("%s: window 1, %s", op, latencyNote))
		}
	}
	return out
}
