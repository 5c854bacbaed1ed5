// Package tune runs a tuning sweep and judges it: a tune file's grid (inputs.Tune)
// launched combination by combination, each in its own results directory, resumable
// and interleaved; the library's own parameter lists checked before anything runs
// (Catalog); and a verdict per measurement and size range, with breakpoints and the
// exact lines that apply the winner (Verdict). Run is skampi tune, from the tune file
// to the verdict, report.html and figures; with --collectives, RunCollectives generates
// a tune per collective over every algorithm the library lists, writes the library's
// rules file from the verdicts (collrules) and checks it with an A/B. It runs
// processes only through a Launcher, so tests run sweeps without MPI.
package tune
