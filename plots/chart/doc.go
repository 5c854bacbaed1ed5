// Package chart draws charts over gonum/plot: axes with units chosen from the data,
// log scales and their tick labels, lines with error bars, stacked and grouped bars,
// styles, legends, and the title, caption and notes around the plot; and renders them
// as PNG, SVG or PDF. It knows nothing of what the values measure: package plots turns
// result records into the specs it draws.
//
// Values are given in base units (bytes, seconds, bytes per second); a Figure holds
// them as plotted, in the units of its axes, for tests and for tables.
package chart
