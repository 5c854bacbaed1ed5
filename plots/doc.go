// Package plots draws figures from result records. It never links MPI, so figures can
// be made on a laptop from a result file copied off a cluster.
//
// A figure kind (Kind) says which groups of records it applies to and builds one
// Figure per group; Figures runs every kind on a set of results. The drawing is
// package chart's: a kind turns its records into a chart spec (lines with error bars,
// stacked or grouped bars) in base units, and a Figure is the chart drawn from it (the
// data as plotted, for tests and for tables) with a name to be saved under as PNG,
// SVG or PDF.
package plots
