//go:build mpi

package main

// Integration tests of the multi-threaded operations (osu_latency_mt at 1:1 and 1:N,
// osu_bw in thread pairs, IMB-MT's) and of the thread level they need.

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

// mtSuite measures the multi-threaded ping-pong and bandwidth at 1, 2 and 4 threads per
// rank, the ping-ping, sendrecv and bidirectional bandwidth at 2, with their data
// checked, and the threads of one point on a shared communicator, pinned.
func mtSuite(t *testing.T) string {
	var b strings.Builder
	b.WriteString("[settings]\nmin_repetitions = 2\nmax_repetitions = 4\nmax_time_per_point = \"1s\"\ncheck_data = true\nwindow = 8\n")
	for _, op := range []string{"Pingpong_Send_Recv_MT", "Bandwidth_MT"} {
		for _, n := range []int{1, 2, 4} {
			fmt.Fprintf(&b, "\n[[measurement]]\nname = \"%s %d\"\nop = \"%s\"\nsizes = [1, 4096]\nthreads = %d\n", op, n, op, n)
		}
	}
	for _, op := range []string{"Pingping_Send_Recv_MT", "Sendrecv_MT", "Bibandwidth_MT"} {
		fmt.Fprintf(&b, "\n[[measurement]]\nname = \"%s 2\"\nop = \"%s\"\nsizes = [1, 4096]\nthreads = 2\n", op, op)
	}
	b.WriteString("\n[[measurement]]\nname = \"tags, pinned\"\nop = \"Pingpong_Send_Recv_MT\"\nsizes = [64]\nthreads = 2\nthread_comm = \"tag\"\nthread_pinning = \"core\"\n")
	return writeSuite(t, b.String())
}

// Every point of both operations is measured at 2 and 4 processes (oversubscribed at
// 4, and at 2 once there are threads: correctness only) with Open MPI and, when built,
// MPICH: its data checked, its threads recorded (the CPU each ran on, the mean thread
// no slower than the slowest, the messages per second of all of them), and the run
// header says MPI_THREAD_MULTIPLE was requested and provided.
func TestThreaded(t *testing.T) {
	suite := mtSuite(t)
	type build struct {
		name string
		run  func(args ...string) (int, string, string)
	}
	builds := []build{{"Open MPI", func(args ...string) (int, string, string) { return skampi(t, nil, args...) }}}
	if bin := os.Getenv("SKAMPI_MPICH_BIN"); bin != "" {
		builds = append(builds, build{"MPICH", func(args ...string) (int, string, string) { return runMPICH(t, bin, args...) }})
	}
	for _, b := range builds {
		for _, np := range []int{2, 4} {
			out := t.TempDir()
			code, stdout, stderr := b.run("--np", strconv.Itoa(np), "-i", suite, "-o", out)
			if code != 0 {
				t.Fatalf("%s, np %d: exit %d\n%s\n%s", b.name, np, code, stdout, stderr)
			}
			res := readResults(t, out)
			if len(res.Runs) != 1 || len(res.Points) != 19 || len(res.Faults) != 0 {
				t.Fatalf("%s, np %d: %d runs, %d points, faults %+v", b.name, np, len(res.Runs), len(res.Points), res.Faults)
			}
			if r := res.Runs[0]; r.ThreadLevelRequested != "multiple" || r.ThreadLevelProvided != "multiple" {
				t.Errorf("%s, np %d: thread level requested %q, provided %q", b.name, np, r.ThreadLevelRequested, r.ThreadLevelProvided)
			}
			for _, p := range res.Points {
				what := fmt.Sprintf("%s, np %d, %s %d B", b.name, np, p.Measurement, p.MsgBytes)
				if !p.CheckData || p.Threads < 1 {
					t.Errorf("%s: check_data %v, %d threads", what, p.CheckData, p.Threads)
					continue
				}
				if effect(t, &p, record.EffectTime, what); !p.Shows(record.EffectTime) {
					continue // no time: no rates either
				}
				if p.ThreadMeanS == nil || *p.ThreadMeanS > p.TimeS*(1+1e-9) || p.MsgsPerS == nil {
					t.Errorf("%s: thread mean %v (slowest %g), msgs/s %v", what, p.ThreadMeanS, p.TimeS, p.MsgsPerS)
				}
				// The rates are over the threads' span, never shorter than the slowest loop.
				if p.ThreadSpanS == nil || *p.ThreadSpanS < p.TimeS*(1-1e-9) ||
					math.Abs(*p.MsgsPerS**p.ThreadSpanS-float64(p.Threads*msgsPerStep(p))) > 1e-6*float64(p.Threads*msgsPerStep(p)) {
					t.Errorf("%s: span %v (slowest %g), msgs/s %v", what, p.ThreadSpanS, p.TimeS, *p.MsgsPerS)
				}
				if len(p.ThreadCPUs) != 2 || len(p.ThreadCPUs[0]) != p.Threads || len(p.ThreadCPUs[1]) != p.Threads {
					t.Errorf("%s: thread CPUs %v for %d threads", what, p.ThreadCPUs, p.Threads)
				}
				for _, row := range p.ThreadCPUs {
					for _, cpu := range row {
						if cpu < 0 {
							t.Errorf("%s: a thread ran on no CPU: %v", what, p.ThreadCPUs)
						}
					}
				}
				if (p.Op == "Bandwidth_MT" || p.Op == "Bibandwidth_MT") && (p.BandwidthBps == nil || p.Window != 8) {
					t.Errorf("%s: bandwidth %v, window %d", what, p.BandwidthBps, p.Window)
				}
				if p.Measurement == "tags, pinned" && (p.ThreadComm != "tag" || p.ThreadPinning != "core") {
					t.Errorf("%s: thread_comm %q, thread_pinning %q", what, p.ThreadComm, p.ThreadPinning)
				}
			}
		}
	}
}

// osu_latency_mt's 1:N: one sender thread, 1 to 4 receiver threads sharing its 7 round
// trips a repetition (7 is divisible by none of 2, 3 and 4: some receivers answer one
// more than others), data checked. At 2 processes and at 4 (ranks 2 and 3 idle,
// oversubscribed: correctness only), with Open MPI and, when built, MPICH: every point
// recorded and accepted by the reader's checks, time_s positive and latency_s its half,
// the receivers counted in threads with the initiator's one thread beside them in
// thread_cpus, and none of the fields of thread pairs (thread_comm, the mean thread,
// their span and rate).
func TestThreadedOneToN(t *testing.T) {
	var b strings.Builder
	b.WriteString("[settings]\nmin_repetitions = 2\nmax_repetitions = 4\nmax_time_per_point = \"2s\"\ncheck_data = true\niterations = 7\nthread_pinning = \"core\"\n")
	receivers := []int{1, 2, 3, 4}
	for _, n := range receivers {
		fmt.Fprintf(&b, "\n[[measurement]]\nname = \"1:%d\"\nop = \"Pingpong_Send_Recv_MT_1toN\"\nsizes = [1, 4096]\nthreads = %d\n", n, n)
	}
	suite := writeSuite(t, b.String())
	type build struct {
		name string
		run  func(args ...string) (int, string, string)
	}
	builds := []build{{"Open MPI", func(args ...string) (int, string, string) { return skampi(t, nil, args...) }}}
	if bin := os.Getenv("SKAMPI_MPICH_BIN"); bin != "" {
		builds = append(builds, build{"MPICH", func(args ...string) (int, string, string) { return runMPICH(t, bin, args...) }})
	}
	for _, bd := range builds {
		for _, np := range []int{2, 4} {
			out := t.TempDir()
			code, stdout, stderr := bd.run("--np", strconv.Itoa(np), "-i", suite, "-o", out)
			if code != 0 {
				t.Fatalf("%s, np %d: exit %d\n%s\n%s", bd.name, np, code, stdout, stderr)
			}
			res := readResults(t, out)
			if len(res.Runs) != 1 || len(res.Points) != 2*len(receivers) || len(res.Faults) != 0 {
				t.Fatalf("%s, np %d: %d runs, %d points, faults %+v", bd.name, np, len(res.Runs), len(res.Points), res.Faults)
			}
			if r := res.Runs[0]; r.ThreadLevelProvided != "multiple" {
				t.Errorf("%s, np %d: thread level provided %q", bd.name, np, r.ThreadLevelProvided)
			}
			seen := map[string]bool{}
			for _, p := range res.Points {
				what := fmt.Sprintf("%s, np %d, %s %d B", bd.name, np, p.Measurement, p.MsgBytes)
				seen[fmt.Sprintf("%d/%d", p.Threads, p.MsgBytes)] = true
				if p.Op != "Pingpong_Send_Recv_MT_1toN" || p.NProcs != np || len(p.Ranks) != 2 || p.Ranks[0] != 0 || p.Ranks[1] != 1 ||
					p.Iterations != 7 || !p.CheckData || p.ThreadPinning != "core" {
					t.Errorf("%s: op %s, nprocs %d, ranks %v, iterations %d, check_data %v, pinning %q",
						what, p.Op, p.NProcs, p.Ranks, p.Iterations, p.CheckData, p.ThreadPinning)
				}
				if p.ThreadComm != "" || p.ThreadMeanS != nil || p.ThreadSpanS != nil || p.MsgsPerS != nil {
					t.Errorf("%s: fields of thread pairs: thread_comm %q, mean %v, span %v, msgs/s %v", what, p.ThreadComm, p.ThreadMeanS, p.ThreadSpanS, p.MsgsPerS)
				}
				if len(p.ThreadCPUs) != 2 || len(p.ThreadCPUs[0]) != 1 || len(p.ThreadCPUs[1]) != p.Threads {
					t.Errorf("%s: thread CPUs %v for 1 sender and %d receivers", what, p.ThreadCPUs, p.Threads)
				}
				if effect(t, &p, record.EffectTime, what); !p.Shows(record.EffectTime) {
					continue
				}
				if !(p.TimeS > 0) || p.LatencyS == nil || math.Abs(*p.LatencyS-p.TimeS/2) > 1e-12*p.TimeS {
					t.Errorf("%s: time %g, latency %v: a round trip's half", what, p.TimeS, p.LatencyS)
				}
			}
			for _, n := range receivers {
				for _, size := range []int{1, 4096} {
					if !seen[fmt.Sprintf("%d/%d", n, size)] {
						t.Errorf("%s, np %d: no point of 1:%d at %d B", bd.name, np, n, size)
					}
				}
			}
		}
	}
}

// A multi-threaded operation with a thread level below MPI_THREAD_MULTIPLE forced on
// the command line is refused before anything runs: exit 1 with one line saying what
// needs MULTIPLE and what was asked, no MPI job, no results. The same run under the
// launcher (every rank reads the suite) is refused alike, rank 0 alone saying it.
func TestThreadLevelRefused(t *testing.T) {
	suite := mtSuite(t)
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := skampi(t, nil, "--thread-level", "serialized", "-i", suite, "-o", out)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if code != 1 || len(lines) != 1 || !strings.Contains(stderr, "Pingpong_Send_Recv_MT needs MPI_THREAD_MULTIPLE") ||
		!strings.Contains(stderr, "--thread-level serialized") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "results.jsonl")); err == nil {
		t.Errorf("a refused run wrote results")
	}
	cmd := command("mpirun", "-np", "2", binary, "--thread-level", "funneled", "-i", suite)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	cmd.Run()
	if cmd.ProcessState.ExitCode() != 1 || strings.Count(e.String(), "needs MPI_THREAD_MULTIPLE") != 1 {
		t.Errorf("under mpirun: exit %d\n%s\n%s", cmd.ProcessState.ExitCode(), o.String(), e.String())
	}
}

// A library that provides less than MPI_THREAD_MULTIPLE (played by the self-test
// variable, as neither library here does) is refused after MPI_Init_thread, before any
// point: exit 1, one line with the requested and provided levels, no point recorded,
// no restart.
func TestThreadLevelNotProvided(t *testing.T) {
	suite := mtSuite(t)
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := skampi(t, []string{"SKAMPI_SELFTEST_THREAD_PROVIDED=serialized"}, "-i", suite, "-o", out)
	if code != 1 || strings.Count(stderr, "requested multiple, provided serialized") != 1 || strings.Contains(stdout, "restart") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if data, err := os.ReadFile(filepath.Join(out, "results.jsonl")); err == nil && strings.Contains(string(data), `"kind":"point"`) {
		t.Errorf("a refused run measured points:\n%s", data)
	}
}

// msgsPerStep is what one thread's step moves, as ops.Info.MessagesPerStep counts it.
func msgsPerStep(p record.Point) int {
	in, _ := ops.Lookup(p.Op)
	return in.MessagesPerStep(p.Window)
}
