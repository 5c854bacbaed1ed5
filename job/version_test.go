package job

import (
	"bytes"
	"strings"
	"testing"
)

// A stamped build names its stamp; a plain go build is "dev" with Go's VCS stamp.
func TestVersionString(t *testing.T) {
	if got := VersionString("0.24.0", "4bb13d3"); got != "0.24.0 (commit 4bb13d3)" {
		t.Errorf("stamped: %q", got)
	}
	if got := VersionString("", ""); !strings.HasPrefix(got, "dev (commit ") {
		t.Errorf("unstamped: %q", got)
	}
	var b bytes.Buffer
	PrintVersion(&b, "0.24.0", "4bb13d3")
	if !strings.HasPrefix(b.String(), "skampi 0.24.0 (commit 4bb13d3, go") {
		t.Errorf("version: %q", b.String())
	}
}
