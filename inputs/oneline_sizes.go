package inputs

import (
	"github.com/skampi/skampi/ops"
)

// An operation's sizes when --sizes is not given: OSU's 1 B to 4 MiB by powers of two,
// from one element for typed data (a reduction's int, a SHMEM put64's long), one element
// only for single-element operations, 0 for what moves no data (a barrier, a lock);
// and only as far as the job can take: the buffer (nprocs blocks for per-process
// collectives), memory, OpenSHMEM's symmetric heap. So the plainest line runs.

// defaultTop is where default sizes end when everything fits.
const defaultTop = 4 << 20

// settings are the line's settings as a suite would read them; values in error are
// left at their defaults (ParseOneLine says what is wrong with them).
func (o OneLine) settings() Settings {
	s := Defaults()
	var text []byte
	for _, kv := range o.Settings {
		text = append(text, kv[0]+" = "+settingValue(kv[0], kv[1])+"\n"...)
	}
	doc, d, _ := readDoc(SourceName, text)
	for _, k := range sortedKeys(doc) {
		d.applySetting(&s, map[string]string{}, k, k, doc[k])
	}
	return s
}

func (o OneLine) np() int {
	if o.NP > 0 {
		return o.NP
	}
	return 2
}

func (o OneLine) defaultSizes(op string, s Settings) string {
	in, ok := ops.Lookup(op)
	if !ok {
		return "1B:4MiB"
	}
	if in.NoData {
		return "0"
	}
	elem := in.ElementBytes
	if elem == 0 {
		elem = s.TypeSize(in)
	}
	// A byte per part of a message sent in parts at least (partitions): powers of two
	// from there divide.
	elem = max(elem, s.familyGrain(in))
	if in.SingleElement {
		return FormatSize(elem)
	}
	top := int64(defaultTop)
	for top > elem && !fits(in, s, elem, top, o.np()) {
		top /= 2
	}
	if top <= elem {
		return FormatSize(elem)
	}
	return FormatSize(elem) + ":" + FormatSize(top)
}

// fits says whether sizes from..to by powers of two pass every check a suite's
// sizes get, on a job of np processes on this machine: the one measurement is
// planned as Parse and Expand would.
func fits(in ops.Info, s Settings, from, to int64, np int) bool {
	// As far as the buffer holds (nprocs blocks for a per-process collective): a line's
	// default sizes are all measured, none left out at the cap.
	s.BufferSet = true
	if to > s.Buffer || (s.Slots(in) > 1 && fitsRecvSlots(to, s.Slots(in)) != nil) {
		return false
	}
	step, _ := ParseStep("*2")
	sizes, err := Expand(from, to, step)
	if err != nil {
		return false
	}
	p := &Plan{Source: SourceName, Measurements: []Measurement{{Name: in.Name, Op: in, Sizes: sizes, Settings: s}}}
	_, err = p.Expand(Job{NProcs: np})
	return err == nil
}
