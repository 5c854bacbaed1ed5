package hostinfo

import (
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Affinity is the CPUs this process may run on (sched_getaffinity), as a Linux CPU
// list: "0", "0-1", "0,2,4-7"; "" where the kernel does not say. The binding a
// launcher gave the rank (mpirun --bind-to core: one CPU; --bind-to none: all).
func Affinity() string {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return ""
	}
	var cpus []int
	for i := 0; i < len(set)*64; i++ {
		if set.IsSet(i) {
			cpus = append(cpus, i)
		}
	}
	return CPUList(cpus)
}

// CPUList writes ascending CPU numbers as the kernel's lists do: runs as ranges.
func CPUList(cpus []int) string {
	var b strings.Builder
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1] == cpus[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(cpus[i]))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(cpus[j]))
		}
		i = j + 1
	}
	return b.String()
}
