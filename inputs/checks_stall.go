package inputs

import (
	"fmt"
	"strings"
	"time"
)

// The watchdog judges a rank by its steps: one that finishes none for hang_timeout is
// taken for blocked. Settings that make a step wait on purpose (a late partner, a busy
// target, a held lock, a computing halo step) lengthen the time between two steps; a
// rank that waits for a partner's step, or an idle one (it moves once a repetition),
// waits longer still. Where that nears hang_timeout, a point that progresses would be
// recorded as hung, so such a suite is refused before anything starts.

// stepWaitOf: how long each setting that makes a step wait on purpose makes a step
// of a measurement wait: the families' (FamilySetting.StepWait).
var stepWaitOf = map[string]func(m *Measurement) time.Duration{}

// stepWaits are the waits in one step of m's points, by setting (in the settings'
// order), and their sum.
func stepWaits(m Measurement) (names []string, parts []time.Duration, total time.Duration) {
	for _, st := range settingList {
		if wait, ok := stepWaitOf[st.name]; ok {
			if d := wait(&m); d > 0 {
				names, parts, total = append(names, st.name), append(parts, d), total+d
			}
		}
	}
	return
}

// checkStall reports a measurement whose steps wait so long that the watchdog would end
// its points: hang_timeout must be more than twice the longest stretch without a step,
// half of it the margin for ranks scheduled late and the watchdog's polling.
func (d *decoder) checkStall(m Measurement, origin map[string]string, prefix string) {
	names, parts, step := stepWaits(m)
	if step == 0 {
		return
	}
	stall, per := step, "a step"
	if it := m.Settings.Iterations; it > 1 {
		// A rank outside the point's ranks moves once a repetition.
		stall, per = step*time.Duration(it), fmt.Sprintf("a repetition of iterations = %d steps", it)
	}
	if 2*stall < m.Settings.Hang() {
		return
	}
	keys := append(append([]string{}, names...), "hang_timeout", "max_time_per_point", "iterations")
	path := d.later(origin, keys...)
	if path == "" {
		path = prefix + ".op"
	}
	var sum []string
	for i, n := range names {
		sum = append(sum, fmt.Sprintf("%s (%v)", n, parts[i]))
	}
	waits := strings.Join(sum, " + ")
	if len(sum) > 1 || stall != step {
		waits += fmt.Sprintf(" = %v", stall)
	}
	d.errAt(path, "%s of %s waits %s without a step finishing on some rank: hang_timeout (%v) must be more than twice that (%v), or the watchdog ends points that progress as hung; raise hang_timeout or lower the waits",
		per, m.Op.Name, waits, m.Settings.Hang(), 2*stall)
}
