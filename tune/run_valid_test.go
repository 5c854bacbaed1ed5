package tune

import "testing"

// skampi tune needs a tune file and a directory; --np's counts are each in range, once.
func TestRunOptionsValid(t *testing.T) {
	for _, c := range []struct {
		o  RunOptions
		ok bool
	}{{RunOptions{File: "t", Dir: "d"}, true}, {RunOptions{File: "t", Dir: "d", NP: []int{2, 4}}, true},
		{RunOptions{File: "t"}, false}, {RunOptions{Dir: "d"}, false}, {RunOptions{File: "t", Dir: "d", NP: []int{2, 2}}, false}} {
		if err := c.o.Valid(); (err == nil) != c.ok {
			t.Errorf("%+v: %v", c.o, err)
		}
	}
}
