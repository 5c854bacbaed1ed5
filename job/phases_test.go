package job

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// A phase that hangs before the results are open (MPI_Init stalled by a stopped rank)
// is recorded all the same: a header, then the timeout fault, a file every reader reads.
func TestStartUpFaultIsRecorded(t *testing.T) {
	dir := t.TempDir()
	plan, err := inputs.Parse("s.toml", []byte("[settings]\nmax_time_per_point = \"1s\"\nhang_timeout = \"3s\"\n[[measurement]]\nname = \"pp\"\nop = \"Pingpong_Send_Recv\"\nsizes = [1]\n"))
	if err != nil {
		t.Fatal(err)
	}
	p := newPhases(plan, Options{Out: dir, Version: "test", Stderr: &bytes.Buffer{}}, 0)
	f := &record.Fault{Kind: record.KindFault, RunID: p.runID, Measurement: "(start-up: MPI_Init)",
		Fault: record.FaultTimeout, ElapsedS: 3, Detail: "no progress"}
	if err := p.record(f); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	res, err := report.Read(in, "results.jsonl")
	if err != nil || len(res.Problems) != 0 {
		t.Fatalf("%v %v", err, res.Problems)
	}
	if len(res.Runs) != 1 || res.Runs[0].RunID != p.runID || res.Runs[0].SuiteSHA256 != plan.SHA256 ||
		len(res.Faults) != 1 || res.Faults[0].Measurement != "(start-up: MPI_Init)" {
		t.Errorf("runs %+v faults %+v", res.Runs, res.Faults)
	}
	// Later (finalize, after the results were closed): the header is there, only the
	// fault is added.
	p.header.Store(true)
	before, _ := os.ReadFile(filepath.Join(dir, "results.jsonl"))
	f2 := *f
	f2.Measurement = "(finalize)"
	if err := p.record(&f2); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "results.jsonl"))
	if added := string(after[len(before):]); !bytes.HasPrefix(after, before) || bytes.Count([]byte(added), []byte("\n")) != 1 ||
		!bytes.Contains([]byte(added), []byte(`"measurement":"(finalize)"`)) {
		t.Errorf("added %q", added)
	}
	if p.hang.Seconds() != 3 {
		t.Errorf("phases are bounded by the suite's hang_timeout: %v", p.hang)
	}
}

// A signal that ends rank 0 while the job settles (its results open, the header not
// yet written) leaves a file that reads: a header of its own, then the interrupted
// phase. Once the header is written, the fault follows it through the sink, once.
func TestSignalBeforeHeader(t *testing.T) {
	plan, err := inputs.Parse("s.toml", []byte("[[measurement]]\nname = \"pp\"\nop = \"Pingpong_Send_Recv\"\nsizes = [1]\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, written := range []bool{false, true} {
		dir := t.TempDir()
		p := newPhases(plan, Options{Out: dir, Version: "test", Stderr: &bytes.Buffer{}}, 0)
		sink, files, err := openSinks(dir, &bytes.Buffer{}, &bytes.Buffer{}, report.TableOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if written {
			if err := p.writeHeader(sink, startHeader(plan, p.runID, "test", 2)); err != nil {
				t.Fatal(err)
			}
		}
		f := &record.Fault{Kind: record.KindFault, RunID: p.runID, Measurement: "(start-up: settling)",
			Fault: record.FaultInterrupted, Detail: "interrupted by SIGTERM"}
		if err := p.finish(sink, f); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			f.Close()
		}
		in, err := os.Open(filepath.Join(dir, "results.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		res, err := report.Read(in, "results.jsonl")
		in.Close()
		if err != nil || len(res.Problems) != 0 {
			t.Fatalf("header written %v: %v %v", written, err, res.Problems)
		}
		if len(res.Runs) != 1 || len(res.Faults) != 1 || res.Faults[0].RunID != res.Runs[0].RunID {
			t.Errorf("header written %v: runs %+v faults %+v", written, res.Runs, res.Faults)
		}
	}
}
