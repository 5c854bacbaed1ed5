package job

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/skampi/skampi/internal/launch"
	"github.com/skampi/skampi/ops/mpi"
)

// VersionCommit is the version and commit a build was stamped with (make's -ldflags
// "-X main.version=0.24.0 -X main.commit=4bb13d3", from scripts/version.sh); a plain
// `go build` leaves them empty: the commit is then Go's own VCS stamp, the version
// "dev".
func VersionCommit(version, commit string) (string, string) {
	if version == "" {
		version = "dev"
	}
	if commit == "" {
		commit = vcsCommit()
	}
	return version, commit
}

// VersionString is "0.24.0 (commit 4bb13d3)": the first words of `skampi version`
// and the run header's skampi_version, so a result names the build that made it.
func VersionString(version, commit string) string {
	v, c := VersionCommit(version, commit)
	return fmt.Sprintf("%s (commit %s)", v, c)
}

// vcsCommit is the commit Go stamped into the binary (go build in a git tree).
func vcsCommit() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	rev, dirty := "", ""
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if rev == "" {
		return "unknown"
	}
	return rev[:min(7, len(rev))] + dirty
}

// PrintVersion is `skampi version` and `skampi --version`: the version, commit, Go and
// what MPI the binary links, then the library as it names itself and the launcher.
func PrintVersion(out io.Writer, version, commit string) {
	built := "built without MPI"
	if mpi.Available {
		built = "built with MPI"
	}
	for _, r := range mpi.Runtimes() { // a second programming model linked in
		if r.Available {
			built += " and " + r.Name
		}
	}
	v, c := VersionCommit(version, commit)
	fmt.Fprintf(out, "skampi %s (commit %s, %s, %s)\n", v, c, runtime.Version(), built)
	if !mpi.Available {
		return
	}
	// What the binary is linked against, asked of the library itself.
	lib, std := mpi.Library()
	fmt.Fprintf(out, "MPI library: %s (MPI %s; built for %s)\n", lib, std, mpi.LibraryName(mpi.Build))
	fmt.Fprintf(out, "can measure: %s\n", strings.Join(mpi.Capabilities(), "; "))
	if p, err := launch.FindLauncher(mpi.Build); err == nil {
		fmt.Fprintf(out, "self-launch: %s\n", p)
	} else {
		fmt.Fprintf(out, "self-launch: %v\n", err)
	}
}
