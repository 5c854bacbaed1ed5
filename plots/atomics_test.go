package plots

import (
	"slices"
	"testing"
)

// An atomic measured alone and less an empty quiet makes two figures, never one bar of
// each mixed: the second names only the kinds that have that method.
func TestAtomicsFigurePerMethod(t *testing.T) {
	res := load(t, "shmem-np2.jsonl")
	for _, p := range res.Points {
		if p.Op == "Shmem_Atomic_Set_Int" {
			q := p
			q.Method, q.TimeS = "quiet_subtracted", p.TimeS/2
			res.Points = append(res.Points, q)
			break
		}
	}
	figs := figuresOf(t, res, "atomics", Options{})
	names := map[string][]string{}
	for _, f := range figs {
		names[f.Name] = f.Notes
	}
	if len(figs) != 2 || !slices.Equal(names["atomics-np2"], []string{"not measured (no bar): Compare_Swap Int, Compare_Swap Long"}) ||
		!slices.Equal(names["atomics-quiet_subtracted-np2"], []string{"not measured (no bar): Inc Int, Add Int, And Int, Or Int, Xor Int"}) {
		t.Errorf("figures and notes %q", names)
	}
}
