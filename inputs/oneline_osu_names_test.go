package inputs

import (
	"os"
	"strings"
	"testing"

	"github.com/skampi/skampi/ops"
)

// Every OSU benchmark name is measured by catalogued operations that have its methods
// and take its settings (its suite parses and plans on 4 processes), and
// docs/osu-imb.md lists it; the names without one line are listed there too.
func TestOSUBenchmarkNames(t *testing.T) {
	doc, err := os.ReadFile("../docs/osu-imb.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, b := range OSUBenchmarks() {
		if seen[b.Name] {
			t.Errorf("%s listed twice", b.Name)
		}
		seen[b.Name] = true
		if !strings.Contains(string(doc), "`"+b.Name+"`") {
			t.Errorf("%s: docs/osu-imb.md does not list it", b.Name)
		}
		for _, op := range b.Ops {
			in, ok := ops.Lookup(op)
			if !ok {
				t.Errorf("%s: %s is not a catalogued operation", b.Name, op)
				continue
			}
			for _, m := range b.Methods {
				if _, ok := in.Method(m); !ok {
					t.Errorf("%s: %s has no method %q", b.Name, op, m)
				}
			}
		}
		got, ops, err := LookupOSU([]string{b.Name})
		if err != nil || got == nil || strings.Join(ops, " ") != strings.Join(b.Ops, " ") {
			t.Errorf("LookupOSU(%s) = %v, %v, %v", b.Name, got, ops, err)
			continue
		}
		ol := OneLine{Ops: ops, NP: 4}
		ol.ApplyOSUBenchmark(*got)
		text, err := ol.Suite()
		if err == nil {
			var p *Plan
			if p, err = ParseOneLine(text); err == nil {
				_, err = p.Expand(Job{NProcs: 4})
			}
		}
		if err != nil {
			t.Errorf("%s: %v\n%s", b.Name, err, text)
		}
	}
	for _, n := range OSUElsewhere() {
		if seen[n] {
			t.Errorf("%s is both measured and not", n)
		}
		if !strings.Contains(string(doc), "`"+n+"`") {
			t.Errorf("%s: docs/osu-imb.md does not list it", n)
		}
	}
}

// A flag given wins over the benchmark's setting, and the line that says what the
// name runs as leaves it out; an OSU name runs alone; unknown and unmeasured names
// are refused in one line saying what to run.
func TestOSUBenchmarkOverrides(t *testing.T) {
	b, _, _ := LookupOSU([]string{"osu_allreduce"})
	ol := OneLine{Ops: b.Ops, Sizes: "8,64", Settings: [][2]string{{"procs", "2"}}}
	note := ol.ApplyOSUBenchmark(*b)
	if ol.OSUSizes != "" || ol.Settings[0] != [2]string{"procs", "2"} || len(ol.Settings) != 2 {
		t.Errorf("flags given were overridden: %+v", ol)
	}
	if want := "osu_allreduce is skampi run Allreduce --method osu --datatype char ("; !strings.HasPrefix(note, want) {
		t.Errorf("note %q, want it to begin %q", note, want)
	}
	for args, want := range map[string]string{
		"osu_latency Bcast": "runs alone",
		"osu_nonesuch":      "not an OSU 7.4 benchmark",
		"osu_latency_mp":    "not measured",
		"osu_oshm_atomics":  "several operations",
	} {
		if _, _, err := LookupOSU(strings.Fields(args)); err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line with %q", args, err, want)
		}
	}
	if b, ops, err := LookupOSU([]string{"Bcast", "Allreduce"}); b != nil || len(ops) != 2 || err != nil {
		t.Errorf("plain operations: %v %v %v", b, ops, err)
	}
}
