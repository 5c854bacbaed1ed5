package inputs

import (
	"fmt"
	"slices"
)

// MaxJobProcs bounds the processes of a job a plan is expanded for, and the grids and
// communicators a suite may ask for: every point holds its ranks (a collective's, all of
// them), so a plan's memory grows with both, and products of such counts stay far from
// overflow.
const MaxJobProcs = 1 << 20

// ProcessCounts checks the process counts a flag lists (skampi tune --np, skampi startup
// --np): at least one, each from 1 to most, none twice (it would be measured twice,
// into one place). The error names the flag.
func ProcessCounts(flag string, nps []int, most int) error {
	if len(nps) == 0 {
		return fmt.Errorf("%s: no process count given", flag)
	}
	for i, n := range nps {
		if n < 1 || n > most {
			return fmt.Errorf("%s: %d is not a process count from 1 to %d", flag, n, most)
		}
		if j := slices.Index(nps[:i], n); j >= 0 {
			return fmt.Errorf("%s: %d is listed twice (counts %d and %d)", flag, n, j+1, i+1)
		}
	}
	return nil
}
