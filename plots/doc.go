// Package plots draws figures from result records. It never links MPI, so figures can
// be made on a laptop from a result file copied off a cluster.
package plots
