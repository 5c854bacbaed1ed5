package tune

import (
	"errors"

	"github.com/skampi/skampi/inputs"
)

// Valid says what in the options is a mistake of the command line before Run reads
// anything: no tune file or directory, process counts out of range or listed twice.
func (o RunOptions) Valid() error {
	if o.File == "" && o.Collectives == nil || o.Dir == "" {
		return errors.New("-i TUNE and -o DIR are required (--collectives LIST instead of -i: the collective sweep)")
	}
	if o.SegmentSizes != nil && o.Collectives == nil {
		return errors.New("--segment-sizes: only with --collectives")
	}
	if o.NP != nil {
		return inputs.ProcessCounts("--np", o.NP, inputs.MaxTuneNP)
	}
	return nil
}
