package record

import (
	"strconv"
	"strings"
)

// Key identifies a point across runs of a suite: resume, crash blame and comparisons
// use it. Ranks is the participating world ranks in canonical form ("0,1"; see
// RanksKey); it is empty when they are not known, which matches any ranks: a fault
// written before faults carried their ranks, or a pair chosen only at run time
// (pair = "max-latency").
type Key struct {
	Measurement string
	Op          string
	Method      string
	MsgBytes    int64
	NProcs      int
	Ranks       string
}

// RanksKey is the canonical text of a rank list in a Key.
func RanksKey(ranks []int) string {
	var b strings.Builder
	for i, r := range ranks {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(r))
	}
	return b.String()
}

func (p *Point) Key() Key {
	return Key{p.Measurement, p.Op, p.Method, p.MsgBytes, p.NProcs, RanksKey(p.Ranks)}
}

func (f *Fault) Key() Key {
	return Key{f.Measurement, f.Op, f.Method, f.MsgBytes, f.NProcs, RanksKey(f.Ranks)}
}

// WithoutRanks is the key with its ranks left out: comparisons match points of
// different runs by measurement, op, method, size and process count.
func (k Key) WithoutRanks() Key {
	k.Ranks = ""
	return k
}

// KeySet is a set of keys where an empty Ranks matches any ranks (see Key).
type KeySet struct {
	exact map[Key]bool
	any   map[Key]bool // every key with its ranks blanked
	loose map[Key]bool // keys added without ranks, ranks blanked
}

// Add puts k in the set.
func (s *KeySet) Add(k Key) {
	if s.exact == nil {
		s.exact, s.any, s.loose = map[Key]bool{}, map[Key]bool{}, map[Key]bool{}
	}
	s.exact[k] = true
	bare := k.WithoutRanks()
	s.any[bare] = true
	if k.Ranks == "" {
		s.loose[bare] = true
	}
}

// Has reports whether k, or a key that matches it, is in the set.
func (s *KeySet) Has(k Key) bool {
	if s.exact == nil {
		return false
	}
	bare := k.WithoutRanks()
	if k.Ranks == "" {
		return s.any[bare]
	}
	return s.exact[k] || s.loose[bare]
}
