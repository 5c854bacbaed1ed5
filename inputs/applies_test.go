package inputs

import (
	"strings"
	"testing"
)

// A setting that cannot change what its measurement measures is an error at its key
// (a suite-wide one, a note; the one-line form's flag, an error naming the flag), one
// rule for every setting: the ones below were accepted in silence.
func TestSettingsThatDoNothing(t *testing.T) {
	const m = "[[measurement]]\nname = \"m\"\n"
	cases := []struct{ name, text, want string }{
		{"timer of a call timed alone", m + "op = \"Comm_dup\"\nsizes = [0]\ntimer = \"iteration\"\n",
			"s.toml:5:9: measurement 1: timer: Comm_dup does not use it"},
		{"timer of per-task methods only", m + "op = \"Bcast\"\nsizes = [8]\nmethod = \"ack\"\ntimer = \"iteration\"\n",
			"s.toml:6:9: measurement 1: timer: Bcast does not use it"},
		{"cold cache of a one-sided operation", m + "op = \"Put\"\nsizes = [8]\ncache = \"cold\"\n",
			"s.toml:5:9: measurement 1: cache: Put does not use it"},
		{"refine of Barrier", m + "op = \"Barrier\"\nsizes = [0]\nrefine = true\n",
			"s.toml:5:10: measurement 1: refine: Barrier does not use it: refine applies to measurements of two sizes or more of an operation whose time depends on the size"},
		{"refine of one size", m + "op = \"Pingpong_Send_Recv\"\nsizes = [8]\nrefine = true\n",
			"s.toml:5:10: measurement 1: refine: Pingpong_Send_Recv does not use it: refine applies to measurements of two sizes or more"},
		{"refine of a single element", m + "op = \"Fetch_and_op\"\nsizes = [4]\nrefine = { max_points = 8 }\n",
			"s.toml:5:10: measurement 1: refine: Fetch_and_op does not use it"},
		{"pvars all and a name", "[settings]\npvars = [\"all\", \"unexpected\"]\n" + m + "op = \"Barrier\"\nsizes = [0]\n",
			`s.toml:2:9: settings.pvars: name 1: "all" is every variable the library offers: give "all" alone, or names without it`},
		{"pvars empty", m + "op = \"Barrier\"\nsizes = [0]\npvars = []\n",
			"s.toml:5:9: measurement 1: pvars: the list of names is empty: it reads nothing"},
		{"pvars twice", m + "op = \"Barrier\"\nsizes = [0]\npvars = [\"a\", \"a\"]\n",
			`s.toml:5:9: measurement 1: pvars: name 2: "a" is listed twice (names 1 and 2)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("s.toml", []byte(c.text))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v\nwant %s", err, c.want)
			}
		})
	}
	// Used, the same settings pass: the rule is about use, not values.
	for _, text := range []string{
		m + "op = \"Pingpong_Send_Recv\"\nsizes = [8, 64]\ntimer = \"iteration\"\ncache = \"cold\"\nrefine = true\n",
		m + "op = \"Bcast\"\nsizes = [8]\nmethod = [\"ack\", \"barrier\"]\ntimer = \"iteration\"\n",
		m + "op = \"Barrier\"\nsizes = [0]\npvars = \"all\"\n",
	} {
		if _, err := Parse("s.toml", []byte(text)); err != nil {
			t.Errorf("%s: %v", text, err)
		}
	}
}

// A suite-wide value that every measurement using the setting overrides changes
// nothing: a note in a file, an error for the one-line form's flag.
func TestDefaultsEveryMeasurementOverrides(t *testing.T) {
	text := "[settings]\nwindow = 8\nwarmup = 3\n" +
		"[[measurement]]\nname = \"bw\"\nop = \"Bandwidth_Isend_Irecv\"\nsizes = [8]\nwindow = 16\nwarmup = 1\n" +
		"[[measurement]]\nname = \"pp\"\nop = \"Pingpong_Send_Recv\"\nsizes = [8]\nwarmup = 1\n"
	p := mustParse(t, text)
	want := []string{
		"t.toml:3:10: settings.warmup: each of the 2 measurements that use it sets its own: ignored",
		"t.toml:2:10: settings.window: its one measurement that uses it sets its own: ignored",
	}
	if strings.Join(p.Notes, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes\n%s\nwant\n%s", strings.Join(p.Notes, "\n"), strings.Join(want, "\n"))
	}
	if _, err := ParseOneLine(text); err == nil || !strings.Contains(err.Error(), "--window: its one measurement that uses it sets its own") {
		t.Errorf("one line: %v", err)
	}
	// The hang timeout of [settings] also bounds the job outside its points.
	if p := mustParse(t, "[settings]\nhang_timeout = \"1m\"\nmax_time_per_point = \"20s\"\n[[measurement]]\nname = \"pp\"\nop = \"Pingpong_Send_Recv\"\nsizes = [8]\nhang_timeout = \"30s\"\nmax_time_per_point = \"10s\"\n"); len(p.Notes) != 0 {
		t.Errorf("notes %q", p.Notes)
	}
}

// The one-line form names the flag.
func TestFlagsThatDoNothing(t *testing.T) {
	for _, c := range []struct {
		line OneLine
		want string
	}{
		{OneLine{Ops: []string{"Comm_dup"}, Settings: [][2]string{{"timer", "iteration"}}},
			"skampi run: --timer: Comm_dup does not use it: timer applies to operations timed as a loop of steps"},
		{OneLine{Ops: []string{"Put", "Get"}, Settings: [][2]string{{"cache", "cold"}}},
			"skampi run: --cache: none of Put, Get uses it: cache applies to"},
		{OneLine{Ops: []string{"Barrier"}, Settings: [][2]string{{"refine", "true"}}},
			"skampi run: --refine: Barrier does not use it: refine applies to measurements of two sizes or more"},
		{OneLine{Ops: []string{"Pingpong_Send_Recv"}, Sizes: "8", Settings: [][2]string{{"refine", "true"}}},
			"skampi run: --refine: Pingpong_Send_Recv does not use it"},
		{OneLine{Ops: []string{"Fetch_and_op"}, Settings: [][2]string{{"refine", "true"}}},
			"skampi run: --refine: Fetch_and_op does not use it"},
		{OneLine{Ops: []string{"Barrier"}, Settings: [][2]string{{"pvars", "all,unexpected"}}},
			`skampi run: --pvars: name 1: "all" is every variable the library offers`},
	} {
		text, err := c.line.Suite()
		if err == nil {
			_, err = ParseOneLine(text)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v\nwant %s", c.line, err, c.want)
		}
	}
}

// A tune sweep over a suite setting the suite does not take measures one suite again
// and again: refused at the parameter.
func TestTuneSweepOfAnUnusedSetting(t *testing.T) {
	const bcast = "[[measurement]]\nname = \"b\"\nop = \"Bcast\"\nsizes = [8]\n"
	for _, c := range []struct{ text, want string }{
		{bcast + "[suite_settings]\nwindow = [1, 2]\n",
			"t.toml:6:1: suite_settings.window: every value measures the same: no measurement uses it (window applies to operations with messages in flight"},
		{bcast + "warmup = 1\n[suite_settings]\nwarmup = [1, 2]\n",
			"t.toml:7:1: suite_settings.warmup: every value measures the same: its one measurement that uses it sets its own"},
		{"suite = \"quick\"\n[suite_settings]\nwindow = [8, 64]\n",
			"t.toml:3:1: suite_settings.window: every value measures the same: its one measurement that uses it sets its own"},
	} {
		_, err := ParseTune("t.toml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v\nwant %s", err, c.want)
		}
	}
	// A sweep the suite takes in some combination only (cache_size under cache = "cold").
	if _, err := ParseTune("t.toml", []byte("[[measurement]]\nname = \"p\"\nop = \"Pingpong_Send_Recv\"\nsizes = [8]\n[suite_settings]\ncache = [\"warm\", \"cold\"]\n")); err != nil {
		t.Errorf("cache swept: %v", err)
	}
}
