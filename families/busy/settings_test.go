package busy

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/internal/familytest"
	"github.com/skampi/skampi/ops"
)

// The settings default to an idle target and the transport's own poll; they are
// listed just before hang_timeout, where the core had them, so a one-line suite's text
// is what it was; poll takes ops' names, which the engine resolves.
func TestSettings(t *testing.T) {
	d := inputs.Defaults()
	if d.Value(settingBusy) != time.Duration(0) || d.Value(settingPoll) != "" {
		t.Errorf("defaults: target_busy %v, poll %q", d.Value(settingBusy), d.Value(settingPoll))
	}
	var keys []string
	for _, st := range inputs.SettingList() {
		keys = append(keys, st.Key)
	}
	if i := slices.Index(keys, settingBusy); i < 0 || i+2 >= len(keys) || keys[i+1] != settingPoll || keys[i+2] != "hang_timeout" {
		t.Errorf("settings %v: target_busy, poll not just before hang_timeout", keys)
	}
	if !slices.Equal([]string{pollIprobe, pollFlush, pollQuiet}, ops.Polls) {
		t.Errorf("polls %v, the engine's %v", []string{pollIprobe, pollFlush, pollQuiet}, ops.Polls)
	}
}

const m = "[[measurement]]\nname = \"m\"\n"

// Where the settings apply, what they mean to the rest of the suite (progress, the
// watchdog's budget, the breakdown) and what they refuse.
func TestSettingsApply(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"poll of an idle target", m + "op = \"Put\"\nmethod = \"lock\"\nsizes = [8]\npoll = \"flush\"\n",
			"s.toml:6:8: measurement 1: poll: Put does not use it: poll applies to busy passive targets that poll (target_busy and progress above 0)"},
		{"poll of a target that never polls", m + "op = \"Put\"\nmethod = \"lock\"\nsizes = [8]\ntarget_busy = \"10us\"\npoll = \"flush\"\n",
			"s.toml:7:8: measurement 1: poll: Put does not use it"},
		{"progress of an idle passive target", m + "op = \"Put\"\nmethod = \"lock\"\nsizes = [8]\nprogress = 100\n",
			"s.toml:6:12: measurement 1: progress: Put does not use it: progress applies to non-blocking MPI operations (Isend, Ibcast, ...), which test their requests while they compute, and busy passive targets (target_busy), which poll"},
		{"a busy target of a blocking operation", m + "op = \"Pingpong_Send_Recv\"\nsizes = [8]\ntarget_busy = \"10us\"\n",
			"s.toml:5:15: measurement 1: target_busy: Pingpong_Send_Recv does not use it"},
		{"a busy target the watchdog would end", "[settings]\nhang_timeout = \"1s\"\nmax_time_per_point = \"400ms\"\n" + m + "op = \"Put\"\nmethod = \"lock\"\nsizes = [8]\ntarget_busy = \"600ms\"\n",
			"s.toml:9:15: measurement 1: target_busy: a step of Put waits target_busy (600ms) without a step finishing on some rank: hang_timeout (1s) must be more than twice that (1.2s)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := inputs.Parse("s.toml", []byte(c.text))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v\nwant %s", err, c.want)
			}
		})
	}
	p, err := inputs.Parse("s.toml", []byte(m+"op = \"Put\"\nmethod = [\"lock\", \"fence\"]\nsizes = [8]\ntarget_busy = \"10us\"\nprogress = 1000\npoll = \"flush\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	me := &p.Measurements[0]
	if busyFor(me) != 10*time.Microsecond || me.Settings.Value(settingPoll) != pollFlush {
		t.Errorf("target_busy %v, poll %v", busyFor(me), me.Settings.Value(settingPoll))
	}
	// The busy target's step is timed whole; fence's target is active.
	if !me.TimedWhole("lock") || me.TimedWhole("fence") {
		t.Errorf("timed whole: lock %v, fence %v", me.TimedWhole("lock"), me.TimedWhole("fence"))
	}
	// A non-blocking operation's busy target's step is not broken down.
	p, err = inputs.Parse("s.toml", []byte(m+"op = \"Rput\"\nmethod = \"lock\"\nsizes = [8]\ntarget_busy = \"10us\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if me := &p.Measurements[0]; !me.TimedWhole("lock") || me.Op.BreaksDown("lock", me.TimedWhole("lock")) {
		t.Error("a busy target's non-blocking step is broken down")
	}
	idle, err := inputs.Parse("s.toml", []byte(m+"op = \"Rput\"\nmethod = \"lock\"\nsizes = [8]\n"))
	if err != nil || idle.Measurements[0].TimedWhole("lock") {
		t.Errorf("an idle target's step is timed whole (%v)", err)
	}
}

func TestBadSuites(t *testing.T) { familytest.BadSuites(t) }
