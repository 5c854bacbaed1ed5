package tune

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
)

const withControl = `description = "two eager limits, a control"
repeats = 5
controls = ["Shmem_Sendrecv_Shift"]
[[measurement]]
name = "Sendrecv_Shift"
op = "Sendrecv_Shift"
sizes = [8, 64]
[[measurement]]
name = "Shmem_Sendrecv_Shift"
op = "Sendrecv_Shift"
sizes = [8, 64]
[mca]
btl_vader_eager_limit = [4096, 8192]
`

// sweepFake writes every launch's results as a sweep would, the second setting scaled
// by scaleOf per measurement.
func sweepFake(t *testing.T, tu *inputs.Tune, scaleOf func(string) float64) []Result {
	t.Helper()
	dir := t.TempDir()
	for _, l := range tu.Schedule() {
		sc := func(string) float64 { return 1 }
		if l.Values[0].Value == "8192" {
			sc = scaleOf
		}
		fakeRunBy(t, filepath.Join(dir, l.Dir()), fmt.Sprintf("%s-%d", l.Name, l.Repeat), sc, []float64{1, 1.02, 0.99, 1.01, 0.98}[l.Repeat-1])
	}
	res, err := Load(tu, dir)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A setting that speeds up the control as much as what it tunes is not recommended:
// the gauge flags the control, and the verdict says the difference is noise. When the
// control stays put, the same gain is recommended.
func TestNoiseGaugeFlagsTheControl(t *testing.T) {
	tu, err := inputs.ParseTune("control.toml", []byte(withControl))
	if err != nil {
		t.Fatal(err)
	}
	if len(tu.Controls) != 1 || tu.Controls[0] != "Shmem_Sendrecv_Shift" {
		t.Fatalf("controls %v", tu.Controls)
	}
	both := sweepFake(t, tu, func(string) float64 { return 0.5 })
	v, err := Judge(tu, both)
	if err != nil {
		t.Fatal(err)
	}
	g := v.Groups[0]
	if g.Recommendation.Label != "" || !strings.Contains(g.Recommendation.Why, "does not beat the noise") {
		t.Errorf("the control moved as much: recommendation %+v", g.Recommendation)
	}
	if len(g.Noise.Shifts) != 1 || !g.Noise.Shifts[0].Flagged() {
		t.Errorf("gauge %+v", g.Noise)
	}
	var text bytes.Buffer
	v.Write(&text)
	for _, want := range []string{"noise gauge:", "FLAGGED", "[control: the sweep cannot affect it]"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("verdict lacks %q:\n%s", want, text.String())
		}
	}
	only := sweepFake(t, tu, func(m string) float64 {
		if m == "Shmem_Sendrecv_Shift" {
			return 1
		}
		return 0.5
	})
	if v, err = Judge(tu, only); err != nil {
		t.Fatal(err)
	}
	if g := v.Groups[0]; g.Recommendation.Label != "btl_vader_eager_limit=8192" || g.Noise.Shifts[0].Flagged() {
		t.Errorf("the control stayed: recommendation %+v, gauge %+v", g.Recommendation, g.Noise)
	}
	for _, bad := range []string{`controls = ["nope"]`, `controls = ["Sendrecv_Shift", "Shmem_Sendrecv_Shift"]`, `controls = "Sendrecv_Shift"`} {
		src := strings.Replace(withControl, `controls = ["Shmem_Sendrecv_Shift"]`, bad, 1)
		if _, err := inputs.ParseTune("bad.toml", []byte(src)); err == nil || !strings.Contains(err.Error(), "bad.toml:3:") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}
