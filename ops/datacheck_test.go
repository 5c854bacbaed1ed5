package ops

import "testing"

// check_data reaches a one-sided payload where the method checks an order or the
// operation takes a layout (the layout family then narrows it to strided payloads), and
// nowhere else.
func TestDataCheckReaches(t *testing.T) {
	put := Info{Name: "p", Layouts: true, Methods: []Method{{Name: "lock"}}}
	bcast := Info{Name: "b", Methods: []Method{{Name: "ack", OrderChecked: true}, {Name: "plain"}}}
	for _, c := range []struct {
		in     Info
		method string
		want   bool
	}{
		{put, "lock", true},
		{bcast, "ack", true},
		{bcast, "plain", false},
		{Info{Name: "g"}, "", false},
	} {
		if got := c.in.DataCheckReaches(c.method); got != c.want {
			t.Errorf("%s [%s]: %v, want %v", c.in.Name, c.method, got, c.want)
		}
	}
}
