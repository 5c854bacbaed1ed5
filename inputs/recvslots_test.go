package inputs

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func loadText(t *testing.T, text string) (*Plan, error) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "s.toml")
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return Load(f)
}

// to = "max" reaches the buffer with either kind of receive slots; per-message slots
// need buffer * window of memory, checked before anything runs.
func TestRecvSlots(t *testing.T) {
	withMemory(t, 1<<30, true)
	const suite = `[settings]
window = 64
%s
[[measurement]]
name = "bw"
op = "Bandwidth_Isend_Irecv"
sizes = { from = "1MiB", to = "max", step = "*2" }
`
	for _, c := range []struct {
		setting string
		slots   int
		want    string
	}{
		{`buffer = "4MiB"`, 1, RecvSlotsShared},
		{`recv_slots = "shared"`, 1, RecvSlotsShared},
		{`recv_slots = "per-message"`, 64, RecvSlotsPerMessage},
	} {
		p, err := loadText(t, fmt.Sprintf(suite, c.setting))
		if err != nil {
			t.Fatalf("%q: %v", c.setting, err)
		}
		m := p.Measurements[0]
		if !slices.Equal(m.Sizes, []int64{1 << 20, 2 << 20, 4 << 20}) {
			t.Errorf("%q: sizes %v, want up to the buffer", c.setting, m.Sizes)
		}
		if m.Settings.RecvSlots != c.want || m.Settings.Slots(m.Op) != c.slots {
			t.Errorf("%q: recv_slots %q, %d slots", c.setting, m.Settings.RecvSlots, m.Settings.Slots(m.Op))
		}
		if need := m.Op.BufferBytes(4<<20, m.Settings.Slots(m.Op), 1); need != int64(c.slots)*4<<20 {
			t.Errorf("%q: receive buffer %d", c.setting, need)
		}
	}
	// 64 slots of 16 MiB and the send buffer: 1040 MiB, more than 1 GiB.
	_, err := loadText(t, fmt.Sprintf(suite, `recv_slots = "per-message"`+"\n"+`buffer = "16MiB"`))
	if err == nil {
		t.Fatal("per-message slots beyond memory accepted")
	}
	t.Log(err)
	// Shared slots need one message: 16 MiB is fine.
	if _, err := loadText(t, fmt.Sprintf(suite, `buffer = "16MiB"`)); err != nil {
		t.Fatal(err)
	}
	// Ping-pongs have no window: per-message changes nothing.
	p, err := loadText(t, `[settings]
recv_slots = "per-message"
[[measurement]]
name = "pp"
op = "Pingpong_Send_Recv"
sizes = [1]
`)
	if err != nil {
		t.Fatal(err)
	}
	if m := p.Measurements[0]; m.Settings.Slots(m.Op) != 1 {
		t.Errorf("ping-pong slots %d", m.Settings.Slots(m.Op))
	}
}
