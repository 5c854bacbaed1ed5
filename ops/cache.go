package ops

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// FallbackColdArea is the cycling area of cache = "cold" when the last-level cache's
// size is unknown: larger than the last-level caches of most servers.
const FallbackColdArea = 64 << 20

// ColdArea is the area (per buffer) that cache = "cold" cycles through: twice the
// last-level cache of this machine, so no region is still cached when it comes round.
var ColdArea = sync.OnceValue(func() int64 {
	if llc, ok := LastLevelCache("/sys/devices/system/cpu/cpu0/cache"); ok {
		return 2 * llc
	}
	return FallbackColdArea
})

// LastLevelCache reads the size of the highest-level cache under a sysfs cache
// directory (index*/level, index*/size such as "32768K").
func LastLevelCache(dir string) (int64, bool) {
	idx, _ := filepath.Glob(filepath.Join(dir, "index*"))
	best, bestLevel := int64(0), 0
	for _, d := range idx {
		lv, err1 := os.ReadFile(filepath.Join(d, "level"))
		sz, err2 := os.ReadFile(filepath.Join(d, "size"))
		if err1 != nil || err2 != nil {
			continue
		}
		level, err := strconv.Atoi(strings.TrimSpace(string(lv)))
		size, ok := parseCacheSize(strings.TrimSpace(string(sz)))
		if err != nil || !ok || level < bestLevel {
			continue
		}
		if level > bestLevel || size > best {
			best, bestLevel = size, level
		}
	}
	return best, best > 0
}

func parseCacheSize(s string) (int64, bool) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > 1<<40/mult {
		return 0, false
	}
	return n * mult, true
}
