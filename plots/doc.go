// Package plots draws figures from result records. It never links MPI, so figures can
// be made on a laptop from a result file copied off a cluster.
//
// A figure kind (Kind) says which groups of records it applies to and builds one
// Figure per group; Figures runs every kind on a set of results. A Figure holds the
// gonum plot, the data it plots (in the units of its axes, for tests and for tables)
// and renders itself as PNG, SVG or PDF. NewLineFigure is the shared builder for
// line figures (units, log axes, error bars); new kinds use it.
package plots
