//go:build mpi && shmem

package main

import (
	"strings"
	"testing"
)

// A one-liner of an OpenSHMEM put reads as osu_oshm_put: its table is the put and
// quiet's time, the breakdown behind --breakdown; the record has the breakdown
// either way.
func TestShmemPutOneLinerLatency(t *testing.T) {
	for _, c := range []struct {
		args       []string
		want, nots string
	}{
		{[]string{"run", "Shmem_Put", "-W", "1", "--sizes", "8,1KiB", "--max-repetitions", "20"}, "time [us]", "full [us]"},
		{[]string{"run", "Shmem_Put", "-W", "1", "--sizes", "8,1KiB", "--max-repetitions", "20", "--breakdown"}, "full [us]", "time [us]"},
		{[]string{"run", "osu_oshm_put", "--sizes", "8", "--max-repetitions", "20"}, "time [us]", "full [us]"},
	} {
		out := t.TempDir()
		code, stdout, stderr := skampi(t, nil, append(c.args, "-o", out)...)
		if code != 0 || !strings.Contains(stdout, c.want) || strings.Contains(stdout, c.nots) {
			t.Errorf("%v: exit %d\n%s\n%s", c.args, code, stdout, stderr)
			continue
		}
		for _, p := range readResults(t, out).Points {
			if p.Breakdown == nil && !strings.Contains(strings.Join(p.Flags, ","), "breakdown_missing") {
				t.Errorf("%v: %d B: no breakdown in the record", c.args, p.MsgBytes)
			}
		}
	}
}
