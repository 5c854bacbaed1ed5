package job

import (
	"fmt"
	"strings"

	"github.com/skampi/skampi/inputs"
)

// needsMultiple names the first operation of the plan that needs MPI_THREAD_MULTIPLE
// (a multi-threaded one), "" when none does.
func needsMultiple(plan *inputs.Plan) string {
	for _, m := range plan.Measurements {
		if m.Op.NeedsThreadMultiple() {
			return m.Op.Name
		}
	}
	return ""
}

// threadLevelFor is the thread level a run of plan initialises MPI at: the one asked
// (--thread-level; "" or "default": MPI_Init), except that a plan with a
// multi-threaded operation takes "multiple" when nothing else was asked, and is
// refused, before anything runs, when a lower level was.
func threadLevelFor(plan *inputs.Plan, asked string) (string, error) {
	op := needsMultiple(plan)
	switch {
	case op == "":
		return asked, nil
	case asked == "" || asked == "default" || asked == "multiple":
		return "multiple", nil
	case asked != "single" && asked != "funneled" && asked != "serialized":
		return asked, nil // not a level at all: said by the check of the flag
	}
	return "", fmt.Errorf("%s needs MPI_THREAD_MULTIPLE (its threads call MPI at once), but --thread-level %s asks for less: leave --thread-level at its default (a suite with multi-threaded operations then initialises with MPI_THREAD_MULTIPLE) or give multiple", op, asked)
}

// checkProvided refuses a run of plan, after MPI_Init_thread, when the library
// provides less than a multi-threaded operation needs.
func checkProvided(plan *inputs.Plan, requested, provided string) error {
	op := needsMultiple(plan)
	if op == "" || provided == "multiple" {
		return nil
	}
	return fmt.Errorf("%s needs MPI_THREAD_MULTIPLE: thread level requested %s, provided %s by this MPI library; nothing was measured", op, requested, provided)
}

// selftestProvided is a self-test of the refusal, like selftestStall: with
// SKAMPI_SELFTEST_THREAD_PROVIDED=LEVEL in the environment, the ranks take LEVEL for the
// level the library provided, as a library without MPI_THREAD_MULTIPLE would report.
func selftestProvided(env []string, provided string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "SKAMPI_SELFTEST_THREAD_PROVIDED="); ok && v != "" {
			return v
		}
	}
	return provided
}
