package main

import (
	"strings"
	"testing"
)

// Flag values that would measure nothing, twice, or what was not meant are usage
// mistakes naming the flag, before any process starts; so are integer settings whose
// product does not fit. The environment says a launcher started this process, so a
// command line wrongly accepted ends in that refusal, never in a job.
func TestFlagsRefusedBeforeAnyProcess(t *testing.T) {
	t.Setenv("OMPI_COMM_WORLD_SIZE", "2")
	t.Setenv("OMPI_COMM_WORLD_RANK", "0")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"run", "-i", "quick", "--thread-level", ""},
			`skampi: --thread-level must be one of default, single, funneled, serialized, multiple, got ""`},
		{[]string{"-i", "quick", "--thread-level", ""}, `skampi: --thread-level must be one of`},
		{[]string{"startup", "--np", "2,2"}, "skampi: --np: 2 is listed twice (counts 1 and 2)"},
		{[]string{"startup", "--np", "10000"},
			`skampi: startup: invalid argument "10000" for "--np" flag: "10000": must be a whole number from 1 to 1024`},
		{[]string{"startup", "--np", "0"}, `skampi: startup: invalid argument "0" for "--np" flag: "0": must be a whole number from 1 to 1024`},
		{[]string{"startup", "--timeout", "0"}, `skampi: startup: invalid argument "0" for "--timeout" flag: must be above 0s`},
		{[]string{"startup", "--timeout", "-1s"}, `skampi: startup: invalid argument "-1s" for "--timeout" flag: must be above 0s`},
		{[]string{"startup", "--launches", "0"}, `skampi: startup: invalid argument "0" for "--launches" flag: must be a whole number from 1`},
		{[]string{"tune", "-i", "tune-eager", "-o", "DIR", "--np", "2,2"}, "skampi: tune: --np: 2 is listed twice (counts 1 and 2)"},
		{[]string{"tune", "-i", "tune-eager", "-o", "DIR", "--np", "4096"}, `skampi: tune: invalid argument "4096" for "--np" flag`},
		{[]string{"check", "-i", "quick", "--np", "2000000"}, "skampi: check: --np must be between 1 and 1048576, got 2000000"},
		{[]string{"run", "Neighbor_alltoall", "--topology-dims", "1048576,1048576,1048576,1048576", "--print-suite"},
			"skampi run: --topology-dims: dimensions 1048576x1048576 make a grid of more than 1048576 processes, the most a job may have"},
		{[]string{"run", "Neighbor_alltoall", "--topology-dims", "1048576,1048576,1048576,1048576,0", "--print-suite"},
			"skampi run: --topology-dims: dimensions 1048576x1048576 make a grid of more than 1048576 processes"},
		{[]string{"run", "Pingpong_Send_Recv_MT", "--timer", "iteration", "--print-suite"},
			"skampi run: --timer: Pingpong_Send_Recv_MT does not use it: timer applies to operations timed as a loop of steps"},
		{[]string{"run", "Bandwidth_MT", "--cache", "cold", "--print-suite"}, "skampi run: --cache: Bandwidth_MT does not use it"},
		{[]string{"run", "Barrier", "--refine", "true", "--print-suite"}, "skampi run: --refine: Barrier does not use it"},
		{[]string{"run", "Pingpong_Send_Recv", "--sizes", "8", "--refine", "true", "--print-suite"},
			"skampi run: --refine: Pingpong_Send_Recv does not use it: refine applies to measurements of two sizes or more"},
		{[]string{"run", "Put", "--method", "lock", "--poll", "flush", "--print-suite"}, "skampi run: --poll: Put does not use it"},
		{[]string{"run", "Barrier", "--pvars", "all,pml_ob1_unexpected_msgq_length", "--print-suite"},
			`skampi run: --pvars: name 1: "all" is every variable the library offers`},
	}
	for _, c := range cases {
		code, _, stderr := runCLI(c.args...)
		if code != 2 || !strings.HasPrefix(stderr, c.want) || !strings.Contains(stderr, "--help' for usage.") {
			t.Errorf("%q: code %d, stderr\n%s\nwant code 2 and\n%s", c.args, code, stderr, c.want)
		}
	}
}

// The same suite settings in a file: an error at their position.
func TestCheckRefusesTopologyOverflow(t *testing.T) {
	for _, dims := range []string{"[1048576, 1048576, 1048576, 1048576]", "[1048576, 1048576, 1048576, 1048576, 0]"} {
		f := writeSuite(t, "[[measurement]]\nname = \"n\"\nop = \"Neighbor_alltoall\"\nsizes = [8]\ntopology_dims = "+dims+"\n")
		code, _, stderr := runCLI("check", "-i", f)
		want := f + ":5:17: measurement 1: topology_dims: dimensions 1048576x1048576 make a grid of more than 1048576 processes"
		if code != 1 || !strings.HasPrefix(stderr, want) {
			t.Errorf("%s: code %d, stderr\n%s\nwant\n%s", dims, code, stderr, want)
		}
	}
}
