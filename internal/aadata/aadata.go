// Package aadata holds recorded runs for the A/A checks of comparisons and tune
// verdicts: 20 runs of bench/aa/aa.toml (a ping-pong, a put, an allreduce and a
// broadcast at 5 sizes, 2 processes), one after the other on one machine with other work
// running, that differ in nothing but when they ran. Only tests use it.
package aadata

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"io"

	"github.com/skampi/skampi/report"
)

//go:embed aa.jsonl.gz
var gz []byte

// Lines is the result file, as skampi wrote it (less each run's env and command).
func Lines() ([]byte, error) {
	z, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(z)
}

// Results is the result file read.
func Results() (*report.Results, error) {
	b, err := Lines()
	if err != nil {
		return nil, err
	}
	return report.Read(bytes.NewReader(b), "aa.jsonl")
}

// RunIDs are the runs' ids, in order.
func RunIDs(res *report.Results) []string {
	var ids []string
	for _, r := range res.Runs {
		ids = append(ids, r.RunID)
	}
	return ids
}

// Runs keeps the records of the given runs; scale multiplies their points' times
// (time_s, and divides bandwidths), to make a side that differs by a known factor.
func Runs(res *report.Results, ids []string, scale float64) *report.Results {
	keep := map[string]bool{}
	for _, id := range ids {
		keep[id] = true
	}
	out := &report.Results{}
	for _, r := range res.Runs {
		if keep[r.RunID] {
			out.Runs = append(out.Runs, r)
		}
	}
	for _, p := range res.Points {
		if keep[p.RunID] {
			p.TimeS *= scale
			if p.BandwidthBps != nil {
				bw := *p.BandwidthBps / scale
				p.BandwidthBps = &bw
			}
			out.Points = append(out.Points, p)
		}
	}
	return out
}
