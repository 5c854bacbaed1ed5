package inputs

import (
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

func TestTomlValue(t *testing.T) {
	for in, want := range map[string]string{
		"8": "8", "0.05": "0.05", "auto": `"auto"`, "true": "true", "2,4,all": `[2, 4, "all"]`,
		"1,3": "[1, 3]", "inf": `"inf"`, "10us": `"10us"`, `a"b`: `"a\"b"`,
	} {
		if got := tomlValue(in); got != want {
			t.Errorf("%q: %s, want %s", in, got, want)
		}
	}
}

// Every problem of a one-line suite is said once, by its flag, without a position.
func TestParseOneLineNamesFlags(t *testing.T) {
	text, err := OneLine{Ops: []string{"Bcast", "Allreduce"}, Sizes: "1:8XB", Methods: []string{"ack"},
		Settings: [][2]string{{"window", "x"}, {"procs", "2,zz"}}}.Suite()
	if err != nil {
		t.Fatal(err)
	}
	_, err = ParseOneLine(text)
	el, ok := err.(*ErrorList)
	if !ok {
		t.Fatalf("%T %v", err, err)
	}
	want := []string{
		"skampi run: --window: must be an integer, got a string",
		`skampi run: --procs: entry 2: must be a process count or "all": must be an integer, got a string`,
		`skampi run: --sizes: size "8XB": unknown unit "XB" (use B, KiB, MiB, GiB or TiB)`,
		"skampi run: --sizes: 1B is not a whole number of int elements (4 bytes each)", // Allreduce's, once
	}
	if got := strings.Split(el.Error(), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", el.Error(), strings.Join(want, "\n"))
	}
	if _, err := (OneLine{}).Suite(); err == nil {
		t.Error("a suite of no operation")
	}
	if _, err := (OneLine{Ops: []string{"Bcast"}, Sizes: "1:8,9"}).Suite(); err == nil {
		t.Error("a range and a list at once")
	}
}

// Numbers as a user types them are numbers: 007 is 7, .5 is 0.5.
func TestOneLinePlainNumbers(t *testing.T) {
	for in, want := range map[string]string{"007": "7", ".5": "0.5", "+5": "5", "5.": "5", "1e3": "1000", "0x10": `"0x10"`, "1_000": `"1_000"`} {
		if got := tomlValue(in); got != want {
			t.Errorf("%q: %s, want %s", in, got, want)
		}
	}
	text, err := OneLine{Ops: []string{"Bandwidth_Isend_Irecv"}, Sizes: "8", Settings: [][2]string{{"window", "007"}, {"max_relative_stderr", ".5"}}}.Suite()
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParseOneLine(text)
	if err != nil || p.Settings.Window != 7 || p.Settings.MaxRelStderr != 0.5 {
		t.Fatalf("%v\n%s", err, text)
	}
}

// Every value is valid TOML, whatever it holds; the command line is a one-line
// comment, so an argument with a newline cannot add keys to the suite.
func TestOneLineQuoting(t *testing.T) {
	for _, s := range []string{"a\"b", "back\\slash", "new\nline", "bell\a", "del\x7f", "bad\xffutf8", "tab\t", "é"} {
		var doc map[string]any
		if err := toml.Unmarshal([]byte("v = "+tomlString(s)), &doc); err != nil {
			t.Errorf("%q: %s: %v", s, tomlString(s), err)
		}
	}
	o := OneLine{Ops: []string{"Pingpong_Send_Recv"}, Sizes: "8",
		Command: []string{"skampi", "run", "Pingpong_Send_Recv", "--pair", "x\n[settings]\nwindow = 4", "a]b", "it's", "\xff", ""}}
	text, err := o.Suite()
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(text, "\n")
	if want := `# skampi run Pingpong_Send_Recv --pair $'x\n[settings]\nwindow = 4' 'a]b' 'it'\''s' $'\xff' ''`; first != want {
		t.Errorf("comment %s\nwant    %s", first, want)
	}
	p, err := Parse("printed", []byte(text))
	if err != nil || p.Settings.Window != Defaults().Window {
		t.Errorf("%v: the comment set window %d\n%s", err, p.Settings.Window, text)
	}
}

// Without --sizes an operation's sizes are ones it can move, and fit the job.
func TestOneLineDefaultSizes(t *testing.T) {
	withMemory(t, 64<<30, true)
	withHeap(t, nil)
	for _, c := range []struct {
		op       string
		np       int
		settings [][2]string
		want     string
	}{
		{"Pingpong_Send_Recv", 2, nil, `{ from = "1B", to = "4MiB", step = "*2" }`},
		{"Fetch_and_op", 2, nil, `["4B"]`}, // one int
		{"Fetch_and_op", 2, [][2]string{{"datatype", "long"}}, `["8B"]`},
		{"Compare_and_swap", 2, nil, `["4B"]`},
		{"Allreduce", 2, nil, `{ from = "4B", to = "4MiB", step = "*2" }`},
		{"Alltoall", 2, nil, `{ from = "1B", to = "2MiB", step = "*2" }`}, // 2 blocks in 4 MiB
		{"Alltoall", 4, nil, `{ from = "1B", to = "1MiB", step = "*2" }`},
		{"Alltoall", 4, [][2]string{{"procs", "2"}}, `{ from = "1B", to = "2MiB", step = "*2" }`},
		{"Alltoall", 2, [][2]string{{"buffer", "16MiB"}}, `{ from = "1B", to = "4MiB", step = "*2" }`},
		{"Shmem_Put", 2, nil, `{ from = "1B", to = "4MiB", step = "*2" }`},                           // latency: window 1
		{"Shmem_Put", 2, [][2]string{{"window", "64"}}, `{ from = "1B", to = "1MiB", step = "*2" }`}, // 2 x 1 MiB x 64 in 256 MiB
		{"Shmem_Put64", 2, [][2]string{{"window", "1"}}, `{ from = "8B", to = "4MiB", step = "*2" }`},
		{"Shmem_Atomic_Fetch_Add_Int", 2, nil, `["4B"]`},
		{"Barrier", 2, nil, `[0]`},
		{"Lock_Held", 2, nil, `[0]`},
		{"Shmem_Sync_All", 2, nil, `[0]`},
	} {
		text, err := OneLine{Ops: []string{c.op}, NP: c.np, Settings: c.settings}.Suite()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text, "sizes = "+c.want+"\n") {
			t.Errorf("%s at %d processes %v: want sizes = %s in\n%s", c.op, c.np, c.settings, c.want, text)
		}
		p, err := ParseOneLine(text)
		if err == nil {
			_, err = p.Expand(onOneHost(c.np))
		}
		if err != nil {
			t.Errorf("%s at %d processes: %v", c.op, c.np, err)
		}
	}
}

// --method given to operations none of which has methods is refused, by its flag.
func TestOneLineMethodsGoSomewhere(t *testing.T) {
	_, err := OneLine{Ops: []string{"Pingpong_Send_Recv", "Put_Pingpong"}, Methods: []string{"fence"}}.Suite()
	if err != nil {
		t.Errorf("Put_Pingpong has fence: %v", err)
	}
	_, err = OneLine{Ops: []string{"Pingpong_Send_Recv", "Allreduce"}, Methods: []string{"barrier"}}.Suite()
	if err == nil || err.Error() != `--method: "barrier" is not a timing method of any operation named (Pingpong_Send_Recv: no timing methods; Allreduce: "osu")` {
		t.Errorf("err = %v", err)
	}
	// Each operation gets the listed methods it has.
	text, err := OneLine{Ops: []string{"Bcast", "Allreduce"}, Methods: []string{"barrier", "osu"}}.Suite()
	if err != nil || !strings.Contains(text, "op = \"Bcast\"\nsizes = ") || strings.Count(text, `method = ["barrier", "osu"]`) != 1 ||
		strings.Count(text, `method = ["osu"]`) != 1 {
		t.Errorf("Bcast and Allreduce, --method barrier,osu: %v\n%s", err, text)
	}
}
