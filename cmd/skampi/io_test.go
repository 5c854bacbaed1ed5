//go:build mpi

package main

// Integration tests of the MPI-IO operations: every operation measured at 2 and 4
// processes with its data checked, the files gone afterwards, the directory under
// test and the hints on the records; a read-only directory refused before start and a
// full one costing only the points that did not fit; the MPICH build running the io
// suite.

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

// ioSuite measures every MPI-IO operation of the catalogue in dir, data checked.
func ioSuite(t *testing.T, dir string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[settings]\nmin_repetitions = 2\nmax_repetitions = 4\nbuffer = \"256KiB\"\ncheck_data = true\nio_dir = %q\n", dir)
	for _, in := range ops.All() {
		if in.IO {
			sizes := "[1024, 65536]"
			if in.NoData {
				sizes = "[0]"
			}
			fmt.Fprintf(&b, "\n[[measurement]]\nname = %q\nop = %q\nsizes = %s\n", in.Name, in.Name, sizes)
			if len(in.Methods) > 0 { // IMB-IO's synced writes beside the plain ones
				fmt.Fprintf(&b, "\n[[measurement]]\nname = %q\nop = %q\nsizes = %s\nmethod = %q\n", in.Name+"_methods", in.Name, sizes, in.MethodNames())
			}
		}
	}
	return writeSuite(t, b.String())
}

// empty fails the test when dir holds anything (a file or directory skampi left).
func empty(t *testing.T, what, dir string) {
	t.Helper()
	left, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range left {
		t.Errorf("%s: %s left in %s", what, e.Name(), dir)
	}
}

func TestIO(t *testing.T) {
	for _, np := range []int{2, 4} {
		dir, out := t.TempDir(), t.TempDir()
		code, stdout, stderr := skampi(t, nil, "--np", strconv.Itoa(np), "-i", ioSuite(t, dir), "-o", out)
		if code != 0 {
			t.Fatalf("np %d: exit %d\n%s\n%s", np, code, stdout, stderr)
		}
		res := readResults(t, out)
		if len(res.Faults) != 0 || len(res.Points) == 0 || len(res.Points) != res.Runs[0].Points {
			t.Fatalf("np %d: %d points of %d, faults %+v", np, len(res.Points), res.Runs[0].Points, res.Faults)
		}
		seen := map[string]bool{}
		for _, p := range res.Points {
			in, _ := ops.Lookup(p.Op)
			seen[p.Op] = true
			effect(t, &p, record.EffectTime, fmt.Sprintf("np %d, %s", np, p.Op))
			if len(p.RankTimeS) != np || p.NProcs != np {
				t.Errorf("np %d, %s %d B: %d rank times on %d", np, p.Op, p.MsgBytes, len(p.RankTimeS), p.NProcs)
			}
			if p.IODir != dir || !p.CheckData || (in.Bandwidth && p.Shows(record.EffectTime) && p.BandwidthBps == nil) {
				t.Errorf("np %d, %s: io_dir %q (want %q), check_data %v, bandwidth %v", np, p.Op, p.IODir, dir, p.CheckData, p.BandwidthBps)
			}
			// IMB-IO's size and rate beside skampi's: every process's bytes, over the
			// slowest's time.
			if !in.NoData && p.Shows(record.EffectTime) && (p.IOTotalBytes == nil || *p.IOTotalBytes != int64(np)*p.MsgBytes ||
				p.AggregateBps == nil || math.Abs(*p.AggregateBps*p.TimeS-float64(*p.IOTotalBytes)) > 1e-6*float64(*p.IOTotalBytes)) {
				t.Errorf("np %d, %s %d B: io_total_bytes %v, aggregate_Bps %v", np, p.Op, p.MsgBytes, p.IOTotalBytes, p.AggregateBps)
			}
		}
		for _, in := range ops.All() {
			if in.IO && !seen[in.Name] {
				t.Errorf("np %d: %s not measured", np, in.Name)
			}
		}
		empty(t, fmt.Sprintf("np %d", np), dir)
	}
}

// IMB-IO's aggregate mode: the seven writes under method imb with a window of 4 (4
// writes, then sync, barrier, sync once, the time per write), data checked, at 2 and
// 4 processes. Invariants only: every planned point recorded with its window and a
// time, IMB's figures one write's over every process, and nothing left in io_dir.
func TestIOAggregate(t *testing.T) {
	var writes []string
	for _, in := range ops.All() {
		if m, ok := in.Method("imb"); in.IO && ok && m.Aggregate {
			writes = append(writes, in.Name)
		}
	}
	imb := len(writes)
	if imb != 7 {
		t.Fatalf("%d writes take method imb's window (%v), want IMB-IO's 7", imb, writes)
	}
	for _, np := range []int{2, 4} {
		dir, out := t.TempDir(), t.TempDir()
		var b strings.Builder
		fmt.Fprintf(&b, "[settings]\nmin_repetitions = 2\nmax_repetitions = 4\ncheck_data = true\nwindow = 4\nio_dir = %q\n", dir)
		for _, w := range writes {
			fmt.Fprintf(&b, "\n[[measurement]]\nname = %q\nop = %q\nmethod = \"imb\"\nsizes = [1024, 65536]\n", w, w)
		}
		code, stdout, stderr := skampi(t, nil, "--np", strconv.Itoa(np), "-i", writeSuite(t, b.String()), "-o", out)
		if code != 0 {
			t.Fatalf("np %d: exit %d\n%s\n%s", np, code, stdout, stderr)
		}
		res := readResults(t, out)
		if len(res.Faults) != 0 || len(res.Problems) != 0 || len(res.Points) != 2*imb || res.Runs[0].Points != 2*imb {
			t.Fatalf("np %d: %d points of %d planned (want %d), faults %+v, problems %v", np, len(res.Points), res.Runs[0].Points, 2*imb, res.Faults, res.Problems)
		}
		for _, p := range res.Points {
			what := fmt.Sprintf("np %d, %s %d B", np, p.Op, p.MsgBytes)
			total := int64(np) * p.MsgBytes
			switch {
			case p.Method != "imb" || p.Window != 4 || p.NProcs != np || !p.CheckData || p.IODir != dir:
				t.Errorf("%s: method %q, window %d, nprocs %d, check_data %v, io_dir %q", what, p.Method, p.Window, p.NProcs, p.CheckData, p.IODir)
			case !(p.TimeS > 0) || p.Reps < 1:
				t.Errorf("%s: time %g over %d repetitions", what, p.TimeS, p.Reps)
			case p.IOTotalBytes == nil || *p.IOTotalBytes != total || p.AggregateBps == nil ||
				math.Abs(*p.AggregateBps*p.TimeS-float64(total)) > 1e-6*float64(total):
				t.Errorf("%s: io_total_bytes %v, aggregate_Bps %v, time %g", what, p.IOTotalBytes, p.AggregateBps, p.TimeS)
			}
		}
		empty(t, fmt.Sprintf("np %d", np), dir)
	}
}

// The built-in suite with io_dir unset: its files go to a directory made for the run
// under TMPDIR, removed at the end.
func TestIOBuiltinTemporary(t *testing.T) {
	tmp, out := t.TempDir(), t.TempDir()
	code, stdout, stderr := skampi(t, []string{"TMPDIR=" + tmp}, "-i", "io", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res := readResults(t, out)
	if len(res.Faults) != 0 || len(res.Points) != res.Runs[0].Points {
		t.Fatalf("%d points of %d, faults %+v", len(res.Points), res.Runs[0].Points, res.Faults)
	}
	for _, p := range res.Points {
		if p.IODir != tmp {
			t.Fatalf("%s: io_dir %q, want %q", p.Op, p.IODir, tmp)
		}
	}
	// Open MPI's own launcher directories may live there too: only ours must be gone.
	left, _ := filepath.Glob(filepath.Join(tmp, "skampi-io-*"))
	if len(left) != 0 {
		t.Errorf("left: %v", left)
	}
}

// mountTmpfs mounts a small tmpfs (read-only if asked), or skips the test where this
// process may not mount.
func mountTmpfs(t *testing.T, opts string) string {
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v: %s)", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() { syscall.Unmount(dir, 0) })
	return dir
}

// A read-only directory is refused before any process starts, with the reason.
func TestIOReadOnlyRefused(t *testing.T) {
	dir := mountTmpfs(t, "ro,size=64k")
	code, stdout, stderr := skampi(t, nil, "-i", ioSuite(t, dir), "-o", t.TempDir())
	want := "io_dir " + dir + " is not writable: open " + dir + "/.skampi-io-check-"
	if code != 2 || !strings.Contains(stderr, want) || !strings.Contains(stderr, "read-only file system") || stdout != "" {
		t.Fatalf("exit %d, want 2 and %q...read-only file system\n%s\n%s", code, want, stdout, stderr)
	}
}

// A full directory costs the points that do not fit, each a fault naming the directory
// and the errno's text; the points before and after are measured (after the private
// files, only if every process's own file of the failed point is gone).
func TestIOFull(t *testing.T) {
	dir := mountTmpfs(t, "size=256k")
	suite := writeSuite(t, fmt.Sprintf(`[settings]
io_dir = %q
min_repetitions = 2
max_repetitions = 4
buffer = "1MiB"
[[measurement]]
name = "fits"
op = "File_Write_At"
sizes = [1024]
[[measurement]]
name = "too big"
op = "File_Write_At"
sizes = [1048576]
[[measurement]]
name = "too big, collective"
op = "File_Write_All"
sizes = [1048576]
[[measurement]]
name = "too big to read"
op = "File_Read_At"
sizes = [1048576]
[[measurement]]
name = "too big, private"
op = "File_Write_Private"
sizes = [1048576]
[[measurement]]
name = "after"
op = "File_Read_All"
sizes = [1024]
`, dir))
	for _, bin := range []string{binary, os.Getenv("SKAMPI_MPICH_BIN")} {
		if bin == "" {
			continue
		}
		out := t.TempDir()
		code, stdout, stderr := runBinary(t, bin, "-i", suite, "-o", out)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s\n%s", bin, code, stdout, stderr)
		}
		res := readResults(t, out)
		if len(res.Points) != 2 || res.Points[0].Measurement != "fits" || res.Points[1].Measurement != "after" || len(res.Faults) != 4 {
			t.Fatalf("%s: points %d, faults %+v", bin, len(res.Points), res.Faults)
		}
		for _, f := range res.Faults {
			if f.Fault != "error" || !strings.Contains(f.Detail, "io_dir "+dir+": ") {
				t.Errorf("%s, %s: %s %q", bin, f.Measurement, f.Fault, f.Detail)
			}
		}
		// The write's fault says why in the operating system's words (the library's
		// own words differ: MPICH's "No space left on device", Open MPI's none).
		if d := strings.ToLower(res.Faults[0].Detail); !strings.Contains(d, "no space left on device") {
			t.Errorf("%s: %q does not say the device is full", bin, res.Faults[0].Detail)
		}
		empty(t, bin, dir)
	}
}

// runBinary runs a skampi binary self-launched: Open MPI's, or MPICH's with nothing of
// Open MPI's in its environment.
func runBinary(t *testing.T, bin string, args ...string) (int, string, string) {
	if bin == binary {
		return skampi(t, nil, args...)
	}
	return runMPICH(t, bin, args...)
}

// The MPICH build runs every MPI-IO operation at 2 and 4 processes, data checked, and
// records ROMIO's hints.
func TestIOMPICH(t *testing.T) {
	bin := os.Getenv("SKAMPI_MPICH_BIN")
	if bin == "" {
		t.Skip("no MPICH binary (make test builds one: SKAMPI_MPICH_BIN)")
	}
	for _, np := range []string{"2", "4"} {
		dir, out := t.TempDir(), t.TempDir()
		code, stdout, stderr := runBinary(t, bin, "--np", np, "-i", ioSuite(t, dir), "-o", out)
		if code != 0 {
			t.Fatalf("np %s: exit %d\n%s\n%s", np, code, stdout, stderr)
		}
		res := readResults(t, out)
		if len(res.Faults) != 0 || len(res.Points) == 0 || len(res.Points) != res.Runs[0].Points {
			t.Fatalf("np %s: %d points of %d, faults %+v", np, len(res.Points), res.Runs[0].Points, res.Faults)
		}
		for _, p := range res.Points {
			if p.IOHints["cb_buffer_size"] == "" || p.IODir != dir {
				t.Errorf("np %s, %s: io_dir %q, hints %v", np, p.Op, p.IODir, p.IOHints)
			}
		}
		empty(t, "np "+np, dir)
	}
}

// Interrupted in the middle of the suite (SIGINT), the run leaves no file and no
// directory of its own in the directory under test.
func TestIOInterrupted(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	suite := writeSuite(t, fmt.Sprintf(`[settings]
io_dir = %q
min_repetitions = 3000
max_repetitions = 3000
max_relative_stderr = 0.0001
max_time_per_point = "10s"
[[measurement]]
name = "write"
op = "File_Write_At_All_Sync"
sizes = [1024, 2048, 4096, 8192, 16384, 32768]
`, dir))
	cmd := command(binary, "-i", suite, "-o", out)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitForPoints(t, out, 1)
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 128+int(syscall.SIGINT) {
		t.Errorf("exit status %d after SIGINT, want 130\n%s", code, errb.String())
	}
	if res := readResults(t, out); len(res.Points) == 0 || len(res.Points) == 6 {
		t.Fatalf("%d of 6 points before SIGINT: the test did not interrupt a run of MPI-IO points", len(res.Points))
	}
	empty(t, "after SIGINT", dir)
}

// Every process of a run killed outright (SIGKILL: skampi, mpirun and the ranks, the
// files of the point in progress on disk), then the run resumed: the resumed run removes
// what the killed one left in io_dir, measures what was missing, and leaves io_dir empty.
func TestIOKilledResumed(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	suite := writeSuite(t, fmt.Sprintf(`[settings]
io_dir = %q
min_repetitions = 100
max_repetitions = 100
max_relative_stderr = 0.0001
max_time_per_point = "2s"
[[measurement]]
name = "write"
op = "File_Write_At_All_Sync"
sizes = [1024, 2048, 4096, 8192]
[[measurement]]
name = "private"
op = "File_Write_Private"
sizes = [1024, 2048]
`, dir))
	cmd := command(binary, "-i", suite, "-o", out)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitForPoints(t, out, 1)
	tree := []int{cmd.Process.Pid}
	for i := 0; i < len(tree); i++ {
		tree = append(tree, children(tree[i])...)
	}
	for _, pid := range tree {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	cmd.Wait()
	waitGone(t, tree)
	left, _ := filepath.Glob(filepath.Join(dir, "skampi-io-*"))
	before := len(readResults(t, out).Points)
	if before == 6 {
		t.Fatal("every point measured before the kill: the test did not kill a run of MPI-IO points")
	}
	t.Logf("killed after %d of 6 points, leaving %q", before, left)
	code, stdout, stderr := skampi(t, nil, "-i", suite, "-o", out, "--resume")
	if code != 0 {
		t.Fatalf("resume: exit %d\n%s\n%s", code, stdout, stderr)
	}
	res := readResults(t, out)
	seen := map[string]bool{}
	for _, p := range res.Points {
		k := fmt.Sprint(p.Measurement, p.MsgBytes)
		if seen[k] {
			t.Errorf("%s measured twice", k)
		}
		seen[k] = true
	}
	if len(seen) != 6 || len(res.Faults) != 0 {
		t.Errorf("%d distinct points of 6 after the resume, faults %+v", len(seen), res.Faults)
	}
	empty(t, "after the resume", dir)
}
