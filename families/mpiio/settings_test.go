package mpiio

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/internal/familytest"
	"github.com/skampi/skampi/ops"
)

// The family's operations, setting and suite are registered: the operations at their
// place in the catalogue, io_dir a setting of theirs only, and the built-in suite io
// loads, plans and measures every one of them.
func TestRegistered(t *testing.T) {
	var io []string
	for _, in := range ops.All() {
		if in.IO {
			io = append(io, in.Name)
			if in.Family != "io" || in.Kernel == "" || in.Pattern != ops.PatternAll || in.Reduce != ops.ReduceMax {
				t.Errorf("%s: %+v", in.Name, in)
			}
		}
	}
	if len(io) == 0 {
		t.Fatal("no MPI-IO operation in the catalogue")
	}
	for name, want := range map[string]bool{"File_Open": true, "File_Write_Shared": true, "File_Write_At": false} {
		if in, _ := ops.Lookup(name); in.CallTimed != want {
			t.Errorf("%s: call-timed %v, want %v", name, in.CallTimed, want)
		}
	}
	if in, _ := ops.Lookup("File_Read_Private"); !in.PrivateFile {
		t.Error("File_Read_Private works on no private file")
	}
	if in, _ := ops.Lookup("File_Write_At"); !slices.ContainsFunc(in.Methods, func(m ops.Method) bool { return m.Name == "imb" && m.Aggregate }) {
		t.Errorf("File_Write_At has no method imb: %+v", in.Methods)
	}
	if !slices.ContainsFunc(inputs.SettingList(), func(s inputs.Setting) bool { return s.Key == settingDir }) {
		t.Errorf("%s is not a suite setting", settingDir)
	}
	plan, err := inputs.Load("io")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plan.Expand(inputs.Job{NProcs: 2}); err != nil {
		t.Error(err)
	}
	for _, name := range io {
		if !slices.ContainsFunc(plan.Measurements, func(m inputs.Measurement) bool { return m.Op.Name == name }) {
			t.Errorf("suite io does not measure %s", name)
		}
	}
}

// A setting that cannot change what an MPI-IO measurement measures is an error at its
// key, in a suite and as a flag: io_dir of another operation, refine of one that moves
// no data, window of a write without method imb (IMB-IO's aggregate mode). Used, the
// same settings pass; the window reaches the point, 1 where none is written.
func TestSettingsThatDoNothing(t *testing.T) {
	const m = "[[measurement]]\nname = \"m\"\n"
	for _, c := range []struct{ name, text, want string }{
		{"io_dir of a ping-pong", m + "op = \"Pingpong_Send_Recv\"\nsizes = [8]\nio_dir = \"/scratch\"\n",
			"s.toml:5:10: measurement 1: io_dir: Pingpong_Send_Recv does not use it: io_dir applies to MPI-IO operations (File_Write_At, File_Read_All, ...)"},
		{"refine of File_Open", m + "op = \"File_Open\"\nsizes = [0]\nrefine = true\n",
			"s.toml:5:10: measurement 1: refine: File_Open does not use it"},
		{"window without method imb", m + "op = \"File_Write_At\"\nsizes = [1024]\nwindow = 4\n",
			`s.toml:5:10: measurement 1: window: File_Write_At does not use it: window applies to operations with messages in flight (bandwidth, one-sided and OpenSHMEM puts and gets) and IMB-IO's writes under method = "imb"`},
		{"window of a read", m + "op = \"File_Read_At\"\nsizes = [1024]\nwindow = 4\n",
			"s.toml:5:10: measurement 1: window: File_Read_At does not use it"},
		{"window of a _Sync write", m + "op = \"File_Write_At_Sync\"\nsizes = [1024]\nwindow = 4\n",
			"s.toml:5:10: measurement 1: window: File_Write_At_Sync does not use it"},
	} {
		if _, err := inputs.Parse("s.toml", []byte(c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v\nwant %s", c.name, err, c.want)
		}
	}
	p, err := inputs.Parse("s.toml", []byte("[settings]\nwindow = 8\n"+m+"op = \"File_Write_At\"\nsizes = [1024]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "settings.window: no measurement uses it (window applies to"; len(p.Notes) != 1 || !strings.Contains(p.Notes[0], want) {
		t.Errorf("suite-wide window of a write without method imb: notes %q, want %s", p.Notes, want)
	}
	for _, c := range []struct {
		line inputs.OneLine
		want string
	}{
		{inputs.OneLine{Ops: []string{"File_Write_At"}, Settings: [][2]string{{"window", "4"}}},
			"skampi run: --window: File_Write_At does not use it"},
		{inputs.OneLine{Ops: []string{"File_Write_Ordered"}, Settings: [][2]string{{"window", "4"}}},
			"skampi run: --window: File_Write_Ordered does not use it"},
		{inputs.OneLine{Ops: []string{"Pingpong_Send_Recv"}, Settings: [][2]string{{"io_dir", "/tmp"}}},
			"skampi run: --io-dir: Pingpong_Send_Recv does not use it: io_dir applies to MPI-IO operations (File_Write_At, File_Read_All, ...)"},
	} {
		text, err := c.line.Suite()
		if err == nil {
			_, err = inputs.ParseOneLine(text)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v\nwant %s", c.line, err, c.want)
		}
	}

	// Used, taken: io_dir reaches the measurement; the window too, 1 where none is
	// written under method imb (not the bandwidth window's 64).
	p, err = inputs.Parse("s.toml", []byte("[settings]\nmin_repetitions = 2\nio_dir = \"/scratch\"\n"+
		m+"op = \"File_Write_At\"\nmethod = \"imb\"\nsizes = [1024]\nwindow = 4\n"+
		"[[measurement]]\nname = \"n\"\nop = \"File_Write_Private\"\nmethod = \"imb\"\nsizes = [1024]\nio_dir = \"\"\n"+
		"[[measurement]]\nname = \"bw\"\nop = \"Bandwidth_Isend_Irecv\"\nsizes = [1024]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if a, b := dirSetting(p.Measurements[0].Settings), dirSetting(p.Measurements[1].Settings); a != "/scratch" || b != "" {
		t.Errorf("io_dir %q and %q, want /scratch and \"\"", a, b)
	}
	ex, err := p.Expand(inputs.Job{NProcs: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{4, 1, 64} {
		pt := &ex.Points[i]
		if got := pt.Settings().WindowFor(pt.Op(), pt.Method); got != want {
			t.Errorf("%s [%s]: window %d, want %d", pt.Op().Name, pt.Method, got, want)
		}
	}
	// skampi run File_Write_At --method imb -W 4.
	line := inputs.OneLine{Ops: []string{"File_Write_At"}, Methods: []string{"imb"}}
	if err := line.ApplyOSU(inputs.OSU{Window: "4"}); err != nil {
		t.Fatal(err)
	}
	text, err := line.Suite()
	if err == nil {
		p, err = inputs.ParseOneLine(text)
	}
	if err != nil {
		t.Fatalf("-W 4 with method imb: %v\n%s", err, text)
	}
	if s := p.Measurements[0].Settings; s.WindowFor(p.Measurements[0].Op, "imb") != 4 {
		t.Errorf("-W 4 with method imb: window %d", s.WindowFor(p.Measurements[0].Op, "imb"))
	}
}

// An io_dir whose files' paths the library cannot take is refused where it is written,
// in the suite file (line:col) and through TMPDIR; one that fits is taken.
func TestIODirPathLimit(t *testing.T) {
	saved := ops.IOPathLimit
	t.Cleanup(func() { ops.IOPathLimit = saved })
	ops.IOPathLimit = ops.PathLimit{Bytes: 244, Why: "the test's library takes"}
	fits := "/" + strings.Repeat("d", 244-ioNameBytes-1)
	long := fits + "x"
	suite := func(dir string) []byte {
		return []byte("[settings]\nio_dir = \"" + dir + "\"\n[[measurement]]\nname = \"w\"\nop = \"File_Write_At\"\nsizes = [8]\n")
	}
	if _, err := inputs.Parse("s.toml", suite(fits)); err != nil {
		t.Errorf("%d bytes: %v", len(fits), err)
	}
	_, err := inputs.Parse("s.toml", suite(long))
	if err == nil || !strings.HasPrefix(err.Error(), "s.toml:2:10: ") || !strings.Contains(err.Error(), "the test's library takes") {
		t.Errorf("%d bytes: %v", len(long), err)
	}
	tmp := t.TempDir()
	deep := filepath.Join(tmp, strings.Repeat("e", 244-ioNameBytes-len(tmp)))
	if err := os.Mkdir(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", deep)
	if err := checkDir(""); err == nil || !strings.Contains(err.Error(), "choose a shorter directory") {
		t.Errorf("TMPDIR of %d bytes: %v", len(deep), err)
	}
}

// Every suite in testdata/bad is refused with exactly the text of its .err file.
func TestBadSuites(t *testing.T) { familytest.BadSuites(t) }
