package report

import (
	"encoding/csv"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/skampi/skampi/record"
)

// CSVHeader names the columns of results.csv; units are in the names.
var CSVHeader = []string{
	"run_id", "point_index", "measurement", "op", "msg_bytes", "nprocs", "ranks", "timer", "sync",
	"window", "iterations", "time_s", "mean_s", "median_s", "min_s", "p10_s", "p90_s", "max_s",
	"stderr_s", "latency_s", "bandwidth_Bps", "reps", "discarded", "stop", "flags",
	// Non-blocking breakdowns (empty for other operations), after the columns files
	// written before them had.
	"post_s", "wait_s", "overlapped_s", "compute_s", "overlap_ratio", "overlap_ratio_stderr", "progress_every",
	// The rest of a point's setup (record.Setup): with op, msg_bytes, nprocs, timer, sync,
	// window and progress_every above, every field that tells two points apart.
	"method", "recv_slots", "cache", "rma_window", "hold_s", "delay_s", "ratio", "halo_compute_s", "data_layout", "stride", "type_commit",
	// A busy passive target, after the columns files written before it had.
	"target_busy_s", "poll", "poll_every", "topology", "partitions",
	// The point's run, so that rows of many runs (nightly, or sides exported together)
	// can be ordered and told apart: its start, MPI library and hosts (";"-separated),
	// and the label of the source it was exported from (empty in a run's own file).
	"start_time", "mpi_library", "hosts", "label",
}

// HasCSVHeader tells whether line, the first line of a results.csv, is CSVHeader: rows
// are only appended under the columns they were written for.
func HasCSVHeader(line string) bool {
	row, err := csv.NewReader(strings.NewReader(line)).Read()
	return err == nil && slices.Equal(row, CSVHeader)
}

// CSV writes one row per point, flushed as it is written.
type CSV struct {
	w      *csv.Writer
	header bool
	runs   map[string]runColumns // by run id, from the run headers given to Run
	// Labels names each run id's source (LoadWithLabels) for the label column.
	Labels map[string]string
}

// runColumns are the run's columns of its points' rows.
type runColumns struct{ start, library, hosts string }

// NewCSV writes the header row first when header is set (false when appending to a
// file that has one).
func NewCSV(w io.Writer, header bool) *CSV {
	return &CSV{w: csv.NewWriter(w), header: header, runs: map[string]runColumns{}}
}

// Run keeps the run's columns for its points and starts the file: the header row,
// when this CSV writes one.
func (c *CSV) Run(r *record.Run) error {
	rc := runColumns{library: r.MPILibrary, hosts: strings.Join(r.Hosts, ";")}
	if !r.StartTime.IsZero() {
		rc.start = r.StartTime.UTC().Format(time.RFC3339Nano)
	}
	c.runs[r.RunID] = rc
	if !c.header {
		return nil
	}
	c.header = false
	c.w.Write(CSVHeader)
	c.w.Flush()
	return c.w.Error()
}

func (c *CSV) Point(p *record.Point) error {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	opt := func(x *float64) string {
		if x == nil {
			return ""
		}
		return f(*x)
	}
	optInt := func(n int) string {
		if n == 0 {
			return ""
		}
		return strconv.Itoa(n)
	}
	ranks := make([]string, len(p.Ranks))
	for i, r := range p.Ranks {
		ranks[i] = strconv.Itoa(r)
	}
	bd := make([]string, 7)
	if b := p.Breakdown; b != nil {
		bd = []string{f(b.PostS), f(b.WaitS), f(b.OverlappedS), f(b.ComputeS), f(b.OverlapRatio), f(b.OverlapRatioStderr),
			strconv.FormatInt(b.ProgressEvery, 10)}
	}
	row := append([]string{
		p.RunID, strconv.Itoa(p.PointIndex), p.Measurement, p.Op, strconv.FormatInt(p.MsgBytes, 10),
		strconv.Itoa(p.NProcs), strings.Join(ranks, ";"), p.Timer, p.Sync, strconv.Itoa(p.Window),
		strconv.Itoa(p.Iterations), f(p.TimeS), f(p.MeanS), f(p.MedianS), f(p.MinS), f(p.P10S),
		f(p.P90S), f(p.MaxS), f(p.StderrS), opt(p.LatencyS), opt(p.BandwidthBps),
		strconv.Itoa(p.Reps), strconv.Itoa(p.Discarded), p.Stop, strings.Join(p.Flags, ";"),
	}, bd...)
	ratio := ""
	if p.Ratio != 0 {
		ratio = strconv.Itoa(p.Ratio)
	}
	row = append(row, p.Method, p.RecvSlots, p.Cache, p.RMAWindow, opt(p.HoldS), opt(p.DelayS), ratio, opt(p.HaloComputeS),
		p.DataLayout, optInt(p.Stride), p.TypeCommit, opt(p.TargetBusyS), p.Poll, "")
	if p.PollEvery != nil {
		row[len(row)-1] = strconv.FormatInt(*p.PollEvery, 10)
	}
	rc := c.runs[p.RunID]
	row = append(row, p.Topology, optInt(p.Partitions), rc.start, rc.library, rc.hosts, c.Labels[p.RunID])
	c.w.Write(row)
	c.w.Flush()
	return c.w.Error()
}

// Fault writes nothing: the CSV holds measured points only; faults are in the JSONL.
func (c *CSV) Fault(*record.Fault) error { return nil }

func (c *CSV) Close() error { c.w.Flush(); return c.w.Error() }
