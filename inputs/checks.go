package inputs

import (
	"fmt"
	"strings"
)

// Checks across settings: a pair that disagrees is reported at whichever of the two
// was written later, so the message points at the line the author last touched.

// maxPlanPoints bounds the points of a suite: sizes, methods and process counts
// multiply, and a run of more would not end this year anyway.
const maxPlanPoints = 1_000_000

// checkPlanSize reports the measurement at which the plan passes maxPlanPoints.
func checkPlanSize(el *ErrorList, ms []Measurement) {
	total := 0
	for _, m := range ms {
		total += len(m.Sizes) * max(1, len(m.Methods)) * len(m.ProcsList())
		if total > maxPlanPoints {
			el.add(m.Pos, "measurement %q takes the suite past %d points (sizes x methods x procs): split it into several suites",
				m.Name, maxPlanPoints)
			return
		}
	}
}

// checkReps reports min_repetitions > max_repetitions where the later of the two was set.
func (d *decoder) checkReps(s Settings, origin map[string]string) {
	if s.MinReps <= s.MaxReps {
		return
	}
	d.errAt(d.later(origin, "min_repetitions", "max_repetitions"),
		"min_repetitions (%d) is larger than max_repetitions (%d)", s.MinReps, s.MaxReps)
}

// later is the path of whichever of the settings was written last in the file (the
// one to point at when they disagree); "" when none was written.
func (d *decoder) later(origin map[string]string, keys ...string) string {
	path := ""
	for _, k := range keys {
		if p := origin[k]; path == "" || (p != "" && d.ix.at(path).less(d.ix.at(p))) {
			path = p
		}
	}
	return path
}

// setIn reports whether any of the settings was set inside the table at prefix ("" for
// anywhere): a measurement re-checks only the pairs it changed.
func setIn(origin map[string]string, prefix string, keys ...string) bool {
	for _, k := range keys {
		if p, ok := origin[k]; ok && (prefix == "" || strings.HasPrefix(p, prefix+".")) {
			return true
		}
	}
	return false
}

// checkHang reports a hang_timeout that would end points still measuring: it must be
// longer than max_time_per_point, which the stop rule keeps every point within.
func (d *decoder) checkHang(s Settings, origin map[string]string, prefix string) {
	if s.HangTimeout == 0 || s.HangTimeout > s.MaxTime || !setIn(origin, prefix, "hang_timeout", "max_time_per_point") {
		return
	}
	d.errAt(d.later(origin, "hang_timeout", "max_time_per_point"),
		"hang_timeout (%v) must be longer than max_time_per_point (%v): a point still measuring would be ended as hung",
		s.HangTimeout, s.MaxTime)
}

// checkReduction reports a reduction MPI does not define: the bitwise operators on
// floating-point data (MPI-4.0 5.9.2), which the library would reject mid-run.
func (d *decoder) checkReduction(m Measurement, origin map[string]string, prefix string) {
	dt := m.Settings.DatatypeFor(m.Op)
	if !m.Op.Combines || !bitwise(m.Settings.ReduceOp) || (dt != "float" && dt != "double") {
		return
	}
	path := d.later(origin, "datatype", "reduce_op")
	if path == "" {
		path = prefix + ".op"
	}
	d.errAt(path, "%s: reduce_op %q is not defined on %s data in MPI (bitwise operators take integers: byte, char, int, long)",
		m.Op.Name, m.Settings.ReduceOp, dt)
}

// checkDatatype reports datatypes MPI does not define an operation on, which the
// library would reject mid-run: arithmetic reductions on MPI_BYTE (MPI-4.0 5.9.2:
// bytes take the bitwise operators only), compare-and-swap on floating point (it
// takes integers and bytes).
func (d *decoder) checkDatatype(m Measurement, origin map[string]string, prefix string) {
	dt := m.Settings.DatatypeFor(m.Op)
	path := d.later(origin, "datatype", "reduce_op")
	if path == "" {
		path = prefix + ".op"
	}
	switch {
	case m.Op.IntegerOnly && (dt == "float" || dt == "double"):
		d.errAt(path, "%s compares bits: MPI defines it on integers and bytes, not on %s data", m.Op.Name, dt)
	case m.Op.Combines && dt == "byte" && !bitwise(m.Settings.ReduceOp):
		d.errAt(path, "%s: reduce_op %q is not defined on byte data in MPI (bytes take band, bor, bxor; use int or long)",
			m.Op.Name, m.Settings.ReduceOp)
	}
}

func bitwise(op string) bool { return op == "band" || op == "bor" || op == "bxor" }

// checkSingleElement reports sizes the operation cannot move: other than one element
// for operations on one element (MPI_Fetch_and_op, shmem_long_p, SHMEM atomics), not a
// whole number of elements for typed ones (shmem_put64): the library would move
// something else than the record said.
func (d *decoder) checkSingleElement(m Measurement, path string) {
	want := m.Op.ElementBytes
	what := fmt.Sprintf("%d-byte elements", want)
	if want == 0 {
		want = m.Settings.TypeSize(m.Op)
		what = fmt.Sprintf("datatype %q", m.Settings.DatatypeFor(m.Op))
	}
	for _, n := range m.Sizes {
		switch {
		case m.Op.SingleElement && n != want:
			d.errAt(path+".sizes", "%s moves one element: every size must be %d bytes (%s), got %d", m.Op.Name, want, what, n)
			return
		case !m.Op.SingleElement && m.Op.ElementBytes > 0 && n%want != 0:
			d.errAt(path+".sizes", "%s moves %s: every size must be a multiple of %d bytes, got %d", m.Op.Name, what, want, n)
			return
		}
	}
}

// checkMinProcs reports communicator sizes, written in the measurement, too small for
// its operation to measure anything (one process holding a lock nobody waits for;
// procs of [settings] are left out where too small, with a note, by Expand).
func (d *decoder) checkMinProcs(m Measurement, path string, t map[string]any) {
	if _, ok := t["procs"]; !ok || m.Op.MinProcs == 0 {
		return
	}
	for _, n := range m.Settings.Procs {
		if n != 0 && n < m.Op.MinProcs {
			d.errAt(path+".procs", "%s needs at least %d processes (%s): procs = %d measures nothing",
				m.Op.Name, m.Op.MinProcs, m.Op.MinProcsWhy, n)
			return
		}
	}
}
