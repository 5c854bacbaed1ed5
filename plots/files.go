package plots

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/skampi/skampi/report"
)

// FilesOptions are skampi plot's: the result sources read, where the figures go and
// in which formats; the input and output are injected.
type FilesOptions struct {
	Sources []report.Source
	Stdin   func() (io.Reader, error) // the reader of a "-" source
	Dir     string
	Formats []string // parsed (ParseFormats)
	Errors  ErrorBars
	// Stdout gets one line per file written; Stderr the input's problems and a
	// warning per figure left out.
	Stdout, Stderr io.Writer
}

// WriteFiles is skampi plot: every figure the results allow, written to Dir as
// NAME.FORMAT. A figure its data cannot make is left out with a warning; it is an
// error when none could be drawn. A figure that cannot be written (the disk, the
// directory's permissions) costs that file alone: the others are written, each failure
// is one line on Stderr, and the error at the end counts them.
func WriteFiles(o FilesOptions) error {
	res, labels, each, err := report.LoadLabelled(o.Sources, o.Stdin, o.Stderr)
	if err != nil {
		return err
	}
	figs, skipped, err := Draw(res, Options{Errors: o.Errors, Labels: labels, Sides: report.Sides(o.Sources, each)})
	if err != nil {
		return err
	}
	if len(figs) == 0 && len(skipped) == 0 {
		return fmt.Errorf("no figure to draw: %d point(s) in %d run(s), and no figure kind applies to them", len(res.Points), len(res.Runs))
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return err
	}
	for _, s := range skipped {
		WarnNotDrawn(o.Stderr, s)
	}
	written, failed := 0, 0
	for _, f := range figs {
		for _, format := range o.Formats {
			paths, err := f.Save(o.Dir, []string{format})
			var de *DrawError
			if errors.As(err, &de) {
				skipped = append(skipped, Skipped{Figure: de.Figure + "." + de.Format, Reason: de.Err.Error()})
				WarnNotDrawn(o.Stderr, skipped[len(skipped)-1])
				continue
			}
			for _, p := range paths {
				fmt.Fprintln(o.Stdout, p)
			}
			written += len(paths)
			if err != nil {
				failed++
				fmt.Fprintln(o.Stderr, report.Printable(fmt.Sprintf("skampi: error: %s.%s not written: %v", f.Name, format, err)))
			}
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d figure file(s) could not be written (the lines above say why), %d written", failed, written)
	}
	if written == 0 {
		return fmt.Errorf("no figure could be drawn: %d skipped (the warnings above say why)", len(skipped))
	}
	return nil
}

// WarnNotDrawn says in one line that a figure was left out, and why; the others are
// drawn (see the exit status in README).
func WarnNotDrawn(w io.Writer, s Skipped) {
	fmt.Fprintln(w, report.Printable("skampi: warning: "+s.Figure+" not drawn: "+s.Reason))
}
