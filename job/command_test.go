package job

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
)

// skampi run without a command: --print-suite shows the suite the line makes, with the
// line as its first comment; -i N with operations is OSU's count; mistakes are exit 2.
func TestRunCommandPrintsTheSuite(t *testing.T) {
	var out, errs bytes.Buffer
	c := Command{Options: Options{Suite: "1000", NP: 2, Stdout: &out, Stderr: &errs}, Ops: []string{"Pingpong_Send_Recv"},
		Line: inputs.LineFlags{Print: true, Sizes: "8,1KiB"},
		Given: []inputs.Flag{{Name: "input", Shorthand: "i", Value: "1000"}, {Name: "sizes", Value: "8,1KiB"},
			{Name: "print-suite", Value: "true", Bool: true, NoOptDefVal: true}}}
	if err := RunCommand(c); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if !strings.HasPrefix(text, "# skampi run Pingpong_Send_Recv -i 1000 --sizes 8,1KiB\n") || !strings.Contains(text, "iterations = 1000") {
		t.Errorf("suite:\n%s", text)
	}
	for _, c := range []Command{
		{Options: Options{Suite: "quick", Stdout: &out}, Ops: []string{"Bcast"}},
		{Options: Options{Stdout: &out}},
		{Options: Options{Stdout: &out}, Ops: []string{"Bcast"}, Given: []inputs.Flag{{Name: "accel", Value: "cuda"}}},
	} {
		var ee *ExitError
		if err := RunCommand(c); !errors.As(err, &ee) || ee.Code != 2 {
			t.Errorf("%+v: %v", c, err)
		}
	}
}
