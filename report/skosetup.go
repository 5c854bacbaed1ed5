package report

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/skampi/skampi/record"
)

// setup reads a block's "# setup" line (NewSKO's): the measurement's own name, then
// its method and settings as name=value, the names of record.Setup.Fields, every one. Blocks of
// one measurement (one per method) share its name and index again. What is not
// understood is left out: the block still reads as one of its own.
func (p *skoParser) setup(s string) {
	pt := &record.Point{}
	rest, ok := strings.CutPrefix(s, "measurement=")
	if !ok {
		return
	}
	q, err := strconv.QuotedPrefix(rest)
	if err != nil {
		return
	}
	pt.Measurement, _ = strconv.Unquote(q)
	for _, kv := range strings.Fields(rest[len(q):]) {
		name, v, _ := strings.Cut(kv, "=")
		switch name {
		case "method":
			pt.Method = v
		case "timer":
			pt.Timer = v
		case "sync":
			pt.Sync = v
		case "window":
			pt.Window, _ = strconv.Atoi(v)
		case "recv_slots":
			pt.RecvSlots = v
		case "cache":
			pt.Cache = v
		case "rma_window":
			pt.RMAWindow = v
		case "hold_s":
			if h, err := strconv.ParseFloat(v, 64); err == nil {
				pt.HoldS = &h
			}
		case "delay_s":
			if d, err := strconv.ParseFloat(v, 64); err == nil {
				pt.DelayS = &d
			}
		case "ratio":
			pt.Ratio, _ = strconv.Atoi(v)
		case "halo_compute_s":
			if d, err := strconv.ParseFloat(v, 64); err == nil {
				pt.HaloComputeS = &d
			}
		case "data_layout":
			pt.DataLayout = v
		case "stride":
			pt.Stride, _ = strconv.Atoi(v)
		case "type_commit":
			pt.TypeCommit = v
		case "target_busy_s":
			if d, err := strconv.ParseFloat(v, 64); err == nil {
				pt.TargetBusyS = &d
			}
		case "poll":
			pt.Poll = v
		case "poll_every":
			if n, err := strconv.ParseInt(v, 10, 64); err == nil {
				pt.PollEvery = &n
			}
		case "topology":
			pt.Topology = v
		case "partitions":
			pt.Partitions, _ = strconv.Atoi(v)
		case "threads":
			pt.Threads, _ = strconv.Atoi(v)
		case "thread_comm":
			pt.ThreadComm = v
		case "thread_pinning":
			pt.ThreadPinning = v
		case "progress_every":
			// A point holds it in its breakdown: given to the breakdown lines.
			p.block.progressEvery, _ = strconv.ParseInt(v, 10, 64)
		default:
			// A family's setting (record.Point.FamilySettings): every name beyond
			// those above.
			if name != "" && v != "" {
				pt.SetFamilySetting(name, v)
			}
		}
	}
	if p.measIndex == nil {
		p.measIndex = map[string]int{}
	}
	if i, ok := p.measIndex[pt.Measurement]; ok {
		p.block.index = i
	} else {
		p.measIndex[pt.Measurement] = p.block.index
	}
	p.block.setup = pt
}

// withSetup gives a point of the block what its setup line says.
func (b *skoBlock) withSetup(pt *record.Point) {
	pt.MeasurementIndex = b.index
	s := b.setup
	if s == nil {
		return
	}
	pt.Measurement, pt.Method, pt.Timer, pt.Sync, pt.Window = s.Measurement, s.Method, s.Timer, s.Sync, s.Window
	pt.RecvSlots, pt.Cache, pt.RMAWindow, pt.HoldS, pt.DelayS = s.RecvSlots, s.Cache, s.RMAWindow, s.HoldS, s.DelayS
	pt.Ratio = s.Ratio
	pt.HaloComputeS = s.HaloComputeS
	pt.DataLayout, pt.Stride, pt.TypeCommit = s.DataLayout, s.Stride, s.TypeCommit
	pt.TargetBusyS, pt.Poll, pt.PollEvery = s.TargetBusyS, s.Poll, s.PollEvery
	pt.Topology, pt.Partitions = s.Topology, s.Partitions
	pt.Threads, pt.ThreadComm, pt.ThreadPinning = s.Threads, s.ThreadComm, s.ThreadPinning
	pt.FamilySettings = s.FamilySettings
}

// breakdown reads the "# breakdown {JSON}" line NewSKO writes after a non-blocking
// point: the point's record.Breakdown, the block's progress_every where the JSON has
// none. It belongs to the data line just read, whose time is its full_s as printed
// (and becomes it, unrounded); it returns what is wrong with the line.
func (p *skoParser) breakdown(s string) string {
	if p.bdFor < 0 {
		return "breakdown line after no point, skipped"
	}
	pt := &p.res.Points[p.bdFor]
	p.bdFor = -1
	b := &record.Breakdown{ProgressEvery: p.block.progressEvery}
	if err := json.Unmarshal([]byte(s), b); err != nil {
		return fmt.Sprintf("breakdown line not understood (%v), skipped", err)
	}
	if math.Abs(b.FullS-pt.TimeS) > 0.0005e-6*1.01 {
		return fmt.Sprintf("breakdown full_s %g is not the point's time %g, skipped", b.FullS, pt.TimeS)
	}
	pt.Breakdown, pt.TimeS = b, b.FullS
	return ""
}
