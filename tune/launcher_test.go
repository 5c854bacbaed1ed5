package tune

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
)

// A launch runs skampi itself on its process count, or under the user's launch
// command with {np} replaced (or -np N appended), skampi after it.
func TestLaunchArgs(t *testing.T) {
	l := inputs.Launch{Combination: inputs.Combination{NP: 4}}
	for _, c := range []struct {
		prefix []string
		want   []string
	}{
		{nil, []string{"/b/skampi", "--np", "4", "-i", "s.toml", "-o", "d", "--resume"}},
		{[]string{"srun", "--mpi=pmix", "-n", "{np}"}, []string{"srun", "--mpi=pmix", "-n", "4", "/b/skampi", "-i", "s.toml", "-o", "d", "--resume"}},
		{[]string{"mpirun", "--hostfile", "h"}, []string{"mpirun", "--hostfile", "h", "-np", "4", "/b/skampi", "-i", "s.toml", "-o", "d", "--resume"}},
	} {
		if got := launchArgs(c.prefix, "/b/skampi", l, "s.toml", "d", true); !slices.Equal(got, c.want) {
			t.Errorf("%v: %v, want %v", c.prefix, got, c.want)
		}
	}
	if _, err := launcherPrefix("no-such-launcher-here -n {np}"); err == nil {
		t.Error("a launcher not on PATH was accepted")
	}
	if p, err := launcherPrefix(""); err != nil || len(p) != 0 {
		t.Errorf("no launcher: %v, %v", p, err)
	}
	// Quoted words arrive whole, {np} in them replaced.
	p, err := launcherPrefix(`true -x 'SKAMPI_A=x y' "-n={np}"`)
	if got, want := launchArgs(p, "/b/skampi", l, "s.toml", "d", false), []string{"true", "-x", "SKAMPI_A=x y", "-n=4", "/b/skampi", "-i", "s.toml", "-o", "d"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("quoted launcher: %q, %v; want %q", got, err, want)
	}
}

// --launcher is split into words as a POSIX shell splits them, quotes and backslashes
// included; what only a shell could do is refused, naming the flag and the place,
// instead of reaching the launcher as literal words.
func TestLaunchWords(t *testing.T) {
	home, _ := os.UserHomeDir()
	for _, c := range []struct {
		in   string
		want []string
	}{
		{`srun --mpi=pmix -n {np}`, []string{"srun", "--mpi=pmix", "-n", "{np}"}},
		{`mpirun -x 'H3_A=x y' -np {np}`, []string{"mpirun", "-x", "H3_A=x y", "-np", "{np}"}},
		{`mpirun -x "H3_A=x y" -x H3_B=a\ b`, []string{"mpirun", "-x", "H3_A=x y", "-x", "H3_B=a b"}},
		{`a "q\"\$\\\x" 'it'\''s' "" x""y`, []string{"a", `q"$\\x`, "it's", "", "xy"}},
		{`a \$HOME '$HOME' "\$HOME"`, []string{"a", "$HOME", "$HOME", "$HOME"}},
		{`~/bin/mpirun --mca btl ^openib`, []string{home + "/bin/mpirun", "--mca", "btl", "^openib"}},
		{"mpirun 'a\nb'", []string{"mpirun", "a\nb"}},
	} {
		got, err := launchWords(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{``, "--launcher is empty"},
		{`  `, "--launcher is empty"},
		{`# mpirun`, "--launcher holds only a comment"},
		{`mpirun -x 'A=b`, "--launcher: column 11: reached EOF without closing quote `'`"},
		{`mpirun -x "A=b`, "--launcher: column 11: reached EOF without closing quote `\"`"},
		{`mpirun -H $(hostname)`, "--launcher: $(hostname) at column 11 is command substitution, which needs a shell"},
		{"mpirun -H `hostname`", "--launcher: `hostname` at column 11 is command substitution, which needs a shell"},
		{`mpirun -np {np}; echo`, "--launcher: echo at column 18 starts a second command"},
		{"mpirun\necho", "--launcher: echo at line 2 column 1 starts a second command"},
		{`mpirun | tee log`, "--launcher: '|' at column 8 joins two commands"},
		{`mpirun && true`, "--launcher: '&&' at column 8 joins two commands"},
		{`mpirun > log`, "--launcher: > log at column 8 is a redirection, which needs a shell"},
		{`mpirun 2>&1`, "--launcher: 2>&1 at column 8 is a redirection"},
		{`mpirun -x $VAR`, "--launcher: $VAR at column 11 is variable expansion, which needs a shell"},
		{`mpirun -x "${VAR}"`, "--launcher: ${VAR} at column 12 is variable expansion"},
		{`mpirun -n $((2*2))`, "--launcher: $((2*2)) at column 11 is arithmetic expansion"},
		{`mpirun -x a$`, "--launcher: '$' at column 12 is unquoted"},
		{`UCX_TLS=sm mpirun`, "--launcher: UCX_TLS=sm at column 1 sets a variable for the command: give it in the tune file's [env], or as `env UCX_TLS=sm ...`"},
		{`mpirun &`, "--launcher: '&' at column 8 runs the command in the background"},
		{`! mpirun`, "--launcher: '!' at column 1 negates"},
		{`(mpirun)`, "--launcher: (mpirun) at column 1 is a compound command"},
		{`mpirun # np`, "--launcher: # np at column 8 is a comment"},
	} {
		_, err := launchWords(c.in)
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q...", c.in, err, c.want)
		}
	}
}
