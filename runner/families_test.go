package runner_test

// The runner's tests run every point with its family's hooks, as a run does: the
// families register themselves with this test binary's runner.
import _ "github.com/skampi/skampi/families/all"
