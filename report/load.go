package report

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// MaxProblemLines is how many problems of the input a verb that reads on prints.
const MaxProblemLines = 10

// LoadLabelled is LoadAll that also names each run by the label of the source it came
// from (the label's base name: "results/a" names runs "a"; with the run id when the
// file holds several runs), and returns each source's own results too (read once:
// stdin cannot be read twice), in the order of sources. Runs read from unlabelled
// stdin keep their ids. stdin gives the reader of a "-" source, when there is one;
// the input's problems are printed to problems.
func LoadLabelled(sources []Source, stdin func() (io.Reader, error), problems io.Writer) (all *Results, labels map[string]string, each []*Results, err error) {
	all = &Results{}
	labels = map[string]string{}
	for _, s := range sources {
		var in io.Reader
		if s.Name == "-" {
			if in, err = stdin(); err != nil {
				return nil, nil, nil, err
			}
		}
		res, err := s.Load(in)
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				return nil, nil, nil, fmt.Errorf("cannot read %s: %w", s.Name, pe.Err)
			}
			return nil, nil, nil, err
		}
		each = append(each, res)
		for _, r := range res.Runs {
			if _, ok := labels[r.RunID]; ok || s.Name == "-" && s.Label == "stdin" {
				continue
			}
			labels[r.RunID] = filepath.Base(s.Label)
			if len(res.Runs) > 1 {
				labels[r.RunID] += ":" + r.RunID[:min(8, len(r.RunID))]
			}
		}
		all.Merge(res)
	}
	PrintProblems(problems, all.Problems, MaxProblemLines)
	return all, labels, each, nil
}

// Sides names each run by the label of the first source holding it (its base name),
// without the run id LoadLabelled adds: the runs of one source, and of sources given
// one label ("before=a before=b"), are samples of one side of a comparison. each is
// LoadLabelled's, in the order of sources.
func Sides(sources []Source, each []*Results) map[string]string {
	sides := map[string]string{}
	for i, res := range each {
		for _, r := range res.Runs {
			if _, ok := sides[r.RunID]; !ok && i < len(sources) {
				sides[r.RunID] = filepath.Base(sources[i].Label)
			}
		}
	}
	return sides
}
