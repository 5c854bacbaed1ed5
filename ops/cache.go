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

// ColdCacheCap bounds the cache a cold cache defeats when it is detected rather than
// set: a virtual machine may report its host's whole last-level cache (260 MiB was
// seen), of which it has a share; twice that per buffer and rank streamed a gigabyte
// per repetition and made a 64 KiB point hit its time cap. cache_size sets more.
const ColdCacheCap = 64 << 20

// detectedCache is this machine's last-level cache (0: unknown).
var detectedCache = sync.OnceValue(func() int64 {
	llc, _ := LastLevelCache("/sys/devices/system/cpu/cpu0/cache")
	return llc
})

// ColdArea is the area (per buffer) that cache = "cold" cycles through for a cache of
// cacheSize bytes (0: this machine's last-level cache, at most ColdCacheCap): twice
// the cache, so no region is still cached when it comes round.
func ColdArea(cacheSize int64) int64 {
	if cacheSize > 0 {
		return 2 * cacheSize
	}
	if llc := detectedCache(); llc > 0 {
		return 2 * min(llc, ColdCacheCap)
	}
	return FallbackColdArea
}

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
