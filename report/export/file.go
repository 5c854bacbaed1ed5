package export

import (
	"bytes"
	"io"

	"github.com/skampi/skampi/report"
)

// FileOptions are skampi export's: the result sources, the input of a "-" source, the
// format and the file to write ("" or "-": Stdout); the input's problems go to Stderr.
type FileOptions struct {
	Sources        []report.Source
	Stdin          io.Reader
	Format         string // one of Formats
	Out            string
	Stdout, Stderr io.Writer
}

// WriteFile is skampi export: the sources merged by run, in Format, written whole to
// Out (nothing is written if the export fails). A CSV row says its source's label.
func WriteFile(o FileOptions) error {
	res, labels, err := report.LoadWithLabels(o.Sources, o.Stdin)
	if err != nil {
		return err
	}
	report.PrintProblems(o.Stderr, res.Problems, report.MaxProblemLines)
	var buf bytes.Buffer
	if err := ExportLabelled(&buf, res, o.Format, labels); err != nil {
		return err
	}
	if o.Out == "" || o.Out == "-" {
		_, err := o.Stdout.Write(buf.Bytes())
		return err
	}
	return report.WriteFile(o.Out, func(w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	})
}
