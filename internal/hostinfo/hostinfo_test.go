package hostinfo

import (
	"bufio"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

func TestCPUList(t *testing.T) {
	for _, c := range []struct {
		cpus []int
		want string
	}{
		{nil, ""}, {[]int{0}, "0"}, {[]int{0, 1}, "0-1"}, {[]int{1, 3}, "1,3"},
		{[]int{0, 2, 4, 5, 6, 7, 9}, "0,2,4-7,9"}, {[]int{63, 64, 65}, "63-65"},
	} {
		if got := CPUList(c.cpus); got != c.want {
			t.Errorf("CPUList(%v) = %q, want %q", c.cpus, got, c.want)
		}
	}
}

// This process's own binding: a list the kernel's format allows, naming at least one
// CPU; the same as /proc/self/status says for the process.
func TestAffinityOfThisProcess(t *testing.T) {
	a := Affinity()
	if !regexp.MustCompile(`^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$`).MatchString(a) {
		t.Fatalf("Affinity() = %q", a)
	}
}

func TestCPUModel(t *testing.T) {
	x86 := "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7763 64-Core Processor\n\nprocessor\t: 1\nmodel name\t: other\n"
	if got := cpuModel(x86); got != "AMD EPYC 7763 64-Core Processor" {
		t.Errorf("x86: %q", got)
	}
	power := "processor\t: 0\ncpu\t\t: POWER9, altivec supported\nclock\t\t: 3800.000000MHz\n"
	if got := cpuModel(power); got != "POWER9, altivec supported" {
		t.Errorf("POWER: %q", got)
	}
	if got := cpuModel("nothing: here\n"); got != "" {
		t.Errorf("unknown: %q", got)
	}
}

// aarch64's cpuinfo (here an AWS Graviton2's, shortened) has no "model name": the CPU
// is named by its implementer and part, or by their numbers when the table lacks them.
func TestCPUModelArm(t *testing.T) {
	cpu := func(impl, part string) string {
		return "processor\t: 0\nBogoMIPS\t: 243.75\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics\n" +
			"CPU implementer\t: " + impl + "\nCPU architecture: 8\nCPU variant\t: 0x3\nCPU part\t: " + part + "\nCPU revision\t: 1\n\n" +
			"processor\t: 1\nCPU implementer\t: 0x46\nCPU part\t: 0x001\n"
	}
	for _, c := range []struct{ cpuinfo, want string }{
		{cpu("0x41", "0xd0c"), "ARM Neoverse-N1"},
		{cpu("0x46", "0x001"), "Fujitsu A64FX"},
		{cpu("0x41", "0xd99"), "ARM part 0xd99"},
		{cpu("0x99", "0x123"), "implementer 0x99 part 0x123"},
		{cpu("0x41", ""), ""},
		// A 32-bit Arm kernel says "model name": it is taken as it stands.
		{"processor\t: 0\nmodel name\t: ARMv7 Processor rev 4 (v7l)\nCPU implementer\t: 0x41\nCPU part\t: 0xd03\n", "ARMv7 Processor rev 4 (v7l)"},
	} {
		if got := cpuModel(c.cpuinfo); got != c.want {
			t.Errorf("cpuModel(%q) = %q, want %q", c.cpuinfo, got, c.want)
		}
	}
}

// This machine's values, where it gives them: a container or an unusual kernel may
// hide /proc's files, which is no fault of the parsing tested above.
func TestThisMachine(t *testing.T) {
	k := Kernel()
	if k == "" {
		t.Skip("/proc/sys/kernel/osrelease or version is not readable here")
	}
	if !strings.Contains(k, " ") {
		t.Errorf("kernel %q: want release and version", k)
	}
	if CPUModel() == "" {
		t.Skip("/proc/cpuinfo names no CPU model here (no model name, cpu, or CPU implementer and part)")
	}
}

func TestToolOutputs(t *testing.T) {
	for out, want := range map[string]string{
		"# Library version: 1.15.0\n# Library path: /usr/lib/libucs.so.0\n# API headers version: 1.15.0\n": "1.15.0",
		"# UCT version=1.13.1 revision 09be6c9\n# configured with: --prefix=/usr\n":                        "1.13.1",
		"nothing": "",
	} {
		if got := ucxInfoVersion(out); got != want {
			t.Errorf("ucx_info %q: %q, want %q", out, got, want)
		}
	}
	if got := fiInfoVersion("fi_info: 1.17.0\nlibfabric: 1.17.0\nlibfabric api: 1.17\n"); got != "1.17.0" {
		t.Errorf("fi_info: %q", got)
	}
}

func TestMapped(t *testing.T) {
	maps := `55d0c0a00000-55d0c0a02000 r--p 00000000 08:01 123 /usr/bin/skampi
7f0a1b000000-7f0a1b020000 r--p 00000000 08:01 456 /usr/lib/x86_64-linux-gnu/libucp.so.0.0.0
7f0a1c000000-7f0a1c001000 rw-p 00000000 00:00 0
7ffd0e1f0000-7ffd0e211000 rw-p 00000000 00:00 0                          [stack]
`
	if got := mappedIn(bufio.NewScanner(strings.NewReader(maps)), "libucp.so"); got != "/usr/lib/x86_64-linux-gnu/libucp.so.0.0.0" {
		t.Errorf("libucp: %q", got)
	}
	if got := mappedIn(bufio.NewScanner(strings.NewReader(maps)), "libfabric.so"); got != "" {
		t.Errorf("libfabric: %q", got)
	}
	// A test binary maps neither library: both versions are omitted.
	if UCXVersion() != "" || LibfabricVersion() != "" {
		t.Errorf("ucx %q, libfabric %q in a process that loads neither", UCXVersion(), LibfabricVersion())
	}
}

// The package that owns a file, asked of dpkg or rpm: here, the shell's, by a path a
// link leads from (/bin/sh to dash; on a merged /usr the package lists one of two).
func TestPackageVersion(t *testing.T) {
	_, dpkg := exec.LookPath("dpkg-query")
	_, rpm := exec.LookPath("rpm")
	if dpkg != nil && rpm != nil {
		t.Skip("neither dpkg nor rpm here")
	}
	owned := false
	for _, f := range ownedNames("/bin/sh") {
		owned = owned || dpkg == nil && output("dpkg-query", "-S", f) != "" || rpm == nil && output("rpm", "-qf", f) != ""
	}
	if !owned {
		t.Skip("the package database does not list /bin/sh (an image with its dpkg or rpm database stripped)")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // asked for real, kept out of the user's cache
	if v := packageVersion("/bin/sh"); !regexp.MustCompile(`^[0-9]`).MatchString(v) {
		t.Errorf("package version of /bin/sh: %q", v)
	}
}

func TestOwnedNames(t *testing.T) {
	got := strings.Join(ownedNames("/lib/nonexistent/libx.so.1"), " ")
	if got != "/lib/nonexistent/libx.so.1 /usr/lib/nonexistent/libx.so.1" {
		t.Errorf("%s", got)
	}
}
