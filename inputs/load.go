package inputs

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// Load reads a suite from a file path or, when no such file exists, a built-in suite
// by name.
func Load(nameOrPath string) (*Plan, error) {
	source, text, err := ReadSuite(nameOrPath)
	if err != nil {
		return nil, err
	}
	p, err := Parse(source, text)
	if p != nil && source != nameOrPath {
		p.Name = nameOrPath
	}
	return p, err
}

// ReadSuite reads a suite file, or else a built-in suite, as Load does: its source
// ("builtin:NAME" or the path) and its text.
func ReadSuite(nameOrPath string) (source string, text []byte, err error) {
	data, err := readBounded(nameOrPath)
	if err == nil {
		return nameOrPath, data, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return "", nil, fmt.Errorf("reading suite: %w", err)
	}
	if text, ok := builtinText(nameOrPath); ok {
		return "builtin:" + nameOrPath, text, nil
	}
	return "", nil, fmt.Errorf("%s: no such file, and no built-in suite of that name (built-ins: %s)",
		nameOrPath, joinNames(BuiltinNames()))
}

// readBounded reads at most one byte more than a suite may have, so an endless input
// (/dev/zero, a pipe that never ends) never grows in memory; Parse reports it.
func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s is a directory, not a suite file", path)
	}
	return io.ReadAll(io.LimitReader(f, maxFileBytes+1))
}
