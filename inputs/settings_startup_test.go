package inputs

import (
	"strings"
	"testing"
	"time"
)

// Start-up is bounded by startup_timeout, or by at least a minute: a short hang_timeout
// (for the points) must not end a job still in MPI_Init on a loaded machine.
func TestStartupTimeout(t *testing.T) {
	for _, c := range []struct {
		settings string
		want     time.Duration
	}{
		{`max_time_per_point = "1s"` + "\n" + `hang_timeout = "1.5s"`, time.Minute},
		{`max_time_per_point = "1m"`, 2*time.Minute + 5*time.Second},
		{`max_time_per_point = "1s"` + "\n" + `hang_timeout = "1.5s"` + "\n" + `startup_timeout = "3s"`, 3 * time.Second},
	} {
		p, err := Parse("s.toml", []byte("[settings]\n"+c.settings+"\n[[measurement]]\nname = \"pp\"\nop = \"Pingpong_Send_Recv\"\nsizes = [8]\n"))
		if err != nil {
			t.Fatalf("%s: %v", c.settings, err)
		}
		if got := p.Settings.Startup(); got != c.want {
			t.Errorf("%s: Startup() = %v, want %v", c.settings, got, c.want)
		}
	}
	for text, want := range map[string]string{
		"[settings]\nstartup_timeout = \"0s\"\n[[measurement]]\n": "s.toml:2:19: settings.startup_timeout: duration \"0s\" must be positive",
		"[[measurement]]\nstartup_timeout = \"5s\"\n":             "s.toml:2:19: measurement 1: startup_timeout: belongs in [settings]",
	} {
		_, err := Parse("s.toml", []byte(text+"name = \"pp\"\nop = \"Pingpong_Send_Recv\"\nsizes = [8]\n"))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}
