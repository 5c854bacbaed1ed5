package inputs

import "testing"

// skampi check needs a suite and a job some machine could have.
func TestCheckOptionsValid(t *testing.T) {
	for _, c := range []struct {
		o  CheckOptions
		ok bool
	}{{CheckOptions{Suite: "quick", NP: 2}, true}, {CheckOptions{NP: 2}, false},
		{CheckOptions{Suite: "quick", NP: 0}, false}, {CheckOptions{Suite: "quick", NP: MaxJobProcs + 1}, false}} {
		if err := c.o.Valid(); (err == nil) != c.ok {
			t.Errorf("%+v: %v", c.o, err)
		}
	}
}
