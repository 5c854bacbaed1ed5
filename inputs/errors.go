package inputs

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Error is one problem in a suite file.
type Error struct {
	File string
	Pos  Pos // zero when the problem has no single position
	Msg  string
}

func (e *Error) Error() string {
	if e.Pos.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

// ErrorList is every problem found in one suite file, in file order.
type ErrorList struct {
	File   string
	Errors []*Error
}

func (el *ErrorList) add(p Pos, format string, args ...any) {
	el.Errors = append(el.Errors, &Error{File: el.File, Pos: p, Msg: fmt.Sprintf(format, args...)})
}

// Error prints one problem per line.
func (el *ErrorList) Error() string {
	lines := make([]string, len(el.Errors))
	for i, e := range el.Errors {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

func (p Pos) less(q Pos) bool {
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

// trimTOML drops the decoder's "toml: " prefix: the file name already says what failed.
func trimTOML(msg string) string { return strings.TrimPrefix(msg, "toml: ") }

func baseName(file string) string {
	b := filepath.Base(strings.TrimPrefix(file, "builtin:"))
	return strings.TrimSuffix(b, filepath.Ext(b))
}

func joinNames(xs []string) string { return strings.Join(xs, ", ") }

// Suggest is the known word closest to w when it is plausibly a typo of it, or "".
func Suggest(w string, known []string) string { return suggest(w, known) }

// suggest returns the known word closest to w when it is plausibly a typo of it.
func suggest(w string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if strings.EqualFold(k, w) {
			return k
		}
		if d := editDistance(strings.ToLower(w), strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
