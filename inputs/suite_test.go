package inputs

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden .err files of testdata/bad")

func TestExampleSuite(t *testing.T) {
	p, err := Load("testdata/good/example.toml")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Measurements) != 2 || p.Points() != 17+4 {
		t.Fatalf("got %d measurements, %d points; want 2, 21", len(p.Measurements), p.Points())
	}
	pp, bw := p.Measurements[0], p.Measurements[1]
	if pp.Name != "ping-pong, blocking" || pp.Op.Name != "Pingpong_Send_Recv" {
		t.Errorf("first measurement = %q %q", pp.Name, pp.Op.Name)
	}
	if pp.Sizes[0] != 1 || pp.Sizes[len(pp.Sizes)-1] != 64<<10 {
		t.Errorf("ping-pong sizes = %v", pp.Sizes)
	}
	// to = "max" with a window of 64 in 4 MiB: 64 KiB per message at most.
	if want := []int64{1 << 10, 4 << 10, 16 << 10, 64 << 10}; !reflect.DeepEqual(bw.Sizes, want) {
		t.Errorf("bandwidth sizes = %v, want %v", bw.Sizes, want)
	}
	if pp.Settings.MaxRelStderr != 0.03 || bw.Settings.MaxRelStderr != 0.05 {
		t.Errorf("override: %v %v", pp.Settings.MaxRelStderr, bw.Settings.MaxRelStderr)
	}
	if bw.Settings.MaxTime != 5*time.Second || bw.Settings.Buffer != 4<<20 || bw.Settings.Window != 64 {
		t.Errorf("settings not inherited: %+v", bw.Settings)
	}
	if p.Name != "example" || len(p.SHA256) != 64 {
		t.Errorf("name %q sha %q", p.Name, p.SHA256)
	}
}

func TestBuiltinSuites(t *testing.T) {
	names := BuiltinNames()
	if !reflect.DeepEqual(names, []string{"pt2pt", "quick"}) {
		t.Fatalf("built-ins = %v", names)
	}
	p, err := Load("pt2pt")
	if err != nil {
		t.Fatal(err)
	}
	ops := map[string]bool{}
	for _, m := range p.Measurements {
		ops[m.Op.Name] = true
		if m.Sizes[0] != 1 || m.Sizes[len(m.Sizes)-1] != 4<<20 {
			t.Errorf("%s: sizes %v, want 1 B to 4 MiB", m.Name, m.Sizes)
		}
	}
	if len(ops) != 13 {
		t.Errorf("pt2pt covers %d ops, want 13", len(ops))
	}
	if p.Source != "builtin:pt2pt" || p.Name != "pt2pt" {
		t.Errorf("source %q name %q", p.Source, p.Name)
	}
	if _, err := Load("quick"); err != nil {
		t.Error(err)
	}
}

func TestLoadMissing(t *testing.T) {
	_, err := Load("no-such-suite")
	want := "no-such-suite: no such file, and no built-in suite of that name (built-ins: pt2pt, quick)"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
}

func TestSettingsOverrideAndLists(t *testing.T) {
	src := `
[settings]
timer = "iteration"
iterations = 100
sync = "none"

[[measurement]]
name = "a"
op = "Pingpong_Sendrecv"
sizes = [0, "1KiB", 4096]
pair = [0, 3]
iterations = "auto"
timer = "global-loop"

[[measurement]]
name = "b"
op = "Pingpong_Send_Recv"
sizes.from = "1B"
sizes.to = "16B"
sizes.step = "+5"
pair = "max-latency"
`
	p, err := Parse("s.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	a, b := p.Measurements[0].Settings, p.Measurements[1].Settings
	if a.Timer != TimerGlobalLoop || a.Iterations != 0 || a.Pair != PairRanks || a.PairRanks != [2]int{0, 3} || a.Sync != "none" {
		t.Errorf("a = %+v", a)
	}
	if b.Timer != TimerIteration || b.Iterations != 100 || b.Pair != PairMaxLatency {
		t.Errorf("b = %+v", b)
	}
	if got := p.Measurements[0].Sizes; !reflect.DeepEqual(got, []int64{0, 1024, 4096}) {
		t.Errorf("list sizes = %v", got)
	}
	if got := p.Measurements[1].Sizes; !reflect.DeepEqual(got, []int64{1, 6, 11, 16}) {
		t.Errorf("+5 sizes = %v", got)
	}
}

// Every file in testdata/bad is rejected with exactly the text of its .err file.
func TestBadSuites(t *testing.T) {
	files, _ := filepath.Glob("testdata/bad/*.toml")
	if len(files) < 10 {
		t.Fatalf("only %d bad suites", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			p, err := Load(f)
			if err == nil {
				t.Fatalf("accepted: %d measurements", len(p.Measurements))
			}
			if _, ok := err.(*ErrorList); !ok {
				t.Fatalf("error is %T, want *ErrorList: %v", err, err)
			}
			golden := strings.TrimSuffix(f, ".toml") + ".err"
			got := err.Error() + "\n"
			if *update {
				os.WriteFile(golden, []byte(got), 0o644)
			}
			want, rerr := os.ReadFile(golden)
			if rerr != nil {
				t.Fatalf("no golden file: %v (run go test ./inputs -update)", rerr)
			}
			if got != string(want) {
				t.Errorf("error text:\n%s\nwant:\n%s", got, want)
			}
			for _, line := range strings.Split(strings.TrimSpace(got), "\n") {
				if !strings.HasPrefix(line, f+":") {
					t.Errorf("line does not start with the file name: %q", line)
				}
			}
		})
	}
}

func TestTooLarge(t *testing.T) {
	big := []byte(strings.Repeat("# padding\n", maxFileBytes/10+1))
	_, err := Parse("big.toml", big)
	if err == nil || !strings.Contains(err.Error(), "larger than the 1048576-byte limit") {
		t.Fatalf("err = %v", err)
	}
}
