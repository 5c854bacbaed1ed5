package inputs

import (
	"strings"
	"testing"
)

// OSU's options become the settings of the same meaning, each with a comment naming
// the option, and the suite parses to those settings.
func TestOSUOptions(t *testing.T) {
	o := OneLine{Ops: []string{"Pingpong_Send_Recv"}}
	if err := o.ApplyOSU(OSU{MessageSize: "4:64", Iterations: "50", Warmup: "5", Validate: true}); err != nil {
		t.Fatal(err)
	}
	text, err := o.Suite()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"iterations = 50  # -i 50 (OSU): one timed loop of 50 operations per repetition\n",
		"warmup = 1  # -x 5 (OSU): at least 5 untimed operations, as 1 repetition(s) of 50 operations\n",
		"check_data = true  # -c (OSU's validation)",
		`sizes = { from = "4", to = "64", step = "*2" }  # -m 4:64 (OSU): powers of two` + "\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	p, err := ParseOneLine(text)
	if err != nil {
		t.Fatal(err)
	}
	m := p.Measurements[0]
	if s := m.Settings; s.Iterations != 50 || s.Warmup != 1 || !s.CheckData || len(m.Sizes) != 5 || m.Sizes[0] != 4 || m.Sizes[4] != 64 {
		t.Errorf("settings %+v sizes %v", s, m.Sizes)
	}
}

// -m's forms: MAX from the operation's first size, MIN: to its last, units as --sizes;
// -x without iterations is that many repetitions; -W is the window.
func TestOSUOptionForms(t *testing.T) {
	withMemory(t, 64<<30, true)
	withHeap(t, nil)
	for _, c := range []struct {
		ops  []string
		osu  OSU
		want []string
	}{
		{[]string{"Pingpong_Send_Recv"}, OSU{MessageSize: "4096"}, []string{`from = "1B", to = "4096"`}},
		{[]string{"Allreduce"}, OSU{MessageSize: "1KiB"}, []string{`from = "4B", to = "1KiB"`}}, // one int, as OSU's MIN / sizeof(int)
		{[]string{"Pingpong_Send_Recv"}, OSU{MessageSize: "64KiB:"}, []string{`from = "64KiB", to = "4MiB"`}},
		{[]string{"Pingpong_Send_Recv"}, OSU{MessageSize: ":8"}, []string{`from = "1B", to = "8"`}},
		{[]string{"Barrier"}, OSU{MessageSize: "64"}, []string{"sizes = [0]"}},
		{[]string{"Pingpong_Send_Recv"}, OSU{Warmup: "10"}, []string{"warmup = 10  # -x 10 (OSU): at least 10 untimed operations, as 10 repetition(s) of at least one operation each"}},
		{[]string{"Bandwidth_Isend_Irecv"}, OSU{Window: "16"}, []string{"window = 16  # -W 16 (OSU's window size)"}},
		{[]string{"Put"}, OSU{Window: "64"}, []string{"window = 64  #"}},
	} {
		o := OneLine{Ops: c.ops}
		if err := o.ApplyOSU(c.osu); err != nil {
			t.Errorf("%+v: %v", c.osu, err)
			continue
		}
		text, err := o.Suite()
		if err == nil {
			_, err = ParseOneLine(text)
		}
		if err != nil {
			t.Errorf("%+v: %v\n%s", c.osu, err, text)
		}
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%+v: no %q in\n%s", c.osu, w, text)
			}
		}
		if c.osu.Window != "" && strings.Contains(text, "window = 1 ") {
			t.Errorf("-W given, yet the latency default:\n%s", text)
		}
	}
}

// Mistakes name the OSU option; an option and its setting together are refused.
func TestOSUOptionMistakes(t *testing.T) {
	for _, c := range []struct {
		line OneLine
		osu  OSU
		want string
	}{
		{OneLine{}, OSU{MessageSize: "0:64"}, `-m "0:64": MIN must be at least 1 byte`},
		{OneLine{}, OSU{MessageSize: "1:2:3"}, `-m "1:2:3": give [MIN:]MAX`},
		{OneLine{}, OSU{MessageSize: "4XB"}, `-m: size "4XB": unknown unit "XB"`},
		{OneLine{Sizes: "8"}, OSU{MessageSize: "64"}, "-m and --sizes/--step: both set the sizes"},
		{OneLine{}, OSU{Iterations: "0"}, `-i "0": must be an integer of at least 1`},
		{OneLine{Settings: [][2]string{{"iterations", "auto"}}}, OSU{Iterations: "10"}, "-i and --iterations: both set iterations"},
		{OneLine{}, OSU{Warmup: "-1"}, `-x "-1": must be an integer of at least 0`},
		{OneLine{Settings: [][2]string{{"window", "4"}}}, OSU{Window: "8"}, "-W and --window: both set window"},
		{OneLine{Settings: [][2]string{{"check_data", "true"}}}, OSU{Validate: true}, "-c and --check-data: both set check_data"},
		{OneLine{}, OSU{Type: "all"}, `-T "all": OSU's types are mpi_char, mpi_int and mpi_float`},
		{OneLine{}, OSU{Type: "mpi_double"}, `-T "mpi_double": OSU's types`},
		{OneLine{Settings: [][2]string{{"datatype", "int"}}}, OSU{Type: "mpi_int"}, "-T and --datatype: both set datatype"},
	} {
		err := c.line.ApplyOSU(c.osu)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.osu, err, c.want)
		}
	}
}

// A plain line of a one-sided operation measures latency (window 1, said in the suite
// and by LatencyDefaults); a window on the line, or a two-sided bandwidth, keeps it.
func TestOneSidedLatencyByDefault(t *testing.T) {
	o := OneLine{Ops: []string{"Put", "Get", "Bandwidth_Isend_Irecv", "Shmem_Put"}}
	text, err := o.Suite()
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParseOneLine(text)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"Put": 1, "Get": 1, "Bandwidth_Isend_Irecv": 64, "Shmem_Put": 1}
	for _, m := range p.Measurements {
		if m.Settings.Window != want[m.Op.Name] {
			t.Errorf("%s: window %d, want %d", m.Op.Name, m.Settings.Window, want[m.Op.Name])
		}
	}
	if got := o.LatencyDefaults(); len(got) != 3 || !strings.HasPrefix(got[0], "Put: window 1, latency: one operation and its completion") {
		t.Errorf("%q", got)
	}
	o.Settings = [][2]string{{"window", "64"}}
	if text, _ := o.Suite(); strings.Contains(text, "window = 1") || len(o.LatencyDefaults()) != 0 {
		t.Errorf("--window 64 given:\n%s", text)
	}
}

// OSU's -T names a collective's data type as skampi's datatype setting.
func TestOSUType(t *testing.T) {
	o := OneLine{Ops: []string{"Allreduce"}}
	if err := o.ApplyOSU(OSU{Type: "mpi_float"}); err != nil {
		t.Fatal(err)
	}
	text, err := o.Suite()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, `datatype = "float"  # -T mpi_float (OSU's data type)`) {
		t.Errorf("suite:\n%s", text)
	}
	p, err := ParseOneLine(text)
	if err != nil {
		t.Fatal(err)
	}
	if d := p.Measurements[0].Settings.Datatype; d != "float" {
		t.Errorf("datatype %q", d)
	}
}
