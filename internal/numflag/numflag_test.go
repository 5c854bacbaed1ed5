package numflag

import (
	"math"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

// A share is read as a percentage or a fraction below 1, as it was written.
func TestParsePercent(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
	}{{"5%", 0.05}, {"0.05", 0.05}, {" 12.5 % ", 0.125}, {"0", 0}, {"999%", 9.99}} {
		if got, err := parsePercent(c.in); err != nil || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("parsePercent(%q) = %g, %v; want %g", c.in, got, err, c.want)
		}
	}
}

// Each value refuses what lies outside its domain and keeps its default then.
func TestDomains(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	var (
		f     float64
		n     int
		ns    []int
		d     time.Duration
		share float64
		set   bool
	)
	Float(fs, &f, "alpha", 0.05, 0, 1, true, true, "")
	Int(fs, &n, "np", 2, 1, 1024, "")
	Ints(fs, &ns, "nps", []int{2}, 1, 1024, "")
	Duration(fs, &d, "timeout", time.Minute, 0, time.Hour, true, "")
	Percent(fs, &share, &set, "fail-above", "")
	for _, bad := range [][2]string{{"alpha", "NaN"}, {"alpha", "1"}, {"np", "0"}, {"np", "2.5"}, {"nps", "2,0"},
		{"timeout", "0s"}, {"timeout", "2h"}, {"fail-above", "5"}, {"fail-above", "1000%"}} {
		if err := fs.Set(bad[0], bad[1]); err == nil {
			t.Errorf("--%s %s accepted", bad[0], bad[1])
		}
	}
	if f != 0.05 || n != 2 || len(ns) != 1 || d != time.Minute || set {
		t.Errorf("a refused value changed the flag: %g %d %v %v %v", f, n, ns, d, set)
	}
	for _, good := range [][2]string{{"alpha", "0.01"}, {"np", "1024"}, {"nps", "4"}, {"nps", "8"}, {"timeout", "1h"}, {"fail-above", "5%"}} {
		if err := fs.Set(good[0], good[1]); err != nil {
			t.Errorf("--%s %s: %v", good[0], good[1], err)
		}
	}
	if f != 0.01 || n != 1024 || len(ns) != 2 || ns[0] != 4 || ns[1] != 8 || d != time.Hour || !set || share != 0.05 {
		t.Errorf("taken as %g %d %v %v %v %g", f, n, ns, d, set, share)
	}
}
