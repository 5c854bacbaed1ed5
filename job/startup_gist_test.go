package job

import (
	"strings"
	"testing"
)

// A failed probe's error keeps what its stderr says, not the rule that closes the
// launcher's banner (`skampi startup --shmem` at np 4 once said only "(stderr: -----…)").
func TestStderrGist(t *testing.T) {
	banner := `--------------------------------------------------------------------------
Primary job  terminated normally, but 1 process returned
a non-zero exit code. Per user-direction, the job has been aborted.
--------------------------------------------------------------------------
--------------------------------------------------------------------------
mpirun detected that one or more processes exited with non-zero status, thus causing
the job to be terminated. The first process to do so was:

  Process name: [[11193,1],3]
  Exit code:    139
--------------------------------------------------------------------------
`
	for _, c := range []struct{ name, stderr, want, not string }{
		{"crash lines first", "[node:123] memheap: too many segments are registered: 33\n" +
			"skampi: rank 3 (node): SIGSEGV in mca_memheap_base_alloc during start-up: shmem_init; trace in /tmp/t3.txt\n" +
			"skampi: rank 1 (node): SIGSEGV during start-up: shmem_init; trace in /tmp/t1.txt\n" + banner,
			"skampi: rank 3 (node): SIGSEGV in mca_memheap_base_alloc during start-up: shmem_init; trace in /tmp/t3.txt | skampi: rank 1 (node): SIGSEGV during start-up: shmem_init; trace in /tmp/t1.txt",
			"-----"},
		{"the library's own lines", "[node:123] memheap: too many segments are registered: 33\n" + banner,
			"[node:123] memheap: too many segments are registered: 33", "-----"},
		{"an unknown block keeps its text, not its rules", "------------------------------------------------------------\nA requested component was not found.\n  Host: node\n  Framework: spml\n------------------------------------------------------------\n",
			"A requested component was not found. | Host: node | Framework: spml", "----"},
		{"the last lines", "a\nb\nc\nd\ne\nf\n", "c | d | e | f", "b |"},
		{"nothing", "\n----------------------------------------\n", "nothing", ""},
	} {
		got := stderrGist(c.stderr)
		if !strings.Contains(got, c.want) || (c.not != "" && strings.Contains(got, c.not)) {
			t.Errorf("%s: got %q, want it to hold %q and not %q", c.name, got, c.want, c.not)
		}
	}
	many := strings.Repeat("skampi: rank 0 (n): SIGSEGV during start-up: shmem_init; trace in t\n", 6)
	if got := stderrGist(many); strings.Count(got, "skampi:") != gistLines || !strings.HasSuffix(got, "(2 more)") {
		t.Errorf("six crash lines: %q", got)
	}
}
