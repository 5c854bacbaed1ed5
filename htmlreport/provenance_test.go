package htmlreport

import (
	"bytes"
	"strings"
	"testing"
)

// The machine a run was on and every rank's binding are in its provenance table;
// a header without them (older files) shows no empty rows.
func TestProvenanceMachineAndBinding(t *testing.T) {
	res := load(t, "../report/testdata/pingpong.jsonl")
	var buf bytes.Buffer
	if err := Write(&buf, Input{Results: res}); err != nil {
		t.Fatal(err)
	}
	for _, absent := range []string{">binding<", ">machine<", ">transport<"} {
		if strings.Contains(buf.String(), absent) {
			t.Errorf("a header without the fields shows %s", absent)
		}
	}
	r := &res.Runs[0]
	r.RankCPUs, r.CPUModel, r.Kernel = []string{"0", "1"}, "AMD EPYC 7763", "6.1.0-13-amd64 #1 SMP"
	r.UCXVersion, r.LibfabricVersion = "1.13.1", "1.17.0"
	buf.Reset()
	if err := Write(&buf, Input{Results: res}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"rank 0: 0, rank 1: 1", "AMD EPYC 7763; kernel 6.1.0-13-amd64 #1 SMP", "UCX 1.13.1, libfabric 1.17.0"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("page lacks %q", want)
		}
	}
}
