package report

import (
	"strconv"
	"strings"

	"github.com/skampi/skampi/record"
)

// setup reads a block's "# setup" line (NewSKO's): the measurement's own name, then
// its method and settings as name=value, the names of record.Setup.Fields. Blocks of
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
	pt.RecvSlots, pt.Cache, pt.RMAWindow, pt.HoldS = s.RecvSlots, s.Cache, s.RMAWindow, s.HoldS
}
