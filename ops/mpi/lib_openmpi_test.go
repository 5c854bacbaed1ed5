//go:build mpi && !mpich

package mpi

import "testing"

// The path limit of sharedfp/lockedfile holds unless the environment keeps the
// component out.
func TestLockedfileInUse(t *testing.T) {
	for _, c := range []struct {
		io, sharedfp string
		want         bool
	}{
		{"", "", true},
		{"ompio", "", true},
		{"^romio321", "", true},
		{"romio321", "", false},
		{"^ompio", "", false},
		{"", "^lockedfile", false},
		{"", "^sm,lockedfile", false},
		{"", "sm", false},
		{"", "lockedfile,sm", true},
		{"", "^sm", true},
	} {
		if got := lockedfileInUse(c.io, c.sharedfp); got != c.want {
			t.Errorf("io=%q sharedfp=%q: %v, want %v", c.io, c.sharedfp, got, c.want)
		}
	}
}
