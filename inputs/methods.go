package inputs

import (
	"strconv"

	"github.com/skampi/skampi/ops"
)

// methods reads `method`: one timing method or a list, each offered by the op.
func (d *decoder) methods(path string, v any, op ops.Info) []string {
	var names []string
	switch x := v.(type) {
	case string:
		names = []string{x}
	case []any:
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				d.errAt(path+"."+strconv.Itoa(i), "must be a string, got %s", typeName(e))
				return nil
			}
			names = append(names, s)
		}
	default:
		d.errAt(path, `must be a method or a list of methods such as ["barrier", "rounds"], got %s`, typeName(v))
		return nil
	}
	if len(op.Methods) == 0 {
		d.errAt(path, "%s has no timing methods to choose from", op.Name)
		return nil
	}
	seen := map[string]bool{}
	for _, n := range names {
		if _, ok := op.Method(n); !ok {
			if now, retired := op.RetiredMethods[n]; retired {
				d.errAt(path, "%s has no method %q any more: it is now called %s", op.Name, n, now)
				return nil
			}
			d.errAt(path, "%q is not a timing method of %s (%s)", n, op.Name, quoteList(op.MethodNames()))
			return nil
		}
		if seen[n] {
			d.errAt(path, "%q is listed twice", n)
			return nil
		}
		seen[n] = true
	}
	if len(names) == 0 {
		d.errAt(path, "the list of methods is empty")
	}
	return names
}
