package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

// data reads one data line into a point; it returns what is wrong with the line.
func (p *skoParser) data(s string) string {
	var flags []string
	if i := strings.IndexByte(s, '#'); i >= 0 {
		for _, f := range strings.Split(s[i+1:], ",") {
			if f = strings.TrimSpace(f); f != "" {
				flags = append(flags, f)
			}
		}
		s = s[:i]
	}
	fields := strings.Fields(s)
	type variable struct{ name, value string }
	var vars []variable
	for len(fields) > 0 {
		m := skoVar.FindStringSubmatch(fields[0])
		if m == nil {
			break
		}
		v := variable{m[1], m[2]}
		fields = fields[1:]
		if v.value == "" && len(fields) > 0 {
			v.value, fields = fields[0], fields[1:]
		}
		vars = append(vars, v)
	}
	ours := p.ours || len(vars) == 1 && vars[0].name == "count" && len(fields) > 0 && strings.ContainsAny(fields[0], ".eE")
	pt := record.Point{Kind: record.KindPoint, Measurement: p.block.name, Stop: SKOImportStop}
	p.block.withSetup(&pt)
	var extra []string
	nprocs := 0
	if ours {
		if len(vars) != 1 || vars[0].name != "count" {
			return "data line not understood (want count= BYTES TIME STDERR REPS [RANK TIMES]), skipped"
		}
		b, err := strconv.ParseInt(vars[0].value, 10, 64)
		if err != nil || b < 0 {
			return fmt.Sprintf("bad message size %q, line skipped", vars[0].value)
		}
		pt.MsgBytes = b
		fields = append([]string{vars[0].value}, fields...)
	} else {
		for _, v := range vars {
			switch v.name {
			case "nodes", "procs", "processes", "np":
				nprocs, _ = strconv.Atoi(v.value)
			case "count":
			default:
				extra = append(extra, v.name+"="+v.value)
			}
		}
	}
	if len(fields) < 4 {
		return "data line not understood (want [VAR= VALUE...] BYTES TIME STDERR REPS [PROCESS TIMES]), skipped"
	}
	var nums [4]float64
	for i := range nums {
		x, err := strconv.ParseFloat(fields[i], 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Sprintf("data line not understood (%q is not a number), skipped", fields[i])
		}
		nums[i] = x
	}
	if nums[0] < 0 || nums[0] != math.Trunc(nums[0]) || nums[3] < 0 || nums[3] != math.Trunc(nums[3]) || nums[2] < 0 {
		return "negative or fractional size or repetition count, or negative stderr: line skipped"
	}
	pt.MsgBytes, pt.TimeS, pt.StderrS, pt.Reps = int64(nums[0]), nums[1]/1e6, nums[2]/1e6, int(nums[3])
	cols := fields[4:]
	for i, f := range cols {
		if strings.Trim(f, "-") == "" {
			continue // a process that took no part
		}
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Sprintf("process time %q is not a number, line skipped", f)
		}
		pt.RankTimeS = append(pt.RankTimeS, x/1e6)
		if !ours {
			pt.Ranks = append(pt.Ranks, i)
		}
	}
	switch {
	case nprocs > 0:
	case ours && p.nprocs > 0:
		nprocs = p.nprocs
	case len(cols) > 0:
		nprocs = len(cols)
	case len(p.res.Points) > p.block.first: // no process times: as the line before
		nprocs = p.res.Points[len(p.res.Points)-1].NProcs
	default:
		nprocs = p.nprocs // 0: the run's, once known
	}
	pt.NProcs = nprocs
	pt.Op = p.block.op
	if pt.Op == "" {
		pt.Op = p.block.name
	}
	if info, ok := ops.Lookup(pt.Op); ok {
		pt.Family = info.Family
		if info.RoundTrip && pt.Reps > 0 {
			lat := pt.TimeS / 2
			pt.LatencyS = &lat
		}
	}
	pt.Flags = flags
	if pt.Reps == 0 {
		pt.TimeS, pt.StderrS = 0, 0
		pt.AddFlag(record.FlagNoValidReps)
	}
	// Checked as a reader of the file will check it, with what is only known later.
	check := pt
	check.NProcs, check.PointIndex = max(check.NProcs, 1), 1
	if msg := checkPoint(&check, nil); msg != "" {
		return msg + ", line skipped"
	}
	// Its setup's values in their domains, as a JSONL point's (what applies to which
	// operation is left to the program that wrote the file).
	values := check
	values.Op = ""
	if msgs := pointFields(&values, nil, nil); len(msgs) > 0 {
		return strings.Join(msgs, "; ") + ", line skipped"
	}
	p.index++
	pt.PointIndex = p.index
	p.res.Points = append(p.res.Points, pt)
	p.block.extra = append(p.block.extra, strings.Join(extra, " "))
	return ""
}

// closeBlock ends the open block; when its points repeat a size and process count, the
// variables that tell them apart join their measurement names.
func (p *skoParser) closeBlock() {
	p.open = false
	pts := p.res.Points[p.block.first:]
	seen := map[[2]int64]bool{}
	dup := false
	for _, pt := range pts {
		k := [2]int64{pt.MsgBytes, int64(pt.NProcs)}
		dup = dup || seen[k]
		seen[k] = true
	}
	if !dup {
		return
	}
	for i := range pts {
		if x := p.block.extra[i]; x != "" {
			pts[i].Measurement += " " + x
		}
	}
}
