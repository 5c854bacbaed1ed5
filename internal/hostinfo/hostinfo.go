// Package hostinfo describes the machine a run is on, for its run header: the CPU
// model, the kernel, the UCX and libfabric the process uses, and the CPUs a process
// may run on (its binding). Pure Go: it reads /proc and asks the libraries' own tools.
package hostinfo

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// CPUModel is /proc/cpuinfo's first "model name" ("cpu" on POWER, the implementer and
// part on Arm), or "".
func CPUModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	return cpuModel(string(b))
}

func cpuModel(cpuinfo string) string {
	fallback := ""
	for _, line := range strings.Split(cpuinfo, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "model name":
			return strings.TrimSpace(v)
		case "cpu":
			if fallback == "" {
				fallback = strings.TrimSpace(v)
			}
		}
	}
	if fallback != "" {
		return fallback
	}
	return armModel(cpuinfo)
}

// Kernel is the kernel's release and version, as `uname -rv` prints them, or "".
func Kernel() string {
	rel, err1 := os.ReadFile("/proc/sys/kernel/osrelease")
	ver, err2 := os.ReadFile("/proc/sys/kernel/version")
	if err1 != nil || err2 != nil {
		return ""
	}
	return strings.TrimSpace(string(rel)) + " " + strings.TrimSpace(string(ver))
}

// UCXVersion is the version of the UCX this process has loaded (libucp), or "" when
// it has none: the library's own tool (ucx_info -v, beside the library first, then
// on PATH), else the package that installed it.
func UCXVersion() string {
	lib := mapped("libucp.so")
	if lib == "" {
		return ""
	}
	if v := toolVersion(lib, "ucx_info", []string{"-v"}, ucxInfoVersion); v != "" {
		return v
	}
	return packageVersion(lib)
}

// LibfabricVersion is the libfabric this process has loaded, as UCXVersion (fi_info
// --version), or "".
func LibfabricVersion() string {
	lib := mapped("libfabric.so")
	if lib == "" {
		return ""
	}
	if v := toolVersion(lib, "fi_info", []string{"--version"}, fiInfoVersion); v != "" {
		return v
	}
	return packageVersion(lib)
}

// ucx_info -v: "# Library version: 1.15.0" (1.13: "# UCT version=1.13.1 revision ...").
var ucxRe = regexp.MustCompile(`(?i)version[ =:]+([0-9]+\.[0-9]+\.[0-9]+\S*)`)

func ucxInfoVersion(out string) string {
	if m := ucxRe.FindStringSubmatch(out); m != nil {
		return m[1]
	}
	return ""
}

// fi_info --version: "fi_info: 1.17.0\nlibfabric: 1.17.0\nlibfabric api: 1.17".
func fiInfoVersion(out string) string {
	for _, line := range strings.Split(out, "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "libfabric" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// mapped is the path of the first library in /proc/self/maps whose file name starts
// with name (libucp.so.0.0.0 for "libucp.so"), or "".
func mapped(name string) string {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return ""
	}
	defer f.Close()
	return mappedIn(bufio.NewScanner(f), name)
}

func mappedIn(sc *bufio.Scanner, name string) string {
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 {
			continue
		}
		path := fields[len(fields)-1]
		if strings.HasPrefix(filepath.Base(path), name) {
			return path
		}
	}
	return ""
}

// toolVersion runs a library's tool, preferring the one installed with the library
// (PREFIX/lib/libucp.so beside PREFIX/bin/ucx_info: the tool on PATH may belong to
// another install), and parses its output.
func toolVersion(lib, tool string, args []string, parse func(string) string) string {
	cands := []string{filepath.Join(filepath.Dir(lib), "..", "bin", tool)}
	if p, err := exec.LookPath(tool); err == nil {
		cands = append(cands, p)
	}
	for _, c := range cands {
		if _, err := os.Stat(c); err != nil {
			continue
		}
		if v := parse(output(c, args...)); v != "" {
			return v
		}
	}
	return ""
}

// askPackageManager is the version of the dpkg or rpm package that owns file, or "".
func askPackageManager(file string) string {
	if _, err := exec.LookPath("dpkg-query"); err == nil {
		for _, f := range ownedNames(file) {
			// "libucx0:amd64: /usr/lib/x86_64-linux-gnu/libucp.so.0.0.0"
			owner, _, ok := strings.Cut(output("dpkg-query", "-S", f), ": ")
			if ok && owner != "" && !strings.Contains(owner, " ") {
				return strings.TrimSpace(output("dpkg-query", "-W", "-f=${Version}", owner))
			}
		}
	}
	if _, err := exec.LookPath("rpm"); err == nil {
		for _, f := range ownedNames(file) {
			v, _, _ := strings.Cut(output("rpm", "-qf", "--qf", "%{VERSION}-%{RELEASE}\n", f), "\n")
			if v = strings.TrimSpace(v); v != "" && !strings.Contains(v, " ") {
				return v
			}
		}
	}
	return ""
}

// ownedNames are the names a package may list a mapped library under: the loader's
// (/lib/x86_64-linux-gnu/libucp.so.0), the file it links to, and each with and
// without /usr (a merged /usr makes both paths one file, but a package lists one).
func ownedNames(file string) []string {
	names := []string{file}
	if real, err := filepath.EvalSymlinks(file); err == nil && real != file {
		names = append(names, real)
	}
	for _, n := range names {
		if rest, ok := strings.CutPrefix(n, "/usr/"); ok {
			names = append(names, "/"+rest)
		} else {
			names = append(names, "/usr"+n)
		}
	}
	return names
}

// output is what a command prints, "" when it fails or takes more than a few seconds
// (a header is not worth a stuck start-up).
func output(name string, args ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).Output()
	if err != nil {
		return ""
	}
	return string(out)
}
