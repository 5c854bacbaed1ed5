package inputs

import (
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// Pos is a 1-based line and column in a suite file.
type Pos struct{ Line, Col int }

// positions maps a value's path ("measurement.1.sizes.from": array-of-table elements
// carry their index) to where its key, and its value, start in the file. The TOML
// decoder gives values but not where they were written; this index lets every semantic
// error point at the right line, also inside the n-th [[measurement]].
type positions struct {
	key map[string]Pos
	val map[string]Pos
}

func (ix positions) at(path string) Pos {
	if p, ok := ix.val[path]; ok {
		return p
	}
	return ix.key[path]
}

func (ix positions) keyAt(path string) Pos {
	if p, ok := ix.key[path]; ok {
		return p
	}
	return ix.val[path]
}

// indexPositions walks the document's syntax tree. It is only called on documents the
// decoder has accepted, so it ignores parser errors.
func indexPositions(data []byte) positions {
	ix := positions{key: map[string]Pos{}, val: map[string]Pos{}}
	var p unstable.Parser
	p.Reset(data)
	arrays := map[string]int{} // array-of-tables path -> elements seen
	// Offsets become positions through a table of line starts: the parser's own Shape
	// counts lines from the start of the file each time, quadratic on a big file.
	lines := []int{0}
	for i, c := range data {
		if c == '\n' {
			lines = append(lines, i+1)
		}
	}
	at := func(off int) Pos {
		l := sort.SearchInts(lines, off+1) - 1
		return Pos{l + 1, off - lines[l] + 1}
	}
	shape := func(n *unstable.Node) Pos { return at(int(n.Raw.Offset)) }
	// resolve joins header key parts, entering the current element of arrays of tables.
	resolve := func(it unstable.Iterator, newElement bool) (ipath, *unstable.Node) {
		var path ipath
		var last *unstable.Node
		for it.Next() {
			last = it.Node()
			path = path.child(string(last.Data))
			if _, seen := ix.key[path.s]; path.indexed() && !seen {
				ix.key[path.s] = shape(last) // [a.b] also says where a is
			}
			if n, ok := arrays[path.s]; ok && path.indexed() && !(newElement && it.IsLast()) {
				path = path.child(strconv.Itoa(n - 1))
			}
		}
		if newElement && path.indexed() {
			arrays[path.s]++
			path = path.child(strconv.Itoa(arrays[path.s] - 1))
		}
		return path, last
	}
	var value func(path ipath, v *unstable.Node, start int) int
	keyval := func(path ipath, kv *unstable.Node) {
		it := kv.Key()
		var last *unstable.Node
		for it.Next() {
			last = it.Node()
			path = path.child(string(last.Data))
			if _, seen := ix.key[path.s]; path.indexed() && !seen {
				ix.key[path.s] = shape(last)
			}
		}
		start := -1
		if last != nil {
			start = valueAfterKey(data, int(last.Raw.Offset+last.Raw.Length))
		}
		value(path, kv.Value(), start)
	}
	// value records where v starts, from its own range or else start, the offset the
	// caller found by scanning the text (arrays carry no range of their own), and
	// returns the offset just after v; offsets are -1 when unknown. It walks values
	// too deep to index as well: where they end tells where their siblings start.
	value = func(path ipath, v *unstable.Node, start int) int {
		if v.Raw.Length > 0 {
			start = int(v.Raw.Offset)
		}
		if start >= 0 && path.indexed() {
			ix.val[path.s] = at(start)
		}
		switch v.Kind {
		case unstable.InlineTable:
			end := -1
			it := v.Children()
			for it.Next() {
				if kv := it.Node(); kv.Kind == unstable.KeyValue {
					keyval(path, kv)
					end = -1
					if kv.Raw.Length > 0 {
						end = int(kv.Raw.Offset + kv.Raw.Length)
					}
				}
			}
			if end < 0 && start >= 0 {
				end = start + 1 // {}
			}
			return closing(data, end, '}')
		case unstable.Array:
			cur := -1
			if start >= 0 {
				cur = start + 1
			}
			it := v.Children()
			for i := 0; it.Next(); {
				if c := it.Node(); c.Kind != unstable.Comment {
					cur = value(path.child(strconv.Itoa(i)), c, skipSeparators(data, cur))
					i++
				}
			}
			return closing(data, cur, ']')
		}
		if v.Raw.Length > 0 {
			return int(v.Raw.Offset + v.Raw.Length)
		}
		return -1
	}
	var prefix ipath
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			path, last := resolve(e.Key(), e.Kind == unstable.ArrayTable)
			prefix = path
			if last != nil && path.indexed() {
				ix.key[path.s] = shape(last)
			}
		case unstable.KeyValue:
			keyval(prefix, e)
		}
	}
	return ix
}

// maxIndexDepth bounds the paths indexed. The decoder asks about none deeper than
// "measurement.0.sizes.from", and joining every part of a key dotted a hundred
// thousand times would take quadratic time and memory.
const maxIndexDepth = 6

// ipath is a path of n parts; past maxIndexDepth parts it is no longer built.
type ipath struct {
	s string
	n int
}

func (p ipath) indexed() bool { return p.n <= maxIndexDepth }

func (p ipath) child(part string) ipath {
	if p.n >= maxIndexDepth {
		return ipath{n: maxIndexDepth + 1}
	}
	return ipath{join(p.s, part), p.n + 1}
}

// valueAfterKey returns the offset of the value in `key = value`, given the offset
// just after the key, or -1.
func valueAfterKey(data []byte, off int) int {
	off = skipBlanks(data, off)
	if off >= len(data) || data[off] != '=' {
		return -1
	}
	if off = skipBlanks(data, off+1); off >= len(data) {
		return -1
	}
	return off
}

// skipSeparators skips what may separate the values of an array: blanks, newlines,
// commas and comments. It returns the offset of the next value, or -1.
func skipSeparators(data []byte, off int) int {
	for off >= 0 && off < len(data) {
		switch data[off] {
		case ' ', '\t', '\r', '\n', ',':
			off++
		case '#':
			for off < len(data) && data[off] != '\n' {
				off++
			}
		default:
			return off
		}
	}
	return -1
}

// closing returns the offset just after the bracket that closes an array or inline
// table whose last value ends at off, or -1.
func closing(data []byte, off int, bracket byte) int {
	if off = skipSeparators(data, off); off < 0 || data[off] != bracket {
		return -1
	}
	return off + 1
}

func skipBlanks(data []byte, off int) int {
	for off < len(data) && (data[off] == ' ' || data[off] == '\t') {
		off++
	}
	return off
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

// humanPath turns "measurement.1.sizes.from" into "measurement 2: sizes.from".
func humanPath(path string) string {
	parts := strings.Split(path, ".")
	if len(parts) >= 2 && parts[0] == "measurement" {
		if i, err := strconv.Atoi(parts[1]); err == nil {
			m := "measurement " + strconv.Itoa(i+1)
			if len(parts) == 2 {
				return m
			}
			return m + ": " + strings.Join(parts[2:], ".")
		}
	}
	return path
}
