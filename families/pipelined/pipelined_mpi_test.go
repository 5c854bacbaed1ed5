//go:build mpi

package pipelined

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/skampi/skampi/report"
)

// The built binary (SKAMPI_BIN, else built here) measures the pipelined broadcast
// with every received byte checked, at segments smaller than, equal to and larger
// than the message, a root other than 0, int elements, and 2 and 3 processes; every
// point is measured (no fault) and records the segment it was measured with.
func TestMeasured(t *testing.T) {
	bin := os.Getenv("SKAMPI_BIN")
	if bin == "" {
		bin = filepath.Join(t.TempDir(), "skampi")
		if out, err := exec.Command("go", "build", "-tags", "mpi", "-o", bin, "../../cmd/skampi").CombinedOutput(); err != nil {
			t.Fatalf("building skampi: %v\n%s", err, out)
		}
	}
	for _, seg := range []string{"1KiB", "12KiB", "1MiB"} {
		dir := filepath.Join(t.TempDir(), "out")
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		cmd := exec.CommandContext(ctx, "mpirun", "--oversubscribe", "-np", "3", bin, "run", "Bcast_Pipelined_Chain",
			"--sizes", "0,4,12KiB,100KiB", "--datatype", "int", "--root", "1", "--procs", "2,all", "--check-data",
			"--pipeline-segment", seg, "--max-time-per-point", "2s", "-o", dir)
		cmd.Env = append(os.Environ(), "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("segment %s: %v\n%s", seg, err, out)
		}
		f, err := os.Open(filepath.Join(dir, "results.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		res, err := report.Read(f, "results.jsonl")
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range res.Errors() {
			t.Errorf("segment %s: result file: %s", seg, p)
		}
		for _, fl := range res.Faults {
			t.Errorf("segment %s: fault %s at %d B, %d procs: %s", seg, fl.Fault, fl.MsgBytes, fl.NProcs, fl.Detail)
		}
		if len(res.Points) != 8 {
			t.Errorf("segment %s: %d points, want 4 sizes at 2 process counts", seg, len(res.Points))
		}
		bytes, _ := strconv.ParseInt(map[string]string{"1KiB": "1024", "12KiB": "12288", "1MiB": "1048576"}[seg], 10, 64)
		for _, p := range res.Points {
			if got := p.FamilySettings[setting]; got != strconv.FormatInt(bytes, 10) {
				t.Errorf("segment %s: %d B point records %s = %q", seg, p.MsgBytes, setting, got)
			}
			if !(p.TimeS > 0) {
				t.Errorf("segment %s: %d B point's time %g", seg, p.MsgBytes, p.TimeS)
			}
		}
	}
}
