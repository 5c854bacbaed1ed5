package cli

import (
	"github.com/spf13/pflag"

	"github.com/skampi/skampi/inputs"
)

// Given is every flag of fs that was given, as the one-line form reads them back
// (inputs.Flag), in the order pflag visits them.
func Given(fs *pflag.FlagSet) []inputs.Flag {
	var given []inputs.Flag
	fs.Visit(func(fl *pflag.Flag) {
		given = append(given, inputs.Flag{Name: fl.Name, Shorthand: fl.Shorthand, Value: fl.Value.String(),
			Bool: fl.Value.Type() == "bool", NoOptDefVal: fl.NoOptDefVal != ""})
	})
	return given
}
