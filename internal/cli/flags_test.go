package cli

import (
	"slices"
	"testing"

	"github.com/spf13/pflag"

	"github.com/skampi/skampi/inputs"
)

// The flags given come back as data, in pflag's order, and read back as typed.
func TestGiven(t *testing.T) {
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	fs.BoolP("validation", "c", false, "")
	fs.StringP("message-size", "m", "", "")
	fs.String("check-data", "", "")
	fs.Lookup("check-data").NoOptDefVal = "true"
	fs.String("unused", "", "")
	if err := fs.Parse([]string{"-c", "-m", "8", "--check-data"}); err != nil {
		t.Fatal(err)
	}
	given := Given(fs)
	if len(given) != 3 || given[0] != (inputs.Flag{Name: "check-data", Value: "true", NoOptDefVal: true}) {
		t.Fatalf("%+v", given)
	}
	if got := inputs.CommandWords(nil, given, ""); !slices.Equal(got, []string{"skampi", "run", "--check-data=true", "-m", "8", "-c"}) {
		t.Errorf("%q", got)
	}
}
