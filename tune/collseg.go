package tune

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/tune/collrules"
)

// DefaultSegmentSizes are the segment sizes --collectives sweeps beside every forced
// Open MPI algorithm of a collective that takes one (coll_tuned_<coll>_algorithm_segmentsize):
// 0, no segmentation (what a forced algorithm does without one), and 4, 16 and 64 KiB.
// The library's own decision runs once, with the first: it picks its own segments.
var DefaultSegmentSizes = []int64{0, 4 << 10, 16 << 10, 64 << 10}

// segRepeats are the repeats of a sweep with segment sizes: its grid is several times
// larger, and with 5 launches a side the U test's smallest p no longer passes the
// correction for a change at a few sizes (a fake library's 2x win at 3 of 10 sizes, one
// segment size of one algorithm, was found with 8 and missed with 5).
const segRepeats = 8

// collRepeats are a collective sweep's repeats.
func collRepeats(segs []string) int {
	if len(segs) > 0 {
		return segRepeats
	}
	return DefaultRepeats
}

// segParam is the MCA parameter of coll's forced algorithms' segment size.
func segParam(coll string) string { return "coll_tuned_" + coll + "_algorithm_segmentsize" }

// segValues are the segment sizes to sweep for coll's algorithms: none where the library
// or the collective takes none (MPICH; Open MPI's barrier), or where only 0 is asked.
func (o RunOptions) segValues(lib collrules.Library, algs []collrules.Algorithm) []string {
	segs := o.SegmentSizes
	if segs == nil {
		segs = DefaultSegmentSizes
	}
	if lib != collrules.OpenMPI || len(algs) == 0 || !algs[0].Segmented || len(segs) == 1 && segs[0] == 0 {
		return nil
	}
	out := make([]string, len(segs))
	for i, s := range segs {
		out[i] = strconv.FormatInt(s, 10)
	}
	return out
}

// withSegments adds the segment sizes to a collective's generated tune: a parameter of
// its own, and a grid that runs the library's decision (algorithm "0") with the first
// size only, every forced algorithm with each.
func withSegments(text *strings.Builder, coll string, segs []string) {
	if len(segs) > 0 {
		fmt.Fprintf(text, "%s = %s\n", segParam(coll), tomlStrings(segs))
	}
}

func keepSegments(t *inputs.Tune, coll string, segs []string) {
	if len(segs) == 0 {
		return
	}
	alg, seg := "coll_tuned_"+coll+"_algorithm", segParam(coll)
	t.Keep = func(vs []inputs.ParamValue) bool {
		var a, s string
		for _, v := range vs {
			switch v.Param.Name {
			case alg:
				a = v.Value
			case seg:
				s = v.Value
			}
		}
		return a != "0" || s == segs[0]
	}
}

// segSizeOf is the segment size a combination forced (0: none).
func segSizeOf(c inputs.Combination, coll string) int64 {
	for _, v := range c.Values {
		if v.Param.Name == segParam(coll) {
			n, _ := strconv.ParseInt(v.Value, 10, 64)
			return n
		}
	}
	return 0
}

// segWords says the segment sizes swept, for the sweep's first line.
func segWords(segs []string) string {
	if len(segs) == 0 {
		return ""
	}
	return ", each at segment sizes " + strings.Join(segs, ", ") + " B"
}

// maxSegment bounds --segment-sizes: a segment larger than the largest size swept
// (1 MiB) is no segmentation.
const maxSegment = 1 << 30

// ParseSegmentSizes reads --segment-sizes (nil when not given: DefaultSegmentSizes).
func ParseSegmentSizes(words []string) ([]int64, error) {
	if words == nil {
		return nil, nil
	}
	var out []int64
	for _, w := range words {
		n, err := inputs.ParseSize(w)
		if err != nil || n < 0 || n > maxSegment {
			return nil, fmt.Errorf("%q: a size from 0 to 1GiB (0: no segmentation)", w)
		}
		if slices.Contains(out, n) {
			return nil, fmt.Errorf("%q given twice", w)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, errors.New("no size given")
	}
	return out, nil
}
