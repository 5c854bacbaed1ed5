// Package aadata holds recorded runs for the A/A checks of comparisons and tune
// verdicts: runs of bench/aa/aa.toml (a ping-pong, a put, an allreduce and a broadcast
// at 5 sizes, 2 processes), one after the other on one machine, that differ in nothing
// but when they ran. Results: 20 runs with other work running (a run's level moves by
// 30 %); Quiet: 24 runs with nothing else running (29 November 2026, the 2-core
// development machine, Open MPI 4.1.4). Only tests use it.
package aadata

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"io"
	"slices"
	"time"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

//go:embed aa.jsonl.gz
var gz []byte

//go:embed aa-quiet.jsonl.gz
var quietGz []byte

// Lines is the result file, as skampi wrote it (less each run's env and command).
func Lines() ([]byte, error) { return unzip(gz) }

func unzip(b []byte) ([]byte, error) {
	z, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(z)
}

// Results is the result file of the loaded machine read.
func Results() (*report.Results, error) { return read(gz, "aa.jsonl") }

// Quiet is the result file of the quiet machine read.
func Quiet() (*report.Results, error) { return read(quietGz, "aa-quiet.jsonl") }

func read(z []byte, name string) (*report.Results, error) {
	b, err := unzip(z)
	if err != nil {
		return nil, err
	}
	return report.Read(bytes.NewReader(b), name)
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

// Nightly keeps the given runs as Runs does and dates them one a night from start, in
// the order of ids: the recording's runs followed each other within minutes, a history
// spans weeks.
func Nightly(res *report.Results, ids []string, start time.Time) *report.Results {
	out := Runs(res, ids, 1)
	for i := range out.Runs {
		r := &out.Runs[i]
		r.StartTime = start.AddDate(0, 0, slices.Index(ids, r.RunID))
	}
	return out
}

// Scale multiplies op's times in the given runs by f (a change to find).
func Scale(res *report.Results, ids []string, op string, f float64) {
	for i := range res.Points {
		if p := &res.Points[i]; p.Op == op && slices.Contains(ids, p.RunID) {
			p.TimeS *= f
			if p.BandwidthBps != nil {
				bw := *p.BandwidthBps / f
				p.BandwidthBps = &bw
			}
		}
	}
}

// Fault replaces op's points in run id whose sizes are in sizes (all sizes when none)
// by fault records of the kind given: a run in which those points hung or crashed.
func Fault(res *report.Results, id, op, kind string, sizes ...int64) {
	var kept []record.Point
	for _, p := range res.Points {
		if p.RunID != id || p.Op != op || len(sizes) > 0 && !slices.Contains(sizes, p.MsgBytes) {
			kept = append(kept, p)
			continue
		}
		res.Faults = append(res.Faults, record.Fault{Kind: record.KindFault, RunID: p.RunID, PointIndex: p.PointIndex,
			Measurement: p.Measurement, MeasurementIndex: p.MeasurementIndex, Op: p.Op, Method: p.Method,
			MsgBytes: p.MsgBytes, NProcs: p.NProcs, Ranks: p.Ranks, Fault: kind, Detail: "no progress for 60 s"})
	}
	res.Points = kept
}
