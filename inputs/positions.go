package inputs

import (
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
	prefix := ""
	shape := func(n *unstable.Node) Pos {
		s := p.Shape(n.Raw)
		return Pos{s.Start.Line, s.Start.Column}
	}
	// resolve joins header key parts, entering the current element of arrays of tables.
	resolve := func(it unstable.Iterator, newElement bool) (string, *unstable.Node) {
		path := ""
		var last *unstable.Node
		for it.Next() {
			last = it.Node()
			path = join(path, string(last.Data))
			if n, ok := arrays[path]; ok && !(newElement && it.IsLast()) {
				path = join(path, strconv.Itoa(n-1))
			}
		}
		if newElement {
			arrays[path]++
			path = join(path, strconv.Itoa(arrays[path]-1))
		}
		return path, last
	}
	var value func(path string, v *unstable.Node)
	keyval := func(base string, kv *unstable.Node) {
		path := base
		it := kv.Key()
		for it.Next() {
			path = join(path, string(it.Node().Data))
			if _, seen := ix.key[path]; !seen {
				ix.key[path] = shape(it.Node())
			}
		}
		value(path, kv.Value())
	}
	value = func(path string, v *unstable.Node) {
		if v.Raw.Length > 0 { // arrays carry no range of their own: their key stands in
			ix.val[path] = shape(v)
		}
		switch v.Kind {
		case unstable.InlineTable:
			it := v.Children()
			for it.Next() {
				if it.Node().Kind == unstable.KeyValue {
					keyval(path, it.Node())
				}
			}
		case unstable.Array:
			it := v.Children()
			for i := 0; it.Next(); i++ {
				value(join(path, strconv.Itoa(i)), it.Node())
			}
		}
	}
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			path, last := resolve(e.Key(), e.Kind == unstable.ArrayTable)
			prefix = path
			if last != nil {
				ix.key[path] = shape(last)
			}
		case unstable.KeyValue:
			keyval(prefix, e)
		}
	}
	return ix
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
