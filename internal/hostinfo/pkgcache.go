package hostinfo

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// The package manager's answer for a library file, kept between runs: dpkg-query -S
// reads every installed package's file list, a tenth of a second or more per library
// and run, which a one-line run would otherwise spend before its first point. The key
// is the file's path, size and modification time, which an upgrade of the package
// changes. Without a cache directory (no HOME) every run asks.

// lookupPackage is the uncached question (a variable: tests count the questions).
var lookupPackage = askPackageManager

var cacheMu sync.Mutex // two lookups of one process may store at once

// cacheFile is where the answers are kept, or "" when there is no user cache directory.
func cacheFile() string {
	dir, err := os.UserCacheDir()
	if err != nil || dir == "" {
		return ""
	}
	return filepath.Join(dir, "skampi", "package-versions")
}

// fileKey identifies a file's contents well enough for a package's version: "" when
// it cannot be read (then nothing is cached).
func fileKey(file string) string {
	st, err := os.Stat(file)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%s %d %d", file, st.Size(), st.ModTime().UnixNano())
}

// packageVersion is the version of the dpkg or rpm package that owns file, or "":
// from the cache when the file is unchanged since it was asked.
func packageVersion(file string) string {
	key, path := fileKey(file), cacheFile()
	if key == "" || path == "" {
		return lookupPackage(file)
	}
	if v, ok := cached(path, key); ok {
		return v
	}
	v := lookupPackage(file)
	store(path, key, v)
	return v
}

// cached reads the cache: one "key<TAB>version" line per answer, the last one of a
// key wins (a line is appended whole, so concurrent runs only ever add lines).
func cached(path, key string) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	v, ok := "", false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, val, found := strings.Cut(sc.Text(), "\t"); found && k == key {
			v, ok = val, true
		}
	}
	return v, ok
}

// store appends an answer; a cache that cannot be written costs the next run the
// question again, nothing more.
func store(path, key, v string) {
	if strings.ContainsAny(key+v, "\t\n") {
		return
	}
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if os.MkdirAll(filepath.Dir(path), 0o755) != nil {
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	f.WriteString(key + "\t" + v + "\n") // one write: lines of concurrent runs never interleave
}
