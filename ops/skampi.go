package ops

import "sort"

// Coverage says whether skampi measures what a SKaMPI 6 measurement function measures.
type Coverage int

const (
	// Measured: an operation (and method and setting) measures the same thing.
	Measured Coverage = iota
	// NotYet: skampi should measure it and does not yet; Why says what is missing.
	NotYet
	// NotMeasured: skampi leaves it out on purpose; Why says why.
	NotMeasured
)

func (c Coverage) String() string {
	return [...]string{"measured", "not yet", "not measured"}[c]
}

// SkampiFunc maps one SKaMPI 6 measurement function (MPI and OpenSHMEM, MPI-IO aside)
// to the skampi operation that measures the same thing, or to the reason there is none.
type SkampiFunc struct {
	Name     string // SKaMPI's name
	Coverage Coverage
	Op       string // the operation (Measured)
	Method   string // its timing method, when it matters
	Setting  string // the suite setting that makes it, when one does
	// Note says where skampi measures it differently (Measured) or why it is not
	// there (NotYet, NotMeasured).
	Note string
}

// SkampiFuncs returns the coverage table, sorted by SKaMPI name.
func SkampiFuncs() []SkampiFunc {
	// The OpenSHMEM part reads the catalogue, so it is made here, at first use: in
	// package initialisation it would make the catalogue before the families outside
	// this package had registered their operations.
	out := append(append([]SkampiFunc(nil), skampiTable...), skampiShmemTable()...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// SkampiCounts counts the table's entries by coverage.
func SkampiCounts(t []SkampiFunc) (measured, notYet, notMeasured int) {
	for _, f := range t {
		switch f.Coverage {
		case Measured:
			measured++
		case NotYet:
			notYet++
		default:
			notMeasured++
		}
	}
	return
}

// What is the operation column: the operation with its method and setting, or the
// coverage when there is none.
func (f SkampiFunc) What() string {
	if f.Coverage != Measured {
		return f.Coverage.String()
	}
	s := f.Op
	if f.Method != "" {
		s += " [" + f.Method + "]"
	}
	if f.Setting != "" {
		s += ", " + f.Setting
	}
	return s
}

func meas(name, op, method, setting, note string) SkampiFunc {
	return SkampiFunc{Name: name, Coverage: Measured, Op: op, Method: method, Setting: setting, Note: note}
}

func notYet(name, why string) SkampiFunc {
	return SkampiFunc{Name: name, Coverage: NotYet, Note: why}
}

func notMeasured(name, why string) SkampiFunc {
	return SkampiFunc{Name: name, Coverage: NotMeasured, Note: why}
}
